//! The dice-chess AI: level 1 rolls; with the checking pawn capturable on the rolled face the AI
//! takes it; a king move or a roll before rolling; the same seed gives the same answer.

use std::sync::atomic::AtomicBool;

use takhte::ai::{think, Answer, Request};
use takhte::rules::dice::{Move, Position};
use takhte::rules::{AnyGame, AnyMove, Line, Rules, Square};

fn ask(text: &str, level: u8, rolled: Option<u8>) -> Option<Answer> {
    let req = Request {
        game: AnyGame::Dice(Line::new(Position::from_text(text).unwrap())),
        level,
        seed: 3,
        rolled,
        movetime_ms: 300,
    };
    think(&req, &AtomicBool::new(false))
}

#[test]
fn level_one_rolls_then_prefers_a_capture() {
    let start = "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w";
    assert_eq!(ask(start, 1, None), Some(Answer::Roll));
    // Face 6: the a2 pawn may take the black pawn on a6 (four squares up the file).
    let text = "4k3/8/p7/8/8/8/P7/3K4 w";
    match ask(text, 1, Some(6)) {
        Some(Answer::Move(AnyMove::Dice(Move::Pawn { to, .. }))) => {
            assert_eq!(to, Square::parse("a6", 8).unwrap())
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn takes_the_checking_pawn_on_the_rolled_face() {
    // The black pawn on e2 checks the king on d1; with face 2 the pawn on e1 takes it (e1-e2),
    // with face 5 too, and with face 6 the pawn on h2 (h2-e2 along the rank... 3 squares).
    let text = "k7/8/8/8/8/8/4p2P/3KP3 w";
    for level in 1..=6 {
        for face in [2, 5, 6] {
            match ask(text, level, Some(face)) {
                Some(Answer::Move(AnyMove::Dice(Move::Pawn { to, .. }))) => {
                    assert_eq!(
                        to,
                        Square::parse("e2", 8).unwrap(),
                        "level {level} face {face}"
                    )
                }
                other => panic!("level {level} face {face}: {other:?}"),
            }
        }
    }
}

#[test]
fn answers_are_legal_before_and_after_the_roll() {
    let pos = Position::from_text("ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w").unwrap();
    for level in 2..=6 {
        match ask(&pos.to_text(), level, None) {
            Some(Answer::Roll) => {}
            Some(Answer::Move(AnyMove::Dice(m))) => assert!(pos.is_legal(&m)),
            other => panic!("{other:?}"),
        }
        for face in 1..=6 {
            match ask(&pos.to_text(), level, Some(face)) {
                Some(Answer::Move(AnyMove::Dice(m))) => {
                    assert!(pos.is_legal(&m), "level {level} face {face}: {m}");
                    assert_eq!(m.face(), Some(face));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn an_empty_roll_is_a_pass() {
    // The white pawn on h8 has no pawn-like move.
    assert_eq!(
        ask("k6P/8/8/8/8/8/8/K7 w", 4, Some(1)),
        Some(Answer::Move(AnyMove::Dice(Move::Pass { face: 1 })))
    );
}

#[test]
fn the_same_seed_gives_the_same_answer() {
    let text = "ppppkppp/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/PPPKPPPP w";
    for level in 1..=5 {
        for rolled in [None, Some(3), Some(6)] {
            assert_eq!(
                ask(text, level, rolled),
                ask(text, level, rolled),
                "level {level}"
            );
        }
    }
}

#[test]
fn a_king_move_back_to_a_seen_position_counts_at_most_as_a_draw() {
    use takhte::ai::dice::board::DiceBoard;
    use takhte::ai::dice::expectimax::{decide, Choice};
    use takhte::ai::search::Limits;
    use takhte::ai::tt::Tt;
    // White is fifteen pawns up against a lone king; its own king may wander (d1-e1 or c1).
    let pos = Position::from_text("4k3/8/8/8/8/PPPPPPPP/PPPPPPP1/3K4 w").unwrap();
    let b = DiceBoard::from_position(&pos);
    let limits = Limits {
        nodes: 200_000,
        ..Limits::depth(2)
    };
    let cancel = AtomicBool::new(false);
    // Decides for `b`, with every king move repeating a seen position or none.
    let run = |b: &DiceBoard, all_repeat: bool| {
        decide(
            b,
            None,
            &limits,
            &mut Tt::with_megabytes(1),
            &cancel,
            &|_| all_repeat,
        )
        .unwrap()
    };
    let fresh = run(&b, false);
    // When every king move goes back to a position already seen, rolling (worth far more than
    // a draw here) is chosen, and the score stays that of a won position.
    let cyclic = run(&b, true);
    assert_eq!(cyclic.choice, Choice::Roll, "{fresh:?} / {cyclic:?}");
    assert!(cyclic.score > 300, "{cyclic:?}");
    // In check from a pawn the king can take: taking is best, and rolling risks a face with
    // no answer. Marked as repeating, the capture is still chosen but valued as a draw.
    let pos = Position::from_text("4k3/8/8/8/8/PPPPPPPP/PPP1p3/3K4 w").unwrap();
    let b = DiceBoard::from_position(&pos);
    let fresh = run(&b, false);
    let cyclic = run(&b, true);
    let take = |d: &takhte::ai::dice::expectimax::Decision| match d.choice {
        Choice::King(m) => m.to_rules() == pos.parse_move("d1e2").unwrap(),
        _ => false,
    };
    assert!(take(&fresh) && fresh.score > 300, "{fresh:?}");
    assert!(take(&cyclic), "{cyclic:?}");
    // A draw, seen from the side that wants more than a draw: a little below zero.
    assert!((-100..=0).contains(&cyclic.score), "{cyclic:?}");
}

#[test]
fn a_king_and_one_pawn_against_a_lone_king_is_scored_as_a_draw() {
    use takhte::ai::dice::board::DiceBoard;
    use takhte::ai::dice::expectimax::decide;
    use takhte::ai::search::Limits;
    use takhte::ai::tt::Tt;
    let board = |text: &str| DiceBoard::from_position(&Position::from_text(text).unwrap());
    // One pawn, either side's, against a lone king: no mate is possible.
    for text in [
        "4k3/8/8/8/8/8/P7/3K4 w",
        "4k3/7p/8/8/8/8/8/3K4 b",
        "4k3/8/8/8/8/8/8/3K4 w",
    ] {
        assert!(board(text).dead_draw(), "{text}");
    }
    // Two pawns can mate a cornered king (the rules agree: king g6, pawns g7 and h7 against
    // the king on h8), and one pawn each is not settled either.
    let mate = Position::from_text("7k/6PP/6K1/8/8/8/8/8 b").unwrap();
    assert!(
        matches!(mate.outcome(), Some(o) if o.reason == takhte::rules::EndReason::Checkmate),
        "{:?}",
        mate.outcome()
    );
    for text in ["4k3/8/8/8/8/8/PP6/3K4 w", "4k3/7p/8/8/8/8/P7/3K4 w"] {
        assert!(!board(text).dead_draw(), "{text}");
    }
    let limits = Limits {
        nodes: 300_000,
        ..Limits::depth(3)
    };
    let cancel = AtomicBool::new(false);
    let score = |text: &str| {
        decide(
            &board(text),
            None,
            &limits,
            &mut Tt::with_megabytes(1),
            &cancel,
            &|_| false,
        )
        .unwrap()
        .score
    };
    // White's lone pawn is safe and far from the black king: the evaluation alone would call
    // White a pawn up, but the search knows it is a draw (worth a little less than nothing to
    // the side that searches, as every draw is). With a second pawn White stands better.
    let one = score("7k/8/8/8/8/8/P7/3K4 w");
    assert!((-60..=0).contains(&one), "{one}");
    let two = score("7k/8/8/8/8/8/PP6/3K4 w");
    assert!(two > 100, "{two}");
}
