//! A compact dice-chess board for the search: two pawn bitboards, two king squares and the side
//! to move, with allocation-free move generation by die face. It follows RULES.md §2 exactly
//! like [`takhte_rules::dice::Position`] (a test plays random games through both and compares
//! the move lists at every turn); the search uses it because it is several times faster.

use takhte_rules::dice::{Move, Position, AROUND, DIAGONAL, ORTHOGONAL};
use takhte_rules::{Rules, Side, Square};

use super::super::zobrist::{dice_key, BLACK_TO_MOVE};

const fn leaper(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// King steps from each square.
pub static KING_STEPS: [u64; 64] = leaper(&AROUND);
static KNIGHT_JUMPS: [u64; 64] = leaper(&takhte_rules::square::KNIGHT_JUMPS);
/// Squares a pawn of each side attacks (diagonally forward).
pub static PAWN_ATTACKS: [[u64; 64]; 2] =
    [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

/// A dice-chess move for the search: a king step (`face` 0) or a pawn move with its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DMove {
    /// The start square index.
    pub from: u8,
    /// The landing square index.
    pub to: u8,
    /// 0 for a king move, else the die face 1–6.
    pub face: u8,
}

impl DMove {
    /// The rules' move.
    pub fn to_rules(self) -> Move {
        if self.face == 0 {
            Move::King {
                from: Square(self.from),
                to: Square(self.to),
            }
        } else {
            Move::Pawn {
                face: self.face,
                from: Square(self.from),
                to: Square(self.to),
            }
        }
    }

    /// Packed into a non-zero number.
    pub fn pack(self) -> u32 {
        self.from as u32 | (self.to as u32) << 6 | (self.face as u32) << 12 | 1 << 16
    }
}

/// The board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceBoard {
    /// Pawns per side.
    pub pawns: [u64; 2],
    /// King squares per side.
    pub kings: [u8; 2],
    /// The side to move (0 White, 1 Black).
    pub side: usize,
}

impl DiceBoard {
    /// The board of a rules position.
    pub fn from_position(p: &Position) -> DiceBoard {
        let mut pawns = [0u64; 2];
        for side in [Side::White, Side::Black] {
            for sq in p.pawn_squares(side) {
                pawns[side.index()] |= 1 << sq.index();
            }
        }
        DiceBoard {
            pawns,
            kings: [p.king_square(Side::White).0, p.king_square(Side::Black).0],
            side: p.side_to_move().index(),
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        if self.side == 0 {
            Side::White
        } else {
            Side::Black
        }
    }

    /// The Zobrist key.
    pub fn key(&self) -> u64 {
        let mut k = dice_key(self.pawns[0], 0)
            ^ dice_key(self.pawns[1], 1)
            ^ dice_key(1 << self.kings[0], 2)
            ^ dice_key(1 << self.kings[1], 3);
        if self.side == 1 {
            k ^= BLACK_TO_MOVE;
        }
        k
    }

    /// The squares `side`'s pawns attack.
    pub fn pawn_attacks(&self, side: usize) -> u64 {
        let p = self.pawns[side];
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        const FILE_H: u64 = FILE_A << 7;
        if side == 0 {
            ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9)
        } else {
            ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7)
        }
    }

    /// The enemy pawns giving check to `side`'s king.
    pub fn checkers(&self, side: usize) -> u64 {
        PAWN_ATTACKS[side][self.kings[side] as usize] & self.pawns[1 - side]
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.checkers(self.side) != 0
    }

    /// Whether the side to move has a pawn (and so may roll).
    pub fn can_roll(&self) -> bool {
        self.pawns[self.side] != 0
    }

    /// Whether only the kings are left (a draw).
    pub fn only_kings(&self) -> bool {
        self.pawns[0] | self.pawns[1] == 0
    }

    /// Whether neither side can ever win: one side has no pawns and the other at most one.
    ///
    /// A king with one pawn cannot mate a lone king. A mate needs the lone king in check from a
    /// pawn with every square around it covered; the kings never stand side by side, so the
    /// attacking king cannot cover both squares beside a cornered king, nor both squares beside
    /// a king on an edge along that edge, and the checking pawn covers neither. The lone
    /// king cannot give check at all. (The rules still play such a game on; the search scores
    /// it as the draw it is.)
    pub fn dead_draw(&self) -> bool {
        let (w, b) = (self.pawns[0].count_ones(), self.pawns[1].count_ones());
        w.min(b) == 0 && w.max(b) <= 1
    }

    /// The king's legal moves, appended to `out`.
    pub fn king_moves(&self, out: &mut Vec<DMove>) {
        let us = self.side;
        let them = 1 - us;
        let from = self.kings[us];
        let ek = self.kings[them] as usize;
        let banned = self.pawns[us] | KING_STEPS[ek] | 1 << ek | self.pawn_attacks(them);
        let mut t = KING_STEPS[from as usize] & !banned;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            out.push(DMove { from, to, face: 0 });
        }
    }

    /// The squares the pawn on `from` reaches with `face` by the shape of the move and the
    /// pieces in the way (legality for the kings not yet checked).
    fn targets(&self, face: u8, from: usize) -> u64 {
        let us = self.side;
        let blocked = self.pawns[us] | 1 << self.kings[0] | 1 << self.kings[1];
        let prey = self.pawns[1 - us];
        match face {
            1 => {
                let fwd = if us == 0 {
                    from + 8
                } else {
                    from.wrapping_sub(8)
                };
                let mut t = 0;
                if fwd < 64 && (blocked | prey) & (1 << fwd) == 0 {
                    t |= 1 << fwd;
                }
                t | (PAWN_ATTACKS[us][from] & prey)
            }
            3 => KNIGHT_JUMPS[from] & !blocked,
            5 => KING_STEPS[from] & !blocked,
            _ => {
                let dirs: &[(i32, i32)] = match face {
                    2 => &ORTHOGONAL,
                    4 => &DIAGONAL,
                    _ => &AROUND,
                };
                let (f0, r0) = ((from % 8) as i32, (from / 8) as i32);
                let mut t = 0u64;
                for &(df, dr) in dirs {
                    let (mut f, mut r) = (f0, r0);
                    for _ in 0..4 {
                        f += df;
                        r += dr;
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            break;
                        }
                        let b = 1u64 << (r * 8 + f);
                        if blocked & b != 0 {
                            break;
                        }
                        t |= b;
                        if prey & b != 0 {
                            break;
                        }
                    }
                }
                t
            }
        }
    }

    /// Whether the king of the side to move has no legal move.
    pub fn king_is_stuck(&self) -> bool {
        let us = self.side;
        let them = 1 - us;
        let ek = self.kings[them] as usize;
        let banned = self.pawns[us] | KING_STEPS[ek] | 1 << ek | self.pawn_attacks(them);
        KING_STEPS[self.kings[us] as usize] & !banned == 0
    }

    /// The legal pawn moves of `face`, appended to `out`.
    pub fn pawn_moves(&self, face: u8, out: &mut Vec<DMove>) {
        let us = self.side;
        let them = 1 - us;
        let checkers = self.checkers(us);
        if checkers.count_ones() > 1 {
            return;
        }
        let ek = self.kings[them] as usize;
        let mut pawns = self.pawns[us];
        while pawns != 0 {
            let from = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            let mut t = self.targets(face, from);
            if checkers != 0 {
                t &= checkers;
            }
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                if face == 3 {
                    let ours = (self.pawns[us] & !(1 << from)) | 1 << to;
                    if PAWN_ATTACKS[them][ek] & ours != 0 {
                        continue;
                    }
                }
                out.push(DMove {
                    from: from as u8,
                    to: to as u8,
                    face,
                });
            }
        }
    }

    /// Whether `face` gives the side to move a legal pawn move.
    pub fn any_pawn_move(&self, face: u8, buf: &mut Vec<DMove>) -> bool {
        buf.clear();
        self.pawn_moves(face, buf);
        !buf.is_empty()
    }

    /// Whether `mv` captures a pawn.
    pub fn is_capture(&self, mv: DMove) -> bool {
        self.pawns[1 - self.side] & (1 << mv.to) != 0
    }

    /// Whether `mv` (a pawn move) gives check.
    pub fn gives_check(&self, mv: DMove) -> bool {
        let us = self.side;
        let ek = self.kings[1 - us] as usize;
        mv.face != 0 && PAWN_ATTACKS[1 - us][ek] & (1 << mv.to) != 0
    }

    /// The board after `mv`.
    pub fn play(&self, mv: DMove) -> DiceBoard {
        let mut b = *self;
        let us = self.side;
        let to = 1u64 << mv.to;
        if mv.face == 0 {
            b.kings[us] = mv.to;
        } else {
            b.pawns[us] = (b.pawns[us] & !(1 << mv.from)) | to;
        }
        b.pawns[1 - us] &= !to;
        b.side = 1 - us;
        b
    }

    /// The board after an empty roll (the turn passes).
    pub fn pass(&self) -> DiceBoard {
        let mut b = *self;
        b.side = 1 - b.side;
        b
    }
}

