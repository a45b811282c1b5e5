//! The browser's transport: the page's WebSocket, kept up like the native client — it greets,
//! reopens its games and resends what the server has not confirmed after every loss (the same
//! [`Book`]), pings every second, counts [`SILENCE_LIMIT`] of silence as a loss, and waits a
//! growing, jittered moment between tries. The browser does the encryption (`wss://` when the
//! address or the page says so) and checks the certificate itself.
//!
//! Everything runs on the page's one thread: the socket's callbacks and a timer queue events,
//! which the session takes with [`Transport::try_recv`] from the UI's timer.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use takhte_protocol::{ClientMsg, CloseReason, ErrorCode, ServerMsg};

use crate::address::ServerAddress;
use crate::book::Book;
use crate::transport::{ClientEvent, ConnState, Fatal, Transport};

/// How often the client pings the server.
const PING_EVERY_MS: f64 = 1_000.0;
/// Silence after which the connection counts as lost (as the native client's).
pub const SILENCE_LIMIT_MS: f64 = 2_500.0;
/// How long connecting and the greeting may take.
const CONNECT_TIMEOUT_MS: f64 = 5_000.0;
/// The longest wait between two tries.
const MAX_BACKOFF_MS: f64 = 5_000.0;
/// How often the timer looks at the connection.
const TICK_MS: i32 = 250;

/// What the browser's client needs to know.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The server address (see [`ServerAddress::parse`]).
    pub address: String,
    /// The player token.
    pub token: String,
    /// The display name.
    pub name: String,
}

/// A listener of the page's own events (its name and the closure it calls).
type PageListener = (
    &'static str,
    Closure<dyn FnMut(web_sys::PageTransitionEvent)>,
);

/// The page's WebSocket to the game server, reconnecting by itself.
pub struct WebTransport {
    inner: Rc<RefCell<Inner>>,
    tick: Option<(i32, Closure<dyn FnMut()>)>,
    /// The page's `pagehide` and `pageshow` listeners: the connection is closed when the page
    /// is left (a spectator who goes elsewhere stops counting at once), and made again when
    /// the browser brings the page back from its cache.
    page: Vec<PageListener>,
}

struct Inner {
    url: String,
    book: Book,
    outbox: VecDeque<ClientMsg>,
    events: VecDeque<ClientEvent>,
    ws: Option<WebSocket>,
    /// The socket's callbacks, kept alive as long as it is.
    handlers: Vec<Box<dyn std::any::Any>>,
    greeted: bool,
    /// When the current try began (ms, the page's clock).
    opened_at: f64,
    last_heard: f64,
    last_ping: f64,
    nonce: u64,
    attempt: u32,
    /// When to try again (ms), while waiting.
    retry_at: Option<f64>,
    /// When the timer last ran (a hidden tab's timers are slowed down by the browser).
    last_tick: f64,
    failed: bool,
    /// The page was left (`pagehide`): no socket, no tries, until it is shown again.
    left: bool,
}

/// The page's monotonic clock (ms): a change of the wall clock moves no deadline.
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

impl WebTransport {
    /// Starts connecting at once.
    pub fn start(config: WebConfig) -> WebTransport {
        let address = ServerAddress::parse(&config.address);
        let inner = Rc::new(RefCell::new(Inner {
            url: address.as_ref().map(|a| a.url()).unwrap_or_default(),
            book: Book::new(&config.token, &config.name),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            ws: None,
            handlers: Vec::new(),
            greeted: false,
            opened_at: 0.0,
            last_heard: 0.0,
            last_ping: 0.0,
            nonce: 0,
            attempt: 0,
            retry_at: None,
            last_tick: now_ms(),
            failed: false,
            left: false,
        }));
        if let Err(e) = address {
            let mut i = inner.borrow_mut();
            i.failed = true;
            i.events
                .push_back(ClientEvent::Conn(ConnState::Failed(Fatal::BadAddress(e))));
            drop(i);
            return WebTransport {
                inner,
                tick: None,
                page: Vec::new(),
            };
        }
        inner
            .borrow_mut()
            .events
            .push_back(ClientEvent::Conn(ConnState::Connecting));
        connect(&inner);
        let weak = Rc::downgrade(&inner);
        let tick = Closure::<dyn FnMut()>::new(move || {
            if let Some(inner) = weak.upgrade() {
                on_tick(&inner);
            }
        });
        let id = web_sys::window()
            .and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    TICK_MS,
                )
                .ok()
            })
            .unwrap_or(0);
        let page = page_listeners(&inner);
        WebTransport {
            inner,
            tick: Some((id, tick)),
            page,
        }
    }
}

