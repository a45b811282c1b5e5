//! Draughts moves and their text form (`c3-c4`, `c3xc5xe5`).

use std::fmt;

use crate::{MoveError, Square};

/// A draughts move: a simple move or a whole capture sequence.
///
/// In Turkish draughts the path alone determines the captured pieces (each leg of a capture jumps
/// exactly one piece, the only piece between its two ends), so two different legal moves never
/// share a path and a text form.
///
/// ```
/// use takhte_rules::{draughts::Move, Square};
/// let sq = |s| Square::parse(s, 8).unwrap();
/// let mv = Move { path: vec![sq("c3"), sq("c5"), sq("e5")], captured: vec![sq("c4"), sq("d5")] };
/// assert_eq!((mv.from(), mv.to()), (sq("c3"), sq("e5")));
/// assert!(mv.is_capture());
/// assert_eq!(mv.to_string(), "c3xc5xe5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The start square, then every landing square in order (two squares for a simple move).
    pub path: Vec<Square>,
    /// The captured squares in jump order; empty for a simple move.
    pub captured: Vec<Square>,
}

impl Move {
    /// A simple (non-capturing) move from `from` to `to`.
    pub fn simple(from: Square, to: Square) -> Move {
        Move {
            path: vec![from, to],
            captured: Vec::new(),
        }
    }

    /// The square the moving piece starts on.
    ///
    /// # Panics
    /// When `path` is empty, which no generated or parsed move is.
    pub fn from(&self) -> Square {
        self.path[0]
    }

    /// The square the moving piece ends on.
    ///
    /// # Panics
    /// When `path` is empty, which no generated or parsed move is.
    pub fn to(&self) -> Square {
        self.path[self.path.len() - 1]
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// How many pieces the move captures.
    pub fn capture_count(&self) -> usize {
        self.captured.len()
    }
}

impl fmt::Display for Move {
    /// The move text: `c3-c4` for a simple move, every landing square for a capture (`c3xc5xe5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, sq) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// A move text read but not yet checked against a position: the squares and whether it is
/// written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MoveText {
    pub path: Vec<Square>,
    pub capture: bool,
}

/// The longest path a capture can have: the start square and one landing per captured piece.
const MAX_PATH: usize = 64;

/// Reads `c3-c4` or `c3xc5xe5` (at least two squares); anything else is `Malformed`.
pub(super) fn parse_move_text(text: &str) -> Result<MoveText, MoveError> {
    let has_dash = text.contains('-');
    let has_x = text.contains('x');
    let bad = |why: &str| {
        MoveError::Malformed(format!(
            "'{}': {why}; expected c3-c4 or c3xc5xe5",
            text.escape_debug()
        ))
    };
    if has_dash && has_x {
        return Err(bad("mixes '-' and 'x'"));
    }
    if !has_dash && !has_x {
        return Err(bad("no '-' or 'x' between squares"));
    }
    let sep = if has_dash { '-' } else { 'x' };
    let mut path = Vec::new();
    for part in text.split(sep) {
        if path.len() >= MAX_PATH {
            return Err(bad("too many squares"));
        }
        match Square::parse(part, 8) {
            Some(sq) => path.push(sq),
            None => return Err(bad(&format!("'{}' is not a square", part.escape_debug()))),
        }
    }
    if has_dash && path.len() != 2 {
        return Err(bad("a simple move has exactly two squares"));
    }
    Ok(MoveText {
        path,
        capture: has_x,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms() {
        let m = parse_move_text("c3-c4").unwrap();
        assert!(!m.capture);
        assert_eq!(m.path.len(), 2);
        let m = parse_move_text("c3xc5xe5").unwrap();
        assert!(m.capture);
        assert_eq!(m.path.len(), 3);
    }

    #[test]
    fn rejects_bad_text() {
        for t in [
            "", "c3", "c3c4", "c3-c4-c5", "c3-", "-c4", "c3xc5-e5", "C3-C4", "c3 - c4", "i3-c4",
            "c9-c4", "c3x", "x", "é3-c4", "c3—c4",
        ] {
            assert!(
                matches!(parse_move_text(t), Err(MoveError::Malformed(_))),
                "{t}"
            );
        }
    }
}
