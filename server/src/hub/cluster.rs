//! Several instances on one PostgreSQL database and one Redis.
//!
//! - **The database decides.** Every write is conditional on the game's event number, so of
//!   two requests for one game on two instances at the same moment exactly one lands; the
//!   other instance reads the game again and applies its request anew (usually refusing it:
//!   not your turn, or another ply). A request is acknowledged only after its write commits.
//! - **Redis passes the news.** After a write the instance sends the events to its own
//!   connections and publishes them on the cluster's channel; every instance that has the game
//!   in memory reads the game's record and sends its connections every event up to it, once
//!   and in order — those of the message, and any other (a message still on its way, or lost)
//!   from the events kept in the database. Presence, suggestions and spectator counts travel
//!   the same way.
//! - **Nothing depends on one instance.** Every instance ends the games whose flag has fallen
//!   (the database keeps each game's deadline; a second instance's attempt conflicts and does
//!   nothing), and every second each instance compares the games it serves with the database,
//!   so an event stored by an instance that died before publishing it still arrives.
//! - **Redis down:** the instance says so in its log, closes its connections and refuses new
//!   ones until Redis is back (clients show "reconnecting", never a stale board), then reads
//!   its games from the database again.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use redis::AsyncCommands;
use serde::{Deserialize, Serialize};

use takhte_protocol::{CloseReason, ServerMsg};
use takhte_rules::Side;

use super::room::{Room, RoomInner, Sent};
use super::{to_text, Hub};
use crate::game::{GameRecord, Live};
use crate::{log, now_ms};

/// A seat counts as here while an instance refreshed it within this time.
const PRESENCE_FRESH_MS: u64 = 6_000;
/// Spectator counts of other instances are forgotten after this time without news.
const COUNT_FRESH_MS: u64 = 30_000;

/// What instances tell each other about a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
enum BusMsg {
    /// Events stored by `from`, as sent to clients.
    Events {
        from: String,
        code: String,
        events: Vec<(u64, String)>,
    },
    /// A player came or went on `from`: read the game's presence again.
    Presence { from: String, code: String },
    /// A spectator on `from` suggests `mv` for the move at `ply`.
    Suggest {
        from: String,
        code: String,
        ply: u32,
        token: String,
        mv: String,
    },
    /// The number of spectators on `from`.
    Spectators {
        from: String,
        code: String,
        count: u32,
    },
}

impl BusMsg {
    fn from(&self) -> &str {
        match self {
            BusMsg::Events { from, .. }
            | BusMsg::Presence { from, .. }
            | BusMsg::Suggest { from, .. }
            | BusMsg::Spectators { from, .. } => from,
        }
    }
}

/// The connection to Redis.
pub struct Bus {
    client: redis::Client,
    /// The cluster's name: the prefix of its channel and keys (several clusters can share one
    /// Redis).
    prefix: String,
    /// This instance's name.
    pub instance: String,
    conn: tokio::sync::Mutex<Option<redis::aio::ConnectionManager>>,
    url: String,
}

impl Bus {
    /// A bus on the Redis at `url` for the cluster `cluster`. Connects lazily.
    pub fn new(url: &str, cluster: &str) -> Result<Bus, String> {
        let client = redis::Client::open(url).map_err(|e| e.to_string())?;
        let instance = format!("{:08x}", rand::random::<u32>());
        Ok(Bus {
            client,
            prefix: cluster.to_string(),
            instance,
            conn: tokio::sync::Mutex::new(None),
            url: url.to_string(),
        })
    }

    /// Where it connects, for the log.
    pub fn describe(&self) -> String {
        format!(
            "Redis {} (cluster '{}', instance {})",
            self.url, self.prefix, self.instance
        )
    }

    fn channel(&self) -> String {
        format!("{}:events", self.prefix)
    }

    fn seen_key(&self, code: &str) -> String {
        format!("{}:seen:{code}", self.prefix)
    }

