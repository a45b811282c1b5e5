//! Matches between players: `takhte match GAME --white A --black B --games N --seed S
//! [--movetime MS]`.
//!
//! A player is a level (`1`–`6`), a baseline (`greedy`, `random`) or, for chess, another UCI
//! engine (`uci:PROGRAM`, e.g. `uci:stockfish`, with `--uci-option NAME=VALUE`). Colours
//! alternate: in odd-numbered games (the 2nd, 4th, …) player A (`--white`) takes Black, so each
//! pair of games starts from the same opening with colours swapped; `--fixed-colours` turns this
//! off. Wins, draws and losses are counted for player A.
//!
//! Everything random is seeded from `--seed` and the game number: the opening (chess: one of a
//! list of common openings, the same for both games of a pair; draughts: two random plies),
//! the dice chess start roll and die rolls, the minesweeper mines (one layout per pair) and the
//! levels' noise. A game that reaches the ply limit is a draw, and so is a dice chess game that
//! comes down to a king and at most one pawn against a lone king (neither side can mate).
//!
//! `--start FILE` plays from given positions instead (one position text a line, each pair of
//! games takes the next line), for instance endgames, to see whether a level converts them.
//! `--idle-plies N` scores a game as a draw once no piece has left the board for N plies
//! (an adjudication for measuring: dice chess and minesweeper chess have no 50-move rule, and
//! their dead-drawn endgames would otherwise run to the ply limit).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use takhte_rules::dice::{first_player, Position as DicePosition};
use takhte_rules::{AnyGame, GameKind, GameResult, Line, Side};

use super::baseline::{self, Baseline};
use super::external::External;
use super::zobrist::splitmix;
use super::{think, Answer, Request};
use crate::level::Setting;
use crate::search::Features;

/// A player of a match, as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// An AI level, 1–6.
    Level(u8),
    /// A baseline.
    Baseline(Baseline),
    /// Another UCI engine (chess only): the program to run.
    Uci(String),
    /// Level 6 with only some of the search's refinements and a choice of evaluation
    /// ([`Features`]): `6ref` is [`Features::REFERENCE`] (the top level as it was before the
    /// search's refinements and the tuned evaluations, at today's speed); `6hand` level 6's
    /// refinements ([`Features::TOP`]) with the hand-written numbers (chess and minesweeper chess
    /// [`crate::chess::params::HAND`], draughts [`crate::draughts::params::HAND`]);
    /// `6+NAMES` the refinements named (comma-separated: `lmr`, `lmp`, `malus`, `null`,
    /// `contempt`, `iir`, `improving`, `asp` (aspiration windows), `tteval` (the table's
    /// score as the static evaluation), `see` (pruning by static exchange), `sing` (singular
    /// extensions), `sq` (chess's piece-square corrections), and
    /// `hand` for the hand-written numbers; `6+` none of them). Dice chess, whose search is the
    /// expectimax one, plays its level 6 unchanged.
    Top(Features),
    /// A search of chess, minesweeper chess or draughts with the given setting, written
    /// `search:DEPTH:NODES:NOISE` (for calibrating the levels; fixed depth, node budget and
    /// noise as in [`crate::level::setting`]).
    Search(Setting),
}

