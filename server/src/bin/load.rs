//! `takhte-load`: a load run against a Takhte server on this machine. N games of chess
//! between bots that each move about once a second (random legal moves; a game that ends is
//! followed by a new one), plus idle connections, for a while; then it prints games,
//! connections, moves per second, and the time from a move sent to the opponent receiving it
//! (median, 99th percentile, worst), and the server's resident memory when given its pid.
//!
//! ```sh
//! takhte-load --server 127.0.0.1:7878 --games 1000 --idle 200 --seconds 30 [--pid PID]
//! takhte-load --server 127.0.0.1:7878 --spectators 1000 --seconds 30 [--pid PID]
//! ```
//!
//! With `--spectators N`: one public game between two bots, watched by N spectators who each
//! suggest a random legal move at every turn; it reports, for each real move, the time until
//! the last spectator received it (median, 99th percentile), and every delivery's time.
//!
//! It sends traffic only to the address given (refused unless it is a loopback address), and
//! stops by itself after `--seconds` (plus the time to connect).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::seq::SliceRandom;
use rand::Rng;
use tokio_tungstenite::tungstenite::Message;

use takhte_protocol::token;
use takhte_protocol::{
    ClientMsg, ColourChoice, GameEvent, GameSettings, ServerMsg, PROTOCOL_VERSION,
};
use takhte_rules::{AnyGame, GameKind};

struct Args {
    servers: Vec<String>,
    /// Over wss:// (to `localhost`), trusting the authority in this PEM file.
    tls_root: Option<String>,
    pids: Vec<u32>,
    games: usize,
    idle: usize,
    seconds: u64,
    think_ms: u64,
    spectators: usize,
    /// Only measure how fast connections are made: this many, 100 at a time.
    handshakes: usize,
    /// Quick pairing: this many players enter the pools, spread over `over` seconds.
    seekers: usize,
    over: u64,
    /// The server's SQLite file: the seekers' ratings are written there first (1000–2000).
    ratings_db: Option<String>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        servers: Vec::new(),
        tls_root: None,
        pids: Vec::new(),
        games: 100,
        idle: 0,
        seconds: 20,
        think_ms: 1000,
        spectators: 0,
        handshakes: 0,
        seekers: 0,
        over: 60,
        ratings_db: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(k) = it.next() {
        let mut v = || it.next().cloned().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--server" => a.servers.push(v()?),
            "--tls-root" => a.tls_root = Some(v()?),
            "--games" => a.games = v()?.parse().map_err(|_| "--games: a number")?,
            "--idle" => a.idle = v()?.parse().map_err(|_| "--idle: a number")?,
            "--seconds" => a.seconds = v()?.parse().map_err(|_| "--seconds: a number")?,
            "--pid" => a.pids.push(v()?.parse().map_err(|_| "--pid: a number")?),
            "--think-ms" => a.think_ms = v()?.parse().map_err(|_| "--think-ms: a number")?,
            "--spectators" => a.spectators = v()?.parse().map_err(|_| "--spectators: a number")?,
            "--handshakes" => a.handshakes = v()?.parse().map_err(|_| "--handshakes: a number")?,
            "--seekers" => a.seekers = v()?.parse().map_err(|_| "--seekers: a number")?,
            "--over" => a.over = v()?.parse().map_err(|_| "--over: a number of seconds")?,
            "--ratings-db" => a.ratings_db = Some(v()?),
            "--help" | "-h" => return Err(
                "usage: takhte-load --server 127.0.0.1:PORT --games N [--idle M] [--seconds S] [--pid PID] [--think-ms MS]".into(),
            ),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if a.servers.is_empty() {
        a.servers.push("127.0.0.1:7878".into());
    }
    for server in &a.servers {
        let host = server.rsplit_once(':').map(|(h, _)| h).unwrap_or("");
        if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
            return Err("takhte-load sends traffic only to a loopback address".into());
        }
    }
    Ok(a)
}

