//! Static exchange evaluation: whether a capture sequence on one square wins material, with
//! every piece taking in turn from the least valuable up (x-rays through the pieces that have
//! taken included).

use takhte_rules::bitboard::{bit, Bitboard};
use takhte_rules::chess::{Board, Kind, Move};
use takhte_rules::Side;

use super::pst::SEE_VALUE;

fn kind_at(b: &Board, sq: usize) -> Option<Kind> {
    Kind::ALL
        .into_iter()
        .find(|&k| b.kind_pieces(k) & bit(sq) != 0)
}

fn all_attackers(b: &Board, sq: usize, occ: Bitboard) -> Bitboard {
    (b.attackers(sq, Side::White, occ) | b.attackers(sq, Side::Black, occ)) & occ
}

/// Whether `mv` (legal on `b`) wins at least `threshold` centipawns by static exchange.
pub fn see_at_least(b: &Board, mv: Move, threshold: i32) -> bool {
    let (from, to) = (mv.from.index(), mv.to.index());
    let Some(moving) = kind_at(b, from) else {
        return threshold <= 0;
    };
    let ep = b.is_en_passant(mv);
    let mut gain = match kind_at(b, to) {
        Some(k) => SEE_VALUE[k as usize],
        None if ep => SEE_VALUE[0],
        None => 0,
    };
    let mut moved_value = SEE_VALUE[moving as usize];
    if let Some(p) = mv.promotion {
        gain += SEE_VALUE[p as usize] - SEE_VALUE[0];
        moved_value = SEE_VALUE[p as usize];
    }
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = moved_value - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = b.occupied() ^ bit(from) ^ bit(to);
    if ep {
        let victim = takhte_rules::Square::new(mv.to.file(), mv.from.rank());
        occ ^= bit(victim.index());
    }
    let mut stm = b.side_to_move();
    let mut attackers = all_attackers(b, to, occ);
    let mut res = 1;
    'exchange: loop {
        stm = stm.opponent();
        attackers &= occ;
        let mine = attackers & b.side_pieces(stm);
        if mine == 0 {
            break;
        }
        res ^= 1;
        for kind in [
            Kind::Pawn,
            Kind::Knight,
            Kind::Bishop,
            Kind::Rook,
            Kind::Queen,
        ] {
            let bb = mine & b.pieces(stm, kind);
            if bb != 0 {
                swap = SEE_VALUE[kind as usize] - swap;
                if swap < res {
                    break 'exchange;
                }
                occ ^= bb & bb.wrapping_neg();
                attackers |= all_attackers(b, to, occ);
                continue 'exchange;
            }
        }
        // Only the king is left to take: it may do so only if the square is not defended.
        let theirs = attackers & occ & b.side_pieces(stm.opponent());
        let r = if theirs != 0 { res ^ 1 } else { res };
        return r == 1;
    }
    res == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::chess::Position;
    use takhte_rules::Rules;

    fn see(fen: &str, uci: &str, t: i32) -> bool {
        let pos = Position::from_text(fen).unwrap();
        let mv = pos.parse_move(uci).unwrap();
        see_at_least(pos.board(), mv, t)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn.
        assert!(see(
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
            "e1e5",
            100
        ));
        // Knight takes a pawn defended by a pawn... loses the knight.
        assert!(!see(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5",
            0
        ));
        // Queen takes a pawn defended by a pawn.
        assert!(!see("4k3/8/3p4/4p3/8/8/8/4Q1K1 w - - 0 1", "e1e5", 0));
    }
}
