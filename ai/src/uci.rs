//! The chess AI as a UCI engine (`takhte uci`), so any chess GUI or tool can play it.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `position startpos|fen FEN [moves M...]`,
//! `go [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [depth D] [nodes N]
//! [infinite]`, `stop`, `quit`, `setoption name Level value N` (1–6, default 6) and
//! `setoption name Hash value MB` (1–256, default 32). The main thread reads the commands; a
//! `go` searches on a worker thread, so `stop`, `isready` and `quit` are answered while it
//! thinks. At level 6 the search follows the `go` limits (with a clock: about a thirtieth of
//! the time left plus most of the increment); at levels 1–5 it plays as that level of the app
//! (its depth, node budget and noise), the clock only capping it. The transposition table is
//! kept between moves and cleared by `ucinewgame`.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use takhte_rules::chess::Position;
use takhte_rules::{GameKind, Line, Rules, Side};

use super::chess::{ChessGame, Pos};
use super::game::MATE;
use super::level::setting;
use super::search::{is_mate, search, Features, Limits, Progress};
use super::tt::{Tt, DEFAULT_MB};

/// The limits of one `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `wtime`, `btime`.
    pub time: [Option<u64>; 2],
    /// `winc`, `binc`.
    pub inc: [u64; 2],
    /// `movestogo`.
    pub moves_to_go: Option<u64>,
    /// `depth`.
    pub depth: Option<i32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite` (or no limit at all).
    pub infinite: bool,
}

/// Reads the words after `go`.
pub fn parse_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    while i < words.len() {
        match words[i] {
            "movetime" => go.movetime = num(i),
            "wtime" => go.time[0] = num(i),
            "btime" => go.time[1] = num(i),
            "winc" => go.inc[0] = num(i).unwrap_or(0),
            "binc" => go.inc[1] = num(i).unwrap_or(0),
            "movestogo" => go.moves_to_go = num(i),
            "depth" => go.depth = num(i).map(|d| d.min(64) as i32),
            "nodes" => go.nodes = num(i),
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    go
}

/// The time to spend on a move, from the `go` limits of the side to move.
pub fn time_for(go: &Go, side: Side) -> Option<Duration> {
    if let Some(ms) = go.movetime {
        return Some(Duration::from_millis(ms.saturating_sub(20).max(1)));
    }
    let left = go.time[side.index()]?;
    let inc = go.inc[side.index()];
    let mtg = go.moves_to_go.unwrap_or(30).clamp(1, 60);
    let alloc = left / mtg + inc * 3 / 4;
    let cap = left.saturating_sub(50) / 2;
    Some(Duration::from_millis(alloc.min(cap).max(5)))
}

/// Reads `position startpos|fen FEN [moves ...]`; `None` when it is malformed or a move is
/// illegal.
pub fn parse_position(words: &[&str]) -> Option<Line<Position>> {
    let (start, rest) = match *words.first()? {
        "startpos" => (Position::start(), &words[1..]),
        "fen" => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            (
                Position::from_text(&words[1..end].join(" ")).ok()?,
                &words[end..],
            )
        }
        _ => return None,
    };
    let mut line = Line::new(start);
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let mv = line.position().parse_move(m).ok()?;
            line.play(&mv).ok()?;
        }
    }
    Some(line)
}

/// The score as UCI prints it: `cp N` or `mate N` (moves, negative when mated).
pub fn score_text(score: i32) -> String {
    if is_mate(score) {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, text: &str) {
    if let Ok(mut o) = out.lock() {
        let _ = writeln!(o, "{text}");
        let _ = o.flush();
    }
}

struct Engine {
    out: Out,
    line: Line<Position>,
    level: u8,
    hash_mb: usize,
    tt: Arc<Mutex<Tt>>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    infinite: bool,
}

impl Engine {
    fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    fn go(&mut self, go: Go) {
        self.stop();
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        let out = Arc::clone(&self.out);
        let tt = Arc::clone(&self.tt);
        let line = self.line.clone();
        let level = self.level;
        self.infinite = go.infinite;
        self.worker = Some(std::thread::spawn(move || {
            think(line, level, go, &tt, &stop, &out)
        }));
    }
}

fn think(line: Line<Position>, level: u8, go: Go, tt: &Mutex<Tt>, stop: &AtomicBool, out: &Out) {
    let side = line.position().side_to_move();
    let clock = time_for(&go, side);
    let limits = if level >= 6 {
        let unlimited =
            go.infinite || (clock.is_none() && go.depth.is_none() && go.nodes.is_none());
        Limits {
            depth: go.depth.unwrap_or(64),
            nodes: go.nodes.unwrap_or(u64::MAX),
            time: if unlimited { None } else { clock },
            soft_share: if go.movetime.is_some() { 0.85 } else { 0.45 },
            noise: 0,
            seed: 0,
            features: crate::level::features_in(GameKind::Chess, 6),
        }
    } else {
        let s = setting(GameKind::Chess, level);
        Limits {
            depth: go.depth.map_or(s.depth, |d| d.min(s.depth)),
            nodes: go.nodes.map_or(s.nodes, |n| n.min(s.nodes)),
            time: clock,
            soft_share: 1.0,
            noise: s.noise,
            seed: line.position().board().fullmove_number() as u64,
            features: Features {
                hand_eval: s.hand_eval,
                ..crate::level::features_in(GameKind::Chess, level)
            },
        }
    };
    let game = ChessGame {
        history: line.keys().to_vec(),
        eval: crate::chess::eval::chosen(&limits.features),
    };
    let root = Pos::new(*line.position().board());
    let mut report = |p: &Progress<takhte_rules::chess::Move>| {
        let ms = p.elapsed.as_millis().max(1) as u64;
        let pv: Vec<String> = p.pv.iter().map(|m| m.uci()).collect();
        say(
            out,
            &format!(
                "info depth {} score {} nodes {} time {} nps {} pv {}",
                p.depth,
                score_text(p.score),
                p.nodes,
                ms,
                p.nodes * 1000 / ms,
                pv.join(" ")
            ),
        );
    };
    let found = match tt.lock() {
        Ok(mut tt) => search(&game, &root, &limits, &mut tt, stop, &mut report),
        Err(_) => None,
    };
    // With `infinite`, the GUI expects no bestmove before it says `stop`.
    if go.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    match found {
        Some(f) => say(out, &format!("bestmove {}", f.best.uci())),
        None => say(out, "bestmove 0000"),
    }
}

/// Runs the UCI loop: reads commands from `input` until `quit` or the end of input, and writes
/// the answers to `out`.
pub fn run(input: impl BufRead, out: Box<dyn Write + Send>) {
    let out: Out = Arc::new(Mutex::new(out));
    let mut e = Engine {
        out: Arc::clone(&out),
        line: Line::new(Position::start()),
        level: 6,
        hash_mb: DEFAULT_MB,
        tt: Arc::new(Mutex::new(Tt::with_megabytes(DEFAULT_MB))),
        stop: Arc::new(AtomicBool::new(false)),
        worker: None,
        infinite: false,
    };
    let mut quit = false;
    for text in input.lines() {
        let Ok(text) = text else { break };
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say(&out, "id name Takhte");
                say(&out, "id author the Takhte authors");
                say(&out, "option name Level type spin default 6 min 1 max 6");
                say(
                    &out,
                    &format!("option name Hash type spin default {DEFAULT_MB} min 1 max 256"),
                );
                say(&out, "uciok");
            }
            Some("isready") => say(&out, "readyok"),
            Some("ucinewgame") => {
                e.stop();
                if let Ok(mut tt) = e.tt.lock() {
                    tt.clear();
                }
                e.line = Line::new(Position::start());
            }
            Some("position") => {
                e.stop();
                match parse_position(&words[1..]) {
                    Some(line) => e.line = line,
                    None => say(&out, &format!("info string cannot read: {text}")),
                }
            }
            Some("setoption") => {
                let name_at = words.iter().position(|w| *w == "name");
                let value_at = words.iter().position(|w| *w == "value");
                if let (Some(n), Some(v)) = (name_at, value_at) {
                    let name = words[n + 1..v].join(" ").to_ascii_lowercase();
                    let value = words.get(v + 1).and_then(|w| w.parse::<u64>().ok());
                    match (name.as_str(), value) {
                        ("level", Some(l)) => e.level = l.clamp(1, 6) as u8,
                        ("hash", Some(mb)) => {
                            e.stop();
                            e.hash_mb = mb.clamp(1, 256) as usize;
                            e.tt = Arc::new(Mutex::new(Tt::with_megabytes(e.hash_mb)));
                        }
                        _ => say(&out, &format!("info string unknown option: {text}")),
                    }
                }
            }
            Some("go") => e.go(parse_go(&words[1..])),
            Some("stop") => e.stop(),
            Some("quit") => {
                quit = true;
                break;
            }
            _ => {}
        }
    }
    // At the end of the input a bounded search may finish; `quit` or `infinite` stop it now.
    if quit || e.infinite {
        e.stop();
    } else {
        e.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_go_and_position() {
        let go = parse_go(&[
            "wtime", "60000", "btime", "50000", "winc", "1000", "depth", "7",
        ]);
        assert_eq!(go.time, [Some(60000), Some(50000)]);
        assert_eq!(go.inc[0], 1000);
        assert_eq!(go.depth, Some(7));
        assert!(time_for(&go, Side::White).unwrap() < Duration::from_secs(5));
        let line = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(line.position().side_to_move(), Side::White);
        assert!(parse_position(&["startpos", "moves", "e2e5"]).is_none());
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-(MATE - 2)), "mate -1");
    }
}
