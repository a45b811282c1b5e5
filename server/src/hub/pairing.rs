//! Quick pairing: players wait in a pool (a game and a time control) and are paired with the
//! waiting player nearest in rating, the accepted gap widening the longer they wait; the game
//! starts at once, rated, the colours fair over each player's history.
//!
//! The pools live in the store (the `seeks` table), so that players waiting on different
//! instances of a cluster are paired with each other. Every instance, four times a second,
//! pairs what it finds (a pairing lands only if neither player was paired before, so two
//! instances pairing at once make one game) and tells its own waiting connections when they
//! were paired. Each instance notes every second that its waiting connections are still
//! there: a seek not seen for three seconds (its instance died) is not paired until the
//! player comes back — through another instance, which takes the seek on — and a player told
//! of a pairing whose connection broke meanwhile is told again when they come back.

use std::collections::HashMap;

use takhte_protocol::rating::PoolChoice;
use takhte_protocol::{ColourChoice, ErrorCode, GameSettings, ServerMsg};
use takhte_rules::Side;

use super::{lock, store_refusal, ConnHandle, Hub};
use crate::game::{Actor, Command, Context, Live, Refusal, MAX_BASE_MS, MAX_INCREMENT_MS};
use crate::now_ms;
use crate::store::{SeekRow, StoreError, Write};

/// A seek not seen for this long is not paired (its instance has gone).
pub const ALIVE_WITHIN_MS: u64 = 3_000;
/// A pairing is told again, to a player who comes back, for this long.
pub const PAIRING_KEPT_MS: u64 = 60_000;
/// The rating gap accepted at once, and how much it widens each second of waiting, up to the
/// widest.
pub const GAP_AT_ONCE: f64 = 100.0;
/// See [`GAP_AT_ONCE`].
pub const GAP_PER_SECOND: f64 = 20.0;
/// See [`GAP_AT_ONCE`].
pub const GAP_WIDEST: f64 = 1_000.0;
/// The wait added for each rated game a player left in the last week, up to the longest.
pub const HELD_PER_ABANDON_MS: u64 = 20_000;
/// See [`HELD_PER_ABANDON_MS`].
pub const HELD_LONGEST_MS: u64 = 120_000;

/// A connection of this instance waiting in a pool.
#[derive(Clone)]
pub(super) struct Seeker {
    conn: ConnHandle,
    actor: Actor,
}

/// The rating gap a player accepts after waiting `waited_ms`.
pub fn gap_after(waited_ms: u64) -> f64 {
    (GAP_AT_ONCE + GAP_PER_SECOND * waited_ms as f64 / 1000.0).min(GAP_WIDEST)
}

/// The pairs of one pool's seeks at `now_ms`: the longest waiting first, each with the nearest
/// in rating within both players' gaps; nobody twice, nobody with themselves, nobody before
/// their wait is over.
pub fn pairs_of(seeks: &[SeekRow], now_ms: u64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..seeks.len()).collect();
    order.sort_by_key(|&i| (seeks[i].since_ms, seeks[i].token_hash.clone()));
    let mut taken = vec![false; seeks.len()];
    let mut out = Vec::new();
    for &i in &order {
        let s = &seeks[i];
        if taken[i] || s.not_before_ms > now_ms {
            continue;
        }
        let gap_s = gap_after(now_ms.saturating_sub(s.since_ms));
        let best = order
            .iter()
            .copied()
            .filter(|&j| {
                let o = &seeks[j];
                j != i
                    && !taken[j]
                    && o.token_hash != s.token_hash
                    && o.pool == s.pool
                    && o.not_before_ms <= now_ms
                    && (o.rating - s.rating).abs()
                        <= gap_s.min(gap_after(now_ms.saturating_sub(o.since_ms)))
            })
            .min_by(|&a, &b| {
                let (da, db) = (
                    (seeks[a].rating - s.rating).abs(),
                    (seeks[b].rating - s.rating).abs(),
                );
                da.total_cmp(&db)
            });
        if let Some(j) = best {
            taken[i] = true;
            taken[j] = true;
            out.push((i, j));
        }
    }
    out
}

