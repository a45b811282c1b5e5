//! Helpers of the server tests: a real server process on loopback, a TCP proxy that can cut
//! connections, a balancer in front of several instances, raw WebSocket clients, and bots.

#![allow(dead_code)]

pub mod services;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use takhte_online::bot::{self, BotConfig, BotReport, BotRole};
use takhte_protocol::token;
use takhte_protocol::{
    ClientMsg, ClockSpec, CloseReason, ColourChoice, ErrorCode, GameEvent, GameSettings, GameState,
    ServerMsg, PROTOCOL_VERSION,
};
use takhte_rules::GameKind;

/// A server process. Its standard error goes to a file ([`Server::stderr`]), or to the test's
/// own with `TAKHTE_TEST_LOG` set.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its database file (or URL).
    pub db: PathBuf,
    /// Extra options it was started with.
    pub options: Vec<String>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
    /// Its standard error.
    log: Option<PathBuf>,
    /// A scratch folder of its own (database and log), when it has one.
    _dir: Option<Arc<tempfile::TempDir>>,
}

impl Server {
    /// Starts a server on a free port with a scratch folder of its own (its SQLite file and
    /// its log), with these options.
    pub fn scratch(options: &[&str]) -> Server {
        Server::scratch_env(options, &[])
    }

    /// [`Server::scratch`] with extra environment variables (`TAKHTE_FAULT`, say).
    pub fn scratch_env(options: &[&str], env: &[(&str, &str)]) -> Server {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        let mut s = Server::start_env("127.0.0.1:0", &dir.path().join("s.sqlite"), options, env);
        s._dir = Some(dir);
        s
    }

    /// Starts a server on a free port with its database at `db`.
    pub fn start(db: &Path, options: &[&str]) -> Server {
        Server::start_at("127.0.0.1:0", db, options)
    }

    /// Starts a server listening on `listen`.
    pub fn start_at(listen: &str, db: &Path, options: &[&str]) -> Server {
        Server::start_env(listen, db, options, &[])
    }

    /// Starts a server with extra environment variables (`TAKHTE_FAULT`, say).
    pub fn start_env(listen: &str, db: &Path, options: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_takhte-server"));
        cmd.arg("--listen").arg(listen).arg("--db").arg(db);
        // The tests' raw clients read (and so answer the server's pings) only when they look
        // for a message, and a test may look at one connection for a long while: the silence
        // allowed is long unless a test is about it (a real client reads all the time).
        if !options.contains(&"--silence-ms") {
            cmd.args(["--silence-ms", "300000"]);
        }
        cmd.args(options)
            .envs(env.iter().map(|(k, v)| (k.to_string(), v.to_string())))
            .stdout(Stdio::piped());
        let log = if std::env::var_os("TAKHTE_TEST_LOG").is_some() {
            cmd.stderr(Stdio::inherit());
            None
        } else {
            let path = std::env::temp_dir().join(format!(
                "takhte-server-{}-{:016x}.log",
                std::process::id(),
                rand::random::<u64>()
            ));
            cmd.stderr(Stdio::from(std::fs::File::create(&path).unwrap()));
            Some(path)
        };
        let mut child = cmd.spawn().expect("the server starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server says where it listens");
        let addr = line
            .trim()
            .strip_prefix("takhte-server: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        Server {
            child,
            addr,
            db: db.to_path_buf(),
            options: options.iter().map(|s| s.to_string()).collect(),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            log,
            _dir: None,
        }
    }

    /// What the server wrote on its standard error so far (empty with `TAKHTE_TEST_LOG`).
    pub fn stderr(&self) -> String {
        self.log
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default()
    }

    /// The server's resident memory (KiB).
    pub fn rss_kib(&self) -> u64 {
        self.status_kib("VmRSS:").unwrap_or(0)
    }

    /// A `… kB` field of the server's `/proc/PID/status`.
    fn status_kib(&self, field: &str) -> Option<u64> {
        std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .ok()?
            .lines()
            .find(|l| l.starts_with(field))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    }

    /// Sockets the server process holds open (listening one included). A check that cannot
    /// read them fails: it must not pass by seeing none.
    pub fn sockets(&self) -> usize {
        let dir = std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .expect("the server's open files can be read (/proc)");
        let n = dir
            .filter_map(|e| e.ok())
            .filter(|e| {
                std::fs::read_link(e.path())
                    .map(|l| l.to_string_lossy().starts_with("socket:"))
                    .unwrap_or(false)
            })
            .count();
        assert!(n >= 1, "the server holds at least its listening socket");
        n
    }

