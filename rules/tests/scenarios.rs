//! One runner for the rule scenarios of every game, written as data in `tests/data/scenarios_*.txt`.
//!
//! Each line: `game | position | moves | expectations`, where
//! - `position` is a position text, `start`, or `start seed=N` (minesweeper chess);
//! - `moves` are machine-notation moves played in order (through the repetition history), or `-`;
//! - `expectations` are `;`-separated checks on the resulting game:
//!   `outcome ongoing` / `outcome draw REASON` / `outcome white-wins REASON`,
//!   `text POSITION` (exact position text), `has M...` / `lacks M...` (legal move texts, for dice
//!   chess with faces: `3:b2c4`, `2:-`), `exactly M...` (the whole set), `count N`,
//!   `die N exactly M...` (the `moves --die N` list), `perft D N`,
//!   `bad-position TEXT` (reading fails, the message contains TEXT),
//!   `bad-move TEXT` (the last move is refused with a message containing TEXT).
//!
//! Lines starting with `#` and blank lines are skipped; a line ending in `\` continues.

use takhte_rules::{AnyGame, GameKind};

fn run_file(name: &str, text: &str) {
    let mut logical = Vec::new();
    let mut pending = String::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if pending.is_empty() && (line.trim().is_empty() || line.trim_start().starts_with('#')) {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(line);
        logical.push((n + 1, std::mem::take(&mut pending)));
    }
    assert!(!logical.is_empty(), "{name} has no scenarios");
    let mut failures = Vec::new();
    for (line_no, line) in &logical {
        if let Err(e) = run_line(line) {
            failures.push(format!("{name}:{line_no}: {e}\n    {line}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        logical.len(),
        failures.join("\n")
    );
}

fn run_line(line: &str) -> Result<(), String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    if parts.len() != 4 {
        return Err(format!("expected 4 fields, found {}", parts.len()));
    }
    let kind = GameKind::parse(parts[0]).ok_or("unknown game")?;
    let checks: Vec<&str> = parts[3]
        .split(';')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let game = if parts[1] == "start" {
        AnyGame::start(kind, 0)
    } else if let Some(seed) = parts[1].strip_prefix("start seed=") {
        AnyGame::start(kind, seed.parse().map_err(|_| "bad seed")?)
    } else {
        match AnyGame::from_text(kind, parts[1]) {
            Ok(g) => g,
            Err(e) => {
                return match checks.first().and_then(|c| c.strip_prefix("bad-position ")) {
                    Some(want) if e.message.contains(want) => Ok(()),
                    Some(want) => Err(format!(
                        "position error '{}' does not mention '{want}'",
                        e.message
                    )),
                    None => Err(format!("position refused: {e}")),
                }
            }
        }
    };
    let mut game = game;
    let moves: Vec<&str> = if parts[2] == "-" {
        Vec::new()
    } else {
        parts[2].split_whitespace().collect()
    };
    for (i, m) in moves.iter().enumerate() {
        if let Err(e) = game.play_text(m) {
            let last = i + 1 == moves.len();
            return match checks.first().and_then(|c| c.strip_prefix("bad-move ")) {
                Some(want) if last && e.to_string().contains(want) => Ok(()),
                Some(want) if last => Err(format!(
                    "move {m} refused with '{e}', not mentioning '{want}'"
                )),
                _ => Err(format!("move {m} refused: {e}")),
            };
        }
    }
    let legal: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| game.move_to_text(m))
        .collect();
    for check in checks {
        let (word, arg) = check.split_once(' ').unwrap_or((check, ""));
        let list: Vec<&str> = arg.split_whitespace().collect();
        match word {
            "outcome" => {
                let got = game
                    .outcome()
                    .map(|o| o.to_string())
                    .unwrap_or_else(|| "ongoing".into());
                if got != arg {
                    return Err(format!("outcome is '{got}', expected '{arg}'"));
                }
            }
            "text" => {
                if game.to_text() != arg {
                    return Err(format!("text is '{}', expected '{arg}'", game.to_text()));
                }
            }
            "has" => {
                for m in list {
                    if !legal.iter().any(|l| l == m) {
                        return Err(format!("{m} is not legal; legal: {legal:?}"));
                    }
                }
            }
            "lacks" => {
                for m in list {
                    if legal.iter().any(|l| l == m) {
                        return Err(format!("{m} is legal but should not be"));
                    }
                }
            }
            "exactly" => {
                let mut want: Vec<String> = list.iter().map(|s| s.to_string()).collect();
                let mut got = legal.clone();
                want.sort();
                got.sort();
                if want != got {
                    return Err(format!("legal moves {got:?}, expected {want:?}"));
                }
            }
            "count" => {
                let n: usize = arg.parse().map_err(|_| "bad count")?;
                if legal.len() != n {
                    return Err(format!(
                        "{} legal moves, expected {n}: {legal:?}",
                        legal.len()
                    ));
                }
            }
            "die" => {
                let (face, rest) = arg.split_once(' ').ok_or("die N exactly ...")?;
                let face: u8 = face.parse().map_err(|_| "bad face")?;
                let rest = rest.strip_prefix("exactly").ok_or("die N exactly ...")?;
                let mut want: Vec<String> = rest.split_whitespace().map(String::from).collect();
                want.sort();
                let got = game.moves_text(Some(face));
                if got != want {
                    return Err(format!("face {face} moves {got:?}, expected {want:?}"));
                }
            }
            "perft" => {
                let (d, n) = arg.split_once(' ').ok_or("perft D N")?;
                let (d, n): (u32, u64) = (
                    d.parse().map_err(|_| "bad depth")?,
                    n.parse().map_err(|_| "bad count")?,
                );
                let got = game.perft(d);
                if got != n {
                    return Err(format!("perft {d} = {got}, expected {n}"));
                }
            }
            "bad-position" => return Err("the position was accepted".into()),
            "bad-move" => return Err("every move was accepted".into()),
            other => return Err(format!("unknown check '{other}'")),
        }
    }
    Ok(())
}

#[test]
fn chess_scenarios() {
    run_file(
        "scenarios_chess.txt",
        include_str!("data/scenarios_chess.txt"),
    );
}

#[test]
fn mine_chess_scenarios() {
    run_file(
        "scenarios_mine.txt",
        include_str!("data/scenarios_mine.txt"),
    );
}
