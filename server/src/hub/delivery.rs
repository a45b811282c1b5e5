//! Who is on a room and what they are sent: subscribing a connection (a player's or a
//! spectator's), what a connection that comes back is sent (every event after the one it had,
//! from memory or from the store, or the whole state), and delivering a room's next events to
//! every connection on it, once and in order.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use takhte_protocol::{ErrorCode, ServerMsg};

use super::room::{Frame, Room, RoomInner, Sent, Sub};
use super::{to_text, ConnHandle, Hub, MAX_CATCH_UP_EVENTS};
use crate::game::{Actor, Refusal};
use crate::now_ms;

impl Hub {
    /// Adds `conn` to the room's connections (with its seat, if it sits there, or as a
    /// spectator) and tells the others if the player came back.
    pub(super) fn subscribe(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        conn: &ConnHandle,
        actor: &Actor,
        spectator: bool,
    ) {
        let seat = inner.live.rec.seat_of(&actor.token_hash);
        let was_online = seat.map(|s| inner.online(s));
        let spectator = spectator && seat.is_none();
        inner.subs.insert(
            conn.id,
            Sub {
                conn: conn.clone(),
                seat,
                spectator,
                token_hash: actor.token_hash.clone(),
                // Set by the catch-up that follows, under the same lock.
                after: inner.live.rec.seq,
            },
        );
        if spectator && room.crowd().watch(conn.id, &actor.token_hash) {
            room.crowd_dirty.store(true, Ordering::Relaxed);
        }
        inner.touched_ms = now_ms();
        if let (Some(s), Some(false)) = (seat, was_online) {
            inner.away[s.index()] = None;
            self.presence_changed(&room.code, s, true);
            let msg = to_text(&ServerMsg::Presence {
                code: room.code.clone(),
                seat: s,
                online: true,
            });
            self.tell_all(room, inner, &msg, Some(conn.id));
        }
    }

    /// Sends `msg` (no event: it carries no number) to every connection on the room but
    /// `except`: the players' connections each, the spectators through the feed.
    pub(super) fn tell_all(
        &self,
        room: &Room,
        inner: &RoomInner,
        msg: &Arc<str>,
        except: Option<u64>,
    ) {
        for sub in inner.subs.values() {
            if !sub.spectator && Some(sub.conn.id) != except {
                sub.conn.send(Arc::clone(msg));
            }
        }
        let _ = room.feed.send(Frame {
            seq: 0,
            text: Arc::clone(msg),
        });
    }

    pub(super) fn unsubscribe(&self, room: &Room, inner: &mut RoomInner, conn_id: u64) {
        let Some(sub) = inner.subs.remove(&conn_id) else {
            return;
        };
        inner.touched_ms = now_ms();
        if sub.spectator {
            room.crowd().unwatch(conn_id);
            room.crowd_dirty.store(true, Ordering::Relaxed);
            sub.conn.unfeed(&room.code);
        }
        if let Some(s) = sub.seat {
            if !inner.online(s) {
                inner.away[s.index()] = Some(now_ms());
                self.presence_changed(&room.code, s, false);
                let msg = to_text(&ServerMsg::Presence {
                    code: room.code.clone(),
                    seat: s,
                    online: false,
                });
                self.tell_all(room, inner, &msg, None);
            }
        }
    }

    /// Opens a game for a connection: the events since `since`, or the whole state.
    pub async fn open(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        code: &str,
        since: Option<u64>,
    ) -> Result<(), Refusal> {
        let room = self.room(code).await?;
        let mut inner = room.inner.lock().await;
        let seat = inner.live.rec.seat_of(&actor.token_hash);
        if seat.is_none() {
            return Err(Refusal {
                code: ErrorCode::NotAPlayer,
                message: "you do not sit at this game".into(),
            });
        }
        self.reopen(&room, &mut inner, conn, actor, false, since)
            .await;
        Ok(())
    }

    /// Subscribes a connection that opens or watches a game, and sends it what it lacks. A
    /// client that has seen events this instance has not had yet (it came from another) gets
    /// them once this instance has read them.
    pub(super) async fn reopen(
        &self,
        room: &Room,
        inner: &mut RoomInner,
        conn: &ConnHandle,
        actor: &Actor,
        spectator: bool,
        since: Option<u64>,
    ) {
        // What this same connection was sent already is on its way to it: never sent twice.
        let since = since.map(|s| match inner.subs.get(&conn.id) {
            Some(sub) => s.max(sub.after),
            None => s,
        });
        if since.is_some_and(|s| s > inner.live.rec.seq) {
            self.refresh_from_store(room, inner).await;
        }
        self.subscribe(room, inner, conn, actor, spectator);
        self.catch_up(inner, conn, actor, since).await;
    }

