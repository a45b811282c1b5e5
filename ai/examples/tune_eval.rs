//! Tunes the chess evaluation's numbers ([`takhte_ai::chess::params::Params`]) to Stockfish's
//! scores of quiet positions (Texel's method: the mean squared difference of the two scores
//! turned into expected results, made smaller one number at a time).
//!
//! Usage: `tune_eval POSITIONS OUT.rs` with POSITIONS made by `scripts/make-tuning-data.py`
//! (unzipped); writes the tuned numbers as `ai/src/chess/tuned.rs` expects them. Run it through
//! `scripts/tune-eval.sh`. Starts from the hand-written numbers, so a run repeats exactly.

use std::fmt::Write as _;
use std::time::Instant;

use takhte_ai::chess::eval::Evaluator;
use takhte_ai::chess::params::{Params, HAND};
use takhte_rules::chess::{Board, Position};
use takhte_rules::{Rules, Side};

/// The expected result of a White-relative score in centipawns (Elo's curve).
fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

struct Sample {
    board: Board,
    target: f64,
}

fn read(path: &str) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(fen), Some(cp)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let cp: f64 = cp
            .parse()
            .map_err(|_| format!("{path}:{}: not a score: {cp}", n + 1))?;
        let pos = Position::from_text(fen).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        out.push(Sample {
            board: *pos.board(),
            target: expected(cp),
        });
    }
    Ok(out)
}

/// The mean squared error of the numbers `p` on `set`, on every core, with the evaluation
/// multiplied by `scale` before it is turned into an expected result.
fn error(p: &Params, set: &[Sample], scale: f64) -> f64 {
    let e = Evaluator::new(p.clone());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = set.len().div_ceil(threads).max(1);
    let sum: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = set
            .chunks(chunk)
            .map(|part| {
                let e = &e;
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let v = e.evaluate(&s.board, 0) as f64;
                            let white = if s.board.side_to_move() == Side::White {
                                v
                            } else {
                                -v
                            };
                            (expected(scale * white) - s.target).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    sum / set.len().max(1) as f64
}

/// Bounds on numbers the positions say little about, where a fit alone would make the play
/// worse: a king walking up the board in the middlegame is never good, whatever the few such
/// positions among the samples say; the penalties stay penalties.
fn allowed(name: &str, v: i32) -> bool {
    match name {
        "king_up_mg" | "king_third_mg" => v <= 0,
        "doubled_mg" | "doubled_eg" | "isolated_mg" | "isolated_eg" | "king_open_file_mg" => v >= 0,
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
    let (mut train, mut check) = (Vec::new(), Vec::new());
    for (i, s) in all.into_iter().enumerate() {
        if i % 10 == 9 {
            check.push(s);
        } else {
            train.push(s);
        }
    }
    let start = Instant::now();
    let mut best = HAND;
    // Stockfish's centipawns are not ours: first the scale that best turns the hand-written
    // evaluation into Stockfish's expected results; the numbers are then fitted at that scale,
    // so that they stay in the units the search's margins were set in.
    let scale = (50..=200)
        .map(|k| {
            let k = k as f64 / 100.0;
            (k, error(&best, &train, k))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(k, _)| k);
    let error = |p: &Params, set: &[Sample]| error(p, set, scale);
    let mut best_err = error(&best, &train);
    let (hand_train, hand_check) = (best_err, error(&best, &check));
    eprintln!(
        "{} positions to fit, {} to check; scale {scale:.2}; hand-written: {hand_train:.6} / \
         {hand_check:.6}",
        train.len(),
        check.len()
    );
    for step in [16, 8, 4, 2, 1] {
        for sweep in 1..=20 {
            let mut improved = 0;
            for i in 0..Params::NAMES.len() {
                for dir in [1, -1] {
                    let mut moved = false;
                    for _ in 0..12 {
                        let mut p = best.clone();
                        let v = best.get(i) + dir * step;
                        if !allowed(Params::NAMES[i], v) {
                            break;
                        }
                        p.set(i, v);
                        let err = error(&p, &train);
                        if err < best_err {
                            best = p;
                            best_err = err;
                            moved = true;
                        } else {
                            break;
                        }
                    }
                    if moved {
                        improved += 1;
                        break;
                    }
                }
            }
            eprintln!(
                "step {step} sweep {sweep}: {best_err:.6} ({improved} numbers moved, {:.0} s)",
                start.elapsed().as_secs_f64()
            );
            if improved == 0 {
                break;
            }
        }
    }
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
    for (i, name) in Params::NAMES.iter().enumerate() {
        let _ = writeln!(text, "    {name}: {},", best.get(i));
    }
    text.push_str("};\n");
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