    async fn connection(&self) -> Result<redis::aio::ConnectionManager, String> {
        let mut guard = self.conn.lock().await;
        if let Some(c) = guard.as_ref() {
            return Ok(c.clone());
        }
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(1);
        let c = redis::aio::ConnectionManager::new_with_config(self.client.clone(), config)
            .await
            .map_err(|e| e.to_string())?;
        *guard = Some(c.clone());
        Ok(c)
    }

    async fn publish(&self, msg: &BusMsg) -> Result<(), String> {
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        let mut c = self.connection().await?;
        c.publish::<_, _, ()>(self.channel(), text)
            .await
            .map_err(|e| e.to_string())
    }

    /// Notes that this instance has (or no longer has) the player of `seat` connected.
    async fn mark_seat(&self, code: &str, seat: Side, here: bool) -> Result<(), String> {
        let mut c = self.connection().await?;
        let key = self.seen_key(code);
        let field = format!("{}:{}", seat.index(), self.instance);
        if here {
            c.hset::<_, _, _, ()>(&key, field, now_ms())
                .await
                .map_err(|e| e.to_string())?;
        } else {
            c.hdel::<_, _, ()>(&key, field)
                .await
                .map_err(|e| e.to_string())?;
            c.hset::<_, _, _, ()>(&key, format!("{}:left", seat.index()), now_ms())
                .await
                .map_err(|e| e.to_string())?;
        }
        c.expire::<_, ()>(&key, 24 * 3600)
            .await
            .map_err(|e| e.to_string())
    }

    /// Each seat as the other instances see it: whether its player is connected to one of
    /// them, and when they last left one (ms since the epoch, 0 if never).
    async fn remote_seats(&self, code: &str) -> Result<([bool; 2], [u64; 2]), String> {
        let mut c = self.connection().await?;
        let all: HashMap<String, u64> = c
            .hgetall(self.seen_key(code))
            .await
            .map_err(|e| e.to_string())?;
        let now = now_ms();
        let mut online = [false; 2];
        let mut left = [0u64; 2];
        for (field, ms) in all {
            let Some((seat, who)) = field.split_once(':') else {
                continue;
            };
            let i = match seat {
                "0" => 0,
                "1" => 1,
                _ => continue,
            };
            if who == "left" {
                left[i] = left[i].max(ms);
            } else if who != self.instance {
                if now.saturating_sub(ms) <= PRESENCE_FRESH_MS {
                    online[i] = true;
                } else {
                    // An instance that stopped refreshing: its player left when it went.
                    left[i] = left[i].max(ms);
                }
            }
        }
        Ok((online, left))
    }
}

impl Hub {
    /// Joins a cluster: publishes this instance's events on `bus` and takes in the others'.
    /// Starts the tasks of a cluster member (the subscriber, presence, catch-up, time-outs).
    pub fn attach_bus(self: &Arc<Hub>, bus: Arc<Bus>) {
        let _ = self.bus.set(Arc::clone(&bus));
        let weak = Arc::downgrade(self);
        tokio::spawn(subscriber(weak.clone(), Arc::clone(&bus)));
        tokio::spawn(periodic(weak));
    }

    /// Whether clients are served now (not while the cluster's bus is down).
    pub fn available(&self) -> bool {
        self.bus_up.load(Ordering::Relaxed)
    }

    fn bus(&self) -> Option<&Arc<Bus>> {
        self.bus.get()
    }

    /// Publishes stored events to the other instances (nothing without a bus).
    pub(super) async fn broadcast(&self, code: &str, events: &[Sent]) {
        let Some(bus) = self.bus() else { return };
        let msg = BusMsg::Events {
            from: bus.instance.clone(),
            code: code.to_string(),
            events: super::stored_texts(events),
        };
        if let Err(e) = bus.publish(&msg).await {
            // The other instances will find the events in the database within a second.
            log!("game {code}: events not published ({e})");
        }
    }

