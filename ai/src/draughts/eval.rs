//! The static evaluation of Turkish draughts: men and kings, the advancement of men, mobility,
//! and endgame knowledge (a lone king against several pieces is lost in the long run; when ahead,
//! trading down helps; kings against kings only is close to a draw).

use takhte_rules::draughts::Position;
use takhte_rules::Side;

/// A man's value.
pub const MAN: i32 = 100;
/// A king's value: flying kings that capture along whole ranks and files are worth several men.
pub const KING: i32 = 330;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Advancement bonus of a man by its rank counted from its own side (rank 1 = 0 … rank 7 = 6).
const ADVANCE: [i32; 8] = [0, 0, 3, 7, 13, 22, 36, 0];

/// Simple moves (a cheap mobility count) of `side`'s men and kings.
fn mobility(men: u64, kings: u64, side: Side, occ: u64) -> i32 {
    let empty = !occ;
    let fwd = match side {
        Side::White => (men << 8) & empty,
        Side::Black => (men >> 8) & empty,
    };
    let sideways = ((men & !FILE_A) >> 1 & empty) | ((men & !FILE_H) << 1 & empty);
    let mut n = fwd.count_ones() as i32 + sideways.count_ones() as i32;
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

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let men = [pos.men_bits(Side::White), pos.men_bits(Side::Black)];
    let kings = [pos.king_bits(Side::White), pos.king_bits(Side::Black)];
    let occ = men[0] | men[1] | kings[0] | kings[1];
    let mut material = [0i32; 2];
    let mut score = [0i32; 2];
    for side in [Side::White, Side::Black] {
        let i = side.index();
        material[i] = MAN * men[i].count_ones() as i32 + KING * kings[i].count_ones() as i32;
        let mut m = men[i];
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let rank = sq / 8;
            let rel = if side == Side::White { rank } else { 7 - rank };
            score[i] += ADVANCE[rel as usize];
            // Men on the middle files are harder to hem in.
            let file = sq % 8;
            if (2..=5).contains(&file) {
                score[i] += 2;
            }
        }
        score[i] += 3 * mobility(men[i], kings[i], side, occ);
    }
    let (w, b) = (material[0], material[1]);
    let mut total = (w - b) + score[0] - score[1];
    // Trading down when ahead: the lead counts more as the board empties.
    let lead = w - b;
    if lead != 0 {
        let left = (w + b).max(1);
        total += lead * 800 / (left + 800) / 2;
    }
    // Endgame: a lone king against two or more pieces with a king is lost in the long run.
    for side in [Side::White, Side::Black] {
        let (i, j) = (side.index(), side.opponent().index());
        let sign = if side == Side::White { 1 } else { -1 };
        let mine = (men[i] | kings[i]).count_ones();
        let theirs = (men[j] | kings[j]).count_ones();
        if mine >= 2 && theirs == 1 && kings[i] != 0 && kings[j] != 0 {
            total += sign * 150;
        }
        // Kings only against kings only, equal numbers: close to a draw.
        if men[i] == 0 && men[j] == 0 && kings[i].count_ones() == kings[j].count_ones() {
            total /= 4;
        }
    }
    if pos_side(pos) == Side::White {
        total
    } else {
        -total
    }
}

fn pos_side(pos: &Position) -> Side {
    use takhte_rules::Rules;
    pos.side_to_move()
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::Rules;

    #[test]
    fn start_is_level_and_a_man_counts() {
        let start = Position::start();
        assert_eq!(evaluate(&start), 0);
        let up = Position::from_text("8/bbbbbbb1/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w").unwrap();
        assert!(evaluate(&up) > 80);
    }
}
