//! What a connection must remember to come back after a loss, whatever carries it: the games
//! it has open with the number of the last event seen, the joins not yet answered, the games
//! watched, the moves and rolls the server has not confirmed, and the name to greet with.
//!
//! After a reconnection the transport says [`Book::hello`], then sends [`Book::resume`]: every
//! game reopened with the last event seen (so the server sends only what was missed; a join
//! not answered is sent again), and every move not confirmed (its ply makes a second copy
//! harmless).

use std::collections::{BTreeMap, BTreeSet};

use takhte_protocol::{ClientMsg, ErrorCode, GameEvent, ServerMsg, PROTOCOL_VERSION};

/// The reconnection book of one connection.
#[derive(Clone, Debug, Default)]
pub struct Book {
    token: String,
    /// The name to greet with (changed by `set-name`).
    name: String,
    /// Open games and the number of the last event seen (`None`: the state is not here yet).
    open: BTreeMap<String, Option<u64>>,
    /// Moves and rolls sent and not yet confirmed, by game and ply.
    unconfirmed: BTreeMap<(String, u32), ClientMsg>,
    /// Games joined whose state has not come yet.
    joins: BTreeSet<String>,
    /// Games watched as a spectator (reopened with `watch`).
    watched: BTreeSet<String>,
    /// Creates sent and not answered, by request id (sent again: the server makes one game
    /// of a request however often it comes).
    creates: BTreeMap<String, ClientMsg>,
    /// Creates called off and not confirmed (the call-off is sent again).
    cancels: BTreeSet<String>,
    /// The quick pairing pool waited in (the seek is sent again: a connection that closes
    /// leaves the pool, and a pairing made meanwhile is told to the seek that comes back).
    seek: Option<ClientMsg>,
}

impl Book {
    /// A book for the player `token` greeting as `name`.
    pub fn new(token: &str, name: &str) -> Book {
        Book {
            token: token.to_string(),
            name: name.to_string(),
            ..Book::default()
        }
    }

