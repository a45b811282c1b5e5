//! Spectators: they watch live games (arriving in the middle and receiving the whole game, then
//! every move), suggest moves (counted, changed, refused when illegal, late or repeated, cleared
//! by the real move), never move, never see a hidden mine, and players see suggestions only in
//! an audience game.

mod common;

use std::time::Duration;

use common::*;
use takhte_online::bot::BotRole;
use takhte_protocol::public::public_text;
use takhte_protocol::{ClientMsg, Crowd, ErrorCode, GameEvent, ServerMsg, Tally};
use takhte_rules::mine::Visible;
use takhte_rules::{AnyGame, GameKind};

fn suggest(code: &str, ply: u32, m: &str) -> ClientMsg {
    ClientMsg::Suggest {
        code: code.into(),
        ply,
        mv: m.into(),
    }
}

fn watch(addr: &str, name: &str, code: &str) -> Raw {
    let mut r = Raw::hello(addr, name);
    r.send(&ClientMsg::Watch {
        code: code.into(),
        since: None,
    });
    let st = r.state();
    assert_eq!(st.you, None, "a spectator has no seat");
    r
}

/// The next suggestions message (panics if none comes).
fn suggestions(r: &mut Raw) -> (u32, Crowd) {
    match r.until(|m| matches!(m, ServerMsg::Suggestions { .. })) {
        ServerMsg::Suggestions { ply, crowd, .. } => (ply, crowd),
        _ => unreachable!(),
    }
}

fn tally(pairs: &[(&str, u32)]) -> Vec<Tally> {
    pairs
        .iter()
        .map(|(m, c)| Tally {
            mv: m.to_string(),
            count: *c,
        })
        .collect()
}

#[test]
fn a_spectator_arriving_mid_game_gets_the_whole_game_then_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.sqlite");
    let server = Server::start(&db, &["--msgs-per-sec", "200"]);
    for kind in GameKind::ALL {
        let mut a = bot_config(&server.addr, "Ana", 2, BotRole::Join(String::new()));
        let mut b = bot_config(&server.addr, "Bahram", 1, BotRole::Join(String::new()));
        a.delay_ms = 30;
        b.delay_ms = 30;
        let (code, ha, hb) = start_bot_game(a, b, watched(kind, None, false));
        wait_moves(&db, &code, 2);
        let mut s = Raw::hello(&server.addr, "Spectator");
        s.send(&ClientMsg::Watch {
            code: code.clone(),
            since: None,
        });
        let st = s.state();
        let mut seen: Vec<String> = st.plies.iter().map(|p| p.mv.clone()).collect();
        assert!(!seen.is_empty(), "{kind}: the game was under way");
        assert_eq!(st.seats[0].name.as_deref(), Some("Ana"));
        let mut seq = st.seq;
        let end = loop {
            if let ServerMsg::Event { seq: n, event, .. } = s.recv().expect("events until the end")
            {
                assert_eq!(n, seq + 1, "{kind}: events in order, none missing");
                seq = n;
                match event {
                    GameEvent::Moved { ply, mv, .. } => {
                        assert_eq!(ply as usize, seen.len());
                        seen.push(mv);
                    }
                    GameEvent::Ended { end, .. } => break end,
                    _ => {}
                }
            }
        };
        let ra = ha.join().unwrap();
        hb.join().unwrap();
        assert_eq!(seen, ra.moves, "{kind}: the spectator saw every move once");
        assert_eq!(Some(end), ra.end);
        // A spectator cannot move or take a taken seat.
        s.send(&mv(&code, seen.len() as u32, "e2e4"));
        let (e, _) = s.error();
        assert!(
            matches!(e, ErrorCode::NotAPlayer | ErrorCode::GameOver),
            "{e:?}"
        );
        // Minesweeper chess: every position the spectator received is one a player may see.
        if kind == GameKind::MineChess {
            let rec = stored(&db, &code);
            let mut real = AnyGame::start(kind, rec.seed);
            let mut truth = vec![public_text(&real)];
            for m in &rec.moves {
                real.play_text(m).unwrap();
                truth.push(public_text(&real));
            }
            for text in &s.seen {
                assert!(!text.contains("seed") && !text.contains(&rec.seed.to_string()));
                let v: serde_json::Value = serde_json::from_str(text).unwrap();
                for p in positions(&v) {
                    let vis = Visible::from_text(&p).unwrap();
                    assert_eq!(vis.known_mines & !vis.revealed, 0);
                    assert!(truth.contains(&p), "a position no player should see: {p}");
                }
            }
        }
    }
}

