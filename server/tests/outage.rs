//! Time the server was not running is nobody's thinking time, and a server that stops
//! answering costs a player at most about three seconds: a single server killed and started
//! again, a single server paused (SIGSTOP), and in a cluster a paused instance whose player
//! moves while it is paused.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::services::Services;
use common::*;
use takhte_online::client::{Client, ClientConfig, ClientEvent, ConnState};
use takhte_protocol::{ClientMsg, ClockSpec, GameEvent, GameSettings, ServerMsg};
use takhte_rules::GameKind;

const BASE_MS: u64 = 60_000;

fn clocked() -> GameSettings {
    settings(
        GameKind::Chess,
        Some(ClockSpec {
            base_ms: BASE_MS,
            increment_ms: 0,
        }),
    )
}

/// A started game between two raw clients on `addr`, White having played e2e4: Black's clock
/// runs. Returns White, Black, the code and when White's move was confirmed.
fn black_to_move(addr: &str) -> (Raw, Raw, String, Instant) {
    let (mut w, mut b, code) = table(addr, clocked());
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
    (w, b, code, Instant::now())
}

/// The `Resumed` event a client gets: how long the server was away.
fn resumed(r: &mut Raw) -> u64 {
    match r.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Resumed { .. },
                ..
            }
        )
    }) {
        ServerMsg::Event {
            event: GameEvent::Resumed { paused_ms, .. },
            ..
        } => paused_ms,
        _ => unreachable!(),
    }
}

/// Black's thinking time as the stored clock says, after Black's move.
fn black_used(db: &Path, code: &str) -> u64 {
    let rec = stored(db, code);
    assert_eq!(rec.moves.len(), 2, "{:?}", rec.moves);
    BASE_MS - rec.clock.unwrap().remaining[1]
}

/// Black moves; the stored clock charges Black the time since White's move (at `t0`) that
/// the server ran, less the lag allowance: both bounds, so that a clock that never ran fails
/// too.
fn black_moves_and_is_charged_what_the_server_ran(
    b: &mut Raw,
    db: &Path,
    code: &str,
    t0: Instant,
    given_back: u64,
) {
    b.send(&mv(code, 1, "e7e5"));
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { ply: 1, .. },
                ..
            }
        )
    });
    let wall = t0.elapsed().as_millis() as u64;
    let used = black_used(db, code);
    let ran = wall - given_back;
    assert!(
        used + 300 + 400 >= ran && used <= ran,
        "Black used {used} ms; the server ran {ran} ms of {wall} (away {given_back})"
    );
}

#[test]
fn a_restarted_server_does_not_charge_the_time_it_was_down() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("restart.sqlite");
    let mut server = Server::start(&db, &[]);
    let (_w, b, code, t0) = black_to_move(&server.addr);
    std::thread::sleep(Duration::from_millis(1_000));
    server.kill9();
    let down = Instant::now();
    let token = b.token.clone();
    drop(b);
    std::thread::sleep(Duration::from_millis(5_000));
    server.restart();
    let outage = down.elapsed().as_millis() as u64;
    // Black comes back where it was and is told that the server was away.
    let mut b = Raw::hello_as(&server.addr, "Black", &token);
    b.send(&ClientMsg::Open {
        code: code.clone(),
        since: Some(2),
    });
    let paused = resumed(&mut b);
    // From the last beat (at most a second before the kill) to the start.
    assert!(
        paused >= outage && paused <= outage + 1_500,
        "given back {paused} ms for an outage of {outage} ms"
    );
    std::thread::sleep(Duration::from_millis(500));
    black_moves_and_is_charged_what_the_server_ran(&mut b, &db, &code, t0, paused);
}

