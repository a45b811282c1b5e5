//! Bitboards for boards of eight files and up to ten ranks.
//!
//! A [`Bitboard`] is a `u128` with bit `rank * 8 + file` set for each square in the set, so one
//! representation serves the 8×8 chess board (bits 0–63) and the 8×10 minesweeper board
//! (bits 0–79). The attack tables below are computed once, at compile time, for the 10-rank
//! board; on an 8-rank board the caller masks the result with [`board_mask`], which cuts off the
//! parts of a ray or a knight jump that would land on ranks 9 and 10. Every other square is
//! addressed the same way on both boards, so no table is duplicated.

/// A set of squares: bit `rank * 8 + file`.
pub type Bitboard = u128;

/// The number of squares of the largest board (8 files × 10 ranks).
pub const MAX_SQUARES: usize = 80;

/// The squares of a board with `ranks` ranks.
///
/// ```
/// use takhte_rules::bitboard::board_mask;
/// assert_eq!(board_mask(8), u64::MAX as u128);
/// assert_eq!(board_mask(10).count_ones(), 80);
/// ```
pub const fn board_mask(ranks: u8) -> Bitboard {
    (1u128 << (8 * ranks as u32)) - 1
}

/// The single-square set of square index `sq`.
#[inline(always)]
pub const fn bit(sq: usize) -> Bitboard {
    1u128 << sq
}

/// The squares of one rank (0-based).
pub const fn rank_mask(rank: u8) -> Bitboard {
    0xffu128 << (8 * rank as u32)
}

/// Iterates the square indices of a set, lowest first.
///
/// ```
/// use takhte_rules::bitboard::squares;
/// assert_eq!(squares(0b1010).collect::<Vec<_>>(), vec![1, 3]);
/// ```
#[inline]
pub fn squares(mut set: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(sq)
        }
    })
}

const RANKS: i32 = 10;

