//! What players do beside moving: clocks that run out with nobody moving, draws, resigning,
//! aborting, claiming a game the opponent left, rematches, the lobby, and hidden mines that
//! never reach a client.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use takhte_online::bot::{self, BotRole};
use takhte_protocol::{ClientMsg, ClockSpec, ColourChoice, GameEvent, GameSettings, ServerMsg};
use takhte_rules::mine::Visible;
use takhte_rules::{AnyGame, GameKind, Side};

fn open(
    addr: &str,
    kind: GameKind,
    clock: Option<ClockSpec>,
    position: Option<&str>,
) -> (Raw, Raw, String) {
    let mut w = Raw::hello(addr, "White");
    w.send(&ClientMsg::Create {
        settings: GameSettings {
            kind,
            clock,
            colour: ColourChoice::White,
            public: false,
            position: position.map(String::from),
            spectators: false,
            audience: false,
            rated: false,
        },
        request: None,
    });
    let code = w.state().code;
    let mut b = Raw::hello(addr, "Black");
    b.send(&ClientMsg::Join { code: code.clone() });
    b.state();
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Seated { .. },
                ..
            }
        )
    });
    (w, b, code)
}

/// Reads until the move of `ply` has arrived.
fn moved(c: &mut Raw, ply: u32) {
    c.until(|m| {
        matches!(m, ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if *p == ply)
    });
}

#[test]
fn a_flag_falls_on_the_server_with_nobody_moving() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("c.sqlite"), &[]);
    let clock = Some(ClockSpec {
        base_ms: 1_500,
        increment_ms: 0,
    });
    // Black does not answer White's first move: Black loses on time.
    let (mut w, mut b, code) = open(&server.addr, GameKind::Chess, clock, None);
    w.send(&mv(&code, 0, "e2e4"));
    let t = Instant::now();
    let end = ended(&mut w);
    let waited = t.elapsed();
    assert_eq!(end.reason, "time");
    assert_eq!(end.winner, Some(Side::White));
    assert!(waited >= Duration::from_millis(1_400), "{waited:?}");
    // Due 1.8 s after the move (1.5 s and the lag allowance); a loaded machine is slower.
    assert!(waited < Duration::from_secs(8), "{waited:?}");
    assert_eq!(ended(&mut b), end);
    // A move after the flag is refused.
    b.send(&mv(&code, 1, "e7e5"));
    assert_eq!(b.error().0, takhte_protocol::ErrorCode::GameOver);

    // Black's flag falls while White has only the king: a draw, not a win.
    let (mut w, _b, code) = open(
        &server.addr,
        GameKind::Chess,
        clock,
        Some("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1"),
    );
    w.send(&mv(&code, 0, "e1e2"));
    let end = ended(&mut w);
    assert_eq!(end.reason, "time-insufficient-material");
    assert_eq!(end.winner, None);

    // Clocks run for dice chess and draughts too.
    let (mut w, _b, code) = open(&server.addr, GameKind::Draughts, clock, None);
    w.send(&mv(&code, 0, "c3-c4"));
    let end = ended(&mut w);
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("time", Some(Side::White))
    );
}

