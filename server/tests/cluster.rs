//! Several instances on one PostgreSQL and one Redis (real servers on loopback, started by
//! `.ci/run` or by the test): players and spectators on different instances, two moves at once
//! on two instances, an instance killed at several moments, Redis restarted, PostgreSQL down.

mod common;

use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::services::Services;
use common::*;
use takhte_online::bot::BotRole;
use takhte_online::mirror::Mirror;
use takhte_protocol::{ClientMsg, ClockSpec, ErrorCode, GameEvent, ServerMsg};
use takhte_rules::{dice, AnyGame, AnyMove, GameKind, Side};

/// An instance with more options.
fn instance_with(db: &str, redis: &str, name: &str, more: &[&str]) -> Server {
    let mut options = vec!["--redis", redis, "--cluster", name, "--msgs-per-sec", "200"];
    options.extend_from_slice(more);
    Server::start_env("127.0.0.1:0", Path::new(db), &options, &[])
}

/// A legal move for a spectator to suggest in the mirror's game, in machine text.
fn suggestion(m: &Mirror) -> Option<String> {
    let g = m.game();
    let mv = g.legal_moves().into_iter().find(|mv| match mv {
        AnyMove::Dice(dice::Move::Pawn { face, .. }) => Some(*face) == m.rolled,
        AnyMove::Dice(dice::Move::King { .. }) => m.rolled.is_none(),
        AnyMove::Dice(dice::Move::Pass { .. }) => false,
        _ => true,
    })?;
    Some(g.move_to_text(&mv))
}

#[test]
fn players_and_a_spectator_on_three_instances_play_every_kind() {
    let services = Services::shared();
    let db = services.database();
    let name = cluster_name();
    let s1 = instance(&db, &services.redis, &name, &[]);
    let s2 = instance(&db, &services.redis, &name, &[]);
    let s3 = instance(&db, &services.redis, &name, &[]);
    for kind in GameKind::ALL {
        let mut a = bot_config(&s1.addr, "Ana", 2, BotRole::Join(String::new()));
        let mut b = bot_config(&s2.addr, "Bahram", 1, BotRole::Join(String::new()));
        a.delay_ms = 40;
        b.delay_ms = 40;
        let (code, ha, hb) = start_bot_game(a, b, watched(kind, None, false));
        std::thread::sleep(Duration::from_millis(700));

        // The spectator, on the third instance, arrives mid-game and suggests every turn.
        let mut s = Raw::hello(&s3.addr, "Spectator");
        s.send(&ClientMsg::Watch {
            code: code.clone(),
            since: None,
        });
        let st = s.state();
        let mut m = Mirror::from_state(&st, Instant::now()).unwrap();
        let mut seq = st.seq;
        let mut tallies = 0;
        let end = loop {
            if let Some(mv) = suggestion(&m) {
                s.send(&ClientMsg::Suggest {
                    code: code.clone(),
                    ply: m.ply(),
                    mv,
                });
            }
            let msg = loop {
                match s.recv().expect("messages until the end") {
                    ServerMsg::Event { seq: n, event, .. } => break (n, event),
                    ServerMsg::Suggestions { crowd, .. } if crowd.voters > 0 => tallies += 1,
                    _ => {}
                }
            };
            let (n, event) = msg;
            assert_eq!(
                n,
                seq + 1,
                "{kind}: every event once, in order, across instances"
            );
            seq = n;
            m.apply(n, &event, Instant::now()).unwrap();
            if let GameEvent::Ended { end, .. } = event {
                break end;
            }
        };
        let ra = ha.join().unwrap();
        let rb = hb.join().unwrap();
        assert_eq!(ra.moves, rb.moves, "{kind}");
        assert_eq!(ra.moves, m.moves, "{kind}: the spectator saw the same game");
        assert_eq!(Some(end.clone()), ra.end, "{kind}");
        let refused = refusals(&[&ra, &rb]);
        assert!(refused.is_empty(), "{kind}: {refused:?}");
        let rec = record_pg(&db, &code);
        assert_eq!(rec.moves, ra.moves, "{kind}: stored once each");
        assert!(
            tallies > 0,
            "{kind}: the spectator's suggestions were counted"
        );
        // The suggestions made on the third instance are in the record of the moves.
        assert!(
            rec.crowd.iter().flatten().any(|c| c.voters > 0),
            "{kind}: suggestions kept with the moves"
        );
        eprintln!("{kind}: {} moves, {}", ra.moves.len(), end.reason);
    }
}

