//! Takhte (تخته, "board"): chess, dice chess, Turkish draughts and minesweeper chess.
//!
//! `rules` is the pure game logic; `cli` the developer and tester command line.

pub mod cli;
pub mod rules;
pub mod store;
