//! A game in memory: its connections (players and spectators), who is here, the last events,
//! and the spectators' suggestions for the move now.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use takhte_protocol::{Crowd, GameEvent, ServerMsg, Tally};
use takhte_rules::Side;

use super::{to_text, ConnHandle};
use crate::game::{Live, WatchView};

pub(super) struct Sub {
    pub(super) conn: ConnHandle,
    pub(super) seat: Option<Side>,
    /// Watching as a spectator (not a player's own connection).
    pub(super) spectator: bool,
    pub(super) token_hash: String,
    /// The number of the last event this connection has: nothing at or before it is sent to
    /// it again.
    pub(super) after: u64,
}

/// One numbered event of a game, as sent to clients.
#[derive(Clone, Debug)]
pub(super) struct Sent {
    /// Its number.
    pub(super) seq: u64,
    /// The text for whoever may see the spectators' tally of a move: spectators, and the
    /// players of an audience game. This is the text stored and passed between instances.
    pub(super) text: Arc<str>,
    /// The text for the players of any other game, where it differs: a move without the
    /// tally (players see the suggestions only once the game is over).
    pub(super) for_players: Option<Arc<str>>,
    /// The event ends the game.
    pub(super) ends: bool,
}

impl Sent {
    /// The event `seq` of game `code`.
    pub(super) fn new(code: &str, seq: u64, event: GameEvent) -> Sent {
        let ends = matches!(event, GameEvent::Ended { .. });
        let for_players = match &event {
            GameEvent::Moved {
                ply,
                mv,
                position,
                clocks,
                crowd: Some(_),
            } => Some(to_text(&ServerMsg::Event {
                code: code.to_string(),
                seq,
                event: GameEvent::Moved {
                    ply: *ply,
                    mv: mv.clone(),
                    position: position.clone(),
                    clocks: *clocks,
                    crowd: None,
                },
            })),
            _ => None,
        };
        let text = to_text(&ServerMsg::Event {
            code: code.to_string(),
            seq,
            event,
        });
        Sent {
            seq,
            text,
            for_players,
            ends,
        }
    }

    /// An event as stored or passed on by another instance (its text); `None` when the text is
    /// not an event of game `code` numbered `seq`.
    pub(super) fn parse(code: &str, seq: u64, text: &str) -> Option<Sent> {
        match serde_json::from_str::<ServerMsg>(text).ok()? {
            ServerMsg::Event {
                code: c,
                seq: s,
                event,
            } if c == code && s == seq => {
                let mut sent = Sent::new(code, seq, event);
                // The text as it was written (the same message; kept byte for byte).
                sent.text = Arc::from(text);
                Some(sent)
            }
            _ => None,
        }
    }

    /// The text for a connection that may (`tally`) or may not see a move's tally.
    pub(super) fn text_for(&self, tally: bool) -> &Arc<str> {
        match (&self.for_players, tally) {
            (Some(t), false) => t,
            _ => &self.text,
        }
    }
}

pub(super) struct RoomInner {
    pub(super) live: Live,
    pub(super) subs: HashMap<u64, Sub>,
    /// When each seated player went away (ms since the epoch); `None` while here.
    pub(super) away: [Option<u64>; 2],
    /// The last events, for clients that come back.
    pub(super) recent: VecDeque<Sent>,
    /// When the room last had a subscriber or a change.
    pub(super) touched_ms: u64,
    /// The spectators' suggestions for the move now, by token hash.
    pub(super) suggestions: HashMap<String, String>,
    /// How many times each spectator suggested for the move now.
    pub(super) changes: HashMap<String, u32>,
    /// The spectator count or the tally changed since they were last sent.
    pub(super) count_dirty: bool,
    pub(super) tally_dirty: bool,
    /// When they were last sent.
    pub(super) flushed_ms: u64,
    /// Several instances: whether each seat's player is connected to another instance, when
    /// they last left one, and the spectators on the others (instance → count, when told).
    pub(super) remote_online: [bool; 2],
    pub(super) remote_left: [u64; 2],
    pub(super) remote_spectators: HashMap<String, (u32, u64)>,
}