#[test]
fn a_paused_server_does_not_charge_the_pause() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pause.sqlite");
    let server = Server::start(&db, &[]);
    let (_w, mut b, code, t0) = black_to_move(&server.addr);
    std::thread::sleep(Duration::from_millis(800));
    server.pause();
    let paused_at = Instant::now();
    std::thread::sleep(Duration::from_millis(5_000));
    server.resume();
    let pause = paused_at.elapsed().as_millis() as u64;
    let given = resumed(&mut b);
    assert!(
        given + 200 >= pause && given <= pause + 1_200,
        "given back {given} ms for a pause of {pause} ms"
    );
    black_moves_and_is_charged_what_the_server_ran(&mut b, &db, &code, t0, given);
}

/// Two instances behind a balancer with health checks. Black's instance is paused just as
/// Black moves: Black's app notices the silence, comes back through the balancer to the other
/// instance and sends the move again. It costs Black at most about three seconds; and since
/// the other instance ran all along, nothing is given back (the opponent's instance served).
#[test]
fn a_paused_instance_costs_its_player_at_most_three_seconds() {
    let services = Services::shared();
    let db = services.database();
    let name = format!("o{:08x}", rand::random::<u32>());
    let opts = [
        "--redis",
        services.redis.as_str(),
        "--cluster",
        name.as_str(),
    ];
    let first = Server::start(Path::new(&db), &opts);
    let second = Server::start(Path::new(&db), &opts);
    let door = Balancer::start(vec![first.addr.clone(), second.addr.clone()]);
    let mut w = Raw::hello(&second.addr, "White");
    w.send(&ClientMsg::Create {
        settings: clocked(),
        request: None,
    });
    let code = w.state().code;
    // Black plays through the app's own client, on the first instance.
    let black = Client::start(ClientConfig {
        address: door.addr.clone(),
        token: takhte_protocol::token::generate(),
        name: "Black".into(),
        wake: None,
        tap: None,
        extra_roots: Vec::new(),
    });
    black.send(ClientMsg::Join { code: code.clone() });
    let until = |f: &dyn Fn(&ClientEvent) -> bool| loop {
        let e = black
            .recv_timeout(Duration::from_secs(30))
            .expect("the client hears something");
        if f(&e) {
            return e;
        }
    };
    until(&|e| matches!(e, ClientEvent::Msg(ServerMsg::State { .. })));
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    until(&|e| {
        matches!(
            e,
            ClientEvent::Msg(ServerMsg::Event {
                event: GameEvent::Moved { ply: 0, .. },
                ..
            })
        )
    });
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_millis(500));
    first.pause();
    black.send(ClientMsg::Move {
        code: code.clone(),
        ply: 1,
        mv: "e7e5".into(),
    });
    let sent = t0.elapsed().as_millis() as u64;
    until(&|e| matches!(e, ClientEvent::Conn(ConnState::Reconnecting { .. })));
    let moved = until(&|e| {
        matches!(
            e,
            ClientEvent::Msg(ServerMsg::Event {
                event: GameEvent::Moved { ply: 1, .. },
                ..
            })
        )
    });
    let ClientEvent::Msg(ServerMsg::Event {
        event: GameEvent::Moved { clocks, .. },
        ..
    }) = moved
    else {
        unreachable!()
    };
    first.resume();
    let used = BASE_MS - clocks.expect("clocks").black_ms;
    // Black thought for `sent` ms; the pause may cost about three seconds more.
    let cost = used.saturating_sub(sent.saturating_sub(300));
    assert!(
        used + 300 >= sent && cost <= 3_500,
        "Black moved after {sent} ms and was charged {used} ms (the pause cost {cost} ms)"
    );
    eprintln!("the paused instance cost Black {cost} ms");
    // The move is stored once; the paused instance, once it goes on, changes nothing.
    std::thread::sleep(Duration::from_millis(1_500));
    let rec = record_pg(&db, &code);
    assert_eq!(rec.moves, ["e2e4", "e7e5"]);
    assert_eq!(BASE_MS - rec.clock.unwrap().remaining[1], used);
}
