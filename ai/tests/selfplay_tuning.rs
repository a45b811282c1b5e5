//! The draughts evaluation tuned on the results of self-play games (`scripts/tune-draughts.sh`)
//! against games it was not fitted on, and the symmetries of the draughts evaluation.
//!
//! `ai/tuning/draughts-check.txt.gz`: 300 self-play games made the way the tuning games of the
//! first round are (`selfplay_games draughts OUT 300 8000 7`, another seed than the tuning's):
//! each quiet position with the result of its game for White.

use std::io::Read;

use takhte_ai::draughts::eval::evaluate;
use takhte_ai::draughts::params::{Params, HAND};
use takhte_ai::draughts::tuned::TUNED;
use takhte_ai::tune::{best_scale, error, Sample};
use takhte_rules::draughts::Position;
use takhte_rules::{Rules, Side};

/// The positions of `ai/tuning/NAME` with their games' results, each read by `read`.
fn samples<T>(name: &str, read: impl Fn(&str) -> T) -> Vec<Sample<T>> {
    let path = format!("{}/tuning/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).expect("the check games are in the repository");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("a gzip file of text");
    text.lines()
        .map(|line| {
            let (pos, result) = line.split_once('|').expect("POSITION | RESULT");
            Sample {
                item: read(pos.trim()),
                target: result.trim().parse().expect("a result"),
            }
        })
        .collect()
}

fn games() -> Vec<Sample<Position>> {
    samples("draughts-check.txt.gz", |t| {
        Position::from_text(t).expect("a valid position")
    })
}

fn white(p: &Params, pos: &Position) -> f64 {
    let v = evaluate(p, pos) as f64;
    if pos.side_to_move() == Side::White {
        v
    } else {
        -v
    }
}

#[test]
fn the_tuned_numbers_predict_the_results_of_other_games_better() {
    let set = games();
    assert!(set.len() >= 20_000, "{} positions", set.len());
    // Each set of numbers at the scale that suits it best.
    let score = |p: &'static Params| {
        let f = move |pos: &Position| white(p, pos);
        error(&set, best_scale(&set, &f), &f)
    };
    let (hand, tuned) = (score(&HAND), score(&TUNED));
    assert!(
        tuned < hand * 0.95,
        "tuned {tuned:.6} against hand-written {hand:.6} on {} positions",
        set.len()
    );
}

/// The position text with the board turned upside down and the colours swapped, or (if
/// `sideways`) with the files mirrored.
fn mirrored(text: &str, sideways: bool) -> String {
    let (board, side) = text.split_once(' ').expect("BOARD SIDE");
    if sideways {
        let rows: Vec<String> = board
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        return format!("{} {side}", rows.join("/"));
    }
    let swap = |c: char| match c {
        'w' => 'b',
        'b' => 'w',
        'W' => 'B',
        'B' => 'W',
        c => c,
    };
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if side.trim() == "w" { "b" } else { "w" };
    format!("{} {side}", rows.join("/"))
}

#[test]
fn the_evaluation_sees_both_colours_and_both_wings_alike() {
    for s in games().iter().step_by(7) {
        let text = s.item.to_text();
        for sideways in [false, true] {
            let other = Position::from_text(&mirrored(&text, sideways)).expect("a valid mirror");
            for (name, p) in [("hand-written", &HAND), ("tuned", &TUNED)] {
                assert_eq!(
                    evaluate(p, &s.item),
                    evaluate(p, &other),
                    "{name}: {text} against {}",
                    other.to_text()
                );
            }
        }
    }
}
