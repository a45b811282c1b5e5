//! Standard algebraic notation (SAN) for the chess engine.

use super::board::{Board, Kind, Move, MoveList};
use crate::{MoveError, Square};

fn piece_letter(kind: Kind) -> char {
    kind.letter().to_ascii_uppercase()
}

/// The SAN of a legal move on `board`, with `+` or `#`.
pub fn to_san(board: &Board, mv: Move) -> String {
    let mut s = san_without_suffix(board, mv);
    let mut after = *board;
    after.apply(mv);
    let them = after.side_to_move();
    if after.in_check(them) {
        let mut replies = MoveList::new();
        after.generate(&mut replies);
        s.push(if replies.is_empty() { '#' } else { '+' });
    }
    s
}

fn san_without_suffix(board: &Board, mv: Move) -> String {
    let Some(piece) = board.piece_at(mv.from) else {
        return mv.uci();
    };
    if board.is_castling(mv) {
        return if mv.to.file() == 6 {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let capture = board.is_capture(mv);
    let mut s = String::new();
    if piece.kind == Kind::Pawn {
        if capture {
            s.push((b'a' + mv.from.file()) as char);
            s.push('x');
        }
        s.push_str(&mv.to.to_string());
        if let Some(k) = mv.promotion {
            s.push('=');
            s.push(piece_letter(k));
        }
        return s;
    }
    s.push(piece_letter(piece.kind));
    let mut list = MoveList::new();
    board.generate(&mut list);
    let rivals: Vec<Square> = list
        .as_slice()
        .iter()
        .filter(|m| {
            m.to == mv.to
                && m.from != mv.from
                && board.piece_at(m.from).map(|p| p.kind) == Some(piece.kind)
        })
        .map(|m| m.from)
        .collect();
    if !rivals.is_empty() {
        let file_unique = rivals.iter().all(|r| r.file() != mv.from.file());
        let rank_unique = rivals.iter().all(|r| r.rank() != mv.from.rank());
        if file_unique {
            s.push((b'a' + mv.from.file()) as char);
        } else if rank_unique {
            s.push_str(&(mv.from.rank() + 1).to_string());
        } else {
            s.push_str(&mv.from.to_string());
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&mv.to.to_string());
    s
}

/// Reads SAN: piece letter, optional disambiguation, optional `x`, target, optional `=Q` (or
/// `Q`), optional `+`/`#` and annotations. Over-specified disambiguation is accepted; an
/// ambiguous or illegal move is refused with the reason.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, MoveError> {
    let malformed = || {
        MoveError::Malformed(format!(
            "'{text}' is not a move in SAN (e.g. Nf3, exd5, O-O, e8=Q)"
        ))
    };
    let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let core = core.strip_suffix("e.p.").unwrap_or(core).trim_end();
    if core.is_empty() || !core.is_ascii() {
        return Err(malformed());
    }
    let mut list = MoveList::new();
    board.generate(&mut list);
    let legal = list.as_slice();
    if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
        let file = if core.len() == 3 { 6 } else { 2 };
        return legal
            .iter()
            .copied()
            .find(|m| board.is_castling(*m) && m.to.file() == file)
            .ok_or_else(|| MoveError::Illegal(format!("{text}: castling is not possible here")));
    }
    let mut chars: Vec<char> = core.chars().collect();
    // Promotion suffix: "=Q" or a trailing piece letter after a square.
    let mut promotion = None;
    if let Some(&last) = chars.last() {
        if "QRBN".contains(last) && chars.len() >= 3 {
            promotion = Kind::from_letter(last);
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
    }
    let kind = match chars.first() {
        Some(c) if "KQRBN".contains(*c) => {
            let k = Kind::from_letter(*c);
            chars.remove(0);
            k.ok_or_else(malformed)?
        }
        _ => Kind::Pawn,
    };
    if chars.len() < 2 {
        return Err(malformed());
    }
    let target: String = chars[chars.len() - 2..].iter().collect();
    let to = Square::parse(&target, 8).ok_or_else(malformed)?;
    let mut head: Vec<char> = chars[..chars.len() - 2].to_vec();
    let capture = head.last() == Some(&'x');
    if capture {
        head.pop();
    }
    let (mut from_file, mut from_rank) = (None, None);
    for c in head {
        match c {
            'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
            _ => return Err(malformed()),
        }
    }
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            m.to == to
                && board.piece_at(m.from).map(|p| p.kind) == Some(kind)
                && !board.is_castling(*m)
                && from_file.is_none_or(|f| m.from.file() == f)
                && from_rank.is_none_or(|r| m.from.rank() == r)
                && m.promotion == promotion
                && (!capture || board.is_capture(*m))
        })
        .collect();
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => Err(MoveError::Illegal(format!("{text}: no legal move matches"))),
        _ => Err(MoveError::Illegal(format!(
            "{text}: ambiguous, say which piece moves"
        ))),
    }
}
