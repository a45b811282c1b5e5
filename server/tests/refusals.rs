//! Hostile and broken clients: every bad input is refused with its own error (or the
//! connection is closed with its reason), the game is unchanged, and the server goes on.

mod common;

use common::*;
use takhte_protocol::{ClientMsg, CloseReason, ColourChoice, ErrorCode, GameSettings, ServerMsg};
use takhte_rules::GameKind;

/// The game as its player sees it now (seq and moves).
fn snapshot(r: &mut Raw, code: &str) -> (u64, Vec<String>) {
    r.send(&ClientMsg::Open {
        code: code.into(),
        since: None,
    });
    let s = r.state();
    (s.seq, s.plies.into_iter().map(|p| p.mv).collect())
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("r.sqlite"), &[]);
    let (mut w, mut b, code) = table(&server.addr, settings(GameKind::Chess, None));
    w.send(&mv(&code, 0, "e2e4"));
    b.until(|m| matches!(m, ServerMsg::Event { .. }));
    let before = snapshot(&mut w, &code);
    assert_eq!(before.1, ["e2e4"]);

    let mut stranger = Raw::hello(&server.addr, "Stranger");
    // Out of turn: White moves again.
    w.send(&mv(&code, 1, "d2d4"));
    assert_eq!(w.error().0, ErrorCode::NotYourTurn);
    // White moves Black's piece on Black's turn? It is Black's turn: White is refused first.
    w.send(&mv(&code, 1, "e7e5"));
    assert_eq!(w.error().0, ErrorCode::NotYourTurn);
    // Black moves a white piece (the other side's move).
    b.send(&mv(&code, 1, "d2d4"));
    assert_eq!(b.error().0, ErrorCode::IllegalMove);
    // Black's illegal move, an unreadable one, a wrong ply, a future ply.
    b.send(&mv(&code, 1, "e7e4"));
    assert_eq!(b.error().0, ErrorCode::IllegalMove);
    b.send(&mv(&code, 1, "hello"));
    assert_eq!(b.error().0, ErrorCode::IllegalMove);
    b.send(&mv(&code, 0, "e7e5"));
    assert_eq!(b.error().0, ErrorCode::WrongPly);
    b.send(&mv(&code, 7, "e7e5"));
    assert_eq!(b.error().0, ErrorCode::WrongPly);
    // Someone who does not sit at the game.
    stranger.send(&mv(&code, 1, "e7e5"));
    assert_eq!(stranger.error().0, ErrorCode::NotAPlayer);
    stranger.send(&ClientMsg::Join { code: code.clone() });
    assert_eq!(stranger.error().0, ErrorCode::GameFull);
    stranger.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    assert_eq!(stranger.error().0, ErrorCode::NotAPlayer);
    stranger.send(&ClientMsg::Resign { code: code.clone() });
    assert_eq!(stranger.error().0, ErrorCode::NotAPlayer);
    // Unknown and malformed codes.
    stranger.send(&ClientMsg::Join {
        code: "ZZZZZZ".into(),
    });
    assert_eq!(stranger.error().0, ErrorCode::UnknownGame);
    stranger.send(&ClientMsg::Join {
        code: "../../etc".into(),
    });
    assert_eq!(stranger.error().0, ErrorCode::UnknownGame);
    // A roll in chess, a draw answer without an offer, a claim with the opponent here.
    b.send(&ClientMsg::Roll {
        code: code.clone(),
        ply: 1,
    });
    assert_eq!(b.error().0, ErrorCode::CannotRoll);
    b.send(&ClientMsg::AnswerDraw {
        code: code.clone(),
        accept: true,
    });
    assert_eq!(b.error().0, ErrorCode::NoDrawOffer);
    b.send(&ClientMsg::ClaimWin { code: code.clone() });
    assert_eq!(b.error().0, ErrorCode::CannotClaim);
    b.send(&ClientMsg::Rematch { code: code.clone() });
    assert_eq!(b.error().0, ErrorCode::CannotRematch);
    assert_eq!(snapshot(&mut w, &code), before, "nothing changed");

    // After the end: resign, then a move is refused.
    b.send(&mv(&code, 1, "e7e5"));
    w.send(&ClientMsg::Resign { code: code.clone() });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: takhte_protocol::GameEvent::Ended { .. },
                ..
            }
        )
    });
    let ended = snapshot(&mut w, &code);
    b.send(&mv(&code, 2, "d7d5"));
    assert_eq!(b.error().0, ErrorCode::GameOver);
    w.send(&mv(&code, 2, "d2d4"));
    assert_eq!(w.error().0, ErrorCode::GameOver);
    b.send(&ClientMsg::Abort { code: code.clone() });
    assert_eq!(b.error().0, ErrorCode::GameOver);
    assert_eq!(snapshot(&mut w, &code), ended);

    // The server is unharmed: a new game works.
    let (mut w2, _b2, code2) = table(&server.addr, settings(GameKind::Draughts, None));
    w2.send(&mv(&code2, 0, "c3-c4"));
    w2.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: takhte_protocol::GameEvent::Moved { ply: 0, .. },
                ..
            }
        )
    });
}

