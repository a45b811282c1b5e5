//! The HTTP side: the WebSocket route, a page for invite links, and the server's start.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;

use takhte_protocol::address::{app_link, ServerAddress};
use takhte_protocol::code;
use takhte_protocol::{PROTOCOL_VERSION, WS_PATH};

use crate::hub::Hub;
use crate::log;

/// The largest WebSocket message the library reads at all; [`crate::conn`] refuses anything
/// over the protocol's limit (4 KiB) with a reason. Well above it, so that an oversized message
/// is read whole and its sender told why before the close: closing with a message half read
/// resets the connection, and the reason would be lost. Past this the library's own error
/// closes it (conn.rs still tries to say why).
const HARD_LIMIT: usize = 1024 * 1024;
/// What may wait to be written to one client.
const WRITE_LIMIT: usize = 256 * 1024;

/// The routes.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route(WS_PATH, get(ws))
        .route("/", get(index))
        .route("/join/{code}", get(join_page))
        .route("/watch/{code}", get(crate::web::watch_page))
        .route("/app/{*file}", get(crate::web::app_file))
        .route("/sw.js", get(crate::web::site_file))
        .route("/manifest.en.webmanifest", get(crate::web::site_file))
        .route("/manifest.fa.webmanifest", get(crate::web::site_file))
        .route("/icons/{file}", get(crate::web::site_file))
        .with_state(hub)
}

async fn ws(
    upgrade: WebSocketUpgrade,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> impl IntoResponse {
    let ip = if hub.config.behind_proxy {
        forwarded_for(&headers).unwrap_or(addr.ip())
    } else {
        addr.ip()
    };
    // Small buffers: the library's default is 128 KiB each way per connection, which at
    // thousands of connections is most of the server's memory; our messages are a few KiB.
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(WRITE_LIMIT)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| crate::conn::run(socket, ip, hub))
}

/// The client's address a reverse proxy passed on: the last entry of `X-Forwarded-For` (the
/// one the proxy itself added; earlier ones are whatever the client claimed).
fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let last = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .last()?;
    last.trim().parse().ok()
}

async fn index(State(hub): State<Arc<Hub>>) -> axum::response::Response {
    if let Some(page) = crate::web::app_page(&hub).await {
        return page;
    }
    format!("Takhte game server (protocol {PROTOCOL_VERSION}). The app connects to {WS_PATH}.\n")
        .into_response()
}

/// This server as the request reached it: its name from the `Host` header, encrypted when it
/// serves TLS itself or a proxy in front says it was reached with `https`
/// (`X-Forwarded-Proto`).
fn reached_as(hub: &Hub, headers: &axum::http::HeaderMap) -> Option<ServerAddress> {
    let host = headers.get("host")?.to_str().ok()?;
    let forwarded_https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let scheme = if hub.config.tls || forwarded_https {
        "https"
    } else {
        "http"
    };
    ServerAddress::parse(&format!("{scheme}://{host}")).ok()
}

/// The page an invite link opens in a browser: the code, and a link into the app that names
/// this server and how it was reached (so that the friend connects the same way).
async fn join_page(
    Path(code): Path<String>,
    headers: axum::http::HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> axum::response::Response {
    // With the browser version: the app itself, which joins the game.
    if let Some(page) = crate::web::app_page(&hub).await {
        return page;
    }
    let code = code::normalize(&code).unwrap_or_default();
    let link = match reached_as(&hub, &headers) {
        Some(server) => app_link(&code, &server),
        None => code::link(&code),
    };
    let body = if code.is_empty() {
        "<p>This invite link is not valid. / این پیوند دعوت درست نیست.</p>".to_string()
    } else {
        format!(
            "<h1>Takhte · تخته</h1>\
             <p>Open this game in the Takhte app: <a href=\"{link}\">{link}</a></p>\
             <p>Or type the code in the app: <b>{code}</b></p>\
             <p dir=\"rtl\">این بازی را در برنامهٔ تخته باز کنید، یا این کد را در برنامه بنویسید: <b>{code}</b></p>"
        )
    };
    Html(format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Takhte</title></head><body>{body}</body></html>"
    ))
    .into_response()
}