impl PlayerSpec {
    /// Reads `1`–`6`, `6ref`, `6hand`, `6+NAMES`, `search:DEPTH:NODES:NOISE`, `greedy`,
    /// `random` or `uci:PROGRAM`.
    pub fn parse(text: &str) -> Option<PlayerSpec> {
        match text {
            "6ref" => Some(PlayerSpec::Top(Features::REFERENCE)),
            "6hand" => Some(PlayerSpec::Top(Features {
                hand_eval: true,
                ..Features::TOP
            })),
            _ if text.starts_with("6+") => {
                let mut f = Features {
                    hand_eval: false,
                    ..Features::REFERENCE
                };
                for name in text[2..].split(',').filter(|n| !n.is_empty()) {
                    match name {
                        "lmr" => f.log_reductions = true,
                        "lmp" => f.late_move_pruning = true,
                        "malus" => f.history_malus = true,
                        "null" => f.eval_null_reduction = true,
                        "contempt" => f.contempt = true,
                        "iir" => f.iir = true,
                        "improving" => f.improving = true,
                        "asp" => f.aspiration = true,
                        "tteval" => f.tt_eval = true,
                        "see" => f.see_pruning = true,
                        "sing" => f.singular = true,
                        "sq" => f.squares = true,
                        "net" => f.net = true,
                        "hand" => f.hand_eval = true,
                        _ => return None,
                    }
                }
                Some(PlayerSpec::Top(f))
            }
            _ if text.starts_with("search:") => {
                let parts: Vec<&str> = text["search:".len()..].split(':').collect();
                let [depth, nodes, noise] = parts[..] else {
                    return None;
                };
                Some(PlayerSpec::Search(Setting {
                    depth: depth.parse().ok().filter(|d| (1..=64).contains(d))?,
                    nodes: nodes.parse().ok().filter(|&n| n > 0)?,
                    noise: noise.parse().ok().filter(|n| (0..=1000).contains(n))?,
                    timed: false,
                    tt_mb: 4,
                    hand_eval: true,
                }))
            }
            "greedy" => Some(PlayerSpec::Baseline(Baseline::Greedy)),
            "random" => Some(PlayerSpec::Baseline(Baseline::Random)),
            _ => {
                if let Some(p) = text.strip_prefix("uci:") {
                    return (!p.is_empty()).then(|| PlayerSpec::Uci(p.to_string()));
                }
                match text.parse::<u8>() {
                    Ok(l @ 1..=6) => Some(PlayerSpec::Level(l)),
                    _ => None,
                }
            }
        }
    }

    /// The short name used in the report.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Level(l) => format!("level {l}"),
            PlayerSpec::Baseline(Baseline::Greedy) => "greedy".into(),
            PlayerSpec::Baseline(Baseline::Random) => "random".into(),
            PlayerSpec::Uci(p) => format!("uci:{p}"),
            PlayerSpec::Top(f) if *f == Features::REFERENCE => "level 6 (reference search)".into(),
            PlayerSpec::Top(f)
                if f.hand_eval
                    && Features {
                        hand_eval: false,
                        ..*f
                    } == Features::TOP =>
            {
                "level 6 (hand-written evaluation)".into()
            }
            PlayerSpec::Top(f) => {
                let names = [
                    (f.log_reductions, "lmr"),
                    (f.late_move_pruning, "lmp"),
                    (f.history_malus, "malus"),
                    (f.eval_null_reduction, "null"),
                    (f.contempt, "contempt"),
                    (f.iir, "iir"),
                    (f.improving, "improving"),
                    (f.aspiration, "asp"),
                    (f.tt_eval, "tteval"),
                    (f.see_pruning, "see"),
                    (f.singular, "sing"),
                    (f.squares, "sq"),
                    (f.net, "net"),
                    (f.hand_eval, "hand"),
                ];
                let on: Vec<&str> = names.iter().filter(|(b, _)| *b).map(|(_, n)| *n).collect();
                format!("level 6 (+{})", on.join(","))
            }
            PlayerSpec::Search(s) => format!("search:{}:{}:{}", s.depth, s.nodes, s.noise),
        }
    }
}

/// A match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub kind: GameKind,
    /// Player A (`--white`).
    pub a: PlayerSpec,
    /// Player B (`--black`).
    pub b: PlayerSpec,
    /// Number of games.
    pub games: u32,
    /// Seed for everything random.
    pub seed: u64,
    /// Time a move for level 6 and UCI engines (and the safety cap of levels 1–5).
    pub movetime_ms: u64,
    /// Whether colours alternate.
    pub alternate: bool,
    /// Options for UCI engines.
    pub uci_options: Vec<(String, String)>,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Whether the report lists each game's moves and its last position.
    pub show_moves: bool,
    /// Start positions (position texts); empty for the usual starts.
    pub starts: Vec<String>,
    /// Plies without a piece leaving the board after which a game is scored a draw.
    pub idle_plies: Option<usize>,
}

/// The totals, for player A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games A won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl Totals {
    /// A's score as a fraction (a draw counts half).
    pub fn score(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            0.0
        } else {
            (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
        }
    }
}