    /// The greeting.
    pub fn hello(&self) -> ClientMsg {
        ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            token: self.token.clone(),
            name: self.name.clone(),
        }
    }

    /// Notes what a message sent (or about to be) means for coming back.
    pub fn sent(&mut self, m: &ClientMsg) {
        match m {
            ClientMsg::Open { code, .. } => {
                self.open.entry(code.clone()).or_insert(None);
            }
            ClientMsg::Join { code } => {
                self.open.entry(code.clone()).or_insert(None);
                self.joins.insert(code.clone());
            }
            ClientMsg::Watch { code, .. } => {
                self.open.entry(code.clone()).or_insert(None);
                self.watched.insert(code.clone());
            }
            ClientMsg::Close { code } => {
                self.open.remove(code);
                self.joins.remove(code);
                self.watched.remove(code);
                self.unconfirmed.retain(|(c, _), _| c != code);
            }
            ClientMsg::Move { code, ply, .. } | ClientMsg::Roll { code, ply } => {
                self.unconfirmed.insert((code.clone(), *ply), m.clone());
            }
            ClientMsg::SetName { name } => self.name = name.clone(),
            ClientMsg::Create {
                request: Some(r), ..
            } => {
                self.creates.insert(r.clone(), m.clone());
            }
            ClientMsg::CancelCreate { request } => {
                self.creates.remove(request);
                self.cancels.insert(request.clone());
            }
            ClientMsg::Seek { .. } => self.seek = Some(m.clone()),
            ClientMsg::CancelSeek => self.seek = None,
            _ => {}
        }
    }

    /// What to send once greeted again: every game reopened (joined again where the join has
    /// not been answered), then every move not confirmed.
    pub fn resume(&self) -> Vec<ClientMsg> {
        let mut out: Vec<ClientMsg> = self
            .open
            .iter()
            .map(|(code, since)| {
                if self.joins.contains(code) {
                    ClientMsg::Join { code: code.clone() }
                } else if self.watched.contains(code) {
                    ClientMsg::Watch {
                        code: code.clone(),
                        since: *since,
                    }
                } else {
                    ClientMsg::Open {
                        code: code.clone(),
                        since: *since,
                    }
                }
            })
            .collect();
        out.extend(self.unconfirmed.values().cloned());
        out.extend(self.creates.values().cloned());
        out.extend(
            self.cancels
                .iter()
                .map(|r| ClientMsg::CancelCreate { request: r.clone() }),
        );
        out.extend(self.seek.clone());
        out
    }

    /// Whether a message waiting to be sent is covered by [`Book::resume`] (and is dropped
    /// from what waits when the connection comes back).
    pub fn covered(m: &ClientMsg) -> bool {
        matches!(
            m,
            ClientMsg::Open { .. }
                | ClientMsg::Join { .. }
                | ClientMsg::Watch { .. }
                | ClientMsg::Move { .. }
                | ClientMsg::Roll { .. }
                | ClientMsg::Create {
                    request: Some(_),
                    ..
                }
                | ClientMsg::CancelCreate { .. }
                | ClientMsg::Seek { .. }
                | ClientMsg::CancelSeek
        )
    }

    /// Keeps the book up to date with a message from the server.
    pub fn received(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::State { state } => {
                if let Some(r) = &state.request {
                    self.creates.remove(r);
                }
                self.open.insert(state.code.clone(), Some(state.seq));
                self.joins.remove(&state.code);
                let n = state.plies.len() as u32;
                self.unconfirmed
                    .retain(|(c, ply), _| c != &state.code || *ply >= n);
            }
            ServerMsg::Event { code, seq, event } => {
                if let Some(entry) = self.open.get_mut(code) {
                    *entry = Some(entry.map_or(*seq, |s| s.max(*seq)));
                }
                match event {
                    GameEvent::Moved { ply, .. } => {
                        self.unconfirmed.remove(&(code.clone(), *ply));
                    }
                    GameEvent::Rolled { ply, .. } => {
                        // The roll is confirmed; a move for this ply may still be waiting.
                        if matches!(
                            self.unconfirmed.get(&(code.clone(), *ply)),
                            Some(ClientMsg::Roll { .. })
                        ) {
                            self.unconfirmed.remove(&(code.clone(), *ply));
                        }
                    }
                    _ => {}
                }
            }
            ServerMsg::Cancelled { request } => {
                self.cancels.remove(request);
                self.creates.remove(request);
            }
            // Paired: the game is opened on this connection; the seek is over.
            ServerMsg::Paired { code } => {
                self.seek = None;
                self.open.insert(code.clone(), None);
            }
            // A refusal about no game: a create refused (too many games, bad settings) is not
            // sent again; one the server could not do now (storage, rate) is.
            ServerMsg::Error {
                code: None, error, ..
            } if !matches!(
                error,
                ErrorCode::Storage | ErrorCode::RateLimited | ErrorCode::Internal
            ) =>
            {
                self.creates.clear();
                if matches!(error, ErrorCode::BadSettings | ErrorCode::TooManyGames) {
                    // A seek refused (its clock, or too many games) is not sent again.
                    self.seek = None;
                }
            }
            ServerMsg::Error {
                code: Some(code),
                error,
                ..
            } => {
                // A refused move will not be confirmed: stop resending it (unless the refusal
                // says to try again).
                if !matches!(
                    error,
                    ErrorCode::Storage | ErrorCode::RateLimited | ErrorCode::Internal
                ) {
                    self.unconfirmed.retain(|(c, _), _| c != code);
                }
                if matches!(
                    error,
                    ErrorCode::UnknownGame
                        | ErrorCode::NotAPlayer
                        | ErrorCode::GameFull
                        | ErrorCode::NoSpectators
                        | ErrorCode::TooManySpectators
                ) {
                    self.open.remove(code);
                    self.joins.remove(code);
                    self.watched.remove(code);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(code: &str, ply: u32) -> ClientMsg {
        ClientMsg::Move {
            code: code.into(),
            ply,
            mv: "e2e4".into(),
        }
    }

    fn create(request: &str) -> ClientMsg {
        ClientMsg::Create {
            settings: takhte_protocol::GameSettings {
                kind: takhte_rules::GameKind::Chess,
                clock: None,
                colour: takhte_protocol::ColourChoice::White,
                public: false,
                position: None,
                spectators: false,
                audience: false,
                rated: false,
            },
            request: Some(request.into()),
        }
    }

    #[test]
    fn a_create_is_sent_again_until_answered_and_a_call_off_until_confirmed() {
        let mut b = Book::new("t", "Sara");
        b.sent(&create("r1"));
        assert!(Book::covered(&create("r1")));
        assert_eq!(b.resume(), vec![create("r1")]);
        // Called off before its answer came: the call-off goes again, the create does not.
        b.sent(&ClientMsg::CancelCreate {
            request: "r1".into(),
        });
        assert_eq!(
            b.resume(),
            vec![ClientMsg::CancelCreate {
                request: "r1".into()
            }]
        );
        b.received(&ServerMsg::Cancelled {
            request: "r1".into(),
        });
        assert!(b.resume().is_empty());
        // Answered by its state: not sent again (the game reopens instead).
        b.sent(&create("r2"));
        let mut state = crate::mirror::tests::state_of_a_new_game();
        state.request = Some("r2".into());
        let code = state.code.clone();
        b.received(&ServerMsg::State { state });
        assert_eq!(
            b.resume(),
            vec![ClientMsg::Open {
                code,
                since: Some(2)
            }]
        );
        // Refused for good (too many games): not sent again; refused for now: sent again.
        b.sent(&create("r3"));
        b.received(&ServerMsg::Error {
            error: ErrorCode::Storage,
            message: String::new(),
            code: None,
        });
        assert!(b.resume().contains(&create("r3")));
        b.received(&ServerMsg::Error {
            error: ErrorCode::TooManyGames,
            message: String::new(),
            code: None,
        });
        assert!(!b.resume().contains(&create("r3")));
    }

    #[test]
    fn a_confirmed_move_is_not_sent_again_and_the_games_reopen_from_their_last_event() {
        let mut b = Book::new("t", "Sara");
        b.sent(&ClientMsg::Open {
            code: "AAAAAA".into(),
            since: None,
        });
        b.sent(&ClientMsg::Join {
            code: "BBBBBB".into(),
        });
        b.sent(&mv("AAAAAA", 4));
        b.received(&ServerMsg::Event {
            code: "AAAAAA".into(),
            seq: 9,
            event: GameEvent::Rolled { ply: 4, face: 3 },
        });
        // A roll confirms no move.
        assert_eq!(
            b.resume(),
            [
                ClientMsg::Open {
                    code: "AAAAAA".into(),
                    since: Some(9)
                },
                ClientMsg::Join {
                    code: "BBBBBB".into()
                },
                mv("AAAAAA", 4),
            ]
        );
        b.received(&ServerMsg::Event {
            code: "AAAAAA".into(),
            seq: 10,
            event: GameEvent::Moved {
                ply: 4,
                mv: "e2e4".into(),
                position: String::new(),
                clocks: None,
                crowd: None,
            },
        });
        b.received(&ServerMsg::Error {
            error: ErrorCode::UnknownGame,
            message: String::new(),
            code: Some("BBBBBB".into()),
        });
        assert_eq!(
            b.resume(),
            [ClientMsg::Open {
                code: "AAAAAA".into(),
                since: Some(10)
            }]
        );
    }
}