impl Hub {
    /// A player enters a pool (leaving any other): the answer says how long they are held
    /// back (players who left rated games wait longer). A player whose pairing was made while
    /// their connection broke is told of it again.
    pub async fn seek(
        &self,
        conn: &ConnHandle,
        actor: &Actor,
        choice: PoolChoice,
    ) -> Result<(), Refusal> {
        self.settle_outage().await;
        let c = choice.clock;
        if !(60_000..=MAX_BASE_MS).contains(&c.base_ms) || c.increment_ms > MAX_INCREMENT_MS {
            return Err(Refusal {
                code: ErrorCode::BadSettings,
                message: "quick pairing's clock: 1 minute to 3 hours, at most 3 minutes a move"
                    .into(),
            });
        }
        let now = now_ms();
        let pool = choice.key();
        let before = self
            .store
            .seeks_of(std::slice::from_ref(&actor.token_hash))
            .await
            .map_err(store_refusal)?
            .into_iter()
            .next();
        if let Some(b) = &before {
            if let Some(code) = &b.paired_code {
                let going = self
                    .store
                    .load(code)
                    .await
                    .map_err(store_refusal)?
                    .is_some_and(|g| g.end.is_none());
                if b.pool == pool && going {
                    // Paired while away: the game, not a second one.
                    self.tell_paired(conn, actor, code).await;
                    return Ok(());
                }
            }
        }
        self.check_open_games(&actor.token_hash, true).await?;
        let player = self
            .store
            .player(&actor.token_hash)
            .await
            .map_err(store_refusal)?;
        let held = player
            .filter(|p| now.saturating_sub(p.last_abandon_ms) < 7 * 86_400_000)
            .map_or(0, |p| {
                (HELD_PER_ABANDON_MS * u64::from(p.abandons)).min(HELD_LONGEST_MS)
            });
        let rating = self
            .rating_of(&actor.token_hash, choice.kind)
            .await
            .map_err(store_refusal)?;
        let since = match &before {
            Some(b) if b.pool == pool && b.paired_code.is_none() => b.since_ms,
            _ => now,
        };
        let row = SeekRow {
            token_hash: actor.token_hash.clone(),
            pool,
            name: actor.name.clone(),
            rating: rating.rating,
            since_ms: since,
            alive_ms: now,
            not_before_ms: now + held,
            paired_code: None,
        };
        self.store
            .write(vec![
                Write::Player {
                    token_hash: actor.token_hash.clone(),
                    id: crate::player_id(&actor.token_hash),
                    name: actor.name.clone(),
                },
                Write::Seek(row),
            ])
            .await
            .map_err(store_refusal)?;
        let old = lock(&self.seekers).insert(
            actor.token_hash.clone(),
            Seeker {
                conn: conn.clone(),
                actor: actor.clone(),
            },
        );
        if let Some(old) = old.filter(|o| o.conn.id != conn.id) {
            old.conn.send_msg(&ServerMsg::SeekEnded);
        }
        conn.send_msg(&ServerMsg::Seeking {
            choice,
            held_ms: held,
        });
        Ok(())
    }

    /// The player leaves the pool.
    pub async fn cancel_seek(&self, conn: &ConnHandle, actor: &Actor) -> Result<(), Refusal> {
        lock(&self.seekers).remove(&actor.token_hash);
        self.store
            .write(vec![Write::Unseek {
                token_hash: actor.token_hash.clone(),
                paired: false,
            }])
            .await
            .map_err(store_refusal)?;
        conn.send_msg(&ServerMsg::SeekEnded);
        Ok(())
    }

    /// A connection closed: if it was waiting in a pool, the player leaves it.
    pub async fn seeker_gone(&self, conn_id: u64, token_hash: &str) {
        let mine = {
            let mut seekers = lock(&self.seekers);
            match seekers.get(token_hash) {
                Some(s) if s.conn.id == conn_id => seekers.remove(token_hash).is_some(),
                _ => false,
            }
        };
        if mine {
            let _ = self
                .store
                .write(vec![Write::Unseek {
                    token_hash: token_hash.to_string(),
                    paired: false,
                }])
                .await;
        }
    }

    /// The games a pairing opened on a closing connection (it leaves them with its own).
    pub fn paired_opens(&self, conn_id: u64) -> Vec<String> {
        lock(&self.paired_opens)
            .remove(&conn_id)
            .unwrap_or_default()
    }

