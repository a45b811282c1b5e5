//! Everything between the rules and the screen: a game session (start, moves, cursor, clocks,
//! result), the controller that turns the player's intents into session changes and runs the
//! computer's turns, and the plain view the UI draws.

#![deny(missing_docs)]

pub mod annotate;
pub mod autoplay;
mod build_view;
pub mod clock;
pub mod controller;
pub mod record;
pub mod session;
pub mod share;
pub mod view;

pub use clock::{Clock, TimeControl};
pub use controller::{
    offload_searches, Controller, Layout, NewGame, Offload, OnlineState, Opponent, Outgoing,
    Randomness, ScriptedRandomness, SystemRandomness,
};
pub use record::{from_record, record_result, to_record, Autosaver, LoadError};
pub use session::{GameEnd, GameStart, Session, SessionError};
pub use view::{Status, View};