#[test]
fn two_moves_at_once_on_two_instances_exactly_one_lands() {
    let services = Services::shared();
    let db = services.database();
    let name = cluster_name();
    let s1 = instance(&db, &services.redis, &name, &[]);
    let s2 = instance(&db, &services.redis, &name, &[]);
    let s3 = instance(&db, &services.redis, &name, &[]);
    let token = takhte_protocol::token::generate();
    let mut w1 = Raw::hello_as(&s1.addr, "White", &token);
    w1.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let code = w1.state().code;
    let mut w2 = Raw::hello_as(&s2.addr, "White", &token);
    w2.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    w2.state();
    let mut b = Raw::hello(&s3.addr, "Black");
    b.send(&ClientMsg::Join { code: code.clone() });
    b.state();
    let mut game = AnyGame::start(GameKind::Chess, 0);
    for round in 0..8u32 {
        let ply = 2 * round;
        // Two different legal moves for White, sent at the same moment on two instances.
        let moves = game.moves_text(None);
        let (m1, m2) = (
            moves[round as usize % moves.len()].clone(),
            moves[(round as usize + 7) % moves.len()].clone(),
        );
        assert_ne!(m1, m2);
        let barrier = Arc::new(Barrier::new(2));
        let (bar1, bar2) = (Arc::clone(&barrier), Arc::clone(&barrier));
        let (c1, c2) = (code.clone(), code.clone());
        let (mm1, mm2) = (m1.clone(), m2.clone());
        let t1 = std::thread::spawn(move || {
            bar1.wait();
            w1.send(&ClientMsg::Move {
                code: c1,
                ply,
                mv: mm1,
            });
            w1
        });
        let t2 = std::thread::spawn(move || {
            bar2.wait();
            w2.send(&ClientMsg::Move {
                code: c2,
                ply,
                mv: mm2,
            });
            w2
        });
        w1 = t1.join().unwrap();
        w2 = t2.join().unwrap();
        // Black (third instance) sees exactly one of them.
        let landed = match b.until(|m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if *p == ply)) {
            ServerMsg::Event { event: GameEvent::Moved { ply: p, mv, .. }, .. } => {
                assert_eq!(p, ply);
                mv
            }
            _ => unreachable!(),
        };
        assert!(landed == m1 || landed == m2);
        game.play_text(&landed).unwrap();
        // The other was refused on its instance.
        let loser = if landed == m1 { &mut w2 } else { &mut w1 };
        let (e, _) = loser.error();
        assert!(
            matches!(e, ErrorCode::WrongPly | ErrorCode::NotYourTurn),
            "round {round}: {e:?}"
        );
        let bm = game.moves_text(None)[0].clone();
        b.send(&ClientMsg::Move {
            code: code.clone(),
            ply: ply + 1,
            mv: bm.clone(),
        });
        game.play_text(&bm).unwrap();
        for w in [&mut w1, &mut w2] {
            w.until(|m| matches!(m, ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if *p == ply + 1));
        }
        let rec = record_pg(&db, &code);
        assert_eq!(
            rec.moves.len() as u32,
            ply + 2,
            "round {round}: one move landed"
        );
    }
}

