//! The SQLite store: one file, the default of a single server. A thread of its own owns the
//! connection; writes that arrive together are committed in one transaction (each in its own
//! savepoint, so a conflict refuses only its own write), which keeps the disk's syncs few under
//! load. The file is in WAL mode: a server killed with `kill -9` loses no committed move.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

use super::{parse_record, Columns, PlayerRow, SeekRow, Standing, Storage, StoreError, Write};
use crate::game::{GameRecord, Stage};

/// The migrations, in order: (version, SQL).
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/sqlite/0001_games.sql")),
    (
        2,
        include_str!("../../migrations/sqlite/0002_events_deadlines.sql"),
    ),
    (3, include_str!("../../migrations/sqlite/0003_beat.sql")),
    (4, include_str!("../../migrations/sqlite/0004_creates.sql")),
    (5, include_str!("../../migrations/sqlite/0005_players.sql")),
];

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 128;

enum Job {
    Load(
        String,
        oneshot::Sender<Result<Option<GameRecord>, StoreError>>,
    ),
    Write(Vec<Write>, oneshot::Sender<Result<(), StoreError>>),
    GamesOf(String, oneshot::Sender<Result<Vec<GameRecord>, StoreError>>),
    AtStage(
        Stage,
        bool,
        usize,
        oneshot::Sender<Result<Vec<GameRecord>, StoreError>>,
    ),
    EventsSince(
        String,
        u64,
        usize,
        oneshot::Sender<Result<Vec<(u64, String)>, StoreError>>,
    ),
    Seqs(
        Vec<String>,
        oneshot::Sender<Result<Vec<(String, u64)>, StoreError>>,
    ),
    Due(u64, usize, oneshot::Sender<Result<Vec<String>, StoreError>>),
    Beat(u64, u64, oneshot::Sender<Result<Option<u64>, StoreError>>),
    Created(
        String,
        String,
        oneshot::Sender<Result<Option<String>, StoreError>>,
    ),
    /// Any other read: a closure run on the database's thread.
    Read(Box<dyn FnOnce(&Connection) + Send>),
}

/// A SQLite file.
pub struct Sqlite {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

impl Sqlite {
    /// Opens (or creates) the file and applies the migrations it lacks.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let mut conn = Connection::open(path).map_err(unavailable)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(unavailable)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(unavailable)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(unavailable)?;
        migrate(&mut conn)?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("takhte-sqlite".into())
            .spawn(move || worker(conn, rx))
            .map_err(unavailable)?;
        Ok(Sqlite {
            path: path.to_path_buf(),
            jobs: tx,
        })
    }

    /// Runs `read` on the database's thread.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.ask(|tx| {
            Job::Read(Box::new(move |conn| {
                let _ = tx.send(read(conn));
            }))
        })
        .await?
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Job) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.jobs
            .send(make(tx))
            .map_err(|_| unavailable("the database thread has stopped"))?;
        rx.await
            .map_err(|_| unavailable("the database thread has stopped"))
    }
}

/// Applies the migrations not yet applied, each in a transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)",
    )
    .map_err(unavailable)?;
    for (version, sql) in MIGRATIONS {
        let done: Option<i64> = conn
            .query_row(
                "SELECT version FROM schema_migrations WHERE version = ?1",
                [version],
                |r| r.get(0),
            )
            .optional()
            .map_err(unavailable)?;
        if done.is_some() {
            continue;
        }
        let tx = conn.transaction().map_err(unavailable)?;
        tx.execute_batch(sql).map_err(unavailable)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms) VALUES (?1, ?2)",
            params![version, crate::now_ms() as i64],
        )
        .map_err(unavailable)?;
        tx.commit().map_err(unavailable)?;
    }
    Ok(())
}

