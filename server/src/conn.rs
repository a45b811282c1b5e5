//! One WebSocket connection: greeting, limits, reading requests and handing them to the hub,
//! and a writer task that sends what the hub queues.
//!
//! Every refusal is an [`ErrorCode`] with a line of English to that client only; the game is
//! unchanged. A connection is closed, with [`ServerMsg::Bye`] and its reason, when it sends a
//! message over [`MAX_MESSAGE_BYTES`], floods, keeps sending garbage, says nothing for too
//! long, or speaks another protocol version.

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc, Notify};

use takhte_protocol::token::{self, clean_name};
use takhte_protocol::{
    ClientMsg, CloseReason, ErrorCode, ServerMsg, MAX_MESSAGE_BYTES, PROTOCOL_VERSION,
};

use crate::game::{Actor, Command, Refusal};
use crate::hub::{to_text, ConnHandle, Feed, Frame, Hub, Out};
use crate::{now_ms, token_hash};

/// How long a new connection has to say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// Refused messages (malformed, unknown) before the connection is closed.
const MAX_BAD: u32 = 20;
/// How far past the rate limit a connection may go before it is closed.
const MAX_DEBT: f64 = 20.0;

struct Limiter {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Limiter {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        self.tokens -= 1.0;
        self.tokens >= 0.0
    }
}

fn error(code: ErrorCode, message: impl Into<String>, game: Option<&str>) -> ServerMsg {
    ServerMsg::Error {
        error: code,
        message: message.into(),
        code: game.map(String::from),
    }
}

/// Runs one connection to its end.
pub async fn run(socket: WebSocket, ip: IpAddr, hub: Arc<Hub>) {
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Out>(1024);
    let conn = ConnHandle {
        id: hub.conn_id(),
        tx,
        kill: Arc::new(Notify::new()),
    };
    // Pings come well within the time a connection may go without answering.
    let ping_every = PING_EVERY
        .min(Duration::from_millis(hub.config.silence_ms / 3).max(Duration::from_millis(100)));
    let writer = tokio::spawn(write_loop(sink, rx, ping_every, Arc::clone(&conn.kill)));
    if !admit(&hub, &conn, ip) {
        drop(conn);
        let _ = writer.await;
        return;
    }
    let mut state = Conn {
        hub: Arc::clone(&hub),
        conn: conn.clone(),
        actor: None,
        open: BTreeSet::new(),
        watched: BTreeSet::new(),
        bad: 0,
        limiter: Limiter {
            tokens: hub.config.msg_burst,
            rate: hub.config.msgs_per_sec,
            burst: hub.config.msg_burst,
            last: Instant::now(),
        },
        renames: std::collections::VecDeque::new(),
    };
    state.serve(&mut stream).await;
    let mut codes: Vec<String> = state.open.iter().cloned().collect();
    codes.extend(hub.paired_opens(conn.id));
    codes.sort();
    codes.dedup();
    hub.gone(conn.id, &codes).await;
    // Closing the app leaves the pool.
    if let Some(actor) = &state.actor {
        hub.seeker_gone(conn.id, &actor.token_hash).await;
    }
    hub.disconnect_ip(ip);
    drop(state);
    drop(conn);
    // The last messages (a bye) go out if the socket takes them soon; a client that stopped
    // reading does not hold the socket open.
    let mut writer = writer;
    if tokio::time::timeout(LINGER, &mut writer).await.is_err() {
        writer.abort();
    }
    // What the client still sends is read (and dropped) for a moment before the socket closes:
    // closing with unread data resets the connection, and the client would lose the reason
    // (the `bye`) sent just before.
    let _ = tokio::time::timeout(LINGER, async {
        while let Some(Ok(_)) = stream.next().await {}
    })
    .await;
}

/// What the writer does next.
enum Next {
    /// A message or an instruction of the connection's own (`None`: it is closing).
    Own(Option<Out>),
    /// A frame of one of its feeds (by index), or why there is none.
    Feed(usize, Result<Frame, broadcast::error::RecvError>),
    /// Time to ping.
    Ping,
}