/// The instance the players are on aborts at a fault point during a move: before storing it,
/// after storing it, after telling its own connections but before publishing. The clients
/// reconnect through the balancer to the other instance, which carries the game on. Every
/// move a client was told of is stored once at its ply, and the clocks ran as they should:
/// White thinks 400 ms a move (100 ms over the lag allowance), so White's clock went down by at
/// least that for each of its moves — a clock that never ran, or was reset, fails — and no
/// side used more than the game lasted.
#[test]
fn an_instance_killed_mid_game_loses_nothing() {
    let services = Services::shared();
    for fault in ["before-store:5", "after-store:5", "before-publish:5"] {
        let db = services.database();
        let name = cluster_name();
        let mut doomed = instance(&db, &services.redis, &name, &[("TAKHTE_FAULT", fault)]);
        let other = instance(&db, &services.redis, &name, &[]);
        let lb = Balancer::start(vec![doomed.addr.clone(), other.addr.clone()]);
        let clock = Some(ClockSpec {
            base_ms: 300_000,
            increment_ms: 0,
        });
        let mut a = bot_config(&lb.addr, "Ana", 2, BotRole::Join(String::new()));
        let mut b = bot_config(&lb.addr, "Bahram", 1, BotRole::Join(String::new()));
        a.delay_ms = 400;
        b.delay_ms = 20;
        // Rook and king against king, 80 plies since the last capture: the game ends within
        // twenty plies (mate, the fifty-move rule, or the rook taken).
        let mut settings = watched(GameKind::Chess, clock, false);
        settings.position = Some("4k3/8/8/8/8/8/8/R3K3 w - - 80 1".into());
        let started = Instant::now();
        let (ra, rb) = bot_game(a, b, settings);
        let elapsed = started.elapsed().as_millis() as u64;
        assert!(doomed.has_exited(), "{fault}: the fault struck");
        assert!(ra.end.is_some(), "{fault}: the game went on to its end");
        let rec = record_pg(&db, &ra.code);
        check_told(fault, &rec.moves, &[&ra, &rb]);
        assert!(
            ra.reconnects >= 1 && rb.reconnects >= 1,
            "{fault}: both came back ({} {})",
            ra.reconnects,
            rb.reconnects
        );
        let c = rec.clock.unwrap();
        let used = [300_000 - c.remaining[0], 300_000 - c.remaining[1]];
        // White's first move is made before the clocks run.
        let white_charged = (rec.moves.len() as u64).div_ceil(2) - 1;
        assert!(
            used[0] >= 100 * white_charged - 20 * white_charged,
            "{fault}: White used {} ms for {white_charged} moves of 400 ms",
            used[0]
        );
        // Against every clock told before (the last ones before the fault among them): the
        // clocks never go back up (no increment here: a clock reset at the failover would),
        // and White's clock went down by at least 80 ms for each of its moves since.
        let told = &ra.clocks;
        assert!(
            told.len() >= 8,
            "{fault}: clocks told with {} moves",
            told.len()
        );
        for w in told.windows(2) {
            let ((p, a), (q, b)) = (&w[0], &w[1]);
            assert!(
                q <= p || (b.white_ms <= a.white_ms && b.black_ms <= a.black_ms),
                "{fault}: the clocks went up from ply {p} {a:?} to ply {q} {b:?}"
            );
        }
        let n = rec.moves.len() as u32;
        for (ply, clocks) in told {
            // White's moves after the one at `ply` (White plays the even plies).
            let white_after = (ply + 1..n).filter(|p| p % 2 == 0).count() as u64;
            assert!(
                c.remaining[0] + 80 * white_after <= clocks.white_ms,
                "{fault}: White has {} ms at the end, {} ms at ply {ply}, with {white_after} moves since",
                c.remaining[0],
                clocks.white_ms
            );
            assert!(
                c.remaining[1] <= clocks.black_ms,
                "{fault}: Black has {} ms at the end, {} ms at ply {ply}",
                c.remaining[1],
                clocks.black_ms
            );
        }
        assert!(
            used[0] + used[1] <= elapsed,
            "{fault}: {used:?} ms used in {elapsed} ms"
        );
        eprintln!(
            "{fault}: {} moves, used {:?} ms in {elapsed} ms",
            rec.moves.len(),
            used
        );
        let _ = doomed.has_exited();
    }
}

