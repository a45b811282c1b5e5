//! Takhte's game server: online games of the four games over WebSocket.
//!
//! - [`game`]: a game as the server keeps it, and how a request changes it (pure).
//! - [`store`]: where games are kept (SQLite by default).
//! - [`hub`]: the games in memory, their connections, and the path request → store → sockets.
//! - [`conn`]: one WebSocket connection with its limits.
//! - [`http`]: the routes and the server's start; [`tls`]: its own TLS, if it has one.

#![deny(missing_docs)]

pub mod conn;
pub mod game;
pub mod http;
pub mod hub;
pub mod rating;
pub mod store;
pub mod tls;
pub mod web;

use sha2::{Digest, Sha256};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The hash the server keeps of a player token (SHA-256, hex), of its lower-case form: hex
/// digits in either case are one token, one player.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.to_ascii_lowercase().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A player's public id (their page, the leaderboard): 16 hex digits of a hash of their token's
/// hash, which tells nothing of the token and cannot be played with.
pub fn player_id(token_hash: &str) -> String {
    Sha256::digest(format!("takhte-player:{token_hash}").as_bytes())
        .iter()
        .take(8)
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

/// Starts a whole server (SQLite file `db`, the given limits) on a thread of its own with its
/// own runtime, listening on `listen` (port 0: a free one). Returns the address it listens on.
/// For tests and embedding; the `takhte-server` program is the usual way to run one.
pub fn spawn_server(
    listen: &str,
    db: &std::path::Path,
    config: hub::Config,
) -> Result<String, String> {
    spawn_server_tls(listen, db, config, None)
}

/// [`spawn_server`] with the server's own TLS (see [`tls::Certificate`]).
pub fn spawn_server_tls(
    listen: &str,
    db: &std::path::Path,
    mut config: hub::Config,
    tls: Option<std::sync::Arc<rustls::ServerConfig>>,
) -> Result<String, String> {
    config.tls = tls.is_some();
    let store: std::sync::Arc<dyn store::Storage> =
        std::sync::Arc::new(store::sqlite::Sqlite::open(db).map_err(|e| e.to_string())?);
    let std_listener = std::net::TcpListener::bind(listen).map_err(|e| e.to_string())?;
    std_listener
        .set_nonblocking(true)
        .map_err(|e| e.to_string())?;
    let addr = std_listener
        .local_addr()
        .map_err(|e| e.to_string())?
        .to_string();
    std::thread::Builder::new()
        .name("takhte-server".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Runtime::new() else {
                return;
            };
            rt.block_on(async move {
                let hub = hub::Hub::new(config, store);
                let _ = hub.load_running().await;
                let Ok(listener) = tokio::net::TcpListener::from_std(std_listener) else {
                    return;
                };
                let _ = http::serve(listener, hub, tls).await;
            });
        })
        .map_err(|e| e.to_string())?;
    Ok(addr)
}