    /// The server's peak resident memory, in MB. A check that cannot read it fails.
    pub fn peak_mb(&self) -> u64 {
        let kb = self
            .status_kib("VmHWM:")
            .expect("the server's peak memory can be read (/proc/PID/status, VmHWM)");
        assert!(kb > 0, "a server uses some memory");
        kb / 1024
    }

    /// The server still serves and never panicked: [`Server::serves`], and no panic in its
    /// log.
    pub fn healthy(&mut self) {
        self.serves();
        let log = self.stderr();
        assert!(!log.contains("panicked"), "the server panicked:\n{log}");
    }

    /// The server still serves: alive, and a game is created.
    pub fn serves(&mut self) {
        assert!(
            self.child.try_wait().unwrap().is_none(),
            "the server process ended; stderr:\n{}",
            self.stderr()
        );
        let mut c = Raw::hello(&self.addr, "Health");
        let r = c.reply(&ClientMsg::Create {
            settings: settings(GameKind::Chess, None),
            request: None,
        });
        assert!(
            r.iter().any(|m| matches!(m, ServerMsg::State { .. })),
            "a new game can be created: {r:?}"
        );
    }

    /// Whether the process has ended (killed, or aborted by a fault).
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the process where it stands (SIGSTOP): its sockets stay open and say nothing, as
    /// a paused machine's would.
    pub fn pause(&self) {
        self.signal("STOP");
    }

    /// Lets a paused process go on (SIGCONT).
    pub fn resume(&self) {
        self.signal("CONT");
    }

    fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill -{name} {}", self.child.id());
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts the server again on the same address and database.
    pub fn restart(&mut self) {
        self.kill9();
        let opts: Vec<&str> = self.options.iter().map(String::as_str).collect();
        // The port was just freed; try a few times.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let r = std::panic::catch_unwind(|| Server::start_at(&self.addr, &self.db, &opts));
            match r {
                Ok(s) => {
                    let mut s = s;
                    std::mem::swap(&mut self.child, &mut s.child);
                    std::mem::forget(s);
                    return;
                }
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(200))
                }
                Err(e) => std::panic::resume_unwind(e),
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A paused process takes its SIGKILL too; continued first all the same.
        let _ = Command::new("kill")
            .arg("-CONT")
            .arg(self.child.id().to_string())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(p) = &self.log {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A TCP proxy on loopback that forwards to `target` and can cut every connection it carries.
pub struct Proxy {
    /// Where clients connect.
    pub addr: String,
    cut: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    /// Starts a proxy to `target`.
    pub fn start(target: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let cut = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let target = target.to_string();
        let (c, s) = (Arc::clone(&cut), Arc::clone(&stop));
        listener.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let Ok(server) = TcpStream::connect(&target) else {
                            continue;
                        };
                        let generation = c.load(Ordering::Relaxed);
                        for (mut from, mut to) in [
                            (client.try_clone().unwrap(), server.try_clone().unwrap()),
                            (server, client),
                        ] {
                            let c = Arc::clone(&c);
                            std::thread::spawn(move || {
                                let _ = from.set_read_timeout(Some(Duration::from_millis(20)));
                                let mut buf = [0u8; 8192];
                                loop {
                                    if c.load(Ordering::Relaxed) != generation {
                                        break;
                                    }
                                    match from.read(&mut buf) {
                                        Ok(0) => break,
                                        Ok(n) => {
                                            if to.write_all(&buf[..n]).is_err() {
                                                break;
                                            }
                                        }
                                        Err(e)
                                            if e.kind() == std::io::ErrorKind::WouldBlock
                                                || e.kind() == std::io::ErrorKind::TimedOut => {}
                                        Err(_) => break,
                                    }
                                }
                                let _ = from.shutdown(std::net::Shutdown::Both);
                                let _ = to.shutdown(std::net::Shutdown::Both);
                            });
                        }
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Proxy { addr, cut, stop }
    }

    /// Cuts every connection now (new ones go through).
    pub fn cut(&self) {
        self.cut.fetch_add(1, Ordering::Relaxed);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.cut();
    }
}

/// A balancer in front of several instances, as a load balancer with health checks would be:
/// each new connection goes to the first instance in the list that answers its health check
/// (an HTTP request for `/`, answered within half a second, checked every 150 ms), so all go
/// to the first while it lives and answers, then to the next. A paused instance accepts
/// connections (the kernel does) but answers nothing: the health check sees it.
pub struct Balancer {
    /// Where clients connect.
    pub addr: String,
    stop: Arc<AtomicBool>,
}

/// Whether a server at `addr` answers an HTTP request for `/` within half a second.
pub fn answers(addr: &str) -> bool {
    answers_within(addr, Duration::from_millis(500))
}

/// Whether a server at `addr` answers an HTTP request for `/` within `limit`.
pub fn answers_within(addr: &str, limit: Duration) -> bool {
    let Ok(sock) = addr.parse::<std::net::SocketAddr>() else {
        return false;
    };
    let Ok(mut s) = TcpStream::connect_timeout(&sock, limit) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(limit));
    let _ = s.set_write_timeout(Some(limit));
    if s.write_all(b"GET / HTTP/1.1\r\nHost: health\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut buf = [0u8; 12];
    s.read_exact(&mut buf).is_ok() && buf.starts_with(b"HTTP/1.1 200")
}

impl Balancer {
    /// Starts a balancer over `backends`.
    pub fn start(backends: Vec<String>) -> Balancer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let healthy = Arc::new(Mutex::new(vec![true; backends.len()]));
        // Each backend checked on its own, so that a paused one does not delay the others'
        // checks; a second to answer, as a loaded machine may need (a paused one never does).
        for (i, b) in backends.iter().enumerate() {
            let (stop, healthy, b) = (Arc::clone(&stop), Arc::clone(&healthy), b.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let ok = answers_within(&b, Duration::from_millis(1_000));
                    healthy.lock().unwrap()[i] = ok;
                    std::thread::sleep(Duration::from_millis(150));
                }
            });
        }
        let s = Arc::clone(&stop);
        listener.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let Ok((client, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                let _ = client.set_nonblocking(false);
                let up = healthy.lock().unwrap().clone();
                // The healthy ones first; when none looks healthy, any that takes the
                // connection (as a real balancer does with every upstream down).
                let Some(server) = backends
                    .iter()
                    .zip(up.iter())
                    .filter(|(_, ok)| **ok)
                    .chain(backends.iter().zip(up.iter()).filter(|(_, ok)| !**ok))
                    .find_map(|(b, _)| TcpStream::connect(b).ok())
                else {
                    continue;
                };
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = from.shutdown(std::net::Shutdown::Both);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Balancer { addr, stop }
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A raw protocol client: sends and reads JSON text.
pub struct Raw {
    /// The WebSocket itself (a probe may write to it by hand).
    pub ws: tungstenite::WebSocket<TcpStream>,
    /// Every text received, in order.
    pub seen: Vec<String>,
    /// The token it greeted with.
    pub token: String,
    /// The last ping's number.
    nonce: u64,
}

/// What a read gave.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Next {
    /// A message.
    Msg(ServerMsg),
    /// The connection closed (a close frame, an error or end of stream).
    Closed,
    /// Nothing within the time.
    Silent,
}

impl Raw {
    /// Connects without saying hello.
    pub fn connect(addr: &str) -> Raw {
        Raw::connect_with(addr, &[])
    }

    /// Connects without saying hello, with extra request headers (a proxy's, say).
    pub fn connect_with(addr: &str, headers: &[(&'static str, &str)]) -> Raw {
        use tungstenite::client::IntoClientRequest;
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        for (name, value) in headers {
            req.headers_mut().insert(*name, value.parse().unwrap());
        }
        let (ws, _) = tungstenite::client::client(req, stream).unwrap();
        Raw {
            ws,
            seen: Vec::new(),
            token: token::generate(),
            nonce: 1_000_000,
        }
    }

    /// Connects and says hello with a new token.
    pub fn hello(addr: &str, name: &str) -> Raw {
        Raw::hello_as(addr, name, &token::generate())
    }

    /// Connects and says hello with `token` (the same player on two connections).
    pub fn hello_as(addr: &str, name: &str, token: &str) -> Raw {
        let mut r = Raw::connect(addr);
        r.token = token.to_string();
        let t = r.token.clone();
        r.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            token: t,
            name: name.into(),
        });
        match r.recv() {
            Some(ServerMsg::Welcome { .. }) => {}
            other => panic!("no welcome: {other:?}"),
        }
        r
    }

    /// Sends a message.
    pub fn send(&mut self, m: &ClientMsg) {
        self.send_text(&serde_json::to_string(m).unwrap());
    }

    /// Sends raw text (a connection the server has closed takes nothing; the next read says
    /// so).
    pub fn send_text(&mut self, t: &str) {
        let _ = self.ws.send(tungstenite::Message::text(t));
    }

    /// Sends a binary frame.
    pub fn send_binary(&mut self, b: Vec<u8>) {
        let _ = self.ws.send(tungstenite::Message::Binary(b.into()));
    }

    /// A text frame with any bytes (invalid UTF-8 too).
    pub fn send_raw_text_frame(&mut self, bytes: Vec<u8>) {
        use tungstenite::protocol::frame::coding::{Data, OpCode};
        use tungstenite::protocol::frame::Frame;
        let _ = self.ws.send(tungstenite::Message::Frame(Frame::message(
            bytes,
            OpCode::Data(Data::Text),
            true,
        )));
    }

    /// The next message (None: closed or nothing within 30 s).
    pub fn recv(&mut self) -> Option<ServerMsg> {
        match self.next(Duration::from_secs(30)) {
            Next::Msg(m) => Some(m),
            Next::Closed | Next::Silent => None,
        }
    }

    /// What the next read gives within `within`.
    pub fn next(&mut self, within: Duration) -> Next {
        let _ = self.ws.get_ref().set_read_timeout(Some(within));
        loop {
            match self.ws.read() {
                Ok(tungstenite::Message::Text(t)) => {
                    self.seen.push(t.to_string());
                    let m: ServerMsg = serde_json::from_str(t.as_str())
                        .unwrap_or_else(|e| panic!("the server's JSON does not read ({e}): {t}"));
                    return Next::Msg(m);
                }
                Ok(tungstenite::Message::Close(_)) => return Next::Closed,
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut =>
                {
                    return Next::Silent
                }
                Err(_) => return Next::Closed,
            }
        }
    }

    /// Everything the server sends up to the pong of a ping sent right after: the answer to
    /// what was just sent (the server handles a connection's messages in order).
    pub fn flush(&mut self) -> Vec<ServerMsg> {
        self.nonce += 1;
        let n = self.nonce;
        self.send(&ClientMsg::Ping { nonce: n });
        let mut out = Vec::new();
        loop {
            match self.next(Duration::from_secs(60)) {
                Next::Msg(ServerMsg::Pong { nonce, .. }) if nonce == n => return out,
                Next::Msg(m) => out.push(m),
                other => panic!("{other:?} while waiting for pong {n}; got {out:?}"),
            }
        }
    }

    /// Sends `m` and returns the server's answer to it ([`Raw::flush`]).
    pub fn reply(&mut self, m: &ClientMsg) -> Vec<ServerMsg> {
        self.send(m);
        self.flush()
    }

    /// Sends raw text and returns the answer.
    pub fn reply_text(&mut self, t: &str) -> Vec<ServerMsg> {
        self.send_text(t);
        self.flush()
    }

    /// The error of a reply (exactly one expected).
    pub fn error_of(&mut self, m: &ClientMsg) -> ErrorCode {
        let r = self.reply(m);
        let errors: Vec<ErrorCode> = r
            .iter()
            .filter_map(|x| match x {
                ServerMsg::Error { error, .. } => Some(*error),
                _ => None,
            })
            .collect();
        match errors[..] {
            [e] => e,
            _ => panic!("{m:?}: expected one error, got {r:?}"),
        }
    }

    /// The state a reply brings.
    pub fn state_of(&mut self, m: &ClientMsg) -> GameState {
        let r = self.reply(m);
        r.into_iter()
            .find_map(|m| match m {
                ServerMsg::State { state } => Some(state),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{m:?}: no state"))
    }

    /// The game as this player sees it.
    pub fn look(&mut self, code: &str) -> GameState {
        self.state_of(&ClientMsg::Open {
            code: code.into(),
            since: None,
        })
    }

    /// Reads until a Bye (or close): the reason, or None when closed without one.
    pub fn bye(&mut self) -> Option<CloseReason> {
        loop {
            match self.next(Duration::from_secs(30)) {
                Next::Msg(ServerMsg::Bye { reason, .. }) => return Some(reason),
                Next::Msg(_) => {}
                Next::Closed | Next::Silent => return None,
            }
        }
    }

    /// Reads until a message matches `f` (panics after 30 s of nothing).
    pub fn until(&mut self, mut f: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            match self.recv() {
                Some(m) if f(&m) => return m,
                Some(_) => continue,
                None => panic!(
                    "closed or silent before the expected message; seen: {:?}",
                    self.seen
                ),
            }
        }
    }

    /// Reads the next error message.
    pub fn error(&mut self) -> (takhte_protocol::ErrorCode, String) {
        match self.until(|m| matches!(m, ServerMsg::Error { .. })) {
            ServerMsg::Error { error, message, .. } => (error, message),
            _ => unreachable!(),
        }
    }

    /// Reads the next state message.
    pub fn state(&mut self) -> takhte_protocol::GameState {
        match self.until(|m| matches!(m, ServerMsg::State { .. })) {
            ServerMsg::State { state } => state,
            _ => unreachable!(),
        }
    }
}

/// Settings of a private game.
pub fn settings(kind: GameKind, clock: Option<ClockSpec>) -> GameSettings {
    GameSettings {
        kind,
        clock,
        colour: ColourChoice::White,
        public: false,
        position: None,
        spectators: false,
        audience: false,
        rated: false,
    }
}

/// A bot's configuration.
pub fn bot_config(addr: &str, name: &str, level: u8, role: BotRole) -> BotConfig {
    BotConfig {
        address: addr.to_string(),
        token: token::generate(),
        name: name.to_string(),
        level,
        movetime_ms: 20,
        delay_ms: 0,
        role,
        timeout: Duration::from_secs(240),
        on_code: None,
        max_own_moves: None,
        extra_roots: Vec::new(),
    }
}

/// Starts a game between two bots, each on a thread of its own: `a` creates it with
/// `settings`, `b` joins with the code `a` got. Returns the code and the two threads.
pub fn start_bot_game(
    mut a: BotConfig,
    mut b: BotConfig,
    settings: GameSettings,
) -> (
    String,
    std::thread::JoinHandle<BotReport>,
    std::thread::JoinHandle<BotReport>,
) {
    a.role = BotRole::Create(settings);
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    a.on_code = Some(Arc::new(move |c: &str| {
        let _ = tx.lock().unwrap().send(c.to_string());
    }));
    let ha = std::thread::spawn(move || bot::play(a).expect("the creating bot plays"));
    let code = rx.recv_timeout(Duration::from_secs(60)).expect("a code");
    b.role = BotRole::Join(code.clone());
    let hb = std::thread::spawn(move || bot::play(b).expect("the joining bot plays"));
    (code, ha, hb)
}

/// Plays one game between two bots: `a` creates with `settings`, `b` joins. Returns both
/// reports.
pub fn bot_game(a: BotConfig, b: BotConfig, settings: GameSettings) -> (BotReport, BotReport) {
    let (_, ha, hb) = start_bot_game(a, b, settings);
    (ha.join().unwrap(), hb.join().unwrap())
}

/// Reads until the game ends; how it ended.
pub fn ended(r: &mut Raw) -> takhte_protocol::EndState {
    match r.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Ended { .. },
                ..
            }
        )
    }) {
        ServerMsg::Event {
            event: GameEvent::Ended { end, .. },
            ..
        } => end,
        _ => unreachable!(),
    }
}

