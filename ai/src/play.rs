//! From a [`Request`] to an [`Answer`] for each game: builds the search position from what the
//! player may see, sets the limits of the level and turns the search's move back into a move of
//! the rules.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use takhte_rules::dice::Move as DiceMove;
use takhte_rules::draughts::{Compact, Move as DraughtsMove, Position as DraughtsPosition};
use takhte_rules::{AnyGame, AnyMove, Line, Rules};

use super::chess::eval::chosen;
use super::chess::{ChessGame, Pos as ChessPos};
use super::dice::board::{DMove, DiceBoard};
use super::dice::expectimax::{decide, Choice};
use super::draughts::{DraughtsGame, Pos as DraughtsPos};
use super::level::{setting, Setting};
use super::mine::MineGame;
use super::search::{search, Features, Found, Limits};
use super::tt::Tt;
use super::{Answer, Request};

/// The transposition table for a level and a request: the level's size, but for the timed
/// level no bigger than the search can fill in its time (about 16 MB a second), so that short
/// searches do not spend their time clearing memory.
pub fn table_for(s: &Setting, req: &Request) -> Tt {
    let mb = if s.timed {
        (req.movetime_ms as usize / 60).clamp(1, s.tt_mb)
    } else {
        s.tt_mb
    };
    Tt::with_megabytes(mb)
}

/// The search limits of a level for a request.
pub fn limits_for(s: &Setting, req: &Request) -> Limits {
    let budget = Duration::from_millis(req.movetime_ms.max(10));
    Limits {
        depth: s.depth,
        nodes: s.nodes,
        time: Some(if s.timed {
            // Keep a little of the budget for making and sending the move.
            budget
                .mul_f64(0.95)
                .saturating_sub(Duration::from_millis(5))
                .max(Duration::from_millis(5))
        } else {
            // A safety net only: levels 1–5 are meant to stop on their node budget.
            budget.max(Duration::from_millis(250)) * 4
        }),
        soft_share: if s.timed { 0.85 } else { 1.0 },
        noise: s.noise,
        seed: req.seed ^ (req.level as u64) << 56,
        features: Features::ALL,
    }
}

/// The draughts move of the rules that a compact move stands for (the first in text order
/// when several capture paths have the same effect).
pub fn draughts_move(pos: &DraughtsPosition, c: Compact) -> Option<DraughtsMove> {
    let mut found: Vec<DraughtsMove> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let mask = m.captured.iter().fold(0u64, |acc, s| acc | 1 << s.index());
            m.from().0 == c.from && m.to().0 == c.to && mask == c.mask
        })
        .collect();
    found.sort_by_key(|m| m.to_string());
    found.into_iter().next()
}

fn chess_found(
    line: &Line<takhte_rules::chess::Position>,
    limits: &Limits,
    tt: &mut Tt,
    cancel: &AtomicBool,
) -> Option<Found<takhte_rules::chess::Move>> {
    let game = ChessGame {
        history: line.keys().to_vec(),
        eval: chosen(&limits.features),
    };
    search(
        &game,
        &ChessPos::new(*line.position().board()),
        limits,
        tt,
        cancel,
        &mut |_| {},
    )
}

/// Answers a request of chess, minesweeper chess or draughts with the alpha-beta search.
pub fn answer_alpha_beta(req: &Request, cancel: &AtomicBool) -> Option<Answer> {
    let features = super::level::features_in(req.game.kind(), req.level);
    answer_alpha_beta_with(req, cancel, features)
}

/// [`answer_alpha_beta`] with the search's refinements of `features` only (the match runner's
/// reference player uses [`Features::REFERENCE`]).
pub fn answer_alpha_beta_with(
    req: &Request,
    cancel: &AtomicBool,
    features: Features,
) -> Option<Answer> {
    answer_with_setting(req, cancel, &setting(req.game.kind(), req.level), features)
}

