//! The UCI engine and the match command, through the binary as a user runs them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use takhte::rules::chess::Position;
use takhte::rules::Rules;

struct Uci {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_takhte"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Uci {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix` (generous timeout).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}' after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

#[test]
fn uci_handshake_position_and_go_depth() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    assert!(lines.iter().any(|l| l.contains("option name Level")));
    e.send("isready");
    e.until("readyok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let mut pos = Position::start();
    pos.play(&pos.parse_move("e2e4").unwrap()).unwrap();
    assert!(
        pos.parse_move(&best).is_ok(),
        "bestmove {best} is not legal"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn uci_stop_ends_an_infinite_search_and_levels_apply() {
    let mut e = Uci::start();
    e.send("setoption name Level value 2");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go movetime 200");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove d1d8");
    e.send("setoption name Level value 6");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let lines = e.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(Position::start().parse_move(&best).is_ok());
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn match_prints_each_game_and_the_totals() {
    let o = Command::new(env!("CARGO_BIN_EXE_takhte"))
        .args([
            "match",
            "chess",
            "--white",
            "2",
            "--black",
            "random",
            "--games",
            "2",
            "--seed",
            "5",
            "--movetime",
            "50",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    // Every ply was one turn of one of the players, and each player's time is reported.
    let plies: u32 = text
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "plies:").unwrap();
            words[at - 1].parse::<u32>().unwrap()
        })
        .sum();
    let turns = |who: &str| -> u32 {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("time {who}: ")))
            .unwrap_or_else(|| panic!("no time line for {who}: {text}"));
        assert!(line.contains(" ms, longest "), "{line}");
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "turns,").unwrap();
        words[at - 1].parse().unwrap()
    };
    assert_eq!(turns("level 2") + turns("random"), plies, "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("chess level 2 vs random: "), "{last}");
    assert!(last.contains("wins") && last.contains("draws") && last.contains("losses"));
    let o = Command::new(env!("CARGO_BIN_EXE_takhte"))
        .args([
            "match", "chess", "--white", "9", "--black", "random", "--games", "2", "--seed", "5",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
