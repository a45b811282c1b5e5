//! Lost connections and a crashed server: nothing lost, nothing played twice.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use takhte_core::net::bot::BotRole;
use takhte_core::rules::GameKind;

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
        assert!(
            ra.reconnects + rb.reconnects >= 4,
            "{kind}: the cuts were felt ({} + {})",
            ra.reconnects,
            rb.reconnects
        );
        let refusals: Vec<&String> = ra
            .errors
            .iter()
            .chain(&rb.errors)
            .filter(|e| !e.starts_with("RateLimited"))
            .collect();
        assert!(refusals.is_empty(), "{kind}: {refusals:?}");
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
        assert!(
            ra.reconnects >= 2 && rb.reconnects >= 2,
            "{kind}: {} {}",
            ra.reconnects,
            rb.reconnects
        );
        let refusals: Vec<&String> = ra
            .errors
            .iter()
            .chain(&rb.errors)
            .filter(|e| !e.starts_with("RateLimited"))
            .collect();
        assert!(refusals.is_empty(), "{kind}: {refusals:?}");
    }
}
