//! Takhte's online play on the app's side, shared by the app, the headless bot and the browser
//! version:
//!
//! - [`mirror`]: the client's copy of one game, kept in step with the server's events;
//! - [`session`]: the online session, one state machine that turns the server's messages into
//!   the player's games (the games open, what was asked, the lists, the device's list of games)
//!   for the app, the bot and the browser alike;
//! - [`transport`]: the connection the session speaks through, and [`book`]: what a connection
//!   remembers to come back after a loss (the games open, the moves not confirmed);
//! - [`tls`]: encrypted connections for the native client (pure-Rust cryptography);
//! - [`client`]: the native transport (a WebSocket on a thread of its own that reconnects by
//!   itself);
//! - [`web`]: the browser's transport (the page's WebSocket, reconnecting with the same book);
//! - [`bot`]: a headless player for tests, load runs and `takhte online-bot`.
//!
//! The modules' arrows: `bot → session → {mirror, transport}`, `client → {book, transport}`.

#![deny(missing_docs)]

pub mod book;
#[cfg(not(target_arch = "wasm32"))]
pub mod bot;
#[cfg(not(target_arch = "wasm32"))]
pub mod client;
pub mod mirror;
pub mod session;
#[cfg(not(target_arch = "wasm32"))]
pub mod tls;
pub mod transport;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use takhte_protocol::address;

/// The environment variable with the server address (tests and the desktop).
pub const SERVER_ENV: &str = "TAKHTE_SERVER";
