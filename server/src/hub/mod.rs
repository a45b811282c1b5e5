//! The hub: the games in memory (rooms), who watches each, and the path of a request from a
//! connection to the store and out to the sockets.
//!
//! A request on a game takes the room's lock, applies the request to a copy of the game
//! ([`crate::game::Live::apply`]), writes the new record to the store and only then makes the
//! copy the game and sends the events, in order, to every connection on the room. The
//! in-memory game is a cache: a room not in memory is rebuilt from its record.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use tokio::sync::{mpsc, Notify};

use takhte_protocol::{code, request};
use takhte_protocol::{ErrorCode, GameEvent, GameSettings, GameSummary, LobbyEntry, ServerMsg};

use crate::game::{Actor, Command, Context, Effects, Live, Refusal, Stage};
use crate::store::{Storage, StoreError, Write};
use crate::{log, now_ms};

pub mod cluster;
mod crowd;
mod delivery;
pub mod fault;
mod outage;
pub mod pairing;
mod room;
mod spectators;
mod standings;

pub use room::Frame;
use room::{Room, RoomInner, Sent};

/// The most events a connection that comes back is sent instead of the whole state.
const MAX_CATCH_UP_EVENTS: u64 = 4_096;

/// Limits and knobs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Connections one IP address may hold at once.
    pub max_conns_per_ip: usize,
    /// Games not ended that one player may sit at.
    pub max_open_games: usize,
    /// Messages per second a connection may send, on average.
    pub msgs_per_sec: f64,
    /// Messages a connection may send in a burst.
    pub msg_burst: f64,
    /// A connection that sends nothing for this long is closed.
    pub idle_ms: u64,
    /// A connection that answers nothing, not even the server's pings (every 5 s), for this
    /// long is closed: until then it counts, as a player who is here or as a spectator.
    pub silence_ms: u64,
    /// Events kept in memory per game for clients that come back.
    pub recent_events: usize,
    /// How long an opponent must be gone before the win can be claimed.
    pub claim_after_ms: u64,
    /// Spectators one game may have.
    pub max_spectators: usize,
    /// Suggestions (first one and changes) one spectator may make for one move.
    pub max_suggestions: u32,
    /// The shortest time between two messages of spectator counts and suggestion tallies.
    pub crowd_every_ms: u64,
    /// How many frames (events, counts, tallies) a game's spectators' feed keeps for a
    /// spectator that reads slowly; one further behind is sent the game as it stands.
    pub feed_frames: usize,
    /// Behind a reverse proxy: a client's address is the last one of the `X-Forwarded-For`
    /// header the proxy sets (every socket comes from the proxy, so sockets are not counted
    /// per address either; the proxy limits them).
    pub behind_proxy: bool,
    /// The server serves TLS itself (its invite pages link with `https://`).
    pub tls: bool,
    /// The browser version's built files (`scripts/build-web.sh`): when set, `/`, `/join/CODE`
    /// and `/watch/CODE` open the app in the browser ([`crate::web`]).
    pub web_dir: Option<std::path::PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_conns_per_ip: 20,
            max_open_games: 10,
            msgs_per_sec: 10.0,
            msg_burst: 30.0,
            idle_ms: 60_000,
            silence_ms: 15_000,
            recent_events: 256,
            claim_after_ms: takhte_protocol::CLAIM_AFTER_MS,
            max_spectators: 5_000,
            max_suggestions: 10,
            crowd_every_ms: 250,
            feed_frames: room::FEED_FRAMES,
            behind_proxy: false,
            tls: false,
            web_dir: None,
        }
    }
}

/// What a connection's writer is given: a message of its own, or a game's spectators' feed to
/// read from (and when to stop).
pub enum Out {
    /// A message for this connection alone (JSON text).
    Text(Arc<str>),
    /// From now on, the spectators' feed of a game: its frames after event `after` (what the
    /// connection was sent already), and the game again when it falls behind.
    Feed(Feed),
    /// No more of that game's feed.
    Unfeed(String),
}

