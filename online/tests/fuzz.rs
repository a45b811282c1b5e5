//! Fuzzing by hand (not in CI): hostile input to the core's parsing entry points (position texts, move
//! texts, shared games, saved-game files, protocol JSON). Every call runs under `catch_unwind`;
//! panics, calls slower than 500 ms and a few consistency slips are collected and printed at the
//! end. Fixed seed, bounded time (about 80 s). Not part of CI:
//!
//! ```text
//! cargo test -p takhte-online --test fuzz -- --ignored --nocapture
//! ```
//! (`FUZZ_SECS=N` changes the total time budget.) The `test` profile keeps overflow checks, so
//! integer overflows show up as panics there; with `--release` they wrap silently.
//! `fuzz_minimal_repros` replays the shrunk findings; `fuzz_long_game_scaling` times long games.
//! One test runs in the normal test run: `fuzz_findings_stay_fixed`, the findings asserted.

#![allow(
    clippy::type_complexity,
    clippy::field_reassign_with_default,
    clippy::single_match
)]

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use takhte_ai::{Answer, Engine, Request};
use takhte_game::controller::move_path;
use takhte_game::share::{export, import, session_of, Players};
use takhte_game::{
    from_record, to_record, Controller, GameEnd, GameStart, ScriptedRandomness, Session,
};
use takhte_online::client::ServerAddress;
use takhte_online::mirror::Mirror;
use takhte_protocol::{code, public};
use takhte_protocol::{
    ClientMsg, ClockSpec, ClockState, Crowd, EndState, GameEvent, GameState, PlyView, SeatView,
    ServerMsg, Tally,
};
use takhte_rules::{chess, dice, draughts, mine, AnyGame, AnyMove, GameKind, Rules, Side};
use takhte_store::{
    ClockRecord, GameRecord, Identity, LastNewGame, ModeRecord, OnlineGame, OnlineGames, Opponent,
    ResultRecord, Settings, StatEntry, StatOutcome, Stats, Store,
};

// ---------------------------------------------------------------------------------------------
// Recording panics, slow calls and hangs.

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);
static CURRENT: Mutex<Option<(String, String, Instant)>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn esc(s: &str) -> String {
    let head: String = s.chars().take(200).collect();
    let more = s.chars().count().saturating_sub(200);
    if more > 0 {
        format!(
            "\"{}\"… (+{more} chars, {} bytes)",
            head.escape_debug(),
            s.len()
        )
    } else {
        format!("\"{}\"", head.escape_debug())
    }
}

struct PanicRec {
    count: u64,
    message: String,
    shortest: String,
}

#[derive(Default)]
struct Fz {
    tried: BTreeMap<&'static str, u64>,
    panics: BTreeMap<(String, String), PanicRec>,
    slow: BTreeMap<&'static str, (u64, Vec<(u128, String)>)>,
    notes: BTreeMap<String, (u64, String)>,
}

impl Fz {
    fn call<T>(&mut self, api: &'static str, input: &str, f: impl FnOnce() -> T) -> Option<T> {
        *self.tried.entry(api).or_default() += 1;
        *lock(&CURRENT) = Some((api.to_string(), esc(input), Instant::now()));
        let t = Instant::now();
        let r = panic::catch_unwind(AssertUnwindSafe(f));
        let el = t.elapsed();
        *lock(&CURRENT) = None;
        if el > Duration::from_millis(500) {
            let e = self.slow.entry(api).or_default();
            e.0 += 1;
            if e.1.len() < 6 {
                e.1.push((el.as_millis(), esc(input)));
            }
        }
        match r {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = lock(&LAST_PANIC).take().unwrap_or_else(|| "?".into());
                let loc = msg.rsplit(" @ ").next().unwrap_or("?").to_string();
                let e = self
                    .panics
                    .entry((api.to_string(), loc))
                    .or_insert(PanicRec {
                        count: 0,
                        message: msg.clone(),
                        shortest: input.to_string(),
                    });
                e.count += 1;
                if input.len() < e.shortest.len() {
                    e.shortest = input.to_string();
                    e.message = msg;
                }
                None
            }
        }
    }

    /// A finding that is not a panic (an accepted move that is not legal, a failed round trip).
    fn note(&mut self, what: impl Into<String>, input: &str) {
        let e = self
            .notes
            .entry(what.into())
            .or_insert((0, input.to_string()));
        e.0 += 1;
        if input.len() < e.1.len() {
            e.1 = input.to_string();
        }
    }

    fn report(&self) {
        println!("\n================ FUZZ REPORT ================");
        println!("-- inputs per API:");
        for (api, n) in &self.tried {
            println!("  {api:<34} {n}");
        }
        println!("-- panics ({} distinct):", self.panics.len());
        for ((api, loc), p) in &self.panics {
            println!("  [{api}] at {loc}: {} times", p.count);
            println!(
                "      message: {}",
                p.message.chars().take(300).collect::<String>()
            );
            println!("      shortest input: {}", esc(&p.shortest));
        }
        println!("-- slow calls (> 500 ms):");
        for (api, (n, list)) in &self.slow {
            println!("  [{api}] {n} slow calls");
            for (ms, input) in list {
                println!("      {ms} ms: {input}");
            }
        }
        println!("-- other findings:");
        for (what, (n, input)) in &self.notes {
            println!("  {what}: {n} times; shortest: {}", esc(input));
        }
        println!("=============================================");
    }
}

fn install_hook() {
    panic::set_hook(Box::new(|info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "<non-string payload>".into());
        let loc = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_else(|| "?".into());
        if lock(&CURRENT).is_none() {
            eprintln!("panic in the harness itself: {payload} @ {loc}");
        }
        *lock(&LAST_PANIC) = Some(format!("{payload} @ {loc}"));
    }));
}

fn watchdog(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reported: Option<Instant> = None;
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(500));
            if let Some((api, input, since)) = lock(&CURRENT).clone() {
                if since.elapsed() > Duration::from_secs(10) && reported != Some(since) {
                    eprintln!("!! HANG? [{api}] running for 10+ s on {input}");
                    reported = Some(since);
                }
            }
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Mutations.

const ODD: &[&str] = &[
    "99999999999999999999",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "0",
    "00",
    "255",
    "256",
    "65536",
    "۰",
    "۹",
    "۱۲",
    "١",
    "ك",
    "ي",
    "\u{200f}",
    "\u{feff}",
    "\u{0}",
    "\t",
    "\n",
    "\r\n",
    " ",
    "   ",
    "/",
    "//",
    "-",
    ":",
    "^",
    "x",
    ",",
    ".",
    "...",
    "*",
    "$",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "\\",
    "é",
    "🙂",
    "K",
    "k",
    "Q",
    "q",
    "P",
    "p",
    "w",
    "b",
    "W",
    "B",
    "1",
    "8",
    "9",
    "10",
    "e2e4",
    "3:",
    "f:-",
    "1:-",
    "e2^",
    "c3xc5xe5",
    "O-O",
    "=Q",
    "+",
    "#",
    "!",
    "?",
    ";",
    "%",
    "a4,d5",
    "-",
    "KQkq",
    "8/8",
];

const BIG: &[&str] = &[
    "99999999999999999999",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "2147483648",
    "65535",
    "256",
    "0",
    "-1",
    "۹۹۹",
];

fn rand_char(rng: &mut ChaCha8Rng) -> char {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0x20u8..0x7f) as char,
        1 => *b"0123456789/-:^x,KQRBNPkqrbnpwbWB ".choose(rng).unwrap() as char,
        2 => [
            '۰', '۵', '۹', 'ك', '\u{0}', '\n', '\t', 'é', '🙂', '\u{200f}', 'Ⅻ', '٣',
        ]
        .choose(rng)
        .copied()
        .unwrap(),
        _ => char::from_u32(rng.gen_range(0..0x2_0000)).unwrap_or('?'),
    }
}

