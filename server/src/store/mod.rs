//! Where games are kept: a trait with one implementation per database.
//!
//! A game's record is written before anything is told to a client. Updates are conditional on
//! the number of the game's last event (`seq`): an update written against an older record is a
//! [`StoreError::Conflict`] and lands nothing, so two writers can never both move one game.
//! Schema changes are numbered files under `migrations/`, applied at start.

pub mod postgres;
pub mod sqlite;

use async_trait::async_trait;

use crate::game::{GameRecord, Stage};

/// What went wrong in the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The record changed since it was read (or the code is taken, for an insert).
    Conflict,
    /// The database cannot be reached or refused the write; nothing was changed.
    Unavailable(String),
    /// A stored record does not read.
    Corrupt(String),
    /// A player already sits at as many games that have not ended as one may (a
    /// [`Write::OpenGamesBelow`] failed); nothing was changed.
    TooManyGames {
        /// The player's token hash.
        token_hash: String,
        /// Their games that have not ended.
        open: usize,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict => write!(f, "the game changed meanwhile"),
            StoreError::Unavailable(e) => write!(f, "database unavailable: {e}"),
            StoreError::Corrupt(e) => write!(f, "a stored game does not read: {e}"),
            StoreError::TooManyGames { open, .. } => {
                write!(f, "a player has {open} games that have not ended")
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// One change, written with others in one transaction.
#[derive(Clone, Debug)]
pub enum Write {
    /// A condition, checked in the transaction before the writes after it: each of these
    /// players (token hashes) sits at fewer than `max` games that have not ended. Otherwise
    /// the whole transaction fails with [`StoreError::TooManyGames`]. Checked in the database,
    /// so that the limit holds across every instance of a cluster.
    OpenGamesBelow {
        /// The players.
        players: Vec<String>,
        /// The limit.
        max: usize,
    },
    /// A new game (its code must be free).
    Insert(GameRecord),
    /// The create request `request` of the player `token_hash` made the game `code` (or, with
    /// an empty code, was cancelled). A request already noted is a [`StoreError::Conflict`].
    Request {
        /// The player.
        token_hash: String,
        /// The client's request id.
        request: String,
        /// The game it made; empty: cancelled.
        code: String,
    },
    /// A game changed; lands only if its stored `seq` is still `expected_seq`.
    Update {
        /// The new record.
        rec: GameRecord,
        /// The `seq` of the record it replaces.
        expected_seq: u64,
        /// The change's numbered events, as sent to clients.
        events: Vec<(u64, String)>,
    },
}

/// The columns a record is indexed by.
pub struct Columns<'a> {
    /// The code.
    pub code: &'a str,
    /// The game kind word.
    pub kind: &'static str,
    /// The stage word.
    pub stage: &'static str,
    /// Listed in the lobby.
    pub public: bool,
    /// White's token hash.
    pub white: Option<&'a str>,
    /// Black's token hash.
    pub black: Option<&'a str>,
    /// When the running clock's flag falls.
    pub deadline_ms: Option<i64>,
}

impl<'a> Columns<'a> {
    /// The columns of `rec`.
    pub fn of(rec: &'a GameRecord) -> Columns<'a> {
        Columns {
            code: &rec.code,
            kind: rec.kind().name(),
            stage: rec.stage().word(),
            public: rec.settings.public,
            white: rec.seats[0].as_ref().map(|s| s.token_hash.as_str()),
            black: rec.seats[1].as_ref().map(|s| s.token_hash.as_str()),
            deadline_ms: rec.deadline_ms().map(|d| d as i64),
        }
    }
}

/// Checks [`Write::OpenGamesBelow`] with `count` (a player's games not ended): an error for the
/// first player at the limit.
pub fn open_games_check(
    players: &[String],
    max: usize,
    mut count: impl FnMut(&str) -> Result<usize, StoreError>,
) -> Result<(), StoreError> {
    for p in players {
        let open = count(p)?;
        if open >= max {
            return Err(StoreError::TooManyGames {
                token_hash: p.clone(),
                open,
            });
        }
    }
    Ok(())
}

/// Reads a stored record.
pub fn parse_record(json: &str) -> Result<GameRecord, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// Storage of games.
#[async_trait]
pub trait Storage: Send + Sync + 'static {
    /// The game with this code.
    async fn load(&self, code: &str) -> Result<Option<GameRecord>, StoreError>;
    /// Writes all of `writes`, or none of them.
    async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError>;
    /// The games of a player (by token hash) that have not ended, newest first.
    async fn games_of(&self, token_hash: &str) -> Result<Vec<GameRecord>, StoreError>;
    /// Games at `stage` (newest first, at most `limit`), public ones only if `public_only`.
    async fn at_stage(
        &self,
        stage: Stage,
        public_only: bool,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError>;
    /// The events of a game after number `since` (at most `limit`), in order.
    async fn events_since(
        &self,
        code: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError>;
    /// The number of the last event of each of these games.
    async fn seqs(&self, codes: &[String]) -> Result<Vec<(String, u64)>, StoreError>;
    /// Games whose running clock's flag has fallen by `now_ms` (at most `limit`).
    async fn due(&self, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError>;
    /// The heartbeat of the servers on this store: sets the last time a server was known to
    /// run to `now_ms` and returns the time before, when it is more than `stale_after_ms` old
    /// (the servers were all stopped, or paused, since then). Atomic: of several instances
    /// calling at once after an outage exactly one is given it, so it is credited once.
    async fn beat(&self, now_ms: u64, stale_after_ms: u64) -> Result<Option<u64>, StoreError>;
    /// What the create request `request` of the player `token_hash` made: the game's code,
    /// an empty code for a cancelled request, `None` for a request not seen.
    async fn created(&self, token_hash: &str, request: &str) -> Result<Option<String>, StoreError>;
    /// One line for the log: which database.
    fn describe(&self) -> String;
}
