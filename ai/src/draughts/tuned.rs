//! The tuned numbers of the draughts evaluation. Made by `scripts/tune-draughts.sh` from the results of self-play games (2 rounds); do not edit.
//!
//! Mean squared error of the expected result against the game's (our evaluation scaled by 0.78), on 753486 positions fitted / 83720 kept out: hand-written 0.105712 / 0.105571, tuned 0.096052 / 0.095873.

use super::params::Params;

/// The numbers level 6 plays with.
pub const TUNED: Params = Params {
    king: 150,
    rank3_mg: 17,
    rank4_mg: 19,
    rank5_mg: -9,
    rank6_mg: 96,
    rank7_mg: 346,
    rank3_eg: -7,
    rank4_eg: -1,
    rank5_eg: 15,
    rank6_eg: 78,
    rank7_eg: 77,
    file_b: -36,
    file_c: -46,
    file_d: -50,
    man_mobility_mg: 25,
    man_mobility_eg: 9,
    king_mobility: 0,
    backed: 29,
    side_by_side: 20,
    free5: 25,
    free6: -2,
    free7: 61,
    only_king: 388,
    trade: 341,
    lone_king: 0,
    tempo: 14,
};
