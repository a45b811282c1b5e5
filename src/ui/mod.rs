//! The app's UI adapters: the Slint window (compiled from `ui/*.slint`), connected to the game
//! controller, the store and the translations. No rules logic here.

#![allow(missing_docs)]
slint::include_modules!();

pub mod app;
pub mod board_model;
pub mod demo;
pub mod images;
pub mod online;
pub mod screenshot;
pub mod share;

pub use app::{AppState, TakhteApp};
