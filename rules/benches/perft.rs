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
    // The six positions of the perft data (`name | FEN | counts`); the start position and
    // position 3 (few pieces) one ply deeper than the others.
    let cases: Vec<(String, &str, u32)> = include_str!("../tests/data/chess_perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let (name, fen) = (parts.next().unwrap(), parts.next().unwrap());
            let deeper = matches!(name, "start" | "pos3");
            let depth = if deeper { 6 } else { 5 } - less;
            (format!("{name}, depth {depth}"), fen, depth)
        })
        .collect();
    let (mut all_ours, mut all_theirs) = (Duration::ZERO, Duration::ZERO);
    let mut all_nodes = 0;
    for (name, fen, depth) in cases {
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
