//! The tuned chess evaluation against the data it was tuned on (`ai/tuning/positions.txt.gz`,
//! made by `scripts/make-tuning-data.py`, tuned by `scripts/tune-eval.sh`), and its symmetry.

use std::io::Read;

use takhte_ai::chess::eval::{Evaluator, HAND_EVAL, TUNED_EVAL, TUNED_NET_EVAL, TUNED_PLAIN_EVAL};
use takhte_rules::chess::{Board, Position};
use takhte_rules::{Rules, Side};

/// The labelled positions: FENs and Stockfish's scores (White's side, centipawns).
fn positions() -> Vec<(String, f64)> {
    read_positions("positions.txt.gz")
}

/// The positions of `ai/tuning/NAME` (gzip files, possibly several joined).
fn read_positions(name: &str) -> Vec<(String, f64)> {
    let path = format!("{}/tuning/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(path).expect("the tuning positions are in the repository");
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("a gzip file of text");
    text.lines()
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            (parts[0].to_string(), parts[1].parse().expect("a score"))
        })
        .collect()
}

/// [`positions`] read as boards.
fn boards() -> Vec<(Board, f64)> {
    positions()
        .into_iter()
        .map(|(fen, cp)| (*Position::from_text(&fen).expect("a valid FEN").board(), cp))
        .collect()
}

fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// The mean squared error of `e`'s expected results against Stockfish's.
fn error(e: &Evaluator, set: &[&(Board, f64)]) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|(b, cp)| {
            let v = e.evaluate(b, 0) as f64;
            let white = if b.side_to_move() == Side::White {
                v
            } else {
                -v
            };
            (expected(white) - expected(*cp)).powi(2)
        })
        .sum();
    sum / set.len() as f64
}

#[test]
fn the_tuned_numbers_fit_the_positions_kept_out_of_the_fit_better() {
    let all = boards();
    assert!(all.len() >= 50_000, "{} positions", all.len());
    // The tuner fits on nine positions in ten and keeps every tenth out.
    let kept_out: Vec<_> = all.iter().skip(9).step_by(10).collect();
    let (hand, tuned) = (error(&HAND_EVAL, &kept_out), error(&TUNED_EVAL, &kept_out));
    assert!(
        tuned < hand * 0.85,
        "tuned {tuned:.6} against hand-written {hand:.6} on {} positions",
        kept_out.len()
    );
}

/// The piece-square corrections fitted on top of the tuned numbers (`ai/src/chess/squares.rs`)
/// predict Stockfish's scores better on the positions their fit kept out (the last tenth of the
/// file: other games than those fitted) than the tuned numbers alone.
#[test]
fn the_square_corrections_fit_the_games_kept_out_better() {
    let all = boards();
    let kept_out: Vec<_> = all[all.len() * 9 / 10..].iter().collect();
    let (plain, corrected) = (
        error(&TUNED_PLAIN_EVAL, &kept_out),
        error(&TUNED_EVAL, &kept_out),
    );
    assert!(
        corrected < plain * 0.97,
        "with the corrections {corrected:.6}, without {plain:.6} on {} positions",
        kept_out.len()
    );
}

/// The position with the board turned upside down and the colours swapped.
fn mirrored(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(f[2]).chars().collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
    let castling: String = castling.into_iter().collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let (file, rank) = f[3].split_at(1);
        format!("{file}{}", 9 - rank.parse::<u8>().expect("a rank"))
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

#[test]
fn the_evaluation_is_the_same_for_both_colours() {
    let mut checked = 0;
    for (fen, _) in positions().iter().step_by(20) {
        let other = mirrored(fen);
        let a = Position::from_text(fen).expect("a valid FEN");
        let b = Position::from_text(&other).expect("the mirrored FEN is valid");
        for e in [&*TUNED_EVAL, &*TUNED_NET_EVAL, &*HAND_EVAL] {
            assert_eq!(
                e.evaluate(a.board(), 0),
                e.evaluate(b.board(), 0),
                "{fen} against {other}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 2_500);
}

/// The neural correction (`ai/src/chess/net_weights.rs`) predicts Stockfish's scores better on
/// the games its fit kept out (the last tenth of the positions of `positions.txt.gz` and
/// `net-positions.txt.gz` joined) than the evaluation without it.
#[test]
fn the_neural_correction_fits_the_games_kept_out_better() {
    let mut all = positions();
    all.extend(read_positions("net-positions.txt.gz"));
    // Only the kept-out tenth is read as boards.
    let tail: Vec<(Board, f64)> = all[all.len() * 9 / 10..]
        .iter()
        .map(|(fen, cp)| (*Position::from_text(fen).expect("a valid FEN").board(), *cp))
        .collect();
    let kept_out: Vec<_> = tail.iter().collect();
    let (without, with) = (
        error(&TUNED_EVAL, &kept_out),
        error(&TUNED_NET_EVAL, &kept_out),
    );
    assert!(
        with < without * 0.92,
        "with the network {with:.6}, without {without:.6} on {} positions",
        kept_out.len()
    );
}