/// Closes the connection when the page is left, and makes it again when the page comes back
/// from the browser's cache.
fn page_listeners(inner: &Rc<RefCell<Inner>>) -> Vec<PageListener> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let hide = Closure::<dyn FnMut(web_sys::PageTransitionEvent)>::new({
        let weak = Rc::downgrade(inner);
        move |_e: web_sys::PageTransitionEvent| {
            if let Some(inner) = weak.upgrade() {
                let mut i = inner.borrow_mut();
                i.left = true;
                i.retry_at = None;
                i.greeted = false;
                if let Some(ws) = i.ws.take() {
                    detach(&ws);
                    // (A page may close only with 1000 or 3000–4999: 1001 would throw.)
                    let _ = ws.close_with_code_and_reason(1000, "page left");
                }
            }
        }
    });
    let show = Closure::<dyn FnMut(web_sys::PageTransitionEvent)>::new({
        let weak = Rc::downgrade(inner);
        move |_e: web_sys::PageTransitionEvent| {
            if let Some(inner) = weak.upgrade() {
                let back = {
                    let mut i = inner.borrow_mut();
                    std::mem::replace(&mut i.left, false) && !i.failed
                };
                if back {
                    connect(&inner);
                }
            }
        }
    });
    let mut out = Vec::new();
    for (name, f) in [("pagehide", hide), ("pageshow", show)] {
        let _ = window.add_event_listener_with_callback(name, f.as_ref().unchecked_ref());
        out.push((name, f));
    }
    out
}

impl Drop for WebTransport {
    fn drop(&mut self) {
        if let (Some(w), Some((id, _))) = (web_sys::window(), &self.tick) {
            w.clear_interval_with_handle(*id);
        }
        if let Some(w) = web_sys::window() {
            for (name, f) in &self.page {
                let _ = w.remove_event_listener_with_callback(name, f.as_ref().unchecked_ref());
            }
        }
        let mut i = self.inner.borrow_mut();
        i.failed = true;
        if let Some(ws) = i.ws.take() {
            detach(&ws);
            let _ = ws.close();
        }
        i.handlers.clear();
    }
}

impl Transport for WebTransport {
    fn send(&self, msg: ClientMsg) {
        let mut i = self.inner.borrow_mut();
        i.book.sent(&msg);
        if i.greeted {
            if let Some(ws) = &i.ws {
                if put(ws, &msg) {
                    return;
                }
            }
        }
        i.outbox.push_back(msg);
    }

    fn try_recv(&self) -> Option<ClientEvent> {
        self.inner.borrow_mut().events.pop_front()
    }
}

fn put(ws: &WebSocket, msg: &ClientMsg) -> bool {
    ws.ready_state() == WebSocket::OPEN
        && serde_json::to_string(msg)
            .ok()
            .is_some_and(|t| ws.send_with_str(&t).is_ok())
}

fn detach(ws: &WebSocket) {
    ws.set_onopen(None);
    ws.set_onmessage(None);
    ws.set_onclose(None);
    ws.set_onerror(None);
}

/// One try: a new socket and its callbacks.
fn connect(inner: &Rc<RefCell<Inner>>) {
    let url = inner.borrow().url.clone();
    let ws = match WebSocket::new(&url) {
        Ok(ws) => ws,
        Err(e) => {
            let why = e
                .as_string()
                .unwrap_or_else(|| format!("cannot open {url}"));
            lost(inner, why);
            return;
        }
    };
    let weak = Rc::downgrade(inner);
    let on_open = Closure::<dyn FnMut()>::new({
        let weak = weak.clone();
        move || {
            if let Some(inner) = weak.upgrade() {
                let i = inner.borrow();
                if let Some(ws) = &i.ws {
                    put(ws, &i.book.hello());
                }
            }
        }
    });
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let weak = weak.clone();
        move |e: MessageEvent| {
            if let (Some(inner), Some(text)) = (weak.upgrade(), e.data().as_string()) {
                on_text(&inner, &text);
            }
        }
    });
    let on_close = Closure::<dyn FnMut(CloseEvent)>::new({
        let weak = weak.clone();
        move |e: CloseEvent| {
            if let Some(inner) = weak.upgrade() {
                let why = if e.reason().is_empty() {
                    format!("the connection closed ({})", e.code())
                } else {
                    format!("the server closed the connection: {}", e.reason())
                };
                lost(&inner, why);
            }
        }
    });
    ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    let mut i = inner.borrow_mut();
    i.handlers = vec![Box::new(on_open), Box::new(on_message), Box::new(on_close)];
    i.ws = Some(ws);
    i.greeted = false;
    i.opened_at = now_ms();
    i.retry_at = None;
}

