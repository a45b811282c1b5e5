//! Sharing games as text: a game of each kind goes out and comes back the same; a chess PGN is
//! read by shakmaty (an independent chess library) move by move to the same final position; bad
//! texts are refused with their reason.

use std::str::FromStr;

use rand::{Rng, SeedableRng};
use shakmaty::{fen::Fen, san::San, CastlingMode, Chess, EnPassantMode, Position};
use takhte_game::share::{export, import, session_of, ImportError, Players};
use takhte_game::{GameEnd, GameStart, Session};
use takhte_rules::{GameKind, Side};

/// A random game of `kind`, `plies` long at most.
fn random_game(kind: GameKind, seed: u64, plies: usize) -> Session {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let rolls = if kind == GameKind::DiceChess {
        vec![(5, 2)]
    } else {
        vec![]
    };
    let mut s = Session::new(GameStart::standard(kind, seed, rolls)).unwrap();
    for _ in 0..plies {
        let moves = s.game().legal_moves();
        if moves.is_empty() || s.is_over() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())].clone();
        s.play(&mv).unwrap();
    }
    s
}

#[test]
fn a_game_of_each_kind_goes_out_and_comes_back() {
    for kind in GameKind::ALL {
        for seed in 0..5 {
            let mut s = random_game(kind, seed, 60 + seed as usize * 20);
            if seed == 3 && !s.is_over() {
                s.finish(GameEnd::Resigned(Side::Black));
            }
            let players = Players {
                white: "Sara".into(),
                black: "Bahram \"the bold\"".into(),
            };
            let text = export(&s, &players, "2026.12.02");
            let back = import(&text).unwrap_or_else(|e| panic!("{kind} {seed}: {e}\n{text}"));
            assert_eq!(back.moves, s.moves(), "{kind} {seed}");
            assert_eq!(back.players, players);
            let again = session_of(&back).unwrap();
            assert_eq!(again.game().to_text(), s.game_at(s.moves().len()).to_text());
            assert_eq!(
                again.final_end().map(|e| e.result()),
                s.final_end().map(|e| e.result()),
                "{kind} {seed}: the result"
            );
            if kind != GameKind::Chess {
                assert!(text.contains("[Variant "), "{text}");
                assert!(text.contains("[FEN "), "{text}");
            }
        }
    }
}

#[test]
fn shakmaty_reads_our_pgn_to_the_same_position() {
    for seed in 0..20 {
        let s = random_game(GameKind::Chess, 100 + seed, 120);
        let text = export(&s, &Players::default(), "2026.12.02");
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
            assert!(text.contains(&format!("[{tag} ")), "{tag} missing:\n{text}");
        }
        assert!(
            text.lines().all(|l| l.len() <= 80),
            "lines of at most 80 characters"
        );
        // The movetext, read token by token by shakmaty.
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        let mut pos = Chess::default();
        let mut count = 0;
        for word in body.split_whitespace() {
            if word.ends_with('.') || matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            let san = San::from_str(word).unwrap_or_else(|e| panic!("{word}: {e}"));
            let mv = san.to_move(&pos).unwrap_or_else(|e| panic!("{word}: {e}"));
            pos = pos.play(mv).unwrap();
            count += 1;
        }
        assert_eq!(count, s.moves().len());
        let ours = s.game_at(s.moves().len()).to_text();
        let theirs = Fen::from_position(&pos, EnPassantMode::Always).to_string();
        assert_eq!(
            ours.split_whitespace().take(4).collect::<Vec<_>>(),
            theirs.split_whitespace().take(4).collect::<Vec<_>>(),
            "seed {seed}"
        );
        let _ = CastlingMode::Standard;
    }
}

#[test]
fn pgn_from_elsewhere_with_comments_and_variations_reads() {
    let text = r#"[Event "Casual"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {the king's pawn} e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 $1 4. Ba4!? Nf6 5. O-O 1-0"#;
    let g = import(text).unwrap();
    assert_eq!(g.moves.len(), 9);
    assert_eq!(g.moves[8], "e1g1");
    assert_eq!(g.end, Some(GameEnd::Resigned(Side::Black)));
}

#[test]
fn pgn_from_other_programs_reads() {
    // Clock comments, a variation, a NAG, move numbers glued to moves, castling with zeros.
    let text = "[Event \"Casual\"]\n[Site \"https://example.org\"]\n[Result \"1-0\"]\n\n\
        1.e4 { [%clk 0:03:00] } 1...e5 2.Nf3 $1 (2.f4 exf4) Nc6 3.Bc4 Nf6 4.0-0 Bc5?! \
        5.d3 d6 1-0";
    let g = import(text).unwrap();
    assert_eq!(
        g.moves,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5", "d2d3", "d7d6"]
    );
    assert_eq!(
        g.end.and_then(|e| e.result()),
        Some(takhte_rules::GameResult::Win(Side::White))
    );
}