/// A game's spectators' feed as one connection reads it.
pub struct Feed {
    /// The game.
    pub code: String,
    /// The frames, from the moment the connection was caught up.
    pub rx: tokio::sync::broadcast::Receiver<room::Frame>,
    /// The last event the connection has.
    pub after: u64,
    /// The game, for a connection that fell behind the feed.
    room: Arc<Room>,
}

impl Feed {
    /// The game as a spectator sees it now (its number and the message), for a connection
    /// that fell too far behind the feed to be sent every step.
    pub async fn resync(&self) -> (u64, Arc<str>) {
        self.room.spectator_state().await
    }
}

/// A connection as the hub sees it: where to send, and how to make it close.
#[derive(Clone)]
pub struct ConnHandle {
    /// A number unique in this server.
    pub id: u64,
    /// Its outgoing messages and feeds.
    pub tx: mpsc::Sender<Out>,
    /// Notified when the connection must close (it fell behind).
    pub kill: Arc<Notify>,
}

impl ConnHandle {
    /// Queues a message; a connection too far behind is told to close (it will come back and
    /// catch up from the state).
    pub fn send(&self, text: Arc<str>) -> bool {
        if self.tx.try_send(Out::Text(text)).is_err() {
            self.kill.notify_one();
            return false;
        }
        true
    }

    /// Queues a server message.
    pub fn send_msg(&self, msg: &ServerMsg) -> bool {
        self.send(to_text(msg))
    }

    /// Gives the connection the spectators' feed of `room` after event `after` (sent after
    /// what it was sent so far, so nothing comes out of order).
    fn feed(&self, room: &Arc<Room>, after: u64) {
        let feed = Feed {
            code: room.code.clone(),
            rx: room.feed.subscribe(),
            after,
            room: Arc::clone(room),
        };
        if self.tx.try_send(Out::Feed(feed)).is_err() {
            self.kill.notify_one();
        }
    }

    /// The connection stops reading the feed of game `code`.
    fn unfeed(&self, code: &str) {
        let _ = self.tx.try_send(Out::Unfeed(code.to_string()));
    }
}

/// The JSON text of a message.
pub fn to_text(msg: &ServerMsg) -> Arc<str> {
    serde_json::to_string(msg)
        .unwrap_or_else(|_| String::from("{}"))
        .into()
}

/// The server's state.
pub struct Hub {
    /// Limits.
    pub config: Config,
    store: Arc<dyn Storage>,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    conns_by_ip: Mutex<HashMap<IpAddr, usize>>,
    next_conn: AtomicU64,
    rng: Mutex<rand_chacha::ChaCha20Rng>,
    /// Several instances: the message bus (Redis), once attached.
    bus: std::sync::OnceLock<Arc<cluster::Bus>>,
    /// Whether the bus is up (always true without one).
    bus_up: std::sync::atomic::AtomicBool,
    /// Notified when every connection must close (the bus went down).
    pub kick_all: Notify,
    /// Held from counting a player's open games to storing the game that adds one (create,
    /// join, rematch), so requests sent at the same moment cannot all pass the count. (The
    /// database checks the limit again in the write itself, for the other instances.)
    seating: tokio::sync::Mutex<()>,
    /// When this process last knew itself running (ms since the epoch; the ticker's beat).
    alive_ms: AtomicU64,
    /// Held while an outage is credited to the clocks.
    outage: tokio::sync::Mutex<()>,
    /// The games in play have been loaded ([`Hub::load_running`]).
    started: std::sync::atomic::AtomicBool,
    /// This instance's connections waiting in a quick pairing pool, by player.
    seekers: Mutex<HashMap<String, pairing::Seeker>>,
    /// Games opened on a connection by a pairing (not by the connection's own request), by
    /// connection id: left with the connection's own when it closes.
    paired_opens: Mutex<HashMap<u64, Vec<String>>>,
}

/// Why a write did not land.
enum Failure {
    /// The game changed in the store since it was read.
    Conflict,
    /// Refused, with its reason.
    Refused(Refusal),
}

/// Events numbered from `first_seq`, as sent to clients.
fn numbered(code: &str, first_seq: u64, events: Vec<GameEvent>) -> Vec<Sent> {
    events
        .into_iter()
        .enumerate()
        .map(|(i, event)| Sent::new(code, first_seq + i as u64, event))
        .collect()
}