#[test]
fn draws_resignation_abort_claims_and_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("p.sqlite"), &["--claim-after-ms", "3000"]);
    // A draw offered and declined, then offered and accepted.
    let (mut w, mut b, code) = open(&server.addr, GameKind::Chess, None, None);
    w.send(&mv(&code, 0, "e2e4"));
    moved(&mut b, 0);
    b.send(&mv(&code, 1, "e7e5"));
    moved(&mut w, 1);
    w.send(&ClientMsg::OfferDraw { code: code.clone() });
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::DrawOffered { by: Side::White },
                ..
            }
        )
    });
    b.send(&ClientMsg::AnswerDraw {
        code: code.clone(),
        accept: false,
    });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::DrawDeclined { by: Side::Black },
                ..
            }
        )
    });
    b.send(&ClientMsg::OfferDraw { code: code.clone() });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::DrawOffered { by: Side::Black },
                ..
            }
        )
    });
    w.send(&ClientMsg::AnswerDraw {
        code: code.clone(),
        accept: true,
    });
    let end = ended(&mut b);
    assert_eq!((end.reason.as_str(), end.winner), ("agreement", None));

    // A rematch: both ask, a new game with the colours swapped.
    w.send(&ClientMsg::Rematch { code: code.clone() });
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::RematchOffered { by: Side::White },
                ..
            }
        )
    });
    b.send(&ClientMsg::Rematch { code: code.clone() });
    let new = match w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Rematch { .. },
                ..
            }
        )
    }) {
        ServerMsg::Event {
            event: GameEvent::Rematch { code },
            ..
        } => code,
        _ => unreachable!(),
    };
    w.send(&ClientMsg::Open {
        code: new.clone(),
        since: None,
    });
    let st = w.state();
    assert_eq!(st.you, Some(Side::Black), "the colours are swapped");
    assert_eq!(st.seats[0].name.as_deref(), Some("Black"));

    // Resignation.
    b.send(&ClientMsg::Open {
        code: new.clone(),
        since: None,
    });
    b.state();
    b.send(&mv(&new, 0, "d2d4"));
    w.send(&ClientMsg::Resign { code: new.clone() });
    let end = ended(&mut b);
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("resignation", Some(Side::White))
    );

    // Abort before each side has moved; not after.
    let (mut w, mut b, code) = open(&server.addr, GameKind::Draughts, None, None);
    w.send(&mv(&code, 0, "c3-c4"));
    b.send(&ClientMsg::Abort { code: code.clone() });
    let end = ended(&mut w);
    assert_eq!((end.reason.as_str(), end.winner), ("aborted", None));
    let (mut w, mut b, code) = open(&server.addr, GameKind::Draughts, None, None);
    w.send(&mv(&code, 0, "c3-c4"));
    // Black answers only once the server has White's move (else the answer may come first
    // and be refused for the wrong turn).
    moved(&mut b, 0);
    b.send(&mv(&code, 1, "c6-c5"));
    moved(&mut w, 1);
    w.send(&ClientMsg::Abort { code: code.clone() });
    assert_eq!(w.error().0, takhte_protocol::ErrorCode::CannotAbort);

    // The opponent leaves: presence goes out, and after the claim time the win can be taken.
    drop(b);
    match w.until(|m| matches!(m, ServerMsg::Presence { .. })) {
        ServerMsg::Presence { seat, online, .. } => {
            assert_eq!((seat, online), (Side::Black, false))
        }
        _ => unreachable!(),
    }
    w.send(&ClientMsg::ClaimWin { code: code.clone() });
    assert_eq!(w.error().0, takhte_protocol::ErrorCode::CannotClaim);
    std::thread::sleep(Duration::from_millis(3_100));
    w.send(&ClientMsg::ClaimWin { code: code.clone() });
    let end = ended(&mut w);
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("abandoned", Some(Side::White))
    );
}

#[test]
fn the_lobby_lists_open_public_games_and_my_games_lists_mine() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("l.sqlite"), &[]);
    let mut a = Raw::hello(&server.addr, "Ana");
    a.send(&ClientMsg::Create {
        settings: GameSettings {
            kind: GameKind::MineChess,
            clock: Some(ClockSpec {
                base_ms: 300_000,
                increment_ms: 0,
            }),
            colour: ColourChoice::Random,
            public: true,
            position: None,
            spectators: false,
            audience: false,
            rated: false,
        },
        request: None,
    });
    let public = a.state().code;
    a.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let private = a.state().code;
    let mut c = Raw::hello(&server.addr, "Cyrus");
    c.send(&ClientMsg::Lobby);
    let games = match c.until(|m| matches!(m, ServerMsg::Lobby { .. })) {
        ServerMsg::Lobby { games } => games,
        _ => unreachable!(),
    };
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].code, public);
    assert_eq!(games[0].creator, "Ana");
    assert_eq!(games[0].kind, GameKind::MineChess);
    assert!(games.iter().all(|g| g.code != private));
    a.send(&ClientMsg::MyGames);
    let mine = match a.until(|m| matches!(m, ServerMsg::MyGames { .. })) {
        ServerMsg::MyGames { games } => games,
        _ => unreachable!(),
    };
    let codes: BTreeSet<String> = mine.iter().map(|g| g.code.clone()).collect();
    assert_eq!(codes, BTreeSet::from([public.clone(), private]));
    // Once joined, the game leaves the lobby.
    c.send(&ClientMsg::Join { code: public });
    c.state();
    c.send(&ClientMsg::Lobby);
    match c.until(|m| matches!(m, ServerMsg::Lobby { .. })) {
        ServerMsg::Lobby { games } => assert!(games.is_empty()),
        _ => unreachable!(),
    }
}