fn mutate_once(rng: &mut ChaCha8Rng, s: &str, corpus: &[String]) -> String {
    let mut c: Vec<char> = s.chars().collect();
    let n = c.len();
    match rng.gen_range(0..14) {
        0 if n > 0 => {
            let i = rng.gen_range(0..n);
            c[i] = rand_char(rng);
        }
        1 if n > 0 => {
            let i = rng.gen_range(0..n);
            let j = (i + rng.gen_range(1..=4.min(n - i).max(1))).min(n);
            c.drain(i..j);
        }
        2 if n > 0 => {
            let i = rng.gen_range(0..n);
            let j = (i + rng.gen_range(1..=8)).min(n);
            let piece: Vec<char> = c[i..j].to_vec();
            let times = if rng.gen_bool(0.1) { 50 } else { 1 };
            for _ in 0..times {
                c.splice(j..j, piece.iter().copied());
            }
        }
        3 => {
            let i = rng.gen_range(0..=n);
            let odd = ODD.choose(rng).unwrap();
            c.splice(i..i, odd.chars());
        }
        4 => {
            // A run of digits becomes a large (or odd) number.
            let runs: Vec<(usize, usize)> = {
                let mut v = Vec::new();
                let mut i = 0;
                while i < n {
                    if c[i].is_ascii_digit() {
                        let st = i;
                        while i < n && c[i].is_ascii_digit() {
                            i += 1;
                        }
                        v.push((st, i));
                    } else {
                        i += 1;
                    }
                }
                v
            };
            if let Some(&(a, b)) = runs.choose(rng) {
                let big = BIG.choose(rng).unwrap();
                c.splice(a..b, big.chars());
            } else {
                let i = rng.gen_range(0..=n);
                c.splice(i..i, BIG.choose(rng).unwrap().chars());
            }
        }
        5 => {
            // Whitespace fields: swap, drop, duplicate, add.
            let mut f: Vec<String> = s.split_whitespace().map(String::from).collect();
            let m = f.len();
            match rng.gen_range(0..4) {
                0 if m >= 2 => {
                    let (a, b) = (rng.gen_range(0..m), rng.gen_range(0..m));
                    f.swap(a, b);
                }
                1 if m >= 1 => {
                    f.remove(rng.gen_range(0..m));
                }
                2 if m >= 1 => {
                    let x = f[rng.gen_range(0..m)].clone();
                    f.insert(rng.gen_range(0..=m), x);
                }
                _ => {
                    let x = ODD.choose(rng).unwrap().to_string();
                    f.insert(rng.gen_range(0..=m), x);
                }
            }
            return f.join(if rng.gen_bool(0.9) { " " } else { "\t \n" });
        }
        6 => {
            // '/'-separated rows: swap, drop, duplicate.
            let mut f: Vec<String> = s.split('/').map(String::from).collect();
            let m = f.len();
            match rng.gen_range(0..3) {
                0 if m >= 2 => {
                    let (a, b) = (rng.gen_range(0..m), rng.gen_range(0..m));
                    f.swap(a, b);
                }
                1 if m >= 2 => {
                    f.remove(rng.gen_range(0..m));
                }
                _ => {
                    let x = f[rng.gen_range(0..m)].clone();
                    f.insert(rng.gen_range(0..=m), x);
                }
            }
            return f.join("/");
        }
        7 => {
            return s
                .chars()
                .map(|ch| match ch {
                    '0'..='9' => char::from_u32(0x06F0 + (ch as u32 - '0' as u32)).unwrap(),
                    o => o,
                })
                .collect();
        }
        8 if n > 0 => {
            c.truncate(rng.gen_range(0..n));
        }
        9 if !corpus.is_empty() => {
            // Crossover with another input.
            let other: Vec<char> = corpus.choose(rng).unwrap().chars().collect();
            let i = rng.gen_range(0..=n);
            let j = rng.gen_range(0..=other.len());
            let mut out: Vec<char> = c[..i].to_vec();
            out.extend_from_slice(&other[j..]);
            c = out;
        }
        10 if n > 0 => {
            let i = rng.gen_range(0..n);
            c[i] = if c[i].is_ascii_lowercase() {
                c[i].to_ascii_uppercase()
            } else {
                c[i].to_ascii_lowercase()
            };
        }
        11 if n > 0 => {
            let i = rng.gen_range(0..n);
            if c[i].is_ascii() {
                c[i] = ((c[i] as u8) ^ (1 << rng.gen_range(0..7))) as char;
            }
        }
        12 if n > 0 => {
            let i = rng.gen_range(0..n);
            c.swap(i, rng.gen_range(0..n));
        }
        _ => {
            let i = rng.gen_range(0..=n);
            c.insert(i, rand_char(rng));
        }
    }
    c.into_iter().collect()
}

fn mutate(rng: &mut ChaCha8Rng, s: &str, corpus: &[String]) -> String {
    let mut t = s.to_string();
    for _ in 0..rng.gen_range(1..=3) {
        t = mutate_once(rng, &t, corpus);
    }
    t
}