/// The events as the store keeps them.
fn stored_texts(sent: &[Sent]) -> Vec<(u64, String)> {
    sent.iter().map(|e| (e.seq, e.text.to_string())).collect()
}

pub(crate) fn store_refusal(e: StoreError) -> Refusal {
    match e {
        StoreError::TooManyGames { open, .. } => Refusal {
            code: ErrorCode::TooManyGames,
            message: format!("{open} games that have not ended are the most one may have"),
        },
        StoreError::Conflict => Refusal {
            code: ErrorCode::Storage,
            message: "the game changed meanwhile; try again".into(),
        },
        other => Refusal {
            code: ErrorCode::Storage,
            message: format!(
                "the server could not store this ({other}); nothing was changed, try again"
            ),
        },
    }
}

impl Hub {
    /// A hub over `store`.
    pub fn new(config: Config, store: Arc<dyn Storage>) -> Arc<Hub> {
        Arc::new(Hub {
            config,
            store,
            rooms: Mutex::new(HashMap::new()),
            conns_by_ip: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            rng: Mutex::new(rand_chacha::ChaCha20Rng::from_entropy()),
            bus: std::sync::OnceLock::new(),
            bus_up: std::sync::atomic::AtomicBool::new(true),
            kick_all: Notify::new(),
            seating: tokio::sync::Mutex::new(()),
            alive_ms: AtomicU64::new(0),
            outage: tokio::sync::Mutex::new(()),
            started: std::sync::atomic::AtomicBool::new(false),
            seekers: Mutex::new(HashMap::new()),
            paired_opens: Mutex::new(HashMap::new()),
        })
    }

    /// The store's description.
    pub fn store_name(&self) -> String {
        self.store.describe()
    }

    fn rng(&self) -> rand_chacha::ChaCha20Rng {
        let mut r = lock(&self.rng);
        rand_chacha::ChaCha20Rng::from_rng(&mut *r).expect("a ChaCha seeds from a ChaCha")
    }

    /// A new connection number.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Counts a new connection from `ip`; false when the address has too many.
    pub fn connect_ip(&self, ip: IpAddr) -> bool {
        let mut m = self
            .conns_by_ip
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = m.entry(ip).or_insert(0);
        if *n >= self.config.max_conns_per_ip {
            return false;
        }
        *n += 1;
        true
    }

    /// A connection from `ip` closed.
    pub fn disconnect_ip(&self, ip: IpAddr) {
        let mut m = self
            .conns_by_ip
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = m.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }

    /// The number of open connections.
    pub fn connections(&self) -> usize {
        self.conns_by_ip
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .sum()
    }

    /// The room of a game, loading it from the store when it is not in memory.
    async fn room(&self, code: &str) -> Result<Arc<Room>, Refusal> {
        if let Some(r) = lock(&self.rooms).get(code) {
            return Ok(Arc::clone(r));
        }
        if !code::is_valid(code) {
            return Err(Refusal {
                code: ErrorCode::UnknownGame,
                message: format!("'{code}' is not a game code"),
            });
        }
        let rec = self.store.load(code).await.map_err(store_refusal)?;
        let Some(rec) = rec else {
            return Err(Refusal {
                code: ErrorCode::UnknownGame,
                message: format!("no game has the code {code}"),
            });
        };
        let live = Live::from_record(rec).map_err(|e| Refusal {
            code: ErrorCode::Storage,
            message: format!("the stored game does not rebuild: {}", e.0),
        })?;
        Ok(self.install(live))
    }