/// Serves until the process ends: the routes, the clock ticker (with the heartbeat) and the
/// room eviction. With `tls`, every connection is encrypted (its handshake counts in the time
/// a request has).
pub async fn serve(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> std::io::Result<()> {
    let ticker = Arc::clone(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(50));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            ticker.tick().await;
            ticker.flush_crowds().await;
        }
    });
    // The heartbeat in the store, on a task of its own: a database that is slow to answer
    // must not hold up the clocks.
    let beater = Arc::clone(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(1));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            beater.beat().await;
        }
    });
    // Quick pairing: four rounds a second; every fourth also says the seekers are still here.
    let pairer = Arc::clone(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(250));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut round = 0u64;
        loop {
            every.tick().await;
            pairer.pair_round(round.is_multiple_of(4)).await;
            round += 1;
        }
    });
    let evictor = Arc::clone(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(30));
        loop {
            every.tick().await;
            evictor.evict(5 * 60_000).await;
        }
    });
    log!("serving games from {}", hub.store_name());
    // Sockets per address are counted from the moment they are accepted (a request that never
    // finishes its headers holds one), at twice the WebSocket limit and at least eight more (room
    // for handshakes and sockets still closing).
    let listener = Capped {
        inner: listener,
        tls: tls.map(tokio_rustls::TlsAcceptor::from),
        open: Arc::new(std::sync::Mutex::new(HashMap::new())),
        cap: if hub.config.behind_proxy {
            usize::MAX
        } else {
            (hub.config.max_conns_per_ip.saturating_mul(2)).max(hub.config.max_conns_per_ip + 8)
        },
    };
    // No Nagle delay: a move is one small message that should leave at once.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|io| {
        if let Some(tcp) = io.io.tcp() {
            let _ = tcp.set_nodelay(true);
        }
    });
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
}

/// Open sockets per client address.
type OpenSockets = Arc<std::sync::Mutex<HashMap<IpAddr, usize>>>;

/// A TCP listener that closes a new socket at once when its address already holds `cap`.
struct Capped {
    inner: tokio::net::TcpListener,
    /// The server's own TLS, if it has one.
    tls: Option<tokio_rustls::TlsAcceptor>,
    open: OpenSockets,
    cap: usize,
}

impl axum::serve::Listener for Capped {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let (tcp, addr) = axum::serve::Listener::accept(&mut self.inner).await;
            {
                let mut open = self
                    .open
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let n = open.entry(addr.ip()).or_default();
                if *n >= self.cap {
                    continue; // dropped: closed
                }
                *n += 1;
            }
            let io = Counted {
                io: match &self.tls {
                    Some(acceptor) => Io::Handshake(Box::new(acceptor.accept(tcp))),
                    None => Io::Plain(tcp),
                },
                ip: addr.ip(),
                open: Arc::clone(&self.open),
                answer_by: Some(Box::pin(tokio::time::sleep(REQUEST_WITHIN))),
                upgraded: false,
            };
            return (io, addr);
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// How long a socket has to send a whole request (the server answers it, with the WebSocket
/// upgrade or a page): from its opening, and again from each answer (a socket kept alive
/// for another request may idle or trickle no longer than that). A socket that is late is
/// closed. A WebSocket has limits of its own ([`crate::conn`]).
const REQUEST_WITHIN: Duration = Duration::from_secs(10);

/// A socket as the routes read it: plain, or encrypted (its handshake done on the first
/// read or write, so that a slow handshake holds up nobody else's).
enum Io {
    Plain(tokio::net::TcpStream),
    Handshake(Box<tokio_rustls::Accept<tokio::net::TcpStream>>),
    Tls(Box<tokio_rustls::server::TlsStream<tokio::net::TcpStream>>),
    /// The handshake failed: nothing more is read or written.
    Failed,
}

impl Io {
    /// The socket under it (none once a handshake failed).
    fn tcp(&self) -> Option<&tokio::net::TcpStream> {
        match self {
            Io::Plain(t) => Some(t),
            Io::Tls(t) => Some(t.get_ref().0),
            Io::Handshake(a) => a.get_ref(),
            Io::Failed => None,
        }
    }