/// Inputs every text entry point gets once.
fn special_inputs(seeds: &[String]) -> Vec<String> {
    let mut v = vec![
        String::new(),
        " ".into(),
        "\t\n \r\n".into(),
        "\u{0}".into(),
        "a".repeat(100_000),
        "/".repeat(100_000),
        "9".repeat(100_000),
        "۹".repeat(50_000),
        "8/".repeat(50_000),
        " w".repeat(50_000),
        "-".repeat(100_000),
        "x".repeat(100_000),
        "a1x".repeat(30_000),
        "ك".repeat(50_000),
        "{".repeat(100_000),
        "(".repeat(100_000),
        "[".repeat(100_000),
        "\n".repeat(100_000),
    ];
    for s in seeds.iter().take(3) {
        let mut big = String::new();
        while big.len() < 100_000 {
            big.push_str(s);
            big.push(' ');
        }
        v.push(big);
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Corpora: real positions and games.

fn data_positions(kind: GameKind) -> Vec<String> {
    let mut out = Vec::new();
    let column = |text: &str, col: usize, out: &mut Vec<String>| {
        for line in text.lines() {
            if line.starts_with('#') {
                continue;
            }
            if let Some(p) = line.split('|').nth(col) {
                let p = p.trim();
                if p.contains('/') {
                    out.push(p.to_string());
                }
            }
        }
    };
    match kind {
        GameKind::Chess => {
            column(
                include_str!("../../rules/tests/data/chess_perft.txt"),
                1,
                &mut out,
            );
            for line in include_str!("../../rules/tests/data/scenarios_chess.txt").lines() {
                let f: Vec<&str> = line.split('|').collect();
                if f.len() > 1 && f[0].trim() == "chess" && f[1].contains('/') {
                    out.push(f[1].trim().to_string());
                }
            }
        }
        GameKind::MineChess => {
            for line in include_str!("../../rules/tests/data/scenarios_mine.txt").lines() {
                let f: Vec<&str> = line.split('|').collect();
                if f.len() > 1 && f[1].contains('/') {
                    out.push(f[1].trim().to_string());
                }
            }
        }
        GameKind::Draughts => {
            for t in [
                include_str!("../../rules/tests/data/draughts_text.txt"),
                include_str!("../../rules/tests/data/draughts_moves.txt"),
                include_str!("../../rules/tests/data/draughts_end.txt"),
            ] {
                column(t, 0, &mut out);
            }
        }
        GameKind::DiceChess => {
            for t in [
                include_str!("../../rules/tests/data/dice_perft.txt"),
                include_str!("../../rules/tests/data/dice_scenarios.txt"),
            ] {
                for line in t.lines() {
                    if let Some(p) = line.trim().strip_prefix("position ") {
                        out.push(p.trim().to_string());
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Positions reached by random legal play (every position along the way).
fn random_positions(
    kind: GameKind,
    rng: &mut ChaCha8Rng,
    games: usize,
    plies: usize,
) -> Vec<AnyGame> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut game = AnyGame::start(kind, rng.gen());
        if kind == GameKind::DiceChess && g % 2 == 1 {
            game =
                AnyGame::from_text(kind, "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP b").unwrap();
        }
        out.push(game.clone());
        for _ in 0..rng.gen_range(1..=plies) {
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves.choose(rng).unwrap().clone();
            if game.play(&mv).is_err() {
                break;
            }
            out.push(game.clone());
        }
    }
    out
}

/// A random session of `kind`, sometimes from a set-up position.
fn random_session(
    kind: GameKind,
    rng: &mut ChaCha8Rng,
    setups: &[String],
    plies: usize,
) -> Session {
    let rolls = if kind == GameKind::DiceChess {
        [vec![(5, 2)], vec![(3, 3), (1, 6)], vec![]]
            .choose(rng)
            .unwrap()
            .clone()
    } else {
        vec![]
    };
    let mut start = GameStart::standard(kind, rng.gen(), rolls);
    if rng.gen_bool(0.3) && !setups.is_empty() {
        start.position = Some(setups.choose(rng).unwrap().clone());
    }
    let mut s = match Session::new(start) {
        Ok(s) => s,
        Err(_) => Session::new(GameStart::standard(kind, 1, vec![])).unwrap(),
    };
    for _ in 0..rng.gen_range(0..=plies) {
        let moves = s.game().legal_moves();
        if moves.is_empty() || s.is_over() {
            break;
        }
        let mv = moves.choose(rng).unwrap().clone();
        if s.play(&mv).is_err() {
            break;
        }
    }
    if rng.gen_bool(0.2) && !s.is_over() {
        let end = [
            GameEnd::Resigned(Side::White),
            GameEnd::Agreed,
            GameEnd::Time {
                loser: Side::Black,
                draw: false,
            },
        ];
        s.finish(*end.choose(rng).unwrap());
    }
    s
}

fn random_square(rng: &mut ChaCha8Rng) -> String {
    let file = *b"abcdefghiz`A".choose(rng).unwrap() as char;
    let rank = *[
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "0",
        "11",
        "01",
        "99",
        "255",
        "256",
        "۴",
        "4294967296",
    ]
    .choose(rng)
    .unwrap();
    format!("{file}{rank}")
}

fn random_move_text(rng: &mut ChaCha8Rng) -> String {
    let face = *[
        "0", "1", "2", "3", "4", "5", "6", "7", "9", "f", "-", "", "33", "۳", "256",
    ]
    .choose(rng)
    .unwrap();
    let t = match rng.gen_range(0..14) {
        0 => format!("{}{}", random_square(rng), random_square(rng)),
        1 => format!(
            "{}{}{}",
            random_square(rng),
            random_square(rng),
            *["q", "r", "b", "n", "k", "p", "Q", "x", "qq", "=q"]
                .choose(rng)
                .unwrap()
        ),
        2 => format!("{face}:{}{}", random_square(rng), random_square(rng)),
        3 => format!("{face}:-"),
        4 => format!("{}^", random_square(rng)),
        5 => {
            let k = *[1usize, 2, 3, 5, 17, 63, 64, 65, 70, 300]
                .choose(rng)
                .unwrap();
            (0..k)
                .map(|_| random_square(rng))
                .collect::<Vec<_>>()
                .join("x")
        }
        6 => format!("{}-{}", random_square(rng), random_square(rng)),
        7 => format!(
            "{}{}{}{}{}",
            *["", "K", "Q", "R", "B", "N", "P", "k"].choose(rng).unwrap(),
            *["", "a", "1", "a1", "h", "z"].choose(rng).unwrap(),
            *["", "x"].choose(rng).unwrap(),
            random_square(rng),
            *["", "=Q", "Q", "=K", "+", "#", "!!", "?!", "e.p.", "=", "=q"]
                .choose(rng)
                .unwrap()
        ),
        8 => ["O-O", "0-0-0", "O-O-O", "O-O-O-O", "o-o", "O-O+", "0-0#"]
            .choose(rng)
            .unwrap()
            .to_string(),
        9 => (0..rng.gen_range(0..6))
            .map(|_| *ODD.choose(rng).unwrap())
            .collect::<String>(),
        10 => (0..rng.gen_range(0..8)).map(|_| rand_char(rng)).collect(),
        11 => format!(" {} ", random_square(rng)),
        12 => format!("{}:{}", face, random_square(rng)),
        _ => format!("{}{}^", random_square(rng), random_square(rng)),
    };
    t
}

// ---------------------------------------------------------------------------------------------
// Sections.

fn fuzz_positions(
    fz: &mut Fz,
    rng: &mut ChaCha8Rng,
    corpus: &BTreeMap<GameKind, Vec<String>>,
    until: Instant,
) {
    let all: Vec<String> = corpus.values().flatten().cloned().collect();
    let check = |fz: &mut Fz, kind: GameKind, t: &str| {
        let got = fz.call("AnyGame::from_text", t, || AnyGame::from_text(kind, t));
        // The rules modules' own readers (AnyGame wraps them; call them too).
        match kind {
            GameKind::Chess => {
                fz.call("chess::Position::from_text", t, || {
                    chess::Position::from_text(t)
                });
            }
            GameKind::DiceChess => {
                fz.call("dice::Position::from_text", t, || {
                    dice::Position::from_text(t)
                });
            }
            GameKind::Draughts => {
                fz.call("draughts::Position::from_text", t, || {
                    draughts::Position::from_text(t)
                });
            }
            GameKind::MineChess => {
                fz.call("mine::Position::from_text", t, || {
                    mine::Position::from_text(t)
                });
                fz.call("mine::Visible::from_text", t, || {
                    mine::Visible::from_text(t)
                });
            }
        }
        fz.call("public::game_from_public", t, || {
            public::game_from_public(kind, t)
        });
        if let Some(Ok(g)) = got {
            // An accepted position must be usable: moves, outcome, text round trip.
            let back = fz.call("accepted position: use", t, || {
                let _ = g.legal_moves();
                let _ = g.outcome();
                let _ = g.moves_text(None);
                if kind == GameKind::DiceChess {
                    for f in [0u8, 1, 6, 7] {
                        let _ = g.moves_text(Some(f));
                    }
                }
                let _ = public::public_text(&g);
                g.to_text()
            });
            if let Some(text) = back {
                match AnyGame::from_text(kind, &text) {
                    Ok(g2) if g2.to_text() == text => {}
                    Ok(_) => fz.note(
                        format!(
                            "{kind}: to_text of an accepted position does not read back the same"
                        ),
                        t,
                    ),
                    Err(e) => fz.note(
                        format!("{kind}: to_text of an accepted position does not read: {e}"),
                        t,
                    ),
                }
            }
        }
    };
    for kind in GameKind::ALL {
        for s in special_inputs(&corpus[&kind]) {
            check(fz, kind, &s);
        }
    }
    // Hand-made hostile positions.
    let crafted: [(GameKind, &str); 12] = [
        (GameKind::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295"),
        (GameKind::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967295 4294967295"),
        (GameKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1"),
        (GameKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - ۰ ۱"),
        (GameKind::Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        (GameKind::Chess, "k7/8/8/8/8/8/8/K7 w - - 0 1"),
        (GameKind::DiceChess, "k7/8/8/8/8/8/8/K6P w"),
        (GameKind::Draughts, "1b1b1b1b/bbb1BBbW/1b1B1b1B/2bBb3/bb1b1b2/3b2b1/1b1b1b1B/2B1B1B1 w"),
        (GameKind::Draughts, "1b3b2/b1b3bW/1b1B3B/4b3/5b2/3b2b1/5b1B/2B3B1 w"),
        (GameKind::Draughts, "8/8/8/8/8/8/8/8 w"),
        (GameKind::MineChess, "4k3/8/8/8/8/8/8/8/8/4K3 w - a4,b4,c4,d4 a4,b4,c4,d4,e4,f4,g4,h4,a5,b5,c5,d5,e5,f5,g5,h5,a6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
        (GameKind::MineChess, "4k3/8/8/8/8/8/8/8/8/4K3 w - - - 4 -"),
    ];
    for (kind, t) in crafted {
        check(fz, kind, t);
    }
    while Instant::now() < until {
        let kind = *GameKind::ALL.choose(rng).unwrap();
        let seeds = &corpus[&kind];
        let base = if rng.gen_bool(0.05) {
            all.choose(rng).unwrap()
        } else {
            seeds.choose(rng).unwrap()
        };
        let t = mutate(rng, base, seeds);
        check(fz, kind, &t);
    }
}

fn fuzz_moves(
    fz: &mut Fz,
    rng: &mut ChaCha8Rng,
    reached: &BTreeMap<GameKind, Vec<AnyGame>>,
    until: Instant,
) {
    // Every legal move's text reads back to that move.
    for games in reached.values() {
        for g in games.iter().step_by(7) {
            if g.outcome().is_some() {
                continue;
            }
            for m in g.legal_moves() {
                let t = g.move_to_text(&m);
                match fz.call("AnyGame::parse_move", &t, || g.parse_move(&t)) {
                    Some(Ok(back)) if back == m => {}
                    Some(Ok(_)) => fz.note(
                        format!("{}: legal move text reads back as another move", g.kind()),
                        &format!("{} | {t}", g.to_text()),
                    ),
                    Some(Err(e)) => fz.note(
                        format!("{}: legal move text refused: {e}", g.kind()),
                        &format!("{} | {t}", g.to_text()),
                    ),
                    None => {}
                }
            }
        }
    }
    let mut pool: Vec<String> = Vec::new();
    while Instant::now() < until {
        let kind = *GameKind::ALL.choose(rng).unwrap();
        let g = reached[&kind].choose(rng).unwrap();
        let legal = g.legal_moves();
        let texts: Vec<String> = legal.iter().map(|m| g.move_to_text(m)).collect();
        if pool.len() < 2000 {
            pool.extend(texts.iter().take(3).cloned());
        }
        for _ in 0..20 {
            let t = match rng.gen_range(0..4) {
                0 | 1 if !texts.is_empty() => {
                    let b = texts.choose(rng).unwrap().clone();
                    mutate(rng, &b, &pool)
                }
                2 => random_move_text(rng),
                _ => {
                    let b = random_move_text(rng);
                    mutate(rng, &b, &pool)
                }
            };
            let parsed = fz.call("AnyGame::parse_move", &t, || g.parse_move(&t));
            if let Some(Ok(m)) = &parsed {
                if !legal.contains(m) {
                    fz.note(
                        format!("{kind}: parse_move accepted a move not in legal_moves"),
                        &format!("{} | {t}", g.to_text()),
                    );
                }
            }
            let mut g2 = g.clone();
            let played = fz.call("AnyGame::play_text", &t, || g2.play_text(&t));
            if let (Some(Ok(_)), Some(Err(e))) = (&parsed, &played) {
                fz.note(
                    format!("{kind}: parse_move accepted but play_text refused: {e}"),
                    &format!("{} | {t}", g.to_text()),
                );
            }
            match g {
                AnyGame::Chess(l) => {
                    if let Some(Ok(m)) = fz.call("chess::Position::parse_san", &t, || {
                        l.position().parse_san(&t)
                    }) {
                        if !legal.contains(&AnyMove::Chess(m)) {
                            fz.note(
                                "chess: parse_san accepted a move not in legal_moves",
                                &format!("{} | {t}", g.to_text()),
                            );
                        }
                    }
                    fz.call("chess::Position::parse_uci", &t, || {
                        l.position().parse_uci(&t)
                    });
                }
                AnyGame::Dice(l) => {
                    let face = *[0u8, 1, 2, 3, 4, 5, 6, 7, 255].choose(rng).unwrap();
                    let tail = t.split_once(':').map(|x| x.1).unwrap_or(&t).to_string();
                    if let Some(Ok(m)) = fz.call("dice::Position::parse_pawn_move", &tail, || {
                        l.position().parse_pawn_move(face, &tail)
                    }) {
                        if !legal.contains(&AnyMove::Dice(m)) {
                            fz.note(
                                "dice: parse_pawn_move accepted a move not in legal_moves",
                                &format!("{} | {face} {tail}", g.to_text()),
                            );
                        }
                    }
                    fz.call("AnyGame::moves_text", &t, || g.moves_text(Some(face)));
                }
                _ => {}
            }
        }
        fz.call("AnyGame::moves_text", "", || g.moves_text(None));
    }
}

fn pgn_mutate(rng: &mut ChaCha8Rng, s: &str, corpus: &[String], fens: &[String]) -> String {
    let mut lines: Vec<String> = s.lines().map(String::from).collect();
    let n = lines.len().max(1);
    match rng.gen_range(0..12) {
        0..=3 => return mutate(rng, s, corpus),
        4 => {
            let ins = *[
                "{",
                "}",
                "(",
                ")",
                "{ a comment }",
                "( 1. e4 )",
                "$1",
                "$99999999999999999999",
                "1...",
                "99999999999999999999.",
                "4294967295...",
                "0.",
                ";comment",
                "1-0",
                "0-1",
                "1/2-1/2",
                "*",
                "!!",
                "?",
                "e.p.",
                "0-0",
                "0-0-0",
                "--",
                "Z0",
                "1.",
                "...",
                "۱.",
                "3:",
                "1:-",
                "e2^",
                "c3xc5xe5",
                ")(",
                "}{",
            ]
            .choose(rng)
            .unwrap();
            let mut c: Vec<char> = s.chars().collect();
            let i = rng.gen_range(0..=c.len());
            c.splice(i..i, format!(" {ins} ").chars());
            return c.into_iter().collect();
        }
        5 => {
            let tag = match rng.gen_range(0..8) {
                0 => {
                    let b = fens.choose(rng).unwrap().clone();
                    format!("[FEN \"{}\"]", mutate(rng, &b, fens))
                }
                1 => format!("[FEN \"{}\"]", fens.choose(rng).unwrap()),
                2 => format!(
                    "[Variant \"{}\"]",
                    *[
                        "Dice chess",
                        "dice-chess",
                        "DRAUGHTS",
                        "Turkish draughts",
                        "Minesweeper chess",
                        "mine-chess",
                        "chess",
                        "Standard",
                        "",
                        "Chess960",
                        "ك"
                    ]
                    .choose(rng)
                    .unwrap()
                ),
                3 => "[Result \"1-0\"]".into(),
                4 => format!(
                    "[Termination \"{}\"]",
                    *[
                        "time",
                        "resignation",
                        "checkmate",
                        "aborted",
                        "abandoned",
                        "time-insufficient-material",
                        "x"
                    ]
                    .choose(rng)
                    .unwrap()
                ),
                5 => "[Event \"unclosed".into(),
                6 => "[]".into(),
                _ => "[White \"a \\\" ] b\"]".into(),
            };
            lines.insert(rng.gen_range(0..=lines.len()), tag);
        }
        6 if !lines.is_empty() => {
            lines.remove(rng.gen_range(0..lines.len()));
        }
        7 => {
            let i = rng.gen_range(0..n).min(lines.len().saturating_sub(1));
            if let Some(l) = lines.get(i).cloned() {
                lines.insert(i, l);
            }
        }
        8 => lines.insert(rng.gen_range(0..=lines.len()), "%escaped line".into()),
        9 => {
            // The movetext glued together or its numbers dropped.
            return s.replace(". ", ".").replace("... ", "...");
        }
        10 => {
            return s
                .split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .collect::<Vec<_>>()
                .join(" ");
        }
        _ => {
            let i = rng.gen_range(0..=lines.len());
            lines.insert(i, String::new());
        }
    }
    lines.join("\n")
}

fn check_import(fz: &mut Fz, t: &str) {
    if let Some(Ok(imp)) = fz.call("share::import", t, || import(t)) {
        if let Some(Ok(s)) = fz.call("share::session_of", t, || session_of(&imp)) {
            fz.call("share::export (of an import)", t, || {
                let _ = s.final_end();
                export(&s, &imp.players, "2026.01.02")
            });
        }
    }
}

fn long_game(kind: GameKind, start: &str, rng: &mut ChaCha8Rng, plies: usize) -> Session {
    let mut s = Session::new(GameStart {
        kind,
        position: Some(start.into()),
        seed: 0,
        start_rolls: vec![],
    })
    .unwrap();
    for _ in 0..plies {
        let moves = s.game().legal_moves();
        if moves.is_empty() || s.is_over() {
            break;
        }
        // Avoid moves that end the game (threefold repetition, captures of the last pieces).
        let mut chosen = None;
        let mut order = moves.clone();
        order.shuffle(rng);
        for mv in order.iter().take(40) {
            let mut g = s.game().clone();
            if g.play(mv).is_ok() && g.outcome().is_none() {
                chosen = Some(mv.clone());
                break;
            }
        }
        let Some(mv) = chosen else { break };
        s.play(&mv).unwrap();
    }
    s
}

fn fuzz_import(
    fz: &mut Fz,
    rng: &mut ChaCha8Rng,
    corpus: &BTreeMap<GameKind, Vec<String>>,
    until: Instant,
) {
    let players = [
        Players::default(),
        Players {
            white: "Ali \"the\" \\ [x]".into(),
            black: "علی".into(),
        },
        Players {
            white: "a\nb".into(),
            black: "]".into(),
        },
        Players {
            white: String::new(),
            black: "\\\"".into(),
        },
    ];
    let mut exports = Vec::new();
    let fens: Vec<String> = corpus.values().flatten().cloned().collect();
    for kind in GameKind::ALL {
        for _ in 0..15 {
            let s = random_session(kind, rng, &corpus[&kind], 120);
            let p = players.choose(rng).unwrap();
            let Some(text) = fz.call("share::export", "(random session)", || {
                export(&s, p, "2026.12.02")
            }) else {
                continue;
            };
            // Round trip: the export reads back as the same moves.
            match import(&text) {
                Ok(imp) if imp.moves == s.moves() => {}
                Ok(_) => fz.note(
                    format!("{kind}: export does not import back to the same moves"),
                    &text,
                ),
                Err(e) => fz.note(format!("{kind}: export does not import back: {e}"), &text),
            }
            exports.push(text);
        }
    }
    for s in special_inputs(&exports) {
        check_import(fz, &s);
    }
    // Megabyte inputs.
    let mb = 1 << 20;
    let fill = |unit: &str, head: &str| {
        let mut s = head.to_string();
        while s.len() < mb {
            s.push_str(unit);
        }
        s
    };
    let big = vec![
        fill("(", ""),
        fill("{", "1. e4 "),
        fill("1. e4 e5 ", ""),
        fill("1. Nf3 Nf6 2. Ng1 Ng8 ", ""),
        fill("$1 ", "1. e4 "),
        fill("1.", ""),
        fill("[Event \"x\"]\n", ""),
        fill("[FEN \"", ""),
        fill(";\n", ""),
        fill("%\n", ""),
        fill("1", ""),
        fill(
            "a1xa3x",
            "[Variant \"Turkish draughts\"]\n[FEN \"8/8/8/8/8/8/8/W6b w\"]\n\n",
        ),
        fill(
            "d1e2 e8d7 e2d1 d7e8 ",
            "[Variant \"Dice chess\"]\n[FEN \"ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w\"]\n\n",
        ),
        fill(
            "a1a2 h8h7 a2a1 h7h8 ",
            "[Variant \"Dice chess\"]\n[FEN \"7k/p7/8/8/8/8/7P/K7 w\"]\n\n",
        ),
        fill(
            "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 ",
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295\"]\n\n",
        ),
    ];
    for s in &big {
        let t = Instant::now();
        let r = import(s);
        println!(
            "1 MB import of {}: {} in {} ms",
            esc(&s[..s.len().min(60)]),
            match &r {
                Ok(i) => format!("ok, {} moves", i.moves.len()),
                Err(e) => format!(
                    "error: {}",
                    e.to_string().chars().take(100).collect::<String>()
                ),
            },
            t.elapsed().as_millis()
        );
        check_import(fz, s);
    }
    // Chess with the largest move numbers (export numbers the moves from the FEN's counter).
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967295",
    ] {
        let pgn = format!("[FEN \"{fen}\"]\n\n1... e5 2. e4 *\n");
        check_import(fz, &pgn);
        let pgn2 = format!("[FEN \"{fen}\"]\n\n1. e4 e5 2. d4 d5 *\n");
        check_import(fz, &pgn2);
        let mut s = Session::new(GameStart {
            kind: GameKind::Chess,
            position: Some(fen.into()),
            seed: 0,
            start_rolls: vec![],
        })
        .unwrap();
        for _ in 0..3 {
            let m = s.game().legal_moves()[0].clone();
            s.play(&m).unwrap();
        }
        fz.call("share::export", fen, || {
            export(&s, &Players::default(), "2026.01.01")
        });
    }
    // Draughts positions with an explosion of capture sequences, as a shared game.
    for fen in [
        "1b1b1b1b/bbb1BBbW/1b1B1b1B/2bBb3/bb1b1b2/3b2b1/1b1b1b1B/2B1B1B1 w",
        "1b3b2/b1b3bW/1b1B3B/4b3/5b2/3b2b1/5b1B/2B3B1 w",
    ] {
        let pgn = format!("[Variant \"Turkish draughts\"]\n[FEN \"{fen}\"]\n\nh7-h8 *\n");
        check_import(fz, &pgn);
    }
    // Long legal games (games without a move limit), exported and read back.
    for (kind, start, plies) in [
        (GameKind::Draughts, "WWW5/8/8/8/8/8/8/5BBB w", 20000),
        (
            GameKind::MineChess,
            "n3k3/8/8/8/8/8/8/8/8/N3K3 w - - -",
            20000,
        ),
        (GameKind::DiceChess, "7k/p7/8/8/8/8/7P/K7 w", 20000),
    ] {
        let t0 = Instant::now();
        let s = long_game(kind, start, rng, plies);
        let gen_ms = t0.elapsed().as_millis();
        let text = export(&s, &Players::default(), "2026.01.01");
        println!(
            "long {kind} game: {} plies, {} bytes (played in {gen_ms} ms), outcome now {:?}, {} legal moves",
            s.moves().len(),
            text.len(),
            s.game().outcome(),
            s.game().legal_moves().len()
        );
        let t = Instant::now();
        check_import(fz, &text);
        println!(
            "   import + session_of + export: {} ms",
            t.elapsed().as_millis()
        );
    }
    let mut pool = exports.clone();
    while Instant::now() < until {
        let base = pool.choose(rng).unwrap().clone();
        let t = pgn_mutate(rng, &base, &exports, &fens);
        check_import(fz, &t);
        if pool.len() < 400 && rng.gen_bool(0.05) {
            pool.push(t);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// JSON mutations.

fn paths(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                paths(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                paths(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn odd_value(rng: &mut ChaCha8Rng, texts: &[String]) -> Value {
    match rng.gen_range(0..22) {
        0 => json!(u64::MAX),
        1 => json!(-1),
        2 => json!(1e308),
        3 => json!(1.5),
        4 => Value::Null,
        5 => json!(true),
        6 => json!(""),
        7 => json!([]),
        8 => json!({}),
        9 => json!([[0, 9]]),
        10 => json!(4_294_967_296u64),
        11 => json!(256),
        12 => json!(255),
        13 => json!(7),
        14 => json!(0),
        15 => json!("99999999999999999999"),
        16 => json!(["e2e4", "3:b2c4", "1:-", "c3xc5xe5", "e2^", "zz"]),
        17 => json!(i64::MIN),
        18 => json!(texts.choose(rng).cloned().unwrap_or_default()),
        19 => {
            let b = texts.choose(rng).cloned().unwrap_or_default();
            json!(mutate(rng, &b, texts))
        }
        20 => json!((0..300).map(|i| [i % 7, 3]).collect::<Vec<_>>()),
        _ => json!([
            "white",
            "black",
            "draw",
            "checkmate",
            "time-insufficient-material"
        ]
        .choose(rng)
        .unwrap()),
    }
}

fn mutate_json(rng: &mut ChaCha8Rng, v: &Value, texts: &[String]) -> String {
    if rng.gen_bool(0.3) {
        // Text-level damage.
        let s = if rng.gen_bool(0.5) {
            serde_json::to_string_pretty(v).unwrap()
        } else {
            serde_json::to_string(v).unwrap()
        };
        return match rng.gen_range(0..5) {
            0 => s[..s
                .char_indices()
                .nth(rng.gen_range(0..s.chars().count().max(1)))
                .map_or(0, |x| x.0)]
                .to_string(),
            1 => (0..rng.gen_range(0..64))
                .map(|_| rng.gen::<u8>() as char)
                .collect(),
            2 => format!("{}{}{}", "[".repeat(200), s, "]".repeat(200)),
            _ => mutate(rng, &s, texts),
        };
    }
    let mut v = v.clone();
    for _ in 0..rng.gen_range(1..=3) {
        let mut ps = Vec::new();
        paths(&v, String::new(), &mut ps);
        let p = ps.choose(rng).unwrap().clone();
        match rng.gen_range(0..6) {
            0 if !p.is_empty() => {
                // Remove the key / element.
                let (parent, last) = p.rsplit_once('/').unwrap();
                let last = last.replace("~1", "/").replace("~0", "~");
                match v.pointer_mut(parent) {
                    Some(Value::Object(m)) => {
                        m.remove(&last);
                    }
                    Some(Value::Array(a)) => {
                        if let Ok(i) = last.parse::<usize>() {
                            if i < a.len() {
                                a.remove(i);
                            }
                        }
                    }
                    _ => {}
                }
            }
            1 => {
                if let Some(Value::Object(m)) = v.pointer_mut(&p) {
                    m.insert("extra".into(), odd_value(rng, texts));
                } else if let Some(Value::Array(a)) = v.pointer_mut(&p) {
                    let x = a.first().cloned().unwrap_or(Value::Null);
                    a.push(x);
                }
            }
            2 => {
                if let Some(t) = v.pointer_mut(&p) {
                    if let Value::String(s) = t {
                        *s = mutate(rng, s, texts);
                    } else {
                        *t = odd_value(rng, texts);
                    }
                }
            }
            _ => {
                let x = odd_value(rng, texts);
                if let Some(t) = v.pointer_mut(&p) {
                    *t = x;
                }
            }
        }
    }
    serde_json::to_string_pretty(&v).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Store.

struct Idle;
impl Engine for Idle {
    fn think(&self, _: &Request, _: &AtomicBool) -> Option<Answer> {
        None
    }
}

fn record_of(s: &Session, id: &str, rng: &mut ChaCha8Rng) -> GameRecord {
    let computer = rng.gen_bool(0.5);
    let mode = ModeRecord {
        opponent: if computer {
            Opponent::Computer
        } else {
            Opponent::PassAndPlay
        },
        level: computer.then_some(rng.gen_range(1..=6)),
        human_side: computer.then(|| "white".to_string()),
        layout: Some("rotate".into()),
    };
    let mut r = GameRecord::new(id, s.kind().name(), mode, 1_796_000_000);
    r.start_position = s.start().position.clone();
    r.seed = s.start().seed;
    r.start_rolls = s.start().start_rolls.clone();
    r.moves = s.moves().to_vec();
    r.cursor = if r.moves.is_empty() {
        0
    } else {
        rng.gen_range(0..=r.moves.len())
    };
    if s.kind() == GameKind::Chess && rng.gen_bool(0.5) {
        r.clock = Some(ClockRecord {
            base_ms: 300_000,
            increment_ms: 2_000,
            white_ms: 281_500,
            black_ms: 299_000,
            running: true,
        });
    }
    r.result = s.final_end().map(|e| ResultRecord {
        winner: match e.result() {
            Some(takhte_rules::GameResult::Win(Side::White)) => Some("white".into()),
            Some(takhte_rules::GameResult::Win(Side::Black)) => Some("black".into()),
            _ => None,
        },
        reason: e.reason().into(),
    });
    if s.kind() == GameKind::DiceChess && rng.gen_bool(0.5) {
        r.pending_roll = Some(rng.gen_range(1..=6));
    }
    r
}

fn use_record(fz: &mut Fz, rec: &GameRecord, input: &str) {
    let got = fz.call("game::from_record", input, || {
        from_record(
            rec,
            Arc::new(Idle),
            Box::new(ScriptedRandomness::from_seed(1)),
        )
    });
    if let Some(Ok(mut c)) = got {
        fz.call("from_record → view/to_record/play", input, || {
            let _ = c.view();
            let _ = c.session().final_end();
            let _ = to_record(&c, &rec.id, 1, 2, Instant::now());
            // Resume and play the first legal move by taps (clock, autosave record, view).
            c.resume();
            c.tick();
            if c.session().kind() != GameKind::DiceChess {
                if let Some(mv) = c.session().game().legal_moves().first().cloned() {
                    for sq in move_path(&mv) {
                        c.tap(sq);
                    }
                }
            }
            c.tick();
            let _ = c.view();
            to_record(&c, &rec.id, 1, 2, Instant::now())
        });
    }
}

fn fuzz_store(
    fz: &mut Fz,
    rng: &mut ChaCha8Rng,
    corpus: &BTreeMap<GameKind, Vec<String>>,
    until: Instant,
) {
    let folder = tempfile::tempdir().unwrap();
    let store = Store::open(folder.path().to_path_buf()).unwrap();
    let texts: Vec<String> = corpus.values().flatten().cloned().collect();
    let mut records: Vec<Value> = Vec::new();
    for kind in GameKind::ALL {
        for i in 0..8 {
            let s = random_session(kind, rng, &corpus[&kind], 80);
            let rec = record_of(&s, &format!("g{i}"), rng);
            // A good record loads.
            let text = serde_json::to_string_pretty(&rec).unwrap();
            if let Some(Err(e)) = fz.call("game::from_record", &text, || {
                from_record(
                    &rec,
                    Arc::new(Idle),
                    Box::new(ScriptedRandomness::from_seed(1)),
                )
                .map(|_| ())
            }) {
                fz.note(
                    format!("{kind}: a record of a real game does not load: {e}"),
                    &text,
                );
            }
            records.push(serde_json::to_value(&rec).unwrap());
        }
    }
    let mut settings = Settings::default();
    settings.language = Some("fa".into());
    settings.server = Some("ws://127.0.0.1:7878/ws".into());
    settings.last_new_game = Some(LastNewGame {
        kind: "dice-chess".into(),
        computer: true,
        level: 3,
        white: false,
        time: 300,
    });
    let settings = serde_json::to_value(&settings).unwrap();
    let stats = serde_json::to_value(Stats {
        schema: 1,
        entries: vec![StatEntry {
            kind: "chess".into(),
            mode: "computer".into(),
            level: Some(3),
            wins: u32::MAX,
            draws: 1,
            losses: 0,
        }],
    })
    .unwrap();
    let online = serde_json::to_value(OnlineGames {
        games: vec![OnlineGame {
            code: "K7M3QX".into(),
            server: "ws://h:1/ws".into(),
            kind: "chess".into(),
            side: "white".into(),
            opponent: Some("x".into()),
            your_turn: true,
            updated_unix: 5,
        }],
    })
    .unwrap();
    let identity = serde_json::to_value(Identity {
        token: "0123456789abcdef0123456789abcdef".into(),
    })
    .unwrap();
    for id in [
        "",
        ".",
        "..",
        "../x",
        "a/b",
        "a\\b",
        "\u{0}",
        "ك",
        "con",
        ":",
        &"x".repeat(300),
        &"x".repeat(200),
    ] {
        fz.call("Store::load_game", id, || store.load_game(id));
        fz.call("Store::delete_game", id, || store.delete_game(id));
    }
    let dir = folder.path().to_path_buf();
    let games = store.games_dir();
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        match n % 10 {
            0 => {
                let which = rng.gen_range(0..4);
                let (name, base) = [
                    ("settings.json", &settings),
                    ("stats.json", &stats),
                    ("online.json", &online),
                    ("identity.json", &identity),
                ][which];
                let t = mutate_json(rng, base, &texts);
                std::fs::write(dir.join(name), &t).unwrap();
                match which {
                    0 => {
                        fz.call("Store::load_settings", &t, || store.load_settings());
                    }
                    1 => {
                        fz.call("Store::load_stats (+record)", &t, || {
                            let (mut s, _) = store.load_stats();
                            s.record("chess", "computer", Some(3), StatOutcome::Win);
                            s.record("chess", "computer", Some(3), StatOutcome::Draw);
                            s
                        });
                    }
                    2 => {
                        fz.call("Store::online_games", &t, || store.online_games());
                    }
                    _ => {
                        fz.call("Store::identity", &t, || store.identity());
                    }
                }
            }
            1..=3 => {
                // Through the disk: load_game and (sometimes) the listing.
                let base = records.choose(rng).unwrap();
                let t = mutate_json(rng, base, &texts);
                let id = format!("f{}", rng.gen_range(0..6));
                std::fs::write(games.join(format!("{id}.json")), &t).unwrap();
                if let Some(Ok(rec)) = fz.call("Store::load_game", &t, || store.load_game(&id)) {
                    use_record(fz, &rec, &t);
                }
                if n % 50 == 1 {
                    fz.call("Store::list_games", &t, || store.list_games());
                }
            }
            _ => {
                // In memory: the same decoding serde does, then the session layer.
                let base = records.choose(rng).unwrap();
                let t = mutate_json(rng, base, &texts);
                if let Some(Ok(rec)) = fz.call("serde GameRecord", &t, || {
                    serde_json::from_str::<GameRecord>(&t)
                }) {
                    use_record(fz, &rec, &t);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Protocol and mirror.

fn game_state(kind: GameKind, rng: &mut ChaCha8Rng) -> (GameState, Vec<GameEvent>) {
    let start = AnyGame::start(kind, rng.gen());
    let mut g = start.clone();
    let mut plies = Vec::new();
    let mut events = Vec::new();
    for _ in 0..rng.gen_range(0..40) {
        let moves = g.legal_moves();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        let mv = moves.choose(rng).unwrap().clone();
        let text = g.move_to_text(&mv);
        g.play(&mv).unwrap();
        plies.push(PlyView {
            mv: text,
            position: public::public_text(&g),
        });
    }
    // Events after the state: a few more moves.
    let mut ply = plies.len() as u32;
    for _ in 0..4 {
        let moves = g.legal_moves();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        let mv = moves.choose(rng).unwrap().clone();
        let text = g.move_to_text(&mv);
        g.play(&mv).unwrap();
        events.push(GameEvent::Moved {
            ply,
            mv: text,
            position: public::public_text(&g),
            clocks: Some(ClockState {
                white_ms: 5,
                black_ms: 7,
                running: Some(Side::Black),
            }),
            crowd: Some(Crowd {
                tally: vec![Tally {
                    mv: "e2e4".into(),
                    count: 2,
                }],
                voters: 3,
            }),
        });
        ply += 1;
    }
    events.push(GameEvent::Rolled { ply, face: 3 });
    events.push(GameEvent::DrawOffered { by: Side::White });
    events.push(GameEvent::Seated {
        seat: Side::Black,
        name: "b".into(),
        player: Some("0123456789abcdef".into()),
        rating: Some(takhte_protocol::rating::Rating {
            rating: 1620,
            deviation: 80,
        }),
    });
    events.push(GameEvent::Ended {
        end: EndState {
            winner: Some(Side::White),
            reason: "time-insufficient-material".into(),
            ratings: Some(
                [takhte_protocol::rating::RatingChange {
                    before: 1500,
                    after: 1510,
                    provisional: true,
                }; 2],
            ),
            unrated: None,
        },
        clocks: None,
    });
    let state = GameState {
        code: "K7M3QX".into(),
        request: None,
        seq: 9,
        kind,
        clock: Some(ClockSpec {
            base_ms: 60_000,
            increment_ms: 0,
        }),
        public: true,
        seats: [
            SeatView {
                name: Some("a".into()),
                online: true,
                away_ms: 0,
                player: None,
                rating: None,
            },
            SeatView {
                name: Some("b".into()),
                online: false,
                away_ms: u64::MAX,
                player: None,
                rating: None,
            },
        ],
        you: Some(Side::White),
        start: public::public_text(&start),
        start_rolls: if kind == GameKind::DiceChess {
            vec![(3, 3), (5, 1)]
        } else {
            vec![]
        },
        plies,
        rolled: None,
        clocks: Some(ClockState {
            white_ms: 1000,
            black_ms: 2000,
            running: Some(Side::White),
        }),
        draw_offer: None,
        draw_offered_at: [None, None],
        rematch_offer: None,
        rematch: None,
        end: None,
        spectators_allowed: true,
        audience: true,
        rated: false,
        spectators: 2,
        suggestions: Some(Crowd {
            tally: vec![],
            voters: 0,
        }),
        your_suggestion: None,
        crowd: vec![None],
    };
    (state, events)
}

fn use_mirror(fz: &mut Fz, state: &GameState, events: &[(u64, GameEvent)], input: &str) {
    let got = fz.call("Mirror::from_state", input, || {
        Mirror::from_state(state, Instant::now())
    });
    if let Some(Ok(mut m)) = got {
        fz.call("Mirror::apply/online_state", input, || {
            let now = Instant::now();
            for (seq, ev) in events {
                let _ = m.apply(*seq, ev, now);
            }
            let _ = m.online_state();
            let _ = m.game_end();
            let _ = m.my_turn();
            let _ = m.remaining_ms(Side::White, now);
            let _ = m.away_ms(Side::Black, now);
            let _ = m.crowd_at(0);
            let _ = m.game_start();
        });
        fz.call("Controller::online (from a mirror)", input, || {
            if let Ok(mut c) = Controller::online(
                m.kind,
                m.start_rolls.clone(),
                m.you,
                &m.online_state(),
                Arc::new(Idle),
            ) {
                c.tick();
                let _ = c.view();
                c.sync_online(&m.online_state());
                let _ = c.view();
            }
        });
    }
}

fn fuzz_protocol(
    fz: &mut Fz,
    rng: &mut ChaCha8Rng,
    corpus: &BTreeMap<GameKind, Vec<String>>,
    until: Instant,
) {
    let texts: Vec<String> = corpus.values().flatten().cloned().collect();
    let client: Vec<Value> = [
        r#"{"type":"hello","protocol":1,"token":"00","name":"a"}"#,
        r#"{"type":"create","settings":{"kind":"chess","colour":"random","clock":{"base_ms":1,"increment_ms":2},"public":true,"position":"8/8 w","spectators":true,"audience":false}}"#,
        r#"{"type":"join","code":"A"}"#,
        r#"{"type":"open","code":"A","since":3}"#,
        r#"{"type":"lobby"}"#,
        r#"{"type":"move","code":"A","ply":0,"move":"e2e4"}"#,
        r#"{"type":"roll","code":"A","ply":0}"#,
        r#"{"type":"answer-draw","code":"A","accept":true}"#,
        r#"{"type":"watch","code":"A","since":null}"#,
        r#"{"type":"suggest","code":"A","ply":1,"move":"e2e4"}"#,
        r#"{"type":"ping","nonce":3}"#,
        r#"{"type":"live-games"}"#,
        r#"{"type":"seek","choice":{"kind":"draughts","clock":{"base_ms":300000,"increment_ms":3000}}}"#,
        r#"{"type":"cancel-seek"}"#,
        r#"{"type":"player","id":"0123456789abcdef"}"#,
        r#"{"type":"leaderboard","kind":"mine-chess"}"#,
    ]
    .iter()
    .map(|t| serde_json::from_str(t).unwrap())
    .collect();
    let mut server: Vec<Value> = vec![
        serde_json::to_value(ServerMsg::Pong {
            nonce: 7,
            server_ms: 1,
        })
        .unwrap(),
        serde_json::to_value(ServerMsg::Welcome {
            protocol: 1,
            name: "x".into(),
            claim_after_ms: 60_000,
            player: "0123456789abcdef".into(),
        })
        .unwrap(),
        serde_json::from_str(r#"{"type":"seeking","choice":{"kind":"chess","clock":{"base_ms":180000,"increment_ms":2000}},"held_ms":20000}"#).unwrap(),
        serde_json::from_str(r#"{"type":"seek-ended"}"#).unwrap(),
        serde_json::from_str(r#"{"type":"paired","code":"K7M3QX"}"#).unwrap(),
        serde_json::from_str(r#"{"type":"player","page":{"id":"0123456789abcdef","name":"a","kinds":[{"kind":"draughts","rating":{"rating":1500,"deviation":350},"played":1,"wins":1,"draws":0,"losses":0}],"recent":[{"code":"K7M3QX","kind":"chess","opponent":"b","result":"win","rated":true,"ended_ms":1}]}}"#).unwrap(),
        serde_json::from_str(r#"{"type":"leaderboard","kind":"chess","rows":[{"place":1,"id":"0123456789abcdef","name":"a","rating":1800,"played":30}],"you":null}"#).unwrap(),
    ];
    let mut states = Vec::new();
    for kind in GameKind::ALL {
        for _ in 0..4 {
            let (state, events) = game_state(kind, rng);
            let seq0 = state.seq;
            let evs: Vec<(u64, GameEvent)> = events
                .iter()
                .cloned()
                .zip(seq0 + 1..)
                .map(|(e, s)| (s, e))
                .collect();
            let text = serde_json::to_string(&state).unwrap();
            use_mirror(fz, &state, &evs, &text);
            server.push(
                serde_json::to_value(ServerMsg::State {
                    state: state.clone(),
                })
                .unwrap(),
            );
            for (seq, ev) in &evs {
                server.push(
                    serde_json::to_value(ServerMsg::Event {
                        code: "K7M3QX".into(),
                        seq: *seq,
                        event: ev.clone(),
                    })
                    .unwrap(),
                );
            }
            states.push((serde_json::to_value(&state).unwrap(), evs));
        }
    }
    while Instant::now() < until {
        match rng.gen_range(0..5) {
            0 => {
                let b = client.choose(rng).unwrap().clone();
                let t = mutate_json(rng, &b, &texts);
                fz.call("serde ClientMsg", &t, || {
                    serde_json::from_str::<ClientMsg>(&t)
                });
            }
            1 => {
                let b = server.choose(rng).unwrap().clone();
                let t = mutate_json(rng, &b, &texts);
                fz.call("serde ServerMsg", &t, || {
                    serde_json::from_str::<ServerMsg>(&t)
                });
            }
            _ => {
                // A mutated state (or its events) into a mirror.
                let (sv, evs) = states.choose(rng).unwrap();
                let t = mutate_json(rng, sv, &texts);
                let Some(Ok(state)) = fz.call("serde GameState", &t, || {
                    serde_json::from_str::<GameState>(&t)
                }) else {
                    continue;
                };
                let mut evs = evs.clone();
                if !evs.is_empty() && rng.gen_bool(0.5) {
                    let i = rng.gen_range(0..evs.len());
                    let ev = serde_json::to_value(&evs[i].1).unwrap();
                    let et = mutate_json(rng, &ev, &texts);
                    match fz.call("serde GameEvent", &et, || {
                        serde_json::from_str::<GameEvent>(&et)
                    }) {
                        Some(Ok(e)) => evs[i].1 = e,
                        _ => {}
                    }
                    if rng.gen_bool(0.3) {
                        evs[i].0 = *[0, u64::MAX, u64::MAX - 1, evs[i].0 + 1]
                            .choose(rng)
                            .unwrap();
                    }
                }
                use_mirror(fz, &state, &evs, &t);
            }
        }
    }
    for unix in [0, u64::MAX, i64::MAX as u64, 253_402_300_800] {
        fz.call("share::pgn_date", &unix.to_string(), || {
            takhte_game::share::pgn_date(unix)
        });
    }
    // A few small parsers of user input.
    for _ in 0..20_000 {
        let t = match rng.gen_range(0..3) {
            0 => mutate(rng, "https://takhte.example/join/K7M-3QX?x#y", &texts),
            1 => mutate(rng, "ws://[::1]:7878/ws", &texts),
            _ => random_move_text(rng),
        };
        fz.call("net::code::normalize", &t, || code::normalize(&t));
        fz.call("ServerAddress::parse", &t, || ServerAddress::parse(&t));
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
#[ignore = "fuzzing by hand: --ignored --nocapture"]
fn fuzz_hostile_input() {
    let total: u64 = std::env::var("FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(80);
    let start = Instant::now();
    install_hook();
    let stop = Arc::new(AtomicBool::new(false));
    let dog = watchdog(stop.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(0x7a6b_7465);
    let mut fz = Fz::default();

    // Corpora: start positions, positions from random play, the test data's positions.
    let mut reached: BTreeMap<GameKind, Vec<AnyGame>> = BTreeMap::new();
    let mut corpus: BTreeMap<GameKind, Vec<String>> = BTreeMap::new();
    for kind in GameKind::ALL {
        let games = random_positions(kind, &mut rng, 30, 120);
        let mut texts: Vec<String> = games.iter().step_by(5).map(|g| g.to_text()).collect();
        if kind == GameKind::MineChess {
            texts.extend(games.iter().step_by(9).map(public::public_text));
        }
        texts.extend(data_positions(kind));
        texts.push(AnyGame::start(kind, 0).to_text());
        println!(
            "{kind}: {} reached positions, {} seed texts",
            games.len(),
            texts.len()
        );
        reached.insert(kind, games);
        corpus.insert(kind, texts);
    }
    let secs = |f: f64| start + Duration::from_secs_f64(total as f64 * f);
    println!("corpora ready after {} ms", start.elapsed().as_millis());
    fuzz_positions(&mut fz, &mut rng, &corpus, secs(0.22));
    println!("positions done at {} ms", start.elapsed().as_millis());
    fuzz_moves(&mut fz, &mut rng, &reached, secs(0.42));
    println!("moves done at {} ms", start.elapsed().as_millis());
    fuzz_import(&mut fz, &mut rng, &corpus, secs(0.68));
    println!("import done at {} ms", start.elapsed().as_millis());
    fuzz_store(&mut fz, &mut rng, &corpus, secs(0.86));
    println!("store done at {} ms", start.elapsed().as_millis());
    fuzz_protocol(&mut fz, &mut rng, &corpus, secs(1.0));
    println!("protocol done at {} ms", start.elapsed().as_millis());

    stop.store(true, Ordering::Relaxed);
    let _ = dog.join();
    let _ = panic::take_hook();
    fz.report();
    println!("total {} ms", start.elapsed().as_millis());
}

/// How the cost of reading a long legal game grows with its length (minesweeper chess has no
/// fifty-move rule, so a game of reversible moves can be as long as the text).
#[test]
#[ignore = "fuzzing by hand: --ignored --nocapture"]
fn fuzz_long_game_scaling() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let full = long_game(
        GameKind::MineChess,
        "n3k3/8/8/8/8/8/8/8/8/N3K3 w - - -",
        &mut rng,
        40_000,
    );
    for n in [5_000usize, 10_000, 20_000, 40_000] {
        let n = n.min(full.moves().len());
        let s =
            Session::restore(full.start().clone(), full.moves()[..n].to_vec(), n, None).unwrap();
        let text = export(&s, &Players::default(), "2026.01.01");
        let t = Instant::now();
        let imp = import(&text).unwrap();
        let t_import = t.elapsed().as_millis();
        let t = Instant::now();
        let _ = session_of(&imp).unwrap();
        let t_restore = t.elapsed().as_millis();
        let t = Instant::now();
        let _ = export(&s, &Players::default(), "2026.01.01");
        let t_export = t.elapsed().as_millis();
        println!("mine-chess {n} plies ({} bytes): import {t_import} ms, session_of {t_restore} ms, export {t_export} ms", text.len());
    }
}

/// The slow call the fuzz run found and left (the library's own listing of an explosive
/// draughts position, which no app or server path reaches): how slow (run with --ignored
/// --nocapture). The other findings are asserted in `fuzz_findings_stay_fixed`.
#[test]
#[ignore = "fuzzing by hand: --ignored --nocapture"]
fn fuzz_minimal_repros() {
    install_hook();
    let fz = Fz::default();
    let explosive = "1b1b1b1b/bbb1BBbW/1b1B1b1B/2bBb3/bb1b1b2/3b2b1/1b1b1b1B/2B1B1B1 w";
    let g = AnyGame::from_text(GameKind::Draughts, explosive).unwrap();
    let t = Instant::now();
    let r = g.parse_move("h7-h8");
    println!(
        "explosive parse_move: {:?} in {} ms",
        r.map_err(|e| e.to_string().chars().take(80).collect::<String>()),
        t.elapsed().as_millis()
    );
    let t = Instant::now();
    println!(
        "explosive legal_moves: {} in {} ms",
        g.legal_moves().len(),
        t.elapsed().as_millis()
    );
    fz.report();
}

/// The findings of the fuzz runs, each fixed, kept fixed in the normal test run: the largest
/// FEN move counter through import and export, a damaged saved clock (the largest number of
/// milliseconds) through a move, an unclosed comment, a die face that does not exist.
#[test]
fn fuzz_findings_stay_fixed() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295";
    let pgn = format!("[FEN \"{fen}\"]\n\ne5");
    let imported = panic::catch_unwind(|| import(&pgn).map(|i| i.moves))
        .expect("importing the largest move counter does not panic");
    assert_eq!(imported.expect("the game reads"), ["e7e5"]);

    let mut s = Session::new(GameStart {
        kind: GameKind::Chess,
        position: Some(fen.into()),
        seed: 0,
        start_rolls: vec![],
    })
    .unwrap();
    s.play_text("e7e5").unwrap();
    let text = panic::catch_unwind(AssertUnwindSafe(|| {
        export(&s, &Players::default(), "2026.01.01")
    }))
    .expect("exporting the largest move counter does not panic");
    assert!(text.contains(fen), "{text}");
    assert!(text.contains("e5"), "{text}");

    let rec = r#"{"schema":1,"id":"x","kind":"chess","start_position":null,"seed":0,"start_rolls":[],
        "moves":[],"cursor":0,"mode":{"opponent":"pass-and-play","level":null,"human_side":null,"layout":null},
        "clock":{"base_ms":1,"increment_ms":1,"white_ms":18446744073709551615,"black_ms":1,"running":false},
        "result":null,"created_unix":0,"updated_unix":0}"#;
    let r: GameRecord = serde_json::from_str(rec).unwrap();
    let moves = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut c = from_record(
            &r,
            Arc::new(Idle),
            Box::new(ScriptedRandomness::from_seed(1)),
        )
        .unwrap();
        c.resume();
        c.tap(takhte_rules::Square::parse("e2", 8).unwrap());
        c.tap(takhte_rules::Square::parse("e4", 8).unwrap());
        c.session().moves().to_vec()
    }))
    .expect("a move with the largest saved clock does not panic");
    assert_eq!(moves.len(), 1, "the move is played: {moves:?}");

    assert!(import("1. e4 { never closed 2. zz9").is_err());
    assert!(AnyGame::start(GameKind::DiceChess, 0)
        .moves_text(Some(7))
        .is_empty());
}
