//! Who moves first: each player rolls one die, the higher roll starts, a tie is rolled again.

use std::fmt;

use crate::Side;

/// Who starts after one start roll: the side with the higher roll, or `None` when the rolls tie
/// (both roll again). A value outside 1–6 is not a die roll and also gives `None`.
///
/// ```
/// use takhte_rules::dice::first_player;
/// use takhte_rules::Side;
/// assert_eq!(first_player(5, 2), Some(Side::White));
/// assert_eq!(first_player(1, 6), Some(Side::Black));
/// assert_eq!(first_player(4, 4), None);
/// ```
pub fn first_player(white_roll: u8, black_roll: u8) -> Option<Side> {
    let die = 1..=6;
    if !die.contains(&white_roll) || !die.contains(&black_roll) {
        return None;
    }
    match white_roll.cmp(&black_roll) {
        std::cmp::Ordering::Greater => Some(Side::White),
        std::cmp::Ordering::Less => Some(Side::Black),
        std::cmp::Ordering::Equal => None,
    }
}

/// Why a list of start rolls decides nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartRollError {
    /// A value is not a die roll. `pair` counts from 0; the caller should discard the record.
    OutOfRange {
        /// Which pair (from 0) holds the value.
        pair: usize,
        /// The value, not in 1–6.
        value: u8,
    },
    /// Every pair tied (or there were none): the players must roll again.
    AllTied {
        /// How many pairs were rolled.
        pairs: usize,
    },
}

impl fmt::Display for StartRollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StartRollError::OutOfRange { pair, value } => {
                write!(
                    f,
                    "start roll {}: {value} is not a die roll (1 to 6)",
                    pair + 1
                )
            }
            StartRollError::AllTied { pairs } => {
                write!(f, "all {pairs} start rolls tied: roll again")
            }
        }
    }
}

impl std::error::Error for StartRollError {}

/// Who starts, from the start rolls as `(white, black)` pairs in the order they were rolled: the
/// first pair that is not a tie decides (pairs after it are not looked at for the decision, but
/// every value must be a die roll).
///
/// ```
/// use takhte_rules::dice::{start_roll, StartRollError};
/// use takhte_rules::Side;
/// assert_eq!(start_roll(&[(3, 3), (2, 6)]), Ok(Side::Black));
/// assert_eq!(start_roll(&[(4, 4)]), Err(StartRollError::AllTied { pairs: 1 }));
/// assert_eq!(start_roll(&[(7, 1)]), Err(StartRollError::OutOfRange { pair: 0, value: 7 }));
/// ```
pub fn start_roll(rolls: &[(u8, u8)]) -> Result<Side, StartRollError> {
    for (pair, &(white, black)) in rolls.iter().enumerate() {
        for value in [white, black] {
            if !(1..=6).contains(&value) {
                return Err(StartRollError::OutOfRange { pair, value });
            }
        }
    }
    rolls
        .iter()
        .find_map(|&(white, black)| first_player(white, black))
        .ok_or(StartRollError::AllTied { pairs: rolls.len() })
}