    /// Drives the TLS handshake; ready once the stream can be read and written.
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        if let Io::Handshake(accept) = self {
            match Pin::new(accept.as_mut()).poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(stream)) => *self = Io::Tls(Box::new(stream)),
                Poll::Ready(Err(e)) => {
                    *self = Io::Failed;
                    return Poll::Ready(Err(e));
                }
            }
        }
        match self {
            Io::Failed => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "the TLS handshake failed",
            ))),
            _ => Poll::Ready(Ok(())),
        }
    }
}

/// An accepted socket, counted for its address until it closes.
struct Counted {
    io: Io,
    ip: IpAddr,
    open: OpenSockets,
    /// When reading gives up: the next request must be whole by then.
    answer_by: Option<Pin<Box<tokio::time::Sleep>>>,
    /// The socket is a WebSocket now (the server answered `101 Switching Protocols`).
    upgraded: bool,
}

impl Counted {
    /// The server wrote `first` (the start of what it wrote): an answer, or the switch to a
    /// WebSocket. The new time limit is polled once with the writer's context (the same task
    /// reads this socket), so that it wakes the task when it passes even if nothing more
    /// comes.
    fn answered(&mut self, first: &[u8], cx: &mut Context<'_>) {
        if self.upgraded {
            return;
        }
        if first.starts_with(b"HTTP/1.1 101") {
            self.upgraded = true;
            self.answer_by = None;
        } else {
            let mut by = Box::pin(tokio::time::sleep(REQUEST_WITHIN));
            let _ = by.as_mut().poll(cx);
            self.answer_by = Some(by);
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if let Some(by) = self.answer_by.as_mut() {
            if by.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "no whole request in time",
                )));
            }
        }
        if let Err(e) = std::task::ready!(self.io.poll_ready(cx)) {
            return Poll::Ready(Err(e));
        }
        match &mut self.io {
            Io::Plain(t) => Pin::new(t).poll_read(cx, buf),
            Io::Tls(t) => Pin::new(t.as_mut()).poll_read(cx, buf),
            _ => Poll::Ready(Ok(())),
        }
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if let Err(e) = std::task::ready!(self.io.poll_ready(cx)) {
            return Poll::Ready(Err(e));
        }
        let written = match &mut self.io {
            Io::Plain(t) => Pin::new(t).poll_write(cx, buf),
            Io::Tls(t) => Pin::new(t.as_mut()).poll_write(cx, buf),
            _ => Poll::Ready(Ok(0)),
        };
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            self.answered(buf, cx);
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.io {
            Io::Plain(t) => Pin::new(t).poll_flush(cx),
            Io::Tls(t) => Pin::new(t.as_mut()).poll_flush(cx),
            _ => Poll::Ready(Ok(())),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.io {
            Io::Plain(t) => Pin::new(t).poll_shutdown(cx),
            Io::Tls(t) => Pin::new(t.as_mut()).poll_shutdown(cx),
            _ => Poll::Ready(Ok(())),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        if let Err(e) = std::task::ready!(self.io.poll_ready(cx)) {
            return Poll::Ready(Err(e));
        }
        let written = match &mut self.io {
            Io::Plain(t) => Pin::new(t).poll_write_vectored(cx, bufs),
            Io::Tls(t) => Pin::new(t.as_mut()).poll_write_vectored(cx, bufs),
            _ => Poll::Ready(Ok(0)),
        };
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            let first = bufs
                .iter()
                .find(|b| !b.is_empty())
                .map_or(&[][..], |b| &b[..]);
            self.answered(first, cx);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        match &self.io {
            Io::Plain(t) => t.is_write_vectored(),
            Io::Tls(t) => t.is_write_vectored(),
            _ => false,
        }
    }
}
