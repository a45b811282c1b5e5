//! The tuned numbers of the draughts evaluation. Made by `scripts/tune-draughts.sh`; do not edit.

use super::params::Params;

/// The numbers level 6 plays with.
pub const TUNED: Params = super::params::HAND;
