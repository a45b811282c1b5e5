//! The PostgreSQL store, for several server instances sharing their games. A pool of
//! connections; every write is one transaction, and an update lands only if the game's stored
//! event number is still the one it was read with (`WHERE seq = expected`), so two instances
//! can never both move one game. Migrations (numbered files in `migrations/postgres/`) run at
//! start under an advisory lock, so instances starting together apply each once.
//!
//! When the database cannot be reached, every call returns [`StoreError::Unavailable`]: moves
//! are refused, never acknowledged and lost; the pool connects again when it is back.

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use super::{parse_record, Columns, PlayerRow, SeekRow, Standing, Storage, StoreError, Write};
use crate::game::{GameRecord, Stage};

/// The migrations, in order: (version, SQL).
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/postgres/0001_games.sql")),
    (
        2,
        include_str!("../../migrations/postgres/0002_events_deadlines.sql"),
    ),
    (3, include_str!("../../migrations/postgres/0003_beat.sql")),
    (
        4,
        include_str!("../../migrations/postgres/0004_creates.sql"),
    ),
    (
        5,
        include_str!("../../migrations/postgres/0005_players.sql"),
    ),
];

/// An arbitrary key for the advisory lock that serializes migrations between instances.
const MIGRATION_LOCK: i64 = 0x7a6b_7465_0001;

/// The first key of the advisory locks that serialize one player's seatings (the second is a
/// hash of the player).
const SEATING_LOCK: i32 = 0x7a6b_0002;

/// A PostgreSQL database.
pub struct Postgres {
    pool: Pool,
    url: String,
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

/// The URL without its password, for the log.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..s + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

impl Postgres {
    /// Connects to `url` (`postgres://USER:PASSWORD@HOST:PORT/DB`) and applies the
    /// migrations it lacks.
    pub async fn open(url: &str) -> Result<Postgres, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(unavailable)?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(16)
            .wait_timeout(Some(std::time::Duration::from_secs(5)))
            .create_timeout(Some(std::time::Duration::from_secs(5)))
            .recycle_timeout(Some(std::time::Duration::from_secs(5)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(unavailable)?;
        let store = Postgres {
            pool,
            url: redacted(url),
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(unavailable)?;
        let tx = client.transaction().await.map_err(unavailable)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(unavailable)?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)",
        )
        .await
        .map_err(unavailable)?;
        for (version, sql) in MIGRATIONS {
            let done = tx
                .query_opt(
                    "SELECT version FROM schema_migrations WHERE version = $1",
                    &[version],
                )
                .await
                .map_err(unavailable)?;
            if done.is_some() {
                continue;
            }
            tx.batch_execute(sql).await.map_err(unavailable)?;
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_ms) VALUES ($1, $2)",
                &[version, &(crate::now_ms() as i64)],
            )
            .await
            .map_err(unavailable)?;
        }
        tx.commit().await.map_err(unavailable)
    }

    async fn player_where(&self, cond: &str, value: &str) -> Result<Option<PlayerRow>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let row = client
            .query_opt(
                &format!(
                    "SELECT token_hash, id, name, abandons, last_abandon_ms FROM players WHERE {cond}"
                ),
                &[&value],
            )
            .await
            .map_err(unavailable)?;
        Ok(row.as_ref().map(player_row))
    }

    async fn records(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<GameRecord>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client.query(sql, params).await.map_err(unavailable)?;
        rows.iter()
            .map(|r| parse_record(r.get::<_, &str>(0)))
            .collect()
    }
}

