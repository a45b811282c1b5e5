//! Fits corrections to the chess piece-square tables on top of the tuned evaluation: one number
//! per piece kind, square (from the side's own point of view) and phase (middlegame, endgame),
//! 768 in all, by gradient descent on the same error as `tune_eval` (the squared difference of
//! expected results against Stockfish's scores), with a penalty on their size.
//!
//! Usage: `tune_squares POSITIONS OUT.rs [LAMBDA]` (the penalty, 1e-8 by default: on the
//! positions kept out, 0 fits worse than the tuned numbers alone, 1e-8 best); run through
//! `scripts/tune-eval.sh`, which writes `ai/src/chess/squares.rs`. Deterministic: the same
//! positions give the same file.

use std::fmt::Write as _;

use takhte_ai::chess::eval::Evaluator;
use takhte_ai::chess::pst::PHASE;
use takhte_ai::chess::tuned::TUNED;
use takhte_ai::tune::{best_scale, expected, read_scored, Sample};
use takhte_rules::bitboard::squares;
use takhte_rules::chess::{Board, Kind, Position};
use takhte_rules::{Rules, Side};

/// A position reduced to what the corrections need.
struct Item {
    /// The tuned evaluation for White.
    base: f64,
    /// The middlegame weight (0..=1).
    mg: f64,
    /// (index into the 384 numbers of a phase, +1 for White / −1 for Black).
    pieces: Vec<(usize, f64)>,
}

fn read(path: &str) -> Result<Vec<Sample<Item>>, String> {
    // The tuned numbers without the corrections: the base the corrections are fitted on.
    let plain = Evaluator::new(TUNED);
    read_scored(path, |fen| {
        Position::from_text(fen)
            .map(|p| item(&plain, p.board()))
            .map_err(|e| e.to_string())
    })
}

fn item(plain: &Evaluator, b: &Board) -> Item {
    let v = plain.evaluate(b, 0) as f64;
    let base = if b.side_to_move() == Side::White {
        v
    } else {
        -v
    };
    let mut phase = 0;
    let mut pieces = Vec::new();
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            for sq in squares(b.pieces(side, kind)) {
                phase += PHASE[kind as usize];
                let (file, rank) = (sq % 8, sq / 8);
                let rel = if side == Side::White { rank } else { 7 - rank };
                let sign = if side == Side::White { 1.0 } else { -1.0 };
                pieces.push((kind as usize * 64 + rel * 8 + file, sign));
            }
        }
    }
    Item {
        base,
        mg: phase.min(24) as f64 / 24.0,
        pieces,
    }
}

/// White's score with the corrections `w` (`w[..384]` middlegame, `w[384..]` endgame).
fn score(it: &Item, w: &[f64]) -> f64 {
    let mut s = it.base;
    for &(i, sign) in &it.pieces {
        s += sign * (w[i] * it.mg + w[384 + i] * (1.0 - it.mg));
    }
    s
}

fn error(set: &[Sample<Item>], w: &[f64], scale: f64) -> f64 {
    set.iter()
        .map(|s| (expected(scale * score(&s.item, w)) - s.target).powi(2))
        .sum::<f64>()
        / set.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(output)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: tune_squares POSITIONS OUT.rs [LAMBDA]");
        std::process::exit(2);
    };
    let lambda: f64 = args.get(3).and_then(|l| l.parse().ok()).unwrap_or(1e-8);
    let all = match read(input) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    // The last tenth is kept out: positions of other games than those fitted (positions of one
    // game are alike, so every tenth position, as `tune_eval` keeps out, would flatter a fit of
    // this many numbers).
    let mut train = all;
    let check = train.split_off(train.len() * 9 / 10);
    let scale = best_scale(&train, &|it: &Item| it.base);
    let mut w = vec![0.0f64; 768];
    let (e0, c0) = (error(&train, &w, scale), error(&check, &w, scale));
    eprintln!(
        "{} to fit, {} to check; scale {scale:.2}; tuned evaluation: {e0:.6} / {c0:.6}; lambda {lambda:e}",
        train.len(),
        check.len()
    );
    // Adam on the whole training set.
    let (mut m, mut v) = (vec![0.0f64; 768], vec![0.0f64; 768]);
    let (b1, b2, rate) = (0.9f64, 0.999f64, 0.5f64);
    let k = scale * std::f64::consts::LN_10 / 400.0;
    for step in 1..=1500 {
        let mut g = vec![0.0f64; 768];
        for s in &train {
            let p = expected(scale * score(&s.item, &w));
            let d = 2.0 * (p - s.target) * p * (1.0 - p) * k;
            for &(i, sign) in &s.item.pieces {
                g[i] += d * sign * s.item.mg;
                g[384 + i] += d * sign * (1.0 - s.item.mg);
            }
        }
        let n = train.len() as f64;
        for i in 0..768 {
            let gi = g[i] / n + 2.0 * lambda * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if step % 100 == 0 {
            eprintln!(
                "step {step}: {:.6} / {:.6}",
                error(&train, &w, scale),
                error(&check, &w, scale)
            );
        }
    }
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    let (e1, c1) = (
        error(&train, &rounded, scale),
        error(&check, &rounded, scale),
    );
    eprintln!("fitted (rounded): {e1:.6} / {c1:.6}");
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! Corrections to the tuned chess piece-square tables. Made by `scripts/tune-eval.sh` \
         from `ai/tuning/positions.txt.gz`; do not edit.\n//!\n//! Mean squared error of the \
         expected result against Stockfish's (scale {scale:.2}), on {} positions fitted / {} \
         kept out: without {e0:.6} / {c0:.6}, with {e1:.6} / {c1:.6}.\n",
        train.len(),
        check.len()
    );
    for (name, part) in [("MG", &rounded[..384]), ("EG", &rounded[384..])] {
        let _ =
            writeln!(
            text,
            "/// {} corrections, `[kind][square]`, squares from the side's own first rank (a1 = \
             0, b1 = 1, …).\npub const SQUARES_{name}: [[i16; 64]; 6] = [",
            if name == "MG" { "Middlegame" } else { "Endgame" }
        );
        for kind in 0..6 {
            let row: Vec<String> = part[kind * 64..kind * 64 + 64]
                .iter()
                .map(|x| format!("{}", *x as i64))
                .collect();
            let _ = writeln!(text, "    [{}],", row.join(", "));
        }
        let _ = writeln!(text, "];");
    }
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
