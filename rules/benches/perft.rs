//! Perft speed: leaf nodes per second of our move generators, with shakmaty measured in the same
//! run on the same chess positions. Run with `cargo bench --bench perft`.
//!
//! Both chess counters use bulk counting at the last ply (the number of legal moves is the leaf
//! count), so the comparison is like for like. Each measurement is the best of three runs.

use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use takhte_rules::{chess, draughts, Rules};

fn best_of_three(mut f: impl FnMut() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..3 {
        let t = Instant::now();
        nodes = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (nodes, best)
}

fn mnps(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64() / 1e6
}

fn main() {
    println!(
        "{:<28} {:>12} {:>12} {:>14} {:>8}",
        "position", "nodes", "takhte Mn/s", "shakmaty Mn/s", "ratio"
    );
    let cases = [
        ("chess start, depth 5", chess::START_FEN, 5),
        (
            "chess Kiwipete, depth 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
    ];
    for (name, fen, depth) in cases {
        let ours = chess::Position::from_text(fen).expect("valid FEN");
        let theirs: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let (n1, t1) = best_of_three(|| ours.perft(depth));
        let (n2, t2) = best_of_three(|| shakmaty::perft(&theirs, depth));
        assert_eq!(n1, n2, "{name}: counts differ");
        let (a, b) = (mnps(n1, t1), mnps(n2, t2));
        println!("{name:<28} {n1:>12} {a:>12.1} {b:>14.1} {:>8.2}", a / b);
    }
    let start = draughts::Position::start();
    let (n, t) = best_of_three(|| start.perft(6));
    println!(
        "{:<28} {n:>12} {:>12.1} {:>14} {:>8}",
        "draughts start, depth 6",
        mnps(n, t),
        "-",
        "-"
    );
    let _ = start.side_to_move();
}