#[async_trait]
impl Storage for Postgres {
    async fn load(&self, code: &str) -> Result<Option<GameRecord>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let row = client
            .query_opt("SELECT record FROM games WHERE code = $1", &[&code])
            .await
            .map_err(unavailable)?;
        row.map(|r| parse_record(r.get::<_, &str>(0))).transpose()
    }

    async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(unavailable)?;
        let tx = client.transaction().await.map_err(unavailable)?;
        for w in &writes {
            match w {
                Write::OpenGamesBelow { players, max } => {
                    open_games_below(&tx, players, *max).await?
                }
                Write::Insert(_) | Write::Update { .. } | Write::Request { .. } => {
                    game_write(&tx, w).await?
                }
                Write::Player { .. }
                | Write::Standing(_)
                | Write::RatedPair { .. }
                | Write::Abandoned { .. } => player_write(&tx, w).await?,
                Write::Seek(_)
                | Write::Unseek { .. }
                | Write::Alive { .. }
                | Write::Pair { .. } => seek_write(&tx, w).await?,
            }
        }
        tx.commit().await.map_err(unavailable)
    }

    async fn games_of(&self, token_hash: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.records(
            "SELECT record FROM games WHERE stage <> 'ended' AND (white_hash = $1 OR black_hash = $1) ORDER BY created_ms DESC LIMIT 100",
            &[&token_hash],
        )
        .await
    }

    async fn at_stage(
        &self,
        stage: Stage,
        public_only: bool,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let limit = limit as i64;
        if public_only {
            self.records(
                "SELECT record FROM games WHERE stage = $1 AND public ORDER BY created_ms DESC LIMIT $2",
                &[&stage.word(), &limit],
            )
            .await
        } else {
            self.records(
                "SELECT record FROM games WHERE stage = $1 ORDER BY created_ms DESC LIMIT $2",
                &[&stage.word(), &limit],
            )
            .await
        }
    }

    async fn events_since(
        &self,
        code: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                "SELECT seq, body FROM events WHERE code = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                &[&code, &(since as i64), &(limit as i64)],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<_, i64>(0) as u64, r.get::<_, String>(1)))
            .collect())
    }

    async fn seqs(&self, codes: &[String]) -> Result<Vec<(String, u64)>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                "SELECT code, seq FROM games WHERE code = ANY($1)",
                &[&codes],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as u64))
            .collect())
    }

    async fn due(&self, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                "SELECT code FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= $1 LIMIT $2",
                &[&(now_ms as i64), &(limit as i64)],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows.iter().map(|r| r.get::<_, String>(0)).collect())
    }

    async fn player(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        self.player_where("token_hash = $1", token_hash).await
    }

    async fn player_by_id(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        self.player_where("id = $1", id).await
    }

    async fn standings(&self, token_hash: &str) -> Result<Vec<(String, Standing)>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                &format!(
                    "SELECT s.kind, {STANDING} FROM standings s WHERE s.token_hash = $1 ORDER BY s.kind"
                ),
                &[&token_hash],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows.iter().map(|r| (r.get(0), standing(r, 1))).collect())
    }

    async fn rated_pairs(&self, a: &str, b: &str, day: i64) -> Result<u32, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let row = client
            .query_opt(
                "SELECT count FROM rated_pairs WHERE a = $1 AND b = $2 AND day = $3",
                &[&a, &b, &day],
            )
            .await
            .map_err(unavailable)?;
        Ok(row.map_or(0, |r| r.get::<_, i32>(0).max(0) as u32))
    }

    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: usize,
    ) -> Result<Vec<(PlayerRow, Standing)>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                &format!(
                    "SELECT p.token_hash, p.id, p.name, p.abandons, p.last_abandon_ms, {STANDING}
                     FROM standings s JOIN players p ON p.token_hash = s.token_hash
                     WHERE s.kind = $1 AND s.deviation <= $2 AND s.rated_games > 0
                     ORDER BY s.rating DESC, p.id LIMIT $3"
                ),
                &[&kind, &max_deviation, &(limit as i64)],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows
            .iter()
            .map(|r| (player_row(r), standing(r, 5)))
            .collect())
    }

    async fn rated_above(
        &self,
        kind: &str,
        max_deviation: f64,
        rating: f64,
    ) -> Result<u32, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let row = client
            .query_one(
                "SELECT COUNT(*) FROM standings WHERE kind = $1 AND deviation <= $2 AND rated_games > 0 AND rating > $3",
                &[&kind, &max_deviation, &rating],
            )
            .await
            .map_err(unavailable)?;
        Ok(row.get::<_, i64>(0).max(0) as u32)
    }

    async fn ended_games_of(
        &self,
        token_hash: &str,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.records(
            "SELECT record FROM games WHERE stage = 'ended' AND (white_hash = $1 OR black_hash = $1) ORDER BY updated_ms DESC LIMIT $2",
            &[&token_hash, &(limit as i64)],
        )
        .await
    }

    async fn open_seeks(&self, alive_since_ms: u64) -> Result<Vec<SeekRow>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let rows = client
            .query(
                &format!("SELECT {SEEK} FROM seeks WHERE paired_code IS NULL AND alive_ms >= $1 ORDER BY since_ms"),
                &[&(alive_since_ms as i64)],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows.iter().map(seek_row).collect())
    }

    async fn seeks_of(&self, token_hashes: &[String]) -> Result<Vec<SeekRow>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let hashes = token_hashes.to_vec();
        let rows = client
            .query(
                &format!("SELECT {SEEK} FROM seeks WHERE token_hash = ANY($1)"),
                &[&hashes],
            )
            .await
            .map_err(unavailable)?;
        Ok(rows.iter().map(seek_row).collect())
    }

    async fn forget_seeks(&self, before_ms: u64) -> Result<(), StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        client
            .execute(
                "DELETE FROM seeks WHERE paired_code IS NOT NULL AND paired_ms < $1",
                &[&(before_ms as i64)],
            )
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn created(&self, token_hash: &str, request: &str) -> Result<Option<String>, StoreError> {
        let client = self.pool.get().await.map_err(unavailable)?;
        let row = client
            .query_opt(
                "SELECT code FROM creates WHERE token_hash = $1 AND request = $2",
                &[&token_hash, &request],
            )
            .await
            .map_err(unavailable)?;
        Ok(row.map(|r| r.get::<_, String>(0)))
    }

    async fn beat(&self, now_ms: u64, stale_after_ms: u64) -> Result<Option<u64>, StoreError> {
        let mut client = self.pool.get().await.map_err(unavailable)?;
        let tx = client.transaction().await.map_err(unavailable)?;
        // The row is locked by the first statement to the end of the transaction: instances
        // beating at once take turns, and only the first after an outage sees it stale. An
        // instance paused in the middle of its beat holds the row: the others give up after
        // a moment instead of waiting for it.
        tx.batch_execute("SET LOCAL lock_timeout = '500ms'")
            .await
            .map_err(unavailable)?;
        tx.execute(
            "INSERT INTO beat (id, ms) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
            &[&-1i64],
        )
        .await
        .map_err(unavailable)?;
        let before: i64 = tx
            .query_one("SELECT ms FROM beat WHERE id = 1 FOR UPDATE", &[])
            .await
            .map_err(unavailable)?
            .get(0);
        tx.execute(
            "UPDATE beat SET ms = GREATEST(ms, $1) WHERE id = 1",
            &[&(now_ms as i64)],
        )
        .await
        .map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok((before >= 0)
            .then_some(before as u64)
            .filter(|b| now_ms.saturating_sub(*b) > stale_after_ms))
    }

    fn describe(&self) -> String {
        format!("PostgreSQL {}", self.url)
    }
}

