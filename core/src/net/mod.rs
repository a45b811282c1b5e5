//! Online play: the protocol between the app and the game server, invite codes, the player
//! token, public positions, the client side of a game ([`mirror`]) and the network client the
//! app and the headless bots share ([`client`]).

pub mod bot;
pub mod client;
pub mod code;
pub mod mirror;
pub mod protocol;
pub mod public;
pub mod token;

/// How long the opponent must have been gone before a player may claim the win.
pub const CLAIM_AFTER_MS: u64 = 60_000;

/// The part of each move's thinking time the server does not charge, for the network's lag;
/// a flag falls only once this much more than the time left has passed.
pub const LAG_ALLOWANCE_MS: u64 = 300;

/// The environment variable with the server address (tests and the desktop).
pub const SERVER_ENV: &str = "TAKHTE_SERVER";
