//! Sharing a game as text: chess as PGN (the standard seven tags, SAN moves, the result), the
//! other games as a PGN-like record whose `Variant` tag names the game, whose `FEN` tag holds
//! the start position text of RULES.md and whose moves are in the game's machine notation.
//! [`import`] reads both back for review.
//!
//! ```
//! use takhte_game::share::{export, import, Players};
//! use takhte_game::{GameStart, Session};
//! use takhte_rules::GameKind;
//! let mut s = Session::new(GameStart::standard(GameKind::Chess, 0, vec![])).unwrap();
//! for m in ["f2f3", "e7e5", "g2g4", "d8h4"] { s.play_text(m).unwrap(); }
//! let pgn = export(&s, &Players::default(), "2026.12.02");
//! assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"));
//! let back = import(&pgn).unwrap();
//! assert_eq!(back.moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
//! ```

use takhte_rules::{chess, AnyGame, GameKind, GameResult, MoveError, Side};

use super::session::{GameEnd, GameStart, Session};

/// The names written in the `White` and `Black` tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            white: "?".into(),
            black: "?".into(),
        }
    }
}

/// The PGN date (`YYYY.MM.DD`, UTC) of a Unix time.
///
/// ```
/// assert_eq!(takhte_game::share::pgn_date(1_764_633_600), "2025.12.02");
/// ```
pub fn pgn_date(unix: u64) -> String {
    let (y, m, d) = takhte_store::civil_from_days((unix / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

fn variant(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Chess => "Standard",
        GameKind::DiceChess => "Dice chess",
        GameKind::Draughts => "Turkish draughts",
        GameKind::MineChess => "Minesweeper chess",
    }
}

fn result_token(end: Option<GameEnd>) -> &'static str {
    match end.and_then(|e| e.result()) {
        Some(GameResult::Win(Side::White)) => "1-0",
        Some(GameResult::Win(Side::Black)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The number of the first full move: the FEN's move counter in chess, 1 in the other games.
fn first_number(start: &AnyGame) -> u32 {
    match start {
        AnyGame::Chess(_) => start
            .to_text()
            .split_whitespace()
            .nth(5)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1),
        _ => 1,
    }
}

fn tag(name: &str, value: &str) -> String {
    // A tag is one line: line breaks and other control characters become spaces.
    let value: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// The text of a game: its tags, then its moves (all of them, whatever the cursor), then the
/// result. `date` is `YYYY.MM.DD`.
pub fn export(session: &Session, players: &Players, date: &str) -> String {
    let kind = session.kind();
    let end = session.final_end();
    let result = result_token(end);
    let mut out = String::new();
    out += &tag("Event", "Takhte game");
    out += &tag("Site", "Takhte");
    out += &tag("Date", date);
    out += &tag("Round", "-");
    out += &tag("White", &players.white);
    out += &tag("Black", &players.black);
    out += &tag("Result", result);
    // Seconds and the increment in seconds ("300+2"), "-" for a game without a clock.
    out += &tag(
        "TimeControl",
        &session.clock.as_ref().map_or("-".to_string(), |c| {
            format!(
                "{}+{}",
                c.control.base_ms / 1000,
                c.control.increment_ms / 1000
            )
        }),
    );
    let start = session.game_at(0);
    let custom = kind != GameKind::Chess || session.start().position.is_some();
    if kind != GameKind::Chess {
        out += &tag("Variant", variant(kind));
    }
    if custom {
        out += &tag("SetUp", "1");
        out += &tag("FEN", &start.to_text());
    }
    if let Some(e) = end {
        out += &tag("Termination", e.reason());
    }
    out.push('\n');
    // The moves, numbered by full move ("12." before White's, "12..." when Black begins).
    let mut number = first_number(&start);
    let mut game = start;
    let mut words: Vec<String> = Vec::new();
    for (i, text) in session.moves().iter().enumerate() {
        let mover = game.side_to_move();
        let Ok(mv) = game.parse_move(text) else { break };
        let word = match (&game, &mv) {
            (AnyGame::Chess(l), takhte_rules::AnyMove::Chess(m)) => l.position().san(m),
            _ => text.clone(),
        };
        if mover == Side::White {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(word);
        if mover == Side::Black {
            number = number.saturating_add(1);
        }
        if game.play(&mv).is_err() {
            break;
        }
    }
    words.push(result.to_string());
    // Lines of at most 79 characters, as PGN asks.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &w;
    }
    out += &line;
    out.push('\n');
    out
}

/// A game read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// How it starts.
    pub start: GameStart,
    /// Its moves in machine notation.
    pub moves: Vec<String>,
    /// How it ended beyond the rules (resignation, agreement, time), from the result and the
    /// `Termination` tag.
    pub end: Option<GameEnd>,
    /// White's and Black's names.
    pub players: Players,
}

/// The most moves (both sides' moves counted) a game read from text may have: real games
/// have a few hundred; far longer texts would only keep the app busy (checking repetitions).
pub const MAX_IMPORT_MOVES: usize = 6_000;

/// Why a text could not be read as a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Nothing that looks like a game.
    Empty,
    /// The `Variant` tag names no game of Takhte.
    Variant(String),
    /// The start position does not read.
    Position(String),
    /// A comment (`{`) or a variation (`(`) is not closed.
    Unclosed,
    /// The game has more moves than Takhte opens ([`MAX_IMPORT_MOVES`]).
    TooLong,
    /// The move `text`, the `index`-th of the game (from 1), is not a legal move there.
    Move {
        /// Which move of the game it is, counting both sides' moves from 1.
        index: usize,
        /// The move as PGN numbers it: `6. Ke2` (White's sixth), `6... Ke7` (Black's).
        numbered: String,
        /// The text.
        text: String,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Empty => write!(f, "no game found in the text"),
            ImportError::Variant(v) => write!(f, "'{v}' is not a game of Takhte"),
            ImportError::Position(e) => write!(f, "the start position: {e}"),
            ImportError::Unclosed => write!(f, "a comment or a variation is not closed"),
            ImportError::TooLong => write!(
                f,
                "the game has more than {MAX_IMPORT_MOVES} moves (both sides' moves counted)"
            ),
            ImportError::Move {
                numbered, reason, ..
            } => write!(f, "{numbered}: {reason}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Reads a game: PGN of chess (tags, SAN, comments, variations and annotations skipped), or
/// the record of another game as [`export`] writes it.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    let (tags, body) = tags_and_body(text);
    let get = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let kind = match get("Variant").as_deref() {
        None | Some("Standard") | Some("Chess") | Some("chess") => GameKind::Chess,
        Some(v) => [GameKind::DiceChess, GameKind::Draughts, GameKind::MineChess]
            .into_iter()
            .find(|k| variant(*k).eq_ignore_ascii_case(v) || k.name() == v)
            .ok_or_else(|| ImportError::Variant(v.to_string()))?,
    };
    let position = get("FEN");
    let start = GameStart {
        kind,
        position: position.clone(),
        seed: 0,
        start_rolls: Vec::new(),
    };
    if kind != GameKind::Chess && position.is_none() {
        return Err(ImportError::Position(
            "this game's record needs its start position (the FEN tag)".into(),
        ));
    }
    let mut game = start
        .first_position()
        .map_err(|e| ImportError::Position(e.to_string()))?;
    if let AnyGame::Draughts(l) = &game {
        l.position()
            .playable()
            .map_err(|e| ImportError::Position(e.to_string()))?;
    }
    let clean = movetext(&body)?;
    let mut result_word = get("Result");
    let moves = read_moves(&mut game, &clean, &mut result_word)?;
    if moves.is_empty() && tags.is_empty() {
        return Err(ImportError::Empty);
    }
    let result = match result_word.as_deref() {
        Some("1-0") => Some(GameResult::Win(Side::White)),
        Some("0-1") => Some(GameResult::Win(Side::Black)),
        Some("1/2-1/2") => Some(GameResult::Draw),
        _ => None,
    };
    let end = match (result, game.outcome()) {
        (None, _) | (_, Some(_)) => None,
        (Some(r), None) => {
            let termination = get("Termination").unwrap_or_default();
            GameEnd::from_parts(r, &termination).or(match r {
                GameResult::Win(w) => Some(GameEnd::Resigned(w.opponent())),
                GameResult::Draw => Some(GameEnd::Agreed),
            })
        }
    };
    Ok(Imported {
        start,
        moves,
        end,
        players: Players {
            white: get("White").unwrap_or_else(|| "?".into()),
            black: get("Black").unwrap_or_else(|| "?".into()),
        },
    })
}

/// The tags of a game's text (name, value unquoted) and the rest, its movetext.
fn tags_and_body(text: &str) -> (Vec<(String, String)>, String) {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(inner) = t.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            if let Some((name, value)) = inner.split_once(' ') {
                let value = value.trim();
                let value = value.strip_prefix('"').unwrap_or(value);
                let value = value.strip_suffix('"').unwrap_or(value);
                let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
                tags.push((name.to_string(), value));
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    (tags, body)
}

/// The movetext without comments, variations and annotation glyphs; an unclosed comment or
/// variation is refused (it would read as a shorter game).
fn movetext(body: &str) -> Result<String, ImportError> {
    let mut clean = String::new();
    let mut depth = 0;
    let mut in_comment = false;
    let mut line_comment = false;
    for c in body.chars() {
        match c {
            '\n' if line_comment => {
                line_comment = false;
                clean.push(' ');
            }
            _ if line_comment => {}
            '{' => in_comment = true,
            '}' => in_comment = false,
            _ if in_comment => {}
            // A comment to the end of the line.
            ';' => line_comment = true,
            '(' => depth += 1,
            // A stray closing parenthesis closes nothing.
            ')' => depth = (depth - 1).max(0),
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    if in_comment || depth > 0 {
        return Err(ImportError::Unclosed);
    }
    Ok(clean)
}

/// Plays the moves of a clean movetext on `game`; their machine texts. A result word in it
/// is put in `result_word`.
fn read_moves(
    game: &mut AnyGame,
    clean: &str,
    result_word: &mut Option<String>,
) -> Result<Vec<String>, ImportError> {
    let mut number = first_number(game);
    let mut moves = Vec::new();
    for word in clean.split_whitespace() {
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            *result_word = Some(word.to_string());
            continue;
        }
        if word.starts_with('$') {
            continue;
        }
        let Some(word) = move_word(game, word) else {
            continue;
        };
        let index = moves.len() + 1;
        if index > MAX_IMPORT_MOVES {
            return Err(ImportError::TooLong);
        }
        let mover = game.side_to_move();
        let numbered = match mover {
            Side::White => format!("{number}. {word}"),
            Side::Black => format!("{number}... {word}"),
        };
        let refused = |e: MoveError| ImportError::Move {
            index,
            numbered: numbered.clone(),
            text: word.clone(),
            reason: e.to_string(),
        };
        let mv = parse_word(game, &word).map_err(refused)?;
        moves.push(game.move_to_text(&mv));
        game.play(&mv).map_err(refused)?;
        if mover == Side::Black {
            number = number.saturating_add(1);
        }
    }
    Ok(moves)
}

/// A word of the movetext as a move text: without its move number ("12." or "12...", alone or
/// glued to the move; a dice face "3:" is part of the move) and annotation marks, castling
/// with zeros read as with letters. `None` for a word that is only a number.
fn move_word(game: &AnyGame, word: &str) -> Option<String> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let word = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    let word = word.trim_end_matches(['!', '?']);
    if word.is_empty() {
        return None;
    }
    // Castling written with zeros, as some programs do.
    if matches!(game, AnyGame::Chess(_)) && word.starts_with("0-0") {
        return Some(word.replace('0', "O"));
    }
    Some(word.to_string())
}

/// A move of the game: chess in standard notation, or coordinates (e2e4) as some programs
/// write them (a text that is not even that is explained as the standard notation it was
/// written in); the other games in their machine notation.
fn parse_word(game: &AnyGame, word: &str) -> Result<takhte_rules::AnyMove, MoveError> {
    match game {
        AnyGame::Chess(l) => l
            .position()
            .parse_san(word)
            .or_else(|san| {
                chess::parse_uci(l.position().board(), word).map_err(|uci| match uci {
                    MoveError::Malformed(_) => san,
                    other => other,
                })
            })
            .map(takhte_rules::AnyMove::Chess),
        other => other.parse_move(word),
    }
}

/// The session of an imported game, at its last move.
pub fn session_of(imported: &Imported) -> Result<Session, super::SessionError> {
    let n = imported.moves.len();
    let mut s = Session::restore(
        imported.start.clone(),
        imported.moves.clone(),
        n,
        imported.end,
    )?;
    // The names of the tags, unless the text had none ("?").
    let name = |n: &str| (!n.trim().is_empty() && n.trim() != "?").then(|| n.trim().to_string());
    if let (Some(white), Some(black)) =
        (name(&imported.players.white), name(&imported.players.black))
    {
        s.names = [Some(white), Some(black)];
    }
    Ok(s)
}
