//! The static evaluation of Turkish draughts: men and kings, the advancement of men (blended by
//! the number of men left), their files, men backed from behind or side by side, men with a free
//! path to promotion, mobility, and endgame knowledge (a lone king against several pieces is lost
//! in the long run; when ahead, trading down helps; kings against kings only is close to a draw).
//! Every number comes from a [`Params`]: [`super::params::HAND`] (levels 1–5) or
//! [`super::tuned::TUNED`] (level 6).

use takhte_rules::draughts::Position;
use takhte_rules::{Rules, Side};

use super::params::Params;

/// A man's value, the unit of the evaluation's numbers.
pub const MAN: i32 = 100;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Men on the board at the start: the evaluation blends its `_mg` and `_eg` numbers by the
/// number of men left out of these.
const ALL_MEN: i32 = 32;

/// The simple moves of `side`'s men (a cheap count of their mobility).
fn man_moves(men: u64, side: Side, occ: u64) -> i32 {
    let empty = !occ;
    let fwd = match side {
        Side::White => (men << 8) & empty,
        Side::Black => (men >> 8) & empty,
    };
    let sideways = ((men & !FILE_A) >> 1 & empty) | ((men & !FILE_H) << 1 & empty);
    fwd.count_ones() as i32 + sideways.count_ones() as i32
}

/// The squares the kings `kings` can move to (counted once per king).
fn king_moves(kings: u64, occ: u64) -> i32 {
    let mut n = 0;
    let mut k = kings;
    while k != 0 {
        let sq = k.trailing_zeros() as i32;
        k &= k - 1;
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (mut f, mut r) = (sq % 8, sq / 8);
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) || occ & (1u64 << (r * 8 + f)) != 0
                {
                    break;
                }
                n += 1;
            }
        }
    }
    n
}

/// The evaluation of `pos` for the side to move, with the numbers `p`.
pub fn evaluate(p: &Params, pos: &Position) -> i32 {
    let men = [pos.men_bits(Side::White), pos.men_bits(Side::Black)];
    let kings = [pos.king_bits(Side::White), pos.king_bits(Side::Black)];
    let occ = men[0] | men[1] | kings[0] | kings[1];
    let rank_mg = [
        0, 0, p.rank3_mg, p.rank4_mg, p.rank5_mg, p.rank6_mg, p.rank7_mg, 0,
    ];
    let rank_eg = [
        0, 0, p.rank3_eg, p.rank4_eg, p.rank5_eg, p.rank6_eg, p.rank7_eg, 0,
    ];
    let free = [0, 0, 0, 0, p.free5, p.free6, p.free7, 0];
    let file = [
        0, p.file_b, p.file_c, p.file_d, p.file_d, p.file_c, p.file_b, 0,
    ];
    let mut material = [0i32; 2];
    // White's terms minus Black's: those the same all game, and the two ends of the others.
    let (mut both, mut mg, mut eg) = (0i32, 0i32, 0i32);
    for side in [Side::White, Side::Black] {
        let i = side.index();
        let sign = if side == Side::White { 1 } else { -1 };
        material[i] = MAN * men[i].count_ones() as i32 + p.king * kings[i].count_ones() as i32;
        let own = men[i] | kings[i];
        let behind = match side {
            Side::White => own << 8,
            Side::Black => own >> 8,
        };
        let beside = ((men[i] & !FILE_H) << 1) | ((men[i] & !FILE_A) >> 1);
        let (mut s, mut s_mg, mut s_eg) = (0, 0, 0);
        s += p.backed * (men[i] & behind).count_ones() as i32;
        s += p.side_by_side * (men[i] & beside).count_ones() as i32;
        let mut m = men[i];
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = (sq % 8) as usize;
            let rel = if side == Side::White {
                sq / 8
            } else {
                7 - sq / 8
            } as usize;
            s_mg += rank_mg[rel];
            s_eg += rank_eg[rel];
            s += file[f];
            if free[rel] != 0 {
                // The squares ahead of the man on its file (a man never stands on its last rank).
                let ahead = FILE_A << f
                    & match side {
                        Side::White => u64::MAX << (sq + 8),
                        Side::Black => (1u64 << sq) - 1,
                    };
                if ahead & occ == 0 {
                    s += free[rel];
                }
            }
        }
        let moves = man_moves(men[i], side, occ);
        s_mg += p.man_mobility_mg * moves;
        s_eg += p.man_mobility_eg * moves;
        s += p.king_mobility * king_moves(kings[i], occ);
        if kings[i] != 0 && kings[1 - i] == 0 {
            s += p.only_king;
        }
        both += sign * s;
        mg += sign * s_mg;
        eg += sign * s_eg;
    }
    let phase = ((men[0] | men[1]).count_ones() as i32).min(ALL_MEN);
    let (w, b) = (material[0], material[1]);
    let mut total = (w - b) + both + (mg * phase + eg * (ALL_MEN - phase)) / ALL_MEN;
    // Trading down when ahead: the lead counts more as the board empties.
    let lead = w - b;
    if lead != 0 {
        total += lead * p.trade / (w + b).max(1).saturating_add(800);
    }
    for side in [Side::White, Side::Black] {
        let (i, j) = (side.index(), side.opponent().index());
        let sign = if side == Side::White { 1 } else { -1 };
        let mine = (men[i] | kings[i]).count_ones();
        let theirs = (men[j] | kings[j]).count_ones();
        // A lone king against two or more pieces with a king is lost in the long run.
        if mine >= 2 && theirs == 1 && kings[i] != 0 && kings[j] != 0 {
            total += sign * p.lone_king;
        }
    }
    // Kings only against as many kings: close to a draw (the score shrinks sixteenfold).
    if men[0] == 0 && men[1] == 0 && kings[0].count_ones() == kings[1].count_ones() {
        total /= 16;
    }
    let us = if pos.side_to_move() == Side::White {
        total
    } else {
        -total
    };
    us + p.tempo
}

#[cfg(test)]
mod tests {
    use super::super::params::HAND;
    use super::*;

    #[test]
    fn start_is_level_and_a_man_counts() {
        let start = Position::start();
        assert_eq!(evaluate(&HAND, &start), 0);
        let up = Position::from_text("8/bbbbbbb1/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w").unwrap();
        assert!(evaluate(&HAND, &up) > 80);
    }
}