    /// Tells a connection its pairing and opens the game on it.
    async fn tell_paired(&self, conn: &ConnHandle, actor: &Actor, code: &str) {
        conn.send_msg(&ServerMsg::Paired {
            code: code.to_string(),
        });
        lock(&self.paired_opens)
            .entry(conn.id)
            .or_default()
            .push(code.to_string());
        let _ = self.open(conn, actor, code, None).await;
    }

    /// One round of the pools: notes that this instance's seekers are still there (every
    /// `alive` round), pairs what can be paired, tells this instance's paired seekers.
    pub async fn pair_round(&self, alive: bool) {
        let now = now_ms();
        let local: Vec<String> = lock(&self.seekers).keys().cloned().collect();
        if alive && !local.is_empty() {
            let _ = self
                .store
                .write(vec![Write::Alive {
                    token_hashes: local.clone(),
                    at_ms: now,
                }])
                .await;
        }
        if let Err(e) = self.make_pairs(now).await {
            crate::log!("quick pairing: {e}");
        }
        if local.is_empty() {
            return;
        }
        let Ok(rows) = self.store.seeks_of(&local).await else {
            return;
        };
        for row in rows {
            let Some(code) = row.paired_code else {
                continue;
            };
            let seeker = lock(&self.seekers).remove(&row.token_hash);
            if let Some(s) = seeker {
                self.tell_paired(&s.conn, &s.actor, &code).await;
            }
        }
        if alive {
            let _ = self
                .store
                .forget_seeks(now.saturating_sub(PAIRING_KEPT_MS))
                .await;
        }
    }

