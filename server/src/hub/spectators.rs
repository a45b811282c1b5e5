//! Spectators: watching a game, suggesting moves, the batched counts and tallies, the live
//! games list.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use takhte_protocol::{ErrorCode, LiveEntry, ServerMsg};

use super::room::Room;
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
        let room = self.room(code).await?;
        let mut inner = room.inner.lock().await;
        match inner.subs.get(&conn.id) {
            Some(s) if s.spectator => {}
            Some(_) => {
                return Err(Refusal {
                    code: ErrorCode::NotWatching,
                    message: "players do not suggest moves".into(),
                })
            }
            None => {
                return Err(Refusal {
                    code: ErrorCode::NotWatching,
                    message: "watch the game before suggesting a move".into(),
                })
            }
        }
        let text = inner.live.check_suggestion(ply, mv)?;
        if inner.suggestions.get(&actor.token_hash) == Some(&text) {
            return Err(Refusal {
                code: ErrorCode::DuplicateSuggestion,
                message: format!("you suggest {text} already"),
            });
        }
        let n = inner.changes.get(&actor.token_hash).copied().unwrap_or(0);
        if n >= self.config.max_suggestions {
            return Err(Refusal {
                code: ErrorCode::TooManySuggestions,
                message: format!("at most {} suggestions a move", self.config.max_suggestions),
            });
        }
        inner.changes.insert(actor.token_hash.clone(), n + 1);
        self.suggestion_made(&room.code, ply, &actor.token_hash, &text);
        inner.suggestions.insert(actor.token_hash.clone(), text);
        inner.tally_dirty = true;
        room.crowd_dirty.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Sends the spectator counts and suggestion tallies that changed, at most every
    /// `crowd_every_ms` per game: one message, serialized once, for all its connections.
    pub async fn flush_crowds(&self) {
        let now = now_ms();
        let dirty: Vec<Arc<Room>> = lock(&self.rooms)
            .values()
            .filter(|r| r.crowd_dirty.load(Ordering::Relaxed))
            .cloned()
            .collect();
        for room in dirty {
            let mut inner = room.inner.lock().await;
            if now.saturating_sub(inner.flushed_ms) < self.config.crowd_every_ms {
                continue;
            }
            room.crowd_dirty.store(false, Ordering::Relaxed);
            inner.flushed_ms = now;
            if std::mem::take(&mut inner.count_dirty) {
                self.spectators_changed(&room.code, inner.local_spectators());
                let msg = to_text(&ServerMsg::Crowd {
                    code: room.code.clone(),
                    spectators: inner.spectators(),
                });
                for sub in inner.subs.values() {
                    sub.conn.send(Arc::clone(&msg));
                }
            }
            if std::mem::take(&mut inner.tally_dirty) {
                let msg = to_text(&ServerMsg::Suggestions {
                    code: room.code.clone(),
                    ply: inner.live.rec.moves.len() as u32,
                    crowd: inner.crowd().unwrap_or_default(),
                });
                for sub in inner.subs.values() {
                    if inner.sees_suggestions(sub.seat, sub.spectator) {
                        sub.conn.send(Arc::clone(&msg));
                    }
                }
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