fn positions(v: &serde_json::Value) -> Vec<String> {
    match v {
        serde_json::Value::Object(m) => m
            .iter()
            .flat_map(|(k, x)| {
                if (k == "position" || k == "start") && x.is_string() {
                    vec![x.as_str().unwrap().to_string()]
                } else {
                    positions(x)
                }
            })
            .collect(),
        serde_json::Value::Array(a) => a.iter().flat_map(positions).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn suggestions_are_counted_changed_refused_and_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("s.sqlite"), &["--max-suggestions", "4"]);
    let mut w = Raw::hello(&server.addr, "White");
    w.send(&ClientMsg::Create {
        settings: watched(GameKind::Chess, None, false),
        request: None,
    });
    let code = w.state().code;
    let mut b = Raw::hello(&server.addr, "Black");
    b.send(&ClientMsg::Join { code: code.clone() });
    b.state();
    w.send(&mv(&code, 0, "e2e4"));
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { .. },
                ..
            }
        )
    });

    let mut s1 = watch(&server.addr, "S1", &code);
    let mut s2 = watch(&server.addr, "S2", &code);
    let mut s3 = watch(&server.addr, "S3", &code);
    // The players learn how many watch.
    match w.until(|m| matches!(m, ServerMsg::Crowd { spectators: 3, .. })) {
        ServerMsg::Crowd { spectators, .. } => assert_eq!(spectators, 3),
        _ => unreachable!(),
    }
    s1.send(&suggest(&code, 1, "e7e5"));
    s2.send(&suggest(&code, 1, "e7e5"));
    s3.send(&suggest(&code, 1, "c7c5"));
    let (ply, crowd) = loop {
        let (ply, crowd) = suggestions(&mut s1);
        if crowd.voters == 3 {
            break (ply, crowd);
        }
    };
    assert_eq!(ply, 1);
    assert_eq!(crowd.tally, tally(&[("e7e5", 2), ("c7c5", 1)]));
    // Refused: illegal, for a move already played, the same again, from a player, from
    // someone not watching; too many changes.
    s1.send(&suggest(&code, 1, "e7e4"));
    assert_eq!(s1.error().0, ErrorCode::IllegalMove);
    s1.send(&suggest(&code, 0, "d2d4"));
    assert_eq!(s1.error().0, ErrorCode::WrongPly);
    s2.send(&suggest(&code, 1, "e7e5"));
    assert_eq!(s2.error().0, ErrorCode::DuplicateSuggestion);
    b.send(&suggest(&code, 1, "e7e5"));
    assert_eq!(b.error().0, ErrorCode::NotWatching);
    let mut stranger = Raw::hello(&server.addr, "Stranger");
    stranger.send(&suggest(&code, 1, "e7e5"));
    assert_eq!(stranger.error().0, ErrorCode::NotWatching);
    for m in ["d7d5", "g8f6", "b8c6"] {
        s3.send(&suggest(&code, 1, m));
    }
    s3.send(&suggest(&code, 1, "a7a6"));
    assert_eq!(s3.error().0, ErrorCode::TooManySuggestions);
    // S3's last suggestion (b8c6) replaced its first.
    let crowd = loop {
        let (_, crowd) = suggestions(&mut s2);
        if crowd.count_of("b8c6") == 1 && crowd.count_of("c7c5") == 0 {
            break crowd;
        }
    };
    assert_eq!(crowd.voters, 3);
    assert_eq!(crowd.count_of("e7e5"), 2);
    // A spectator who drops and comes back finds their suggestion.
    drop(s1);
    let mut s1 = Raw::hello(&server.addr, "S1 again");
    s1.send(&ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    let st = s1.state();
    assert_eq!(st.your_suggestion, None, "a new token is a new spectator");
    assert_eq!(st.suggestions.unwrap().count_of("e7e5"), 2);

    // The real move: it carries the suggestions, and they clear.
    b.send(&mv(&code, 1, "e7e5"));
    match s2.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { ply: 1, .. },
                ..
            }
        )
    }) {
        ServerMsg::Event {
            event: GameEvent::Moved { crowd, .. },
            ..
        } => {
            let crowd = crowd.expect("the suggestions came with the move");
            assert_eq!(crowd.count_of("e7e5"), 2);
            assert_eq!(crowd.voters, 3);
        }
        _ => unreachable!(),
    }
    s2.send(&ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    let st = s2.state();
    assert_eq!(st.suggestions, None, "cleared by the move");
    assert_eq!(st.crowd.len(), 2);
    assert_eq!(st.crowd[1].as_ref().unwrap().count_of("e7e5"), 2);
    // The players never received a suggestion while the game went on.
    std::thread::sleep(Duration::from_millis(400));
    w.send(&ClientMsg::Ping { nonce: 9 });
    w.until(|m| matches!(m, ServerMsg::Pong { nonce: 9, .. }));
    b.send(&ClientMsg::Ping { nonce: 9 });
    b.until(|m| matches!(m, ServerMsg::Pong { nonce: 9, .. }));
    for text in w.seen.iter().chain(&b.seen) {
        assert!(!text.contains(r#""type":"suggestions""#), "{text}");
    }
    // Nor with a move: the tally goes to the spectators only.
    let moves_seen: Vec<GameEvent> = w
        .seen
        .iter()
        .chain(&b.seen)
        .filter_map(|t| match serde_json::from_str::<ServerMsg>(t) {
            Ok(ServerMsg::Event {
                event: e @ GameEvent::Moved { .. },
                ..
            }) => Some(e),
            _ => None,
        })
        .collect();
    assert!(moves_seen.len() >= 3, "{moves_seen:?}");
    for e in &moves_seen {
        assert!(
            matches!(e, GameEvent::Moved { crowd: None, .. }),
            "a player was sent the spectators' tally: {e:?}"
        );
    }
    w.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    let st = w.state();
    assert!(
        st.suggestions.is_none() && st.crowd.is_empty(),
        "players see them after the game"
    );
    // After the game, the players see what was suggested at each move: the server sends them
    // the whole game again, with the suggestions.
    w.send(&ClientMsg::Resign { code: code.clone() });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Ended { .. },
                ..
            }
        )
    });
    for p in [&mut w, &mut b] {
        let st = p.state();
        assert!(st.end.is_some());
        assert_eq!(st.crowd[1].as_ref().unwrap().count_of("e7e5"), 2);
    }
    w.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    let st = w.state();
    assert_eq!(st.crowd[1].as_ref().unwrap().count_of("e7e5"), 2);
}

