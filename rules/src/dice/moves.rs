//! Dice chess moves, the die face names and the move text of RULES.md §2.

use std::fmt;

use crate::{MoveError, Square};

/// One whole turn of dice chess.
///
/// The record form (its `Display`, and [`crate::Rules::move_to_text`]) is `d1e2` for a king
/// move, `3:b2c4` for a pawn move with its die face, and `1:-` for an empty roll.
///
/// ```
/// use takhte_rules::dice::Move;
/// use takhte_rules::Square;
/// let sq = |s| Square::parse(s, 8).unwrap();
/// assert_eq!(Move::King { from: sq("d1"), to: sq("e2") }.to_string(), "d1e2");
/// assert_eq!(Move::Pawn { face: 3, from: sq("b2"), to: sq("c4") }.to_string(), "3:b2c4");
/// assert_eq!(Move::Pass { face: 1 }.to_string(), "1:-");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The king steps one square (capturing an enemy pawn there, if any), without a roll.
    King {
        /// Where the king stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// A roll of `face` and the pawn move it allows (capturing an enemy pawn on `to`, if any).
    Pawn {
        /// The die face, 1–6 (see [`face_name`]).
        face: u8,
        /// Where the pawn stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// A roll of `face` that gives no legal pawn move: the turn passes. In check, this loses.
    Pass {
        /// The die face, 1–6.
        face: u8,
    },
}

impl Move {
    /// The die face of a pawn move or an empty roll; `None` for a king move.
    pub fn face(&self) -> Option<u8> {
        match *self {
            Move::King { .. } => None,
            Move::Pawn { face, .. } | Move::Pass { face } => Some(face),
        }
    }

    /// The square the moving piece leaves; `None` for an empty roll.
    pub fn from(&self) -> Option<Square> {
        match *self {
            Move::King { from, .. } | Move::Pawn { from, .. } => Some(from),
            Move::Pass { .. } => None,
        }
    }

    /// The square the moving piece goes to; `None` for an empty roll.
    pub fn to(&self) -> Option<Square> {
        match *self {
            Move::King { to, .. } | Move::Pawn { to, .. } => Some(to),
            Move::Pass { .. } => None,
        }
    }

    /// The plain from–to form without the face, as the CLI shows pawn moves for a rolled face:
    /// `b2c4` (a king move: `d1e2`), and `-` for an empty roll.
    ///
    /// ```
    /// use takhte_rules::dice::Move;
    /// use takhte_rules::Square;
    /// let mv = Move::Pawn { face: 3, from: Square::parse("b2", 8).unwrap(), to: Square::parse("c4", 8).unwrap() };
    /// assert_eq!(mv.plain_text(), "b2c4");
    /// assert_eq!(Move::Pass { face: 5 }.plain_text(), "-");
    /// ```
    pub fn plain_text(&self) -> String {
        match *self {
            Move::King { from, to } | Move::Pawn { from, to, .. } => format!("{from}{to}"),
            Move::Pass { .. } => "-".to_string(),
        }
    }
}

impl fmt::Display for Move {
    /// The record form: `d1e2`, `3:b2c4`, `1:-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::King { from, to } => write!(f, "{from}{to}"),
            Move::Pawn { face, from, to } => write!(f, "{face}:{from}{to}"),
            Move::Pass { face } => write!(f, "{face}:-"),
        }
    }
}

/// The name of a die face's power, the machine word the UI translates: `pawn-like` (1),
/// `rook-like` (2), `knight-like` (3), `bishop-like` (4), `king-like` (5), `queen-like` (6);
/// the empty string for anything that is not a die face.
///
/// ```
/// use takhte_rules::dice::face_name;
/// assert_eq!(face_name(3), "knight-like");
/// assert_eq!(face_name(0), "");
/// ```
pub fn face_name(face: u8) -> &'static str {
    match face {
        1 => "pawn-like",
        2 => "rook-like",
        3 => "knight-like",
        4 => "bishop-like",
        5 => "king-like",
        6 => "queen-like",
        _ => "",
    }
}

/// Reads two square names run together, `b2c4`.
fn parse_squares(text: &str) -> Option<(Square, Square)> {
    if text.len() != 4 || !text.is_ascii() {
        return None;
    }
    Some((Square::parse(&text[..2], 8)?, Square::parse(&text[2..], 8)?))
}

/// Reads the record form of a move (`d1e2`, `3:b2c4`, `1:-`) without looking at a position:
/// only the syntax. A text without a face is read as a king move.
pub(super) fn parse_record(text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let malformed = || {
        MoveError::Malformed(format!(
            "'{text}': expected a king move like d1e2, a pawn move like 3:b2c4 or an empty roll like 1:-"
        ))
    };
    match text.split_once(':') {
        None => parse_squares(text)
            .map(|(from, to)| Move::King { from, to })
            .ok_or_else(malformed),
        Some((face_text, rest)) => {
            let face = match face_text.as_bytes() {
                [d @ b'1'..=b'6'] => d - b'0',
                _ => {
                    return Err(MoveError::Malformed(format!(
                        "'{text}': the die face before ':' must be one digit from 1 to 6"
                    )))
                }
            };
            if rest == "-" {
                Ok(Move::Pass { face })
            } else {
                parse_squares(rest)
                    .map(|(from, to)| Move::Pawn { face, from, to })
                    .ok_or_else(malformed)
            }
        }
    }
}