/// The eight line directions as (file step, rank step); direction `d + 4` is the opposite of
/// `d`. The first four point towards higher
/// square indices (so the nearest blocker is the lowest set bit), the last four towards lower ones.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < RANKS
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; MAX_SQUARES] {
    let mut t = [0u128; MAX_SQUARES];
    let mut sq = 0;
    while sq < MAX_SQUARES {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if on_board(nf, nr) {
                t[sq] |= 1u128 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const fn ray_table() -> [[Bitboard; MAX_SQUARES]; 8] {
    let mut t = [[0u128; MAX_SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < MAX_SQUARES {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_board(f, r) {
                    break;
                }
                t[d][sq] |= 1u128 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// Knight jumps from each square (10-rank board).
pub static KNIGHT: [Bitboard; MAX_SQUARES] = leaper_table(&crate::square::KNIGHT_JUMPS);
/// King steps from each square (10-rank board).
pub static KING: [Bitboard; MAX_SQUARES] = leaper_table(&crate::square::NEIGHBOURS);
/// Squares a pawn attacks, `PAWN_ATTACKS[side][square]` (White = 0 attacks upwards).
pub static PAWN_ATTACKS: [[Bitboard; MAX_SQUARES]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];
/// `RAYS[direction][square]`: every square from `square` (exclusive) to the edge, on an empty board.
pub static RAYS: [[Bitboard; MAX_SQUARES]; 8] = ray_table();

const fn between_table() -> [[Bitboard; MAX_SQUARES]; MAX_SQUARES] {
    let mut t = [[0u128; MAX_SQUARES]; MAX_SQUARES];
    let mut a = 0;
    while a < MAX_SQUARES {
        let mut d = 0;
        while d < 8 {
            let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
            let mut acc = 0u128;
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_board(f, r) {
                    break;
                }
                let b = (r * 8 + f) as usize;
                t[a][b] = acc;
                acc |= 1u128 << b;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; MAX_SQUARES]; MAX_SQUARES] {
    let rays = ray_table();
    let mut t = [[0u128; MAX_SQUARES]; MAX_SQUARES];
    let mut a = 0;
    while a < MAX_SQUARES {
        let mut d = 0;
        while d < 4 {
            let full = rays[d][a] | rays[d + 4][a] | (1u128 << a);
            let mut set = rays[d][a] | rays[d + 4][a];
            while set != 0 {
                let b = set.trailing_zeros() as usize;
                set &= set - 1;
                t[a][b] = full;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
pub static BETWEEN: [[Bitboard; MAX_SQUARES]; MAX_SQUARES] = between_table();
/// `LINE[a][b]`: the whole line (edge to edge) through `a` and `b` when they share a rank, file
/// or diagonal, both included; empty otherwise.
pub static LINE: [[Bitboard; MAX_SQUARES]; MAX_SQUARES] = line_table();

#[inline(always)]
fn ray_attack(dir: usize, sq: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    } as usize;
    ray ^ RAYS[dir][first]
}

/// Squares a rook on `sq` attacks through `occupied` (10-rank geometry; mask for 8 ranks).
#[inline]
pub fn rook_attacks(sq: usize, occupied: Bitboard) -> Bitboard {
    ray_attack(0, sq, occupied)
        | ray_attack(1, sq, occupied)
        | ray_attack(4, sq, occupied)
        | ray_attack(5, sq, occupied)
}

/// Squares a bishop on `sq` attacks through `occupied` (10-rank geometry; mask for 8 ranks).
#[inline]
pub fn bishop_attacks(sq: usize, occupied: Bitboard) -> Bitboard {
    ray_attack(2, sq, occupied)
        | ray_attack(3, sq, occupied)
        | ray_attack(6, sq, occupied)
        | ray_attack(7, sq, occupied)
}

// ---- Sliding attacks on the 8×8 board (chess): kindergarten bitboards on a u64. ----
//
// A line's inner six squares are gathered into a six-bit index (one multiplication, no magic
// numbers to search for), which picks the attacked squares from a table of 64 entries per file
// or rank. The tables are built here at compile time from the ray geometry above, and the test
// below checks every slider against the ray scan on random boards.

/// The 8×8 board's a-file.
const A_FILE: u64 = 0x0101_0101_0101_0101;
/// Multiplying a set of squares, at most one on each file, by the b-file gathers the files b–g
/// onto the top six bits.
const B_FILE: u64 = 0x0202_0202_0202_0202;
/// Multiplying the a-file by this diagonal gathers its ranks 2–7 onto the top six bits.
const DIAG_C7_H2: u64 = 0x0004_0810_2040_8000;

/// The squares a rook on `pos` (0–7) of a single line of eight attacks, with the inner squares
/// of the line (1–6) occupied as the bits of `inner` say (bit `i` is square `i + 1`).
const fn line_attack(pos: i32, inner: u32) -> u8 {
    let occ = (inner << 1) as i32;
    let mut att = 0u32;
    let mut i = pos + 1;
    while i < 8 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos - 1;
    while i >= 0 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i -= 1;
    }
    att as u8
}

/// `FIRST_RANK[file][inner]`: a rook's attacks along its rank, as a byte of files.
static FIRST_RANK: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut i = 0;
        while i < 64 {
            t[f][i] = line_attack(f as i32, i as u32);
            i += 1;
        }
        f += 1;
    }
    t
};

/// `A_FILE_ATTACKS[rank][index]`: a rook's attacks along the a-file from `rank`, where `index`
/// is the a-file's inner occupancy gathered by [`DIAG_C7_H2`].
static A_FILE_ATTACKS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut inner = 0u32;
        while inner < 64 {
            // The inner occupancy as a-file squares a2..a7, and its gathered index.
            let mut occ = 0u64;
            let mut k = 0;
            while k < 6 {
                if inner & (1 << k) != 0 {
                    occ |= 1u64 << (8 * (k + 1));
                }
                k += 1;
            }
            let index = (occ.wrapping_mul(DIAG_C7_H2) >> 58) as usize;
            let ranks = line_attack(r as i32, inner);
            let mut att = 0u64;
            let mut k = 0;
            while k < 8 {
                if ranks & (1 << k) != 0 {
                    att |= 1u64 << (8 * k);
                }
                k += 1;
            }
            t[r][index] = att;
            inner += 1;
        }
        r += 1;
    }
    t
};

/// `DIAGONALS[0][sq]` the a1–h8 diagonal through `sq`, `DIAGONALS[1][sq]` the h1–a8 one, both
/// without `sq` itself (8×8 board).
static DIAGONALS: [[u64; 64]; 2] = {
    let rays = ray_table();
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = ((rays[2][sq] | rays[6][sq]) & u64::MAX as u128) as u64;
        t[1][sq] = ((rays[3][sq] | rays[7][sq]) & u64::MAX as u128) as u64;
        sq += 1;
    }
    t
};

#[inline(always)]
fn diagonal_attacks64(line: u64, file: usize, occupied: u64) -> u64 {
    let index = ((line & occupied).wrapping_mul(B_FILE) >> 58) as usize;
    line & (FIRST_RANK[file][index] as u64).wrapping_mul(A_FILE)
}

/// Squares a rook on `sq` attacks through `occupied` on the 8×8 board.
#[inline(always)]
pub fn rook_attacks64(sq: usize, occupied: u64) -> u64 {
    let (file, rank) = (sq & 7, sq >> 3);
    let rank_index = ((occupied >> (8 * rank + 1)) & 63) as usize;
    let along_rank = (FIRST_RANK[file][rank_index] as u64) << (8 * rank);
    let file_index = (((occupied >> file) & A_FILE).wrapping_mul(DIAG_C7_H2) >> 58) as usize;
    let along_file = A_FILE_ATTACKS[rank][file_index] << file;
    along_rank | along_file
}

/// Squares a bishop on `sq` attacks through `occupied` on the 8×8 board.
#[inline(always)]
pub fn bishop_attacks64(sq: usize, occupied: u64) -> u64 {
    let file = sq & 7;
    diagonal_attacks64(DIAGONALS[0][sq], file, occupied)
        | diagonal_attacks64(DIAGONALS[1][sq], file, occupied)
}

/// Squares a rook on `sq` attacks on a board of `ranks` ranks (8 or 10), already cut to it.
#[inline(always)]
pub fn rook_attacks_on(ranks: u8, sq: usize, occupied: Bitboard) -> Bitboard {
    if ranks == 8 {
        rook_attacks64(sq, occupied as u64) as Bitboard
    } else {
        rook_attacks(sq, occupied) & board_mask(ranks)
    }
}

/// Squares a bishop on `sq` attacks on a board of `ranks` ranks (8 or 10), already cut to it.
#[inline(always)]
pub fn bishop_attacks_on(ranks: u8, sq: usize, occupied: Bitboard) -> Bitboard {
    if ranks == 8 {
        bishop_attacks64(sq, occupied as u64) as Bitboard
    } else {
        bishop_attacks(sq, occupied) & board_mask(ranks)
    }
}

/// Rook lines from `sq` on an empty board.
#[inline]
pub fn rook_rays(sq: usize) -> Bitboard {
    RAYS[0][sq] | RAYS[1][sq] | RAYS[4][sq] | RAYS[5][sq]
}

/// Bishop lines from `sq` on an empty board.
#[inline]
pub fn bishop_rays(sq: usize) -> Bitboard {
    RAYS[2][sq] | RAYS[3][sq] | RAYS[6][sq] | RAYS[7][sq]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_geometry() {
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KING[0].count_ones(), 3);
        // e4 = 28: a rook on an empty 8x8 board sees 14 squares, on 8x10 it sees 16.
        assert_eq!((rook_attacks(28, 0) & board_mask(8)).count_ones(), 14);
        assert_eq!(rook_attacks(28, 0).count_ones(), 16);
        // a1..h8 diagonal between a1 and h8 has 6 squares.
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(LINE[0][9].count_ones(), 8);
        // A blocker on e6 stops the rook's north ray there.
        let att = rook_attacks(28, bit(44));
        assert!(att & bit(44) != 0 && att & bit(52) == 0);
        let att = rook_attacks(28, bit(12));
        assert!(att & bit(12) != 0 && att & bit(4) == 0);
    }
    /// The 8×8 sliders agree with the ray scan on many random boards, from every square.
    #[test]
    fn kindergarten_sliders_agree_with_ray_scan() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse and dense boards both.
            let occ = if round % 2 == 0 { x & (x >> 3) } else { x };
            for sq in 0..64 {
                let want_r = (rook_attacks(sq, occ as u128) & board_mask(8)) as u64;
                let want_b = (bishop_attacks(sq, occ as u128) & board_mask(8)) as u64;
                assert_eq!(rook_attacks64(sq, occ), want_r, "rook on {sq}, occ {occ:x}");
                assert_eq!(
                    bishop_attacks64(sq, occ),
                    want_b,
                    "bishop on {sq}, occ {occ:x}"
                );
            }
        }
    }
}