    /// Puts a game in memory (or returns the room already there).
    fn install(&self, live: Live) -> Arc<Room> {
        let mut rooms = lock(&self.rooms);
        if let Some(r) = rooms.get(&live.rec.code) {
            return Arc::clone(r);
        }
        let now = now_ms();
        let away = [0, 1].map(|i| live.rec.seats[i].as_ref().map(|_| now));
        let crowd = Arc::new(Mutex::new(crowd::CrowdState::new(live.suggestion_board())));
        let room = Arc::new(Room {
            code: live.rec.code.clone(),
            deadline_ms: AtomicU64::new(live.rec.deadline_ms().unwrap_or(0)),
            crowd_dirty: std::sync::atomic::AtomicBool::new(false),
            crowd: Arc::clone(&crowd),
            feed: tokio::sync::broadcast::channel(self.config.feed_frames.max(1)).0,
            resync: tokio::sync::Mutex::new(None),
            inner: tokio::sync::Mutex::new(RoomInner {
                live,
                subs: HashMap::new(),
                away,
                recent: VecDeque::new(),
                touched_ms: now,
                crowd,
                remote_online: [false; 2],
                remote_left: [0; 2],
            }),
        });
        rooms.insert(room.code.clone(), Arc::clone(&room));
        room
    }

    /// Loads every game in play, so that their clocks run out even if nobody comes back, and
    /// gives their clocks back the time no server ran (see `outage.rs`).
    pub async fn load_running(&self) -> Result<usize, StoreError> {
        let recs = self
            .store
            .at_stage(Stage::Playing, false, 1_000_000)
            .await?;
        let n = recs.len();
        for rec in recs {
            match Live::from_record(rec) {
                Ok(live) => {
                    self.install(live);
                }
                Err(e) => log!("a stored game does not rebuild: {}", e.0),
            }
        }
        // The time since the last server on this store ran is given back to their clocks.
        self.started.store(true, Ordering::Relaxed);
        self.settle_outage().await;
        Ok(n)
    }

    /// The game `code` if it is in memory.
    fn in_memory(&self, code: &str) -> Option<Arc<Room>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// Every game in memory now (a copy of the list: no lock is held after).
    fn all_rooms(&self) -> Vec<Arc<Room>> {
        lock(&self.rooms).values().cloned().collect()
    }

    /// Refuses a player who already has as many games that have not ended as one may
    /// (`you`: the one asking, else their opponent).
    async fn check_open_games(&self, token_hash: &str, you: bool) -> Result<(), Refusal> {
        let mine = self
            .store
            .games_of(token_hash)
            .await
            .map_err(store_refusal)?;
        let open = mine.iter().filter(|g| g.stage() != Stage::Ended).count();
        if open >= self.config.max_open_games {
            return Err(self.too_many_games(open, you));
        }
        Ok(())
    }

    fn too_many_games(&self, open: usize, you: bool) -> Refusal {
        let max = self.config.max_open_games;
        Refusal {
            code: ErrorCode::TooManyGames,
            message: if you {
                format!("you have {open} games that have not ended (at most {max})")
            } else {
                format!("your opponent has {open} games that have not ended (at most {max})")
            },
        }
    }

    /// The refusal for a write that did not land (a limit the database found, or another).
    fn write_refusal(&self, e: StoreError, actor: &Actor) -> Refusal {
        match e {
            StoreError::TooManyGames { token_hash, open } => {
                self.too_many_games(open, token_hash == actor.token_hash)
            }
            other => store_refusal(other),
        }
    }