fn worker(mut conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        // Take what else is waiting: writes go into one transaction.
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let mut writes = Vec::new();
        for job in batch {
            match job {
                Job::Write(w, reply) => writes.push((w, reply)),
                Job::Load(code, reply) => {
                    let _ = reply.send(load(&conn, &code));
                }
                Job::GamesOf(hash, reply) => {
                    let _ = reply.send(games_of(&conn, &hash));
                }
                Job::AtStage(stage, public, limit, reply) => {
                    let _ = reply.send(at_stage(&conn, stage, public, limit));
                }
                Job::EventsSince(code, since, limit, reply) => {
                    let _ = reply.send(events_since(&conn, &code, since, limit));
                }
                Job::Seqs(codes, reply) => {
                    let _ = reply.send(seqs(&conn, &codes));
                }
                Job::Due(now, limit, reply) => {
                    let _ = reply.send(due(&conn, now, limit));
                }
                Job::Beat(now, stale, reply) => {
                    let _ = reply.send(beat(&conn, now, stale));
                }
                Job::Created(hash, request, reply) => {
                    let _ = reply.send(created(&conn, &hash, &request));
                }
                Job::Read(read) => read(&conn),
            }
        }
        if !writes.is_empty() {
            write_batch(&mut conn, writes);
        }
    }
}

fn load(conn: &Connection, code: &str) -> Result<Option<GameRecord>, StoreError> {
    let json: Option<String> = conn
        .query_row("SELECT record FROM games WHERE code = ?1", [code], |r| {
            r.get(0)
        })
        .optional()
        .map_err(unavailable)?;
    json.map(|j| parse_record(&j)).transpose()
}

fn records(
    conn: &Connection,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<GameRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(sql).map_err(unavailable)?;
    let rows = stmt
        .query_map(params, |r| r.get::<_, String>(0))
        .map_err(unavailable)?;
    let mut out = Vec::new();
    for row in rows {
        out.push(parse_record(&row.map_err(unavailable)?)?);
    }
    Ok(out)
}

fn games_of(conn: &Connection, hash: &str) -> Result<Vec<GameRecord>, StoreError> {
    records(
        conn,
        // Each side by its own index (with OR, SQLite read every open game).
        "SELECT record FROM games WHERE code IN (
             SELECT code FROM games WHERE stage <> 'ended' AND white_hash = ?1
             UNION SELECT code FROM games WHERE stage <> 'ended' AND black_hash = ?1)
         ORDER BY created_ms DESC LIMIT 100",
        &[&hash],
    )
}

fn at_stage(
    conn: &Connection,
    stage: Stage,
    public_only: bool,
    limit: usize,
) -> Result<Vec<GameRecord>, StoreError> {
    let sql = if public_only {
        "SELECT record FROM games WHERE stage = ?1 AND public = 1 ORDER BY created_ms DESC LIMIT ?2"
    } else {
        "SELECT record FROM games WHERE stage = ?1 ORDER BY created_ms DESC LIMIT ?2"
    };
    records(conn, sql, &[&stage.word(), &(limit as i64)])
}

fn events_since(
    conn: &Connection,
    code: &str,
    since: u64,
    limit: usize,
) -> Result<Vec<(u64, String)>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, body FROM events WHERE code = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
        )
        .map_err(unavailable)?;
    let rows = stmt
        .query_map(params![code, since as i64, limit as i64], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
        })
        .map_err(unavailable)?;
    rows.map(|r| r.map_err(unavailable)).collect()
}

fn seqs(conn: &Connection, codes: &[String]) -> Result<Vec<(String, u64)>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT seq FROM games WHERE code = ?1")
        .map_err(unavailable)?;
    let mut out = Vec::new();
    for c in codes {
        let seq: Option<i64> = stmt
            .query_row([c], |r| r.get(0))
            .optional()
            .map_err(unavailable)?;
        if let Some(seq) = seq {
            out.push((c.clone(), seq as u64));
        }
    }
    Ok(out)
}

fn due(conn: &Connection, now: u64, limit: usize) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT code FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= ?1 LIMIT ?2",
        )
        .map_err(unavailable)?;
    let rows = stmt
        .query_map(params![now as i64, limit as i64], |r| r.get::<_, String>(0))
        .map_err(unavailable)?;
    rows.map(|r| r.map_err(unavailable)).collect()
}

/// The heartbeat (see [`Storage::beat`]); one connection on one thread, so atomic.
fn beat(conn: &Connection, now: u64, stale: u64) -> Result<Option<u64>, StoreError> {
    let before: Option<i64> = conn
        .query_row("SELECT ms FROM beat WHERE id = 1", [], |r| r.get(0))
        .optional()
        .map_err(unavailable)?;
    conn.execute(
        "INSERT INTO beat (id, ms) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET ms = max(ms, ?1)",
        [now as i64],
    )
    .map_err(unavailable)?;
    Ok(before
        .map(|b| b.max(0) as u64)
        .filter(|b| now.saturating_sub(*b) > stale))
}