/// Waits (up to 60 s) until at least `n` moves of the game are stored, or it has ended.
pub fn wait_moves(db: &Path, code: &str, n: usize) {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let r = stored(db, code);
        if r.moves.len() >= n || r.end.is_some() {
            return;
        }
        assert!(Instant::now() < end, "move {n} not stored within 60 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A fresh cluster name (its channels in Redis are its own).
pub fn cluster_name() -> String {
    format!("t{:08x}", rand::random::<u32>())
}

/// An instance of the cluster `name` on `db` and `redis`.
pub fn instance(db: &str, redis: &str, name: &str, env: &[(&str, &str)]) -> Server {
    Server::start_env(
        "127.0.0.1:0",
        std::path::Path::new(db),
        &["--redis", redis, "--cluster", name, "--msgs-per-sec", "200"],
        env,
    )
}

/// Every game stored in the PostgreSQL database `db`.
pub fn records_pg(db: &str) -> Vec<takhte_server::game::GameRecord> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (client, conn) = tokio_postgres::connect(db, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        let rows = client.query("SELECT record FROM games", &[]).await.unwrap();
        rows.iter()
            .map(|r| serde_json::from_str(r.get::<_, &str>(0)).unwrap())
            .collect()
    })
}

/// The stored record of a game, read straight from the SQLite file.
pub fn stored(db: &Path, code: &str) -> takhte_server::game::GameRecord {
    let conn = rusqlite::Connection::open(db).unwrap();
    // The server may be writing at the same moment.
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let json: String = conn
        .query_row("SELECT record FROM games WHERE code = ?1", [code], |r| {
            r.get(0)
        })
        .unwrap();
    serde_json::from_str(&json).unwrap()
}

