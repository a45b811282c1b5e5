//! Search speed of the chess top level: nodes per second of fixed-depth searches on a set of
//! positions (the perft suite and a few middlegames), with the nodes and the move each search
//! found. Run with `cargo bench -p takhte-ai --bench search_speed`, or through
//! `scripts/search-speed.sh`, which also measures an older commit in the same run.
//!
//! A fixed depth (not a time) makes runs comparable: the same tree is searched as long as the
//! move generator produces the same moves in the same order, so the node counts say whether a
//! change altered the search, and the times say what it costs.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use takhte_ai::chess::{ChessGame, Pos};
use takhte_ai::search::{search, Limits};
use takhte_ai::tt::Tt;
use takhte_rules::{chess, Rules};

const POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
];

fn main() {
    let depth: i32 = std::env::var("SEARCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(8);
    println!(
        "{:<4} {:>10} {:>9} {:>8}  move",
        "pos", "nodes", "ms", "knps"
    );
    let (mut all_nodes, mut all_secs) = (0u64, 0f64);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = *chess::Position::from_text(fen).expect("valid FEN").board();
        let game = ChessGame {
            history: Vec::new(),
        };
        let mut tt = Tt::with_megabytes(32);
        let start = Instant::now();
        let found = search(
            &game,
            &Pos::new(board),
            &Limits::depth(depth),
            &mut tt,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .expect("a move");
        let secs = start.elapsed().as_secs_f64();
        all_nodes += found.nodes;
        all_secs += secs;
        println!(
            "{:<4} {:>10} {:>9.0} {:>8.0}  {}",
            i + 1,
            found.nodes,
            secs * 1e3,
            found.nodes as f64 / secs / 1e3,
            found.best.uci()
        );
    }
    println!(
        "all  {all_nodes:>10} {:>9.0} {:>8.0}  (depth {depth})",
        all_secs * 1e3,
        all_nodes as f64 / all_secs / 1e3
    );
}