    /// Sends a connection what it missed since event `since`: every event after it (from
    /// memory, or from the events the store keeps), or the whole state when there is no
    /// `since` or the events cannot be had.
    pub(super) async fn catch_up(
        &self,
        inner: &mut RoomInner,
        conn: &ConnHandle,
        actor: &Actor,
        since: Option<u64>,
    ) {
        let seq = inner.live.rec.seq;
        let tally = inner
            .subs
            .get(&conn.id)
            .is_some_and(|s| inner.sees_tallies(s));
        let sent = match since {
            Some(since) if since == seq => true,
            // A number past the end (the store was read again just before): the client is
            // told where the game stands.
            Some(since) if since > seq => false,
            Some(since) => match self.events_after(inner, since).await {
                Some(events) => {
                    for e in &events {
                        conn.send(Arc::clone(e.text_for(tally)));
                    }
                    true
                }
                None => false,
            },
            None => false,
        };
        if !sent {
            self.send_state(inner, conn, actor, None);
        }
        if let Some(sub) = inner.subs.get_mut(&conn.id) {
            sub.after = seq;
        }
    }

    /// Sends a subscribed connection the whole state of the room as it sees it (the answer
    /// to the create request `request`, if it is one).
    pub(super) fn send_state(
        &self,
        inner: &mut RoomInner,
        conn: &ConnHandle,
        actor: &Actor,
        request: Option<String>,
    ) {
        let seat = inner.live.rec.seat_of(&actor.token_hash);
        let spectator = inner.subs.get(&conn.id).is_some_and(|s| s.spectator);
        let now = now_ms();
        let view = inner.watch_view(seat, spectator, &actor.token_hash);
        let mut state = inner.live.state_for(seat, inner.presence(now), now, &view);
        state.request = request;
        conn.send_msg(&ServerMsg::State { state });
        if let Some(sub) = inner.subs.get_mut(&conn.id) {
            sub.after = inner.live.rec.seq;
        }
    }

    /// Every event of the room after `since`, in order: from the recent ones in memory, else
    /// from the store. `None` when they cannot all be had (or are too many: the state is
    /// shorter then).
    pub(super) async fn events_after(&self, inner: &RoomInner, since: u64) -> Option<Vec<Sent>> {
        let seq = inner.live.rec.seq;
        if inner.recent.front().is_some_and(|f| f.seq <= since + 1)
            && inner.recent.back().is_some_and(|l| l.seq == seq)
        {
            return Some(
                inner
                    .recent
                    .iter()
                    .filter(|e| e.seq > since)
                    .cloned()
                    .collect(),
            );
        }
        if seq - since > MAX_CATCH_UP_EVENTS {
            return None;
        }
        let code = &inner.live.rec.code;
        let rows = self
            .store
            .events_since(code, since, (seq - since) as usize)
            .await
            .ok()?;
        let events: Vec<Sent> = rows
            .iter()
            .filter_map(|(s, t)| Sent::parse(code, *s, t))
            .collect();
        let whole = events.len() as u64 == seq - since
            && events
                .iter()
                .enumerate()
                .all(|(i, e)| e.seq == since + 1 + i as u64);
        whole.then_some(events)
    }

    /// Stops a connection's events of a game.
    pub async fn close(&self, conn_id: u64, code: &str) {
        let room = self.in_memory(code);
        if let Some(room) = room {
            let mut inner = room.inner.lock().await;
            self.unsubscribe(&room, &mut inner, conn_id);
        }
    }

    /// A connection ended: it leaves every room.
    pub async fn gone(&self, conn_id: u64, codes: &[String]) {
        for c in codes {
            self.close(conn_id, c).await;
        }
    }

    /// Sends numbered events, the next ones of the room in order, to every connection on the
    /// room that does not have them, and keeps them for catch-up: to the players' connections
    /// first, each its own message, then to the spectators through the feed (one shared frame
    /// per event, however many watch). Players of a game that is not an audience game get
    /// each move without the spectators' tally, and once the game is over the whole state
    /// with the suggestions of every move.
    pub(super) fn deliver(&self, room: &Room, inner: &mut RoomInner, events: &[Sent]) {
        inner.touched_ms = now_ms();
        let mut ended = false;
        let audience = inner.live.rec.settings.audience;
        for e in events {
            for sub in inner.subs.values_mut().filter(|s| !s.spectator) {
                if e.seq > sub.after {
                    sub.conn.send(Arc::clone(e.text_for(audience)));
                    sub.after = e.seq;
                }
            }
            ended |= e.ends;
            inner.recent.push_back(e.clone());
            while inner.recent.len() > self.config.recent_events {
                inner.recent.pop_front();
            }
        }
        let suggested = inner.live.rec.crowd.iter().any(Option::is_some);
        if ended && suggested && !audience {
            let now = now_ms();
            let presence = inner.presence(now);
            for sub in inner.subs.values() {
                if sub.spectator || sub.seat.is_none() {
                    continue;
                }
                let view = inner.watch_view(sub.seat, false, &sub.token_hash);
                let state = inner.live.state_for(sub.seat, presence, now, &view);
                sub.conn.send_msg(&ServerMsg::State { state });
            }
        }
        // The spectators: one frame each, read by every spectator connection at its pace.
        for e in events {
            let _ = room.feed.send(Frame {
                seq: e.seq,
                text: Arc::clone(&e.text),
            });
        }
        for sub in inner.subs.values_mut().filter(|s| s.spectator) {
            sub.after = sub.after.max(inner.live.rec.seq);
        }
        inner.crowd_moved_on();
        if room.crowd().tally_dirty {
            room.crowd_dirty.store(true, Ordering::Relaxed);
        }
    }
}