    /// Tells the other instances that a player came or went on this one.
    pub(super) fn presence_changed(&self, code: &str, seat: Side, here: bool) {
        let Some(bus) = self.bus().cloned() else {
            return;
        };
        let code = code.to_string();
        tokio::spawn(async move {
            let _ = bus.mark_seat(&code, seat, here).await;
            let _ = bus
                .publish(&BusMsg::Presence {
                    from: bus.instance.clone(),
                    code,
                })
                .await;
        });
    }

    /// Tells the other instances of a spectator's suggestion.
    pub(super) fn suggestion_made(&self, code: &str, ply: u32, token: &str, mv: &str) {
        let Some(bus) = self.bus().cloned() else {
            return;
        };
        let msg = BusMsg::Suggest {
            from: bus.instance.clone(),
            code: code.to_string(),
            ply,
            token: token.to_string(),
            mv: mv.to_string(),
        };
        tokio::spawn(async move {
            let _ = bus.publish(&msg).await;
        });
    }

    /// Tells the other instances how many spectators this one has on a game.
    pub(super) fn spectators_changed(&self, code: &str, count: u32) {
        let Some(bus) = self.bus().cloned() else {
            return;
        };
        let msg = BusMsg::Spectators {
            from: bus.instance.clone(),
            code: code.to_string(),
            count,
        };
        tokio::spawn(async move {
            let _ = bus.publish(&msg).await;
        });
    }

    /// Brings a room up to its stored record (read now), sending its connections every event
    /// they have not had, in order.
    pub(super) async fn refresh_from_store(&self, room: &Room, inner: &mut RoomInner) {
        if let Ok(Some(rec)) = self.store.load(&room.code).await {
            self.advance_to(room, inner, rec, Vec::new()).await;
        }
    }

    /// Moves a room on to `rec`, a record of its game read from the store, and sends its
    /// connections every event between the room's and the record's, once and in order: those
    /// in `known` (a bus message's) as they are, the others read from the events the store
    /// keeps. When they cannot all be had now (the database is away) the room stays as it
    /// was, to be brought up by the next catch-up: a room never stands ahead of what its
    /// connections were sent.
    pub(super) async fn advance_to(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        rec: GameRecord,
        known: Vec<(u64, String)>,
    ) -> bool {
        let from = inner.live.rec.seq;
        let to = rec.seq;
        if to <= from {
            return true;
        }
        let mut events: std::collections::BTreeMap<u64, Sent> = known
            .iter()
            .filter(|(s, _)| *s > from && *s <= to)
            .filter_map(|(s, t)| Sent::parse(&room.code, *s, t).map(|e| (*s, e)))
            .collect();
        if events.len() as u64 != to - from {
            match self
                .store
                .events_since(&room.code, from, (to - from) as usize)
                .await
            {
                Ok(rows) => {
                    for (s, t) in rows {
                        if s > from && s <= to && !events.contains_key(&s) {
                            if let Some(e) = Sent::parse(&room.code, s, &t) {
                                events.insert(s, e);
                            }
                        }
                    }
                }
                Err(e) => {
                    log!("game {}: events {from}..{to} not read ({e})", room.code);
                    return false;
                }
            }
        }
        if events.len() as u64 != to - from {
            log!(
                "game {}: the store has {} of the events {}..={to}",
                room.code,
                events.len(),
                from + 1
            );
            return false;
        }
        let live = match Live::from_record(rec) {
            Ok(l) => l,
            Err(e) => {
                log!(
                    "game {}: the stored game does not rebuild: {}",
                    room.code,
                    e.0
                );
                return false;
            }
        };
        inner.live = live;
        room.deadline_ms
            .store(inner.live.rec.deadline_ms().unwrap_or(0), Ordering::Relaxed);
        let fresh: Vec<Sent> = events.into_values().collect();
        self.deliver(room, inner, &fresh);
        true
    }

