//! The plain records the store keeps: a saved game, the settings and the statistics.
//!
//! These are serde structs written as JSON with snake_case field names. They know nothing of
//! sessions or rules: the session layer converts itself to and from a [`GameRecord`]. Every record
//! carries a `schema` number; a file written by a newer version (a larger number) is reported as
//! damaged instead of being half-read.

use serde::{Deserialize, Serialize};

/// The layout version this build writes and reads, stored in every file as `schema`.
///
/// A file with a larger number was saved by a newer version of Takhte and is not read (it is
/// listed as damaged, and left on disk untouched).
pub const SCHEMA_VERSION: u32 = 1;

/// One saved game: enough to replay it from the start to where it was left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Layout version of this record; the store always writes [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The game's id, also its file name (`games/<id>.json`); see [`Store::new_id`].
    ///
    /// [`Store::new_id`]: super::Store::new_id
    pub id: String,
    /// Which game: `"chess"`, `"dice-chess"`, `"draughts"` or `"mine-chess"`.
    pub kind: String,
    /// The start position as position text, or `None` for the game's standard start.
    pub start_position: Option<String>,
    /// Seed of the mine layout (minesweeper chess); other games ignore it.
    pub seed: u64,
    /// Dice chess: the die pairs rolled at the start; empty for the other games.
    pub start_rolls: Vec<(u8, u8)>,
    /// Every move played, in machine notation (`"e2e4"`, `"3:b2c4"`, `"1:-"`, `"c3xc5xe5"`,
    /// `"e2^"`), including moves undone but still redoable after the cursor.
    pub moves: Vec<String>,
    /// How many of `moves` were applied when saved (the undo/review position); at most
    /// `moves.len()`.
    pub cursor: usize,
    /// Who plays: the computer or pass-and-play, and how.
    pub mode: ModeRecord,
    /// The clocks, or `None` for an untimed game.
    pub clock: Option<ClockRecord>,
    /// How the game ended, or `None` while it is still going on.
    pub result: Option<ResultRecord>,
    /// Dice chess: a face rolled and not yet used when the game was saved (files from before
    /// this field read as `None`).
    #[serde(default)]
    pub pending_roll: Option<u8>,
    /// The players' names, White's then Black's, when the game has them (a game read from a
    /// shared text keeps its `White` and `Black` tags); files from before read as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[String; 2]>,
    /// When the game was started, in seconds since the Unix epoch.
    pub created_unix: u64,
    /// When the game was last saved, in seconds since the Unix epoch; lists sort on it.
    pub updated_unix: u64,
}

impl GameRecord {
    /// A new record for a game just started at `now_unix`: standard start, no moves, no clock,
    /// no result, seed 0 and no start rolls (set those fields as the game needs).
    pub fn new(
        id: impl Into<String>,
        kind: impl Into<String>,
        mode: ModeRecord,
        now_unix: u64,
    ) -> Self {
        GameRecord {
            schema: SCHEMA_VERSION,
            id: id.into(),
            kind: kind.into(),
            start_position: None,
            seed: 0,
            start_rolls: Vec::new(),
            moves: Vec::new(),
            cursor: 0,
            mode,
            clock: None,
            result: None,
            pending_roll: None,
            players: None,
            created_unix: now_unix,
            updated_unix: now_unix,
        }
    }
}

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opponent {
    /// One person against the computer; written `"computer"`.
    Computer,
    /// Two people on one device; written `"pass-and-play"`.
    PassAndPlay,
    /// Against a player on another device, through a game server; written `"online"`. The
    /// game lives on the server: such a record is a copy to look at, not a game to resume here.
    Online,
}

/// How a game is played: against whom, at which level, from which side, in which layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeRecord {
    /// The computer or pass-and-play.
    pub opponent: Opponent,
    /// The computer's strength level; `None` for pass-and-play.
    pub level: Option<u8>,
    /// The side the person plays against the computer: `"white"` or `"black"`; `None` for
    /// pass-and-play.
    pub human_side: Option<String>,
    /// Pass-and-play board layout: `"rotate"` or `"face-to-face"`; `None` against the computer.
    pub layout: Option<String>,
}