/// How long one player thought: the number of turns, their total and the longest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// Turns answered (a dice chess turn counts once, roll and move together).
    pub turns: u32,
    /// Total thinking time.
    pub total: Duration,
    /// The longest turn.
    pub longest: Duration,
}

impl Thinking {
    fn add(&mut self, took: Duration) {
        self.turns += 1;
        self.total += took;
        self.longest = self.longest.max(took);
    }

    fn merge(&mut self, other: &Thinking) {
        self.turns += other.turns;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
    }

    /// The mean time of a turn (zero before the first).
    pub fn mean(&self) -> Duration {
        if self.turns == 0 {
            Duration::ZERO
        } else {
            self.total / self.turns
        }
    }

    /// One line: turns, mean and longest in milliseconds.
    pub fn describe(&self) -> String {
        format!(
            "{} turns, mean {:.0} ms, longest {:.0} ms",
            self.turns,
            self.mean().as_secs_f64() * 1000.0,
            self.longest.as_secs_f64() * 1000.0
        )
    }
}

/// Common chess openings, as UCI moves, one per pair of games (cycled).
const OPENINGS: [&str; 16] = [
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "c2c4 e7e5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "d2d4 g8f6 c2c4 e7e6",
    "e2e4 e7e5 f1c4 g8f6",
    "e2e4 d7d5 e4d5 d8d5",
    "d2d4 d7d5 g1f3 g8f6",
    "e2e4 c7c5 b1c3 b8c6",
    "d2d4 f7f5 g2g3 g8f6",
    "c2c4 c7c5 g1f3 g8f6",
    "e2e4 g7g6 d2d4 f8g7",
];

enum Player {
    Level(u8),
    Top(Features),
    Search(Setting),
    Baseline(Baseline),
    Uci(Box<External>),
}

fn make_player(spec: &PlayerSpec, options: &[(String, String)]) -> Result<Player, String> {
    Ok(match spec {
        PlayerSpec::Level(l) => Player::Level(*l),
        PlayerSpec::Top(f) => Player::Top(*f),
        PlayerSpec::Search(s) => Player::Search(*s),
        PlayerSpec::Baseline(b) => Player::Baseline(*b),
        PlayerSpec::Uci(p) => Player::Uci(Box::new(External::start(p, options)?)),
    })
}

/// The start of pair `pair` when the match has start positions: the position, and the start
/// of the position command for external engines.
fn given_start(cfg: &MatchConfig, pair: u64) -> Result<Option<(AnyGame, String)>, String> {
    if cfg.starts.is_empty() {
        return Ok(None);
    }
    let text = &cfg.starts[pair as usize % cfg.starts.len()];
    let game =
        AnyGame::from_text(cfg.kind, text).map_err(|e| format!("start position '{text}': {e}"))?;
    if game.outcome().is_some() {
        return Err(format!("start position '{text}': the game is already over"));
    }
    Ok(Some((game, format!("fen {text}"))))
}

/// The number of pieces on the board of a position text (the letters of its first field).
fn pieces(game: &AnyGame) -> usize {
    let text = game.to_text();
    let board = text.split_whitespace().next().unwrap_or("");
    board.chars().filter(|c| c.is_ascii_alphabetic()).count()
}

/// The start of game `i`: the position, the moves already played (UCI text, for external
/// engines) and the die-roll generator.
fn start_game(kind: GameKind, seed: u64, pair: u64) -> (AnyGame, Vec<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ splitmix(pair)));
    match kind {
        GameKind::Chess => {
            let mut game = AnyGame::start(kind, 0);
            let moves: Vec<String> = OPENINGS[pair as usize % OPENINGS.len()]
                .split_whitespace()
                .map(str::to_string)
                .collect();
            for m in &moves {
                game.play_text(m)
                    .expect("the opening list holds legal moves");
            }
            (game, moves)
        }
        GameKind::DiceChess => {
            let first = loop {
                let (w, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
                if let Some(s) = first_player(w, b) {
                    break s;
                }
            };
            (
                AnyGame::Dice(Line::new(DicePosition::start(first))),
                Vec::new(),
            )
        }
        GameKind::Draughts => {
            let mut game = AnyGame::start(kind, 0);
            for _ in 0..2 {
                let moves = game.legal_moves();
                let mv = moves[rng.gen_range(0..moves.len())].clone();
                game.play(&mv).expect("a legal move");
            }
            (game, Vec::new())
        }
        GameKind::MineChess => (AnyGame::start(kind, splitmix(seed ^ pair)), Vec::new()),
    }
}

