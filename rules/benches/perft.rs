//! Perft speed: leaf nodes per second of our move generators, with shakmaty measured in the same
//! run on the same chess positions. Run with `cargo bench --bench perft`
//! (or `scripts/perft-speed.sh`, which also measures an older commit in the same run).
//!
//! Both chess counters use bulk counting at the last ply (the number of legal moves is the leaf
//! count), so the comparison is like for like. Each measurement is the best of three runs, and
//! the two chess generators alternate within each of the three rounds so that a busy moment of
//! the machine hits both.
//!
//! The positions are the standard perft suite (the start, Kiwipete and positions 3–6 of the
//! chess programming wiki), then the start of each of the other three games.

use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use takhte_rules::{chess, dice, draughts, mine, perft::perft, Rules};

/// A perft run to time.
type Run = Box<dyn Fn() -> u64>;

fn time(f: impl FnOnce() -> u64) -> (u64, Duration) {
    let t = Instant::now();
    let n = std::hint::black_box(f());
    (n, t.elapsed())
}

fn mnps(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64() / 1e6
}

fn main() {
    // `PERFT_QUICK=1` runs one depth less everywhere (a smoke run).
    let less = u32::from(std::env::var_os("PERFT_QUICK").is_some());
    println!(
        "{:<30} {:>11} {:>12} {:>14} {:>7}",
        "position", "nodes", "takhte Mn/s", "shakmaty Mn/s", "ratio"
    );
    let cases = [
        ("start, depth 6", chess::START_FEN, 6),
        (
            "Kiwipete, depth 5",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
        (
            "position 3, depth 6",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            6,
        ),
        (
            "position 4, depth 5",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            5,
        ),
        (
            "position 5, depth 5",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
        ),
        (
            "position 6, depth 5",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            5,
        ),
    ];
    let (mut all_ours, mut all_theirs) = (Duration::ZERO, Duration::ZERO);
    let mut all_nodes = 0;
    for (name, fen, depth) in cases {
        let depth = depth - less;
        let ours = chess::Position::from_text(fen).expect("valid FEN");
        let theirs: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let (mut t1, mut t2) = (Duration::MAX, Duration::MAX);
        let (mut n1, mut n2) = (0, 0);
        for _ in 0..3 {
            let (n, t) = time(|| ours.perft(depth));
            (n1, t1) = (n, t1.min(t));
            let (n, t) = time(|| shakmaty::perft(&theirs, depth));
            (n2, t2) = (n, t2.min(t));
        }
        assert_eq!(n1, n2, "{name}: counts differ");
        all_nodes += n1;
        all_ours += t1;
        all_theirs += t2;
        let (a, b) = (mnps(n1, t1), mnps(n2, t2));
        println!("{name:<30} {n1:>11} {a:>12.1} {b:>14.1} {:>7.2}", a / b);
    }
    let (a, b) = (mnps(all_nodes, all_ours), mnps(all_nodes, all_theirs));
    println!(
        "{:<30} {all_nodes:>11} {a:>12.1} {b:>14.1} {:>7.2}",
        "chess suite, all six",
        a / b
    );

    let others: [(&str, Run); 3] = [
        (
            "draughts start, depth 7",
            Box::new(move || draughts::Position::start().perft(7 - less)),
        ),
        (
            "dice chess start, depth 3",
            Box::new(move || perft(&dice::Position::start(takhte_rules::Side::White), 3 - less)),
        ),
        (
            "minesweeper start, depth 4",
            Box::new(move || perft(&mine::Position::start(1), 4 - less)),
        ),
    ];
    for (name, run) in others {
        let mut best = Duration::MAX;
        let mut nodes = 0;
        for _ in 0..3 {
            let (n, t) = time(&run);
            (nodes, best) = (n, best.min(t));
        }
        println!(
            "{name:<30} {nodes:>11} {:>12.1} {:>14} {:>7}",
            mnps(nodes, best),
            "-",
            "-"
        );
    }
}
