//! Tunes the chess evaluation's numbers ([`takhte_ai::chess::params::Params`]) with Texel's
//! method ([`takhte_ai::tune`]): for chess to Stockfish's scores of quiet positions, for
//! minesweeper chess to the results of self-play games.
//!
//! Usage: `tune_eval POSITIONS OUT.rs` with POSITIONS made by `scripts/make-tuning-data.py`
//! (unzipped; `FEN | CENTIPAWNS`), writing the tuned numbers as `ai/src/chess/tuned.rs` expects
//! them (run it through `scripts/tune-eval.sh`); or `tune_eval --mine GAMES OUT.rs` with GAMES
//! made by the `selfplay_games` example (`VISIBLE POSITION | RESULT`), writing
//! `ai/src/mine/tuned.rs` (through `scripts/tune-mine.sh`). Starts from the hand-written numbers,
//! so a run repeats exactly.

use std::fmt::Write as _;

use takhte_ai::chess::eval::Evaluator;
use takhte_ai::chess::params::{Params, HAND};
use takhte_ai::mine::odds::mine_odds;
use takhte_ai::tune::{best_scale, descend, error, expected, fields, split, Sample};
use takhte_rules::bitboard::Bitboard;
use takhte_rules::chess::{Board, Position};
use takhte_rules::mine::Visible;
use takhte_rules::{Rules, Side};

/// A position as the evaluation reads it: the board and the squares that may hold a mine.
type Item = (Board, Bitboard);

/// Reads `FEN | CENTIPAWNS` lines (chess), or `VISIBLE | RESULT` lines (minesweeper chess).
fn read(path: &str, mine: bool) -> Result<Vec<Sample<Item>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(pos), Some(value)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let value: f64 = value
            .parse()
            .map_err(|_| format!("{path}:{}: not a number: {value}", n + 1))?;
        let at = |e: String| format!("{path}:{}: {e}", n + 1);
        out.push(if mine {
            let visible = Visible::from_text(pos).map_err(|e| at(e.to_string()))?;
            Sample {
                item: (visible.board, mine_odds(&visible).risky()),
                target: value,
            }
        } else {
            let pos = Position::from_text(pos).map_err(|e| at(e.to_string()))?;
            Sample {
                item: (*pos.board(), 0),
                target: expected(value),
            }
        });
    }
    Ok(out)
}

/// The evaluation of the item by `e` for White.
fn white(e: &Evaluator, (b, risky): &Item) -> f64 {
    let v = e.evaluate(b, *risky) as f64;
    if b.side_to_move() == Side::White {
        v
    } else {
        -v
    }
}

/// The mean squared error of the numbers `p` on `set`, with the evaluation multiplied by
/// `scale` before it is turned into an expected result.
fn error_of(p: &Params, set: &[Sample<Item>], scale: f64) -> f64 {
    let e = Evaluator::new(p.clone());
    error(set, scale, &|item: &Item| white(&e, item))
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
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mine = args.first().is_some_and(|a| a == "--mine");
    if mine {
        args.remove(0);
    }
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        eprintln!("usage: tune_eval [--mine] POSITIONS OUT.rs");
        std::process::exit(2);
    };
    let all = match read(input, mine) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    // Every tenth position is kept out of the fit, to see that the fit carries over.
    let (train, check) = split(all);
    // Stockfish's centipawns (or the games' results) are not ours: first the scale that best
    // turns the hand-written evaluation into the targets; the numbers are then fitted at that
    // scale, so that they stay in the units the search's margins were set in.
    let hand = Evaluator::new(HAND);
    let scale = best_scale(&train, &|item: &Item| white(&hand, item));
    let error = |p: &Params, set: &[Sample<Item>]| error_of(p, set, scale);
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
    let errors = format!(
        "(our evaluation scaled by {scale:.2}), on {} positions fitted / {} kept out: \
         hand-written {hand_train:.6} / {hand_check:.6}, tuned {tuned_train:.6} / {tuned_check:.6}.",
        train.len(),
        check.len()
    );
    let _ = if mine {
        writeln!(
            text,
            "//! The tuned numbers of the minesweeper chess evaluation. Made by \
             `scripts/tune-mine.sh` from the results of self-play games; do not edit.\n//!\n//! \
             Mean squared error of the expected result against the game's {errors}\n\n\
             use crate::chess::params::Params;\n\n/// The numbers level 6 plays with.\npub const \
             TUNED: Params = Params {{"
        )
    } else {
        writeln!(
            text,
            "//! The tuned numbers of the chess evaluation. Made by `scripts/tune-eval.sh` from \
             `ai/tuning/positions.txt.gz`; do not edit.\n//!\n//! Mean squared error of the \
             expected result against Stockfish's {errors}\n\n\
             use super::params::Params;\n\n/// The numbers the app plays with.\npub const TUNED: \
             Params = Params {{"
        )
    };
    text.push_str(&fields(&best));
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
