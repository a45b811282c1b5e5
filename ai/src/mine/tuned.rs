//! The tuned numbers of the minesweeper chess evaluation. Made by `scripts/tune-mine.sh`; do
//! not edit.

use crate::chess::params::Params;

/// The numbers level 6 plays with.
pub const TUNED: Params = crate::chess::params::HAND;