/// Every message both players of a minesweeper chess game receive is read: no position in
/// them shows a mine that is not revealed, no number or counter differs from what the local
/// game would show, and the seed never appears.
#[test]
fn a_mine_chess_client_never_receives_a_hidden_mine() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.sqlite");
    let server = Server::start(&db, &["--msgs-per-sec", "200"]);
    let seen: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    let mut a = bot_config(
        &server.addr,
        "Ana",
        2,
        BotRole::Create(settings(GameKind::MineChess, None)),
    );
    let mut b = bot_config(&server.addr, "Bahram", 2, BotRole::Join(String::new()));
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    a.on_code = Some(Arc::new(move |c: &str| {
        let _ = tx.lock().unwrap().send(c.to_string());
    }));
    let ha = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            bot::play_tapped(
                a,
                Arc::new(move |t: &str| seen.lock().unwrap().push(t.to_string())),
            )
            .unwrap()
        })
    };
    b.role = BotRole::Join(rx.recv_timeout(Duration::from_secs(20)).unwrap());
    let hb = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            bot::play_tapped(
                b,
                Arc::new(move |t: &str| seen.lock().unwrap().push(t.to_string())),
            )
            .unwrap()
        })
    };
    let ra = ha.join().unwrap();
    hb.join().unwrap();
    assert!(ra.end.is_some());
    // The truth, from the server's file: the seed, and so every position with its mines.
    let rec = stored(&db, &ra.code);
    let mut real = AnyGame::start(GameKind::MineChess, rec.seed);
    let mut truth = vec![visible(&real)];
    for m in &rec.moves {
        real.play_text(m).unwrap();
        truth.push(visible(&real));
    }
    let texts: Vec<String> = truth.iter().map(Visible::to_text).collect();
    let messages = seen.lock().unwrap().clone();
    assert!(
        messages.len() > 2 * rec.moves.len(),
        "every message was read"
    );
    let mut positions = 0;
    for m in &messages {
        assert!(!m.contains("seed"), "{m}");
        assert!(!m.contains(&rec.seed.to_string()), "the seed leaked: {m}");
        let v: serde_json::Value = serde_json::from_str(m).unwrap();
        for p in position_texts(&v) {
            positions += 1;
            let vis = Visible::from_text(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
            // Known mines are all revealed, and the position is one the players should see.
            assert_eq!(vis.known_mines & !vis.revealed, 0);
            assert!(texts.contains(&p), "a position no player should see: {p}");
        }
    }
    assert!(positions > rec.moves.len(), "{positions} positions read");
}

fn visible(g: &AnyGame) -> Visible {
    match g {
        AnyGame::Mine(l) => l.position().visible(),
        _ => unreachable!(),
    }
}

/// Every `position` and `start` string in a message.
fn position_texts(v: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                if (k == "position" || k == "start") && x.is_string() {
                    out.push(x.as_str().unwrap().to_string());
                } else {
                    out.extend(position_texts(x));
                }
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                out.extend(position_texts(x));
            }
        }
        _ => {}
    }
    out
}

/// The player's games that have not ended, by code.
fn my_games(r: &mut Raw) -> BTreeSet<String> {
    r.send(&ClientMsg::MyGames);
    match r.until(|m| matches!(m, ServerMsg::MyGames { .. })) {
        ServerMsg::MyGames { games } => games.into_iter().map(|g| g.code).collect(),
        _ => unreachable!(),
    }
}

fn create(request: &str) -> ClientMsg {
    ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: Some(request.into()),
    }
}

