//! Chaos: three instances on the real PostgreSQL and Redis, games of all four kinds played by
//! fast bots whose two players and spectator each sit on another instance, while instances are
//! killed with SIGKILL and paused with SIGSTOP. Afterwards every game is checked against the
//! database: every move a client was told of is stored at its ply, every stored move was
//! told, every client's events came once each and in order, every client's and spectator's
//! game is the stored one, and no game stood still.
//!
//! Bounded: the faults go on for [`CHAOS_FOR`], the games then play to their end.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::services::Services;
use common::*;
use takhte_online::bot::{BotConfig, BotReport, BotRole};
use takhte_online::client::{Client, ClientConfig, ClientEvent, ConnState};
use takhte_online::mirror::Mirror;
use takhte_protocol::token;
use takhte_protocol::{ClientMsg, ColourChoice, GameEvent, GameSettings, ServerMsg};
use takhte_rules::GameKind;

/// How long instances are killed and paused.
const CHAOS_FOR: Duration = Duration::from_secs(32);
/// A game whose stored record does not change for this long (and has not ended) is stuck.
const STUCK_AFTER: Duration = Duration::from_secs(15);

/// A game to watch, the colours drawn.
fn drawn(kind: GameKind) -> GameSettings {
    GameSettings {
        colour: ColourChoice::Random,
        ..watched(kind, None, false)
    }
}

/// What a spectator saw of one game.
#[derive(Default, Debug)]
struct Watched {
    moves: Vec<String>,
    ended: bool,
    seqs: Vec<(u64, bool)>,
    reconnects: u32,
}

/// Watches `code` through `addr` (reconnecting as the app does) until the game ends or `stop`.
fn spectate(addr: String, code: String, stop: Arc<AtomicBool>) -> Watched {
    let client = Client::start(ClientConfig {
        address: addr,
        token: token::generate(),
        name: "Spectator".into(),
        wake: None,
        tap: None,
        extra_roots: Vec::new(),
    });
    client.send(ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    let mut seen = Watched::default();
    let mut mirror: Option<Mirror> = None;
    let mut ended_at: Option<Instant> = None;
    loop {
        if stop.load(Ordering::Relaxed)
            || ended_at.is_some_and(|t| t.elapsed() > Duration::from_millis(300))
        {
            break;
        }
        let Some(e) = client.recv_timeout(Duration::from_millis(50)) else {
            continue;
        };
        let now = Instant::now();
        match e {
            ClientEvent::Conn(ConnState::Reconnecting { attempt: 1, .. }) => seen.reconnects += 1,
            ClientEvent::Msg(ServerMsg::State { state }) if state.code == code => {
                seen.seqs.push((state.seq, true));
                mirror = Mirror::from_state(&state, now).ok();
            }
            ClientEvent::Msg(ServerMsg::Event {
                code: c,
                seq,
                event,
            }) if c == code => {
                seen.seqs.push((seq, false));
                let Some(m) = mirror.as_mut() else { continue };
                if m.apply(seq, &event, now).is_err() {
                    // Out of step: the whole state again (the check of the numbers fails).
                    client.send(ClientMsg::Watch {
                        code: code.clone(),
                        since: None,
                    });
                }
                if matches!(event, GameEvent::Ended { .. }) {
                    ended_at = Some(now);
                }
            }
            _ => {}
        }
        if let Some(m) = &mirror {
            seen.moves = m.moves.clone();
            seen.ended = m.is_over();
        }
    }
    seen
}

/// One game's threads and what they report.
struct Table {
    kind: GameKind,
    code: String,
    players: [std::thread::JoinHandle<BotReport>; 2],
    spectator: std::thread::JoinHandle<Watched>,
    /// Tells the spectator to stop waiting.
    stop: Arc<AtomicBool>,
    /// When both players had finished.
    players_done: Option<Instant>,
}

fn bot(addr: &str, name: &str, kind: GameKind) -> BotConfig {
    let mut c = bot_config(addr, name, 1, BotRole::Join(String::new()));
    // Dice chess fast (a roll and the move after it a few milliseconds apart, on one
    // instance: the case that once lost events on the others); the others at a brisk pace.
    c.delay_ms = if kind == GameKind::DiceChess { 0 } else { 25 };
    c.movetime_ms = 5;
    c.timeout = Duration::from_secs(150);
    c
}

/// The stored moves, whether the game has ended, and its event number.
fn stored_game(db: &str, code: &str) -> Option<(Vec<String>, bool, u64)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    rt.block_on(async {
        let (client, conn) = tokio_postgres::connect(db, tokio_postgres::NoTls)
            .await
            .ok()?;
        tokio::spawn(conn);
        let row = client
            .query_opt("SELECT record FROM games WHERE code = $1", &[&code])
            .await
            .ok()??;
        let rec: takhte_server::game::GameRecord =
            serde_json::from_str(row.get::<_, &str>(0)).ok()?;
        Some((rec.moves, rec.end.is_some(), rec.seq))
    })
}

