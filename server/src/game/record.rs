//! The stored record of a game and the words of a request: who asks, what, and when.

use serde::{Deserialize, Serialize};

use takhte_protocol::{Crowd, EndState, ErrorCode, GameSettings};
use takhte_protocol::{CLAIM_AFTER_MS, LAG_ALLOWANCE_MS};
use takhte_rules::{GameKind, Side};

/// The shortest and longest base times and the largest increment a game may have.
pub const MIN_BASE_MS: u64 = 1_000;
/// See [`MIN_BASE_MS`].
pub const MAX_BASE_MS: u64 = 3 * 3_600_000;
/// See [`MIN_BASE_MS`].
pub const MAX_INCREMENT_MS: u64 = 180_000;

/// One seat: who sits there (a hash of their token) and the name they show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// SHA-256 of the player token, hex.
    pub token_hash: String,
    /// The display name.
    pub name: String,
    /// In a rated game, the player's rating in its kind when the game began.
    #[serde(default)]
    pub rating: Option<takhte_protocol::rating::Rating>,
}

/// The running clocks: time left at the last change and, for the running side, since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRun {
    /// White's and Black's time left at `since_ms` (or when stopped).
    pub remaining: [u64; 2],
    /// The side whose clock runs: 0 White, 1 Black.
    pub running: Option<u8>,
    /// When the running clock started (milliseconds since the Unix epoch).
    pub since_ms: u64,
}

/// The stored record of a game: everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Record layout version.
    pub version: u32,
    /// The invite code (the game's key).
    pub code: String,
    /// What the creator chose.
    pub settings: GameSettings,
    /// When it was created (ms since the Unix epoch).
    pub created_ms: u64,
    /// When it last changed.
    pub updated_ms: u64,
    /// The mine seed (minesweeper chess). Never sent to a client.
    pub seed: u64,
    /// Dice chess start rolls.
    pub start_rolls: Vec<(u8, u8)>,
    /// White's and Black's seats.
    pub seats: [Option<Seat>; 2],
    /// The moves, machine notation.
    pub moves: Vec<String>,
    /// Dice chess: the face rolled for the turn now.
    pub rolled: Option<u8>,
    /// The clocks.
    pub clock: Option<ClockRun>,
    /// A pending draw offer by White (0) or Black (1).
    pub draw_offer: Option<u8>,
    /// How many moves the game had when White and Black last offered a draw (one offer per
    /// move each).
    #[serde(default)]
    pub draw_offered_at: [Option<u32>; 2],
    /// A pending rematch offer.
    pub rematch_offer: Option<u8>,
    /// The rematch game's code.
    pub rematch: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// How it ended.
    pub end: Option<EndState>,
    /// The number of the last event.
    pub seq: u64,
    /// Who created it (token hash): the lobby shows the creator's name.
    pub creator: String,
    /// What the spectators had suggested before each move (`crowd[i]`: before move `i`).
    #[serde(default)]
    pub crowd: Vec<Option<Crowd>>,
}

/// The record's layout version.
pub const RECORD_VERSION: u32 = 1;

/// The stage of a game, as the store indexes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A seat is free.
    Waiting,
    /// Both seats taken, not ended.
    Playing,
    /// Ended (or aborted).
    Ended,
}

impl Stage {
    /// The stored word.
    pub fn word(self) -> &'static str {
        match self {
            Stage::Waiting => "waiting",
            Stage::Playing => "playing",
            Stage::Ended => "ended",
        }
    }
}

impl GameRecord {
    /// The stage.
    pub fn stage(&self) -> Stage {
        if self.end.is_some() {
            Stage::Ended
        } else if self.seats.iter().all(Option::is_some) {
            Stage::Playing
        } else {
            Stage::Waiting
        }
    }

    /// The seat a token hash holds.
    pub fn seat_of(&self, token_hash: &str) -> Option<Side> {
        [Side::White, Side::Black].into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|x| x.token_hash == token_hash)
        })
    }

    /// The game kind.
    pub fn kind(&self) -> GameKind {
        self.settings.kind
    }

    /// When the running clock's flag falls (ms since the Unix epoch), lag allowance included.
    pub fn deadline_ms(&self) -> Option<u64> {
        if self.end.is_some() {
            return None;
        }
        let c = self.clock?;
        let side = c.running? as usize;
        Some(c.since_ms + c.remaining[side] + LAG_ALLOWANCE_MS)
    }
}

/// A refusal: what was wrong, and one line of English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The error code sent to the client.
    pub code: ErrorCode,
    /// The message.
    pub message: String,
}

pub(crate) fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        code,
        message: message.into(),
    })
}

/// What a player asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Take the free seat (or, already seated, nothing).
    Join,
    /// Play a move at a ply.
    Move {
        /// The number of moves before it.
        ply: u32,
        /// The move text.
        mv: String,
    },
    /// Roll the die for the turn at a ply.
    Roll {
        /// The number of moves before the turn.
        ply: u32,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Answer a draw offer.
    AnswerDraw(bool),
    /// Call the game off before each side has moved.
    Abort,
    /// Claim the win over an opponent who has gone.
    ClaimWin,
    /// Offer or accept a rematch.
    Rematch,
    /// Change the display name.
    Rename(String),
}

/// Who asks.
#[derive(Clone, Debug)]
pub struct Actor {
    /// The token hash.
    pub token_hash: String,
    /// The display name.
    pub name: String,
}

/// When a request is applied, and what the hub knows beside the game.
#[derive(Clone, Debug)]
pub struct Context {
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: u64,
    /// How long the actor's opponent has been gone.
    pub opponent_away_ms: u64,
    /// How long an opponent must be gone before the win can be claimed.
    pub claim_after_ms: u64,
    /// What the spectators suggest for the move now (kept with the move when it is played).
    pub crowd: Option<Crowd>,
}

impl Context {
    /// A context at `now_ms` with the opponent here and the standard claim time.
    pub fn at(now_ms: u64) -> Context {
        Context {
            now_ms,
            opponent_away_ms: 0,
            claim_after_ms: CLAIM_AFTER_MS,
            crowd: None,
        }
    }
}

/// What applying a request produced beyond events.
#[derive(Debug, Default)]
pub struct Effects {
    /// A new game to store with this change (a rematch).
    pub new_game: Option<GameRecord>,
}
