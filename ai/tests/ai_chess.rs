//! The chess AI: mates in one and two, the same seed gives the same move, the search keeps to
//! its time budget and stops promptly when cancelled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use takhte_ai::{think, Answer, Request};
use takhte_rules::{chess, AnyGame, AnyMove, GameKind, Rules};

fn request(fen: &str, level: u8, seed: u64) -> Request {
    Request {
        game: AnyGame::from_text(GameKind::Chess, fen).unwrap(),
        level,
        seed,
        rolled: None,
        movetime_ms: 2000,
    }
}

fn best(fen: &str, level: u8) -> chess::Move {
    match think(&request(fen, level, 7), &AtomicBool::new(false)) {
        Some(Answer::Move(AnyMove::Chess(m))) => m,
        other => panic!("no chess move for {fen}: {other:?}"),
    }
}

fn is_mate_after(pos: &chess::Position, mv: chess::Move) -> bool {
    let mut p = *pos;
    p.play(&mv).unwrap();
    p.legal_moves().is_empty() && p.in_check()
}

/// Whether the side to move mates in one from `pos`.
fn has_mate_in_one(pos: &chess::Position) -> bool {
    pos.legal_moves().into_iter().any(|m| is_mate_after(pos, m))
}

const MATES_IN_ONE: [&str; 4] = [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
];

#[test]
fn finds_mate_in_one_at_every_level_from_3() {
    for fen in MATES_IN_ONE {
        let pos = chess::Position::from_text(fen).unwrap();
        for level in [3, 4, 5] {
            let mv = best(fen, level);
            assert!(
                is_mate_after(&pos, mv),
                "level {level} played {} in {fen}",
                mv.uci()
            );
        }
    }
}

