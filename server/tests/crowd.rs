//! The crowd never slows the players (a real server on loopback, many real WebSocket clients):
//! the opponent's receipt of each move with 2,000 spectators against the same game with none,
//! measured in the same run; every spectator ends with the stored game; a spectator that
//! stops reading holds nobody back, grows no memory, and is sent the game as it stands when it
//! reads again; the suggestions' tally comes a few times a second, with exact counts.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use takhte_protocol::token;
use takhte_protocol::{
    ClientMsg, ColourChoice, GameEvent, GameSettings, ServerMsg, PROTOCOL_VERSION,
};
use takhte_rules::{AnyGame, GameKind};
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// One test at a time: each loads the machine, and measures.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A server that lets one address bring a crowd, and lets it talk.
fn crowd_server() -> Server {
    Server::scratch(&[
        "--max-conns-per-ip",
        "100000",
        "--max-spectators",
        "100000",
        "--msgs-per-sec",
        "1000",
    ])
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A connection greeted by the server, on `stream` (a socket made by the caller).
async fn greet(stream: tokio::net::TcpStream, addr: &str, name: &str) -> Ws {
    let _ = stream.set_nodelay(true);
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/ws"), stream)
        .await
        .unwrap();
    send(
        &mut ws,
        &ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            token: token::generate(),
            name: name.into(),
        },
    )
    .await;
    ws
}

async fn connect(addr: &str, name: &str) -> Ws {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    greet(stream, addr, name).await
}

async fn send(ws: &mut Ws, m: &ClientMsg) {
    ws.send(Message::text(serde_json::to_string(m).unwrap()))
        .await
        .unwrap();
}

/// The next server message that satisfies `f` (within 30 s).
async fn until(ws: &mut Ws, f: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next())
            .await
            .expect("a message within 30 s")
            .expect("the connection is open")
            .unwrap();
        if let Message::Text(t) = m {
            let msg: ServerMsg = serde_json::from_str(t.as_str()).unwrap();
            if f(&msg) {
                return msg;
            }
        }
    }
}

fn chess(spectators: bool) -> GameSettings {
    GameSettings {
        kind: GameKind::Chess,
        clock: None,
        colour: ColourChoice::White,
        public: false,
        position: None,
        spectators,
        audience: false,
        rated: false,
    }
}

/// Two players at a new game: (White, Black, code).
async fn table(addr: &str) -> (Ws, Ws, String) {
    let mut w = connect(addr, "White").await;
    send(
        &mut w,
        &ClientMsg::Create {
            settings: chess(true),
            request: None,
        },
    )
    .await;
    let ServerMsg::State { state } = until(&mut w, |m| matches!(m, ServerMsg::State { .. })).await
    else {
        unreachable!()
    };
    let mut b = connect(addr, "Black").await;
    send(
        &mut b,
        &ClientMsg::Join {
            code: state.code.clone(),
        },
    )
    .await;
    until(&mut b, |m| matches!(m, ServerMsg::State { .. })).await;
    until(&mut w, |m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Seated { .. },
                ..
            }
        )
    })
    .await;
    (w, b, state.code)
}

/// Plays `n` random legal moves that do not end the game (seeded), one side after the other,
/// each sent by its player and timed until the opponent's socket has it: the times in µs.
async fn play(
    code: &str,
    game: &mut AnyGame,
    players: &mut [Ws; 2],
    n: usize,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Vec<u64> {
    play_paced(code, game, players, n, rng, Duration::ZERO).await
}

/// [`play`], each player thinking `think` before its move (as a person would).
async fn play_paced(
    code: &str,
    game: &mut AnyGame,
    players: &mut [Ws; 2],
    n: usize,
    rng: &mut rand_chacha::ChaCha8Rng,
    think: Duration,
) -> Vec<u64> {
    let mut times = Vec::new();
    for _ in 0..n {
        tokio::time::sleep(think).await;
        let moves = game.legal_moves();
        let mut choices: Vec<_> = moves.iter().collect();
        choices.shuffle(rng);
        let Some(mv) = choices.into_iter().find(|m| {
            let mut g = game.clone();
            g.play(m).is_ok() && g.outcome().is_none()
        }) else {
            break;
        };
        let text = game.move_to_text(mv);
        let ply = game_ply(game);
        let me = ply as usize % 2;
        let started = Instant::now();
        send(
            &mut players[me],
            &ClientMsg::Move {
                code: code.to_string(),
                ply,
                mv: text.clone(),
            },
        )
        .await;
        until(&mut players[1 - me], |m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if *p == ply)
        })
        .await;
        times.push(started.elapsed().as_micros() as u64);
        // The mover's own copy comes back too: read it, so its queue stays empty.
        until(&mut players[me], |m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Moved { ply: p, .. }, .. } if *p == ply)
        })
        .await;
        game.play_text(&text).unwrap();
    }
    times
}