#[test]
fn malformed_messages_are_refused_and_floods_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        &dir.path().join("m.sqlite"),
        &["--max-conns-per-ip", "6", "--max-open-games", "2"],
    );
    // Before hello.
    let mut r = Raw::connect(&server.addr);
    r.send(&ClientMsg::Lobby);
    assert_eq!(r.error().0, ErrorCode::HelloFirst);
    r.send_text(r#"{"type":"hello","protocol":1,"token":"xyz"}"#);
    assert_eq!(r.error().0, ErrorCode::BadToken);
    let t = r.token.clone();
    r.send(&ClientMsg::Hello {
        protocol: takhte_protocol::PROTOCOL_VERSION,
        token: t.clone(),
        name: "N".into(),
    });
    assert!(matches!(r.recv(), Some(ServerMsg::Welcome { .. })));
    for (text, code) in [
        ("not json", ErrorCode::BadMessage),
        ("[1,2,3]", ErrorCode::BadMessage),
        (r#"{"no":"type"}"#, ErrorCode::BadMessage),
        (r#"{"type":"teleport"}"#, ErrorCode::UnknownType),
        (r#"{"type":"move","code":"AAAAAA"}"#, ErrorCode::BadMessage),
        (
            r#"{"type":"move","code":"AAAAAA","ply":"one","move":"e2e4"}"#,
            ErrorCode::BadMessage,
        ),
        (
            r#"{"type":"create","settings":{"kind":"go","colour":"white"}}"#,
            ErrorCode::BadMessage,
        ),
        (
            r#"{"type":"hello","protocol":1,"token":"00000000000000000000000000000000"}"#,
            ErrorCode::HelloFirst,
        ),
    ] {
        r.send_text(text);
        assert_eq!(r.error().0, code, "{text}");
    }
    // Bad settings.
    for s in [
        GameSettings {
            kind: GameKind::Chess,
            clock: Some(takhte_protocol::ClockSpec {
                base_ms: 5,
                increment_ms: 0,
            }),
            colour: ColourChoice::White,
            public: false,
            position: None,
            spectators: false,
            audience: false,
            rated: false,
        },
        GameSettings {
            kind: GameKind::MineChess,
            clock: None,
            colour: ColourChoice::White,
            public: false,
            position: Some(
                "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d5,e6,a4,h7 -".into(),
            ),
            spectators: false,
            audience: false,
            rated: false,
        },
        GameSettings {
            kind: GameKind::Chess,
            clock: None,
            colour: ColourChoice::White,
            public: false,
            position: Some("not a position".into()),
            spectators: false,
            audience: false,
            rated: false,
        },
    ] {
        r.send(&ClientMsg::Create {
            settings: s,
            request: None,
        });
        assert_eq!(r.error().0, ErrorCode::BadSettings);
    }
    // Open games per player: two, then refused; a game that has ended does not count.
    let mut codes = Vec::new();
    for _ in 0..2 {
        r.send(&ClientMsg::Create {
            settings: settings(GameKind::Chess, None),
            request: None,
        });
        codes.push(r.state().code);
    }
    r.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let (code, message) = r.error();
    assert_eq!(code, ErrorCode::TooManyGames);
    assert!(message.contains("you have 2 games"), "{message}");
    r.send(&ClientMsg::Abort {
        code: codes[0].clone(),
    });
    r.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let third = r.state();
    assert!(!codes.contains(&third.code), "a new game after one ended");
    r.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let (code, message) = r.error();
    assert_eq!(code, ErrorCode::TooManyGames);
    assert!(message.contains("you have 2 games"), "{message}");

    // A message over the limit closes the connection with its reason.
    let mut big = Raw::hello(&server.addr, "Big");
    big.send_text(&format!(
        r#"{{"type":"set-name","name":"{}"}}"#,
        "x".repeat(5000)
    ));
    match big.until(|m| matches!(m, ServerMsg::Bye { .. })) {
        ServerMsg::Bye { reason, .. } => assert_eq!(reason, CloseReason::TooLarge),
        _ => unreachable!(),
    }
    assert!(big.recv().is_none(), "closed");

    // Too many malformed messages close it.
    let mut junk = Raw::hello(&server.addr, "Junk");
    for _ in 0..25 {
        junk.send_text("{");
    }
    match junk.until(|m| matches!(m, ServerMsg::Bye { .. })) {
        ServerMsg::Bye { reason, .. } => assert_eq!(reason, CloseReason::TooManyErrors),
        _ => unreachable!(),
    }

    // A flood: rate-limited errors, then closed.
    let mut flood = Raw::hello(&server.addr, "Flood");
    let mut limited = 0;
    for i in 0..80 {
        flood.send(&ClientMsg::Ping { nonce: i });
    }
    let reason = loop {
        match flood.recv() {
            Some(ServerMsg::Error {
                error: ErrorCode::RateLimited,
                ..
            }) => limited += 1,
            Some(ServerMsg::Bye { reason, .. }) => break reason,
            Some(_) => {}
            None => panic!("closed without a reason"),
        }
    };
    assert!(limited > 0);
    assert_eq!(reason, CloseReason::RateLimited);

    // Wrong protocol version: told and closed.
    let mut old = Raw::connect(&server.addr);
    old.send_text(r#"{"type":"hello","protocol":999,"token":"00000000000000000000000000000000"}"#);
    match old.recv() {
        Some(ServerMsg::Bye { reason, .. }) => assert_eq!(reason, CloseReason::Protocol),
        other => panic!("{other:?}"),
    }

    // Connections per address: r and the ones still open count; the seventh is refused.
    // Each of the five is greeted before the next connects, so each is counted in order; one
    // refused because the server has not yet let go of the dropped ones is tried again.
    drop((big, junk, flood, old));
    let mut many: Vec<Raw> = Vec::new();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while many.len() < 5 {
        let mut c = Raw::connect(&server.addr);
        let t = c.token.clone();
        c.send(&ClientMsg::Hello {
            protocol: takhte_protocol::PROTOCOL_VERSION,
            token: t,
            name: "M".into(),
        });
        match c.recv() {
            Some(ServerMsg::Welcome { .. }) => many.push(c),
            other => {
                assert!(
                    std::time::Instant::now() < until,
                    "a fifth connection was never served: {other:?}"
                );
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }
    let mut last = Raw::connect(&server.addr);
    match last.recv() {
        Some(ServerMsg::Bye { reason, .. }) => assert_eq!(reason, CloseReason::TooManyConnections),
        other => panic!("{other:?}"),
    }
    many.clear();
    // The first connection still works.
    r.send(&ClientMsg::Ping { nonce: 1 });
    r.until(|m| matches!(m, ServerMsg::Pong { nonce: 1, .. }));
}

#[test]
fn dice_rolls_come_from_the_server_and_forged_faces_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("d.sqlite"), &[]);
    let (mut w, mut b, code) = table(&server.addr, settings(GameKind::DiceChess, None));
    let st = snapshot(&mut w, &code);
    assert!(st.1.is_empty());
    // Who begins is the server's start roll.
    w.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    let state = w.state();
    let first = takhte_protocol::public::game_from_public(GameKind::DiceChess, &state.start)
        .unwrap()
        .side_to_move();
    assert!(!state.start_rolls.is_empty());
    let (mover, other) = if first == takhte_rules::Side::White {
        (&mut w, &mut b)
    } else {
        (&mut b, &mut w)
    };
    let pawn = if first == takhte_rules::Side::White {
        "a2a3"
    } else {
        "a7a6"
    };
    // A pawn move with a face of the client's choosing, before any roll.
    mover.send(&mv(&code, 0, &format!("1:{pawn}")));
    assert_eq!(mover.error().0, ErrorCode::ForgedDie);
    // The other player may not roll.
    other.send(&ClientMsg::Roll {
        code: code.clone(),
        ply: 0,
    });
    assert_eq!(other.error().0, ErrorCode::NotYourTurn);
    // An empty roll sent as a move.
    mover.send(&mv(&code, 0, "3:-"));
    assert_eq!(mover.error().0, ErrorCode::ForgedDie);
    // The server rolls.
    let mut faces = std::collections::BTreeSet::new();
    mover.send(&ClientMsg::Roll {
        code: code.clone(),
        ply: 0,
    });
    let face = match mover.until(|m| matches!(m, ServerMsg::Event { .. })) {
        ServerMsg::Event {
            event: takhte_protocol::GameEvent::Rolled { face, ply: 0 },
            ..
        } => face,
        other => panic!("{other:?}"),
    };
    faces.insert(face);
    // Both players see the same roll.
    match other.until(|m| matches!(m, ServerMsg::Event { .. })) {
        ServerMsg::Event {
            event: takhte_protocol::GameEvent::Rolled { face: f, .. },
            ..
        } => assert_eq!(f, face),
        o => panic!("{o:?}"),
    }
    // Rolling again rolls nothing (it is taken as a resend); a move with another face is
    // refused.
    mover.send(&ClientMsg::Roll {
        code: code.clone(),
        ply: 0,
    });
    let wrong = if face == 1 { 2 } else { 1 };
    mover.send(&mv(&code, 0, &format!("{wrong}:{pawn}")));
    assert_eq!(mover.error().0, ErrorCode::ForgedDie);
    // A king move after rolling is refused too.
    let king = if first == takhte_rules::Side::White {
        "d1d2"
    } else {
        "e8e7"
    };
    mover.send(&mv(&code, 0, king));
    let (e, _) = mover.error();
    assert!(matches!(e, ErrorCode::IllegalMove), "{e:?}");
    let (seq, moves) = snapshot(other, &code);
    assert!(moves.is_empty());
    assert_eq!(seq, 2, "seated + rolled, nothing else");
    other.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    assert_eq!(
        other.state().rolled,
        Some(face),
        "the face stays the first roll"
    );
}

/// Greets the server through a connection whose request carries `X-Forwarded-For: forwarded`
/// (as a reverse proxy would); the server's first answer.
fn hello_forwarded(addr: &str, forwarded: &str) -> (Raw, Option<ServerMsg>) {
    let mut r = Raw::connect_with(addr, &[("x-forwarded-for", forwarded)]);
    let t = r.token.clone();
    r.send(&ClientMsg::Hello {
        protocol: takhte_protocol::PROTOCOL_VERSION,
        token: t,
        name: "Behind".into(),
    });
    let first = r.recv();
    (r, first)
}

/// Behind a reverse proxy (`--behind-proxy`) every socket comes from the proxy: the limit per
/// address counts the address the proxy added last to `X-Forwarded-For`, so two clients are
/// two addresses, and an address a client puts in front of its own changes nothing.
#[test]
fn behind_a_proxy_the_forwarded_address_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        &dir.path().join("p.sqlite"),
        &["--behind-proxy", "--max-conns-per-ip", "1"],
    );
    let (_a, first) = hello_forwarded(&server.addr, "10.0.0.1");
    assert!(
        matches!(first, Some(ServerMsg::Welcome { .. })),
        "{first:?}"
    );
    let (_b, first) = hello_forwarded(&server.addr, "10.0.0.2");
    assert!(
        matches!(first, Some(ServerMsg::Welcome { .. })),
        "{first:?}"
    );
    let (_c, first) = hello_forwarded(&server.addr, "192.0.2.7, 10.0.0.1");
    match first {
        Some(ServerMsg::Bye { reason, .. }) => {
            assert_eq!(reason, CloseReason::TooManyConnections)
        }
        other => panic!("a second connection of 10.0.0.1: {other:?}"),
    }
}