#[test]
fn in_an_audience_game_the_player_to_move_sees_the_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("a.sqlite"), &["--max-spectators", "2"]);
    let mut w = Raw::hello(&server.addr, "White");
    w.send(&ClientMsg::Create {
        settings: watched(GameKind::Draughts, None, true),
        request: None,
    });
    let st = w.state();
    assert!(st.audience && st.spectators_allowed);
    let code = st.code;
    let mut b = Raw::hello(&server.addr, "Black");
    b.send(&ClientMsg::Join { code: code.clone() });
    assert!(b.state().audience, "the setting is shown to who joins");
    let mut s = watch(&server.addr, "S", &code);
    let _s2 = watch(&server.addr, "S2", &code);
    // The cap on spectators.
    let mut s3 = Raw::hello(&server.addr, "S3");
    s3.send(&ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    assert_eq!(s3.error().0, ErrorCode::TooManySpectators);
    s.send(&suggest(&code, 0, "c3-c4"));
    let (_, crowd) = suggestions(&mut w);
    assert_eq!(crowd.tally, tally(&[("c3-c4", 1)]));
    w.send(&mv(&code, 0, "b3-b4"));
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { .. },
                ..
            }
        )
    });
    // In an audience game the players are sent each move's tally too.
    let moved = b
        .seen
        .iter()
        .rev()
        .find_map(|t| match serde_json::from_str::<ServerMsg>(t) {
            Ok(ServerMsg::Event {
                event: GameEvent::Moved { crowd, .. },
                ..
            }) => Some(crowd),
            _ => None,
        });
    assert_eq!(moved.flatten().map(|c| c.count_of("c3-c4")), Some(1));
    // Now Black is to move: Black sees them, White does not.
    s.send(&suggest(&code, 1, "a6-a5"));
    let (ply, crowd) = suggestions(&mut b);
    assert_eq!((ply, crowd.count_of("a6-a5")), (1, 1));
    std::thread::sleep(Duration::from_millis(400));
    w.send(&ClientMsg::Ping { nonce: 1 });
    w.until(|m| matches!(m, ServerMsg::Pong { .. }));
    let late: Vec<&String> = w
        .seen
        .iter()
        .skip_while(|t| !t.contains(r#""ply":0"#) || !t.contains("moved"))
        .filter(|t| t.contains(r#""type":"suggestions""#))
        .collect();
    assert!(late.is_empty(), "White is not to move: {late:?}");

    // A game that does not allow spectators.
    let mut p = Raw::hello(&server.addr, "Private");
    p.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let private = p.state().code;
    let mut nosy = Raw::hello(&server.addr, "Nosy");
    nosy.send(&ClientMsg::Watch {
        code: private,
        since: None,
    });
    assert_eq!(nosy.error().0, ErrorCode::NoSpectators);

    // The live games list.
    let mut l = Raw::hello(&server.addr, "Lister");
    l.send(&ClientMsg::LiveGames);
    match l.until(|m| matches!(m, ServerMsg::LiveGames { .. })) {
        ServerMsg::LiveGames { games } => {
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].code, code);
            assert_eq!(games[0].players, ["White".to_string(), "Black".to_string()]);
            assert_eq!(games[0].plies, 1);
            assert_eq!(games[0].spectators, 2);
        }
        _ => unreachable!(),
    }
}

/// The count a player sees: the last `Crowd` message within `d`.
fn crowd_seen(r: &mut Raw, d: Duration) -> Option<u32> {
    let deadline = std::time::Instant::now() + d;
    let mut last = None;
    while std::time::Instant::now() < deadline {
        for m in r.flush() {
            if let ServerMsg::Crowd { spectators, .. } = m {
                last = Some(spectators);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    last
}

/// A spectator counts while its app talks (the app pings every second). One that goes quiet
/// — a page frozen in the browser's cache still answers the socket's pings — is let go after
/// `--silence-ms` and stops counting; a player's connection is not (players may think long).
#[test]
fn a_spectator_that_goes_quiet_stops_counting() {
    let server = Server::scratch(&["--silence-ms", "2000"]);
    let (mut w, mut b, code) = table(&server.addr, watched(GameKind::Chess, None, false));
    let mut talking = watch(&server.addr, "Talks", &code);
    let mut quiet = watch(&server.addr, "Quiet", &code);
    assert_eq!(crowd_seen(&mut w, Duration::from_millis(600)), Some(2));
    // For 4 s: the talking one pings twice a second; the quiet one only reads (its socket
    // answers the server's pings), as do the players.
    let started = std::time::Instant::now();
    let mut counts = Vec::new();
    let mut told = false;
    while started.elapsed() < Duration::from_secs(4) {
        talking.send(&ClientMsg::Ping { nonce: 1 });
        // Reads without sending anything (a read answers the server's pings).
        while let Next::Msg(m) = quiet.next(Duration::from_millis(20)) {
            told |= matches!(m, ServerMsg::Bye { .. });
        }
        let _ = b.flush();
        if let Some(n) = crowd_seen(&mut w, Duration::from_millis(500)) {
            counts.push((started.elapsed().as_millis(), n));
        }
    }
    assert_eq!(
        counts.last().map(|c| c.1),
        Some(1),
        "the quiet spectator still counts: {counts:?}"
    );
    // The quiet one was told why; the players are still connected and play on.
    loop {
        match quiet.next(Duration::from_secs(2)) {
            Next::Msg(ServerMsg::Bye { .. }) => told = true,
            Next::Msg(_) => {}
            Next::Closed | Next::Silent => break,
        }
    }
    assert!(told, "the quiet spectator is told why it is let go");
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    assert!(matches!(
        b.until(|m| matches!(m, ServerMsg::Event { .. })),
        ServerMsg::Event { .. }
    ));
}