/// The columns of a standing, in [`standing`]'s order.
const STANDING: &str =
    "s.rating, s.deviation, s.volatility, s.rated_games, s.played, s.wins, s.draws, s.losses, s.whites, s.blacks";

/// The columns of a seek, in [`seek_row`]'s order.
const SEEK: &str = "token_hash, pool, name, rating, since_ms, alive_ms, not_before_ms, paired_code";

fn standing(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Standing> {
    let n = |i: usize| -> rusqlite::Result<u32> { Ok(r.get::<_, i64>(at + i)?.max(0) as u32) };
    Ok(Standing {
        glicko: crate::rating::Glicko {
            rating: r.get(at)?,
            deviation: r.get(at + 1)?,
            volatility: r.get(at + 2)?,
        },
        rated_games: n(3)?,
        played: n(4)?,
        wins: n(5)?,
        draws: n(6)?,
        losses: n(7)?,
        whites: n(8)?,
        blacks: n(9)?,
    })
}

fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        token_hash: r.get(0)?,
        id: r.get(1)?,
        name: r.get(2)?,
        abandons: r.get::<_, i64>(3)?.max(0) as u32,
        last_abandon_ms: r.get::<_, i64>(4)?.max(0) as u64,
    })
}

fn player_where(c: &Connection, cond: &str, value: &str) -> Result<Option<PlayerRow>, StoreError> {
    c.query_row(
        &format!(
            "SELECT token_hash, id, name, abandons, last_abandon_ms FROM players WHERE {cond}"
        ),
        [value],
        player_row,
    )
    .optional()
    .map_err(unavailable)
}

fn seek_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SeekRow> {
    Ok(SeekRow {
        token_hash: r.get(0)?,
        pool: r.get(1)?,
        name: r.get(2)?,
        rating: r.get(3)?,
        since_ms: r.get::<_, i64>(4)?.max(0) as u64,
        alive_ms: r.get::<_, i64>(5)?.max(0) as u64,
        not_before_ms: r.get::<_, i64>(6)?.max(0) as u64,
        paired_code: r.get(7)?,
    })
}

fn seek_rows(
    c: &Connection,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<SeekRow>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(unavailable)?;
    let rows = stmt.query_map(params, seek_row).map_err(unavailable)?;
    rows.map(|r| r.map_err(unavailable)).collect()
}

/// What a create request made (see [`Storage::created`]).
fn created(conn: &Connection, hash: &str, request: &str) -> Result<Option<String>, StoreError> {
    conn.query_row(
        "SELECT code FROM creates WHERE token_hash = ?1 AND request = ?2",
        [hash, request],
        |r| r.get(0),
    )
    .optional()
    .map_err(unavailable)
}

/// A player's games that have not ended.
fn open_games(tx: &rusqlite::Transaction<'_>, hash: &str) -> Result<usize, StoreError> {
    tx.query_row(
        // Each side by its own index: with OR, SQLite read every open game's row, so that
        // seating 5,000 games at once took 46 s (a game counted once if both seats are one).
        "SELECT (SELECT COUNT(*) FROM games WHERE stage <> 'ended' AND white_hash = ?1)
              + (SELECT COUNT(*) FROM games WHERE stage <> 'ended' AND black_hash = ?1)
              - (SELECT COUNT(*) FROM games WHERE stage <> 'ended' AND white_hash = ?1 AND black_hash = ?1)",
        [hash],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as usize)
    .map_err(unavailable)
}