/// The clocks of a timed game, as they stood when saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRecord {
    /// Starting time for each side, in milliseconds.
    pub base_ms: u64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: u64,
    /// White's remaining time, in milliseconds.
    pub white_ms: u64,
    /// Black's remaining time, in milliseconds.
    pub black_ms: u64,
    /// Whether a clock was running when saved.
    pub running: bool,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// `"white"` or `"black"`, or `None` for a draw.
    pub winner: Option<String>,
    /// Why it ended, e.g. `"checkmate"`, `"resignation"`, `"agreement"`, `"time"`.
    pub reason: String,
}

/// The app's settings (`settings.json`).
///
/// Missing fields take their [`Default`] values and unknown fields are ignored, so a file from an
/// older or slightly newer version still loads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Layout version; the store always writes [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The interface language (`"fa"`, `"en"`, …), or `None` to follow the system.
    pub language: Option<String>,
    /// The board and piece theme; `"classic"` by default.
    pub theme: String,
    /// Whether sounds play.
    pub sound: bool,
    /// Whether the legal targets of a selected piece are marked.
    pub show_legal_moves: bool,
    /// Whether the board shows file and rank coordinates.
    pub coordinates: bool,
    /// Piece animation: `"off"`, `"fast"`, `"normal"` or `"slow"`.
    pub animation_speed: String,
    /// Pass-and-play board turning: `"rotate"`, `"face-to-face"` or `"none"`.
    pub pass_and_play_rotation: String,
    /// The game server's address for online play (`HOST:PORT` or `ws://…`), if set.
    pub server: Option<String>,
    /// The display name shown to online opponents (may be empty).
    pub player_name: String,
    /// Chess moves written with piece letters (`Nf3`) instead of figurines (`♘f3`).
    pub move_letters: bool,
    /// The last new game's choices, offered again: game, against the computer, level,
    /// playing White, time control (index into the presets, -1 for none).
    pub last_new_game: Option<LastNewGame>,
}

/// The choices of the last new game (see [`Settings::last_new_game`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastNewGame {
    /// The game kind's machine name.
    pub kind: String,
    /// Against the computer (else two players on this device).
    pub computer: bool,
    /// The computer's level.
    pub level: u8,
    /// Whether the player took White.
    pub white: bool,
    /// The time control: an index into the presets, or -1 for none.
    pub time: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            schema: SCHEMA_VERSION,
            language: None,
            theme: "classic".to_string(),
            sound: true,
            show_legal_moves: true,
            coordinates: true,
            animation_speed: "normal".to_string(),
            pass_and_play_rotation: "rotate".to_string(),
            server: None,
            player_name: String::new(),
            move_letters: false,
            last_new_game: None,
        }
    }
}

/// The player's identity for online play (`identity.json`): a random token made on first
/// start. Only the token that holds a seat can move for it; the server keeps only its hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// 32 hex digits.
    pub token: String,
}

/// An online game the player sits at, remembered on the device (`online.json`) so the home
/// screen can list it before the server answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineGame {
    /// The invite code.
    pub code: String,
    /// The server it lives on.
    pub server: String,
    /// The game kind's machine name.
    pub kind: String,
    /// The player's side, `white` or `black`.
    pub side: String,
    /// The opponent's name, once someone joined.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Whether it was the player's turn when last heard.
    #[serde(default)]
    pub your_turn: bool,
    /// When it was last heard of (seconds since the Unix epoch).
    pub updated_unix: u64,
}

/// The online games remembered on the device.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineGames {
    /// Newest first.
    pub games: Vec<OnlineGame>,
}

/// Win/draw/loss counts (`stats.json`), one entry per game kind, mode and level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Layout version; the store always writes [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The counts, in the order they were first recorded.
    pub entries: Vec<StatEntry>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            schema: SCHEMA_VERSION,
            entries: Vec::new(),
        }
    }
}

