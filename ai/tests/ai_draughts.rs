//! The draughts AI: it always plays a legal maximum capture when a capture is due, and the
//! same seed gives the same move.

use std::sync::atomic::AtomicBool;

use takhte_ai::{think, Answer, Request};
use takhte_rules::draughts::Position;
use takhte_rules::{AnyGame, AnyMove, Line, Rules};

fn answer(pos: &Position, level: u8, seed: u64) -> takhte_rules::draughts::Move {
    answer_within(pos, level, seed, 300)
}

/// Levels 1–5 stop on their node budget; `movetime_ms` is then only a safety net (four times
/// it), which a loaded machine must not reach where the test compares two searches.
fn answer_within(
    pos: &Position,
    level: u8,
    seed: u64,
    movetime_ms: u64,
) -> takhte_rules::draughts::Move {
    let req = Request {
        game: AnyGame::Draughts(Line::new(pos.clone())),
        level,
        seed,
        rolled: None,
        movetime_ms,
    };
    match think(&req, &AtomicBool::new(false)) {
        Some(Answer::Move(AnyMove::Draughts(m))) => m,
        other => panic!("no draughts move for {}: {other:?}", pos.to_text()),
    }
}

#[test]
fn plays_a_legal_maximum_capture() {
    for text in [
        // A man can take two pieces up the file (d4xd6xd8) or one to the side (d4xb4).
        "8/3b4/8/3b4/2bw4/8/8/7w w",
        // A flying king: two pieces up the a-file against one along the first rank.
        "8/8/b7/8/b7/8/8/W1B4w w",
        // Black to capture, men going down (d6xd4xd2), or one piece sideways (h8xf8).
        "6Wb/8/3b4/3w4/8/3w4/8/8 b",
        // A man that reaches the last rank mid-capture goes on as a man (c6xc8xe8).
        "3b4/2b5/2w5/8/8/8/8/7w w",
    ] {
        let pos = Position::from_text(text).unwrap();
        let max = pos.max_capture();
        assert!(max > 0, "{text}: no capture due");
        for level in 1..=6 {
            let mv = answer(&pos, level, level as u64);
            assert!(
                pos.is_legal(&mv),
                "{text}: level {level}: {mv} is not legal"
            );
            assert_eq!(mv.capture_count(), max, "{text}: level {level}: {mv}");
        }
    }
}

#[test]
fn plays_maximum_captures_through_whole_games() {
    let mut game = AnyGame::start(takhte_rules::GameKind::Draughts, 0);
    for ply in 0..80u64 {
        let AnyGame::Draughts(line) = &game else {
            unreachable!()
        };
        if line.outcome().is_some() {
            break;
        }
        let pos = line.position().clone();
        let mv = answer(&pos, 1 + (ply % 4) as u8, ply);
        assert_eq!(mv.capture_count(), pos.max_capture(), "{}", pos.to_text());
        game.play(&AnyMove::Draughts(mv)).unwrap();
    }
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let pos = Position::start();
    for level in 1..=5 {
        assert_eq!(
            answer_within(&pos, level, 9, 10_000),
            answer_within(&pos, level, 9, 10_000),
            "level {level}"
        );
    }
}