    /// Creates a game; the creator's connection opens it and gets its state. Returns the code,
    /// or `None` when the request was cancelled (nothing made, nothing opened).
    ///
    /// With a request id the create is made once: the same request again (its answer was lost
    /// with a connection, or it came twice) opens the game it made.
    pub async fn create(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        settings: GameSettings,
        request: Option<String>,
    ) -> Result<Option<String>, Refusal> {
        self.settle_outage().await;
        if request.as_deref().is_some_and(|r| !request::valid(r)) {
            return Err(bad_request_id());
        }
        let seating = self.seating.lock().await;
        let mut rng = self.rng();
        for _ in 0..8 {
            if let Some(r) = &request {
                match self.store.created(&actor.token_hash, r).await {
                    Ok(Some(code)) if code.is_empty() => return Ok(None),
                    Ok(Some(code)) => {
                        drop(seating);
                        return self.open_created(conn, actor, &code, r).await.map(Some);
                    }
                    Ok(None) => {}
                    Err(e) => return Err(store_refusal(e)),
                }
            }
            self.check_open_games(&actor.token_hash, true).await?;
            let code = code::generate(&mut rng);
            let mut live = Live::create(code.clone(), settings.clone(), actor, now_ms(), &mut rng)?;
            self.seat_ratings(&mut live.rec)
                .await
                .map_err(store_refusal)?;
            let mut writes = vec![
                Write::OpenGamesBelow {
                    players: vec![actor.token_hash.clone()],
                    max: self.config.max_open_games,
                },
                Write::Insert(live.rec.clone()),
                // Their page exists from their first game.
                Write::Player {
                    token_hash: actor.token_hash.clone(),
                    id: crate::player_id(&actor.token_hash),
                    name: actor.name.clone(),
                },
            ];
            if let Some(r) = &request {
                writes.push(Write::Request {
                    token_hash: actor.token_hash.clone(),
                    request: r.clone(),
                    code,
                });
            }
            match self.store.write(writes).await {
                Ok(()) => {
                    let room = self.install(live);
                    let mut inner = room.inner.lock().await;
                    self.subscribe(&room, &mut inner, conn, actor, false);
                    self.send_state(&mut inner, conn, actor, request.clone());
                    return Ok(Some(room.code.clone()));
                }
                // The code was taken, or the same request made its game meanwhile (on
                // another instance): look again.
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(self.write_refusal(e, actor)),
            }
        }
        Err(Refusal {
            code: ErrorCode::Storage,
            message: "no free code found; try again".into(),
        })
    }

    /// Opens for its creator the game that the create request `request` made.
    async fn open_created(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        code: &str,
        request: &str,
    ) -> Result<String, Refusal> {
        let room = self.room(code).await?;
        let mut inner = room.inner.lock().await;
        if inner.live.rec.seat_of(&actor.token_hash).is_none() {
            return Err(Refusal {
                code: ErrorCode::NotAPlayer,
                message: "you do not sit at this game".into(),
            });
        }
        self.subscribe(&room, &mut inner, conn, actor, false);
        self.send_state(&mut inner, conn, actor, Some(request.to_string()));
        Ok(room.code.clone())
    }

    /// Calls off the create request `request`: its game, if it was made and nobody has
    /// joined it, is aborted; a copy of the create that comes later makes nothing. The
    /// connection is told with `cancelled`.
    pub async fn cancel_create(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        request: &str,
    ) -> Result<(), Refusal> {
        self.settle_outage().await;
        if !request::valid(request) {
            return Err(bad_request_id());
        }
        let made = {
            let _seating = self.seating.lock().await;
            loop {
                match self.store.created(&actor.token_hash, request).await {
                    Ok(Some(code)) => break code,
                    Ok(None) => {}
                    Err(e) => return Err(store_refusal(e)),
                }
                let tombstone = vec![Write::Request {
                    token_hash: actor.token_hash.clone(),
                    request: request.to_string(),
                    code: String::new(),
                }];
                match self.store.write(tombstone).await {
                    Ok(()) => break String::new(),
                    // Made meanwhile on another instance: look again.
                    Err(StoreError::Conflict) => continue,
                    Err(e) => return Err(store_refusal(e)),
                }
            }
        };
        if !made.is_empty() {
            // Aborted if nobody joined; a game that started goes on (a refusal is fine).
            let _ = self.command(actor, &made, Command::Abort).await;
            self.close(conn.id, &made).await;
        }
        conn.send_msg(&ServerMsg::Cancelled {
            request: request.to_string(),
        });
        Ok(())
    }

    /// Takes the free seat of a game (already seated: opens it).
    pub async fn join(&self, conn: &ConnHandle, actor: &Actor, code: &str) -> Result<(), Refusal> {
        self.settle_outage().await;
        let room = self.room(code).await?;
        let _seating = self.seating.lock().await;
        {
            let inner = room.inner.lock().await;
            if inner.live.rec.seat_of(&actor.token_hash).is_none() {
                drop(inner);
                self.check_open_games(&actor.token_hash, true).await?;
            }
        }
        let mut inner = room.inner.lock().await;
        self.apply_locked(&room, &mut inner, actor, Command::Join)
            .await?;
        // A spectator who takes the free seat is a player now.
        inner.subs.remove(&conn.id);
        self.subscribe(&room, &mut inner, conn, actor, false);
        self.catch_up(&mut inner, conn, actor, None).await;
        Ok(())
    }

