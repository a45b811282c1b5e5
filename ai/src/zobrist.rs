//! Zobrist keys: fixed pseudo-random numbers, one per (piece, square) and per side to move,
//! castling right and en-passant file, xor-ed together into a 64-bit position key for the
//! transposition table. The numbers come from a fixed SplitMix64 stream computed at compile
//! time, so keys are the same on every platform and every run.

use takhte_rules::bitboard::{squares, Bitboard};
use takhte_rules::chess::{Board, Kind};
use takhte_rules::Side;

/// SplitMix64: the `n`-th number of the stream (a good, cheap bit mixer).
pub const fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn table<const N: usize>(salt: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix(
            salt.wrapping_mul(0x1_0000_0001)
                .wrapping_add(i as u64 * 7919),
        );
        i += 1;
    }
    t
}

/// One key per (side × 6 + kind) × 80 squares: chess and minesweeper-chess pieces.
static PIECES: [u64; 12 * 80] = table::<{ 12 * 80 }>(1);
/// One key per castling-rights value (0–15).
static CASTLING: [u64; 16] = table::<16>(2);
/// One key per en-passant file.
static EP_FILE: [u64; 8] = table::<8>(3);
/// Per square: minesweeper chess, the square is known to be clear of mines in this line.
static CLEARED: [u64; 80] = table::<80>(4);
/// Draughts: men and kings per side, 4 × 64.
static DRAUGHTS: [u64; 4 * 64] = table::<{ 4 * 64 }>(5);
/// Dice chess: pawns and kings per side, 4 × 64.
static DICE: [u64; 4 * 64] = table::<{ 4 * 64 }>(6);

/// The key xor-ed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xb1ac_c0de);

/// The key part of the pieces of one bitboard.
#[inline]
fn set_key(set: Bitboard, base: usize) -> u64 {
    squares(set).fold(0, |k, s| k ^ PIECES[base + s])
}

/// The full key of a chess board: pieces, side to move, castling rights and en-passant file.
pub fn board_key(b: &Board) -> u64 {
    let mut k = 0;
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            k ^= set_key(
                b.pieces(side, kind),
                (side.index() * 6 + kind as usize) * 80,
            );
        }
    }
    k ^ extras(b)
}

fn extras(b: &Board) -> u64 {
    let mut k = CASTLING[b.castling() as usize];
    if let Some(ep) = b.ep_square() {
        k ^= EP_FILE[ep.file() as usize];
    }
    if b.side_to_move() == Side::Black {
        k ^= BLACK_TO_MOVE;
    }
    k
}

/// The key of `after` given the key of `before`, looking only at what changed (a move changes
/// two to four squares), so that a search need not rebuild the key from scratch.
pub fn board_key_after(before: &Board, key: u64, after: &Board) -> u64 {
    let mut k = key ^ extras(before) ^ extras(after);
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            let diff = before.pieces(side, kind) ^ after.pieces(side, kind);
            if diff != 0 {
                k ^= set_key(diff, (side.index() * 6 + kind as usize) * 80);
            }
        }
    }
    k
}

/// The key part of the squares known to be clear of mines (minesweeper chess).
pub fn cleared_key(set: Bitboard) -> u64 {
    squares(set).fold(0, |k, s| k ^ CLEARED[s])
}

/// The key part of one draughts bitboard: `slot` 0–3 is white men, black men, white kings,
/// black kings.
pub fn draughts_key(set: u64, slot: usize) -> u64 {
    squares(set as u128).fold(0, |k, s| k ^ DRAUGHTS[slot * 64 + s])
}

/// The key part of one dice-chess bitboard: `slot` 0–3 is white pawns, black pawns, white king,
/// black king.
pub fn dice_key(set: u64, slot: usize) -> u64 {
    squares(set as u128).fold(0, |k, s| k ^ DICE[slot * 64 + s])
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::chess::Position;

    #[test]
    fn incremental_keys_agree_with_full_keys() {
        let mut b = *Position::start().board();
        let mut key = board_key(&b);
        for uci in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2", "b1d2",
        ] {
            let mv = b
                .legal_moves()
                .into_iter()
                .find(|m| m.uci() == uci)
                .expect("legal");
            let before = b;
            b.apply(mv);
            key = board_key_after(&before, key, &b);
            assert_eq!(key, board_key(&b), "after {uci}");
        }
        assert_ne!(PIECES[0], PIECES[1]);
    }
}
