//! The connection to the game server as the online session sees it: messages out, events in.
//! The native one is the client module's `Client` (a WebSocket on a thread of its own); a browser
//! gives the page's WebSocket. What must be remembered to come back after a loss is the same
//! for every transport: [`crate::book::Book`].

use takhte_protocol::{ClientMsg, CloseReason, ServerMsg};

/// A connection to the game server that keeps itself up (reconnecting, reopening its games and
/// resending what the server has not confirmed, with a [`crate::book::Book`]).
pub trait Transport {
    /// Sends a message: now, or once the connection is back.
    fn send(&self, msg: ClientMsg);
    /// The next event, if one is waiting.
    fn try_recv(&self) -> Option<ClientEvent>;
    /// The next event, waiting up to `timeout` where the transport can wait (a headless
    /// player's thread); one that cannot wait answers at once.
    fn recv_timeout(&self, timeout: std::time::Duration) -> Option<ClientEvent> {
        let _ = timeout;
        self.try_recv()
    }
}

/// The state of the connection, as the app shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnState {
    /// The first try is under way.
    Connecting,
    /// Connected and greeted.
    Connected,
    /// Lost (or never made); the next try comes after a short wait.
    Reconnecting {
        /// Tries so far since the last good connection.
        attempt: u32,
        /// What went wrong, one line of English.
        error: String,
    },
    /// The client has given up: another protocol version, a bad address, or the server said
    /// goodbye for a reason that trying again would not change.
    Failed(Fatal),
}

/// Why the client gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fatal {
    /// The server speaks another protocol version.
    Protocol {
        /// The server's version, when it said.
        server: Option<u32>,
    },
    /// The address cannot be used.
    BadAddress(String),
    /// The server closed the connection for good (too many connections, errors…).
    Closed(CloseReason),
    /// The encrypted connection could not be made, and trying again would not change it:
    /// never does the client fall back to a plain one.
    Tls(TlsProblem),
}

/// Why an encrypted connection was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TlsProblem {
    /// The server's certificate is for another name.
    WrongName,
    /// The server's certificate has expired (or is not valid yet).
    Expired,
    /// The server's certificate signs itself: no authority vouches for it.
    SelfSigned,
    /// The server's certificate comes from an authority the app does not know.
    UnknownAuthority,
    /// The address says `wss://`, but the server does not speak TLS (a plain server).
    NotTls,
    /// The address says `ws://`, but the server wants an encrypted connection.
    NeedsTls,
    /// The connection broke during the handshake (tried again later).
    Io(String),
    /// Another refusal (the library's words).
    Other(String),
}

/// What the client hands to its user.
// Taken in at once, one at a time: boxing the message would save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientEvent {
    /// The connection changed.
    Conn(ConnState),
    /// A message from the server.
    Msg(ServerMsg),
}

/// A transport that sends nowhere and brings nothing: for pictures drawn from made-up answers
/// of a server, and tests that hand the session its events themselves.
pub struct Nowhere;

impl Transport for Nowhere {
    fn send(&self, _: ClientMsg) {}

    fn try_recv(&self) -> Option<ClientEvent> {
        None
    }
}