    /// Applies a player's request to a game.
    pub async fn command(&self, actor: &Actor, code: &str, cmd: Command) -> Result<(), Refusal> {
        self.settle_outage().await;
        let room = self.room(code).await?;
        // A rematch is a new game for both players: it counts against the limit of open
        // games, of the one who asks and, when it is the answer to the other's offer, of the
        // other too.
        let _seating = if cmd == Command::Rematch {
            let guard = self.seating.lock().await;
            self.check_open_games(&actor.token_hash, true).await?;
            let accepting = {
                let inner = room.inner.lock().await;
                let rec = &inner.live.rec;
                let me = rec.seat_of(&actor.token_hash);
                match (me, rec.rematch_offer) {
                    (Some(me), Some(by)) if by as usize != me.index() => rec.seats
                        [me.opponent().index()]
                    .as_ref()
                    .map(|s| s.token_hash.clone()),
                    _ => None,
                }
            };
            if let Some(other) = accepting {
                self.check_open_games(&other, false).await?;
            }
            Some(guard)
        } else {
            None
        };
        let mut inner = room.inner.lock().await;
        self.apply_locked(&room, &mut inner, actor, cmd).await
    }

    async fn apply_locked(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        actor: &Actor,
        cmd: Command,
    ) -> Result<(), Refusal> {
        // Another instance may have moved this game since it was read: then the store refuses
        // the write (conflict), the game is read again and the request applied to it anew.
        for attempt in 0..3 {
            match self.try_apply(room, inner, actor, cmd.clone()).await {
                Err(Failure::Conflict) if attempt < 2 => {
                    self.refresh_from_store(room, inner).await;
                }
                Err(Failure::Conflict) => {
                    return Err(Refusal {
                        code: ErrorCode::Storage,
                        message: "the game changed meanwhile; try again".into(),
                    })
                }
                // With several instances this copy of the game may be behind the stored one
                // (a seat taken or a move made on another instance, its message still on the
                // way): a refusal is given only on the game as stored.
                Err(Failure::Refused(r)) if attempt < 2 && self.bus.get().is_some() => {
                    let seq = inner.live.rec.seq;
                    self.refresh_from_store(room, inner).await;
                    if inner.live.rec.seq == seq {
                        return Err(r);
                    }
                }
                Err(Failure::Refused(r)) => return Err(r),
                Ok(()) => return Ok(()),
            }
        }
        Ok(())
    }