/// Runs one statement (prepared once per connection and kept: the same few statements run
/// for every move) with its parameters; the number of rows it changed.
fn exec(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<usize, StoreError> {
    tx.prepare_cached(sql)
        .and_then(|mut st| st.execute(params))
        .map_err(unavailable)
}

/// Fails with a conflict unless the statement changed `want` rows.
fn expect_rows(n: usize, want: usize) -> Result<(), StoreError> {
    if n == want {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
}

/// Applies one request's writes inside the open transaction.
fn apply_writes(tx: &rusqlite::Transaction<'_>, writes: &[Write]) -> Result<(), StoreError> {
    for w in writes {
        match w {
            Write::OpenGamesBelow { players, max } => {
                super::open_games_check(players, *max, |p| open_games(tx, p))?;
            }
            Write::Insert(_) | Write::Update { .. } | Write::Request { .. } => game_write(tx, w)?,
            Write::Player { .. }
            | Write::Standing(_)
            | Write::RatedPair { .. }
            | Write::Abandoned { .. } => player_write(tx, w)?,
            Write::Seek(_) | Write::Unseek { .. } | Write::Alive { .. } | Write::Pair { .. } => {
                seek_write(tx, w)?
            }
        }
    }
    Ok(())
}

/// A game's writes: a new game, a game moved on with its events, a create request noted.
fn game_write(tx: &rusqlite::Transaction<'_>, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Insert(rec) => {
            let c = Columns::of(rec);
            let json = serde_json::to_string(rec).map_err(unavailable)?;
            let n = exec(
                tx,
                "INSERT INTO games (code, kind, stage, public, white_hash, black_hash, created_ms, updated_ms, seq, record, deadline_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (code) DO NOTHING",
                params![c.code, c.kind, c.stage, c.public, c.white, c.black,
                        rec.created_ms as i64, rec.updated_ms as i64, rec.seq as i64, json, c.deadline_ms],
            )?;
            expect_rows(n, 1)
        }
        Write::Request {
            token_hash,
            request,
            code,
        } => {
            let n = exec(
                tx,
                "INSERT INTO creates (token_hash, request, code) VALUES (?1, ?2, ?3)
                 ON CONFLICT (token_hash, request) DO NOTHING",
                params![token_hash, request, code],
            )?;
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
                "UPDATE games SET stage = ?2, public = ?3, white_hash = ?4, black_hash = ?5,
                        updated_ms = ?6, seq = ?7, record = ?8, deadline_ms = ?10
                 WHERE code = ?1 AND seq = ?9",
                params![
                    c.code,
                    c.stage,
                    c.public,
                    c.white,
                    c.black,
                    rec.updated_ms as i64,
                    rec.seq as i64,
                    json,
                    *expected_seq as i64,
                    c.deadline_ms
                ],
            )?;
            expect_rows(n, 1)?;
            for (seq, body) in events {
                exec(
                    tx,
                    "INSERT INTO events (code, seq, body) VALUES (?1, ?2, ?3)",
                    params![c.code, *seq as i64, body],
                )?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A player's writes: their name, a finished game in their standing, a rated pair's day, a
/// game they left.
fn player_write(tx: &rusqlite::Transaction<'_>, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Player {
            token_hash,
            id,
            name,
        } => {
            exec(
                tx,
                "INSERT INTO players (token_hash, id, name) VALUES (?1, ?2, ?3)
                 ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name",
                params![token_hash, id, name],
            )?;
        }
        Write::Standing(c) => {
            let start = crate::rating::Glicko::default();
            let (delta, dev, vol) = c.rated.unwrap_or((0.0, start.deviation, start.volatility));
            let rated = i64::from(c.rated.is_some());
            exec(
                tx,
                "INSERT INTO standings (token_hash, kind, rating, deviation, volatility, rated_games,
                    played, wins, draws, losses, whites, blacks)
                 VALUES (?1, ?2, ?3 + ?4, ?5, ?6, ?7, 1, ?8, ?9, ?10, ?11, ?12)
                 ON CONFLICT (token_hash, kind) DO UPDATE SET
                    rating = rating + ?4,
                    deviation = CASE WHEN ?7 = 1 THEN ?5 ELSE deviation END,
                    volatility = CASE WHEN ?7 = 1 THEN ?6 ELSE volatility END,
                    rated_games = rated_games + ?7, played = played + 1,
                    wins = wins + ?8, draws = draws + ?9, losses = losses + ?10,
                    whites = whites + ?11, blacks = blacks + ?12",
                params![
                    c.token_hash, c.kind, start.rating, delta, dev, vol, rated,
                    c.result[0], c.result[1], c.result[2], c.colour[0], c.colour[1]
                ],
            )?;
        }
        Write::RatedPair { a, b, day } => {
            exec(
                tx,
                "INSERT INTO rated_pairs (a, b, day, count) VALUES (?1, ?2, ?3, 1)
                 ON CONFLICT (a, b, day) DO UPDATE SET count = count + 1",
                params![a, b, day],
            )?;
        }
        Write::Abandoned { token_hash, at_ms } => {
            exec(
                tx,
                "UPDATE players SET abandons = abandons + 1, last_abandon_ms = ?2 WHERE token_hash = ?1",
                params![token_hash, *at_ms as i64],
            )?;
        }
        _ => {}
    }
    Ok(())
}

