//! A request and its answer as text, for a search that runs elsewhere: the browser version
//! sends its requests to a Web Worker (a second WebAssembly instance with this crate), so the
//! page never waits for the computer. The game goes as its start and its moves (the worker
//! replays them: the repetition history comes with it); the answer as the move's text.
//!
//! ```text
//! kind chess
//! position -                        (or the start position's text)
//! seed 7
//! rolls 3-5 2-2                     (dice chess's start rolls; empty otherwise)
//! level 6
//! rng 12345
//! rolled -                          (or the face rolled, 1–6)
//! movetime 1000
//! move e2e4                         (one line per move, in order)
//! ```
//!
//! ```
//! use takhte_ai::wire::{Asked, answer_text, read_answer};
//! use takhte_ai::Answer;
//! use takhte_rules::{GameKind, GameStart};
//! let asked = Asked {
//!     start: GameStart::standard(GameKind::Chess, 0, Vec::new()),
//!     moves: vec!["e2e4".into()],
//!     level: 1, seed: 3, rolled: None, movetime_ms: 50,
//! };
//! let again = Asked::parse(&asked.to_text()).unwrap();
//! assert_eq!(again, asked);
//! let req = again.request().unwrap();
//! let answer = takhte_ai::think(&req, &Default::default());
//! let text = answer_text(&req.game, answer.as_ref());
//! assert_eq!(read_answer(&req.game, &text), answer);
//! ```

use takhte_rules::{AnyGame, GameKind, GameStart};

use crate::{Answer, Request};

/// What the computer is asked, in a form that travels as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// How the game began.
    pub start: GameStart,
    /// The moves played since, in machine notation.
    pub moves: Vec<String>,
    /// As [`Request::level`].
    pub level: u8,
    /// As [`Request::seed`].
    pub seed: u64,
    /// As [`Request::rolled`].
    pub rolled: Option<u8>,
    /// As [`Request::movetime_ms`].
    pub movetime_ms: u64,
}

impl Asked {
    /// The request as text (the format above).
    pub fn to_text(&self) -> String {
        let s = &self.start;
        let mut out = format!("kind {}\n", s.kind.name());
        out += &format!("position {}\n", s.position.as_deref().unwrap_or("-"));
        out += &format!("seed {}\n", s.seed);
        let rolls: Vec<String> = s
            .start_rolls
            .iter()
            .map(|(w, b)| format!("{w}-{b}"))
            .collect();
        out += &format!("rolls {}\n", rolls.join(" "));
        out += &format!("level {}\nrng {}\n", self.level, self.seed);
        match self.rolled {
            Some(f) => out += &format!("rolled {f}\n"),
            None => out += "rolled -\n",
        }
        out += &format!("movetime {}\n", self.movetime_ms);
        for m in &self.moves {
            out += &format!("move {m}\n");
        }
        out
    }

    /// Reads the text [`Asked::to_text`] makes; says which line is wrong otherwise.
    pub fn parse(text: &str) -> Result<Asked, String> {
        let mut kind = None;
        let mut position = None;
        let (mut seed, mut rolls, mut level, mut rng) = (None, Vec::new(), None, None);
        let (mut rolled, mut movetime, mut moves) = (None, None, Vec::new());
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let bad = || format!("the line \"{line}\" does not read");
            match key {
                "kind" => kind = Some(GameKind::parse(value).ok_or_else(bad)?),
                "position" => position = Some((value != "-").then(|| value.to_string())),
                "seed" => seed = Some(value.parse().map_err(|_| bad())?),
                "rolls" => {
                    for pair in value.split_whitespace() {
                        let (w, b) = pair.split_once('-').ok_or_else(bad)?;
                        rolls.push((w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?));
                    }
                }
                "level" => level = Some(value.parse().map_err(|_| bad())?),
                "rng" => rng = Some(value.parse().map_err(|_| bad())?),
                "rolled" if value == "-" => rolled = Some(None),
                "rolled" => rolled = Some(Some(value.parse().map_err(|_| bad())?)),
                "movetime" => movetime = Some(value.parse().map_err(|_| bad())?),
                "move" => moves.push(value.to_string()),
                _ => return Err(bad()),
            }
        }
        let missing = |what: &str| format!("no {what} line");
        Ok(Asked {
            start: GameStart {
                kind: kind.ok_or_else(|| missing("kind"))?,
                position: position.ok_or_else(|| missing("position"))?,
                seed: seed.ok_or_else(|| missing("seed"))?,
                start_rolls: rolls,
            },
            moves,
            level: level.ok_or_else(|| missing("level"))?,
            seed: rng.ok_or_else(|| missing("rng"))?,
            rolled: rolled.ok_or_else(|| missing("rolled"))?,
            movetime_ms: movetime.ok_or_else(|| missing("movetime"))?,
        })
    }

    /// The request: the start position with the moves played on it (an error names the
    /// first that does not play).
    pub fn request(&self) -> Result<Request, String> {
        let mut game = self.start.first_position().map_err(|e| e.to_string())?;
        for (i, m) in self.moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        }
        Ok(Request {
            game,
            level: self.level,
            seed: self.seed,
            rolled: self.rolled,
            movetime_ms: self.movetime_ms,
        })
    }
}

