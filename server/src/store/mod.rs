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
    /// A player's public id and the name they play under now.
    Player {
        /// The player.
        token_hash: String,
        /// Their public id.
        id: String,
        /// Their name.
        name: String,
    },
    /// A finished game counted in a player's standing in its kind (created if new): the
    /// rating moved by `rating_delta` with its new deviation and volatility (a rated game),
    /// the result, the colour played. Added to what is stored, so that games ending at once
    /// on two instances both count.
    Standing(StandingChange),
    /// One more rated game between these two players (a, b in order) on this day.
    RatedPair {
        /// The player whose hash sorts first.
        a: String,
        /// The other.
        b: String,
        /// The day (days since the Unix epoch, UTC).
        day: i64,
    },
    /// A player left a rated game before it ended (the win was claimed against them).
    Abandoned {
        /// The player.
        token_hash: String,
        /// When.
        at_ms: u64,
    },
    /// A player waits in a quick pairing pool (their seek replaces any other).
    Seek(SeekRow),
    /// A player leaves the pool: their seek goes (one already paired only with `paired`).
    Unseek {
        /// The player.
        token_hash: String,
        /// Also a seek that has been paired (its game told).
        paired: bool,
    },
    /// These seekers' connections are still there.
    Alive {
        /// The players.
        token_hashes: Vec<String>,
        /// Now.
        at_ms: u64,
    },
    /// Two seekers paired into the game `code`: lands only if neither was paired before (a
    /// pairing is never made twice for one player), else a [`StoreError::Conflict`].
    Pair {
        /// One seeker.
        a: String,
        /// The other.
        b: String,
        /// Their game.
        code: String,
        /// When.
        at_ms: u64,
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

/// A player as the store keeps them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    /// Their token's hash.
    pub token_hash: String,
    /// Their public id.
    pub id: String,
    /// The name they last played under.
    pub name: String,
    /// Rated games they left before the end (claimed against them).
    pub abandons: u32,
    /// When they last did.
    pub last_abandon_ms: u64,
}

/// A player's standing in one game kind.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Standing {
    /// Their rating.
    pub glicko: crate::rating::Glicko,
    /// Rated games played.
    pub rated_games: u32,
    /// Games played to an end (aborted games not counted).
    pub played: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Games played as White.
    pub whites: u32,
    /// As Black.
    pub blacks: u32,
}

/// What a finished game adds to a player's standing ([`Write::Standing`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StandingChange {
    /// The player.
    pub token_hash: String,
    /// The game kind's word.
    pub kind: String,
    /// A rated game: the rating's change, and the new deviation and volatility.
    pub rated: Option<(f64, f64, f64)>,
    /// Won, drawn, lost (one of them 1).
    pub result: [u32; 3],
    /// Played as White (1, 0) or Black (0, 1).
    pub colour: [u32; 2],
}

/// A player waiting in a quick pairing pool.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// The player.
    pub token_hash: String,
    /// The pool's key ([`takhte_protocol::rating::PoolChoice::key`]).
    pub pool: String,
    /// Their name.
    pub name: String,
    /// Their rating in the pool's game.
    pub rating: f64,
    /// Since when they wait.
    pub since_ms: u64,
    /// When their connection was last seen.
    pub alive_ms: u64,
    /// Before this they are not paired (a wait for leaving rated games).
    pub not_before_ms: u64,
    /// The game they were paired into, once they were.
    pub paired_code: Option<String>,
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
    /// A player, by token hash.
    async fn player(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError>;
    /// A player, by public id.
    async fn player_by_id(&self, id: &str) -> Result<Option<PlayerRow>, StoreError>;
    /// A player's standing in each kind they have played (the kind's word, the standing).
    async fn standings(&self, token_hash: &str) -> Result<Vec<(String, Standing)>, StoreError>;
    /// Rated games between `a` and `b` (in order) on `day`.
    async fn rated_pairs(&self, a: &str, b: &str, day: i64) -> Result<u32, StoreError>;
    /// The best players of a kind whose deviation is at most `max_deviation` (established),
    /// best first, at most `limit`.
    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: usize,
    ) -> Result<Vec<(PlayerRow, Standing)>, StoreError>;
    /// How many established players of a kind rate above `rating`.
    async fn rated_above(
        &self,
        kind: &str,
        max_deviation: f64,
        rating: f64,
    ) -> Result<u32, StoreError>;
    /// A player's ended games, newest first, at most `limit`.
    async fn ended_games_of(
        &self,
        token_hash: &str,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError>;
    /// The seeks not paired yet whose connections were seen since `alive_since_ms`.
    async fn open_seeks(&self, alive_since_ms: u64) -> Result<Vec<SeekRow>, StoreError>;
    /// The seeks of these players (paired or not).
    async fn seeks_of(&self, token_hashes: &[String]) -> Result<Vec<SeekRow>, StoreError>;
    /// Seeks paired before `before_ms` (their game long told) go.
    async fn forget_seeks(&self, before_ms: u64) -> Result<(), StoreError>;
    /// One line for the log: which database.
    fn describe(&self) -> String;
}