/// A create is made once per request id, however often it comes and on whichever
/// connection of the player; a cancelled one makes nothing, or aborts what it made.
#[test]
fn a_create_is_made_once_and_can_be_called_off() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("c.sqlite"), &[]);
    let token = takhte_protocol::token::generate();
    let mut a = Raw::hello_as(&server.addr, "Ana", &token);
    let first = a.state_of(&create("r1"));
    assert_eq!(first.request.as_deref(), Some("r1"));
    // The same request again, on this connection and on another (the answer was lost with
    // the first connection): the same game.
    assert_eq!(a.state_of(&create("r1")).code, first.code);
    let mut again = Raw::hello_as(&server.addr, "Ana", &token);
    let second = again.state_of(&create("r1"));
    assert_eq!(second.code, first.code);
    assert_eq!(second.request.as_deref(), Some("r1"));
    assert_eq!(my_games(&mut a), BTreeSet::from([first.code.clone()]));
    // Another player's request of the same id is theirs.
    let mut b = Raw::hello(&server.addr, "Bahram");
    let other = b.state_of(&create("r1"));
    assert_ne!(other.code, first.code);

    // Called off before it came: nothing is made when it comes.
    let r = a.reply(&ClientMsg::CancelCreate {
        request: "r2".into(),
    });
    assert!(
        r.iter()
            .any(|m| matches!(m, ServerMsg::Cancelled { request } if request == "r2")),
        "{r:?}"
    );
    let r = a.reply(&create("r2"));
    assert!(
        r.iter()
            .any(|m| matches!(m, ServerMsg::Cancelled { request } if request == "r2")),
        "{r:?}"
    );
    assert!(!r.iter().any(|m| matches!(m, ServerMsg::State { .. })));
    assert_eq!(my_games(&mut a), BTreeSet::from([first.code.clone()]));

    // Called off after it was made, nobody joined: the game is aborted.
    let r = a.reply(&ClientMsg::CancelCreate {
        request: "r1".into(),
    });
    assert!(r
        .iter()
        .any(|m| matches!(m, ServerMsg::Cancelled { request } if request == "r1")));
    assert!(my_games(&mut a).is_empty());
    let end = a.look(&first.code).end.expect("ended");
    assert_eq!(end.reason, "aborted");

    // Malformed ids are refused, and make nothing.
    for bad in ["", "a b", "é", &"x".repeat(65)] {
        assert_eq!(
            a.error_of(&create(bad)),
            takhte_protocol::ErrorCode::BadMessage,
            "{bad:?}"
        );
    }
    assert!(my_games(&mut a).is_empty());
}

/// A move the store is slow to write (`stall:700`: every move waits 0.7 s, its game locked)
/// does not get its player closed as silent (silence allowed: 0.5 s), though the player pinged
/// all along: the pings that came in meanwhile are read before the silence is judged.
#[test]
fn a_slow_write_does_not_close_a_player_that_kept_pinging() {
    let server = Server::scratch_env(
        &["--silence-ms", "500", "--msgs-per-sec", "200"],
        &[("TAKHTE_FAULT", "stall:700")],
    );
    let (mut w, mut b, code) = open(&server.addr, GameKind::Chess, None, None);
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5",
    ];
    for (ply, m) in moves.iter().enumerate() {
        let ply = ply as u32;
        let (mover, other) = if ply.is_multiple_of(2) {
            (&mut w, &mut b)
        } else {
            (&mut b, &mut w)
        };
        mover.send(&mv(&code, ply, m));
        // Both keep talking every 100 ms until each has the move.
        let mut told = [false, false];
        let t = Instant::now();
        while told != [true, true] {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "move {ply} never came"
            );
            for (i, c) in [&mut *mover, &mut *other].into_iter().enumerate() {
                c.send(&ClientMsg::Ping {
                    nonce: u64::from(ply),
                });
                match c.next(Duration::from_millis(50)) {
                    Next::Msg(ServerMsg::Event {
                        event: GameEvent::Moved { ply: p, .. },
                        ..
                    }) if p == ply => told[i] = true,
                    Next::Msg(ServerMsg::Bye { reason, message }) => {
                        panic!("move {ply}: closed: {reason:?} {message}")
                    }
                    Next::Closed => panic!("move {ply}: closed"),
                    _ => {}
                }
            }
        }
    }
}
