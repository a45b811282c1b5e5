//! The network client of the app and the headless bots: one WebSocket to the game server on a
//! thread of its own, which reconnects by itself.
//!
//! The caller sends [`ClientMsg`]s with [`Client::send`] and reads [`ClientEvent`]s (the
//! server's messages and changes of the connection) with [`Client::try_recv`] or
//! [`Client::recv_timeout`]. Messages sent while the connection is down wait and go out once
//! it is back. After a reconnection the thread says `hello` again, reopens every game it had
//! open with the number of the last event it saw (so the server sends only what was missed),
//! and sends again every move the server has not confirmed yet (the ply makes that harmless).
//!
//! Encrypted (`wss://`) or plain (`ws://`) as the address says ([`crate::address`]); the
//! certificate is checked ([`crate::tls`]), and a problem with it stops the client with the
//! reason instead of trying again, never falling back to a plain connection.

use std::collections::VecDeque;
use std::io::ErrorKind;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use takhte_protocol::{ClientMsg, CloseReason, ErrorCode, ServerMsg};

use crate::book::Book;
use crate::tls::{Recording, Stream};
use crate::transport::Transport;

/// How often the client pings the server (the server answers each ping with a pong).
const PING_EVERY: Duration = Duration::from_secs(1);
/// Silence after which the connection counts as lost: a dead Wi-Fi, or a server that stopped
/// answering without closing its sockets (a paused process or machine), gives no error. The
/// client then connects again (through a balancer, to another instance) and resends the
/// moves not confirmed: a server that stops answering costs a player about this much of
/// their clock, not more.
pub const SILENCE_LIMIT: Duration = Duration::from_millis(2_500);
/// How long connecting and the handshakes may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a read waits before the thread looks at its outbox again.
const POLL: Duration = Duration::from_millis(10);
/// The longest wait between two tries.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

pub use crate::transport::{ClientEvent, ConnState, Fatal, TlsProblem};

pub use crate::address::{ServerAddress, DEFAULT_PORT};

/// The environment variable naming a PEM file of certificate authorities to trust besides the
/// public ones (a club's own authority, a test's).
pub const TLS_ROOTS_ENV: &str = "TAKHTE_TLS_ROOTS";

/// The authorities of [`TLS_ROOTS_ENV`], as DER (none when it is not set or does not read).
pub fn extra_roots_from_env() -> Vec<Vec<u8>> {
    std::env::var_os(TLS_ROOTS_ENV)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|pem| crate::tls::pem_certificates(&pem).ok())
        .unwrap_or_default()
}

/// A function the client calls with text (the raw text of a server message, a game's code).
pub type TextHook = Arc<dyn Fn(&str) + Send + Sync>;

/// What the client needs to know.
#[derive(Clone)]
pub struct ClientConfig {
    /// The server address (see [`ServerAddress::parse`]).
    pub address: String,
    /// The player token.
    pub token: String,
    /// The display name.
    pub name: String,
    /// Called (on the client's thread) after each event is queued, to wake the reader.
    pub wake: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Called with the raw text of every message from the server (tests read them all).
    pub tap: Option<TextHook>,
    /// Certificate authorities (DER) trusted besides the public ones, for `wss://`.
    pub extra_roots: Vec<Vec<u8>>,
}

enum Command {
    Send(ClientMsg),
    Shutdown,
}

/// A connection to the game server, kept up by a thread.
pub struct Client {
    commands: Sender<Command>,
    events: Receiver<ClientEvent>,
    thread: Option<JoinHandle<()>>,
}

impl Client {
    /// Starts the client thread; it connects at once.
    pub fn start(config: ClientConfig) -> Client {
        let (ctx, crx) = channel();
        let (etx, erx) = channel();
        let thread = std::thread::Builder::new()
            .name("takhte-net".into())
            .spawn(move || Worker::new(config, crx, etx).run())
            .ok();
        Client {
            commands: ctx,
            events: erx,
            thread,
        }
    }

    /// Sends a message (now, or once the connection is back).
    pub fn send(&self, msg: ClientMsg) {
        let _ = self.commands.send(Command::Send(msg));
    }