/// What all players share: latency samples, counters, the stop flag.
struct Shared {
    start: Instant,
    samples: Mutex<Vec<u32>>,
    moves: AtomicU64,
    games_done: AtomicU64,
    /// Every error, by what it was (closed by the server and why, refused and why, …).
    errors: Mutex<std::collections::BTreeMap<String, u64>>,
    /// While measuring: the moves the bots meant to send (each planned a think after the
    /// opponent's move), the moves sent, and how late each went after its planned moment (µs).
    intended: AtomicU64,
    sent_moves: AtomicU64,
    lateness: Mutex<Vec<u32>>,
    connected: AtomicU64,
    /// Games whose second player sat down (their creator was told).
    started: AtomicU64,
    measuring: AtomicBool,
    stop: AtomicBool,
    /// When each move was sent, by (game, ply), in microseconds since `start`.
    sent: Mutex<HashMap<(String, u32), u64>>,
    /// Spectator mode: the game's code, and each delivery of a move to a spectator (ply, µs).
    watched: tokio::sync::watch::Sender<Option<String>>,
    deliveries: Mutex<Vec<(u32, u32)>>,
    spectating: bool,
}

impl Shared {
    /// Counts one error of the kind `what`.
    fn error(&self, what: impl Into<String>) {
        *self.errors.lock().unwrap().entry(what.into()).or_insert(0) += 1;
    }

    /// The errors, named: "none", or "12 refused wrong-ply, 3 closed by the server: …".
    fn errors_text(&self) -> String {
        let e = self.errors.lock().unwrap();
        if e.is_empty() {
            return "0".into();
        }
        let total: u64 = e.values().sum();
        let named: Vec<String> = e.iter().map(|(k, n)| format!("{n} {k}")).collect();
        format!("{total} ({})", named.join(", "))
    }

    /// A message that is an error, named: the server's refusal code or its reason to close.
    fn server_error(&self, m: &ServerMsg) -> bool {
        match m {
            ServerMsg::Error { error, .. } => {
                let code = serde_json::to_value(error)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default();
                self.error(format!("refused {code}"));
                true
            }
            ServerMsg::Bye { reason, message } => {
                self.error(format!("closed by the server ({reason:?}: {message})"));
                true
            }
            _ => false,
        }
    }

    /// The connection's read ended: named by how (a close or an error; a bye was named).
    fn read_end(&self, msg: &Option<Result<Message, tokio_tungstenite::tungstenite::Error>>) {
        match msg {
            None | Some(Ok(Message::Close(_))) => self.error("closed without a reason"),
            Some(Err(e)) => self.error(format!("read failed ({})", short(&e.to_string()))),
            _ => {}
        }
    }
}

/// The first words of an error, for grouping.
fn short(e: &str) -> String {
    e.split([':', '(']).next().unwrap_or(e).trim().to_string()
}

/// A socket, plain or encrypted.
trait Io: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> Io for T {}

type Ws = tokio_tungstenite::WebSocketStream<Box<dyn Io>>;

/// The TLS settings of every connection of a `--tls-root` run (none for a plain run).
static TLS: std::sync::OnceLock<Option<tokio_rustls::TlsConnector>> = std::sync::OnceLock::new();

/// The client side of `--tls-root FILE`: Graviola's cryptography (the app's), trusting the
/// file's authority.
fn tls_connector(root_pem: &str) -> Result<tokio_rustls::TlsConnector, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(root_pem).map_err(|e| format!("{root_pem}: {e:?}"))? {
        roots
            .add(cert.map_err(|e| format!("{root_pem}: {e:?}"))?)
            .map_err(|e| e.to_string())?;
    }
    let config =
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls_graviola::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

async fn connect(server: &str, name: &str) -> Result<Ws, String> {
    connect_as(server, name, &token::generate()).await
}

/// [`connect`] as the player `token`.
async fn connect_as(server: &str, name: &str, token: &str) -> Result<Ws, String> {
    let tcp = tokio::net::TcpStream::connect(server)
        .await
        .map_err(|e| e.to_string())?;
    // No Nagle delay, as the app's client.
    let _ = tcp.set_nodelay(true);
    let port = server.rsplit_once(':').map_or("7878", |(_, p)| p);
    let (io, url): (Box<dyn Io>, String) = match TLS.get().and_then(Option::as_ref) {
        Some(connector) => {
            let name =
                rustls::pki_types::ServerName::try_from("localhost").map_err(|e| e.to_string())?;
            let tls = connector
                .connect(name, tcp)
                .await
                .map_err(|e| e.to_string())?;
            (Box::new(tls), format!("wss://localhost:{port}/ws"))
        }
        None => (Box::new(tcp), format!("ws://{server}/ws")),
    };
    let (mut ws, _) = tokio_tungstenite::client_async_with_config(url, io, None)
        .await
        .map_err(|e| e.to_string())?;
    send(
        &mut ws,
        &ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            token: token.to_string(),
            name: name.into(),
        },
    )
    .await?;
    Ok(ws)
}

