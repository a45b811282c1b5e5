//! The library's online session (the state machine the app, the bot and the browser share),
//! without any UI, against a real server on loopback: creating and waiting, joining, moves
//! through the board's outbox, a refused move, the device's list of games, a rematch that
//! moves the board to the new game, watching, the lists, calling a waiting game off.

mod common;

use std::time::{Duration, Instant};

use common::*;
use takhte_game::Outgoing;
use takhte_online::client::{Client, ClientConfig};
use takhte_online::session::{Notice, OnlineError, OnlineSession, Pending};
use takhte_protocol::{ClientMsg, ErrorCode, GameEvent};
use takhte_rules::GameKind;
use takhte_store::OnlineGames;

fn session(addr: &str, name: &str) -> OnlineSession {
    let token = takhte_protocol::token::generate();
    let client = Client::start(ClientConfig {
        address: addr.to_string(),
        token: token.clone(),
        name: name.to_string(),
        wake: None,
        tap: None,
        extra_roots: Vec::new(),
    });
    let mut s = OnlineSession::new(token, OnlineGames::default());
    s.connect(addr, Box::new(client));
    s
}

/// Takes in what comes until a notice matches (panics after 20 s).
fn until(s: &mut OnlineSession, mut f: impl FnMut(&Notice) -> bool) -> Notice {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < end, "no such notice within 20 s");
        for n in s.wait(Duration::from_millis(50)) {
            if f(&n) {
                return n;
            }
        }
    }
}

#[test]
fn the_online_session_plays_a_game_through_a_real_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("s.sqlite"), &["--msgs-per-sec", "200"]);
    let mut ana = session(&server.addr, "Ana");
    let mut bob = session(&server.addr, "Bob");

    // Ana creates: her waiting room, the game in her device's list.
    ana.create(watched(GameKind::Chess, None, false));
    assert!(matches!(ana.pending(), Pending::Create(_)));
    assert!(ana.creating());
    let Notice::ShowWaiting(code) = until(&mut ana, |n| matches!(n, Notice::ShowWaiting(_))) else {
        unreachable!()
    };
    assert_eq!(ana.waiting(), Some(code.as_str()));
    assert_eq!(ana.current(), None);
    assert!(ana
        .games()
        .games
        .iter()
        .any(|g| g.code == code && g.opponent.is_none()));
    // The lobby lists it for Bob.
    bob.ask_lobby();
    until(&mut bob, |n| *n == Notice::Lists);
    assert!(bob
        .lobby()
        .iter()
        .any(|e| e.code == code && e.creator == "Ana"));

    // A code that does not read is refused before anything is sent.
    assert_eq!(
        bob.join("ABC"),
        Err(OnlineError::Code(takhte_protocol::code::CodeError::Length(
            3
        )))
    );
    // Bob joins by the code with spaces, as typed: his board; Ana's board too.
    bob.join(&format!("{} {}", &code[..3], &code[3..])).unwrap();
    until(&mut bob, |n| *n == Notice::ShowGame(code.clone()));
    assert_eq!(bob.current(), Some(code.as_str()));
    until(&mut ana, |n| *n == Notice::ShowGame(code.clone()));
    assert_eq!((ana.current(), ana.waiting()), (Some(code.as_str()), None));

    // Moves go out through the board's outbox and come back as events on both sides.
    ana.send_outgoing(vec![Outgoing::Move {
        ply: 0,
        text: "e2e4".into(),
    }]);
    for s in [&mut ana, &mut bob] {
        until(s, |n| {
            matches!(
                n,
                Notice::Event {
                    event: GameEvent::Moved { ply: 0, .. },
                    ..
                }
            )
        });
        assert_eq!(s.current_mirror().unwrap().moves, ["e2e4"]);
    }
    assert!(bob
        .games()
        .games
        .iter()
        .any(|g| g.code == code && g.your_turn));
    // A move out of turn is refused on the board, and the game asked for again.
    ana.send_outgoing(vec![Outgoing::Move {
        ply: 1,
        text: "d2d4".into(),
    }]);
    let refused = until(&mut ana, |n| matches!(n, Notice::Refused { .. }));
    assert_eq!(
        refused,
        Notice::Refused {
            code: code.clone(),
            error: ErrorCode::NotYourTurn
        }
    );

    // A spectator watches through a session of its own.
    let mut sam = session(&server.addr, "Sam");
    sam.watch(&code).unwrap();
    until(&mut sam, |n| *n == Notice::ShowGame(code.clone()));
    assert_eq!(sam.current_mirror().unwrap().you, None);
    assert!(
        sam.games().games.is_empty(),
        "a watched game is not the spectator's own"
    );

    // Bob resigns; both offer a rematch: each board moves to the new game, colours swapped.
    bob.on_board(|code| ClientMsg::Resign { code });
    until(&mut ana, |n| {
        matches!(
            n,
            Notice::Event {
                event: GameEvent::Ended { .. },
                ..
            }
        )
    });
    assert!(
        !ana.games().games.iter().any(|g| g.code == code),
        "an ended game leaves the device's list"
    );
    ana.on_board(|code| ClientMsg::Rematch { code });
    until(&mut bob, |n| {
        matches!(
            n,
            Notice::Event {
                event: GameEvent::RematchOffered { .. },
                ..
            }
        )
    });
    bob.on_board(|code| ClientMsg::Rematch { code });
    let Notice::ShowGame(new) = until(&mut ana, |n| matches!(n, Notice::ShowGame(c) if *c != code))
    else {
        unreachable!()
    };
    until(&mut bob, |n| *n == Notice::ShowGame(new.clone()));
    assert_eq!(
        ana.current_mirror().unwrap().you,
        Some(takhte_rules::Side::Black)
    );

    // Leaving the board closes the game here.
    assert_eq!(bob.leave_current(), Some(new.clone()));
    assert!(bob.mirror(&new).is_none());

    // A game created and called off leaves the waiting room and the device's list.
    ana.create(watched(GameKind::Draughts, None, false));
    let Notice::ShowWaiting(w) = until(&mut ana, |n| matches!(n, Notice::ShowWaiting(_))) else {
        unreachable!()
    };
    ana.cancel_waiting();
    assert_eq!(ana.waiting(), None);
    assert!(!ana.games().games.iter().any(|g| g.code == w));
    // An unknown game: an error for the screens, nothing on the board.
    ana.open("ZZZZZZ");
    let e = until(&mut ana, |n| matches!(n, Notice::Error(_)));
    assert_eq!(
        e,
        Notice::Error(OnlineError::Refused(ErrorCode::UnknownGame))
    );
}

#[test]
fn without_a_server_the_session_says_so() {
    let mut s = OnlineSession::new(takhte_protocol::token::generate(), OnlineGames::default());
    assert_eq!(s.send(ClientMsg::Lobby), Err(OnlineError::NoServer));
    assert_eq!(s.error(), Some(&OnlineError::NoServer));
}