/// One move of `player`: the answer for the position (and, for dice chess, the face rolled).
fn ask(
    player: &mut Player,
    game: &AnyGame,
    rolled: Option<u8>,
    seed: u64,
    movetime_ms: u64,
    uci_start: &str,
    uci_moves: &[String],
) -> Result<Option<Answer>, String> {
    let request = |level: u8| Request {
        game: game.clone(),
        level,
        seed,
        rolled,
        movetime_ms,
    };
    let cancel = AtomicBool::new(false);
    Ok(match player {
        Player::Level(level) => think(&request(*level), &cancel),
        Player::Search(setting) => {
            crate::play::answer_with_setting(&request(5), &cancel, setting, Features::ALL)
        }
        Player::Top(features) => match game {
            AnyGame::Dice(_) => think(&request(6), &cancel),
            _ => crate::play::answer_alpha_beta_with(&request(6), &cancel, *features),
        },
        Player::Baseline(b) => baseline::answer(*b, game, rolled, seed),
        Player::Uci(e) => {
            let text = e.best_move(uci_start, uci_moves, movetime_ms)?;
            Some(Answer::Move(
                game.parse_move(&text)
                    .map_err(|err| format!("{}: {text}: {err}", e.name()))?,
            ))
        }
    })
}

/// A finished game of a match.
struct Played {
    /// The result (`None` never happens; a game cut at the ply limit is a draw).
    result: Option<GameResult>,
    /// Why it ended.
    reason: String,
    /// Plies played.
    plies: usize,
    /// The moves, as move texts.
    moves: Vec<String>,
    /// The last position, as a position text.
    last: String,
}

/// Whether the match ends `game` as a draw that the rules would play on: dice chess with a
/// king and at most one pawn against a lone king, where neither side can ever mate
/// ([`super::dice::board::DiceBoard::dead_draw`]). It saves playing on to the ply limit.
fn dead_draw(game: &AnyGame) -> bool {
    match game {
        AnyGame::Dice(line) => {
            super::dice::board::DiceBoard::from_position(line.position()).dead_draw()
        }
        _ => false,
    }
}

/// Plays one game; the result for White, the reason and the number of plies.
fn play_game(
    cfg: &MatchConfig,
    i: u32,
    white: &mut Player,
    black: &mut Player,
    thinking: &mut [Thinking; 2],
) -> Result<Played, String> {
    let pair = if cfg.alternate { i / 2 } else { i } as u64;
    let (mut game, mut uci_moves, uci_start) = match given_start(cfg, pair)? {
        Some((game, start)) => (game, Vec::new(), start),
        None => {
            let (game, moves) = start_game(cfg.kind, cfg.seed, pair);
            (game, moves, "startpos".to_string())
        }
    };
    // Only counted when the match adjudicates idle games (it writes the position text).
    let count = |game: &AnyGame| cfg.idle_plies.map_or(0, |_| pieces(game));
    let (mut on_board, mut last_change) = (count(&game), 0);
    for p in [&mut *white, &mut *black] {
        if let Player::Uci(e) = p {
            e.new_game()?;
        }
    }
    let mut dice = ChaCha8Rng::seed_from_u64(splitmix(cfg.seed ^ 0xd1ce ^ i as u64));
    let mut plies = 0;
    while plies < cfg.max_plies {
        if let Some(o) = game.outcome() {
            return Ok(Played {
                result: Some(o.result),
                reason: o.reason.as_str().to_string(),
                plies,
                last: game.to_text(),
                moves: uci_moves,
            });
        }
        let now_on_board = count(&game);
        if now_on_board != on_board {
            (on_board, last_change) = (now_on_board, plies);
        }
        let idle = cfg.idle_plies.is_some_and(|n| plies - last_change >= n);
        if dead_draw(&game) || idle {
            return Ok(Played {
                result: Some(GameResult::Draw),
                reason: if idle { "idle" } else { "dead-draw" }.to_string(),
                plies,
                last: game.to_text(),
                moves: uci_moves,
            });
        }
        let seed = splitmix(cfg.seed ^ (i as u64) << 32 ^ plies as u64);
        let mover = game.side_to_move();
        let player = if mover == Side::White {
            &mut *white
        } else {
            &mut *black
        };
        let asked = Instant::now();
        let mut answer = ask(
            player,
            &game,
            None,
            seed,
            cfg.movetime_ms,
            &uci_start,
            &uci_moves,
        )?;
        if answer == Some(Answer::Roll) {
            let face = dice.gen_range(1..=6u8);
            answer = ask(
                player,
                &game,
                Some(face),
                seed ^ 1,
                cfg.movetime_ms,
                &uci_start,
                &uci_moves,
            )?;
        }
        thinking[if mover == Side::White { 0 } else { 1 }].add(asked.elapsed());
        let Some(Answer::Move(mv)) = answer else {
            return Err(format!(
                "game {}: no move at ply {plies} in {}",
                i + 1,
                game.to_text()
            ));
        };
        uci_moves.push(game.move_to_text(&mv));
        game.play(&mv).map_err(|e| {
            format!(
                "game {}: illegal move {}: {e}",
                i + 1,
                game.move_to_text(&mv)
            )
        })?;
        plies += 1;
    }
    Ok(Played {
        result: game.outcome().map(|o| o.result).or(Some(GameResult::Draw)),
        reason: "ply-limit".to_string(),
        plies,
        last: game.to_text(),
        moves: uci_moves,
    })
}

