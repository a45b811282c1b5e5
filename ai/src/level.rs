//! The six levels of each game.
//!
//! Levels 1–5 are fixed-depth searches with a node budget and seeded noise on the final choice
//! (a bonus of up to `noise` centipawns on each root move's score), so they are reproducible:
//! the same request and seed give the same move on every machine, as long as the node budget
//! and not the time budget ends the search (the request's `movetime_ms` only stops them as a
//! safety net on a very slow device). Noise makes the lower levels play human-looking mistakes
//! (a move that looks almost as good to a shallow search), never random moves. Level 6 searches
//! by iterative deepening for the whole time budget; its move depends on the machine's speed.
//! Level 6 of chess and draughts evaluates with numbers tuned for its game (chess
//! [`crate::chess::tuned::TUNED`], draughts [`crate::draughts::tuned::TUNED`]); levels 1–5 and
//! minesweeper chess with the hand-written ones (the levels were calibrated with them).
//! Dice chess level 1 is the simple player of the source description ([`super::dice::simple_choice`]).

use takhte_rules::GameKind;

use super::search::Features;

/// The search settings of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// Plies (dice chess: turns) of the last iteration.
    pub depth: i32,
    /// Node budget.
    pub nodes: u64,
    /// Noise on the final choice, in centipawns.
    pub noise: i32,
    /// Whether the level searches for the whole time budget (level 6).
    pub timed: bool,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
    /// Evaluate with the hand-written numbers ([`crate::chess::params::HAND`],
    /// [`crate::draughts::params::HAND`]): levels 1–5 were calibrated with them, and the chess
    /// levels' ratings hold for them. Chess and draughts level 6 play with the tuned numbers.
    pub hand_eval: bool,
}

const fn fixed(depth: i32, nodes: u64, noise: i32) -> Setting {
    Setting {
        depth,
        nodes,
        noise,
        timed: false,
        tt_mb: 4,
        hand_eval: true,
    }
}

const TIMED: Setting = Setting {
    depth: 64,
    nodes: u64::MAX,
    noise: 0,
    timed: true,
    tt_mb: super::tt::DEFAULT_MB,
    hand_eval: false,
};

/// The level the app offers first.
pub const DEFAULT_LEVEL: u8 = 3;

/// The search refinements `level` (clamped to 1–6) plays with in chess, minesweeper chess and
/// draughts: [`Features::TOP`] at level 6, else [`Features::ALL`] (dice chess has a search of
/// its own and ignores them).
///
/// ```
/// use takhte_ai::level::features;
/// use takhte_ai::search::Features;
/// assert!(features(6).iir && !features(5).iir);
/// assert!(features(6).aspiration && features(6).tt_eval && !features(6).see_pruning);
/// assert_eq!(features(1), Features::ALL);
/// assert_eq!(features(9), Features::TOP);
/// ```
pub fn features(level: u8) -> Features {
    if level.clamp(super::MIN_LEVEL, super::MAX_LEVEL) == super::MAX_LEVEL {
        Features::TOP
    } else {
        Features::ALL
    }
}

/// The search refinements `level` (clamped to 1–6) plays with in `kind`: [`features`], except
/// chess level 6, [`Features::TOP_CHESS`].
///
/// ```
/// use takhte_ai::level::features_in;
/// use takhte_ai::search::Features;
/// use takhte_rules::GameKind;
/// assert_eq!(features_in(GameKind::Chess, 6), Features::TOP_CHESS);
/// assert_eq!(features_in(GameKind::Draughts, 6), Features::TOP);
/// assert_eq!(features_in(GameKind::Chess, 5), Features::ALL);
/// ```
pub fn features_in(kind: GameKind, level: u8) -> Features {
    match (kind, features(level)) {
        (GameKind::Chess, f) if f == Features::TOP => Features::TOP_CHESS,
        (_, f) => f,
    }
}

