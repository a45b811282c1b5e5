//! Self-play games of Turkish draughts for tuning its evaluation: each game opens with a few
//! random moves, then both sides play a fixed-node search with a little noise; every quiet
//! position (no capture due) after the opening is written with the game's result for White.
//!
//! Usage: `selfplay_games draughts OUT GAMES NODES SEED [tuned]` — writes lines
//! `POSITION | RESULT` (1, 0.5 or 0); `tuned` plays with the tuned numbers instead of the
//! hand-written ones. The same arguments give the same file. Run it through
//! `scripts/tune-draughts.sh`. (The game is named so that other games' self-play can join it.)

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use takhte_ai::level::Setting;
use takhte_ai::play::answer_with_setting;
use takhte_ai::search::Features;
use takhte_ai::zobrist::splitmix;
use takhte_ai::{Answer, Request};
use takhte_rules::{AnyGame, GameKind, GameResult, Side};

/// Plies after which a game counts as a draw.
const MAX_PLIES: usize = 300;

/// Plays game `i`; its quiet positions after the opening with White's result, as lines.
fn play(kind: GameKind, i: u64, seed: u64, setting: &Setting, features: Features) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ splitmix(i)));
    let mut game = AnyGame::start(kind, splitmix(seed ^ i));
    let opening = rng.gen_range(2..=8);
    let mut quiet = Vec::new();
    let mut plies = 0;
    let cancel = AtomicBool::new(false);
    while plies < MAX_PLIES && game.outcome().is_none() {
        let moves = game.legal_moves();
        let mv = if plies < opening {
            moves[rng.gen_range(0..moves.len())].clone()
        } else {
            let req = Request {
                game: game.clone(),
                level: 6,
                seed: rng.gen(),
                rolled: None,
                movetime_ms: 60_000,
            };
            let Some(Answer::Move(m)) = answer_with_setting(&req, &cancel, setting, features)
            else {
                break;
            };
            if let Some(text) = quiet_text(&game) {
                quiet.push(text);
            }
            m
        };
        if game.play(&mv).is_err() {
            break;
        }
        plies += 1;
    }
    let result = match game.outcome().map(|o| o.result) {
        Some(GameResult::Win(Side::White)) => "1",
        Some(GameResult::Win(Side::Black)) => "0",
        _ => "0.5",
    };
    let mut out = String::new();
    for q in quiet {
        let _ = writeln!(out, "{q} | {result}");
    }
    out
}

/// The position text of `game` if it is quiet (no capture due).
fn quiet_text(game: &AnyGame) -> Option<String> {
    match game {
        AnyGame::Draughts(line) => (line.position().max_capture() == 0).then(|| game.to_text()),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let parse = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let kind = match args.get(1).map(String::as_str) {
        Some("draughts") => Some(GameKind::Draughts),
        _ => None,
    };
    let (Some(kind), Some(output), Some(games), Some(nodes), Some(seed)) =
        (kind, args.get(2), parse(3), parse(4), parse(5))
    else {
        eprintln!("usage: selfplay_games draughts OUT GAMES NODES SEED [tuned]");
        std::process::exit(2);
    };
    let setting = Setting {
        depth: 64,
        nodes,
        noise: 15,
        timed: false,
        tt_mb: 4,
        hand_eval: false,
    };
    let features = Features {
        hand_eval: args.get(6).map(String::as_str) != Some("tuned"),
        ..Features::ALL
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let parts: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..games)
                        .step_by(threads as usize)
                        .map(|i| (i, play(kind, i, seed, &setting, features)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(u64, String)> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, s)| s).collect()
    });
    let text = parts.concat();
    eprintln!("{games} games, {} positions", text.lines().count());
    if let Err(e) = std::fs::write(output, text) {
        eprintln!("{output}: {e}");
        std::process::exit(1);
    }
}