/// The rules' moves of `pos` for a check: king moves (`face` None) or one face's pawn moves.
pub fn rules_moves(pos: &Position, face: Option<u8>) -> Vec<Move> {
    match face {
        None => pos.king_moves(),
        Some(f) => pos.pawn_moves(f),
    }
}

/// The rules' position of a board (for tests).
pub fn to_position(b: &DiceBoard) -> Position {
    let mut rows = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = rank * 8 + file;
            let c = if b.kings[0] == sq as u8 {
                Some('K')
            } else if b.kings[1] == sq as u8 {
                Some('k')
            } else if b.pawns[0] & (1 << sq) != 0 {
                Some('P')
            } else if b.pawns[1] & (1 << sq) != 0 {
                Some('p')
            } else {
                None
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        rows.push_str(&empty.to_string());
                        empty = 0;
                    }
                    rows.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            rows.push_str(&empty.to_string());
        }
        if rank > 0 {
            rows.push('/');
        }
    }
    let side = if b.side == 0 { 'w' } else { 'b' };
    Position::from_text(&format!("{rows} {side}")).expect("a board from a legal position")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn agrees_with_the_rules_in_random_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for game in 0..30 {
            let mut pos = Position::start(if game % 2 == 0 {
                Side::White
            } else {
                Side::Black
            });
            for _ in 0..120 {
                if pos.outcome().is_some() {
                    break;
                }
                let b = DiceBoard::from_position(&pos);
                assert_eq!(to_position(&b), pos);
                let mut ours = Vec::new();
                b.king_moves(&mut ours);
                let theirs: Vec<String> = rules_moves(&pos, None)
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                assert_eq!(
                    sorted(ours.iter().map(|m| m.to_rules().to_string()).collect()),
                    sorted(theirs),
                    "{}",
                    pos.to_text()
                );
                for face in 1..=6 {
                    let mut ours = Vec::new();
                    b.pawn_moves(face, &mut ours);
                    let theirs: Vec<String> = rules_moves(&pos, Some(face))
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    assert_eq!(
                        sorted(ours.iter().map(|m| m.to_rules().to_string()).collect()),
                        sorted(theirs),
                        "{} face {face}",
                        pos.to_text()
                    );
                }
                let moves = pos.legal_moves();
                let mv = moves[rng.gen_range(0..moves.len())].clone();
                pos.play(&mv).unwrap();
            }
        }
    }
}