/// A message from the server.
fn on_text(inner: &Rc<RefCell<Inner>>, text: &str) {
    let msg: ServerMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            lost(inner, format!("unreadable message from the server: {e}"));
            return;
        }
    };
    let mut i = inner.borrow_mut();
    i.last_heard = now_ms();
    if !i.greeted {
        match msg {
            ServerMsg::Welcome { .. } => {
                i.greeted = true;
                i.attempt = 0;
                i.last_ping = now_ms();
                i.events.push_back(ClientEvent::Conn(ConnState::Connected));
                i.events.push_back(ClientEvent::Msg(msg));
                // Reopen the games, resend the moves not confirmed, then what waited.
                i.outbox.retain(|m| !Book::covered(m));
                let mut out: Vec<ClientMsg> = i.book.resume();
                out.extend(i.outbox.drain(..));
                if let Some(ws) = i.ws.clone() {
                    for m in out {
                        put(&ws, &m);
                    }
                }
            }
            ServerMsg::Bye { reason, message } => {
                drop(i);
                bye(inner, reason, message);
            }
            ServerMsg::Error {
                error: ErrorCode::Protocol,
                ..
            } => {
                drop(i);
                fail(inner, Fatal::Protocol { server: None });
            }
            other => i.events.push_back(ClientEvent::Msg(other)),
        }
        return;
    }
    i.book.received(&msg);
    if let ServerMsg::Bye { reason, message } = &msg {
        let (reason, message) = (*reason, message.clone());
        i.events.push_back(ClientEvent::Msg(msg));
        drop(i);
        bye(inner, reason, message);
        return;
    }
    i.events.push_back(ClientEvent::Msg(msg));
}

fn bye(inner: &Rc<RefCell<Inner>>, reason: CloseReason, message: String) {
    match reason {
        CloseReason::Protocol => fail(inner, Fatal::Protocol { server: None }),
        CloseReason::TooManyConnections | CloseReason::TooManyErrors | CloseReason::TooLarge => {
            fail(inner, Fatal::Closed(reason))
        }
        CloseReason::RateLimited | CloseReason::Idle | CloseReason::Shutdown => {
            lost(inner, message)
        }
    }
}

/// Gives up for good.
fn fail(inner: &Rc<RefCell<Inner>>, fatal: Fatal) {
    let mut i = inner.borrow_mut();
    i.failed = true;
    if let Some(ws) = i.ws.take() {
        detach(&ws);
        let _ = ws.close();
    }
    i.events
        .push_back(ClientEvent::Conn(ConnState::Failed(fatal)));
}

/// The connection is lost: close what is left of it and try again after a wait.
fn lost(inner: &Rc<RefCell<Inner>>, error: String) {
    let mut i = inner.borrow_mut();
    if i.failed || i.left || i.retry_at.is_some() {
        return;
    }
    if let Some(ws) = i.ws.take() {
        detach(&ws);
        let _ = ws.close();
    }
    i.greeted = false;
    i.attempt += 1;
    let attempt = i.attempt;
    i.events
        .push_back(ClientEvent::Conn(ConnState::Reconnecting {
            attempt,
            error,
        }));
    let base = 250.0 * f64::from(2u32.saturating_pow(attempt.min(5).saturating_sub(1)));
    let wait = (base + js_sys::Math::random() * 250.0).min(MAX_BACKOFF_MS);
    i.retry_at = Some(now_ms() + wait);
}

/// The timer: pings, silence, a try that takes too long, the next try.
fn on_tick(inner: &Rc<RefCell<Inner>>) {
    let now = now_ms();
    {
        // A late tick (a hidden tab, a busy page): the silence was the page's, not the
        // server's — ping now and count silence from here.
        let mut i = inner.borrow_mut();
        let late = now - i.last_tick > 2.0 * f64::from(TICK_MS) + 500.0;
        i.last_tick = now;
        if late && i.greeted {
            i.last_heard = now;
            i.last_ping = now - PING_EVERY_MS;
        }
    }
    let (retry, greeted, opened_at, last_heard, last_ping, failed) = {
        let i = inner.borrow();
        (
            i.retry_at,
            i.greeted,
            i.opened_at,
            i.last_heard,
            i.last_ping,
            i.failed,
        )
    };
    if failed || inner.borrow().left {
        return;
    }
    if let Some(at) = retry {
        if now >= at {
            connect(inner);
        }
        return;
    }
    if !greeted {
        if now - opened_at > CONNECT_TIMEOUT_MS {
            lost(inner, "no answer to hello".into());
        }
        return;
    }
    if now - last_heard > SILENCE_LIMIT_MS {
        lost(
            inner,
            format!("the server has not answered for {SILENCE_LIMIT_MS} ms"),
        );
        return;
    }
    if now - last_ping >= PING_EVERY_MS {
        let mut i = inner.borrow_mut();
        i.nonce += 1;
        i.last_ping = now;
        let ping = ClientMsg::Ping { nonce: i.nonce };
        if let Some(ws) = &i.ws {
            put(ws, &ping);
        }
    }
}
