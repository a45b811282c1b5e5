//! The dice-chess AI: level 1 rolls; with the checking pawn capturable on the rolled face the AI
//! takes it; a king move or a roll before rolling; the same seed gives the same answer.

use std::sync::atomic::AtomicBool;

use takhte::ai::{think, Answer, Request};
use takhte::rules::dice::{Move, Position};
use takhte::rules::{AnyGame, AnyMove, Line, Rules, Square};

fn ask(text: &str, level: u8, rolled: Option<u8>) -> Option<Answer> {
    ask_with_time(text, level, rolled, 300)
}

fn ask_with_time(text: &str, level: u8, rolled: Option<u8>, movetime_ms: u64) -> Option<Answer> {
    let req = Request {
        game: AnyGame::Dice(Line::new(Position::from_text(text).unwrap())),
        level,
        seed: 3,
        rolled,
        movetime_ms,
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
    // Levels 1-5 stop on their node budgets; the time budget is only their safety net (four
    // times the move time), so it is made long enough here that a loaded test machine does
    // not cut a search short (levels 4 and 5 search up to two million nodes).
    let text = "ppppkppp/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/PPPKPPPP w";
    for level in 1..=5 {
        for rolled in [None, Some(3), Some(6)] {
            assert_eq!(
                ask_with_time(text, level, rolled, 10_000),
                ask_with_time(text, level, rolled, 10_000),
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

#[test]
fn the_computer_accepts_a_draw_when_nobody_can_win_any_more() {
    use takhte::ai::{Engine, Standard};
    let game = |text: &str| AnyGame::Dice(Line::new(Position::from_text(text).unwrap()));
    // The player (White, to move) offers. A king and one pawn cannot mate a lone king, whoever
    // has the pawn: the computer agrees (before, its search called the draw a little worse
    // than nothing for itself and refused, and the game could only go on for ever).
    for level in [2, 6] {
        assert!(Standard.accepts_draw(&game("4k3/7p/8/8/8/8/8/3K4 w"), level));
        assert!(Standard.accepts_draw(&game("4k3/8/8/8/8/8/P7/3K4 w"), level));
    }
    // Two pawns against the player's lone king: the computer plays on.
    assert!(!Standard.accepts_draw(&game("4k3/pp6/8/8/8/8/8/3K4 w"), 3));
}

#[test]
fn a_match_plays_from_given_positions_and_scores_idle_games_as_draws() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("starts.txt");
    // The lone black king needs six moves to reach the white pawns: nothing can leave the
    // board in the first ten plies.
    let start = "k7/8/8/8/8/8/6PP/6K1 w";
    std::fs::write(&file, format!("# K+2P against a far lone king\n{start}\n")).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "dice-chess",
            "--white",
            "3",
            "--black",
            "2",
            "--games",
            "2",
            "--seed",
            "4",
            "--moves",
            "--start",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_takhte"))
            .args(&args)
            .output()
            .unwrap()
    };
    let o = run(&["--idle-plies", "10"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        assert!(g.contains("1/2-1/2 idle in 10 plies"), "{g}");
    }
    // Each game's moves are legal from the given start, one after another.
    for moves in text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("moves: "))
    {
        let mut line = Line::new(Position::from_text(start).unwrap());
        for m in moves.split_whitespace() {
            let mv = line.position().parse_move(m).unwrap();
            line.play(&mv)
                .unwrap_or_else(|e| panic!("{m} in {moves}: {e}"));
        }
        assert_eq!(
            line.position()
                .pawn_squares(takhte::rules::Side::White)
                .len(),
            2
        );
    }
    // Without --idle-plies the same games go on past ten plies.
    let o = run(&[]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains(" idle "), "{text}");
    // A start position that cannot be read is a one-line error.
    std::fs::write(&file, "8/8/8/8/8/8/8/8 w\n").unwrap();
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("start position") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn a_mate_on_the_rolled_face_is_played() {
    // Face 5: c6-b7 checks the cornered king, whose three squares are covered (a7 by the pawn
    // on b6, b8 by the king, b7 is the checker, guarded by the king) and Black has no pawn to
    // roll with: mate. b6-b7 gives check too, but frees a7. Every searching level sees it.
    let text = "k7/2K5/1PP5/8/8/8/8/8 w";
    let pos = Position::from_text(text).unwrap();
    let mate = pos.parse_move("5:c6b7").unwrap();
    for level in 2..=6 {
        assert_eq!(
            ask(text, level, Some(5)),
            Some(Answer::Move(AnyMove::Dice(mate.clone()))),
            "level {level}"
        );
    }
    let mut after = pos.clone();
    after.play(&mate).unwrap();
    assert!(
        matches!(after.outcome(), Some(o) if o.reason == takhte::rules::EndReason::Checkmate),
        "{:?}",
        after.outcome()
    );
}