fn game_ply(g: &AnyGame) -> u32 {
    let t = g.to_text();
    let f: Vec<&str> = t.split_whitespace().collect();
    let full: u32 = f.get(5).and_then(|x| x.parse().ok()).unwrap_or(1);
    (full - 1) * 2 + u32::from(f.get(1) == Some(&"b"))
}

fn median(v: &[u64]) -> u64 {
    let mut v = v.to_vec();
    v.sort_unstable();
    v[v.len() / 2]
}

/// A spectator: watches `code`, keeps the moves it is told (from the state, then each event,
/// in order), suggests a random legal move a moment after each move, until `stop`.
async fn spectator(
    addr: String,
    code: String,
    stop: Arc<AtomicBool>,
    watching: Arc<AtomicU64>,
    ended: Arc<AtomicU64>,
) -> Vec<String> {
    let mut ws = connect(&addr, "S").await;
    send(
        &mut ws,
        &ClientMsg::Watch {
            code: code.clone(),
            since: None,
        },
    )
    .await;
    let mut moves: Vec<String> = Vec::new();
    let mut game: Option<AnyGame> = None;
    let mut counted = false;
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    // A suggestion waits a moment after the move, as a person's would (50–350 ms).
    let mut suggest: Option<(tokio::time::Instant, ClientMsg)> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return moves;
        }
        let at = suggest.as_ref().map_or_else(
            || tokio::time::Instant::now() + Duration::from_secs(3600),
            |(t, _)| *t,
        );
        tokio::select! {
            _ = ping.tick() => send(&mut ws, &ClientMsg::Ping { nonce: 1 }).await,
            _ = tokio::time::sleep_until(at) => {
                if let Some((_, m)) = suggest.take() {
                    send(&mut ws, &m).await;
                }
            }
            m = ws.next() => {
                let t = match m {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(_)) => continue,
                    other => {
                        eprintln!("a spectator's connection ended: {other:?}");
                        return moves;
                    }
                };
                match serde_json::from_str::<ServerMsg>(t.as_str()).unwrap() {
                    ServerMsg::State { state } => {
                        if !counted {
                            counted = true;
                            watching.fetch_add(1, Ordering::Relaxed);
                        }
                        if state.end.is_some() {
                            ended.fetch_add(1, Ordering::Relaxed);
                        }
                        let mut g = AnyGame::from_text(GameKind::Chess, &state.start).unwrap();
                        moves = state.plies.iter().map(|p| p.mv.clone()).collect();
                        for mv in &moves {
                            g.play_text(mv).unwrap();
                        }
                        game = Some(g);
                    }
                    ServerMsg::Event { event: GameEvent::Moved { ply, mv, .. }, .. } => {
                        assert_eq!(ply as usize, moves.len(), "a spectator's move out of order");
                        moves.push(mv.clone());
                        let g = game.as_mut().unwrap();
                        g.play_text(&mv).unwrap();
                        if let Some(next) = g.legal_moves().first() {
                            let text = g.move_to_text(next);
                            let wait = Duration::from_millis(50 + rand::random::<u64>() % 300);
                            suggest = Some((
                                tokio::time::Instant::now() + wait,
                                ClientMsg::Suggest { code: code.clone(), ply: ply + 1, mv: text },
                            ));
                        }
                    }
                    ServerMsg::Event { event: GameEvent::Ended { .. }, .. } => {
                        ended.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The opponent's receipt of each move stays within a small factor of the same game without
/// spectators, measured in the same run, with 2,000 spectators suggesting a move at every
/// turn; and every spectator ends with the stored game.
#[test]
fn players_do_not_wait_for_two_thousand_spectators() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let server = crowd_server();
    // The players on this thread alone.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let addr = server.addr.clone();
        let (w, b, code) = table(&addr).await;
        let mut players = [w, b];
        let mut game = AnyGame::start(GameKind::Chess, 0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // Alone: the time of each move to the opponent (each thinking 400 ms, as a quick
        // player does).
        let think = Duration::from_millis(400);
        let alone = play_paced(&code, &mut game, &mut players, 20, &mut rng, think).await;
        // 2,000 spectators come (100 at a time), and suggest at every turn: on a runtime of
        // their own (one thread), so that the test's own crowd of clients does not delay the
        // players' reading in this process.
        let stop = Arc::new(AtomicBool::new(false));
        let watching = Arc::new(AtomicU64::new(0));
        let ended = Arc::new(AtomicU64::new(0));
        let crowd_rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let mut crowd = Vec::new();
        for i in 0..2000 {
            crowd.push(crowd_rt.spawn(spectator(
                addr.clone(),
                code.clone(),
                Arc::clone(&stop),
                Arc::clone(&watching),
                Arc::clone(&ended),
            )));
            if i % 100 == 99 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let t = Instant::now();
        while watching.load(Ordering::Relaxed) < 2000 && t.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(watching.load(Ordering::Relaxed), 2000, "every spectator watches");
        let watched = play_paced(&code, &mut game, &mut players, 20, &mut rng, think).await;
        let (a, w) = (median(&alone), median(&watched));
        eprintln!(
            "opponent's receipt µs, median: alone {a}, with 2,000 spectators {w}; alone {alone:?}, watched {watched:?}"
        );
        // A small factor (and a little room for a loaded machine's scheduling): sending to
        // the spectators first, each its own message, made it ten times as long here.
        assert!(
            w <= 3 * a + 3_000,
            "the opponent waits behind the crowd: median {w} µs against {a} µs alone"
        );
        // Every spectator has the game as stored: resign, let the feed settle, compare.
        send(&mut players[0], &ClientMsg::Resign { code: code.clone() }).await;
        until(&mut players[1], |m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Ended { .. }, .. })
        })
        .await;
        // Every spectator takes in the end (each reads at its pace).
        let t = Instant::now();
        while ended.load(Ordering::Relaxed) < 2000 && t.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        stop.store(true, Ordering::Relaxed);
        let stored = stored(&server.db, &code).moves;
        assert_eq!(stored.len(), 40);
        for (i, s) in crowd.into_iter().enumerate() {
            let moves = s.await.unwrap();
            assert_eq!(moves, stored, "spectator {i} has another game ({} moves of {})", moves.len(), stored.len());
        }
        crowd_rt.shutdown_background();
    });
}

