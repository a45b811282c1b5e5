//! The static evaluation of dice chess.
//!
//! Terms, for each side: pawn count; advancement; king safety (enemy pawns close to the king,
//! squares around it the enemy attacks, room to step away, own pawns beside it that can take a
//! checking pawn); pressure on the enemy king. The side to move also gets its threats: for
//! each die face, whether that face would let it capture a pawn or give check (a sixth each),
//! computed with shift fills over the bitboards. When one side has no pawns left it can only
//! walk its king: the other side is rewarded for keeping pawns, hemming the king in and driving
//! it to its own back rank, as long as it does not stalemate it; a king that reaches the other
//! side's first rank can never be checked by pawns, which only attack forward, so there it is
//! safe for good.
//!
//! A side in check at a leaf is not judged here: the search looks one turn further.

use super::board::{DiceBoard, KING_STEPS, PAWN_ATTACKS};
use takhte_rules::dice::{DIAGONAL, ORTHOGONAL};

/// A pawn's value.
pub const PAWN: i32 = 100;

/// Advancement bonus by rank counted from the own side (ranks 1–8), for a pawn still below
/// the enemy king: a pawn beyond the king attacks nothing near it.
const ADVANCE: [i32; 8] = [0, 0, 4, 9, 14, 18, 20, 20];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra, fb, rb) = (
        (a % 8) as i32,
        (a / 8) as i32,
        (b % 8) as i32,
        (b / 8) as i32,
    );
    (fa - fb).abs().max((ra - rb).abs())
}

/// One step in a direction (file step, rank step), dropping what leaves the board.
#[inline]
fn shift(b: u64, df: i32, dr: i32) -> u64 {
    let b = match df {
        1 => (b & !FILE_H) << 1,
        -1 => (b & !FILE_A) >> 1,
        _ => b,
    };
    match dr {
        1 => b << 8,
        -1 => b >> 8,
        _ => b,
    }
}

/// The squares pawns on `from` reach sliding up to four squares in the given directions,
/// stopping at any piece (which is included).
fn slide(from: u64, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut reach = 0;
    for &(df, dr) in dirs {
        let mut g = from;
        for _ in 0..4 {
            g = shift(g, df, dr);
            reach |= g;
            g &= !occupied;
            if g == 0 {
                break;
            }
        }
    }
    reach
}

fn knight_jumps(p: u64) -> u64 {
    let mut r = 0;
    for (df, dr) in takhte_rules::square::KNIGHT_JUMPS {
        let mut g = p;
        for _ in 0..df.abs() {
            g = shift(g, df.signum(), 0);
        }
        for _ in 0..dr.abs() {
            g = shift(g, 0, dr.signum());
        }
        r |= g;
    }
    r
}

fn king_steps(p: u64) -> u64 {
    let h = p | shift(p, 1, 0) | shift(p, -1, 0);
    (h | shift(h, 0, 1) | shift(h, 0, -1)) & !p
}

/// For each face 1–6, the squares `side`'s pawns could land on (shape and blockers only).
fn face_reach(b: &DiceBoard, side: usize) -> [u64; 6] {
    let own = b.pawns[side];
    let occ = b.pawns[0] | b.pawns[1] | 1 << b.kings[0] | 1 << b.kings[1];
    let rook = slide(own, occ, &ORTHOGONAL);
    let bishop = slide(own, occ, &DIAGONAL);
    let steps = king_steps(own);
    let forward = if side == 0 { own << 8 } else { own >> 8 };
    [
        b.pawn_attacks(side) | forward,
        rook,
        knight_jumps(own),
        bishop,
        steps,
        rook | bishop | steps,
    ]
}

/// What the side to move threatens this turn: a sixth of a pawn for each face that captures,
/// more for each face that gives check to a king with nowhere to go.
fn threats(b: &DiceBoard) -> i32 {
    let us = b.side;
    let them = 1 - us;
    let reach = face_reach(b, us);
    let prey = b.pawns[them];
    let ek = b.kings[them] as usize;
    // Landing squares from which a pawn attacks the enemy king.
    let checking = PAWN_ATTACKS[them][ek];
    let boxed = escape_squares(b, them) == 0;
    let mut t = 0;
    for (f, &r) in reach.iter().enumerate() {
        if r & prey != 0 {
            t += 70;
        }
        if f != 2 && r & checking != 0 {
            t += if boxed { 120 } else { 25 };
        }
    }
    // The king takes an unprotected pawn next to it without rolling.
    let guarded = b.pawn_attacks(them) | KING_STEPS[ek];
    let king_takes = KING_STEPS[b.kings[us] as usize] & prey & !guarded;
    t / 6 + if king_takes != 0 { 85 } else { 0 }
}