    async fn on_bus(&self, msg: BusMsg) {
        let Some(bus) = self.bus() else { return };
        if msg.from() == bus.instance {
            return;
        }
        let code = match &msg {
            BusMsg::Events { code, .. }
            | BusMsg::Presence { code, .. }
            | BusMsg::Suggest { code, .. }
            | BusMsg::Spectators { code, .. } => code.clone(),
        };
        let room = self.in_memory(&code);
        let Some(room) = room else { return };
        let mut inner = room.inner.lock().await;
        match msg {
            BusMsg::Events { events, .. } => {
                let local = inner.live.rec.seq;
                if events.iter().all(|(s, _)| *s <= local) {
                    return; // sent on already
                }
                // The record is read whatever the message holds: it may stand further on
                // (another event was stored meanwhile, its message still on the way), and
                // every event up to it is sent on now, in order, once.
                match self.store.load(&code).await {
                    Ok(Some(rec)) => {
                        self.advance_to(&room, &mut inner, rec, events).await;
                    }
                    Ok(None) => {}
                    Err(e) => log!("game {code}: not read after the other instance's news ({e})"),
                }
            }
            BusMsg::Presence { .. } => self.read_presence(&room, &mut inner).await,
            BusMsg::Suggest { ply, token, mv, .. } => {
                room.crowd().remote_suggestion(ply, &token, mv);
                room.crowd_dirty.store(true, Ordering::Relaxed);
            }
            BusMsg::Spectators { from, count, .. } => {
                let mut crowd = room.crowd();
                crowd.remote.insert(from, (count, now_ms()));
                crowd.count_dirty = true;
                room.crowd_dirty.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Reads who is here on the other instances; tells this instance's connections when a
    /// seat's presence changed.
    async fn read_presence(&self, room: &Room, inner: &mut RoomInner) {
        let Some(bus) = self.bus() else { return };
        let Ok((online, left)) = bus.remote_seats(&room.code).await else {
            return;
        };
        let now = now_ms();
        let before = inner.presence(now);
        inner.remote_online = online;
        inner.remote_left = left;
        let after = inner.presence(now);
        for seat in [Side::White, Side::Black] {
            let i = seat.index();
            if before[i].0 != after[i].0 && inner.live.rec.seats[i].is_some() {
                let msg = to_text(&ServerMsg::Presence {
                    code: room.code.clone(),
                    seat,
                    online: after[i].0,
                });
                self.tell_all(room, inner, &msg, None);
            }
        }
    }

    /// The bus went down: every connection is closed and new ones are refused until it is
    /// back, so that no client looks at a board that no longer gets the other instances' news.
    async fn bus_down(&self, error: &str) {
        if !self.bus_up.swap(false, Ordering::Relaxed) {
            return;
        }
        log!("redis unavailable ({error}): closing the connections until it is back");
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        let bye = to_text(&ServerMsg::Bye {
            reason: CloseReason::Shutdown,
            message: "the server lost its message bus; reconnect in a moment".into(),
        });
        for r in rooms {
            let inner = r.inner.lock().await;
            for sub in inner.subs.values() {
                sub.conn.send(Arc::clone(&bye));
                sub.conn.kill.notify_one();
            }
        }
        self.kick_all.notify_waiters();
    }

    async fn bus_back(&self) {
        if self.bus_up.swap(true, Ordering::Relaxed) {
            return;
        }
        log!("redis is back: serving again");
        self.catch_up_all(false).await;
    }

    /// Compares the games in memory (those with connections, unless `all`) with the
    /// database and sends on what this instance missed.
    async fn catch_up_all(&self, only_watched: bool) {
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        let mut codes = Vec::new();
        let mut local = HashMap::new();
        for r in &rooms {
            let inner = r.inner.lock().await;
            if !only_watched || !inner.subs.is_empty() {
                codes.push(r.code.clone());
                local.insert(r.code.clone(), inner.live.rec.seq);
            }
        }
        if codes.is_empty() {
            return;
        }
        let Ok(stored) = self.store.seqs(&codes).await else {
            return;
        };
        for (code, seq) in stored {
            if local.get(&code).is_some_and(|l| *l < seq) {
                if let Some(r) = rooms.iter().find(|r| r.code == code) {
                    let mut inner = r.inner.lock().await;
                    self.refresh_from_store(r, &mut inner).await;
                }
            }
        }
    }

    /// Ends on time the games the database says are due (any instance may; a second attempt
    /// conflicts and lands nothing).
    async fn sweep_store(&self) {
        let Ok(codes) = self.store.due(now_ms(), 100).await else {
            return;
        };
        for code in codes {
            let Ok(room) = self.room(&code).await else {
                continue;
            };
            room.deadline_ms.store(1, Ordering::Relaxed);
        }
        self.tick().await;
    }

    /// Refreshes this instance's presence marks and its spectator counts, and reads the
    /// others'.
    async fn refresh_presence(&self) {
        let Some(bus) = self.bus().cloned() else {
            return;
        };
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        let now = now_ms();
        for r in rooms {
            let mut inner = r.inner.lock().await;
            if inner.subs.is_empty() {
                continue;
            }
            for seat in [Side::White, Side::Black] {
                if inner.online(seat) {
                    let _ = bus.mark_seat(&r.code, seat, true).await;
                }
            }
            self.read_presence(&r, &mut inner).await;
            let count = {
                let mut crowd = r.crowd();
                let before = crowd.remote.len();
                crowd
                    .remote
                    .retain(|_, (_, at)| now.saturating_sub(*at) <= COUNT_FRESH_MS);
                if crowd.remote.len() != before {
                    crowd.count_dirty = true;
                    r.crowd_dirty.store(true, Ordering::Relaxed);
                }
                crowd.local()
            };
            if count > 0 {
                self.spectators_changed(&r.code, count);
            }
        }
    }
}

/// Takes in the other instances' messages; reconnects when Redis goes away.
async fn subscriber(hub: Weak<Hub>, bus: Arc<Bus>) {
    loop {
        let result: Result<(), String> = async {
            let mut pubsub = bus
                .client
                .get_async_pubsub()
                .await
                .map_err(|e| e.to_string())?;
            pubsub
                .subscribe(bus.channel())
                .await
                .map_err(|e| e.to_string())?;
            // A command connection too (publishing, presence).
            bus.connection().await?;
            if let Some(h) = hub.upgrade() {
                h.bus_back().await;
            }
            let mut stream = pubsub.into_on_message();
            while let Some(msg) = stream.next().await {
                let Some(h) = hub.upgrade() else {
                    return Ok(());
                };
                let Ok(text) = msg.get_payload::<String>() else {
                    continue;
                };
                if let Ok(m) = serde_json::from_str::<BusMsg>(&text) {
                    h.on_bus(m).await;
                }
            }
            Err("the subscription ended".to_string())
        }
        .await;
        let Some(h) = hub.upgrade() else { return };
        if let Err(e) = result {
            h.bus_down(&e).await;
        }
        drop(h);
        *bus.conn.lock().await = None;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// The cluster member's clockwork: catch-up every second, presence every two, time-outs from
/// the database four times a second.
async fn periodic(hub: Weak<Hub>) {
    let mut every = tokio::time::interval(Duration::from_millis(250));
    let mut n: u64 = 0;
    loop {
        every.tick().await;
        let Some(h) = hub.upgrade() else { return };
        n += 1;
        h.sweep_store().await;
        if !h.available() {
            continue;
        }
        if n.is_multiple_of(4) {
            h.catch_up_all(true).await;
        }
        if n.is_multiple_of(8) {
            h.refresh_presence().await;
        }
    }
}