/// A spectator whose socket stops taking anything (a tiny receive buffer, never read) while
/// the game goes on and its own answers pile up: the players are not held back, the server's
/// memory does not grow without bound, and when the spectator reads again it is sent the game
/// as it stands (it fell further behind than the feed keeps) and the moves after it, in order.
#[test]
fn a_spectator_that_stops_reading_holds_nobody_back() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // A short feed, so that a stalled spectator falls behind it in a short game.
    let server = Server::scratch(&["--feed-frames", "4", "--msgs-per-sec", "1000"]);
    let rt = runtime();
    rt.block_on(async {
        let addr = server.addr.clone();
        let (w, b, code) = table(&addr).await;
        let mut players = [w, b];
        let mut game = AnyGame::start(GameKind::Chess, 0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let alone = play(&code, &mut game, &mut players, 10, &mut rng).await;
        // The stalled spectator: a receive buffer of a few KiB, and nothing read once it has
        // the game.
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(2048).unwrap();
        let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
        let mut stalled = greet(stream, &addr, "Stalled").await;
        let watch = ClientMsg::Watch {
            code: code.clone(),
            since: None,
        };
        send(&mut stalled, &watch).await;
        let ServerMsg::State { state: first } =
            until(&mut stalled, |m| matches!(m, ServerMsg::State { .. })).await
        else {
            unreachable!()
        };
        play(&code, &mut game, &mut players, 170, &mut rng).await;
        // It asks for the whole game again and again without reading: several MB of answers,
        // more than its socket's buffers hold (4 MiB at most here), fewer than its own queue
        // holds (1,024 messages; each ask is two).
        let asks = 420;
        for _ in 0..asks {
            send(&mut stalled, &watch).await;
        }
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let rss_before = server.rss_kib();
        let watched = play(&code, &mut game, &mut players, 40, &mut rng).await;
        let rss_after = server.rss_kib();
        let (a, m) = (median(&alone), median(&watched));
        eprintln!(
            "opponent's receipt µs, median: before {a}, with a stalled spectator {m}; RSS {rss_before} → {rss_after} KiB"
        );
        assert!(watched.len() >= 30, "{} moves played", watched.len());
        assert!(m <= 4 * a + 15_000, "the players wait: {m} µs against {a} µs");
        assert!(
            rss_after < rss_before + 8 * 1024,
            "the server's memory grew from {rss_before} to {rss_after} KiB"
        );
        // It reads again: its answers, then — the feed having gone on without it — the game
        // as it stands once more, then every move after it in order.
        let mut states = 0;
        let mut last_seq = first.seq;
        let mut after_last_state = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let m = match tokio::time::timeout(Duration::from_millis(700), stalled.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    serde_json::from_str::<ServerMsg>(t.as_str()).unwrap()
                }
                Ok(Some(Ok(_))) => continue,
                Ok(_) => panic!("the stalled spectator was dropped without a reason"),
                Err(_) => break,
            };
            match m {
                ServerMsg::State { state } => {
                    states += 1;
                    last_seq = state.seq;
                    after_last_state.clear();
                    after_last_state.extend(state.plies.iter().map(|p| p.mv.clone()));
                }
                ServerMsg::Event { seq, event, .. } => {
                    assert_eq!(seq, last_seq + 1, "an event out of order");
                    last_seq = seq;
                    if let GameEvent::Moved { mv, .. } = event {
                        after_last_state.push(mv);
                    }
                }
                _ => {}
            }
        }
        eprintln!("states after reading again: {states} for {asks} asks");
        assert!(
            states > asks,
            "the spectator that fell behind was sent the game as it stands ({states} states for {asks} asks)"
        );
        assert_eq!(
            after_last_state,
            stored(&server.db, &code).moves,
            "the spectator ends with the stored game"
        );
    });
}

