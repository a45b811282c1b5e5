//! The computer opponents.
//!
//! [`think`] answers a [`Request`]: the move to play, or for dice chess before rolling the
//! choice between a king move and rolling. It runs on a worker thread and stops when `cancel` is
//! set. It never looks at hidden information: for minesweeper chess it only reads what a player
//! sees ([`crate::rules::mine::Position::visible`]) and the legal moves, which never depend on
//! hidden mines.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{AnyGame, AnyMove};

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
}

/// Answers a request: a capture-preferring choice among the legal moves, seeded.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use takhte::ai::{think, Answer, Request};
/// use takhte::rules::{AnyGame, GameKind};
/// let req = Request { game: AnyGame::start(GameKind::Chess, 0), level: 3, seed: 1, rolled: None, movetime_ms: 100 };
/// assert!(matches!(think(&req, &AtomicBool::new(false)), Some(Answer::Move(_))));
/// ```
pub fn think(req: &Request, cancel: &AtomicBool) -> Option<Answer> {
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(req.seed ^ (req.level as u64) << 32);
    let mut moves = req.game.legal_moves();
    if let AnyGame::Dice(_) = &req.game {
        use crate::rules::dice::Move as D;
        moves.retain(|m| match (m, req.rolled) {
            (AnyMove::Dice(D::King { .. }), None) => true,
            (AnyMove::Dice(D::Pawn { face, .. }), Some(f))
            | (AnyMove::Dice(D::Pass { face }), Some(f)) => *face == f,
            _ => false,
        });
        if req.rolled.is_none() && (moves.is_empty() || rng.gen_bool(0.8)) {
            return Some(Answer::Roll);
        }
    }
    if moves.is_empty() {
        return None;
    }
    let captures: Vec<&AnyMove> = moves.iter().filter(|m| is_capture(&req.game, m)).collect();
    let pick = if !captures.is_empty() && rng.gen_bool(0.7) {
        captures[rng.gen_range(0..captures.len())].clone()
    } else {
        moves[rng.gen_range(0..moves.len())].clone()
    };
    Some(Answer::Move(pick))
}

fn is_capture(game: &AnyGame, mv: &AnyMove) -> bool {
    match (game, mv) {
        (AnyGame::Chess(l), AnyMove::Chess(m)) => l.position().board().is_capture(*m),
        (AnyGame::Mine(l), AnyMove::Mine(crate::rules::mine::Move::Piece(m))) => {
            l.position().board().is_capture(*m)
        }
        (AnyGame::Draughts(_), AnyMove::Draughts(m)) => m.is_capture(),
        (AnyGame::Dice(l), AnyMove::Dice(m)) => {
            m.to().and_then(|t| l.position().piece_at(t)).is_some()
        }
        _ => false,
    }
}