/// Quick pairing's writes: a seek, its end, seekers still there, a pairing.
fn seek_write(tx: &rusqlite::Transaction<'_>, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Seek(s) => {
            exec(
                tx,
                "INSERT INTO seeks (token_hash, pool, name, rating, since_ms, alive_ms, not_before_ms, paired_code, paired_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, NULL)
                 ON CONFLICT (token_hash) DO UPDATE SET pool = excluded.pool, name = excluded.name,
                    rating = excluded.rating, since_ms = excluded.since_ms, alive_ms = excluded.alive_ms,
                    not_before_ms = excluded.not_before_ms, paired_code = NULL, paired_ms = NULL",
                params![s.token_hash, s.pool, s.name, s.rating, s.since_ms as i64, s.alive_ms as i64, s.not_before_ms as i64],
            )?;
        }
        Write::Unseek { token_hash, paired } => {
            let sql = if *paired {
                "DELETE FROM seeks WHERE token_hash = ?1"
            } else {
                "DELETE FROM seeks WHERE token_hash = ?1 AND paired_code IS NULL"
            };
            exec(tx, sql, params![token_hash])?;
        }
        Write::Alive {
            token_hashes,
            at_ms,
        } => {
            for h in token_hashes {
                exec(
                    tx,
                    "UPDATE seeks SET alive_ms = ?2 WHERE token_hash = ?1",
                    params![h, *at_ms as i64],
                )?;
            }
        }
        Write::Pair { a, b, code, at_ms } => {
            let n = exec(
                tx,
                "UPDATE seeks SET paired_code = ?3, paired_ms = ?4
                 WHERE token_hash IN (?1, ?2) AND paired_code IS NULL",
                params![a, b, code, *at_ms as i64],
            )?;
            expect_rows(n, 2)?;
        }
        _ => {}
    }
    Ok(())
}

type WriteJob = (Vec<Write>, oneshot::Sender<Result<(), StoreError>>);

fn write_batch(conn: &mut Connection, jobs: Vec<WriteJob>) {
    let tx = match conn.transaction() {
        Ok(t) => t,
        Err(e) => {
            for (_, reply) in jobs {
                let _ = reply.send(Err(unavailable(&e)));
            }
            return;
        }
    };
    let mut results = Vec::with_capacity(jobs.len());
    for (writes, reply) in jobs {
        let result = (|| {
            tx.execute_batch("SAVEPOINT one").map_err(unavailable)?;
            match apply_writes(&tx, &writes) {
                Ok(()) => tx.execute_batch("RELEASE one").map_err(unavailable),
                Err(e) => {
                    tx.execute_batch("ROLLBACK TO one; RELEASE one")
                        .map_err(unavailable)?;
                    Err(e)
                }
            }
        })();
        results.push((result, reply));
    }
    match tx.commit() {
        Ok(()) => {
            for (r, reply) in results {
                let _ = reply.send(r);
            }
        }
        Err(e) => {
            for (_, reply) in results {
                let _ = reply.send(Err(unavailable(&e)));
            }
        }
    }
}

#[async_trait]
impl Storage for Sqlite {
    async fn load(&self, code: &str) -> Result<Option<GameRecord>, StoreError> {
        self.ask(|tx| Job::Load(code.to_string(), tx)).await?
    }