/// [`answer_alpha_beta_with`] for a search of the given setting instead of the request's
/// level (the match runner's `search:DEPTH:NODES:NOISE` player, for calibrating the levels).
pub fn answer_with_setting(
    req: &Request,
    cancel: &AtomicBool,
    s: &Setting,
    features: Features,
) -> Option<Answer> {
    let s = *s;
    let limits = Limits {
        features: Features {
            hand_eval: features.hand_eval || s.hand_eval,
            ..features
        },
        ..limits_for(&s, req)
    };
    let mut tt = table_for(&s, req);
    match &req.game {
        AnyGame::Chess(line) => {
            if line.outcome().is_some() {
                return None;
            }
            chess_found(line, &limits, &mut tt, cancel)
                .map(|f| Answer::Move(AnyMove::Chess(f.best)))
        }
        AnyGame::Mine(line) => {
            // Only what a player sees: the visible board, numbers and counter.
            let visible = line.position().visible();
            let (mut game, root) = MineGame::new(&visible);
            game.eval = chosen(&limits.features);
            search(&game, &root, &limits, &mut tt, cancel, &mut |_| {})
                .map(|f| Answer::Move(AnyMove::Mine(f.best)))
        }
        AnyGame::Draughts(line) => {
            if line.outcome().is_some() {
                return None;
            }
            let game = DraughtsGame::new(line.keys().to_vec(), limits.features.hand_eval);
            let root = DraughtsPos::new(line.position().clone());
            let f = search(&game, &root, &limits, &mut tt, cancel, &mut |_| {})?;
            draughts_move(line.position(), f.best).map(|m| Answer::Move(AnyMove::Draughts(m)))
        }
        AnyGame::Dice(_) => None,
    }
}

/// Answers a dice-chess request: before the roll a king move or [`Answer::Roll`], after it a
/// pawn move of the face (or the empty roll).
pub fn answer_dice(req: &Request, cancel: &AtomicBool) -> Option<Answer> {
    let AnyGame::Dice(line) = &req.game else {
        return None;
    };
    let pos = line.position();
    if pos.outcome().is_some() {
        return None;
    }
    if req.level <= 1 {
        return Some(
            match super::dice::simple_choice(pos, req.rolled, req.seed) {
                None => Answer::Roll,
                Some(m) => Answer::Move(AnyMove::Dice(m)),
            },
        );
    }
    let s = setting(req.game.kind(), req.level);
    let l = limits_for(&s, req);
    let limits = Limits {
        depth: if s.timed { 20 } else { s.depth },
        soft_share: if s.timed { 0.3 } else { l.soft_share },
        ..l
    };
    let mut tt = table_for(&s, req);
    let b = DiceBoard::from_position(pos);
    // King moves that lead back to a position of this game (since the last capture).
    let repeats = |m: DMove| {
        let mut next = pos.clone();
        next.play(&m.to_rules()).is_ok() && line.keys().contains(&next.repetition_key())
    };
    let d = decide(&b, req.rolled, &limits, &mut tt, cancel, &repeats)?;
    Some(match d.choice {
        Choice::Roll => Answer::Roll,
        Choice::King(m) | Choice::Pawn(m) => Answer::Move(AnyMove::Dice(m.to_rules())),
        Choice::Pass => Answer::Move(AnyMove::Dice(DiceMove::Pass {
            face: req.rolled.unwrap_or(1),
        })),
    })
}

/// A quick score of the position for the side to move (centipawns), for draw offers.
pub fn quick_score(game: &AnyGame) -> Option<i32> {
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        nodes: 30_000,
        ..Limits::depth(4)
    };
    let mut tt = Tt::with_megabytes(1);
    match game {
        AnyGame::Chess(line) => chess_found(line, &limits, &mut tt, &cancel).map(|f| f.score),
        AnyGame::Mine(line) => {
            let (g, root) = MineGame::new(&line.position().visible());
            search(&g, &root, &limits, &mut tt, &cancel, &mut |_| {}).map(|f| f.score)
        }
        AnyGame::Draughts(line) => {
            let g = DraughtsGame::new(line.keys().to_vec(), false);
            search(
                &g,
                &DraughtsPos::new(line.position().clone()),
                &limits,
                &mut tt,
                &cancel,
                &mut |_| {},
            )
            .map(|f| f.score)
        }
        AnyGame::Dice(line) => {
            let b = DiceBoard::from_position(line.position());
            let l = Limits {
                nodes: 30_000,
                ..Limits::depth(1)
            };
            decide(&b, None, &l, &mut tt, &cancel, &|_| false).map(|d| d.score)
        }
    }
}