/// The columns of a standing, in [`standing`]'s order.
const STANDING: &str =
    "s.rating, s.deviation, s.volatility, s.rated_games, s.played, s.wins, s.draws, s.losses, s.whites, s.blacks";

/// The columns of a seek, in [`seek_row`]'s order.
const SEEK: &str = "token_hash, pool, name, rating, since_ms, alive_ms, not_before_ms, paired_code";

fn standing(r: &tokio_postgres::Row, at: usize) -> Standing {
    let n = |i: usize| r.get::<_, i32>(at + i).max(0) as u32;
    Standing {
        glicko: crate::rating::Glicko {
            rating: r.get(at),
            deviation: r.get(at + 1),
            volatility: r.get(at + 2),
        },
        rated_games: n(3),
        played: n(4),
        wins: n(5),
        draws: n(6),
        losses: n(7),
        whites: n(8),
        blacks: n(9),
    }
}

fn player_row(r: &tokio_postgres::Row) -> PlayerRow {
    PlayerRow {
        token_hash: r.get(0),
        id: r.get(1),
        name: r.get(2),
        abandons: r.get::<_, i32>(3).max(0) as u32,
        last_abandon_ms: r.get::<_, i64>(4).max(0) as u64,
    }
}

fn seek_row(r: &tokio_postgres::Row) -> SeekRow {
    SeekRow {
        token_hash: r.get(0),
        pool: r.get(1),
        name: r.get(2),
        rating: r.get(3),
        since_ms: r.get::<_, i64>(4).max(0) as u64,
        alive_ms: r.get::<_, i64>(5).max(0) as u64,
        not_before_ms: r.get::<_, i64>(6).max(0) as u64,
        paired_code: r.get(7),
    }
}

