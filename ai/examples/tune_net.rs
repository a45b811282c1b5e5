//! Fits the chess evaluation's neural correction ([`takhte_ai::chess::net`]) on top of the
//! tuned evaluation with its piece-square corrections: the same error as `tune_eval` and
//! `tune_squares` (the squared difference of expected results against Stockfish's scores),
//! minimised by Adam on mini-batches of 512 (the step falling along a half cosine to a fifth by
//! the last pass), with a penalty λ·Σ w² on the weights' size. The
//! last tenth of the positions (other games) is kept out; the weights of the pass that fits it
//! best are kept, rounded to the integers the evaluation uses, and the error of those rounded
//! weights is what the file reports. With `FLIP` set in the environment, every fitted position
//! in which nobody may castle is fitted a second time with its files turned round (a↔h), which
//! is worth the same.
//!
//! Usage: `tune_net POSITIONS[,MORE…] OUT.rs [PASSES] [LAMBDA]` (40 passes and 1e-7 by
//! default); run through `scripts/tune-eval.sh` (30 passes, 1e-7, `FLIP`), which writes
//! `ai/src/chess/net_weights.rs`. Deterministic: the same positions give the same file.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use takhte_ai::chess::eval::TUNED_EVAL;
use takhte_ai::chess::net::{for_each_feature, HIDDEN, INPUTS, QA, QB};
use takhte_ai::tune::{best_scale, error, expected, read_scored, Sample};
use takhte_rules::chess::Position;
use takhte_rules::{Rules, Side};

/// A position reduced to what the fit needs, all from the side to move's point of view (the
/// sample's target is turned to the side to move too).
struct Item {
    /// The evaluation without the network.
    base: f64,
    /// The network's inputs.
    inputs: Vec<u16>,
}

/// The weights being fitted.
#[derive(Clone)]
struct Weights {
    w1: Vec<f64>, // INPUTS × HIDDEN
    b1: Vec<f64>,
    w2: Vec<f64>,
    b2: f64,
}

impl Weights {
    fn len() -> usize {
        INPUTS * HIDDEN + HIDDEN + HIDDEN + 1
    }

    fn flat(&self) -> Vec<f64> {
        let mut v = self.w1.clone();
        v.extend(&self.b1);
        v.extend(&self.w2);
        v.push(self.b2);
        v
    }

    fn from_flat(v: &[f64]) -> Weights {
        let (w1, rest) = v.split_at(INPUTS * HIDDEN);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, rest) = rest.split_at(HIDDEN);
        Weights {
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: rest[0],
        }
    }

    /// The weights rounded as the evaluation stores them, back in real units.
    fn rounded(&self) -> Weights {
        let qa = QA as f64;
        let qb = QB as f64;
        Weights {
            w1: self.w1.iter().map(|x| (x * qa).round() / qa).collect(),
            b1: self.b1.iter().map(|x| (x * qa).round() / qa).collect(),
            w2: self.w2.iter().map(|x| (x * qb).round() / qb).collect(),
            b2: (self.b2 * qa * qb).round() / (qa * qb),
        }
    }
}

/// The hidden layer's sums for `it`.
fn hidden(it: &Item, w: &Weights) -> [f64; HIDDEN] {
    let mut acc = [0.0; HIDDEN];
    acc.copy_from_slice(&w.b1);
    for &i in &it.inputs {
        let row = &w.w1[i as usize * HIDDEN..][..HIDDEN];
        for (a, x) in acc.iter_mut().zip(row) {
            *a += x;
        }
    }
    acc
}

fn score(it: &Item, w: &Weights) -> f64 {
    let acc = hidden(it, w);
    it.base
        + acc
            .iter()
            .zip(&w.w2)
            .map(|(a, x)| a.clamp(0.0, 1.0) * x)
            .sum::<f64>()
        + w.b2
}

/// The error of the weights `w` on `set` (the library's, on every core).
fn fit_error(set: &[Sample<Item>], w: &Weights, scale: f64) -> f64 {
    error(set, scale, &|it: &Item| score(it, w))
}