/// Nobody moves and the instance that served the game is killed: another instance ends the
/// game on time.
#[test]
fn a_flag_falls_after_the_instance_serving_the_game_died() {
    let services = Services::shared();
    let db = services.database();
    let name = cluster_name();
    let mut first = instance(&db, &services.redis, &name, &[]);
    let second = instance(&db, &services.redis, &name, &[]);
    let clock = Some(ClockSpec {
        base_ms: 3_000,
        increment_ms: 0,
    });
    let mut w = Raw::hello(&first.addr, "White");
    w.send(&ClientMsg::Create {
        settings: watched(GameKind::Chess, clock, false),
        request: None,
    });
    let code = w.state().code;
    let mut b = Raw::hello(&first.addr, "Black");
    b.send(&ClientMsg::Join { code: code.clone() });
    b.state();
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { .. },
                ..
            }
        )
    });
    first.kill9();
    // Black comes back on the other instance and waits: the flag falls there.
    let mut b2 = Raw::hello_as(&second.addr, "Black", &b.token.clone());
    b2.send(&ClientMsg::Open {
        code: code.clone(),
        since: None,
    });
    let st = b2.state();
    assert!(st.end.is_none() || st.end.as_ref().unwrap().reason == "time");
    let end = match st.end {
        Some(e) => e,
        None => ended(&mut b2),
    };
    assert_eq!(
        (end.reason.as_str(), end.winner),
        ("time", Some(Side::White))
    );
    assert_eq!(record_pg(&db, &code).end, Some(end));
}

/// Redis is stopped in the middle of a game: the instances say so, the clients see
/// "reconnecting" (their connections are closed with a reason), and once Redis is back the game
/// goes on to its end with nothing lost. Then PostgreSQL goes away: a move is refused with a
/// storage error and lands nowhere; once it is back the move is played.
#[test]
fn redis_restarted_and_postgres_down() {
    let services = Services::own();
    let db = services.database();
    let name = cluster_name();
    let s1 = instance(&db, &services.redis, &name, &[]);
    let s2 = instance(&db, &services.redis, &name, &[]);
    let mut a = bot_config(&s1.addr, "Ana", 2, BotRole::Join(String::new()));
    let mut b = bot_config(&s2.addr, "Bahram", 1, BotRole::Join(String::new()));
    a.delay_ms = 60;
    b.delay_ms = 60;
    let (code, ha, hb) = start_bot_game(a, b, watched(GameKind::Draughts, None, false));
    std::thread::sleep(Duration::from_millis(1_200));
    let mut watcher = Raw::hello(&s1.addr, "Watcher");
    watcher.send(&ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    watcher.state();
    services.stop_redis();
    // The watcher's connection is closed with a reason; new ones are refused meanwhile.
    let bye = watcher.until(|m| matches!(m, ServerMsg::Bye { .. }));
    assert!(
        matches!(
            bye,
            ServerMsg::Bye {
                reason: takhte_protocol::CloseReason::Shutdown,
                ..
            }
        ),
        "{bye:?}"
    );
    // A new connection that says hello is refused with the documented reason (not left to
    // idle: a healthy server would say hello back).
    let mut refused = Raw::connect(&s2.addr);
    refused.send(&ClientMsg::Hello {
        protocol: takhte_protocol::PROTOCOL_VERSION,
        token: takhte_protocol::token::generate(),
        name: "Late".into(),
    });
    match refused.recv() {
        Some(ServerMsg::Bye {
            reason: takhte_protocol::CloseReason::Shutdown,
            message,
        }) => assert!(message.contains("message bus"), "{message}"),
        other => panic!("served while Redis is down: {other:?}"),
    }
    let moves_while_down = record_pg(&db, &code).moves.len();
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(
        record_pg(&db, &code).moves.len(),
        moves_while_down,
        "no move while the bus is down"
    );
    services.start_redis();
    let ra = ha.join().unwrap();
    let rb = hb.join().unwrap();
    assert!(ra.end.is_some());
    assert_eq!(ra.moves, rb.moves);
    assert_eq!(record_pg(&db, &code).moves, ra.moves);
    assert!(ra.reconnects >= 1 && rb.reconnects >= 1);

    // PostgreSQL down: a move is refused and not lost... nor played.
    let mut w = Raw::hello(&s1.addr, "White");
    w.send(&ClientMsg::Create {
        settings: settings(GameKind::Chess, None),
        request: None,
    });
    let code = w.state().code;
    let mut bl = Raw::hello(&s1.addr, "Black");
    bl.send(&ClientMsg::Join { code: code.clone() });
    bl.state();
    services.stop_pg();
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    let (e, message) = w.error();
    assert_eq!(e, ErrorCode::Storage, "{message}");
    services.start_pg();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        record_pg(&db, &code).moves.is_empty(),
        "the refused move was not stored"
    );
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    bl.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Moved { .. },
                ..
            }
        )
    });
    assert_eq!(record_pg(&db, &code).moves, ["e2e4"]);
}