/// The squares `side`'s king could step to (ignoring whose turn it is).
fn escape_squares(b: &DiceBoard, side: usize) -> u32 {
    let them = 1 - side;
    let ek = b.kings[them] as usize;
    let banned = b.pawns[side] | KING_STEPS[ek] | 1 << ek | b.pawn_attacks(them);
    (KING_STEPS[b.kings[side] as usize] & !banned).count_ones()
}

/// The evaluation of `b` for one side (positive is good for `side`).
fn side_score(b: &DiceBoard, side: usize) -> i32 {
    let them = 1 - side;
    let own = b.pawns[side];
    let n = own.count_ones() as i32;
    let mut s = PAWN * n;
    let king = b.kings[side];
    let enemy_king = b.kings[them];
    let mut p = own;
    while p != 0 {
        let sq = p.trailing_zeros() as u8;
        p &= p - 1;
        // Pawns attack forward only: they count near the enemy king and below it (for White).
        let below = if side == 0 {
            sq / 8 < enemy_king / 8
        } else {
            sq / 8 > enemy_king / 8
        };
        let rank = (sq / 8) as usize;
        let rel = if side == 0 { rank } else { 7 - rank };
        if below {
            s += ADVANCE[rel];
            match distance(sq, enemy_king) {
                1 => s += 14,
                2 => s += 12,
                3 => s += 5,
                _ => {}
            }
        }
        if distance(sq, king) == 1 {
            s += 5;
        }
    }
    // King danger: enemy pawns close below the king (they attack forward), the more so when
    // the king has little room; own pawns close by can take a checking pawn.
    let mut attackers = 0;
    let mut e = b.pawns[them];
    while e != 0 {
        let sq = e.trailing_zeros() as u8;
        e &= e - 1;
        let below = if them == 0 {
            sq / 8 < king / 8
        } else {
            sq / 8 > king / 8
        };
        if below && distance(sq, king) <= 2 {
            attackers += 1;
        }
    }
    let mut defenders = 0;
    let mut d = own;
    while d != 0 {
        let sq = d.trailing_zeros() as u8;
        d &= d - 1;
        if distance(sq, king) <= 2 {
            defenders += 1;
        }
    }
    let room = (escape_squares(b, side) as i32).min(3);
    s -= attackers * (10 + 8 * (3 - room)) - 3 * defenders.min(6);
    let attacked = b.pawn_attacks(them);
    let around = KING_STEPS[king as usize];
    s -= 7 * (around & attacked).count_ones() as i32;
    s += 3 * (escape_squares(b, side) as i32).min(4);
    s += 6 * (KING_STEPS[enemy_king as usize] & b.pawn_attacks(side)).count_ones() as i32;
    // Against a king without pawns: keep pawns, hem it in, drive it to the edge. A king on
    // our own first rank can never be checked by our pawns (they attack forward): a fortress.
    let (f, r) = ((enemy_king % 8) as i32, (enemy_king / 8) as i32);
    let back = if them == 1 { 7 - r } else { r };
    if b.pawns[them] == 0 && n > 0 && back < 7 {
        let ek = enemy_king;
        let edge = f.min(7 - f);
        s += 80 + 25 * n.min(6) - 25 * back - 8 * edge - 20 * escape_squares(b, them) as i32
            + 6 * (7 - distance(king, ek))
            + 10 * (KING_STEPS[ek as usize] & b.pawn_attacks(side)).count_ones() as i32;
    }
    s
}

/// The evaluation for the side to move, clamped well inside the win score.
pub fn evaluate(b: &DiceBoard) -> i32 {
    let us = b.side;
    let v = side_score(b, us) - side_score(b, 1 - us) + threats(b);
    v.clamp(-super::expectimax::WIN / 2, super::expectimax::WIN / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::dice::Position;
    use takhte_rules::{Rules, Side};

    #[test]
    fn face_reach_matches_the_move_generator() {
        let pos =
            Position::from_text("pppk1ppp/ppp2ppp/3p4/4p3/3P4/2P5/PP2PPPP/PPPKPP1P w").unwrap();
        let b = DiceBoard::from_position(&pos);
        let reach = face_reach(&b, 0);
        for face in 1..=6u8 {
            let mut moves = Vec::new();
            b.pawn_moves(face, &mut moves);
            for m in moves {
                assert!(
                    reach[face as usize - 1] & (1 << m.to) != 0,
                    "face {face}: {:?}",
                    m
                );
            }
        }
        let start = DiceBoard::from_position(&Position::start(Side::White));
        assert_eq!(evaluate(&start), threats(&start));
    }
}
