//! Lost connections and a crashed server: nothing lost, nothing played twice.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use takhte_online::bot::BotRole;
use takhte_rules::GameKind;

/// Both players' connections go through proxies that the test cuts again and again while the
/// game goes on: the bots reconnect, resume from the last event they saw, resend moves the
/// server had not confirmed, and the game ends with every move once.
#[test]
fn dropped_connections_lose_and_duplicate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drops.sqlite");
    let server = Server::start(&db, &["--msgs-per-sec", "200"]);
    for kind in [
        GameKind::Chess,
        GameKind::DiceChess,
        GameKind::Draughts,
        GameKind::MineChess,
    ] {
        let pa = Proxy::start(&server.addr);
        let pb = Proxy::start(&server.addr);
        let mut a = bot_config(&pa.addr, "Ana", 2, BotRole::Join(String::new()));
        let mut b = bot_config(&pb.addr, "Bahram", 1, BotRole::Join(String::new()));
        a.delay_ms = 40;
        b.delay_ms = 40;
        let cutter = {
            let pa = Arc::new(pa);
            let pb = Arc::new(pb);
            let (pa2, pb2) = (Arc::clone(&pa), Arc::clone(&pb));
            let h = std::thread::spawn(move || {
                // Cut each side several times, at varying moments.
                for i in 0..8u64 {
                    std::thread::sleep(Duration::from_millis(300 + 170 * (i % 3)));
                    if i % 2 == 0 {
                        pa2.cut();
                    } else {
                        pb2.cut();
                    }
                }
            });
            (h, pa, pb)
        };
        let (ra, rb) = bot_game(a, b, settings(kind, None));
        cutter.0.join().unwrap();
        assert!(ra.end.is_some(), "{kind}: ended");
        assert_eq!(ra.moves, rb.moves, "{kind}: both saw the same moves");
        assert_eq!(ra.end, rb.end, "{kind}");
        let rec = stored(&db, &ra.code);
        assert_eq!(rec.moves, ra.moves, "{kind}: the store has each move once");
        check_told(&kind.to_string(), &rec.moves, &[&ra, &rb]);
        assert!(
            ra.reconnects >= 1 && rb.reconnects >= 1,
            "{kind}: each side felt its cuts ({} + {})",
            ra.reconnects,
            rb.reconnects
        );
        let refused = refusals(&[&ra, &rb]);
        assert!(refused.is_empty(), "{kind}: {refused:?}");
        eprintln!(
            "{kind}: {} moves, reconnections {} + {}",
            ra.moves.len(),
            ra.reconnects,
            rb.reconnects
        );
    }
}

/// The server is killed with SIGKILL in the middle of a game and started again on the same
/// address and file: both bots reconnect by themselves and finish the game, which has every
/// move once.
#[test]
fn a_server_killed_and_restarted_carries_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    let mut server = Server::start(&db, &["--msgs-per-sec", "200"]);
    for kind in [GameKind::Chess, GameKind::MineChess] {
        let mut a = bot_config(&server.addr, "Ana", 2, BotRole::Join(String::new()));
        let mut b = bot_config(&server.addr, "Bahram", 1, BotRole::Join(String::new()));
        a.delay_ms = 60;
        b.delay_ms = 60;
        let (code, ha, hb) = start_bot_game(a, b, settings(kind, None));
        // Let some moves happen, then crash the server twice, each time once both bots have
        // moved again (so each crash is one they both live through: polled, not slept, so a
        // slow machine only takes longer).
        wait_moves(&db, &code, 2);
        for _ in 0..2 {
            let before = stored(&db, &code).moves.len();
            server.restart();
            eprintln!("{kind}: killed with {before} moves stored");
            wait_moves(&db, &code, before + 2);
        }
        let ra = ha.join().unwrap();
        let rb = hb.join().unwrap();
        assert!(ra.end.is_some(), "{kind}: the game ended after the crashes");
        assert_eq!(ra.moves, rb.moves, "{kind}");
        let rec = stored(&db, &code);
        assert_eq!(rec.moves, ra.moves, "{kind}: every move once");
        check_told(&kind.to_string(), &rec.moves, &[&ra, &rb]);
        assert!(
            ra.reconnects >= 2 && rb.reconnects >= 2,
            "{kind}: {} {}",
            ra.reconnects,
            rb.reconnects
        );
        let refused = refusals(&[&ra, &rb]);
        assert!(refused.is_empty(), "{kind}: {refused:?}");
    }
}

/// The single server on SQLite aborts at each fault point of a move (before storing it, after
/// storing it, after telling its connections: see `hub::fault`) and is started again: the
/// bots come back, and every move they were told of is stored, once, at its ply.
#[test]
fn a_single_server_killed_at_each_fault_point_loses_nothing() {
    for fault in ["before-store:6", "after-store:6", "before-publish:6"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("fault.sqlite");
        let server = Server::start_env(
            "127.0.0.1:0",
            &db,
            &["--msgs-per-sec", "200"],
            &[("TAKHTE_FAULT", fault)],
        );
        let server = Arc::new(std::sync::Mutex::new(server));
        let mut a = bot_config(
            &server.lock().unwrap().addr,
            "Ana",
            2,
            BotRole::Join(String::new()),
        );
        let mut b = bot_config(
            &server.lock().unwrap().addr,
            "Bahram",
            1,
            BotRole::Join(String::new()),
        );
        a.delay_ms = 30;
        b.delay_ms = 30;
        // A supervisor starts the server again (without the fault) once it has aborted.
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let supervisor = {
            let (server, done) = (Arc::clone(&server), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut restarts = 0;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    {
                        let mut s = server.lock().unwrap();
                        if s.has_exited() {
                            s.env.clear();
                            s.restart();
                            restarts += 1;
                        }
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                restarts
            })
        };
        let (ra, rb) = bot_game(a, b, settings(GameKind::Chess, None));
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let restarts = supervisor.join().unwrap();
        assert_eq!(restarts, 1, "{fault}: the fault struck once");
        assert!(
            ra.end.is_some() && rb.end.is_some(),
            "{fault}: the game ended"
        );
        let rec = stored(&db, &ra.code);
        check_told(fault, &rec.moves, &[&ra, &rb]);
        assert!(
            ra.reconnects >= 1 && rb.reconnects >= 1,
            "{fault}: both came back ({} {})",
            ra.reconnects,
            rb.reconnects
        );
        eprintln!("{fault}: {} moves", rec.moves.len());
    }
}