/// Creates with one token sent at the same moment on two instances: the open-games limit holds
/// across the cluster (the database counts, not each instance).
#[test]
fn the_open_games_limit_holds_across_instances() {
    let services = Services::shared();
    let db = services.database();
    let name = cluster_name();
    let limit = ["--max-open-games", "3"];
    let s1 = instance_with(&db, &services.redis, &name, &limit);
    let s2 = instance_with(&db, &services.redis, &name, &limit);
    let token = takhte_protocol::token::generate();
    let conns: Vec<Raw> = (0..8)
        .map(|i| {
            Raw::hello_as(
                if i % 2 == 0 { &s1.addr } else { &s2.addr },
                "Greedy",
                &token,
            )
        })
        .collect();
    let barrier = Arc::new(Barrier::new(conns.len()));
    let threads: Vec<_> = conns
        .into_iter()
        .map(|mut c| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                c.send(&ClientMsg::Create {
                    settings: settings(GameKind::Chess, None),
                    request: None,
                });
                match c.until(|m| matches!(m, ServerMsg::State { .. } | ServerMsg::Error { .. })) {
                    ServerMsg::State { .. } => Ok(()),
                    ServerMsg::Error { error, .. } => Err(error),
                    _ => unreachable!(),
                }
            })
        })
        .collect();
    let results: Vec<Result<(), ErrorCode>> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let made = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(made, 3, "{results:?}");
    assert!(results
        .iter()
        .all(|r| matches!(r, Ok(()) | Err(ErrorCode::TooManyGames))));
}

/// Twenty games of dice chess between two fast bots on two instances (the roll and the move
/// after it a few milliseconds apart on one instance, sent on by the other): all finish, and
/// nothing is lost or told twice.
#[test]
fn twenty_fast_dice_chess_games_across_two_instances_all_finish() {
    let services = Services::shared();
    let db = services.database();
    let name = cluster_name();
    let s1 = instance(&db, &services.redis, &name, &[]);
    let s2 = instance(&db, &services.redis, &name, &[]);
    let started = Instant::now();
    let mut plies = 0;
    for round in 0..5 {
        let games: Vec<_> = (0..4)
            .map(|i| {
                let (x, y) = if (round + i) % 2 == 0 {
                    (&s1, &s2)
                } else {
                    (&s2, &s1)
                };
                let mut a = bot_config(&x.addr, "Ana", 1, BotRole::Join(String::new()));
                let mut b = bot_config(&y.addr, "Bahram", 1, BotRole::Join(String::new()));
                a.movetime_ms = 5;
                b.movetime_ms = 5;
                a.timeout = Duration::from_secs(60);
                b.timeout = Duration::from_secs(60);
                start_bot_game(a, b, settings(GameKind::DiceChess, None))
            })
            .collect();
        for (code, ha, hb) in games {
            let (ra, rb) = (ha.join().unwrap(), hb.join().unwrap());
            assert!(ra.end.is_some() && rb.end.is_some(), "{code}: finished");
            let rec = record_pg(&db, &code);
            check_told(&code, &rec.moves, &[&ra, &rb]);
            plies += rec.moves.len();
        }
    }
    eprintln!(
        "20 dice chess games across two instances: {plies} plies in {} s",
        started.elapsed().as_secs()
    );
}
