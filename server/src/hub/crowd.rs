//! The crowd of a game on this instance, apart from the game itself: who watches (counted
//! as they come and go, each player token once), the spectators on other instances, and the
//! suggestions for the move now with their tally, kept up as each comes. It has its own lock,
//! never held across an await: a suggestion never waits for the game's lock, and a move never
//! waits behind ten thousand suggestions.

use std::collections::HashMap;

use takhte_protocol::{Crowd, Tally};

use crate::game::{Refusal, SuggestionBoard};

/// The crowd of one game.
pub(super) struct CrowdState {
    /// The spectator connections here: connection id → player token hash.
    watchers: HashMap<u64, String>,
    /// How many of those connections each spectator token has.
    tokens: HashMap<String, u32>,
    /// The spectators on the other instances: instance → (count, when told, ms).
    pub(super) remote: HashMap<String, (u32, u64)>,
    /// What a suggestion is checked against: the game as it stands.
    board: SuggestionBoard,
    /// The suggestions for the move now, by token hash.
    suggestions: HashMap<String, String>,
    /// How many times each spectator suggested for the move now.
    changes: HashMap<String, u32>,
    /// How many suggest each move.
    counts: HashMap<String, u32>,
    /// The count or the tally changed since they were last sent.
    pub(super) count_dirty: bool,
    pub(super) tally_dirty: bool,
    /// When they were last sent (ms since the epoch).
    pub(super) flushed_ms: u64,
}

/// Why a suggestion was not taken.
pub(super) enum NotTaken {
    /// The connection does not watch this game here.
    NotWatching,
    /// The same move again.
    Duplicate(String),
    /// The spectator has changed their mind too often for this move.
    TooMany,
    /// The move is not one that may be suggested now.
    Refused(Refusal),
}

impl CrowdState {
    /// The crowd of a game standing as `board` says, with nobody yet.
    pub(super) fn new(board: SuggestionBoard) -> CrowdState {
        CrowdState {
            watchers: HashMap::new(),
            tokens: HashMap::new(),
            remote: HashMap::new(),
            board,
            suggestions: HashMap::new(),
            changes: HashMap::new(),
            counts: HashMap::new(),
            count_dirty: false,
            tally_dirty: false,
            flushed_ms: 0,
        }
    }

    /// A spectator connection came (`true` if it was not here already).
    pub(super) fn watch(&mut self, conn: u64, token_hash: &str) -> bool {
        if self.watchers.contains_key(&conn) {
            return false;
        }
        self.watchers.insert(conn, token_hash.to_string());
        *self.tokens.entry(token_hash.to_string()).or_insert(0) += 1;
        self.count_dirty = true;
        true
    }

    /// A spectator connection left.
    pub(super) fn unwatch(&mut self, conn: u64) {
        let Some(token) = self.watchers.remove(&conn) else {
            return;
        };
        if let Some(n) = self.tokens.get_mut(&token) {
            *n -= 1;
            if *n == 0 {
                self.tokens.remove(&token);
            }
        }
        self.count_dirty = true;
    }

    /// Whether this connection watches here.
    pub(super) fn watching(&self, conn: u64) -> bool {
        self.watchers.contains_key(&conn)
    }

    /// Spectators here (each player token once).
    pub(super) fn local(&self) -> u32 {
        self.tokens.len() as u32
    }

    /// Spectators here and on the other instances.
    pub(super) fn total(&self) -> u32 {
        self.local() + self.remote.values().map(|(n, _)| n).sum::<u32>()
    }

    /// A spectator's suggestion for the move at `ply`, taken or refused.
    pub(super) fn suggest(
        &mut self,
        conn: u64,
        token_hash: &str,
        ply: u32,
        mv: &str,
        max_changes: u32,
    ) -> Result<String, NotTaken> {
        if !self.watching(conn) {
            return Err(NotTaken::NotWatching);
        }
        let text = self.board.check(ply, mv).map_err(NotTaken::Refused)?;
        if self.suggestions.get(token_hash) == Some(&text) {
            return Err(NotTaken::Duplicate(text));
        }
        let n = self.changes.get(token_hash).copied().unwrap_or(0);
        if n >= max_changes {
            return Err(NotTaken::TooMany);
        }
        self.changes.insert(token_hash.to_string(), n + 1);
        self.put(token_hash, text.clone());
        Ok(text)
    }

    /// A suggestion made on another instance for the move at `ply` (kept if it is the move
    /// now).
    pub(super) fn remote_suggestion(&mut self, ply: u32, token_hash: &str, mv: String) {
        if ply == self.board.ply() {
            self.put(token_hash, mv);
        }
    }

    fn put(&mut self, token_hash: &str, mv: String) {
        if let Some(old) = self.suggestions.insert(token_hash.to_string(), mv.clone()) {
            self.uncount(&old);
        }
        *self.counts.entry(mv).or_insert(0) += 1;
        self.tally_dirty = true;
    }

    fn uncount(&mut self, mv: &str) {
        if let Some(c) = self.counts.get_mut(mv) {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(mv);
            }
        }
    }

    /// The game moved on (or was rolled for): suggestions are checked against `board` from
    /// now on. A move played takes its suggestions with it; otherwise those that no longer
    /// fit (the die was rolled) go.
    pub(super) fn moved_on(&mut self, board: SuggestionBoard) {
        let played = board.ply() != self.board.ply() || !board.open();
        self.board = board;
        if played {
            self.suggestions.clear();
            self.changes.clear();
            self.counts.clear();
            // A tally sent now would be of the move just played: the move carried it.
            self.tally_dirty = false;
            return;
        }
        let ply = self.board.ply();
        let stale: Vec<(String, String)> = self
            .suggestions
            .iter()
            .filter(|(_, mv)| self.board.check(ply, mv).is_err())
            .map(|(t, mv)| (t.clone(), mv.clone()))
            .collect();
        for (token, mv) in stale {
            self.suggestions.remove(&token);
            self.uncount(&mv);
            self.tally_dirty = true;
        }
    }

    /// The ply the suggestions are for.
    pub(super) fn ply(&self) -> u32 {
        self.board.ply()
    }

    /// The suggestions for the move now, most chosen first.
    pub(super) fn tally(&self) -> Option<Crowd> {
        if self.suggestions.is_empty() {
            return None;
        }
        let mut tally: Vec<Tally> = self
            .counts
            .iter()
            .map(|(mv, count)| Tally {
                mv: mv.clone(),
                count: *count,
            })
            .collect();
        tally.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
        Some(Crowd {
            tally,
            voters: self.suggestions.len() as u32,
        })
    }

    /// A spectator's own suggestion for the move now.
    pub(super) fn suggestion_of(&self, token_hash: &str) -> Option<String> {
        self.suggestions.get(token_hash).cloned()
    }
}
