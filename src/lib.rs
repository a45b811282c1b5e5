//! Takhte (تخته, "board"): chess, dice chess, Turkish draughts and minesweeper chess.
//!
//! `rules` is the pure game logic; `cli` the developer and tester command line.

#![warn(missing_docs)]

pub mod cli;
pub mod rules;
