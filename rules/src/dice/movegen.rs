//! Attacks, move generation and the check of a single move, with the reason when it is illegal.
//!
//! Attacks never slide here (a pawn attacks the two squares diagonally in front of it, a king
//! the eight around it), so a pawn that moves away never exposes its own king: a pawn move is
//! refused for the king's sake only when the king is already in check and the move does not
//! capture the checking pawn.

use super::{bit, face_name, side_name, Move, Position};
use crate::{Side, Square};

/// Every bit of file a.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Every bit of file h.
const FILE_H: u64 = FILE_A << 7;

/// Rook directions (face 2).
pub const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];
/// Bishop directions (face 4).
pub const DIAGONAL: [(i32, i32); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];
/// The eight neighbours: king steps (face 5, king moves) and queen directions (face 6).
pub const AROUND: [(i32, i32); 8] = crate::square::NEIGHBOURS;
/// Knight jumps (face 3).
const KNIGHT: [(i32, i32); 8] = crate::square::KNIGHT_JUMPS;
/// How far the sliding faces (2, 4, 6) go.
const REACH: i32 = 4;

/// The squares `side`'s pawns attack: the two squares diagonally in front of each pawn.
fn pawn_attacks(side: Side, pawns: u64) -> u64 {
    match side {
        Side::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Side::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Whether `a` and `b` are different squares next to each other (a king on one attacks the other).
pub(super) fn touching(a: Square, b: Square) -> bool {
    a != b && a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1
}

/// The rank step "forward" for `side`.
fn forward(side: Side) -> i32 {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

/// The directions a sliding face moves in, or `None` for faces 1, 3, 5.
fn slide_directions(face: u8) -> Option<&'static [(i32, i32)]> {
    match face {
        2 => Some(&ORTHOGONAL),
        4 => Some(&DIAGONAL),
        6 => Some(&AROUND),
        _ => None,
    }
}

impl Position {
    /// Whether `by` attacks `sq` with a pawn or its king.
    pub(super) fn attacked_by(&self, sq: Square, by: Side) -> bool {
        pawn_attacks(by, self.pawns[by.index()]) & bit(sq) != 0
            || touching(sq, self.kings[by.index()])
    }

    /// Appends the king's legal moves of the side to move.
    pub(super) fn gen_king_moves(&self, out: &mut Vec<Move>) {
        let from = self.kings[self.side.index()];
        for &(df, dr) in &AROUND {
            if let Some(to) = from.offset(df, dr, 8) {
                if self.king_target_problem(to).is_none() {
                    out.push(Move::King { from, to });
                }
            }
        }
    }

    /// Appends the legal pawn moves of the side to move for `face` (1–6).
    pub(super) fn gen_pawn_moves(&self, face: u8, out: &mut Vec<Move>) {
        self.visit_pawn_moves(face, |from, to| {
            out.push(Move::Pawn { face, from, to });
            false
        });
    }

    /// Whether `face` gives the side to move at least one legal pawn move.
    pub(super) fn any_pawn_move(&self, face: u8) -> bool {
        self.visit_pawn_moves(face, |_, _| true)
    }

    /// Calls `visit(from, to)` for each legal pawn move of `face`, pawns in square order; stops
    /// and returns true as soon as `visit` returns true.
    fn visit_pawn_moves(&self, face: u8, mut visit: impl FnMut(Square, Square) -> bool) -> bool {
        let mut pawns = self.pawns[self.side.index()];
        while pawns != 0 {
            let from = Square(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            let stopped = self.visit_pawn_targets(face, from, |to| {
                self.pawn_move_problem(face, from, to).is_none() && visit(from, to)
            });
            if stopped {
                return true;
            }
        }
        false
    }

    /// Calls `visit(to)` for each square the pawn on `from` reaches with `face` by the shape of
    /// the move and the pieces in the way (own king safety and the face-3 rule not yet checked);
    /// stops and returns true as soon as `visit` returns true.
    fn visit_pawn_targets(
        &self,
        face: u8,
        from: Square,
        mut visit: impl FnMut(Square) -> bool,
    ) -> bool {
        let us = self.side.index();
        let them = self.side.opponent().index();
        let blocked = self.pawns[us] | bit(self.kings[us]) | bit(self.kings[them]);
        let prey = self.pawns[them];
        let step = |(df, dr): (i32, i32)| from.offset(df, dr, 8);
        if face == 1 {
            let d = forward(self.side);
            if let Some(to) = step((0, d)) {
                if (blocked | prey) & bit(to) == 0 && visit(to) {
                    return true;
                }
            }
            for df in [-1, 1] {
                if let Some(to) = step((df, d)) {
                    if prey & bit(to) != 0 && visit(to) {
                        return true;
                    }
                }
            }
        } else if let Some(directions) = slide_directions(face) {
            for &(df, dr) in directions {
                for n in 1..=REACH {
                    let Some(to) = step((df * n, dr * n)) else {
                        break;
                    };
                    if blocked & bit(to) != 0 {
                        break;
                    }
                    if visit(to) {
                        return true;
                    }
                    if prey & bit(to) != 0 {
                        break;
                    }
                }
            }
        } else {
            let jumps: &[(i32, i32)] = if face == 3 { &KNIGHT } else { &AROUND };
            for &offset in jumps {
                if let Some(to) = step(offset) {
                    if blocked & bit(to) == 0 && visit(to) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Why the king of the side to move may not step to the neighbouring square `to`, if it may not.
    fn king_target_problem(&self, to: Square) -> Option<&'static str> {
        let us = self.side;
        let them = us.opponent();
        if self.pawns[us.index()] & bit(to) != 0 {
            return Some("the king may not step onto one of your own pawns");
        }
        if to == self.kings[them.index()] {
            return Some("nothing ever captures a king");
        }
        if touching(to, self.kings[them.index()]) {
            return Some("kings never stand next to each other");
        }
        // A pawn captured on `to` never attacked `to` itself, so the attacks stay as they are.
        if pawn_attacks(them, self.pawns[them.index()]) & bit(to) != 0 {
            return Some("the king may not step onto a square attacked by an enemy pawn");
        }
        None
    }

    /// Why the pawn move `from`–`to` of `face`, already of the right shape, is illegal if it is:
    /// it leaves the mover's king attacked, or it is a knight-like move that gives check.
    fn pawn_move_problem(&self, face: u8, from: Square, to: Square) -> Option<&'static str> {
        let us = self.side;
        let them = us.opponent();
        let their_pawns = self.pawns[them.index()] & !bit(to);
        let king = self.kings[us.index()];
        if pawn_attacks(them, their_pawns) & bit(king) != 0
            || touching(king, self.kings[them.index()])
        {
            return Some("your king would still be in check after this move");
        }
        if face == 3 {
            let ours = (self.pawns[us.index()] & !bit(from)) | bit(to);
            if pawn_attacks(us, ours) & bit(self.kings[them.index()]) != 0 {
                return Some("a knight-like move may not give check");
            }
        }
        None
    }

    /// Why the pawn on `from` cannot go to `to` with `face` by the shape of the move or the
    /// pieces in the way, if it cannot.
    fn pawn_shape_problem(&self, face: u8, from: Square, to: Square) -> Option<String> {
        let name = face_name(face);
        let them = self.side.opponent();
        let enemy_pawn = self.pawns[them.index()] & bit(to) != 0;
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        let (adf, adr) = (df.abs(), dr.abs());
        let target = self.piece_at(to);
        if face == 1 {
            let d = forward(self.side);
            return if df == 0 && dr == d {
                target.map(|_| {
                    "a pawn-like move goes straight forward only to an empty square".to_string()
                })
            } else if adf == 1 && dr == d {
                if to == self.kings[them.index()] {
                    Some("nothing ever captures a king".to_string())
                } else if enemy_pawn {
                    None
                } else {
                    Some(
                        "a pawn-like move goes diagonally forward only to capture an enemy pawn"
                            .to_string(),
                    )
                }
            } else if df == 0 && dr == 2 * d {
                Some("a pawn-like move is one square, never two".to_string())
            } else {
                Some("a pawn-like move is one square straight forward, or diagonally forward to capture".to_string())
            };
        }
        let shape_ok = match face {
            2 => (df == 0) != (dr == 0),
            3 => (adf == 1 && adr == 2) || (adf == 2 && adr == 1),
            4 => adf == adr && adf > 0,
            5 => adf.max(adr) == 1,
            _ => ((df == 0) != (dr == 0)) || (adf == adr && adf > 0),
        };
        if !shape_ok {
            return Some(format!("{from}{to} is not a {name} move"));
        }
        if slide_directions(face).is_some() {
            let n = adf.max(adr);
            if n > REACH {
                return Some(format!("a {name} move goes at most {REACH} squares"));
            }
            for i in 1..n {
                if let Some(between) = from.offset(df.signum() * i, dr.signum() * i, 8) {
                    if self.piece_at(between).is_some() {
                        return Some(format!("a {name} move cannot jump over {between}"));
                    }
                }
            }
        }
        match target {
            Some(p) if p.side == self.side => Some(format!("{to} holds one of your own pieces")),
            Some(_) if !enemy_pawn => Some("nothing ever captures a king".to_string()),
            _ => None,
        }
    }

    /// Checks a move for the side to move (the caller has made sure the game is not over by an
    /// empty roll in check or by only kings being left). `Err` says why it is illegal.
    pub(super) fn check_move(&self, mv: &Move) -> Result<(), String> {
        let us = self.side;
        let refuse = |reason: Option<&str>| reason.map_or(Ok(()), |r| Err(r.to_string()));
        match *mv {
            Move::King { from, to } => {
                if from.index() >= 64 || to.index() >= 64 {
                    return Err("no such square".to_string());
                }
                let king = self.kings[us.index()];
                if from != king {
                    return Err(if self.pawns[us.index()] & bit(from) != 0 {
                        "a pawn move needs its die face, e.g. 3:b2c4".to_string()
                    } else {
                        format!("your king stands on {king}, not on {from}")
                    });
                }
                if !touching(from, to) {
                    return Err("a king moves one square in any direction".to_string());
                }
                refuse(self.king_target_problem(to))
            }
            Move::Pawn { face, from, to } => {
                self.check_roll(face)?;
                if from.index() >= 64 || to.index() >= 64 {
                    return Err("no such square".to_string());
                }
                if self.pawns[us.index()] & bit(from) == 0 {
                    return Err(if from == self.kings[us.index()] {
                        format!("the king moves without a roll: write {from}{to}")
                    } else {
                        format!("there is no pawn of yours on {from}")
                    });
                }
                if let Some(reason) = self.pawn_shape_problem(face, from, to) {
                    return Err(reason);
                }
                refuse(self.pawn_move_problem(face, from, to))
            }
            Move::Pass { face } => {
                self.check_roll(face)?;
                if self.any_pawn_move(face) {
                    return Err(format!(
                        "face {face} has a legal move, so it cannot be passed"
                    ));
                }
                if self.no_move_at_all() {
                    return Err(
                        "the game is over: no king move, and no face moves a pawn".to_string()
                    );
                }
                Ok(())
            }
        }
    }

    /// Checks that the side to move may roll and that `face` is a die face.
    fn check_roll(&self, face: u8) -> Result<(), String> {
        if !(1..=6).contains(&face) {
            return Err(format!("there is no die face {face}: a die shows 1 to 6"));
        }
        if !self.has_pawns(self.side) {
            return Err(format!(
                "{} has no pawns, so cannot roll",
                side_name(self.side)
            ));
        }
        Ok(())
    }
}