#[test]
fn chaos_kills_and_pauses_lose_nothing() {
    let services = Services::shared();
    let db = services.database();
    let cluster = format!("c{:08x}", rand::random::<u32>());
    let opts = [
        "--redis",
        services.redis.as_str(),
        "--cluster",
        cluster.as_str(),
        "--msgs-per-sec",
        "200",
        "--max-conns-per-ip",
        "1000",
    ];
    let instances: Vec<Arc<Mutex<Server>>> = (0..3)
        .map(|_| Arc::new(Mutex::new(Server::start(Path::new(&db), &opts))))
        .collect();
    let addrs: Vec<String> = instances
        .iter()
        .map(|s| s.lock().unwrap().addr.clone())
        .collect();
    // Three doors: each sends its clients to one instance while it answers, else the next.
    let doors: Vec<Balancer> = (0..3)
        .map(|i| Balancer::start((0..3).map(|k| addrs[(i + k) % 3].clone()).collect()))
        .collect();

    let stop_chaos = Arc::new(AtomicBool::new(false));
    let faults = Arc::new(Mutex::new((0u32, 0u32)));
    let chaos = {
        let (instances, stop, faults) = (
            instances.clone(),
            Arc::clone(&stop_chaos),
            Arc::clone(&faults),
        );
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut n = 0usize;
            std::thread::sleep(Duration::from_millis(1_500));
            while started.elapsed() < CHAOS_FOR && !stop.load(Ordering::Relaxed) {
                let victim = &instances[n % 3];
                if n.is_multiple_of(2) {
                    victim.lock().unwrap().kill9();
                    std::thread::sleep(Duration::from_millis(1_200));
                    victim.lock().unwrap().restart();
                    faults.lock().unwrap().0 += 1;
                } else {
                    victim.lock().unwrap().pause();
                    std::thread::sleep(Duration::from_millis(3_000));
                    victim.lock().unwrap().resume();
                    faults.lock().unwrap().1 += 1;
                }
                n += 1;
                std::thread::sleep(Duration::from_millis(2_500));
            }
        })
    };

    // Games back to back on five tables (dice chess on two) until the faults stop.
    let kinds = [
        GameKind::DiceChess,
        GameKind::DiceChess,
        GameKind::Chess,
        GameKind::Draughts,
        GameKind::MineChess,
    ];
    let started = Instant::now();
    let mut tables: Vec<Option<Table>> = (0..kinds.len()).map(|_| None).collect();
    let mut done: Vec<(GameKind, String, [BotReport; 2], Watched)> = Vec::new();
    let mut progress: std::collections::HashMap<String, (u64, Instant)> = Default::default();
    let mut round = 0usize;
    loop {
        let chaos_over = started.elapsed() >= CHAOS_FOR;
        for (t, slot) in tables.iter_mut().enumerate() {
            if let Some(tb) = slot.as_mut() {
                if tb.players.iter().all(|h| h.is_finished()) {
                    let at = *tb.players_done.get_or_insert_with(Instant::now);
                    // The spectator has a few seconds after the players to see the end.
                    if at.elapsed() > Duration::from_secs(5) {
                        tb.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            let finished = slot.as_ref().is_some_and(|tb| {
                tb.players.iter().all(|h| h.is_finished()) && tb.spectator.is_finished()
            });
            if finished {
                let tb = slot.take().unwrap();
                let [a, b] = tb.players;
                let ra = a.join().expect("a player plays to the end");
                let rb = b.join().expect("a player plays to the end");
                let w = tb.spectator.join().unwrap();
                done.push((tb.kind, tb.code, [ra, rb], w));
            }
            if slot.is_none() && !chaos_over {
                let kind = kinds[t];
                // Each of the three on another instance, turning with the tables and rounds.
                let first = (t + round) % 3;
                let a = bot(&doors[first].addr, "Ana", kind);
                let b = bot(&doors[(first + 1) % 3].addr, "Bahram", kind);
                let (code, ha, hb) = start_bot_game(a, b, drawn(kind));
                let stop = Arc::new(AtomicBool::new(false));
                let door = doors[(first + 2) % 3].addr.clone();
                let (c2, s2) = (code.clone(), Arc::clone(&stop));
                let hs = std::thread::spawn(move || spectate(door, c2, s2));
                *slot = Some(Table {
                    kind,
                    code,
                    players: [ha, hb],
                    spectator: hs,
                    stop,
                    players_done: None,
                });
                round += 1;
            }
        }
        if chaos_over && tables.iter().all(Option::is_none) {
            break;
        }
        // No game stands still: its stored record changes, or it has ended.
        for tb in tables.iter().flatten() {
            if let Some((moves, ended, seq)) = stored_game(&db, &tb.code) {
                let e = progress
                    .entry(tb.code.clone())
                    .or_insert((seq, Instant::now()));
                if e.0 != seq || ended {
                    *e = (seq, Instant::now());
                }
                assert!(
                    e.1.elapsed() < STUCK_AFTER,
                    "{} {}: stuck at event {seq} ({} moves) for {} s",
                    tb.kind,
                    tb.code,
                    moves.len(),
                    e.1.elapsed().as_secs()
                );
            }
        }
        assert!(
            started.elapsed() < CHAOS_FOR + Duration::from_secs(240),
            "the games did not end"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    stop_chaos.store(true, Ordering::Relaxed);
    chaos.join().unwrap();

    let mut plies = 0;
    let mut reconnects = 0;
    let mut kinds_seen = std::collections::BTreeSet::new();
    for (kind, code, [ra, rb], w) in &done {
        let (stored, ended, _) = stored_game(&db, code).expect("the game is stored");
        let label = format!("{kind} {code}");
        assert!(ended, "{label}: ended");
        check_told(&label, &stored, &[ra, rb]);
        assert!(
            ra.end.is_some() && rb.end.is_some(),
            "{label}: both saw the end"
        );
        check_order(&format!("{label}: spectator"), &w.seqs);
        assert!(w.ended, "{label}: the spectator saw the end");
        assert_eq!(
            w.moves, stored,
            "{label}: the spectator has the stored game"
        );
        plies += stored.len();
        reconnects += ra.reconnects + rb.reconnects + w.reconnects;
        kinds_seen.insert(*kind);
    }
    let (kills, pauses) = *faults.lock().unwrap();
    eprintln!(
        "chaos: {} games ({} plies), {kills} kills and {pauses} pauses, {reconnects} reconnections, in {} s",
        done.len(),
        plies,
        started.elapsed().as_secs()
    );
    assert_eq!(kinds_seen.len(), 4, "every kind was played: {kinds_seen:?}");
    assert!(kills >= 3 && pauses >= 3, "{kills} kills, {pauses} pauses");
    assert!(reconnects > 0, "the faults were felt");
}