/// Runs one statement in the transaction (prepared once per connection and kept: the same
/// few statements run for every move); the number of rows it changed.
async fn exec(
    tx: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<u64, StoreError> {
    let st = tx.prepare_cached(sql).await.map_err(unavailable)?;
    tx.execute(&st, params).await.map_err(unavailable)
}

/// Fails with a conflict unless the statement changed `want` rows.
fn expect_rows(n: u64, want: u64) -> Result<(), StoreError> {
    if n == want {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
}

/// Checks that each of `players` sits at fewer than `max` games that have not ended.
async fn open_games_below(
    tx: &deadpool_postgres::Transaction<'_>,
    players: &[String],
    max: usize,
) -> Result<(), StoreError> {
    // One player's seatings are serialized across the instances by a lock on the player
    // (taken in order, so two of them cannot deadlock), held to the end of the transaction:
    // the count sees every seating committed before.
    let mut sorted = players.to_vec();
    sorted.sort();
    sorted.dedup();
    for p in &sorted {
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))",
            &[&SEATING_LOCK, p],
        )
        .await
        .map_err(unavailable)?;
    }
    let mut counts = Vec::new();
    for p in &sorted {
        let row = tx
            .query_one(
                "SELECT COUNT(*) FROM games WHERE stage <> 'ended' AND (white_hash = $1 OR black_hash = $1)",
                &[p],
            )
            .await
            .map_err(unavailable)?;
        counts.push((p.clone(), row.get::<_, i64>(0) as usize));
    }
    super::open_games_check(players, max, |p| {
        Ok(counts.iter().find(|(q, _)| q == p).map_or(0, |(_, n)| *n))
    })
}