/// The position with the files turned round (a↔h), when no side may castle (castling is the
/// one rule that tells the wings apart, so such a position is worth what the original is).
fn flipped(fen: &str) -> Option<String> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() < 4 || f[2] != "-" {
        return None;
    }
    let board: Vec<String> = f[0].split('/').map(|r| r.chars().rev().collect()).collect();
    let ep = match f[3].as_bytes() {
        [file @ b'a'..=b'h', rank] => {
            format!("{}{}", (b'h' - (file - b'a')) as char, *rank as char)
        }
        _ => "-".to_string(),
    };
    let mut out = vec![board.join("/"), f[1].to_string(), "-".to_string(), ep];
    out.extend(f[4..].iter().map(|x| x.to_string()));
    Some(out.join(" "))
}

/// A sample for the position `fen` whose target (White's expected result) is `target`.
fn sample(fen: &str, target: f64) -> Result<Sample<Item>, String> {
    let p = Position::from_text(fen).map_err(|e| e.to_string())?;
    let b = p.board();
    let white = b.side_to_move() == Side::White;
    let mut inputs = Vec::new();
    for_each_feature(b, |i| inputs.push(i as u16));
    Ok(Sample {
        item: Item {
            base: TUNED_EVAL.evaluate(b, 0) as f64,
            inputs,
        },
        target: if white { target } else { 1.0 - target },
    })
}

/// A sample and its file-flipped twin, where there is one.
type WithTwin = (Sample<Item>, Option<Sample<Item>>);

