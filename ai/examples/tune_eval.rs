//! Tunes the chess evaluation's numbers ([`takhte_ai::chess::params::Params`]) to Stockfish's
//! scores of quiet positions (Texel's method: the mean squared difference of the two scores
//! turned into expected results, made smaller one number at a time).
//!
//! Usage: `tune_eval POSITIONS OUT.rs` with POSITIONS made by `scripts/make-tuning-data.py`
//! (unzipped); writes the tuned numbers as `ai/src/chess/tuned.rs` expects them. Run it through
//! `scripts/tune-eval.sh`. Starts from the hand-written numbers, so a run repeats exactly.

use std::fmt::Write as _;

use takhte_ai::chess::eval::Evaluator;
use takhte_ai::chess::params::{Params, HAND};
use takhte_ai::tune::{best_scale, descend, error, fields, read_scored, split, Sample};
use takhte_rules::chess::{Board, Position};
use takhte_rules::{Rules, Side};

fn read(path: &str) -> Result<Vec<Sample<Board>>, String> {
    read_scored(path, |fen| {
        Position::from_text(fen)
            .map(|p| *p.board())
            .map_err(|e| e.to_string())
    })
}

/// The evaluation of `b` by `e` for White.
fn white(e: &Evaluator, b: &Board) -> f64 {
    let v = e.evaluate(b, 0) as f64;
    if b.side_to_move() == Side::White {
        v
    } else {
        -v
    }
}

/// The mean squared error of the numbers `p` on `set`, with the evaluation multiplied by
/// `scale` before it is turned into an expected result.
fn error_of(p: &Params, set: &[Sample<Board>], scale: f64) -> f64 {
    let e = Evaluator::new(p.clone());
    error(set, scale, &|b: &Board| white(&e, b))
}

/// Bounds on numbers the positions say little about, where a fit alone would make the play
/// worse: a king walking up the board in the middlegame is never good, whatever the few such
/// positions among the samples say; the penalties stay penalties.
fn allowed(name: &str, v: i32) -> bool {
    match name {
        "king_up_mg" | "king_third_mg" => v <= 0,
        "doubled_mg" | "doubled_eg" | "isolated_mg" | "isolated_eg" | "king_open_file_mg" => v >= 0,
        "opposite_bishops_pct" => (10..=100).contains(&v),
        "threats_to_move_pct" => (0..=300).contains(&v),
        _ => true,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(output)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: tune_eval POSITIONS OUT.rs");
        std::process::exit(2);
    };
    let all = match read(input) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    // Every tenth position is kept out of the fit, to see that the fit carries over.
    let (train, check) = split(all);
    // Stockfish's centipawns are not ours: first the scale that best turns the hand-written
    // evaluation into Stockfish's expected results; the numbers are then fitted at that scale,
    // so that they stay in the units the search's margins were set in.
    let hand = Evaluator::new(HAND);
    let scale = best_scale(&train, &|b: &Board| white(&hand, b));
    let error = |p: &Params, set: &[Sample<Board>]| error_of(p, set, scale);
    let (hand_train, hand_check) = (error(&HAND, &train), error(&HAND, &check));
    eprintln!(
        "{} positions to fit, {} to check; scale {scale:.2}; hand-written: {hand_train:.6} / \
         {hand_check:.6}",
        train.len(),
        check.len()
    );
    let (best, best_err) = descend(HAND, &|p| error(p, &train), &|n, v| allowed(n, v));
    let (tuned_train, tuned_check) = (best_err, error(&best, &check));
    eprintln!("tuned: {tuned_train:.6} / {tuned_check:.6}");
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! The tuned numbers of the chess evaluation. Made by `scripts/tune-eval.sh` from \
         `ai/tuning/positions.txt.gz`; do not edit.\n//!\n//! Mean squared error of the expected \
         result against Stockfish's (our evaluation scaled by {scale:.2}), on {} positions fitted / {} kept \
         out: hand-written {hand_train:.6} / {hand_check:.6}, tuned {tuned_train:.6} / {tuned_check:.6}.\n\n\
         use super::params::Params;\n\n/// The numbers the app plays with.\npub const TUNED: \
         Params = Params {{",
        train.len(),
        check.len()
    );
    text.push_str(&fields(&best));
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
