//! Takhte (تخته, "board"): chess, dice chess, Turkish draughts and minesweeper chess.
//!
//! `rules` is the pure game logic, `ai` the computer opponents, `game` the sessions and the
//! controller, `cli` the developer and tester command line.

#![warn(missing_docs)]

pub mod ai;
pub mod cli;
pub mod game;
pub mod rules;
pub mod store;
