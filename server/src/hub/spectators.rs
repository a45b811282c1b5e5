//! Spectators: watching a game, suggesting moves, the batched counts and tallies, the live
//! games list.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use takhte_protocol::{ErrorCode, LiveEntry, ServerMsg};

use super::crowd::NotTaken;
use super::room::{Frame, Room};
use super::{lock, store_refusal, to_text, ConnHandle, Hub};
use crate::game::{Actor, Live, Refusal, Stage};
use crate::now_ms;

impl Hub {
    /// Watches a game as a spectator (a player of the game opens it instead).
    pub async fn watch(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        code: &str,
        since: Option<u64>,
    ) -> Result<(), Refusal> {
        let room = self.room(code).await?;
        let mut inner = room.inner.lock().await;
        if inner.live.rec.seat_of(&actor.token_hash).is_some() {
            self.reopen(&room, &mut inner, conn, actor, false, since)
                .await;
            return Ok(());
        }
        if !inner.live.rec.settings.spectators {
            return Err(Refusal {
                code: ErrorCode::NoSpectators,
                message: "the players of this game do not allow spectators".into(),
            });
        }
        let already = inner.subs.get(&conn.id).is_some_and(|s| s.spectator);
        if !already && inner.spectators() as usize >= self.config.max_spectators {
            return Err(Refusal {
                code: ErrorCode::TooManySpectators,
                message: format!(
                    "this game has {} spectators already",
                    self.config.max_spectators
                ),
            });
        }
        self.reopen(&room, &mut inner, conn, actor, true, since)
            .await;
        // From here on its events, counts and tallies come through the feed (the catch-up
        // above went first on the same queue).
        conn.feed(&room, inner.live.rec.seq);
        Ok(())
    }

    /// A spectator's suggestion for the move at `ply`.
    pub async fn suggest(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        code: &str,
        ply: u32,
        mv: &str,
    ) -> Result<(), Refusal> {
        // The crowd's own lock, never the game's: a suggestion never holds up a move.
        let room = self.room(code).await?;
        let taken = room.crowd().suggest(
            conn.id,
            &actor.token_hash,
            ply,
            mv,
            self.config.max_suggestions,
        );
        match taken {
            Ok(text) => {
                self.suggestion_made(&room.code, ply, &actor.token_hash, &text);
                room.crowd_dirty.store(true, Ordering::Relaxed);
                Ok(())
            }
            Err(NotTaken::NotWatching) => Err(Refusal {
                code: ErrorCode::NotWatching,
                message: "watch the game before suggesting a move (players do not suggest)".into(),
            }),
            Err(NotTaken::Duplicate(text)) => Err(Refusal {
                code: ErrorCode::DuplicateSuggestion,
                message: format!("you suggest {text} already"),
            }),
            Err(NotTaken::TooMany) => Err(Refusal {
                code: ErrorCode::TooManySuggestions,
                message: format!("at most {} suggestions a move", self.config.max_suggestions),
            }),
            Err(NotTaken::Refused(r)) => Err(r),
        }
    }

    /// Sends the spectator counts and suggestion tallies that changed, at most every
    /// `crowd_every_ms` per game, the latest of each: one message, made once, to the players'
    /// connections that see it and to the spectators through the feed.
    pub async fn flush_crowds(&self) {
        let now = now_ms();
        let dirty: Vec<Arc<Room>> = lock(&self.rooms)
            .values()
            .filter(|r| r.crowd_dirty.load(Ordering::Relaxed))
            .cloned()
            .collect();
        for room in dirty {
            // What to send, taken under the crowd's own lock.
            let (count, tally) = {
                let mut crowd = room.crowd();
                if now.saturating_sub(crowd.flushed_ms) < self.config.crowd_every_ms {
                    continue;
                }
                room.crowd_dirty.store(false, Ordering::Relaxed);
                crowd.flushed_ms = now;
                let count =
                    std::mem::take(&mut crowd.count_dirty).then(|| (crowd.local(), crowd.total()));
                let tally = std::mem::take(&mut crowd.tally_dirty)
                    .then(|| (crowd.ply(), crowd.tally().unwrap_or_default()));
                (count, tally)
            };
            let inner = room.inner.lock().await;
            if let Some((local, total)) = count {
                self.spectators_changed(&room.code, local);
                let msg = to_text(&ServerMsg::Crowd {
                    code: room.code.clone(),
                    spectators: total,
                });
                self.tell_all(&room, &inner, &msg, None);
            }
            if let Some((ply, crowd)) = tally {
                let msg = to_text(&ServerMsg::Suggestions {
                    code: room.code.clone(),
                    ply,
                    crowd,
                });
                for sub in inner.subs.values() {
                    if !sub.spectator && inner.sees_suggestions(sub.seat, false) {
                        sub.conn.send(Arc::clone(&msg));
                    }
                }
                let _ = room.feed.send(Frame { seq: 0, text: msg });
            }
        }
    }

    /// The public games in play that may be watched, most watched first.
    pub async fn live_games(&self) -> Result<Vec<LiveEntry>, Refusal> {
        let recs = self
            .store
            .at_stage(Stage::Playing, true, 200)
            .await
            .map_err(store_refusal)?;
        let mut out = Vec::new();
        for rec in recs {
            if !rec.settings.spectators {
                continue;
            }
            let room = self.in_memory(&rec.code);
            let entry = match room {
                Some(r) => {
                    let inner = r.inner.lock().await;
                    inner.live.live_entry(inner.spectators())
                }
                None => match Live::from_record(rec) {
                    Ok(l) => l.live_entry(0),
                    Err(_) => continue,
                },
            };
            out.push(entry);
        }
        out.sort_by(|a, b| b.spectators.cmp(&a.spectators).then(b.plies.cmp(&a.plies)));
        Ok(out)
    }
}