    /// The next event, if one is waiting.
    pub fn try_recv(&self) -> Option<ClientEvent> {
        self.events.try_recv().ok()
    }

    /// The next event, waiting up to `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<ClientEvent> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }
}

impl Transport for Client {
    fn send(&self, msg: ClientMsg) {
        Client::send(self, msg)
    }

    fn try_recv(&self) -> Option<ClientEvent> {
        Client::try_recv(self)
    }

    fn recv_timeout(&self, timeout: Duration) -> Option<ClientEvent> {
        Client::recv_timeout(self, timeout)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

type Socket = WebSocket<Stream>;

enum Outcome {
    /// Try again later.
    Lost(String),
    /// Stop for good.
    Fatal(Fatal),
    /// The user asked to stop.
    Shutdown,
}

struct Worker {
    config: ClientConfig,
    commands: Receiver<Command>,
    events: Sender<ClientEvent>,
    /// Messages waiting for a connection.
    outbox: VecDeque<ClientMsg>,
    /// What to send again after a reconnection.
    book: Book,
}

impl Worker {
    fn new(
        config: ClientConfig,
        commands: Receiver<Command>,
        events: Sender<ClientEvent>,
    ) -> Worker {
        let book = Book::new(&config.token, &config.name);
        Worker {
            config,
            commands,
            events,
            outbox: VecDeque::new(),
            book,
        }
    }

    fn emit(&self, e: ClientEvent) {
        let _ = self.events.send(e);
        if let Some(w) = &self.config.wake {
            w();
        }
    }

    fn run(mut self) {
        let address = match ServerAddress::parse(&self.config.address) {
            Ok(a) => a,
            Err(e) => {
                self.emit(ClientEvent::Conn(ConnState::Failed(Fatal::BadAddress(e))));
                return;
            }
        };
        self.emit(ClientEvent::Conn(ConnState::Connecting));
        let mut attempt = 0u32;
        loop {
            let outcome = match connect(&address, &self.config.extra_roots) {
                Ok(ws) => self.session(ws, &mut attempt),
                Err(o) => o,
            };
            match outcome {
                Outcome::Shutdown => return,
                Outcome::Fatal(f) => {
                    self.emit(ClientEvent::Conn(ConnState::Failed(f)));
                    // Stay alive only to be shut down (sending is pointless now).
                    while let Ok(c) = self.commands.recv() {
                        if matches!(c, Command::Shutdown) {
                            return;
                        }
                    }
                    return;
                }
                Outcome::Lost(error) => {
                    attempt += 1;
                    self.emit(ClientEvent::Conn(ConnState::Reconnecting {
                        attempt,
                        error,
                    }));
                    let wait = backoff(attempt);
                    let until = Instant::now() + wait;
                    // Keep taking commands while waiting.
                    loop {
                        let left = until.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            break;
                        }
                        match self.commands.recv_timeout(left) {
                            Ok(Command::Shutdown) => return,
                            Ok(Command::Send(m)) => self.queue(m),
                            Err(RecvTimeoutError::Timeout) => break,
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                }
            }
        }
    }

    /// Notes what a message means for reconnection, then queues it.
    fn queue(&mut self, m: ClientMsg) {
        self.book.sent(&m);
        self.outbox.push_back(m);
    }

    /// One connection, from greeting to loss.
    fn session(&mut self, mut ws: Socket, attempt: &mut u32) -> Outcome {
        if let Err(e) = send(&mut ws, &self.book.hello()) {
            return Outcome::Lost(e);
        }
        // Wait for the welcome.
        let deadline = Instant::now() + CONNECT_TIMEOUT;
        let welcome = loop {
            if Instant::now() > deadline {
                return Outcome::Lost("no answer to hello".into());
            }
            match read(&mut ws, &self.config.tap) {
                Ok(Some(w @ ServerMsg::Welcome { .. })) => break w,
                Ok(Some(ServerMsg::Bye { reason, message })) => return bye(reason, message),
                Ok(Some(ServerMsg::Error {
                    error: ErrorCode::Protocol,
                    ..
                })) => return Outcome::Fatal(Fatal::Protocol { server: None }),
                Ok(Some(other)) => self.emit(ClientEvent::Msg(other)),
                Ok(None) => {}
                Err(e) => return Outcome::Lost(e),
            }
        };
        *attempt = 0;
        self.emit(ClientEvent::Conn(ConnState::Connected));
        // The welcome too: the player's public id, the server's claim wait.
        self.emit(ClientEvent::Msg(welcome));
        // Reopen the games (join again where the join has not been answered), resend the
        // moves not confirmed yet, then what waited. Queued opens, joins and moves are covered
        // by these.
        self.outbox.retain(|m| !Book::covered(m));
        for m in self.book.resume() {
            if let Err(e) = send(&mut ws, &m) {
                return Outcome::Lost(e);
            }
        }
        let mut last_heard = Instant::now();
        let mut last_ping = Instant::now();
        let mut nonce = 0u64;
        loop {
            // Commands first.
            loop {
                match self.commands.try_recv() {
                    Ok(Command::Shutdown) => {
                        let _ = ws.close(None);
                        let _ = ws.flush();
                        return Outcome::Shutdown;
                    }
                    Ok(Command::Send(m)) => self.queue(m),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return Outcome::Shutdown,
                }
            }
            while let Some(m) = self.outbox.pop_front() {
                if let Err(e) = send(&mut ws, &m) {
                    self.outbox.push_front(m);
                    return Outcome::Lost(e);
                }
            }
            if last_ping.elapsed() >= PING_EVERY {
                nonce += 1;
                last_ping = Instant::now();
                if let Err(e) = send(&mut ws, &ClientMsg::Ping { nonce }) {
                    return Outcome::Lost(e);
                }
            }
            if last_heard.elapsed() >= SILENCE_LIMIT {
                return Outcome::Lost(format!(
                    "the server has not answered for {} ms",
                    SILENCE_LIMIT.as_millis()
                ));
            }
            match read(&mut ws, &self.config.tap) {
                Ok(Some(msg)) => {
                    last_heard = Instant::now();
                    if let Some(o) = self.take_in(&msg) {
                        return o;
                    }
                    self.emit(ClientEvent::Msg(msg));
                }
                Ok(None) => {}
                Err(e) => return Outcome::Lost(e),
            }
        }
    }

    /// Keeps the reconnection book up to date; a goodbye ends the connection.
    fn take_in(&mut self, msg: &ServerMsg) -> Option<Outcome> {
        self.book.received(msg);
        if let ServerMsg::Bye { reason, message } = msg {
            let o = bye(*reason, message.clone());
            self.emit(ClientEvent::Msg(msg.clone()));
            return Some(o);
        }
        None
    }
}

fn bye(reason: CloseReason, message: String) -> Outcome {
    match reason {
        CloseReason::Protocol => Outcome::Fatal(Fatal::Protocol { server: None }),
        CloseReason::TooManyConnections | CloseReason::TooManyErrors | CloseReason::TooLarge => {
            Outcome::Fatal(Fatal::Closed(reason))
        }
        CloseReason::RateLimited | CloseReason::Idle | CloseReason::Shutdown => {
            Outcome::Lost(message)
        }
    }
}

fn backoff(attempt: u32) -> Duration {
    let base = Duration::from_millis(250) * 2u32.saturating_pow(attempt.min(5).saturating_sub(1));
    let jitter = Duration::from_millis(rand::random::<u64>() % 250);
    (base + jitter).min(MAX_BACKOFF)
}

/// Connects to the server: the socket, the TLS handshake for `wss://`, the WebSocket's.
/// A TLS problem is for good (`Fatal`); anything else is tried again (`Lost`).
fn connect(address: &ServerAddress, extra_roots: &[Vec<u8>]) -> Result<Socket, Outcome> {
    let lost = |e: String| Outcome::Lost(e);
    let addrs: Vec<_> = (address.host.as_str(), address.port)
        .to_socket_addrs()
        .map_err(|e| lost(format!("cannot find {}: {e}", address.host)))?
        .collect();
    let mut last = format!("no address for {}", address.host);
    for a in addrs {
        let tcp = match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
            Ok(tcp) => tcp,
            Err(e) => {
                last = format!("cannot connect to {a}: {e}");
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        tcp.set_read_timeout(Some(CONNECT_TIMEOUT))
            .map_err(|e| lost(e.to_string()))?;
        let first = Arc::new(std::sync::Mutex::new(Vec::new()));
        let stream = if address.secure {
            let config = crate::tls::client_config(extra_roots)
                .map_err(|e| Outcome::Fatal(Fatal::Tls(TlsProblem::Other(e))))?;
            match crate::tls::handshake(tcp, &address.host, config) {
                Ok(s) => s,
                Err(TlsProblem::Io(e)) => return Err(lost(e)),
                Err(p) => return Err(Outcome::Fatal(Fatal::Tls(p))),
            }
        } else {
            Stream::Plain(Recording {
                tcp,
                first: Arc::clone(&first),
            })
        };
        let config = WebSocketConfig::default()
            .max_message_size(Some(1 << 20))
            .max_frame_size(Some(1 << 20));
        let ws = match tungstenite::client::client_with_config(address.url(), stream, Some(config))
        {
            Ok((ws, _)) => ws,
            // A plain request answered in TLS: the server wants wss://.
            Err(_)
                if crate::tls::looks_like_tls(
                    &first.lock().map(|f| f.clone()).unwrap_or_default(),
                ) =>
            {
                return Err(Outcome::Fatal(Fatal::Tls(TlsProblem::NeedsTls)))
            }
            Err(e) => return Err(lost(format!("handshake with {}: {e}", address.url()))),
        };
        ws.get_ref()
            .tcp()
            .set_read_timeout(Some(POLL))
            .map_err(|e| lost(e.to_string()))?;
        return Ok(ws);
    }
    Err(lost(last))
}

fn send(ws: &mut Socket, msg: &ClientMsg) -> Result<(), String> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
    ws.send(Message::text(text)).map_err(|e| e.to_string())
}

/// One message, `None` when nothing came within the poll time (or a frame that is not a
/// message of ours came: pings are answered by the library).
fn read(ws: &mut Socket, tap: &Option<TextHook>) -> Result<Option<ServerMsg>, String> {
    match ws.read() {
        Ok(Message::Text(t)) => {
            if let Some(f) = tap {
                f(t.as_str());
            }
            serde_json::from_str(t.as_str())
                .map(Some)
                .map_err(|e| format!("unreadable message from the server: {e}"))
        }
        Ok(Message::Close(frame)) => Err(match frame {
            Some(f) => format!("the server closed the connection: {}", f.reason),
            None => "the server closed the connection".into(),
        }),
        Ok(_) => Ok(None),
        Err(tungstenite::Error::Io(e))
            if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::TimedOut =>
        {
            // Nothing within the poll time; flush anything a pong left pending.
            let _ = ws.flush();
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let a = ServerAddress::parse("[::1]:8000").unwrap();
        assert_eq!(a.url(), "ws://[::1]:8000/ws");
        assert_eq!(
            ServerAddress::parse("localhost:7000").unwrap().url(),
            "ws://localhost:7000/ws"
        );
        assert!(ServerAddress::parse("localhost:port").is_err());
        assert!(ServerAddress::parse("ftp://x").is_err());
        assert_eq!(
            ServerAddress::parse("۱۲۷.۰.۰.۱:۷۸۷۸").unwrap().url(),
            "ws://127.0.0.1:7878/ws"
        );
    }

    #[test]
    fn a_server_that_is_not_there_gives_reconnecting() {
        // A port nobody listens on (bind, read the port, close).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let c = Client::start(ClientConfig {
            address: format!("127.0.0.1:{port}"),
            token: takhte_protocol::token::generate(),
            name: String::new(),
            wake: None,
            tap: None,
            extra_roots: Vec::new(),
        });
        assert_eq!(
            c.recv_timeout(Duration::from_secs(5)),
            Some(ClientEvent::Conn(ConnState::Connecting))
        );
        match c.recv_timeout(Duration::from_secs(5)) {
            Some(ClientEvent::Conn(ConnState::Reconnecting { attempt: 1, error })) => {
                assert!(error.contains("cannot connect"), "{error}")
            }
            other => panic!("{other:?}"),
        }
    }
}
