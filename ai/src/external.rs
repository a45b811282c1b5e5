//! Another UCI engine as a match opponent (e.g. Debian's `stockfish`): starts the program,
//! sets its options, and asks it for a move with `position startpos moves …` and `go movetime`.
//! Its output is read on a helper thread, so a silent engine cannot hang the match: a move
//! that does not come within the move time plus ten seconds is an error.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A running UCI engine.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

impl External {
    /// Starts `program`, runs the `uci` handshake and sets `options` (name, value).
    pub fn start(program: &str, options: &[(String, String)]) -> Result<External, String> {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start UCI engine '{program}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            child,
            stdin,
            lines: rx,
            name: program.to_string(),
        };
        e.send("uci")?;
        e.wait_for("uciok", Duration::from_secs(10))?;
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// The program name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(_) => return Err(format!("{}: no '{prefix}' within {timeout:?}", self.name)),
            }
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(10))
            .map(|_| ())
    }

    /// Starts a new game.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// The engine's move (UCI text) after `moves` from `start` (`startpos` or `fen …`).
    pub fn best_move(
        &mut self,
        start: &str,
        moves: &[String],
        movetime_ms: u64,
    ) -> Result<String, String> {
        let mut cmd = format!("position {start}");
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.send(&cmd)?;
        self.send(&format!("go movetime {movetime_ms}"))?;
        let line = self.wait_for(
            "bestmove",
            Duration::from_millis(movetime_ms) + Duration::from_secs(10),
        )?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("{}: bad answer '{line}'", self.name))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
