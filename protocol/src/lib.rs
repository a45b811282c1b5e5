//! Takhte's online protocol: what the app (or a bot, or a browser) and the game server say to
//! each other, shared by both sides.
//!
//! - [`messages`]: the two serde enums, [`ClientMsg`] and [`ServerMsg`], with the game's state
//!   and events, the refusals and the limits (re-exported here).
//! - [`code`]: six-character invite codes and the links that carry them; [`address`]: a
//!   server's address as typed, how it is reached (encrypted or not), its invite links.
//! - [`token`]: the player token (a secret made on the device) and display names.
//! - [`rating`]: Glicko-2 ratings as sent, quick pairing's pools, players' pages and the
//!   leaderboard; [`recovery`]: the player token as a code a person can write down.
//! - [`public`]: the public text of a position, what a player may see (minesweeper chess
//!   without its hidden mines).

#![deny(missing_docs)]

pub mod address;
pub mod code;
pub mod messages;
pub mod public;
pub mod rating;
pub mod recovery;
pub mod request;
pub mod token;

pub use messages::*;

/// How long the opponent must have been gone before a player may claim the win.
pub const CLAIM_AFTER_MS: u64 = 60_000;

/// The part of each move's thinking time the server does not charge, for the network's lag;
/// a flag falls only once this much more than the time left has passed.
pub const LAG_ALLOWANCE_MS: u64 = 300;