/// An answer as text: `move <text>`, `roll`, or `none` (cancelled, or the game is over).
pub fn answer_text(game: &AnyGame, answer: Option<&Answer>) -> String {
    match answer {
        Some(Answer::Move(m)) => format!("move {}", game.move_to_text(m)),
        Some(Answer::Roll) => "roll".to_string(),
        None => "none".to_string(),
    }
}

/// Reads an answer made by [`answer_text`] for `game`; anything else (or a move that is not
/// legal there) is `None`, as a search that gave no answer.
pub fn read_answer(game: &AnyGame, text: &str) -> Option<Answer> {
    match text.trim() {
        "roll" => Some(Answer::Roll),
        t => {
            let m = game.parse_move(t.strip_prefix("move ")?).ok()?;
            game.legal_moves().contains(&m).then_some(Answer::Move(m))
        }
    }
}

/// The whole round in one call, for the worker: a request's text in, its answer's text out
/// (`error <why>` for a request that does not read).
pub fn answer_request(text: &str) -> String {
    let req = match Asked::parse(text).and_then(|a| a.request()) {
        Ok(r) => r,
        Err(e) => return format!("error {e}"),
    };
    let answer = crate::think(&req, &std::sync::atomic::AtomicBool::new(false));
    answer_text(&req.game, answer.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_travels_and_bad_text_is_named() {
        let asked = Asked {
            start: GameStart {
                kind: GameKind::DiceChess,
                position: None,
                seed: u64::MAX,
                start_rolls: vec![(3, 3), (5, 2)],
            },
            moves: vec![],
            level: 6,
            seed: 1 << 63,
            rolled: Some(4),
            movetime_ms: 1000,
        };
        assert_eq!(Asked::parse(&asked.to_text()), Ok(asked.clone()));
        let fen = Asked {
            start: GameStart {
                kind: GameKind::Chess,
                position: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".into()),
                seed: 0,
                start_rolls: vec![],
            },
            moves: vec!["e1g1".into()],
            rolled: None,
            ..asked
        };
        assert_eq!(Asked::parse(&fen.to_text()), Ok(fen.clone()));
        let text = fen.to_text().replace("level 6", "level six");
        assert_eq!(
            Asked::parse(&text),
            Err("the line \"level six\" does not read".to_string())
        );
        let no_kind: String = fen
            .to_text()
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(Asked::parse(&no_kind), Err("no kind line".to_string()));
        let illegal = Asked {
            moves: vec!["e1e3".into()],
            ..fen
        };
        assert!(illegal.request().unwrap_err().starts_with("move 1 (e1e3)"));
        assert!(answer_request("kind go\n").starts_with("error "));
    }

    #[test]
    fn an_answer_that_is_not_legal_is_no_answer() {
        let game = AnyGame::start(GameKind::Chess, 0);
        assert_eq!(read_answer(&game, "move e2e5"), None);
        assert_eq!(read_answer(&game, "none"), None);
        assert_eq!(read_answer(&game, "garbage"), None);
        let m = game.parse_move("e2e4").unwrap();
        assert_eq!(read_answer(&game, "move e2e4"), Some(Answer::Move(m)));
        assert_eq!(read_answer(&game, "roll"), Some(Answer::Roll));
    }
}