/// 500 spectators suggest at once: each connection gets the tally a few times a second at
/// most (not once per suggestion), and the last tally counts every suggestion exactly.
#[test]
fn the_tally_comes_a_few_times_a_second_with_exact_counts() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let server = crowd_server();
    let rt = runtime();
    rt.block_on(async {
        let addr = server.addr.clone();
        let (_w, _b, code) = table(&addr).await;
        let mut spectators = Vec::new();
        for _ in 0..500 {
            let mut ws = connect(&addr, "S").await;
            send(
                &mut ws,
                &ClientMsg::Watch {
                    code: code.clone(),
                    since: None,
                },
            )
            .await;
            until(&mut ws, |m| matches!(m, ServerMsg::State { .. })).await;
            spectators.push(ws);
        }
        // White's first move: each spectator suggests one of four, by its number.
        let choices = ["e2e4", "d2d4", "g1f3", "c2c4"];
        let started = Instant::now();
        for (i, ws) in spectators.iter_mut().enumerate() {
            send(
                ws,
                &ClientMsg::Suggest {
                    code: code.clone(),
                    ply: 0,
                    mv: choices[i % 4].into(),
                },
            )
            .await;
        }
        // Each connection reads what comes for 3 s.
        let readers: Vec<_> = spectators
            .into_iter()
            .map(|mut ws| {
                tokio::spawn(async move {
                    let mut tallies = Vec::new();
                    let until = tokio::time::Instant::now() + Duration::from_secs(3);
                    while let Ok(Some(Ok(m))) = tokio::time::timeout_at(until, ws.next()).await {
                        if let Message::Text(t) = m {
                            if let Ok(ServerMsg::Suggestions { crowd, .. }) =
                                serde_json::from_str::<ServerMsg>(t.as_str())
                            {
                                tallies.push(crowd);
                            }
                        }
                    }
                    tallies
                })
            })
            .collect();
        let seconds = 3.0 + started.elapsed().as_secs_f64();
        let mut most = 0;
        for r in readers {
            let tallies = r.await.unwrap();
            most = most.max(tallies.len());
            let last = tallies.last().expect("a tally came");
            assert_eq!(last.voters, 500, "{last:?}");
            for (k, mv) in choices.iter().enumerate() {
                let n = last
                    .tally
                    .iter()
                    .find(|t| t.mv == *mv)
                    .map_or(0, |t| t.count);
                assert_eq!(n, 125, "{mv} (choice {k}) in {last:?}");
            }
        }
        eprintln!("tally messages per connection: at most {most} in {seconds:.1} s");
        assert!(
            (most as f64) <= 5.0 * seconds,
            "{most} tallies to one connection in {seconds:.1} s"
        );
    });
}