#[test]
fn bad_texts_are_refused_with_their_reason() {
    assert_eq!(import(""), Err(ImportError::Empty));
    assert!(matches!(
        import("[Variant \"Go\"]\n1. e4"),
        Err(ImportError::Variant(_))
    ));
    assert!(matches!(
        import("1. e4 e5 2. Ke3"),
        Err(ImportError::Move { index: 3, ref numbered, .. }) if numbered == "2. Ke3"
    ));
    // Black's move numbered from the FEN's move counter.
    assert!(matches!(
        import("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7\"]\n7... e5 8. Nf3 Ke7 9. Bc4 Kd5"),
        Err(ImportError::Move { index: 5, ref numbered, .. }) if numbered == "9... Kd5"
    ));
    assert!(matches!(
        import("[Variant \"Turkish draughts\"]\n1. c3-c4"),
        Err(ImportError::Position(_))
    ));
    assert!(matches!(
        import("[Variant \"Turkish draughts\"]\n[FEN \"nonsense\"]\n1. c3-c4"),
        Err(ImportError::Position(_))
    ));
}

#[test]
fn comments_unclosed_texts_and_long_games() {
    // A comment to the end of the line, and a stray ')' that closes nothing.
    let g = import("1. e4 ; the king's pawn\ne5 ) 2. Nf3").unwrap();
    assert_eq!(g.moves, ["e2e4", "e7e5", "g1f3"]);
    // A comment or a variation never closed: refused, not read as a shorter game.
    assert_eq!(
        import("1. e4 { never closed 2. zz9"),
        Err(ImportError::Unclosed)
    );
    assert_eq!(import("1. e4 (1. d4 d5 2. e4"), Err(ImportError::Unclosed));
    // An illegal move in standard notation is explained as one (not as coordinates).
    match import("1. e4 e5 2. e4") {
        Err(ImportError::Move { reason, .. }) => {
            assert!(!reason.contains("e2e4"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Kings and knights wandering in minesweeper chess (no mines, no fifty-move rule; a move
    // that would end the game by repetition is not taken): a game longer than Takhte opens.
    let mut s = Session::new(GameStart {
        kind: GameKind::MineChess,
        position: Some("n3k3/8/8/8/8/8/8/8/8/N3K3 w - - -".into()),
        seed: 0,
        start_rolls: vec![],
    })
    .unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    while s.moves().len() <= takhte_game::share::MAX_IMPORT_MOVES {
        let moves = s.game().legal_moves();
        let start = rng.gen_range(0..moves.len());
        let mv = (0..moves.len())
            .map(|i| &moves[(start + i) % moves.len()])
            .find(|mv| {
                let mut g = s.game().clone();
                g.play(mv).is_ok() && g.outcome().is_none()
            })
            .expect("a move that goes on")
            .clone();
        s.play(&mv).unwrap();
    }
    let text = export(&s, &Players::default(), "2026.12.02");
    assert_eq!(import(&text), Err(ImportError::TooLong));
}

#[test]
fn odd_starts_and_names_do_not_break_the_text() {
    // The FEN's move counter at its largest: Black moves, the count does not overflow.
    let g =
        import("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295\"]\n\ne5")
            .unwrap();
    let s = session_of(&g).unwrap();
    let text = export(
        &s,
        &Players {
            white: "Sara\nline two".into(),
            black: "\"Ali\" \\ Reza".into(),
        },
        "2026.12.02",
    );
    // Each tag stays on its line, and the text reads back to the same game and names.
    assert!(text.contains("[White \"Sara line two\"]"), "{text}");
    let back = import(&text).unwrap();
    assert_eq!(back.moves, g.moves);
    // A draughts position whose capture sequences run into the millions (or with more pieces
    // than a side has) is refused, not listed.
    for fen in [
        "1b3b2/b1b3bW/1b1B3B/4b3/5b2/3b2b1/5b1B/2B3B1 w",
        "1b1b1b1b/bbb1BBbW/1b1B1b1B/2bBb3/bb1b1b2/3b2b1/1b1b1b1B/2B1B1B1 w",
    ] {
        let t = std::time::Instant::now();
        let r = import(&format!(
            "[Variant \"Turkish draughts\"]\n[FEN \"{fen}\"]\n1. h7-h8"
        ));
        assert!(matches!(r, Err(ImportError::Position(_))), "{fen}: {r:?}");
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
    }
}

#[test]
fn the_time_control_and_the_players_names_go_out_and_come_back() {
    use takhte_game::clock::{Clock, TimeControl};
    let mut s = Session::new(GameStart::standard(GameKind::Chess, 0, Vec::new())).unwrap();
    s.play_text("e2e4").unwrap();
    let players = Players {
        white: "Sara".into(),
        black: "مریم".into(),
    };
    let untimed = export(&s, &players, "2026.12.03");
    assert!(untimed.contains("[TimeControl \"-\"]\n"), "{untimed}");
    s.clock = Some(Clock::new(TimeControl::new(5, 3)));
    let timed = export(&s, &players, "2026.12.03");
    assert!(timed.contains("[TimeControl \"300+3\"]\n"), "{timed}");
    // Read back: the names name the sides of the game.
    let again = session_of(&import(&timed).unwrap()).unwrap();
    assert_eq!(
        again.names,
        [Some("Sara".to_string()), Some("مریم".to_string())]
    );
    // A text without names ("?") leaves the sides unnamed.
    let plain = session_of(&import("1. e4 e5 *").unwrap()).unwrap();
    assert_eq!(plain.names, [None, None]);
}
