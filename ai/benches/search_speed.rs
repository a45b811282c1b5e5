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

/// Two middlegames besides the perft suite.
const MIDDLEGAMES: [&str; 2] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
];

/// The positions: the six of the rules' perft data (`name | FEN | counts`), then the middlegames.
fn positions() -> Vec<&'static str> {
    include_str!("../../rules/tests/data/chess_perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .chain(MIDDLEGAMES)
        .collect()
}

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
    for (i, fen) in positions().into_iter().enumerate() {
        let board = *chess::Position::from_text(fen).expect("valid FEN").board();
        let game = ChessGame {
            history: Vec::new(),
            eval: &takhte_ai::chess::eval::TUNED_EVAL,
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
