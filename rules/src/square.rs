//! Squares of an 8-file board with 8 or 10 ranks.

use std::fmt;

/// The eight knight jumps, as (file, rank) steps. Every board size builds its tables from
/// this one list.
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (-1, 2),
    (1, 2),
    (-2, 1),
    (2, 1),
    (-2, -1),
    (2, -1),
    (-1, -2),
    (1, -2),
];

/// The eight neighbouring squares, as (file, rank) steps: a king's steps.
pub const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A square of a board with eight files (`a`–`h`) and up to ten ranks. The index is
/// `rank * 8 + file`, both counted from 0 at White's bottom-left corner (a1 = 0, h1 = 7, a2 = 8).
///
/// ```
/// use takhte_rules::Square;
/// let e4 = Square::parse("e4", 8).unwrap();
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.to_string(), "e4");
/// assert_eq!(Square::parse("e10", 10).unwrap().index(), 76);
/// assert!(Square::parse("e9", 8).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0–7) and `rank` (0-based).
    pub fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// The square at `file`, `rank` when both are on a board of `ranks` ranks.
    pub fn checked(file: i32, rank: i32, ranks: u8) -> Option<Square> {
        if (0..8).contains(&file) && (0..ranks as i32).contains(&rank) {
            Some(Square::new(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// The index `rank * 8 + file`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File from 0 (`a`) to 7 (`h`).
    pub fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank from 0 (rank 1).
    pub fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square `df` files and `dr` ranks away, if it is on a board of `ranks` ranks.
    pub fn offset(self, df: i32, dr: i32, ranks: u8) -> Option<Square> {
        Square::checked(self.file() as i32 + df, self.rank() as i32 + dr, ranks)
    }

    /// Reads a square name like `e4` or `c10` on a board of `ranks` ranks.
    pub fn parse(text: &str, ranks: u8) -> Option<Square> {
        let mut chars = text.chars();
        let f = chars.next()?;
        if !('a'..='h').contains(&f) {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty()
            || rest.len() > 2
            || !rest.bytes().all(|b| b.is_ascii_digit())
            || rest.starts_with('0')
        {
            return None;
        }
        let r: u8 = rest.parse().ok()?;
        if r == 0 || r > ranks {
            return None;
        }
        Some(Square::new(f as u8 - b'a', r - 1))
    }

    /// Whether the square is light (a1 is dark).
    pub fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Reads the board field of a FEN-like text: ranks from the top, separated by `/`, digits for runs
/// of empty squares. Calls `place` for every letter with its square; `place` returns false for a
/// letter it does not know. The error names the rank and the problem.
pub fn parse_board_field(
    field: &str,
    ranks: u8,
    mut place: impl FnMut(Square, char) -> bool,
) -> Result<(), super::PositionError> {
    use super::PositionError;
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(PositionError::new(format!(
            "board: expected {ranks} ranks separated by '/', found {}",
            rows.len()
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let mut last_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if last_digit {
                    return Err(PositionError::new(format!(
                        "board: rank {} has two digits in a row",
                        rank + 1
                    )));
                }
                last_digit = true;
                // A run may be written with two digits on a 10-wide board in other tools; ours are 8 wide.
                if d == 0 {
                    return Err(PositionError::new(format!(
                        "board: rank {} has an empty run of 0",
                        rank + 1
                    )));
                }
                file += d;
                if file > 8 {
                    return Err(PositionError::new(format!(
                        "board: rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
            } else {
                last_digit = false;
                if file >= 8 {
                    return Err(PositionError::new(format!(
                        "board: rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
                let sq = Square::new(file as u8, rank);
                if !place(sq, c) {
                    return Err(PositionError::new(format!(
                        "board: unknown piece '{c}' on {sq}"
                    )));
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(PositionError::new(format!(
                "board: rank {} has {} squares, not 8",
                rank + 1,
                file
            )));
        }
    }
    Ok(())
}

/// Writes the board field of a FEN-like text from a function giving each square's letter.
pub fn write_board_field(ranks: u8, letter: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match letter(Square::new(file, rank)) {
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).unwrap_or('8'));
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).unwrap_or('8'));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}
