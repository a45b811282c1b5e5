//! A game in memory: its connections (players and spectators), who is here, the last events,
//! and the spectators' feed and crowd (apart from the game's lock).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use takhte_protocol::{Crowd, GameEvent, ServerMsg};
use takhte_rules::Side;

use super::crowd::CrowdState;
use super::{lock, to_text, ConnHandle};
use crate::game::{Live, WatchView};

/// How many frames the spectators' feed keeps for a spectator that is behind: one that falls
/// further behind is sent the game as it stands instead of every step.
pub(super) const FEED_FRAMES: usize = 64;

/// A frame of the spectators' feed: one text, made once, shared by every spectator connection.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The event's number (0: a count or a tally, which carries no number).
    pub seq: u64,
    /// The message.
    pub text: Arc<str>,
}

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
    /// The crowd (the same as the room's: reached from here too).
    pub(super) crowd: Arc<std::sync::Mutex<CrowdState>>,
    /// Several instances: whether each seat's player is connected to another instance, and
    /// when they last left one.
    pub(super) remote_online: [bool; 2],
    pub(super) remote_left: [u64; 2],
}

/// One game in memory.
pub(super) struct Room {
    pub(super) code: String,
    pub(super) inner: tokio::sync::Mutex<RoomInner>,
    /// When the running clock's flag falls (0: none), for the ticker.
    pub(super) deadline_ms: AtomicU64,
    /// Spectator counts or suggestions wait to be sent.
    pub(super) crowd_dirty: std::sync::atomic::AtomicBool,
    /// Who watches and what they suggest, under a lock of its own (never held across an
    /// await): suggestions never wait for the game's lock.
    pub(super) crowd: Arc<std::sync::Mutex<CrowdState>>,
    /// The spectators' feed: each event and each count or tally, one shared frame for all the
    /// spectator connections here, each reading at its own pace from a bounded ring.
    pub(super) feed: tokio::sync::broadcast::Sender<Frame>,
    /// The game as a spectator who fell behind is sent it: (its event number, the message),
    /// made once for all of them.
    pub(super) resync: tokio::sync::Mutex<Option<(u64, Arc<str>)>>,
}

impl Room {
    /// The crowd, locked (briefly: nothing awaits while it is held).
    pub(super) fn crowd(&self) -> std::sync::MutexGuard<'_, CrowdState> {
        lock(&self.crowd)
    }

    /// The game as a spectator sees it now, to send one that fell behind: its number and the
    /// message (made once per event number for all of them; the game's lock is taken only by
    /// the first).
    pub(super) async fn spectator_state(&self) -> (u64, Arc<str>) {
        let mut cache = self.resync.lock().await;
        let inner = self.inner.lock().await;
        let seq = inner.live.rec.seq;
        if let Some((s, text)) = cache.as_ref() {
            if *s == seq {
                return (*s, Arc::clone(text));
            }
        }
        let now = crate::now_ms();
        let view = inner.watch_view(None, true, "");
        let state = inner.live.state_for(None, inner.presence(now), now, &view);
        let text = to_text(&ServerMsg::State { state });
        *cache = Some((seq, Arc::clone(&text)));
        (seq, text)
    }
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

    /// Spectators watching here and on the other instances (each player token once).
    pub(super) fn spectators(&self) -> u32 {
        lock(&self.crowd).total()
    }

    /// The suggestions for the move now, most chosen first.
    pub(super) fn crowd(&self) -> Option<Crowd> {
        lock(&self.crowd).tally()
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
        let sees = self.sees_suggestions(seat, spectator);
        let crowd = lock(&self.crowd);
        WatchView {
            spectators: crowd.total(),
            suggestions: if sees { crowd.tally() } else { None },
            yours: if spectator {
                crowd.suggestion_of(token_hash)
            } else {
                None
            },
        }
    }

    /// The game moved on (a move, a roll, the end, another instance's news): suggestions are
    /// checked against it from now on; a move takes its suggestions with it, a roll drops
    /// those that no longer fit.
    pub(super) fn crowd_moved_on(&self) {
        lock(&self.crowd).moved_on(self.live.suggestion_board());
    }
}