async fn send(ws: &mut Ws, m: &ClientMsg) -> Result<(), String> {
    ws.send(Message::text(serde_json::to_string(m).unwrap()))
        .await
        .map_err(|e| e.to_string())
}

/// One player: creates (or joins, when `code` comes through `join`) games and plays them.
async fn player(
    server: String,
    shared: Arc<Shared>,
    creator: bool,
    code_tx: Option<tokio::sync::mpsc::Sender<String>>,
    mut code_rx: Option<tokio::sync::mpsc::Receiver<String>>,
    think_ms: u64,
) {
    let mut ws = match connect(&server, if creator { "load-a" } else { "load-b" }).await {
        Ok(ws) => ws,
        Err(e) => {
            shared.error(format!("connect failed ({})", short(&e)));
            return;
        }
    };
    shared.connected.fetch_add(1, Ordering::Relaxed);
    let mut game: Option<(String, AnyGame, takhte_rules::Side)> = None;
    let mut next_move: Option<tokio::time::Instant> = None;
    // Plans a move `think` from now (counted as intended while measuring).
    let plan = |shared: &Shared| {
        if shared.measuring.load(Ordering::Relaxed) {
            shared.intended.fetch_add(1, Ordering::Relaxed);
        }
        Some(think(think_ms))
    };
    if creator && new_game(&mut ws, shared.spectating).await.is_err() {
        return;
    }
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            let _ = ws.close(None).await;
            return;
        }
        let wake =
            next_move.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            code = async { match code_rx.as_mut() { Some(r) => r.recv().await, None => std::future::pending().await } } => {
                let Some(code) = code else { return };
                if send(&mut ws, &ClientMsg::Join { code }).await.is_err() { return; }
            }
            _ = ping.tick() => {
                if send(&mut ws, &ClientMsg::Ping { nonce: 0 }).await.is_err() { return; }
            }
            _ = tokio::time::sleep_until(wake) => {
                next_move = None;
                if shared.measuring.load(Ordering::Relaxed) {
                    let late = tokio::time::Instant::now().saturating_duration_since(wake);
                    shared.lateness.lock().unwrap().push(late.as_micros() as u32);
                    shared.sent_moves.fetch_add(1, Ordering::Relaxed);
                }
                let Some((code, g, _)) = game.as_ref() else { continue };
                let moves = g.legal_moves();
                let Some(mv) = moves.choose(&mut rand::thread_rng()) else { continue };
                let text = g.move_to_text(mv);
                let ply = ply_of(g);
                shared.sent.lock().unwrap().insert((code.clone(), ply), shared.start.elapsed().as_micros() as u64);
                if send(&mut ws, &ClientMsg::Move { code: code.clone(), ply, mv: text }).await.is_err() { return; }
            }
            msg = ws.next() => {
                let Some(Ok(Message::Text(t))) = msg else {
                    if matches!(msg, None | Some(Err(_)) | Some(Ok(Message::Close(_)))) { shared.read_end(&msg); return; }
                    continue;
                };
                let Ok(m) = serde_json::from_str::<ServerMsg>(t.as_str()) else { continue };
                if shared.server_error(&m) {
                    if matches!(m, ServerMsg::Bye { .. }) { return; }
                    continue;
                }
                match m {
                    ServerMsg::State { state } => {
                        let Ok(g) = AnyGame::from_text(GameKind::Chess, &state.start) else { continue };
                        let Some(you) = state.you else { continue };
                        if creator {
                            if let Some(tx) = &code_tx { let _ = tx.send(state.code.clone()).await; }
                            if shared.spectating { let _ = shared.watched.send(Some(state.code.clone())); }
                        }
                        game = Some((state.code.clone(), g, you));
                    }
                    ServerMsg::Event { event: GameEvent::Seated { .. }, .. } => {
                        if creator { shared.started.fetch_add(1, Ordering::Relaxed); }
                        if let Some((_, g, you)) = &game {
                            if g.side_to_move() == *you { next_move = plan(&shared); }
                        }
                    }
                    ServerMsg::Event { code, event: GameEvent::Moved { ply, mv, .. }, .. } => {
                        let Some((c, g, you)) = game.as_mut() else { continue };
                        if *c != code { continue }
                        let sent = if shared.spectating {
                            shared.sent.lock().unwrap().get(&(code.clone(), ply)).copied()
                        } else {
                            shared.sent.lock().unwrap().remove(&(code.clone(), ply))
                        };
                        if g.side_to_move() != *you {
                            // The opponent's move: measure its trip.
                            if let (Some(t0), true) = (sent, shared.measuring.load(Ordering::Relaxed)) {
                                let now = shared.start.elapsed().as_micros() as u64;
                                shared.samples.lock().unwrap().push(now.saturating_sub(t0) as u32);
                            }
                            if shared.measuring.load(Ordering::Relaxed) { shared.moves.fetch_add(1, Ordering::Relaxed); }
                        } else if let Some(t0) = sent {
                            // Our own move came back: keep its send time for the opponent.
                            shared.sent.lock().unwrap().insert((code.clone(), ply), t0);
                        }
                        if g.play_text(&mv).is_err() { shared.error("the bot's copy of the game out of step"); continue; }
                        if g.side_to_move() == *you && g.outcome().is_none() {
                            next_move = plan(&shared);
                        }
                    }
                    ServerMsg::Event { event: GameEvent::Ended { .. }, code, .. }
                        if game.as_ref().is_some_and(|(c, _, _)| *c == code) => {
                            shared.games_done.fetch_add(1, Ordering::Relaxed);
                            game = None;
                            next_move = None;
                            let _ = send(&mut ws, &ClientMsg::Close { code }).await;
                            if creator && new_game(&mut ws, shared.spectating).await.is_err() { return; }
                        }
                    _ => {}
                }
            }
        }
    }
}

