//! The static evaluation of dice chess: pawn count, advancement, king safety (enemy pawns
//! close to the king, attacked squares around it, room to step away) and pressure on the enemy
//! king. A side in check at a leaf is not judged here: the search looks one turn further.

use super::board::{DiceBoard, KING_STEPS};

/// A pawn's value.
pub const PAWN: i32 = 100;

/// Advancement bonus by rank counted from the own side (ranks 1–8).
const ADVANCE: [i32; 8] = [0, 0, 4, 9, 14, 18, 20, 20];

fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra, fb, rb) = (
        (a % 8) as i32,
        (a / 8) as i32,
        (b % 8) as i32,
        (b / 8) as i32,
    );
    (fa - fb).abs().max((ra - rb).abs())
}

/// The evaluation of `b` for one side (positive is good for `side`).
fn side_score(b: &DiceBoard, side: usize) -> i32 {
    let them = 1 - side;
    let own = b.pawns[side];
    let mut s = PAWN * own.count_ones() as i32;
    let king = b.kings[side];
    let enemy_king = b.kings[them];
    let mut p = own;
    while p != 0 {
        let sq = p.trailing_zeros() as u8;
        p &= p - 1;
        let rank = (sq / 8) as usize;
        let rel = if side == 0 { rank } else { 7 - rank };
        s += ADVANCE[rel];
        // Pressure: pawns near the enemy king.
        match distance(sq, enemy_king) {
            1 => s += 14,
            2 => s += 10,
            3 => s += 4,
            _ => {}
        }
        // Guards: pawns next to the own king.
        if distance(sq, king) == 1 {
            s += 5;
        }
    }
    // King safety: room around the king not attacked by enemy pawns.
    let attacked = b.pawn_attacks(them);
    let around = KING_STEPS[king as usize];
    let hit = (around & attacked).count_ones() as i32;
    s -= 7 * hit;
    let free = (around & !attacked & !b.pawns[side] & !KING_STEPS[enemy_king as usize]).count_ones()
        as i32;
    s += 3 * free.min(4);
    // Squares around the enemy king our pawns attack.
    let enemy_around = KING_STEPS[enemy_king as usize];
    s += 6 * (enemy_around & b.pawn_attacks(side)).count_ones() as i32;
    s
}

/// The evaluation for the side to move, clamped well inside the win score.
pub fn evaluate(b: &DiceBoard) -> i32 {
    let us = b.side;
    let v = side_score(b, us) - side_score(b, 1 - us) + 8;
    v.clamp(-super::expectimax::WIN / 2, super::expectimax::WIN / 2)
}