/// The counts for one game kind, mode and level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatEntry {
    /// Which game, as in [`GameRecord::kind`].
    pub kind: String,
    /// `"computer"` or `"pass-and-play"`.
    pub mode: String,
    /// The computer's level, or `None` for pass-and-play.
    pub level: Option<u8>,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The outcome of one finished game, from the point of view the caller counts for (the person
/// against the computer; for pass-and-play the caller decides, e.g. White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatOutcome {
    /// A game won.
    Win,
    /// A game drawn.
    Draw,
    /// A game lost.
    Loss,
}

impl Stats {
    /// Counts one finished game, adding an entry for this kind, mode and level if there is none.
    /// Counts saturate instead of overflowing.
    pub fn record(&mut self, kind: &str, mode: &str, level: Option<u8>, outcome: StatOutcome) {
        let index = match self.position(kind, mode, level) {
            Some(index) => index,
            None => {
                self.entries.push(StatEntry {
                    kind: kind.to_string(),
                    mode: mode.to_string(),
                    level,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                });
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[index];
        let count = match outcome {
            StatOutcome::Win => &mut entry.wins,
            StatOutcome::Draw => &mut entry.draws,
            StatOutcome::Loss => &mut entry.losses,
        };
        *count = count.saturating_add(1);
    }

    /// The counts for this kind, mode and level, or `None` if no such game was recorded yet.
    pub fn get(&self, kind: &str, mode: &str, level: Option<u8>) -> Option<&StatEntry> {
        self.position(kind, mode, level)
            .map(|index| &self.entries[index])
    }

    fn position(&self, kind: &str, mode: &str, level: Option<u8>) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.kind == kind && e.mode == mode && e.level == level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_written_in_kebab_case() {
        assert_eq!(
            serde_json::to_string(&Opponent::Computer).unwrap(),
            "\"computer\""
        );
        assert_eq!(
            serde_json::to_string(&Opponent::PassAndPlay).unwrap(),
            "\"pass-and-play\""
        );
    }

    #[test]
    fn game_record_json_uses_snake_case_and_pairs_for_rolls() {
        let mut game = GameRecord::new(
            "x",
            "dice-chess",
            ModeRecord {
                opponent: Opponent::Computer,
                level: Some(3),
                human_side: Some("white".into()),
                layout: None,
            },
            7,
        );
        game.start_rolls = vec![(3, 5)];
        let text = serde_json::to_string(&game).unwrap();
        assert!(text.contains("\"start_rolls\":[[3,5]]"), "{text}");
        assert!(text.contains("\"created_unix\":7"), "{text}");
        let back: GameRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
    }

    #[test]
    fn settings_fill_missing_fields_and_ignore_unknown_ones() {
        let settings: Settings =
            serde_json::from_str(r#"{"sound": false, "future_thing": [1, 2]}"#).unwrap();
        assert_eq!(
            settings,
            Settings {
                sound: false,
                ..Settings::default()
            }
        );
    }

    #[test]
    fn stats_count_per_kind_mode_and_level() {
        let mut stats = Stats::default();
        stats.record("chess", "computer", Some(2), StatOutcome::Win);
        stats.record("chess", "computer", Some(2), StatOutcome::Win);
        stats.record("chess", "computer", Some(3), StatOutcome::Loss);
        stats.record("draughts", "pass-and-play", None, StatOutcome::Draw);
        let entry = stats.get("chess", "computer", Some(2)).unwrap();
        assert_eq!((entry.wins, entry.draws, entry.losses), (2, 0, 0));
        assert_eq!(stats.get("chess", "computer", Some(3)).unwrap().losses, 1);
        assert_eq!(
            stats.get("draughts", "pass-and-play", None).unwrap().draws,
            1
        );
        assert!(stats.get("chess", "pass-and-play", None).is_none());
        assert_eq!(stats.entries.len(), 3);
    }
}
