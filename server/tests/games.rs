//! Whole games through a real server on loopback: two headless bots play one game of each of
//! the four kinds to its end, and the server's stored record agrees with what both saw.

mod common;

use common::*;
use takhte_rules::{AnyGame, GameKind};

#[test]
fn a_full_game_of_each_kind_between_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = Server::start(&db, &["--msgs-per-sec", "200"]);
    for kind in GameKind::ALL {
        let a = bot_config(
            &server.addr,
            "Ana",
            2,
            takhte_online::bot::BotRole::Join(String::new()),
        );
        let b = bot_config(
            &server.addr,
            "Bahram",
            1,
            takhte_online::bot::BotRole::Join(String::new()),
        );
        let (ra, rb) = bot_game(a, b, settings(kind, None));
        assert_eq!(ra.code, rb.code);
        assert!(ra.end.is_some(), "{kind}: the game ended");
        assert_eq!(ra.end, rb.end, "{kind}: both saw the same end");
        assert_eq!(ra.moves, rb.moves, "{kind}: both saw the same moves");
        assert!(
            ra.errors.is_empty() && rb.errors.is_empty(),
            "{kind}: {:?} {:?}",
            ra.errors,
            rb.errors
        );
        let rec = stored(&db, &ra.code);
        assert_eq!(rec.moves, ra.moves, "{kind}: the store has every move once");
        assert_eq!(rec.end, ra.end);
        // The stored moves replay under the rules (with the server's mines and rolls).
        let live = takhte_server::game::Live::from_record(rec).expect("the record rebuilds");
        let over = live.game().outcome();
        let end = ra.end.unwrap();
        if let Some(o) = over {
            assert_eq!(o.reason.as_str(), end.reason, "{kind}");
        }
        eprintln!(
            "{kind}: {} moves, {} ({:?})",
            ra.moves.len(),
            end.reason,
            end.winner
        );
        let _ = AnyGame::start(kind, 0);
    }
}