/// A game's writes: a new game, a game moved on with its events, a create request noted.
async fn game_write(tx: &deadpool_postgres::Transaction<'_>, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Insert(rec) => {
            let c = Columns::of(rec);
            let json = serde_json::to_string(rec).map_err(unavailable)?;
            let n = exec(
                tx,
                "INSERT INTO games (code, kind, stage, public, white_hash, black_hash, created_ms, updated_ms, seq, record, deadline_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (code) DO NOTHING",
                &[&c.code, &c.kind, &c.stage, &c.public, &c.white, &c.black,
                  &(rec.created_ms as i64), &(rec.updated_ms as i64), &(rec.seq as i64), &json, &c.deadline_ms],
            )
            .await?;
            expect_rows(n, 1)
        }
        Write::Request {
            token_hash,
            request,
            code,
        } => {
            let n = exec(
                tx,
                "INSERT INTO creates (token_hash, request, code) VALUES ($1, $2, $3)
                 ON CONFLICT (token_hash, request) DO NOTHING",
                &[token_hash, request, code],
            )
            .await?;
            expect_rows(n, 1)
        }
        Write::Update {
            rec,
            expected_seq,
            events,
        } => {
            let c = Columns::of(rec);
            let json = serde_json::to_string(rec).map_err(unavailable)?;
            let n = exec(
                tx,
                "UPDATE games SET stage = $2, public = $3, white_hash = $4, black_hash = $5,
                        updated_ms = $6, seq = $7, record = $8, deadline_ms = $10
                 WHERE code = $1 AND seq = $9",
                &[
                    &c.code,
                    &c.stage,
                    &c.public,
                    &c.white,
                    &c.black,
                    &(rec.updated_ms as i64),
                    &(rec.seq as i64),
                    &json,
                    &(*expected_seq as i64),
                    &c.deadline_ms,
                ],
            )
            .await?;
            expect_rows(n, 1)?;
            for (seq, body) in events {
                exec(
                    tx,
                    "INSERT INTO events (code, seq, body) VALUES ($1, $2, $3)",
                    &[&c.code, &(*seq as i64), body],
                )
                .await?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A player's writes: their name, a finished game in their standing, a rated pair's day, a
/// game they left.
async fn player_write(
    tx: &deadpool_postgres::Transaction<'_>,
    w: &Write,
) -> Result<(), StoreError> {
    match w {
        Write::Player {
            token_hash,
            id,
            name,
        } => {
            exec(
                tx,
                "INSERT INTO players (token_hash, id, name) VALUES ($1, $2, $3)
                 ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name",
                &[token_hash, id, name],
            )
            .await?;
        }
        Write::Standing(c) => {
            let start = crate::rating::Glicko::default();
            let (delta, dev, vol) = c.rated.unwrap_or((0.0, start.deviation, start.volatility));
            let rated = i32::from(c.rated.is_some());
            let n = |v: u32| v as i32;
            exec(
                tx,
                "INSERT INTO standings (token_hash, kind, rating, deviation, volatility, rated_games,
                    played, wins, draws, losses, whites, blacks)
                 VALUES ($1, $2, $3::float8 + $4::float8, $5, $6, $7, 1, $8, $9, $10, $11, $12)
                 ON CONFLICT (token_hash, kind) DO UPDATE SET
                    rating = standings.rating + $4,
                    deviation = CASE WHEN $7 = 1 THEN $5 ELSE standings.deviation END,
                    volatility = CASE WHEN $7 = 1 THEN $6 ELSE standings.volatility END,
                    rated_games = standings.rated_games + $7, played = standings.played + 1,
                    wins = standings.wins + $8, draws = standings.draws + $9,
                    losses = standings.losses + $10,
                    whites = standings.whites + $11, blacks = standings.blacks + $12",
                &[
                    &c.token_hash, &c.kind, &start.rating, &delta, &dev, &vol, &rated,
                    &n(c.result[0]), &n(c.result[1]), &n(c.result[2]),
                    &n(c.colour[0]), &n(c.colour[1]),
                ],
            )
            .await?;
        }
        Write::RatedPair { a, b, day } => {
            exec(
                tx,
                "INSERT INTO rated_pairs (a, b, day, count) VALUES ($1, $2, $3, 1)
                 ON CONFLICT (a, b, day) DO UPDATE SET count = rated_pairs.count + 1",
                &[a, b, day],
            )
            .await?;
        }
        Write::Abandoned { token_hash, at_ms } => {
            exec(
                tx,
                "UPDATE players SET abandons = abandons + 1, last_abandon_ms = $2 WHERE token_hash = $1",
                &[token_hash, &(*at_ms as i64)],
            )
            .await?;
        }
        _ => {}
    }
    Ok(())
}

/// Quick pairing's writes: a seek, its end, seekers still there, a pairing.
async fn seek_write(tx: &deadpool_postgres::Transaction<'_>, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Seek(s) => {
            exec(
                tx,
                "INSERT INTO seeks (token_hash, pool, name, rating, since_ms, alive_ms, not_before_ms, paired_code, paired_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL)
                 ON CONFLICT (token_hash) DO UPDATE SET pool = excluded.pool, name = excluded.name,
                    rating = excluded.rating, since_ms = excluded.since_ms, alive_ms = excluded.alive_ms,
                    not_before_ms = excluded.not_before_ms, paired_code = NULL, paired_ms = NULL",
                &[
                    &s.token_hash, &s.pool, &s.name, &s.rating, &(s.since_ms as i64),
                    &(s.alive_ms as i64), &(s.not_before_ms as i64),
                ],
            )
            .await?;
        }
        Write::Unseek { token_hash, paired } => {
            let sql = if *paired {
                "DELETE FROM seeks WHERE token_hash = $1"
            } else {
                "DELETE FROM seeks WHERE token_hash = $1 AND paired_code IS NULL"
            };
            exec(tx, sql, &[token_hash]).await?;
        }
        Write::Alive {
            token_hashes,
            at_ms,
        } => {
            exec(
                tx,
                "UPDATE seeks SET alive_ms = $2 WHERE token_hash = ANY($1)",
                &[token_hashes, &(*at_ms as i64)],
            )
            .await?;
        }
        Write::Pair { a, b, code, at_ms } => {
            let n = exec(
                tx,
                "UPDATE seeks SET paired_code = $3, paired_ms = $4
                 WHERE token_hash IN ($1, $2) AND paired_code IS NULL",
                &[a, b, code, &(*at_ms as i64)],
            )
            .await?;
            expect_rows(n, 2)?;
        }
        _ => {}
    }
    Ok(())
}