/// The settings of `level` (clamped to 1–6) in `kind`.
///
/// ```
/// use takhte_ai::level::setting;
/// use takhte_rules::GameKind;
/// assert!(setting(GameKind::Chess, 6).timed);
/// // Only level 6 plays with a tuned evaluation.
/// assert!(!setting(GameKind::Chess, 6).hand_eval && setting(GameKind::Chess, 5).hand_eval);
/// assert!(!setting(GameKind::Draughts, 6).hand_eval && setting(GameKind::Draughts, 5).hand_eval);
/// assert!(setting(GameKind::MineChess, 6).hand_eval);
/// assert!(setting(GameKind::Chess, 1).noise > setting(GameKind::Chess, 4).noise);
/// ```
pub fn setting(kind: GameKind, level: u8) -> Setting {
    let level = level.clamp(super::MIN_LEVEL, super::MAX_LEVEL);
    match (kind, level) {
        // Minesweeper chess keeps the hand-written numbers: the chess-tuned ones scored 47.5%
        // against them (40 games), numbers fitted to its own self-play results far less
        // (docs/strength.md).
        (GameKind::MineChess, 6) => Setting {
            hand_eval: true,
            ..TIMED
        },
        // Level 6 of chess and draughts evaluates with numbers tuned for its game.
        (_, 6) => TIMED,
        // Chess: calibrated so that each level scores about 15-20% against the next (some 300
        // rating points apart; scripts/ratings.sh, docs/strength.md). Noise costs depth (every
        // root move must be searched exactly to be chosen among), so the noisy levels get more
        // nodes than their strength suggests; levels 4 and 5 play their best move.
        (GameKind::Chess, l) => match l {
            1 => fixed(64, 60_000, 150),
            2 => fixed(64, 60_000, 60),
            3 => fixed(64, 120_000, 25),
            4 => fixed(64, 70_000, 0),
            _ => fixed(64, 200_000, 0),
        },
        (GameKind::MineChess, l) => match l {
            1 => fixed(1, 20_000, 220),
            2 => fixed(2, 60_000, 110),
            3 => fixed(3, 100_000, 45),
            4 => fixed(4, 100_000, 15),
            _ => fixed(64, 200_000, 0),
        },
        (GameKind::Draughts, l) => match l {
            1 => fixed(1, 20_000, 150),
            2 => fixed(3, 60_000, 80),
            3 => fixed(4, 100_000, 35),
            4 => fixed(6, 150_000, 12),
            _ => fixed(64, 200_000, 0),
        },
        // Dice chess: depth, not noise, is what separates players here (measured: a 1-turn
        // search with or without noise scores 50% against another), so the levels step by
        // depth where they can, and level 4 gets the nodes to finish its third turn (with
        // 400 000 it often fell back to two and drew every game against level 3). Games
        // between searching levels are mostly drawn, and that is the game, not the search:
        // pawns attack forward only, so a king on the far first rank can never be checked
        // again; a king and one pawn cannot mate a lone king; king and two pawns against a
        // lone king, solved exactly (`cargo bench --bench dice_endgame`), mates from 2.2% of
        // middle-board positions on average; bare kings are a draw. Two 3-turn searches drew
        // all 20 games whatever their noise, nodes or contempt, and so did a 2-turn search
        // against one with a material-only evaluation, or against one that never moves its
        // king unless in check. See the README for the measured ladder.
        (GameKind::DiceChess, l) => match l {
            1 => fixed(0, 0, 0),
            2 => fixed(1, 50_000, 90),
            3 => fixed(2, 150_000, 30),
            4 => fixed(3, 1_500_000, 15),
            _ => fixed(3, 2_000_000, 0),
        },
    }
}

/// The approximate rating of a chess level, as the new-game screen shows it ("Level 4 · about
/// 1800"); `None` for the other games, which have no outside scale to measure against.
///
/// Measured by `scripts/ratings.sh`: matches against Stockfish at fixed `UCI_Elo` values
/// (its own calibrated scale, 1350 to 2850) and between neighbouring levels, one
/// maximum-likelihood fit of all of them; the games, scores and their 95% intervals are in
/// `docs/strength.md`. Rounded to 50 points: the intervals are wider than that.
///
/// ```
/// use takhte_ai::level::approximate_rating;
/// use takhte_rules::GameKind;
/// let chess: Vec<u32> = (1..=6).filter_map(|l| approximate_rating(GameKind::Chess, l)).collect();
/// assert_eq!(chess.len(), 6);
/// assert!(chess.windows(2).all(|w| w[0] < w[1]));
/// assert_eq!(approximate_rating(GameKind::Draughts, 4), None);
/// ```
pub fn approximate_rating(kind: GameKind, level: u8) -> Option<u32> {
    match kind {
        GameKind::Chess => CHESS_RATINGS
            .get(usize::from(level.clamp(super::MIN_LEVEL, super::MAX_LEVEL)) - 1)
            .copied(),
        _ => None,
    }
}

/// The ratings of chess levels 1–6 (see [`approximate_rating`]).
const CHESS_RATINGS: [u32; 6] = [1000, 1250, 1600, 1800, 1900, 2200];
