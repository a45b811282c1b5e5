//! Tunes the draughts evaluation's numbers ([`takhte_ai::draughts::params::Params`]) to the
//! results of self-play games (Texel's method, [`takhte_ai::tune`]): the evaluation's score of
//! each quiet position, turned into an expected result, should match the result of the game the
//! position came from.
//!
//! Usage: `tune_draughts OUT.rs POSITIONS...` with POSITIONS made by the `selfplay_games` example;
//! writes the tuned numbers as `ai/src/draughts/tuned.rs` expects them. Run it through
//! `scripts/tune-draughts.sh`. Starts from the hand-written numbers, so a run repeats exactly.

use std::fmt::Write as _;

use takhte_ai::draughts::eval::evaluate;
use takhte_ai::draughts::params::{Params, HAND};
use takhte_ai::tune::{best_scale, descend, error, fields, split, Sample};
use takhte_rules::draughts::Position;
use takhte_rules::{Rules, Side};

fn read(path: &str) -> Result<Vec<Sample<Position>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((pos, result)) = line.split_once('|') else {
            continue;
        };
        let target: f64 = result
            .trim()
            .parse()
            .map_err(|_| format!("{path}:{}: not a result: {result}", n + 1))?;
        let item = Position::from_text(pos.trim()).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        out.push(Sample { item, target });
    }
    Ok(out)
}

/// The evaluation of `pos` with the numbers `p`, for White.
fn white(p: &Params, pos: &Position) -> f64 {
    let v = evaluate(p, pos) as f64;
    if pos.side_to_move() == Side::White {
        v
    } else {
        -v
    }
}

/// Bounds that keep the numbers meaningful where few positions speak: a king is worth more
/// than a man, mobility and the endgame terms are never penalties.
fn allowed(name: &str, v: i32) -> bool {
    match name {
        "king" => v >= 150,
        "man_mobility_mg" | "man_mobility_eg" | "king_mobility" | "trade" | "lone_king" => v >= 0,
        _ => true,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(output), inputs) = (args.get(1), args.get(2..).unwrap_or_default()) else {
        eprintln!("usage: tune_draughts OUT.rs POSITIONS...");
        std::process::exit(2);
    };
    if inputs.is_empty() {
        eprintln!("usage: tune_draughts OUT.rs POSITIONS...");
        std::process::exit(2);
    }
    let mut all = Vec::new();
    for input in inputs {
        match read(input) {
            Ok(more) => all.extend(more),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    let (train, check) = split(all);
    // The scale that best turns the hand-written evaluation into the games' results; the
    // numbers are fitted at that scale, in the units the search's margins were set in.
    let scale = best_scale(&train, &|pos: &Position| white(&HAND, pos));
    let err = |p: &Params, set: &[Sample<Position>]| error(set, scale, &|pos| white(p, pos));
    let (hand_train, hand_check) = (err(&HAND, &train), err(&HAND, &check));
    eprintln!(
        "{} positions to fit, {} to check; scale {scale:.2}; hand-written: {hand_train:.6} / \
         {hand_check:.6}",
        train.len(),
        check.len()
    );
    let (best, tuned_train) = descend(HAND, &|p| err(p, &train), &allowed);
    let tuned_check = err(&best, &check);
    eprintln!("tuned: {tuned_train:.6} / {tuned_check:.6}");
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! The tuned numbers of the draughts evaluation. Made by `scripts/tune-draughts.sh` from \
         the results of self-play games ({} rounds); do not edit.\n//!\n//! Mean squared error of the expected \
         result against the game's (our evaluation scaled by {scale:.2}), on {} positions fitted / {} kept \
         out: hand-written {hand_train:.6} / {hand_check:.6}, tuned {tuned_train:.6} / {tuned_check:.6}.\n\n\
         use super::params::Params;\n\n/// The numbers level 6 plays with.\npub const TUNED: \
         Params = Params {{",
        inputs.len(),
        train.len(),
        check.len()
    );
    text.push_str(&fields(&best));
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