/// Nothing lost, nothing made up, nothing twice, for a game whose stored moves are `stored`
/// and whose clients reported `reports`:
/// - every move a client was told of (each `moved` event, each state's moves) is the stored
///   move at that ply;
/// - every stored move was told to at least one of them;
/// - every client's events came once each and in order (each one number after the last
///   event or state it had);
/// - each client that saw the game to its end has the stored game.
pub fn check_told(label: &str, stored: &[String], reports: &[&BotReport]) {
    for (i, r) in reports.iter().enumerate() {
        for (ply, mv) in r.moved.iter().chain(&r.from_states) {
            assert_eq!(
                stored.get(*ply as usize),
                Some(mv),
                "{label}: client {i} was told {mv} at ply {ply}; stored: {stored:?}"
            );
        }
        check_order(&format!("{label}: client {i}"), &r.seqs);
        if r.end.is_some() {
            assert_eq!(
                r.moves, stored,
                "{label}: client {i} ended with another game"
            );
        }
    }
    for (ply, mv) in stored.iter().enumerate() {
        let told = reports.iter().any(|r| {
            r.moved
                .iter()
                .chain(&r.from_states)
                .any(|(p, m)| *p as usize == ply && m == mv)
        });
        assert!(
            told,
            "{label}: the stored move {mv} at ply {ply} was told to nobody"
        );
    }
}

