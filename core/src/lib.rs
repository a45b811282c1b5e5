//! Takhte's core: everything without a UI, shared by the app, the game server and the tests.
//!
//! `rules` is the pure game logic, `ai` the computer opponents, `game` the sessions and the
//! controller, `store` the saved games, `net` online play (protocol, client, bots).

#![warn(missing_docs)]

pub mod ai;
pub mod game;
pub mod net;
pub mod rules;
pub mod store;
