//! Reading and writing the board fields shared by FEN and the minesweeper-chess position text.

use super::board::{castle, Board, Kind, Piece};
use crate::square::{parse_board_field, write_board_field};
use crate::{PositionError, Side, Square};

/// Reads the board field (ranks from the top) into `board`, then checks what every chess
/// position needs: exactly one king per side and no pawn on the first or last rank.
pub fn read_pieces(board: &mut Board, field: &str) -> Result<(), PositionError> {
    let ranks = board.ranks();
    parse_board_field(field, ranks, |sq, c| match Piece::from_letter(c) {
        Some(p) => {
            board.put(sq, p);
            true
        }
        None => false,
    })?;
    for side in [Side::White, Side::Black] {
        let n = board.pieces(side, Kind::King).count_ones();
        let name = if side == Side::White {
            "White"
        } else {
            "Black"
        };
        if n != 1 {
            return Err(PositionError::new(format!(
                "board: {name} has {n} kings, not 1"
            )));
        }
    }
    let pawns = board.kind_pieces(Kind::Pawn);
    for sq in crate::bitboard::squares(pawns) {
        let sq = Square(sq as u8);
        if sq.rank() == 0 || sq.rank() == ranks - 1 {
            return Err(PositionError::new(format!(
                "board: a pawn on {sq}, on the first or last rank"
            )));
        }
    }
    Ok(())
}

/// Writes the board field.
pub fn write_pieces(board: &Board) -> String {
    write_board_field(board.ranks(), |sq| board.piece_at(sq).map(|p| p.letter()))
}

/// Reads the side-to-move field.
pub fn read_side(field: &str) -> Result<Side, PositionError> {
    Side::from_letter(field).ok_or_else(|| {
        PositionError::new(format!(
            "side to move: expected 'w' or 'b', found '{field}'"
        ))
    })
}

/// Reads the castling field (`KQkq`, any subset in that order, or `-`) and checks that each right
/// has its king and rook on their original squares.
pub fn read_castling(board: &mut Board, field: &str) -> Result<(), PositionError> {
    let mut rights = 0u8;
    if field != "-" {
        if field.is_empty() {
            return Err(PositionError::new(
                "castling: empty field (write '-' for none)",
            ));
        }
        let order = ['K', 'Q', 'k', 'q'];
        let mut last = 0;
        for c in field.chars() {
            let Some(i) = order.iter().position(|&o| o == c) else {
                return Err(PositionError::new(format!(
                    "castling: unknown letter '{c}' (expected KQkq or -)"
                )));
            };
            if i < last || rights & (1 << i) != 0 {
                return Err(PositionError::new(format!(
                    "castling: '{field}' is not in KQkq order"
                )));
            }
            last = i;
            rights |= 1 << i;
        }
    }
    let top = board.ranks() - 1;
    let checks = [
        (castle::WHITE_KING, Side::White, 0, 7, "K"),
        (castle::WHITE_QUEEN, Side::White, 0, 0, "Q"),
        (castle::BLACK_KING, Side::Black, top, 7, "k"),
        (castle::BLACK_QUEEN, Side::Black, top, 0, "q"),
    ];
    for (right, side, rank, rook_file, letter) in checks {
        if rights & right == 0 {
            continue;
        }
        let king = Square::new(4, rank);
        let rook = Square::new(rook_file, rank);
        if board.piece_at(king)
            != Some(Piece {
                kind: Kind::King,
                side,
            })
        {
            return Err(PositionError::new(format!(
                "castling: right '{letter}' but no king on {king}"
            )));
        }
        if board.piece_at(rook)
            != Some(Piece {
                kind: Kind::Rook,
                side,
            })
        {
            return Err(PositionError::new(format!(
                "castling: right '{letter}' but no rook on {rook}"
            )));
        }
    }
    board.set_castling(rights);
    Ok(())
}

/// Writes the castling field.
pub fn write_castling(rights: u8) -> String {
    let s: String = ['K', 'Q', 'k', 'q']
        .iter()
        .enumerate()
        .filter(|(i, _)| rights & (1 << i) != 0)
        .map(|(_, c)| *c)
        .collect();
    if s.is_empty() {
        "-".to_string()
    } else {
        s
    }
}

/// Checks that the side that just moved is not in check (it could not have left its king
/// attacked) and that the side to move is not attacked by more pieces than one move can uncover.
pub fn check_kings(board: &Board) -> Result<(), PositionError> {
    let mover = board.side_to_move();
    if board.in_check(mover.opponent()) {
        return Err(PositionError::new(
            "board: the side not to move is in check",
        ));
    }
    if board.checkers().count_ones() > 2 {
        return Err(PositionError::new(
            "board: the side to move is in check from more than two pieces",
        ));
    }
    Ok(())
}