/// The next frame of any of the feeds.
async fn next_frame(feeds: &mut [Feed]) -> (usize, Result<Frame, broadcast::error::RecvError>) {
    if let [only] = feeds {
        return (0, only.rx.recv().await);
    }
    let waits = feeds
        .iter_mut()
        .enumerate()
        .map(|(i, f)| Box::pin(async move { (i, f.rx.recv().await) }));
    futures_util::future::select_all(waits).await.0
}

/// The connection's writer: its own messages first, then the spectators' feeds it reads (one
/// shared frame per event for every spectator; one that fell behind is sent the game as it
/// stands instead of every step), and a ping now and then. A socket that takes nothing for
/// `WRITE_WITHIN` is given up (and closed when the sink is dropped): a client that stopped
/// reading holds neither a task nor memory beyond its bounded queue.
async fn write_loop(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Out>,
    ping_every: Duration,
    kill: Arc<Notify>,
) {
    // The server pings every connection: one that stops answering is closed (serve), so that
    // a page left or a phone gone away stops counting as a player here or a spectator.
    let mut ping = tokio::time::interval(ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    let mut feeds: Vec<Feed> = Vec::new();
    loop {
        let next = tokio::select! {
            biased;
            out = rx.recv() => Next::Own(out),
            (i, got) = next_frame(&mut feeds), if !feeds.is_empty() => Next::Feed(i, got),
            _ = ping.tick() => Next::Ping,
        };
        let frame = match next {
            Next::Own(None) => break,
            Next::Own(Some(Out::Text(text))) => Message::Text(Utf8Bytes::from(text.as_ref())),
            Next::Own(Some(Out::Feed(f))) => {
                feeds.retain(|x| x.code != f.code);
                feeds.push(f);
                continue;
            }
            Next::Own(Some(Out::Unfeed(code))) => {
                feeds.retain(|x| x.code != code);
                continue;
            }
            Next::Feed(i, Ok(f)) => {
                if f.seq != 0 {
                    if f.seq <= feeds[i].after {
                        continue; // sent already (the catch-up had it)
                    }
                    feeds[i].after = f.seq;
                }
                Message::Text(Utf8Bytes::from(f.text.as_ref()))
            }
            Next::Feed(i, Err(broadcast::error::RecvError::Lagged(_))) => {
                // Too far behind for every step: the game as it stands.
                let (seq, text) = feeds[i].resync().await;
                feeds[i].after = seq;
                Message::Text(Utf8Bytes::from(text.as_ref()))
            }
            Next::Feed(i, Err(broadcast::error::RecvError::Closed)) => {
                feeds.remove(i);
                continue;
            }
            Next::Ping => Message::Ping(Default::default()),
        };
        match tokio::time::timeout(WRITE_WITHIN, sink.send(frame)).await {
            Ok(Ok(())) => {}
            _ => {
                // The socket is gone or takes nothing: the connection ends (its reader too).
                kill.notify_one();
                return;
            }
        }
    }
    let _ = tokio::time::timeout(WRITE_WITHIN, sink.close()).await;
}

/// Whether a new connection is served: not while the cluster's bus is down, nor past its
/// address's limit (it is told why).
fn admit(hub: &Hub, conn: &ConnHandle, ip: IpAddr) -> bool {
    if !hub.available() {
        bye(
            conn,
            CloseReason::Shutdown,
            "the server is reconnecting to its message bus; try again in a moment".to_string(),
        );
        return false;
    }
    if !hub.connect_ip(ip) {
        bye(
            conn,
            CloseReason::TooManyConnections,
            format!(
                "this address has {} connections already",
                hub.config.max_conns_per_ip
            ),
        );
        return false;
    }
    true
}

/// What to do after a frame.
enum Flow {
    /// Read the next.
    Next,
    /// Close the connection.
    Close,
}

/// How often the server pings each connection (a WebSocket ping, answered by the client's
/// WebSocket itself); more often when the silence allowed is shorter than three of these.
const PING_EVERY: Duration = Duration::from_secs(5);

/// How long one frame may take to go out on a connection's socket before it is given up.
const WRITE_WITHIN: Duration = Duration::from_secs(10);

/// How long a closing connection's last incoming messages are read and dropped.
const LINGER: Duration = Duration::from_secs(1);

fn bye(conn: &ConnHandle, reason: CloseReason, message: String) {
    conn.send(to_text(&ServerMsg::Bye { reason, message }));
}

struct Conn {
    hub: Arc<Hub>,
    conn: ConnHandle,
    actor: Option<Actor>,
    open: BTreeSet<String>,
    /// The games this connection watches (a spectator that goes quiet is let go sooner).
    watched: BTreeSet<String>,
    bad: u32,
    limiter: Limiter,
    /// When this connection's last renames were (each one is an event in every open game).
    renames: std::collections::VecDeque<Instant>,
}

/// Renames a connection may make within [`RENAME_WINDOW`].
const MAX_RENAMES: usize = 5;
const RENAME_WINDOW: Duration = Duration::from_secs(60);

impl Conn {
    /// Reads and answers the connection's messages until it must close: a close, an error,
    /// a limit, silence, or the server's own reason.
    async fn serve(&mut self, stream: &mut futures_util::stream::SplitStream<WebSocket>) {
        let hub = Arc::clone(&self.hub);
        let started = Instant::now();
        let idle = Duration::from_millis(hub.config.idle_ms);
        let silence = Duration::from_millis(hub.config.silence_ms);
        // The last message, and the last frame of any kind (an answer to a ping counts).
        let mut last_message = Instant::now();
        let mut last_heard = Instant::now();
        loop {
            // A spectator's app talks every second (its pings): one that has said nothing for
            // `silence` (a page frozen in the browser's cache, which still answers pings at
            // the socket's level) stops counting then, not after `idle`.
            let quiet_limit = if self.watched.is_empty() {
                idle
            } else {
                idle.min(silence)
            };
            let wait = if self.actor.is_none() {
                HELLO_WITHIN.saturating_sub(started.elapsed())
            } else {
                quiet_limit
                    .saturating_sub(last_message.elapsed())
                    .min(silence.saturating_sub(last_heard.elapsed()))
            };
            // In this order: a message already come in is read before the silence is judged
            // (after a command that waited long on the store the wait is already over; the
            // pings that came in meanwhile count).
            tokio::select! {
                biased;
                _ = self.conn.kill.notified() => return,
                _ = hub.kick_all.notified() => {
                    bye(&self.conn, CloseReason::Shutdown, "the server lost its message bus; reconnect in a moment".to_string());
                    return;
                }
                msg = stream.next() => {
                    last_heard = Instant::now();
                    if matches!(msg, Some(Ok(Message::Text(_) | Message::Binary(_)))) {
                        last_message = last_heard;
                    }
                    if let Flow::Close = self.frame(msg).await {
                        return;
                    }
                }
                _ = tokio::time::sleep(wait) => {
                    bye(&self.conn, CloseReason::Idle, if self.actor.is_none() {
                        "no hello in time".to_string()
                    } else if last_heard.elapsed() >= silence {
                        format!("no answer to the server's pings for {} s", silence.as_secs())
                    } else if !self.watched.is_empty() {
                        format!("a spectator that says nothing for {} s is let go", quiet_limit.as_secs())
                    } else {
                        "nothing heard for too long".to_string()
                    });
                    return;
                }
            }
        }
    }

    /// One frame read (or the end of the stream): its limits checked, then handled.
    async fn frame(&mut self, msg: Option<Result<Message, axum::Error>>) -> Flow {
        let msg = match msg {
            Some(Ok(m)) => m,
            Some(Err(e)) => {
                // Past the WebSocket library's own limit: still told why.
                if is_too_long(e) {
                    bye(
                        &self.conn,
                        CloseReason::TooLarge,
                        format!("a message may have at most {MAX_MESSAGE_BYTES} bytes"),
                    );
                }
                return Flow::Close;
            }
            None => return Flow::Close,
        };
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Binary(b) if b.len() > MAX_MESSAGE_BYTES => {
                bye(
                    &self.conn,
                    CloseReason::TooLarge,
                    format!(
                        "a message may have at most {MAX_MESSAGE_BYTES} bytes, this one had {}",
                        b.len()
                    ),
                );
                return Flow::Close;
            }
            Message::Binary(_) => {
                return if self.refuse_bad(ErrorCode::BadMessage, "messages are JSON text") {
                    Flow::Close
                } else {
                    Flow::Next
                };
            }
            Message::Close(_) => return Flow::Close,
            _ => return Flow::Next,
        };
        if text.len() > MAX_MESSAGE_BYTES {
            bye(
                &self.conn,
                CloseReason::TooLarge,
                format!(
                    "a message may have at most {MAX_MESSAGE_BYTES} bytes, this one had {}",
                    text.len()
                ),
            );
            return Flow::Close;
        }
        if !self.limiter.take() {
            if self.limiter.tokens < -MAX_DEBT {
                bye(
                    &self.conn,
                    CloseReason::RateLimited,
                    "far too many messages".to_string(),
                );
                return Flow::Close;
            }
            self.conn.send_msg(&error(
                ErrorCode::RateLimited,
                "too many messages; slow down",
                None,
            ));
            return Flow::Next;
        }
        // A panic in one request (a bug) is kept to that request: the client is told, the
        // connection and every other go on.
        let conn = self.conn.clone();
        let handled = std::panic::AssertUnwindSafe(self.handle(&text));
        match futures_util::FutureExt::catch_unwind(handled).await {
            Ok(true) => Flow::Close,
            Ok(false) => Flow::Next,
            Err(_) => {
                crate::log!("a request failed inside the server (a panic); the connection goes on");
                conn.send_msg(&error(
                    ErrorCode::Internal,
                    "the server failed on this request; nothing was changed, try again",
                    None,
                ));
                Flow::Next
            }
        }
    }

    /// Refuses a malformed message; true when the connection must close.
    fn refuse_bad(&mut self, code: ErrorCode, message: impl Into<String>) -> bool {
        self.bad += 1;
        self.conn.send_msg(&error(code, message, None));
        if self.bad >= MAX_BAD {
            bye(
                &self.conn,
                CloseReason::TooManyErrors,
                format!("{MAX_BAD} malformed messages"),
            );
            return true;
        }
        false
    }

    fn refused(&self, r: Refusal, game: Option<&str>) {
        self.conn.send_msg(&error(r.code, r.message, game));
    }

    /// Handles one message; true when the connection must close.
    async fn handle(&mut self, text: &str) -> bool {
        let msg = match self.parse(text) {
            Ok(m) => m,
            Err(close) => return close,
        };
        match self.actor.clone() {
            None => self.hello(msg),
            Some(actor) => self.request(actor, msg).await,
        }
    }

    /// Reads a message; a malformed one is refused (`Err`: whether to close).
    fn parse(&mut self, text: &str) -> Result<ClientMsg, bool> {
        // A well-formed message reads at once; only a bad one is read again to say why.
        if let Ok(m) = serde_json::from_str::<ClientMsg>(text) {
            return Ok(m);
        }
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return Err(self.refuse_bad(ErrorCode::BadMessage, format!("not JSON: {e}"))),
        };
        let ty = value.get("type").and_then(|t| t.as_str());
        match ty {
            None => {
                return Err(self.refuse_bad(
                    ErrorCode::BadMessage,
                    "a message is a JSON object with a \"type\"",
                ))
            }
            Some(t) if !ClientMsg::TYPES.contains(&t) => {
                return Err(self.refuse_bad(ErrorCode::UnknownType, format!("unknown type '{t}'")))
            }
            _ => {}
        }
        serde_json::from_value(value)
            .map_err(|e| self.refuse_bad(ErrorCode::BadMessage, e.to_string()))
    }

    /// The first message, which must be `hello`; true when the connection must close.
    fn hello(&mut self, msg: ClientMsg) -> bool {
        let ClientMsg::Hello {
            protocol,
            token: tok,
            name,
        } = msg
        else {
            return self.refuse_bad(ErrorCode::HelloFirst, "say hello first");
        };
        if protocol != PROTOCOL_VERSION {
            bye(
                &self.conn,
                CloseReason::Protocol,
                format!("this server speaks protocol {PROTOCOL_VERSION}, the client {protocol}"),
            );
            return true;
        }
        if !token::is_valid(&tok) {
            return self.refuse_bad(ErrorCode::BadToken, "a token is 32 hex digits");
        }
        let name = clean_name(&name);
        self.actor = Some(Actor {
            token_hash: token_hash(&tok),
            name: name.clone(),
        });
        let player = crate::player_id(&token_hash(&tok));
        self.conn.send_msg(&ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            name,
            claim_after_ms: self.hub.config.claim_after_ms,
            player,
        });
        false
    }

    /// A request of a greeted client; true when the connection must close.
    async fn request(&mut self, actor: Actor, msg: ClientMsg) -> bool {
        let game = msg.code().map(String::from);
        // A player's command on a game, or a question answered with one message.
        let msg = match command_of(msg) {
            Ok((code, command)) => {
                if let Err(r) = self.hub.command(&actor, &code, command).await {
                    self.refused(r, Some(&code));
                }
                return false;
            }
            Err(msg) => msg,
        };
        let msg = match self.answer(&actor, msg).await {
            Ok(result) => {
                if let Err(r) = result {
                    self.refused(r, game.as_deref());
                }
                return false;
            }
            Err(msg) => msg,
        };
        let result = match msg {
            ClientMsg::Hello { .. } => {
                return self.refuse_bad(ErrorCode::HelloFirst, "hello was already said")
            }
            ClientMsg::Ping { nonce } => {
                self.conn.send_msg(&ServerMsg::Pong {
                    nonce,
                    server_ms: now_ms(),
                });
                Ok(())
            }
            ClientMsg::Create { settings, request } => {
                match self
                    .hub
                    .create(&self.conn, &actor, settings, request.clone())
                    .await
                {
                    Ok(Some(code)) => {
                        self.open.insert(code);
                        Ok(())
                    }
                    // A create sent again after it was cancelled: made nothing.
                    Ok(None) => {
                        self.conn.send_msg(&ServerMsg::Cancelled {
                            request: request.unwrap_or_default(),
                        });
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            ClientMsg::Seek { choice } => self.hub.seek(&self.conn, &actor, choice).await,
            ClientMsg::CancelSeek => self.hub.cancel_seek(&self.conn, &actor).await,
            ClientMsg::CancelCreate { request } => {
                self.hub.cancel_create(&self.conn, &actor, &request).await
            }
            ClientMsg::Join { code } => {
                let r = self.hub.join(&self.conn, &actor, &code).await;
                if r.is_ok() {
                    self.open.insert(code);
                }
                r
            }
            ClientMsg::Open { code, since } => {
                let r = self.hub.open(&self.conn, &actor, &code, since).await;
                if r.is_ok() {
                    self.open.insert(code);
                }
                r
            }
            ClientMsg::Close { code } => {
                self.hub.close(self.conn.id, &code).await;
                self.watched.remove(&code);
                self.open.remove(&code);
                Ok(())
            }
            ClientMsg::SetName { name } => {
                self.set_name(&name).await;
                Ok(())
            }
            ClientMsg::Watch { code, since } => {
                let r = self.hub.watch(&self.conn, &actor, &code, since).await;
                if r.is_ok() {
                    self.watched.insert(code.clone());
                    self.open.insert(code);
                }
                r
            }
            ClientMsg::Suggest { code, ply, mv } => {
                self.hub.suggest(&self.conn, &actor, &code, ply, &mv).await
            }
            // Commands and questions were taken above.
            _ => Ok(()),
        };
        if let Err(r) = result {
            self.refused(r, game.as_deref());
        }
        false
    }

    /// A question answered with one message (a page, a leaderboard, a list, an invite);
    /// anything else is given back.
    async fn answer(
        &mut self,
        actor: &Actor,
        msg: ClientMsg,
    ) -> Result<Result<(), Refusal>, ClientMsg> {
        let reply = match msg {
            ClientMsg::Player { id } => self
                .hub
                .player_page(&id, &actor.token_hash)
                .await
                .map(|page| ServerMsg::Player { page }),
            ClientMsg::Leaderboard { kind } => self
                .hub
                .leaderboard(kind, &actor.token_hash)
                .await
                .map(|(rows, you)| ServerMsg::Leaderboard { kind, rows, you }),
            ClientMsg::Invitation { code } => self
                .hub
                .invitation(&code)
                .await
                .map(|(game, rated)| ServerMsg::Invitation { game, rated }),
            ClientMsg::Lobby => Ok(ServerMsg::Lobby {
                games: self.hub.lobby().await,
            }),
            ClientMsg::MyGames => self
                .hub
                .my_games(actor)
                .await
                .map(|games| ServerMsg::MyGames { games }),
            ClientMsg::LiveGames => self
                .hub
                .live_games()
                .await
                .map(|games| ServerMsg::LiveGames { games }),
            other => return Err(other),
        };
        Ok(reply.map(|m| {
            self.conn.send_msg(&m);
        }))
    }

    /// Renames the player (at most [`MAX_RENAMES`] a minute): in every game of theirs.
    async fn set_name(&mut self, name: &str) {
        let now = Instant::now();
        while self
            .renames
            .front()
            .is_some_and(|t| now.duration_since(*t) > RENAME_WINDOW)
        {
            self.renames.pop_front();
        }
        if self.renames.len() >= MAX_RENAMES {
            self.conn.send_msg(&error(
                ErrorCode::RateLimited,
                format!("at most {MAX_RENAMES} name changes a minute; the name stays"),
                None,
            ));
            return;
        }
        self.renames.push_back(now);
        let name = clean_name(name);
        if let Some(a) = self.actor.as_mut() {
            a.name = name;
        }
        let actor = self.actor.clone().expect("greeted");
        self.hub.rename(&actor).await;
    }
}

/// Whether a read failed because the message was over the WebSocket library's size limit.
fn is_too_long(e: axum::Error) -> bool {
    use tokio_tungstenite::tungstenite::error::{CapacityError, Error};
    matches!(
        e.into_inner().downcast_ref::<Error>(),
        Some(Error::Capacity(CapacityError::MessageTooLong { .. }))
    )
}

/// A player's command on a game (a move, a roll, an answer…) and the game's code; anything
/// else is given back.
fn command_of(msg: ClientMsg) -> Result<(String, Command), ClientMsg> {
    Ok(match msg {
        ClientMsg::Move { code, ply, mv } => (code, Command::Move { ply, mv }),
        ClientMsg::Roll { code, ply } => (code, Command::Roll { ply }),
        ClientMsg::Resign { code } => (code, Command::Resign),
        ClientMsg::OfferDraw { code } => (code, Command::OfferDraw),
        ClientMsg::AnswerDraw { code, accept } => (code, Command::AnswerDraw(accept)),
        ClientMsg::Abort { code } => (code, Command::Abort),
        ClientMsg::ClaimWin { code } => (code, Command::ClaimWin),
        ClientMsg::Rematch { code } => (code, Command::Rematch),
        other => return Err(other),
    })
}
