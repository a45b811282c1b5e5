//! The position text of RULES.md §2: the board (`K`, `P`, `k`, `p`, rank 8 first) and the side
//! to move, e.g. `ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w`.

use super::movegen::touching;
use super::{bit, side_name, Position};
use crate::square::{parse_board_field, write_board_field};
use crate::{PositionError, Side, Square};

/// The most pawns a side can have: the fifteen it starts with.
const MAX_PAWNS: u32 = 15;

/// Writes the position text.
pub(super) fn write_position(pos: &Position) -> String {
    let board = write_board_field(8, |sq| pos.piece_at(sq).map(|p| p.letter()));
    format!("{board} {}", pos.side.letter())
}

/// Reads a position text and checks that the position can stand: one king a side, kings apart,
/// at most fifteen pawns a side, and at most one king attacked (the side not to move may stand
/// in check only as the final position after an empty roll in check, so it must have pawns).
pub(super) fn read_position(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side) = match fields[..] {
        [] => return Err(PositionError::new("board: the text is empty")),
        [_] => {
            return Err(PositionError::new(
                "side to move: missing (expected 'w' or 'b' after the board)",
            ))
        }
        [board, side] => (board, side),
        [_, _, extra, ..] => {
            return Err(PositionError::new(format!(
                "unexpected field '{extra}' after the side to move (expected 2 fields, found {})",
                fields.len()
            )))
        }
    };

    let mut pawns = [0u64; 2];
    let mut kings: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    parse_board_field(board, 8, |sq, c| {
        match c {
            'K' => kings[0].push(sq),
            'k' => kings[1].push(sq),
            'P' => pawns[0] |= bit(sq),
            'p' => pawns[1] |= bit(sq),
            _ => return false,
        }
        true
    })?;

    let side = Side::from_letter(side).ok_or_else(|| {
        PositionError::new(format!("side to move: expected 'w' or 'b', found '{side}'"))
    })?;

    let mut king_squares = [Square(0); 2];
    for s in [Side::White, Side::Black] {
        let name = side_name(s);
        match kings[s.index()][..] {
            [k] => king_squares[s.index()] = k,
            [] => return Err(PositionError::new(format!("board: {name} has no king"))),
            ref many => {
                let list: Vec<String> = many.iter().map(|k| k.to_string()).collect();
                return Err(PositionError::new(format!(
                    "board: {name} has {} kings ({}), not one",
                    many.len(),
                    list.join(", ")
                )));
            }
        }
        let count = pawns[s.index()].count_ones();
        if count > MAX_PAWNS {
            return Err(PositionError::new(format!(
                "board: {name} has {count} pawns, at most {MAX_PAWNS}"
            )));
        }
    }

    let pos = Position {
        pawns,
        kings: king_squares,
        side,
    };
    let [white_king, black_king] = king_squares;
    if pos.attacked_by(white_king, Side::Black) && pos.attacked_by(black_king, Side::White) {
        return Err(PositionError::new(if touching(white_king, black_king) {
            format!("board: the kings on {white_king} and {black_king} stand next to each other")
        } else {
            format!("board: both kings are in check ({white_king} and {black_king})")
        }));
    }
    let waiting = side.opponent();
    if pos.in_check(waiting) && !pos.has_pawns(waiting) {
        return Err(PositionError::new(format!(
            "board: {} is not to move but its king on {} is in check, and without pawns it cannot \
             have passed an empty roll",
            side_name(waiting),
            pos.kings[waiting.index()]
        )));
    }
    Ok(pos)
}
