//! The computer opponents.
//!
//! [`think`] answers a [`Request`]: the move to play, or for dice chess before rolling the
//! choice between a king move and rolling. It runs on a worker thread and stops when `cancel` is
//! set. It never looks at hidden information: for minesweeper chess it only reads what a player
//! sees ([`takhte_rules::mine::Position::visible`]) and searches its own model of the board
//! ([`mine`]), never the real position, whose moves would set off the hidden mines.
//!
//! - [`search`]: negamax alpha-beta over any [`game::SearchGame`] (chess [`chess`], minesweeper
//!   chess [`mine`], Turkish draughts [`draughts`]), with [`tt`], [`zobrist`] and [`budget`].
//! - [`dice`]: expectimax with Star1/Star2 pruning over the six faces.
//! - [`level`]: what each of the six levels searches; [`play`]: requests to searches and back.
//! - [`baseline`]: the `greedy` and `random` players for matches; [`arena`] plays matches;
//!   [`uci`] serves the chess AI over the UCI protocol; [`external`] drives another UCI engine.
//! - [`wire`]: a request and its answer as text, for a search in a Web Worker.

#![deny(missing_docs)]

/// Defines `fn NAME(ARGS) -> RET` that calls `BODY(ARGS)`, an `#[inline(always)]` function,
/// compiled twice: for the build's baseline and, on x86-64, with the instructions of FEATURE
/// (`"popcnt"`: nearly every processor since 2008 has it, and the baseline counts bits without
/// it; `"avx2"`: twice as wide vectors), chosen when the program runs. Other targets (ARM,
/// wasm) count bits in one instruction anyway and have one width of vectors.
macro_rules! with_feature {
    ($feature:tt, $(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $body:path) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = $feature)]
                fn fast($($arg: $ty),*) -> $ret {
                    $body($($arg),*)
                }
                if std::arch::is_x86_feature_detected!($feature) {
                    // SAFETY: the processor has the instructions `fast` is compiled with.
                    return unsafe { fast($($arg),*) };
                }
            }
            $body($($arg),*)
        }
    };
}

pub mod arena;
pub mod baseline;
pub mod budget;
pub mod chess;
pub mod dice;
pub mod draughts;
pub mod external;
pub mod game;
pub mod level;
pub mod mine;
pub mod play;
pub mod search;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod wire;
pub mod zobrist;

use std::sync::atomic::{AtomicBool, Ordering};

use takhte_rules::{AnyGame, AnyMove};

pub use level::DEFAULT_LEVEL;

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;
/// The highest level.
pub const MAX_LEVEL: u8 = 6;

/// What the computer is asked.
#[derive(Clone, Debug)]
pub struct Request {
    /// The game (position and history) to move in.
    pub game: AnyGame,
    /// Strength, 1–6.
    pub level: u8,
    /// Seed for the computer's own choices (noise at low levels), so the same seed gives the
    /// same move.
    pub seed: u64,
    /// Dice chess: the face already rolled, or `None` before rolling.
    pub rolled: Option<u8>,
    /// Time budget in milliseconds.
    pub movetime_ms: u64,
}

/// The computer's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Play this move.
    Move(AnyMove),
    /// Dice chess: roll the die (then ask again with the face).
    Roll,
}

/// A search engine that answers requests; the controller holds one behind this trait so tests
/// can put a scripted engine in its place.
pub trait Engine: Send + Sync {
    /// Answers `req`, or `None` when cancelled or when there is no move.
    fn think(&self, req: &Request, cancel: &AtomicBool) -> Option<Answer>;

    /// Whether the computer accepts a draw offer in this game.
    fn accepts_draw(&self, _game: &AnyGame, _level: u8) -> bool {
        false
    }
}

/// The standard engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standard;

impl Engine for Standard {
    fn think(&self, req: &Request, cancel: &AtomicBool) -> Option<Answer> {
        think(req, cancel)
    }

    /// The computer is taken to be the side not to move (the player offers on their own turn).
    /// It accepts when a quick search finds it worse by at least 60 centipawns (0.6 of a pawn,
    /// a draughts man or a dice-chess pawn), at every level, and always in a dice chess game
    /// that neither side can win any more (a king and at most one pawn against a lone king,
    /// [`dice::board::DiceBoard::dead_draw`]), which the rules would otherwise play on for ever.
    fn accepts_draw(&self, game: &AnyGame, _level: u8) -> bool {
        if let AnyGame::Dice(line) = game {
            if dice::board::DiceBoard::from_position(line.position()).dead_draw() {
                return true;
            }
        }
        match play::quick_score(game) {
            Some(score) => score >= 60,
            None => false,
        }
    }
}

/// Answers a request with the search of its level. `None` when cancelled (the flag was set
/// before the answer was ready) or when the game is over.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use takhte_ai::{think, Answer, Request};
/// use takhte_rules::{AnyGame, GameKind};
/// let req = Request { game: AnyGame::start(GameKind::Chess, 0), level: 3, seed: 1, rolled: None, movetime_ms: 100 };
/// assert!(matches!(think(&req, &AtomicBool::new(false)), Some(Answer::Move(_))));
/// ```
pub fn think(req: &Request, cancel: &AtomicBool) -> Option<Answer> {
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let answer = match &req.game {
        AnyGame::Dice(_) => play::answer_dice(req, cancel),
        _ => play::answer_alpha_beta(req, cancel),
    };
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    answer
}