/// Plays the match, writing one line per game and the totals to `out`.
pub fn play_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<Totals, String> {
    if cfg.kind != GameKind::Chess
        && [&cfg.a, &cfg.b]
            .iter()
            .any(|p| matches!(p, PlayerSpec::Uci(_)))
    {
        return Err("a UCI engine can only play chess".into());
    }
    let mut a = make_player(&cfg.a, &cfg.uci_options)?;
    let mut b = make_player(&cfg.b, &cfg.uci_options)?;
    let mut totals = Totals::default();
    let mut as_white = Totals::default();
    // Thinking time of A and of B.
    let mut thought = [Thinking::default(); 2];
    for i in 0..cfg.games {
        let a_white = !cfg.alternate || i % 2 == 0;
        let (white, black) = if a_white {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let mut by_colour = [Thinking::default(); 2];
        let played = play_game(cfg, i, white, black, &mut by_colour)?;
        let (result, reason, plies) = (played.result, &played.reason, played.plies);
        let (of_a, of_b) = if a_white {
            (by_colour[0], by_colour[1])
        } else {
            (by_colour[1], by_colour[0])
        };
        thought[0].merge(&of_a);
        thought[1].merge(&of_b);
        let a_side = if a_white { Side::White } else { Side::Black };
        let (mark, text) = match result {
            Some(GameResult::Win(s)) if s == a_side => {
                totals.wins += 1;
                if a_white {
                    as_white.wins += 1;
                }
                ("win", if s == Side::White { "1-0" } else { "0-1" })
            }
            Some(GameResult::Win(s)) => {
                totals.losses += 1;
                if a_white {
                    as_white.losses += 1;
                }
                ("loss", if s == Side::White { "1-0" } else { "0-1" })
            }
            _ => {
                totals.draws += 1;
                if a_white {
                    as_white.draws += 1;
                }
                ("draw", "1/2-1/2")
            }
        };
        let _ = writeln!(
            out,
            "game {:>3}: {} ({}) vs {}: {text} {reason} in {plies} plies: {mark} for {}",
            i + 1,
            cfg.a.name(),
            if a_white { "white" } else { "black" },
            cfg.b.name(),
            cfg.a.name(),
        );
        if cfg.show_moves {
            let _ = writeln!(out, "  moves: {}", played.moves.join(" "));
            let _ = writeln!(out, "  last: {}", played.last);
        }
        let _ = out.flush();
    }
    for (spec, t) in [&cfg.a, &cfg.b].into_iter().zip(thought) {
        let _ = writeln!(out, "time {}: {}", spec.name(), t.describe());
    }
    let _ = writeln!(
        out,
        "{} {} vs {}: {} wins, {} draws, {} losses (score {:.1}%; as white {}-{}-{})",
        cfg.kind,
        cfg.a.name(),
        cfg.b.name(),
        totals.wins,
        totals.draws,
        totals.losses,
        100.0 * totals.score(),
        as_white.wins,
        as_white.draws,
        as_white.losses,
    );
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::Rules;

    #[test]
    fn top_level_players_name_their_refinements() {
        let top = |t: &str| match PlayerSpec::parse(t) {
            Some(PlayerSpec::Top(f)) => Some(f),
            _ => None,
        };
        assert_eq!(top("6ref"), Some(Features::REFERENCE));
        assert!(top("6ref").is_some_and(|f| f.hand_eval));
        let f = top("6+lmr,null").unwrap();
        assert!(f.log_reductions && f.eval_null_reduction && !f.hand_eval);
        assert!(!f.late_move_pruning && !f.history_malus);
        // Level 6's refinements and the hand-written numbers: the same player as 6hand.
        assert_eq!(
            top("6+lmr,lmp,malus,null,iir,asp,tteval,sq,hand"),
            top("6hand")
        );
        assert_eq!(
            PlayerSpec::parse("6hand").unwrap().name(),
            "level 6 (hand-written evaluation)"
        );
        assert!(top("6+contempt").is_some_and(|f| f.contempt && !f.log_reductions));
        assert!(top("6+iir,improving").is_some_and(|f| f.iir && f.improving && !f.contempt));
        assert_eq!(
            PlayerSpec::parse("6+null,iir,improving").unwrap().name(),
            "level 6 (+null,iir,improving)"
        );
        assert_eq!(
            PlayerSpec::parse("6+lmr,hand").unwrap().name(),
            "level 6 (+lmr,hand)"
        );
        assert_eq!(
            top("6+"),
            Some(Features {
                hand_eval: false,
                ..Features::REFERENCE
            })
        );
        assert_eq!(PlayerSpec::parse("6+lmr,fast"), None);
    }

    #[test]
    fn the_second_twenty_openings_are_new_legal_starts() {
        // ai/openings/chess-second-twenty.fen: the starts of games 21-40 against Stockfish.
        let texts: Vec<&str> = include_str!("../openings/chess-second-twenty.fen")
            .lines()
            .collect();
        assert_eq!(texts.len(), 10);
        let cfg = |starts: Vec<String>| MatchConfig {
            kind: GameKind::Chess,
            a: PlayerSpec::Level(1),
            b: PlayerSpec::Level(1),
            games: 20,
            seed: 1,
            movetime_ms: 100,
            alternate: true,
            uci_options: Vec::new(),
            max_plies: 400,
            show_moves: false,
            starts,
            idle_plies: None,
        };
        let given = cfg(texts.iter().map(|t| t.to_string()).collect());
        let mut seen: Vec<String> = (0..OPENINGS.len() as u64)
            .map(|pair| start_game(GameKind::Chess, 1, pair).0.to_text())
            .collect();
        for pair in 0..texts.len() as u64 {
            let (game, _) = given_start(&given, pair).unwrap().unwrap();
            assert!(game.outcome().is_none() && !game.legal_moves().is_empty());
            let text = game.to_text();
            assert!(!seen.contains(&text), "{text} is already an opening");
            seen.push(text);
        }
        let broken = cfg(vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1".into()
        ]);
        assert!(given_start(&broken, 0).is_err());
    }

    #[test]
    fn a_king_and_one_pawn_against_a_lone_king_ends_a_match_game() {
        let dice = |text: &str| AnyGame::Dice(Line::new(DicePosition::from_text(text).unwrap()));
        assert!(dead_draw(&dice("4k3/8/8/8/8/8/P7/3K4 b")));
        assert!(dead_draw(&dice("4k3/8/8/8/8/8/8/3K4 w")));
        assert!(!dead_draw(&dice("4k3/8/8/8/8/8/PP6/3K4 b")));
        assert!(!dead_draw(&dice("4k3/p7/8/8/8/8/P7/3K4 w")));
        assert!(!dead_draw(&start_game(GameKind::Chess, 1, 0).0));
    }
}