/// One game in memory.
pub(super) struct Room {
    pub(super) code: String,
    pub(super) inner: tokio::sync::Mutex<RoomInner>,
    /// When the running clock's flag falls (0: none), for the ticker.
    pub(super) deadline_ms: AtomicU64,
    /// Spectator counts or suggestions wait to be sent.
    pub(super) crowd_dirty: std::sync::atomic::AtomicBool,
}

impl RoomInner {
    /// Each seat: whether its player is here (on this instance or, with several instances,
    /// on another), and how long they have been gone.
    pub(super) fn presence(&self, now: u64) -> [(bool, u64); 2] {
        [0, 1].map(|i| {
            if self.live.rec.seats[i].is_none() {
                return (false, 0);
            }
            if self.away[i].is_none() || self.remote_online[i] {
                return (true, 0);
            }
            let since = self.away[i].unwrap_or(0).max(self.remote_left[i]);
            (false, now.saturating_sub(since))
        })
    }

    /// Whether a connection may see the tally of each move as it is played: a spectator, or
    /// any connection of an audience game.
    pub(super) fn sees_tallies(&self, sub: &Sub) -> bool {
        sub.spectator || self.live.rec.settings.audience
    }

    pub(super) fn online(&self, seat: Side) -> bool {
        self.subs.values().any(|s| s.seat == Some(seat))
    }

    /// Spectators watching (each player token once).
    pub(super) fn spectators(&self) -> u32 {
        self.local_spectators() + self.remote_spectators.values().map(|(n, _)| n).sum::<u32>()
    }

    /// Spectators on this instance (each player token once).
    pub(super) fn local_spectators(&self) -> u32 {
        let tokens: std::collections::HashSet<&str> = self
            .subs
            .values()
            .filter(|s| s.spectator)
            .map(|s| s.token_hash.as_str())
            .collect();
        tokens.len() as u32
    }

    /// The suggestions for the move now, most chosen first.
    pub(super) fn crowd(&self) -> Option<Crowd> {
        if self.suggestions.is_empty() {
            return None;
        }
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for mv in self.suggestions.values() {
            *counts.entry(mv.as_str()).or_insert(0) += 1;
        }
        let mut tally: Vec<Tally> = counts
            .into_iter()
            .map(|(mv, count)| Tally {
                mv: mv.to_string(),
                count,
            })
            .collect();
        tally.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
        Some(Crowd {
            tally,
            voters: self.suggestions.len() as u32,
        })
    }

    /// Whether a connection may see the suggestions now: a spectator, or in an audience game
    /// the player to move.
    pub(super) fn sees_suggestions(&self, seat: Option<Side>, spectator: bool) -> bool {
        spectator
            || (self.live.rec.settings.audience
                && seat == Some(self.live.game().side_to_move())
                && self.live.rec.end.is_none())
    }

    pub(super) fn watch_view(
        &self,
        seat: Option<Side>,
        spectator: bool,
        token_hash: &str,
    ) -> WatchView {
        WatchView {
            spectators: self.spectators(),
            suggestions: if self.sees_suggestions(seat, spectator) {
                self.crowd()
            } else {
                None
            },
            yours: if spectator {
                self.suggestions.get(token_hash).cloned()
            } else {
                None
            },
        }
    }

    /// Drops the suggestions that no longer fit the game (a move was played, or the die rolled).
    pub(super) fn prune_suggestions(&mut self) {
        let ply = self.live.rec.moves.len() as u32;
        let live = &self.live;
        let before = self.suggestions.len();
        self.suggestions
            .retain(|_, mv| live.check_suggestion(ply, mv).is_ok());
        if self.suggestions.len() != before {
            self.tally_dirty = true;
        }
    }
}
