//! The HTTP side: the WebSocket route, a page for invite links, and the server's start.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;

use takhte_core::net::code;
use takhte_core::net::protocol::{PROTOCOL_VERSION, WS_PATH};

use crate::hub::Hub;
use crate::log;

/// The largest WebSocket message the library reads at all; [`crate::conn`] refuses anything
/// over the protocol's limit with a reason before that.
const HARD_LIMIT: usize = 64 * 1024;

/// The routes.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route(WS_PATH, get(ws))
        .route("/", get(index))
        .route("/join/{code}", get(join_page))
        .with_state(hub)
}

async fn ws(
    upgrade: WebSocketUpgrade,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    State(hub): State<Arc<Hub>>,
) -> impl IntoResponse {
    // Small buffers: the library's default is 128 KiB each way per connection, which at
    // thousands of connections is most of the server's memory; our messages are a few KiB.
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(HARD_LIMIT * 4)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| crate::conn::run(socket, addr.ip(), hub))
}

async fn index() -> impl IntoResponse {
    format!("Takhte game server (protocol {PROTOCOL_VERSION}). The app connects to {WS_PATH}.\n")
}

/// The page an invite link opens in a browser: the code, and a link into the app.
async fn join_page(Path(code): Path<String>) -> impl IntoResponse {
    let code = code::normalize(&code).unwrap_or_default();
    let body = if code.is_empty() {
        "<p>This invite link is not valid. / این پیوند دعوت درست نیست.</p>".to_string()
    } else {
        format!(
            "<h1>Takhte · تخته</h1>\
             <p>Open this game in the Takhte app: <a href=\"{link}\">{link}</a></p>\
             <p>Or type the code in the app: <b>{code}</b></p>\
             <p dir=\"rtl\">این بازی را در برنامهٔ تخته باز کنید، یا این کد را در برنامه بنویسید: <b>{code}</b></p>",
            link = code::link(&code)
        )
    };
    Html(format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Takhte</title></head><body>{body}</body></html>"
    ))
}

/// Serves until the process ends: the routes, the clock ticker and the room eviction.
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
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
    let evictor = Arc::clone(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(30));
        loop {
            every.tick().await;
            evictor.evict(5 * 60_000).await;
        }
    });
    log!("serving games from {}", hub.store_name());
    // No Nagle delay: a move is one small message that should leave at once.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
}