    async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        self.ask(|tx| Job::Write(writes, tx)).await?
    }

    async fn games_of(&self, token_hash: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.ask(|tx| Job::GamesOf(token_hash.to_string(), tx))
            .await?
    }

    async fn at_stage(
        &self,
        stage: Stage,
        public_only: bool,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.ask(|tx| Job::AtStage(stage, public_only, limit, tx))
            .await?
    }

    async fn events_since(
        &self,
        code: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        self.ask(|tx| Job::EventsSince(code.to_string(), since, limit, tx))
            .await?
    }

    async fn seqs(&self, codes: &[String]) -> Result<Vec<(String, u64)>, StoreError> {
        self.ask(|tx| Job::Seqs(codes.to_vec(), tx)).await?
    }

    async fn due(&self, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.ask(|tx| Job::Due(now_ms, limit, tx)).await?
    }

    async fn beat(&self, now_ms: u64, stale_after_ms: u64) -> Result<Option<u64>, StoreError> {
        self.ask(|tx| Job::Beat(now_ms, stale_after_ms, tx)).await?
    }

    async fn player(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| player_where(c, "token_hash = ?1", &h))
            .await
    }

    async fn player_by_id(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        let id = id.to_string();
        self.read(move |c| player_where(c, "id = ?1", &id)).await
    }

    async fn standings(&self, token_hash: &str) -> Result<Vec<(String, Standing)>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!("SELECT s.kind, {STANDING} FROM standings s WHERE s.token_hash = ?1 ORDER BY s.kind"))
                .map_err(unavailable)?;
            let rows = stmt
                .query_map([h], |r| Ok((r.get::<_, String>(0)?, standing(r, 1)?)))
                .map_err(unavailable)?;
            rows.map(|r| r.map_err(unavailable)).collect()
        })
        .await
    }

    async fn rated_pairs(&self, a: &str, b: &str, day: i64) -> Result<u32, StoreError> {
        let (a, b) = (a.to_string(), b.to_string());
        self.read(move |c| {
            c.query_row(
                "SELECT count FROM rated_pairs WHERE a = ?1 AND b = ?2 AND day = ?3",
                params![a, b, day],
                |r| r.get::<_, i64>(0),
            )
            .optional()
            .map(|n| n.unwrap_or(0) as u32)
            .map_err(unavailable)
        })
        .await
    }

    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: usize,
    ) -> Result<Vec<(PlayerRow, Standing)>, StoreError> {
        let kind = kind.to_string();
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT p.token_hash, p.id, p.name, p.abandons, p.last_abandon_ms, {STANDING}
                     FROM standings s JOIN players p ON p.token_hash = s.token_hash
                     WHERE s.kind = ?1 AND s.deviation <= ?2 AND s.rated_games > 0
                     ORDER BY s.rating DESC, p.id LIMIT ?3"
                ))
                .map_err(unavailable)?;
            let rows = stmt
                .query_map(params![kind, max_deviation, limit as i64], |r| {
                    Ok((player_row(r)?, standing(r, 5)?))
                })
                .map_err(unavailable)?;
            rows.map(|r| r.map_err(unavailable)).collect()
        })
        .await
    }

    async fn rated_above(
        &self,
        kind: &str,
        max_deviation: f64,
        rating: f64,
    ) -> Result<u32, StoreError> {
        let kind = kind.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM standings WHERE kind = ?1 AND deviation <= ?2 AND rated_games > 0 AND rating > ?3",
                params![kind, max_deviation, rating],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u32)
            .map_err(unavailable)
        })
        .await
    }

    async fn ended_games_of(
        &self,
        token_hash: &str,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| {
            records(
                c,
                "SELECT record FROM games WHERE stage = 'ended' AND (white_hash = ?1 OR black_hash = ?1) ORDER BY updated_ms DESC LIMIT ?2",
                &[&h, &(limit as i64)],
            )
        })
        .await
    }

    async fn open_seeks(&self, alive_since_ms: u64) -> Result<Vec<SeekRow>, StoreError> {
        self.read(move |c| {
            seek_rows(
                c,
                &format!("SELECT {SEEK} FROM seeks WHERE paired_code IS NULL AND alive_ms >= ?1 ORDER BY since_ms"),
                &[&(alive_since_ms as i64)],
            )
        })
        .await
    }

    async fn seeks_of(&self, token_hashes: &[String]) -> Result<Vec<SeekRow>, StoreError> {
        let hashes = token_hashes.to_vec();
        self.read(move |c| {
            let mut out = Vec::new();
            for h in &hashes {
                out.extend(seek_rows(
                    c,
                    &format!("SELECT {SEEK} FROM seeks WHERE token_hash = ?1"),
                    &[h],
                )?);
            }
            Ok(out)
        })
        .await
    }

    async fn forget_seeks(&self, before_ms: u64) -> Result<(), StoreError> {
        self.read(move |c| {
            c.execute(
                "DELETE FROM seeks WHERE paired_code IS NOT NULL AND paired_ms < ?1",
                [before_ms as i64],
            )
            .map(|_| ())
            .map_err(unavailable)
        })
        .await
    }

    async fn created(&self, token_hash: &str, request: &str) -> Result<Option<String>, StoreError> {
        self.ask(|tx| Job::Created(token_hash.to_string(), request.to_string(), tx))
            .await?
    }

    fn describe(&self) -> String {
        format!("SQLite file {}", self.path.display())
    }
}