    async fn try_apply(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        actor: &Actor,
        cmd: Command,
    ) -> Result<(), Failure> {
        let now = now_ms();
        let away = match inner.live.rec.seat_of(&actor.token_hash) {
            Some(me) => inner.presence(now)[me.opponent().index()].1,
            None => 0,
        };
        let mut next = inner.live.clone();
        let mut rng = self.rng();
        let ctx = Context {
            now_ms: now,
            opponent_away_ms: away,
            claim_after_ms: self.config.claim_after_ms,
            crowd: inner.crowd(),
        };
        let is_move = matches!(cmd, Command::Move { .. } | Command::Roll { .. });
        let joining = cmd == Command::Join;
        let (mut events, effects) = next
            .apply(actor, cmd, &ctx, &mut rng)
            .map_err(Failure::Refused)?;
        if events.is_empty() {
            return Ok(());
        }
        let store_failure = |e: StoreError| Failure::Refused(store_refusal(e));
        // A rated game that starts has its players' ratings; one that ends, their changes.
        if joining && next.rec.stage() == Stage::Playing {
            self.seat_ratings(&mut next.rec)
                .await
                .map_err(store_failure)?;
            for e in events.iter_mut() {
                if let GameEvent::Seated { seat, rating, .. } = e {
                    *rating = next.rec.seats[seat.index()].as_ref().and_then(|s| s.rating);
                }
            }
        }
        let mut writes = self
            .settle_end(&mut next, &mut events)
            .await
            .map_err(store_failure)?;
        let first_seq = inner.live.rec.seq + 1;
        let texts = numbered(&room.code, first_seq, events);
        self.seating_writes(&next, &effects, joining, actor, &mut writes)
            .await
            .map_err(store_failure)?;
        writes.push(Write::Update {
            rec: next.rec.clone(),
            expected_seq: inner.live.rec.seq,
            events: stored_texts(&texts),
        });
        fault::at(fault::Point::BeforeStore, is_move);
        if let Some(wait) = fault::stall(is_move) {
            tokio::time::sleep(wait).await;
        }
        if fault::panics(is_move) {
            let _rooms = lock(&self.rooms);
            panic!("fault: a panic while the map of games is locked");
        }
        match self.store.write(writes).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => return Err(Failure::Conflict),
            Err(e) => return Err(Failure::Refused(self.write_refusal(e, actor))),
        }
        fault::at(fault::Point::AfterStore, is_move);
        inner.live = next;
        room.deadline_ms
            .store(inner.live.rec.deadline_ms().unwrap_or(0), Ordering::Relaxed);
        if let Some(new) = effects.new_game {
            if let Ok(live) = Live::from_record(new) {
                self.install(live);
            }
        }
        // The players first, then the spectators' feed (one frame), then the other instances.
        self.deliver(room, inner, &texts);
        fault::at(fault::Point::BeforePublish, is_move);
        self.broadcast(&room.code, &texts).await;
        Ok(())
    }

    /// The writes a seat taken or a rematch made brings: the limit of open games checked for
    /// its players (in the database, for every instance), the new player's page, the
    /// rematch's game with its players' ratings.
    async fn seating_writes(
        &self,
        next: &Live,
        effects: &Effects,
        joining: bool,
        actor: &Actor,
        writes: &mut Vec<Write>,
    ) -> Result<(), StoreError> {
        // A seat taken, or a rematch made, is a game more for its players: the database
        // checks the limit in the same transaction, for every instance.
        let seated: Vec<String> = if effects.new_game.is_some() {
            next.rec
                .seats
                .iter()
                .flatten()
                .map(|s| s.token_hash.clone())
                .collect()
        } else if joining {
            vec![actor.token_hash.clone()]
        } else {
            Vec::new()
        };
        if !seated.is_empty() {
            writes.push(Write::OpenGamesBelow {
                players: seated,
                max: self.config.max_open_games,
            });
        }
        if joining {
            // The one who sits down has a page from their first game.
            writes.push(Write::Player {
                token_hash: actor.token_hash.clone(),
                id: crate::player_id(&actor.token_hash),
                name: actor.name.clone(),
            });
        }
        if let Some(new) = &effects.new_game {
            // A rematch of a rated game is rated: its players' ratings as it begins.
            let mut new = new.clone();
            self.seat_ratings(&mut new).await?;
            writes.push(Write::Insert(new));
        }
        Ok(())
    }

    /// What an invite code opens before it is taken (public or not: whoever has the code may
    /// join): the game, its clock, who invites, the seat left, and whether it is rated. A
    /// game that has begun or ended is refused as full.
    pub async fn invitation(&self, code: &str) -> Result<(LobbyEntry, bool), Refusal> {
        let room = self.room(code).await?;
        let inner = room.inner.lock().await;
        match inner.live.lobby_entry() {
            Some(e) => Ok((e, inner.live.rec.settings.rated)),
            None => Err(Refusal {
                code: ErrorCode::GameFull,
                message: format!("game {code} has begun or ended"),
            }),
        }
    }

    /// The open public games whose creator is connected.
    pub async fn lobby(&self) -> Vec<LobbyEntry> {
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        let mut out = Vec::new();
        for r in rooms {
            let inner = r.inner.lock().await;
            if !inner.live.rec.settings.public {
                continue;
            }
            if let Some(e) = inner.live.lobby_entry() {
                if inner.online(e.free_seat.opponent()) {
                    out.push(e);
                }
            }
        }
        out.sort_by_key(|e| std::cmp::Reverse(e.created_ms));
        out.truncate(100);
        out
    }

    /// A player's games that have not ended.
    pub async fn my_games(&self, actor: &Actor) -> Result<Vec<GameSummary>, Refusal> {
        let recs = self
            .store
            .games_of(&actor.token_hash)
            .await
            .map_err(store_refusal)?;
        let mut out = Vec::new();
        for rec in recs {
            let Some(seat) = rec.seat_of(&actor.token_hash) else {
                continue;
            };
            let in_memory = self.in_memory(&rec.code);
            let summary = match in_memory {
                Some(room) => room.inner.lock().await.live.summary_for(seat),
                None => match Live::from_record(rec) {
                    Ok(l) => l.summary_for(seat),
                    Err(_) => continue,
                },
            };
            out.push(summary);
        }
        Ok(out)
    }

    /// Renames the player in every game of theirs that goes on.
    pub async fn rename(&self, actor: &Actor) {
        let Ok(recs) = self.store.games_of(&actor.token_hash).await else {
            return;
        };
        for rec in recs {
            let _ = self
                .command(actor, &rec.code, Command::Rename(actor.name.clone()))
                .await;
        }
    }

    /// Ends the games whose flag has fallen; call it often.
    pub async fn tick(&self) {
        self.settle_outage().await;
        let now = now_ms();
        let due: Vec<Arc<Room>> = lock(&self.rooms)
            .values()
            .filter(|r| {
                let d = r.deadline_ms.load(Ordering::Relaxed);
                d != 0 && d <= now
            })
            .cloned()
            .collect();
        for room in due {
            let mut inner = room.inner.lock().await;
            let mut next = inner.live.clone();
            let events = next.check_time(now_ms());
            if events.is_empty() {
                room.deadline_ms
                    .store(inner.live.rec.deadline_ms().unwrap_or(0), Ordering::Relaxed);
                continue;
            }
            match self.store_events(&room, &mut inner, next, events).await {
                Ok(()) => {}
                Err(StoreError::Conflict) => {
                    // Another instance ended it (or moved) first: take its record.
                    self.refresh_from_store(&room, &mut inner).await;
                }
                Err(e) => log!("game {}: the time-out could not be stored: {e}", room.code),
            }
        }
    }

    /// Stores a change of the server's own (a time-out, an outage given back: no request, no
    /// other write) as the room's next events; once stored, `next` is the game and the events
    /// go to every connection here and on the other instances.
    async fn store_events(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        mut next: Live,
        mut events: Vec<GameEvent>,
    ) -> Result<(), StoreError> {
        // A flag that fell ends the game: its standings and ratings go with it.
        let mut writes = self.settle_end(&mut next, &mut events).await?;
        let texts = numbered(&room.code, inner.live.rec.seq + 1, events);
        writes.push(Write::Update {
            rec: next.rec.clone(),
            expected_seq: inner.live.rec.seq,
            events: stored_texts(&texts),
        });
        self.store.write(writes).await?;
        inner.live = next;
        room.deadline_ms
            .store(inner.live.rec.deadline_ms().unwrap_or(0), Ordering::Relaxed);
        self.deliver(room, inner, &texts);
        self.broadcast(&room.code, &texts).await;
        Ok(())
    }

    /// Drops from memory the rooms nobody watches that have ended or wait without a clock,
    /// untouched for `idle_ms`.
    pub async fn evict(&self, idle_ms: u64) {
        let now = now_ms();
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        for r in rooms {
            let inner = r.inner.lock().await;
            let quiet = inner.subs.is_empty() && now.saturating_sub(inner.touched_ms) >= idle_ms;
            let running = inner.live.rec.deadline_ms().is_some();
            if quiet && !running {
                // Removed while its lock is held, so no connection can join it meanwhile.
                lock(&self.rooms).remove(&r.code);
                drop(inner);
            }
        }
    }

    /// The number of games in memory.
    pub fn rooms_in_memory(&self) -> usize {
        lock(&self.rooms).len()
    }
}

/// Takes a lock of the hub's maps. A panic while one was held (a bug in one request) leaves
/// the map as it was between two whole changes, so the lock is taken on, not refused: one bad
/// request must not make every later one fail.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The refusal of a malformed request id.
fn bad_request_id() -> Refusal {
    Refusal {
        code: ErrorCode::BadMessage,
        message: "a request id is 1 to 64 letters, digits and '-'".into(),
    }
}