async fn new_game(ws: &mut Ws, watched: bool) -> Result<(), String> {
    send(
        ws,
        &ClientMsg::Create {
            settings: GameSettings {
                kind: GameKind::Chess,
                clock: None,
                colour: ColourChoice::White,
                public: watched,
                position: None,
                spectators: watched,
                audience: false,
                rated: false,
            },
            request: None,
        },
    )
    .await
}

/// A spectator: watches the game, notes when each move arrives, and suggests a random legal
/// move a moment after each one.
async fn spectator(server: String, shared: Arc<Shared>) {
    let mut ws = match connect(&server, "spectator").await {
        Ok(ws) => ws,
        Err(e) => {
            shared.error(format!("connect failed ({})", short(&e)));
            return;
        }
    };
    shared.connected.fetch_add(1, Ordering::Relaxed);
    let mut code_rx = shared.watched.subscribe();
    let code = loop {
        if let Some(c) = code_rx.borrow().clone() {
            break c;
        }
        if code_rx.changed().await.is_err() {
            return;
        }
    };
    if send(
        &mut ws,
        &ClientMsg::Watch {
            code: code.clone(),
            since: None,
        },
    )
    .await
    .is_err()
    {
        return;
    }
    let mut game: Option<AnyGame> = None;
    let mut suggest_at: Option<(tokio::time::Instant, u32, String)> = None;
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    while !shared.stop.load(Ordering::Relaxed) {
        let wake = suggest_at
            .as_ref()
            .map(|(t, _, _)| *t)
            .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            _ = ping.tick() => {
                if send(&mut ws, &ClientMsg::Ping { nonce: 2 }).await.is_err() { return }
            }
            _ = tokio::time::sleep_until(wake) => {
                if let Some((_, ply, mv)) = suggest_at.take() {
                    if send(&mut ws, &ClientMsg::Suggest { code: code.clone(), ply, mv }).await.is_err() { return }
                }
            }
            msg = ws.next() => {
                let Some(Ok(Message::Text(t))) = msg else {
                    if matches!(msg, None | Some(Err(_)) | Some(Ok(Message::Close(_)))) { shared.read_end(&msg); return; }
                    continue;
                };
                let Ok(m) = serde_json::from_str::<ServerMsg>(t.as_str()) else { continue };
                if shared.server_error(&m) {
                    if matches!(m, ServerMsg::Bye { .. }) { return; }
                    continue;
                }
                match m {
                    ServerMsg::State { state } => {
                        let Ok(mut g) = AnyGame::from_text(GameKind::Chess, &state.start) else { continue };
                        for p in &state.plies { let _ = g.play_text(&p.mv); }
                        game = Some(g);
                    }
                    ServerMsg::Event { event: GameEvent::Moved { ply, mv, .. }, .. } => {
                        let now = shared.start.elapsed().as_micros() as u64;
                        let t0 = shared.sent.lock().unwrap().get(&(code.clone(), ply)).copied();
                        if let (Some(t0), true) = (t0, shared.measuring.load(Ordering::Relaxed)) {
                            shared.deliveries.lock().unwrap().push((ply, now.saturating_sub(t0) as u32));
                        }
                        let Some(g) = game.as_mut() else { continue };
                        if g.play_text(&mv).is_err() { continue }
                        let moves = g.legal_moves();
                        if let Some(next) = moves.choose(&mut rand::thread_rng()) {
                            let text = g.move_to_text(next);
                            let delay = rand::thread_rng().gen_range(50..400);
                            suggest_at = Some((tokio::time::Instant::now() + Duration::from_millis(delay), ply + 1, text));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

fn ply_of(g: &AnyGame) -> u32 {
    // Fullmove number and side from the FEN.
    let t = g.to_text();
    let f: Vec<&str> = t.split_whitespace().collect();
    let full: u32 = f.get(5).and_then(|x| x.parse().ok()).unwrap_or(1);
    (full - 1) * 2 + u32::from(f.get(1) == Some(&"b"))
}

fn think(ms: u64) -> tokio::time::Instant {
    let jitter = rand::thread_rng().gen_range(0..=ms / 2);
    tokio::time::Instant::now() + Duration::from_millis(ms * 3 / 4 + jitter)
}

async fn idle(server: String, shared: Arc<Shared>) {
    let mut ws = match connect(&server, "idle").await {
        Ok(ws) => ws,
        Err(e) => {
            shared.error(format!("connect failed ({})", short(&e)));
            return;
        }
    };
    shared.connected.fetch_add(1, Ordering::Relaxed);
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    while !shared.stop.load(Ordering::Relaxed) {
        tokio::select! {
            _ = ping.tick() => { if send(&mut ws, &ClientMsg::Ping { nonce: 1 }).await.is_err() { return } }
            m = ws.next() => { if m.is_none() { return } }
        }
    }
}

/// The CPU time a process has used so far (user and system), in clock ticks (1/100 s).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name (in parentheses): fields 14 and 15 are utime and stime.
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("takhte-load: {e}");
            std::process::exit(2);
        }
    };
    // Every core: the generator must not be what saturates (its own CPU is reported).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("runtime");
    let tls = match &args.tls_root {
        Some(pem) => match tls_connector(pem) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("takhte-load: {e}");
                std::process::exit(2);
            }
        },
        None => None,
    };
    let _ = TLS.set(tls);
    rt.block_on(run(args));
}

/// `--handshakes N`: N connections (TCP, TLS when asked, the WebSocket's upgrade, hello and
/// the welcome), 100 at a time, each closed after its welcome; one line with the rate.
async fn handshakes(args: &Args) {
    let start = Instant::now();
    let next = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for w in 0..100 {
        let (next, failed) = (Arc::clone(&next), Arc::clone(&failed));
        let server = args.servers[w % args.servers.len()].clone();
        let n = args.handshakes as u64;
        tasks.push(tokio::spawn(async move {
            while next.fetch_add(1, Ordering::Relaxed) < n {
                match connect(&server, "hs").await {
                    Ok(mut ws) => {
                        let welcomed = loop {
                            match ws.next().await {
                                Some(Ok(Message::Text(t))) => {
                                    break matches!(
                                        serde_json::from_str::<ServerMsg>(t.as_str()),
                                        Ok(ServerMsg::Welcome { .. })
                                    )
                                }
                                Some(Ok(_)) => continue,
                                _ => break false,
                            }
                        };
                        if !welcomed {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                        let _ = ws.close(None).await;
                    }
                    Err(_) => {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "handshakes {} in {:.2} s: {:.0}/s, failed {}",
        args.handshakes,
        secs,
        args.handshakes as f64 / secs,
        failed.load(Ordering::Relaxed)
    );
}

/// The whole run: the clients, a warm-up, the measuring, the report.
async fn run(args: Args) {
    if args.handshakes > 0 {
        handshakes(&args).await;
        return;
    }
    let shared = Arc::new(Shared {
        start: Instant::now(),
        samples: Mutex::new(Vec::new()),
        moves: AtomicU64::new(0),
        games_done: AtomicU64::new(0),
        errors: Mutex::new(std::collections::BTreeMap::new()),
        intended: AtomicU64::new(0),
        sent_moves: AtomicU64::new(0),
        lateness: Mutex::new(Vec::new()),
        connected: AtomicU64::new(0),
        started: AtomicU64::new(0),
        measuring: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        sent: Mutex::new(HashMap::new()),
        watched: tokio::sync::watch::channel(None).0,
        deliveries: Mutex::new(Vec::new()),
        spectating: args.spectators > 0,
    });
    let games = if args.spectators > 0 { 1 } else { args.games };
    let mut tasks = start_clients(&args, &shared, games).await;
    // Wait for the connections, then a warm-up of a few seconds.
    let t = Instant::now();
    while (shared.connected.load(Ordering::Relaxed) as usize)
        < 2 * games + args.idle + args.spectators
        && t.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connect_time = t.elapsed();
    // Every game started (created and joined), then a warm-up of a few seconds.
    while (shared.started.load(Ordering::Relaxed) as usize) < games
        && t.elapsed() < Duration::from_secs(90)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let start_time = t.elapsed();
    tokio::time::sleep(Duration::from_secs(3)).await;
    shared.measuring.store(true, Ordering::Relaxed);
    let measure_start = Instant::now();
    // Quick pairing while the games are played: the seekers come over the measuring time.
    let seeking = (args.seekers > 0).then(|| {
        let pairing = Arc::new(Pairing::default());
        tasks.extend(start_seekers(&args, &pairing));
        pairing
    });
    let cpu_before: Vec<Option<u64>> = args.pids.iter().map(|p| cpu_ticks(*p)).collect();
    let own_before = cpu_ticks(std::process::id());
    let mut rss_text = watch_memory(&args).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let elapsed = measure_start.elapsed().as_secs_f64();
    // The servers' CPU over the measuring time (100 % is one core).
    let cpu: Vec<String> = args
        .pids
        .iter()
        .zip(cpu_before)
        .filter_map(|(p, before)| Some((cpu_ticks(*p)? - before?) as f64 / elapsed))
        .map(|pct| format!("{pct:.0}%"))
        .collect();
    if !cpu.is_empty() {
        rss_text += &format!(" CPU {}", cpu.join(" + "));
    }
    if let (Some(b), Some(a)) = (own_before, cpu_ticks(std::process::id())) {
        rss_text += &format!(" | generator CPU {:.0}%", (a - b) as f64 / elapsed);
    }
    shared.stop.store(true, Ordering::Relaxed);
    if args.spectators > 0 {
        report_spectators(&args, &shared, &rss_text);
    } else {
        rss_text = format!(
            " games started {} in {:.1} s{rss_text}",
            shared.started.load(Ordering::Relaxed),
            start_time.as_secs_f64()
        );
        report_games(&args, &shared, connect_time, elapsed, &rss_text);
    }
    if let Some(p) = seeking {
        report_pairing(&args, &p, elapsed);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    for t in tasks {
        t.abort();
    }
}

/// The players of `games` games (with several instances the two players of a game are on
/// different ones), the idle connections, the spectators.
async fn start_clients(
    args: &Args,
    shared: &Arc<Shared>,
    games: usize,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    let n = args.servers.len();
    let server = |i: usize| args.servers[i % n].clone();
    for i in 0..games {
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        let think = args.think_ms;
        tasks.push(tokio::spawn(player(
            server(i),
            Arc::clone(shared),
            true,
            Some(tx),
            None,
            think,
        )));
        tasks.push(tokio::spawn(player(
            server(i + 1),
            Arc::clone(shared),
            false,
            None,
            Some(rx),
            think,
        )));
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    for i in 0..args.idle {
        tasks.push(tokio::spawn(idle(server(i), Arc::clone(shared))));
    }
    for i in 0..args.spectators {
        tasks.push(tokio::spawn(spectator(server(i), Arc::clone(shared))));
        if i % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    tasks
}

/// Waits out the measuring time, noting the servers' largest resident memory: the text of
/// it for the report (none without server pids).
async fn watch_memory(args: &Args) -> String {
    let start = Instant::now();
    let mut rss: Vec<u64> = vec![0; args.pids.len()];
    while start.elapsed() < Duration::from_secs(args.seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        for (i, pid) in args.pids.iter().enumerate() {
            if let Some(k) = rss_kib(*pid) {
                rss[i] = rss[i].max(k);
            }
        }
    }
    if rss.is_empty() {
        return String::new();
    }
    format!(
        " server RSS max {} MiB",
        rss.iter()
            .map(|k| (k / 1024).to_string())
            .collect::<Vec<_>>()
            .join(" + ")
    )
}

/// The value at `p` (0 to 1) of sorted microseconds, in milliseconds.
fn quantile(v: &[u32], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

/// The moves sent against those the bots meant to send while measuring (each move is planned
/// a think after the opponent's), the rate a game of one move a second would give, and how
/// late the sending was: a generator that cannot keep up shows here.
fn sent_text(shared: &Shared, elapsed: f64, games: usize) -> String {
    let mut late = shared.lateness.lock().unwrap().clone();
    late.sort_unstable();
    format!(
        "sent {} of {} planned, {:.0}/s for {} games; sending late p99 {:.1} ms",
        shared.sent_moves.load(Ordering::Relaxed),
        shared.intended.load(Ordering::Relaxed),
        shared.sent_moves.load(Ordering::Relaxed) as f64 / elapsed,
        games,
        quantile(&late, 0.99)
    )
}

/// One line: the games' relay times.
fn report_games(
    args: &Args,
    shared: &Shared,
    connect_time: Duration,
    elapsed: f64,
    rss_text: &str,
) {
    let mut s = shared.samples.lock().unwrap().clone();
    s.sort_unstable();
    println!(
        "games {} connections {} (connected in {:.1} s, {:.0}/s) moves/s {:.0} ({}) relay ms p50 {:.2} p99 {:.2} max {:.2} samples {} games finished {} errors {}{}",
        args.games,
        shared.connected.load(Ordering::Relaxed),
        connect_time.as_secs_f64(),
        shared.connected.load(Ordering::Relaxed) as f64 / connect_time.as_secs_f64().max(0.001),
        shared.moves.load(Ordering::Relaxed) as f64 / elapsed,
        sent_text(shared, elapsed, args.games),
        quantile(&s, 0.5),
        quantile(&s, 0.99),
        quantile(&s, 1.0),
        s.len(),
        shared.games_done.load(Ordering::Relaxed),
        shared.errors_text(),
        rss_text
    );
}

/// One line: how long until the last spectator had each move.
fn report_spectators(args: &Args, shared: &Shared, rss_text: &str) {
    let d = shared.deliveries.lock().unwrap().clone();
    let mut by_ply: HashMap<u32, Vec<u32>> = HashMap::new();
    for (ply, us) in &d {
        by_ply.entry(*ply).or_default().push(*us);
    }
    // The time until the last spectator had each move (moves every spectator got).
    let mut last: Vec<u32> = by_ply
        .values()
        .filter(|v| v.len() >= args.spectators)
        .map(|v| *v.iter().max().unwrap())
        .collect();
    last.sort_unstable();
    let mut all: Vec<u32> = d.iter().map(|(_, us)| *us).collect();
    all.sort_unstable();
    let mut pl = shared.samples.lock().unwrap().clone();
    pl.sort_unstable();
    println!(
        "spectators {} moves {} last-spectator ms p50 {:.1} p99 {:.1} max {:.1} | every delivery ms p50 {:.1} p99 {:.1} ({} deliveries) | opponent's receipt ms p50 {:.1} p99 {:.1} ({} moves) errors {}{}",
        args.spectators,
        last.len(),
        quantile(&last, 0.5),
        quantile(&last, 0.99),
        quantile(&last, 1.0),
        quantile(&all, 0.5),
        quantile(&all, 0.99),
        all.len(),
        quantile(&pl, 0.5),
        quantile(&pl, 0.99),
        pl.len(),
        shared.errors_text(),
        rss_text
    );
}

/// Quick pairing's figures: each seeker's wait from entering to the game's state, those never
/// paired, failures.
#[derive(Default)]
struct Pairing {
    waits_ms: Mutex<Vec<u32>>,
    entered: AtomicU64,
    unpaired: AtomicU64,
    failed: AtomicU64,
}

/// The seekers: each connects as a player of its own (rated 1000–2000 when `--ratings-db` is
/// given), enters one of the app's one-tap pools, waits for its game (at most a minute),
/// resigns it and leaves. They come evenly over `--over` seconds.
fn start_seekers(args: &Args, pairing: &Arc<Pairing>) -> Vec<tokio::task::JoinHandle<()>> {
    let pools = takhte_protocol::rating::PoolChoice::common();
    let mut rng = rand::thread_rng();
    let players: Vec<(String, takhte_protocol::rating::PoolChoice, f64)> = (0..args.seekers)
        .map(|_| {
            (
                token::generate(),
                pools[rng.gen_range(0..pools.len())],
                rng.gen_range(1000.0..2000.0),
            )
        })
        .collect();
    if let Some(db) = &args.ratings_db {
        if let Err(e) = write_ratings(db, &players) {
            eprintln!("takhte-load: ratings not written ({e}); the seekers are new players");
        }
    }
    let gap = Duration::from_secs_f64(args.over as f64 / args.seekers.max(1) as f64);
    let start = Instant::now();
    players
        .into_iter()
        .enumerate()
        .map(|(i, (tok, choice, _))| {
            let server = args.servers[i % args.servers.len()].clone();
            let pairing = Arc::clone(pairing);
            let at = start + gap * i as u32;
            tokio::spawn(async move {
                tokio::time::sleep_until(at.into()).await;
                pairing.entered.fetch_add(1, Ordering::Relaxed);
                match seek_once(&server, &tok, choice).await {
                    Ok(Some(ms)) => pairing.waits_ms.lock().unwrap().push(ms),
                    Ok(None) => {
                        pairing.unpaired.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(_) => {
                        pairing.failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect()
}

/// One seeker: the wait in milliseconds until its game's state came (`None`: not paired in a
/// minute).
async fn seek_once(
    server: &str,
    tok: &str,
    choice: takhte_protocol::rating::PoolChoice,
) -> Result<Option<u32>, String> {
    let mut ws = connect_as(server, "seeker", tok).await?;
    let mut sent: Option<Instant> = None;
    let mut code: Option<String> = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let msg = match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => return Ok(None),
            Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<ServerMsg>(t.as_str()).ok(),
            Ok(Some(Ok(_))) => None,
            Ok(_) => return Err("closed".into()),
        };
        match msg {
            Some(ServerMsg::Welcome { .. }) => {
                send(&mut ws, &ClientMsg::Seek { choice }).await?;
                sent = Some(Instant::now());
            }
            Some(ServerMsg::Paired { code: c }) => code = Some(c),
            Some(ServerMsg::State { state }) if code.as_deref() == Some(&state.code) => {
                let ms = sent.map_or(0, |t| t.elapsed().as_millis() as u32);
                send(&mut ws, &ClientMsg::Resign { code: state.code }).await?;
                tokio::time::sleep(Duration::from_millis(200)).await;
                let _ = ws.close(None).await;
                return Ok(Some(ms));
            }
            Some(ServerMsg::Error { message, .. }) => return Err(message),
            _ => {}
        }
    }
}

/// The seekers' ratings, into the server's SQLite file.
fn write_ratings(
    db: &str,
    players: &[(String, takhte_protocol::rating::PoolChoice, f64)],
) -> Result<(), String> {
    let mut conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    conn.busy_timeout(Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    let tx = conn.transaction().map_err(|e| e.to_string())?;
    for (tok, choice, rating) in players {
        tx.execute(
            "INSERT OR REPLACE INTO standings (token_hash, kind, rating, deviation, volatility, \
             rated_games, played) VALUES (?1, ?2, ?3, 60.0, 0.06, 30, 30)",
            rusqlite::params![takhte_server::token_hash(tok), choice.kind.name(), rating],
        )
        .map_err(|e| e.to_string())?;
    }
    tx.commit().map_err(|e| e.to_string())
}

fn report_pairing(args: &Args, p: &Pairing, elapsed: f64) {
    let mut w = p.waits_ms.lock().unwrap().clone();
    w.sort_unstable();
    let q = |f: f64| {
        w.get(((w.len() as f64 - 1.0) * f).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "pairing: {} of {} seekers entered over {} s; paired {} ({:.1} pairs/s over the run), \
         never paired {}, failed {}; enter to game p50 {} ms p99 {} ms max {} ms",
        p.entered.load(Ordering::Relaxed),
        args.seekers,
        args.over,
        w.len(),
        w.len() as f64 / 2.0 / elapsed,
        p.unpaired.load(Ordering::Relaxed),
        p.failed.load(Ordering::Relaxed),
        q(0.5),
        q(0.99),
        w.last().copied().unwrap_or(0)
    );
}