/// The samples of the files in `path` (comma-separated), each with its file-flipped twin
/// where there is one.
fn read(path: &str) -> Result<Vec<WithTwin>, String> {
    let mut all = Vec::new();
    for part in path.split(',') {
        let set = read_scored(part, |fen| Ok(fen.to_string()))?;
        for s in set {
            let twin = match flipped(&s.item) {
                Some(f) => Some(sample(&f, s.target)?),
                None => None,
            };
            all.push((sample(&s.item, s.target)?, twin));
        }
    }
    Ok(all)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(output)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: tune_net POSITIONS[,MORE] OUT.rs [EPOCHS] [LAMBDA]");
        std::process::exit(2);
    };
    let epochs: usize = args.get(3).and_then(|l| l.parse().ok()).unwrap_or(40);
    let lambda: f64 = args.get(4).and_then(|l| l.parse().ok()).unwrap_or(1e-7);
    let all = match read(input) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    // The last tenth is kept out (without twins); the rest is fitted, with the twins when
    // `FLIP` is set in the environment.
    let flip = std::env::var_os("FLIP").is_some();
    let mut first = all;
    let check: Vec<Sample<Item>> = first
        .split_off(first.len() * 9 / 10)
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    let mut train = Vec::new();
    for (s, twin) in first {
        train.push(s);
        train.extend(twin.filter(|_| flip));
    }
    let scale = best_scale(&train, &|it: &Item| it.base);
    let mut rng = ChaCha8Rng::seed_from_u64(0x7A6B_7465_2026);
    let mut w = Weights {
        w1: (0..INPUTS * HIDDEN)
            .map(|_| (rng.gen::<f64>() - 0.5) * 0.1)
            .collect(),
        b1: vec![0.5; HIDDEN],
        w2: vec![0.0; HIDDEN],
        b2: 0.0,
    };
    let zero = Weights {
        w2: vec![0.0; HIDDEN],
        ..w.clone()
    };
    let (e0, c0) = (
        fit_error(&train, &zero, scale),
        fit_error(&check, &zero, scale),
    );
    eprintln!(
        "{} to fit, {} to check; scale {scale:.2}; without the network: {e0:.6} / {c0:.6}; \
         {epochs} passes, lambda {lambda:e}",
        train.len(),
        check.len()
    );
    let n = Weights::len();
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    // Step sizes: the hidden layer's weights are in units of the clip range, the output's in
    // centipawns.
    let rate: Vec<f64> = (0..n)
        .map(|i| {
            if i < INPUTS * HIDDEN + HIDDEN {
                2e-3
            } else {
                0.5
            }
        })
        .collect();
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let k = scale * std::f64::consts::LN_10 / 400.0;
    let batch = 512;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (f64::MAX, w.clone(), 0usize);
    let mut t = 0i32;
    for epoch in 1..=epochs {
        order.shuffle(&mut rng);
        // The step falls along a half cosine, from the full step in the first pass to a fifth
        // in the last, so that the last passes settle.
        let along = (epoch - 1) as f64 / (epochs.max(2) - 1) as f64;
        let step = 1.0 - 0.8 * (1.0 - (std::f64::consts::PI * along).cos()) / 2.0;
        for chunk in order.chunks(batch) {
            let mut g = vec![0.0f64; n];
            for &s in chunk {
                let it = &train[s].item;
                let acc = hidden(it, &w);
                let r: f64 = acc
                    .iter()
                    .zip(&w.w2)
                    .map(|(a, x)| a.clamp(0.0, 1.0) * x)
                    .sum::<f64>()
                    + w.b2;
                let p = expected(scale * (it.base + r));
                let d = 2.0 * (p - train[s].target) * p * (1.0 - p) * k;
                let (gw1, rest) = g.split_at_mut(INPUTS * HIDDEN);
                let (gb1, rest) = rest.split_at_mut(HIDDEN);
                let (gw2, gb2) = rest.split_at_mut(HIDDEN);
                gb2[0] += d;
                for j in 0..HIDDEN {
                    gw2[j] += d * acc[j].clamp(0.0, 1.0);
                    if acc[j] > 0.0 && acc[j] < 1.0 {
                        let da = d * w.w2[j];
                        gb1[j] += da;
                        for &f in &it.inputs {
                            gw1[f as usize * HIDDEN + j] += da;
                        }
                    }
                }
            }
            t += 1;
            let mut flat = w.flat();
            let bn = chunk.len() as f64;
            for i in 0..n {
                let gi = g[i] / bn + 2.0 * lambda * flat[i];
                m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
                v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
                let mh = m[i] / (1.0 - beta1.powi(t));
                let vh = v[i] / (1.0 - beta2.powi(t));
                flat[i] -= step * rate[i] * mh / (vh.sqrt() + 1e-12);
            }
            w = Weights::from_flat(&flat);
        }
        let r = w.rounded();
        let (e, c) = (fit_error(&train, &r, scale), fit_error(&check, &r, scale));
        eprintln!("pass {epoch}: {e:.6} / {c:.6}");
        if c < best.0 {
            best = (c, r, epoch);
        }
    }
    let (c1, w, epoch) = best;
    let e1 = fit_error(&train, &w, scale);
    eprintln!("kept pass {epoch}: {e1:.6} / {c1:.6}");
    let qa = QA as f64;
    let qb = QB as f64;
    let ints = |xs: &[f64], q: f64| -> Vec<String> {
        xs.iter()
            .map(|x| format!("{}", (x * q).round() as i64))
            .collect()
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! Weights of the chess evaluation's neural correction ([`super::net`]). Made by \
         `scripts/tune-eval.sh` from `ai/tuning/positions.txt.gz` and \
         `ai/tuning/net-positions.txt.gz`; do not edit.\n//!\n//! Mean \
         squared error of the expected result against Stockfish's (scale {scale:.2}), on {} \
         positions fitted / {} kept out: without the network {e0:.6} / {c0:.6}, with it \
         {e1:.6} / {c1:.6} (pass {epoch} of {epochs}, lambda {lambda:e}{}).\n",
        train.len(),
        check.len(),
        if flip {
            ", with the wing-flipped twins"
        } else {
            ""
        }
    );
    let _ = writeln!(
        text,
        "/// Hidden-layer weights, `[input][unit]`, × [`super::net::QA`].\n\
         pub static W1: [[i16; {HIDDEN}]; {INPUTS}] = ["
    );
    for row in w.w1.chunks(HIDDEN) {
        let _ = writeln!(text, "    [{}],", ints(row, qa).join(", "));
    }
    let _ = writeln!(text, "];");
    let _ = writeln!(
        text,
        "/// Hidden-layer biases × [`super::net::QA`].\npub const B1: [i16; {HIDDEN}] = [{}];",
        ints(&w.b1, qa).join(", ")
    );
    let _ = writeln!(
        text,
        "/// Output weights × [`super::net::QB`].\npub const W2: [i16; {HIDDEN}] = [{}];",
        ints(&w.w2, qb).join(", ")
    );
    let _ = writeln!(
        text,
        "/// Output bias × QA × QB.\npub const B2: i32 = {};",
        (w.b2 * qa * qb).round() as i64
    );
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