    /// Pairs the open seeks of every pool, each pair into a new rated game.
    async fn make_pairs(&self, now: u64) -> Result<(), StoreError> {
        let open = self
            .store
            .open_seeks(now.saturating_sub(ALIVE_WITHIN_MS))
            .await?;
        let mut pools: HashMap<String, Vec<SeekRow>> = HashMap::new();
        for s in open {
            pools.entry(s.pool.clone()).or_default().push(s);
        }
        for (pool, seeks) in pools {
            let Some(choice) = PoolChoice::parse(&pool) else {
                continue;
            };
            for (i, j) in pairs_of(&seeks, now) {
                match self.start_paired(choice, &seeks[i], &seeks[j], now).await {
                    // Paired meanwhile by another instance, or a limit: the seeks stay.
                    Ok(()) | Err(StoreError::Conflict) | Err(StoreError::TooManyGames { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// The game of a pairing: colours fair over each player's history (the one who has had
    /// White more often takes Black; even, by lot), rated, open to spectators.
    async fn start_paired(
        &self,
        choice: PoolChoice,
        a: &SeekRow,
        b: &SeekRow,
        now: u64,
    ) -> Result<(), StoreError> {
        let history = |h: String| async move {
            self.store.standings(&h).await.map(|all| {
                all.into_iter()
                    .find(|(k, _)| k == choice.kind.name())
                    .map_or(0i64, |(_, s)| i64::from(s.whites) - i64::from(s.blacks))
            })
        };
        let (ha, hb) = (
            history(a.token_hash.clone()).await?,
            history(b.token_hash.clone()).await?,
        );
        let mut rng = self.rng();
        let a_white = match ha.cmp(&hb) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => rand::Rng::gen_bool(&mut rng, 0.5),
        };
        let settings = GameSettings {
            kind: choice.kind,
            clock: Some(choice.clock),
            colour: if a_white {
                ColourChoice::White
            } else {
                ColourChoice::Black
            },
            public: false,
            position: None,
            spectators: true,
            audience: false,
            rated: true,
        };
        let actor = |s: &SeekRow| Actor {
            token_hash: s.token_hash.clone(),
            name: s.name.clone(),
        };
        for _ in 0..8 {
            let code = takhte_protocol::code::generate(&mut rng);
            let Ok(mut live) =
                Live::create(code.clone(), settings.clone(), &actor(a), now, &mut rng)
            else {
                return Ok(());
            };
            let ctx = Context {
                now_ms: now,
                opponent_away_ms: 0,
                claim_after_ms: self.config.claim_after_ms,
                crowd: None,
            };
            if live
                .apply(&actor(b), Command::Join, &ctx, &mut rng)
                .is_err()
            {
                return Ok(());
            }
            self.seat_ratings(&mut live.rec).await?;
            debug_assert_eq!(
                live.rec.seat_of(&a.token_hash),
                Some(if a_white { Side::White } else { Side::Black })
            );
            let writes = vec![
                Write::OpenGamesBelow {
                    players: vec![a.token_hash.clone(), b.token_hash.clone()],
                    max: self.config.max_open_games,
                },
                Write::Insert(live.rec.clone()),
                Write::Pair {
                    a: a.token_hash.clone(),
                    b: b.token_hash.clone(),
                    code: code.clone(),
                    at_ms: now,
                },
            ];
            match self.store.write(writes).await {
                Ok(()) => {
                    self.install(live);
                    return Ok(());
                }
                // The code was taken: another; the seeks were paired meanwhile: none.
                Err(StoreError::Conflict) => {
                    let still = self
                        .store
                        .seeks_of(&[a.token_hash.clone(), b.token_hash.clone()])
                        .await?;
                    if still.iter().any(|s| s.paired_code.is_some()) || still.len() < 2 {
                        return Err(StoreError::Conflict);
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(who: &str, pool: &str, rating: f64, since: u64) -> SeekRow {
        SeekRow {
            token_hash: who.into(),
            pool: pool.into(),
            name: who.into(),
            rating,
            since_ms: since,
            alive_ms: since,
            not_before_ms: since,
            paired_code: None,
        }
    }

    #[test]
    fn the_nearest_within_a_gap_that_widens_with_waiting() {
        let now = 100_000;
        // Just come: a 1500 with a 1550 and a 1900: the 1550 (within 100).
        let seeks = [
            seek("a", "chess:180+2", 1500.0, now),
            seek("b", "chess:180+2", 1900.0, now),
            seek("c", "chess:180+2", 1550.0, now),
        ];
        assert_eq!(pairs_of(&seeks, now), vec![(0, 2)]);
        // 1500 and 1900 fresh: too far. After 15 s each (gap 100 + 300 = 400): paired.
        let far = [seek("a", "p", 1500.0, now), seek("b", "p", 1900.0, now)];
        assert!(pairs_of(&far, now).is_empty());
        assert!(pairs_of(&far, now + 14_000).is_empty());
        assert_eq!(pairs_of(&far, now + 15_000), vec![(0, 1)]);
        // Both must accept: a long waiter does not take a newcomer far from them.
        let one_sided = [
            seek("a", "p", 1500.0, now - 60_000),
            seek("b", "p", 1900.0, now),
        ];
        assert!(pairs_of(&one_sided, now).is_empty());
        // Other pools, the same player twice, a wait not over: never.
        let mixed = [
            seek("a", "chess:180+2", 1500.0, now),
            seek("b", "chess:300+3", 1500.0, now),
            seek("a", "chess:180+2", 1500.0, now),
        ];
        assert!(pairs_of(&mixed, now).is_empty());
        let mut held = seek("b", "p", 1500.0, now);
        held.not_before_ms = now + 10_000;
        assert!(pairs_of(&[seek("a", "p", 1500.0, now), held], now).is_empty());
        // Many: everyone at most once.
        let many: Vec<SeekRow> = (0..101)
            .map(|i| {
                seek(
                    &format!("p{i}"),
                    "p",
                    1400.0 + (i * 7 % 200) as f64,
                    now - i * 100,
                )
            })
            .collect();
        let pairs = pairs_of(&many, now);
        let mut seen = std::collections::HashSet::new();
        for (i, j) in &pairs {
            assert!(seen.insert(*i) && seen.insert(*j));
        }
        assert_eq!(pairs.len(), 50);
    }

    #[test]
    fn pool_keys_read_back() {
        for c in PoolChoice::common() {
            assert_eq!(PoolChoice::parse(&c.key()), Some(c));
        }
        assert_eq!(PoolChoice::parse("chess"), None);
        assert_eq!(PoolChoice::parse("go:180+2"), None);
    }
}
