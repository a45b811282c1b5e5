//! Takhte's game server: online games of the four games over WebSocket.
//!
//! - [`game`]: a game as the server keeps it, and how a request changes it (pure).
//! - [`store`]: where games are kept (SQLite by default).
//! - [`hub`]: the games in memory, their connections, and the path request → store → sockets.
//! - [`conn`]: one WebSocket connection with its limits.
//! - [`http`]: the routes and the server's start.

pub mod conn;
pub mod game;
pub mod http;
pub mod hub;
pub mod store;

use sha2::{Digest, Sha256};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The hash the server keeps of a player token (SHA-256, hex).
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes a line to the log (standard error) with the time.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {{
        let ms = $crate::now_ms();
        eprintln!("{}.{:03} {}", ms / 1000, ms % 1000, format!($($arg)*));
    }};
}