/// The numbers of the events (and states) a client was sent, in the order it got them: each
/// event one after what it had. A state (whose number may stand anywhere at or after what the
/// client had) is told apart by `BotReport::seqs` holding it too; an event with a number at
/// or below the last one is an event twice, one more than one above it a lost event.
pub fn check_order(label: &str, seqs: &[(u64, bool)]) {
    let mut last: Option<u64> = None;
    for (i, (seq, state)) in seqs.iter().enumerate() {
        if let (Some(l), false) = (last, *state) {
            assert_eq!(
                *seq,
                l + 1,
                "{label}: event {seq} came after {l} (item {i} of {seqs:?})"
            );
        }
        last = Some(*seq);
    }
}

/// The stored record, read from PostgreSQL.
pub fn record_pg(db: &str, code: &str) -> takhte_server::game::GameRecord {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (client, conn) = tokio_postgres::connect(db, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        let row = client
            .query_one("SELECT record FROM games WHERE code = $1", &[&code])
            .await
            .unwrap();
        serde_json::from_str(row.get::<_, &str>(0)).unwrap()
    })
}

/// The one error of a reply, if it is only that.
pub fn only_error(r: &[ServerMsg]) -> Option<ErrorCode> {
    match r {
        [ServerMsg::Error { error, .. }] => Some(*error),
        _ => None,
    }
}

/// The events of a reply.
pub fn events(r: &[ServerMsg]) -> Vec<GameEvent> {
    r.iter()
        .filter_map(|m| match m {
            ServerMsg::Event { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// A move of game `code` at `ply`.
pub fn mv(code: &str, ply: u32, m: &str) -> ClientMsg {
    ClientMsg::Move {
        code: code.into(),
        ply,
        mv: m.into(),
    }
}

/// A started game: White created it with `s`, Black joined. (white, black, code)
pub fn table(addr: &str, s: GameSettings) -> (Raw, Raw, String) {
    let mut w = Raw::hello(addr, "White");
    let code = w
        .state_of(&ClientMsg::Create {
            settings: s,
            request: None,
        })
        .code;
    let mut b = Raw::hello(addr, "Black");
    let st = b.state_of(&ClientMsg::Join { code: code.clone() });
    assert_eq!(st.you, Some(takhte_rules::Side::Black));
    w.flush();
    (w, b, code)
}

/// Settings of a public game that spectators may watch (an audience game if `audience`).
pub fn watched(kind: GameKind, clock: Option<ClockSpec>, audience: bool) -> GameSettings {
    GameSettings {
        kind,
        clock,
        colour: ColourChoice::White,
        public: true,
        position: None,
        spectators: true,
        audience,
        rated: false,
    }
}

/// The refusals two bots were given (but for being too fast).
pub fn refusals<'a>(reports: &[&'a BotReport]) -> Vec<&'a String> {
    reports
        .iter()
        .flat_map(|r| r.errors.iter())
        .filter(|e| !e.starts_with("RateLimited"))
        .collect()
}