#[test]
fn finds_mate_in_two() {
    for fen in [
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",
        "7r/8/8/8/8/2k5/8/K7 b - - 0 1",
    ] {
        let pos = chess::Position::from_text(fen).unwrap();
        let mv = best(fen, 5);
        let mut after = pos;
        after.play(&mv).unwrap();
        let replies = after.legal_moves();
        assert!(
            !replies.is_empty() || after.in_check(),
            "{fen}: {} stalemates",
            mv.uci()
        );
        for r in replies {
            let mut p = after;
            p.play(&r).unwrap();
            assert!(
                has_mate_in_one(&p),
                "{fen}: after {} {} there is no mate",
                mv.uci(),
                r.uci()
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for level in 1..=5 {
        let a = think(&request(fen, level, 42), &AtomicBool::new(false));
        let b = think(&request(fen, level, 42), &AtomicBool::new(false));
        assert_eq!(a, b, "level {level}");
        assert!(a.is_some());
    }
}

#[test]
fn the_top_level_keeps_to_its_time_budget() {
    let mut req = request(chess::START_FEN, 6, 1);
    req.movetime_ms = 300;
    let t = Instant::now();
    let answer = think(&req, &AtomicBool::new(false));
    assert!(matches!(answer, Some(Answer::Move(_))));
    // Generous bound: the budget is 0.3 s.
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn a_cancelled_search_returns_promptly_with_no_answer() {
    let mut req = request(chess::START_FEN, 6, 1);
    req.movetime_ms = 120_000;
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let t = Instant::now();
    let worker = std::thread::spawn(move || think(&req, &flag));
    std::thread::sleep(Duration::from_millis(200));
    cancel.store(true, Ordering::Relaxed);
    let answer = worker.join().unwrap();
    assert_eq!(answer, None);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

#[test]
fn every_level_plays_a_legal_move_through_a_short_game() {
    let mut game = AnyGame::start(GameKind::Chess, 0);
    for ply in 0..24 {
        if game.outcome().is_some() {
            break;
        }
        let req = Request {
            game: game.clone(),
            level: 1 + (ply % 6) as u8,
            seed: ply,
            rolled: None,
            movetime_ms: 50,
        };
        let Some(Answer::Move(mv)) = think(&req, &AtomicBool::new(false)) else {
            panic!("no move at ply {ply}");
        };
        game.play(&mv).unwrap();
    }
}

/// The chess search of `fen` with the tuned evaluation, a fresh 16 MB table and `limits`.
fn search_chess(
    fen: &str,
    limits: &takhte_ai::search::Limits,
) -> takhte_ai::search::Found<chess::Move> {
    use takhte_ai::chess::{ChessGame, Pos};
    let board = *chess::Position::from_text(fen).unwrap().board();
    let mut tt = takhte_ai::tt::Tt::with_megabytes(16);
    let game = ChessGame {
        history: Vec::new(),
        eval: &takhte_ai::chess::eval::TUNED_EVAL,
    };
    let flag = AtomicBool::new(false);
    takhte_ai::search::search(&game, &Pos::new(board), limits, &mut tt, &flag, &mut |_| {})
        .unwrap_or_else(|| panic!("no move in {fen}"))
}

/// The top level's search (its refinements, no noise) stopped by a node budget instead of the
/// clock, so that the test gives the same move on every machine.
fn top_level_move(fen: &str, nodes: u64) -> chess::Move {
    let limits = takhte_ai::search::Limits {
        nodes,
        features: if std::env::var("REF").is_ok() {
            takhte_ai::search::Features::REFERENCE
        } else {
            takhte_ai::level::features(6)
        },
        ..takhte_ai::search::Limits::depth(64)
    };
    search_chess(fen, &limits).best
}

/// The lines of a data file as (FEN, the moves of each further field): `FEN | moves | ...`.
fn cases(text: &str) -> Vec<(String, Vec<Vec<String>>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            let fields = parts.map(|p| p.split_whitespace().map(String::from).collect());
            (fen, fields.collect())
        })
        .collect()
}

/// The mates in two of `tests/data/mate_in_two.txt` (made by scripts/make-tactics.py from
/// Stockfish games and checked exhaustively there): the top level plays a first move that
/// mates in two in every one of them.
#[test]
fn the_top_level_finds_the_mates_in_two_of_the_set() {
    let set = cases(include_str!("data/mate_in_two.txt"));
    assert!(set.len() >= 30, "{} positions", set.len());
    let mut missed = Vec::new();
    for (fen, fields) in &set {
        let firsts = &fields[0];
        let mv = top_level_move(fen, 200_000).uci();
        if !firsts.contains(&mv) {
            missed.push(format!("{fen}: played {mv}, mates are {firsts:?}"));
        }
    }
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
}

/// The tactical positions of `tests/data/tactics.txt` (made by scripts/make-tactics.py:
/// positions where Stockfish finds one move at least 150 centipawns better than every other,
/// and scored every move): the top level (a million nodes, about a second) plays a move within
/// 60 centipawns of the best in at least 85% of them, and none of the moves that lose 200
/// centipawns or more, but for one known pawn-race endgame.
#[test]
fn the_top_level_does_not_lose_material_in_the_tactical_set() {
    // White's only move is Kf2 (-2.4); the knight's moves lose the race (-6.9): an endgame
    // beyond the evaluation's knowledge, lost by the reference search too.
    const KNOWN: &str = "8/8/1p6/p1k5/2P2P2/1P6/2b5/6KN w - - 5 52";
    let set = cases(include_str!("data/tactics.txt"));
    assert!(set.len() >= 30, "{} positions", set.len());
    let (mut off, mut lost) = (Vec::new(), Vec::new());
    for (fen, fields) in &set {
        let (good, losing) = (&fields[0], &fields[1]);
        let mv = top_level_move(fen, 1_000_000).uci();
        if !good.contains(&mv) {
            off.push(format!("{fen}: played {mv}, good are {good:?}"));
        }
        if losing.contains(&mv) && fen != KNOWN {
            lost.push(format!("{fen}: played {mv}, which loses 200 cp or more"));
        }
    }
    assert!(lost.is_empty(), "{}", lost.join("\n"));
    // Measured: 1 of 40 outside the best 60 cp (the known endgame).
    assert!(
        off.len() * 100 <= set.len() * 15,
        "{} of {} off:\n{}",
        off.len(),
        set.len(),
        off.join("\n")
    );
}

/// Each switchable refinement of the search after `Features::ALL` changes the tree: to the
/// same depth from positions the table does not know, the search with internal iterative
/// reduction, the improving test, aspiration windows or pruning by static exchange (each
/// alone, on top of `Features::ALL`) visits fewer nodes than without it, counted over
/// Kiwipete and twenty openings (one position alone can go either way). The table's score as
/// the evaluation prunes more where the table's bound lies above the evaluation and less where
/// it lies below, and singular extensions search some moves deeper and cut some nodes at once,
/// so their trees are only asserted to differ.
#[test]
fn each_refinement_after_all_shrinks_the_tree() {
    const OPENINGS: usize = 20;
    use takhte_ai::search::{Features, Limits};
    let nodes = |fen: &str, features: Features, depth: i32| {
        let limits = Limits {
            features,
            ..Limits::depth(depth)
        };
        search_chess(fen, &limits).nodes
    };
    // Each switch, whether it must shrink the tree (else only change it), and the depth
    // (singular extensions start at nodes seven plies from the leaves).
    type Switch = (&'static str, fn(&mut Features), bool, i32);
    let switches: [Switch; 6] = [
        ("iir", |f| f.iir = true, true, 7),
        ("improving", |f| f.improving = true, true, 7),
        ("aspiration", |f| f.aspiration = true, true, 7),
        ("tt_eval", |f| f.tt_eval = true, false, 7),
        ("see_pruning", |f| f.see_pruning = true, true, 7),
        ("singular", |f| f.singular = true, false, 9),
    ];
    // With the threat terms, aspiration windows grew the trees of Kiwipete and the first
    // opening at depth 7 (79,008 nodes against 65,917) and shrink these 21 trees.
    let openings = include_str!("../tuning/openings.txt");
    let fens: Vec<&str> = ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
        .into_iter()
        .chain(
            openings
                .lines()
                .filter(|l| !l.trim().is_empty())
                .take(OPENINGS),
        )
        .collect();
    let total = |features: Features, depth: i32| -> u64 {
        fens.iter().map(|f| nodes(f, features, depth)).sum()
    };
    for (name, switch, shrinks, depth) in switches {
        let all = total(Features::ALL, depth);
        let mut features = Features::ALL;
        switch(&mut features);
        let with = total(features, depth);
        if shrinks {
            assert!(with < all, "{with} nodes with {name}, {all} without");
        } else {
            assert_ne!(with, all, "{name} left the trees as they were");
        }
    }
    // Singular extensions extend some moves at depth 9, and none without the switch.
    let extended = |features: Features| -> u64 {
        fens.iter()
            .map(|f| {
                let limits = Limits {
                    features,
                    ..Limits::depth(9)
                };
                search_chess(f, &limits).singular_extensions
            })
            .sum()
    };
    let with = extended(Features {
        singular: true,
        ..Features::ALL
    });
    assert!(with > 0, "no move was extended");
    assert_eq!(extended(Features::ALL), 0);
}
