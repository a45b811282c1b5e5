//! A small neural correction to the chess evaluation: one hidden layer over the pieces, read
//! from the side to move's point of view, whose output is added to the tuned evaluation (with
//! its piece-square corrections). Its weights ([`super::net_weights`]) are fitted by
//! `ai/examples/tune_net.rs` (through `scripts/tune-eval.sh`) to what the tuned evaluation
//! still gets wrong against Stockfish's scores of the positions in `ai/tuning/`.
//!
//! The inputs are 768 on/off features, one per (own or enemy, piece kind, square from the side
//! to move's first rank); [`HIDDEN`] units sum the weights of the features present and clip the
//! sum to 0..=1 ([`QA`] in integers); the output is their weighted sum in centipawns. A
//! position and its colour-mirror have the same features, so the correction is the same for
//! both. Integers throughout: the same position gives the same number on every machine. Only
//! the 8-rank board (chess); minesweeper chess's 10-rank board does without it.

use takhte_rules::bitboard::squares;
use takhte_rules::chess::{Board, Kind};
use takhte_rules::Side;

use super::net_weights::{B1, B2, W1, W2};

/// The hidden units.
pub const HIDDEN: usize = 128;
/// The inputs: 2 sides (own, enemy) × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The hidden layer's scale: a unit's weights and bias are stored × `QA`, and its clipped
/// value runs 0..=`QA`.
pub const QA: i32 = 256;
/// The output layer's scale: its weights (centipawns per unit) are stored × `QB`, its bias in
/// centipawns × `QA` × `QB`.
pub const QB: i32 = 16;

/// The input of a piece of `side` and `kind` on `sq` (0..64) for the side to move `stm`.
pub fn feature(stm: Side, side: Side, kind: Kind, sq: usize) -> usize {
    let own = if side == stm { 0 } else { 384 };
    let rel = if stm == Side::White { sq } else { sq ^ 56 };
    own + kind as usize * 64 + rel
}

/// Calls `f` with the input of every piece of `b` (8-rank board), from the side to move's
/// point of view (for the fit, `ai/examples/tune_net.rs`).
pub fn for_each_feature(b: &Board, mut f: impl FnMut(usize)) {
    let stm = b.side_to_move();
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            for sq in squares(b.pieces(side, kind)) {
                f(feature(stm, side, kind, sq));
            }
        }
    }
}

/// The hidden layer's sums from the point of view of `stm`: the biases plus the weights of
/// every feature of `b` (8-rank board).
fn sums(b: &Board, stm: Side) -> [i16; HIDDEN] {
    // Sums in 16 bits (wrapping, so that no board can make it panic): the weights are at
    // most a few hundred and a board has at most 32 pieces, far inside the range.
    let mut acc = B1;
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            for sq in squares(b.pieces(side, kind)) {
                add(&mut acc, feature(stm, side, kind, sq));
            }
        }
    }
    acc
}

/// Adds the weights of input `i` to `acc`.
fn add(acc: &mut [i16; HIDDEN], i: usize) {
    for (a, w) in acc.iter_mut().zip(W1[i].iter()) {
        *a = a.wrapping_add(*w);
    }
}

/// Takes the weights of input `i` from `acc`.
fn sub(acc: &mut [i16; HIDDEN], i: usize) {
    for (a, w) in acc.iter_mut().zip(W1[i].iter()) {
        *a = a.wrapping_sub(*w);
    }
}

/// The output for the hidden layer's sums `acc`, in centipawns.
fn output(acc: &[i16; HIDDEN]) -> i32 {
    let sum: i32 = acc
        .iter()
        .zip(W2.iter())
        .map(|(a, w)| i32::from((*a).clamp(0, QA as i16)) * i32::from(*w))
        .sum::<i32>()
        + B2;
    sum.div_euclid(QA * QB)
}

/// The correction for `b` in centipawns, for the side to move; 0 on a board of other than 8
/// ranks. Computed from the whole board; the search keeps an [`Accumulator`] instead.
pub fn correction(b: &Board) -> i32 {
    if b.ranks() != 8 {
        return 0;
    }
    output(&sums(b, b.side_to_move()))
}

/// The hidden layer's sums of a position from both sides' points of view, brought up to date
/// move by move ([`Accumulator::after`]) instead of summed over the whole board at every
/// node: a move changes two to four pieces' inputs. On a board of other than 8 ranks it holds
/// the biases and its correction is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// The sums with White to move, then with Black to move.
    sums: [[i16; HIDDEN]; 2],
    /// Whether the board has 8 ranks (the network reads only those).
    eight: bool,
}

impl Accumulator {
    /// The sums of `b`, from the whole board.
    pub fn new(b: &Board) -> Accumulator {
        if b.ranks() != 8 {
            return Accumulator {
                sums: [B1; 2],
                eight: false,
            };
        }
        Accumulator {
            sums: [sums(b, Side::White), sums(b, Side::Black)],
            eight: true,
        }
    }

    /// The sums of `after` from these, those of `before` (any two boards of the same size; in
    /// the search, a board and the one a move or a pass leads to): the inputs of the pieces
    /// that left a square are taken away and those of the pieces that arrived are added, in
    /// one pass that writes the new sums (a move changes two to four pieces' inputs; more than
    /// four changes, which no move makes, are summed afresh).
    pub fn after(&self, before: &Board, after: &Board) -> Accumulator {
        updated(self, before, after)
    }

    /// The correction in centipawns for the side to move `stm` (the same as [`correction`]
    /// of the board these sums are of).
    pub fn correction(&self, stm: Side) -> i32 {
        if self.eight {
            output(&self.sums[stm.index()])
        } else {
            0
        }
    }
}

with_feature! {
    "avx2",
    /// [`Accumulator::after`] (with vectors twice as wide where the processor has them).
    fn updated(acc: &Accumulator, before: &Board, after: &Board) -> Accumulator = updated_body
}

/// [`Accumulator::after`] itself (inlined into both versions of [`updated`]).
#[inline(always)]
fn updated_body(acc: &Accumulator, before: &Board, after: &Board) -> Accumulator {
    if !acc.eight {
        return *acc;
    }
    // Up to four pieces gone and four come, as (side, kind, square).
    let mut gone = [(Side::White, Kind::Pawn, 0); 4];
    let mut come = gone;
    let (mut ngone, mut ncome) = (0, 0);
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            let (was, is) = (before.pieces(side, kind), after.pieces(side, kind));
            if was == is {
                continue;
            }
            for sq in squares(was & !is) {
                if ngone == gone.len() {
                    return Accumulator::new(after);
                }
                gone[ngone] = (side, kind, sq);
                ngone += 1;
            }
            for sq in squares(is & !was) {
                if ncome == come.len() {
                    return Accumulator::new(after);
                }
                come[ncome] = (side, kind, sq);
                ncome += 1;
            }
        }
    }
    let mut out = Accumulator {
        sums: [[0; HIDDEN]; 2],
        eight: true,
    };
    let (g, c) = (&gone[..ngone], &come[..ncome]);
    for stm in [Side::White, Side::Black] {
        let (src, dst) = (&acc.sums[stm.index()], &mut out.sums[stm.index()]);
        let row = |&(side, kind, sq): &(Side, Kind, usize)| &W1[feature(stm, side, kind, sq)];
        match (g, c) {
            ([r], [a]) => {
                let (a, r) = (row(a), row(r));
                for j in 0..HIDDEN {
                    dst[j] = src[j].wrapping_add(a[j]).wrapping_sub(r[j]);
                }
            }
            ([r1, r2], [a]) => {
                let (a, r1, r2) = (row(a), row(r1), row(r2));
                for j in 0..HIDDEN {
                    dst[j] = src[j]
                        .wrapping_add(a[j])
                        .wrapping_sub(r1[j])
                        .wrapping_sub(r2[j]);
                }
            }
            _ => {
                *dst = *src;
                for r in g {
                    sub(dst, feature(stm, r.0, r.1, r.2));
                }
                for a in c {
                    add(dst, feature(stm, a.0, a.1, a.2));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::chess::Position;
    use takhte_rules::Rules;

    /// The network in real numbers, from the same weights: what the integers approximate.
    fn reference(b: &Board) -> f64 {
        let mut acc: Vec<f64> = B1.iter().map(|&x| f64::from(x) / f64::from(QA)).collect();
        for_each_feature(b, |i| {
            for (a, w) in acc.iter_mut().zip(W1[i].iter()) {
                *a += f64::from(*w) / f64::from(QA);
            }
        });
        acc.iter()
            .zip(W2.iter())
            .map(|(a, w)| a.clamp(0.0, 1.0) * f64::from(*w) / f64::from(QB))
            .sum::<f64>()
            + f64::from(B2) / f64::from(QA * QB)
    }

    #[test]
    fn the_integers_compute_the_network() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1",
        ];
        let mut differ = 0;
        for fen in fens {
            let p = Position::from_text(fen).expect("a valid FEN");
            let (int, real) = (correction(p.board()), reference(p.board()));
            assert!(
                (f64::from(int) - real).abs() <= 1.0,
                "{fen}: {int} against {real}"
            );
            differ += i32::from(int != 0);
        }
        // The weights are fitted: the network says something about these positions.
        assert!(differ >= 3, "{differ} of the positions have a correction");
    }

    #[test]
    fn the_kept_sums_follow_the_moves() {
        use crate::chess::pass;
        use rand::{Rng, SeedableRng};
        use takhte_rules::chess::MoveList;
        // Random games from positions with castling, en passant and promotions near: after
        // every move (and now and then a pass, as the null move), the sums brought up to date
        // are those of the new board summed afresh, and so is the correction.
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut moves, mut captures, mut promotions) = (0, 0, 0);
        for fen in fens {
            for _ in 0..20 {
                let mut b = *Position::from_text(fen).expect("a valid FEN").board();
                let mut acc = Accumulator::new(&b);
                for _ in 0..120 {
                    let mut list = MoveList::new();
                    b.generate(&mut list);
                    let next = if list.as_slice().is_empty() {
                        break;
                    } else if rng.gen_bool(0.05) && !b.in_check(b.side_to_move()) {
                        pass(&b)
                    } else {
                        let mv = list.as_slice()[rng.gen_range(0..list.as_slice().len())];
                        captures += usize::from(b.is_capture(mv));
                        promotions += usize::from(mv.promotion.is_some());
                        let mut n = b;
                        n.apply(mv);
                        n
                    };
                    acc = acc.after(&b, &next);
                    b = next;
                    moves += 1;
                    assert_eq!(acc, Accumulator::new(&b), "{fen}, move {moves}");
                    assert_eq!(acc.correction(b.side_to_move()), correction(&b));
                }
            }
        }
        assert!(
            moves > 5000 && captures > 500 && promotions > 50,
            "{moves} {captures} {promotions}"
        );
        // Two unrelated boards (more than four pieces differ): summed afresh.
        let boards = fens.map(|fen| *Position::from_text(fen).expect("a valid FEN").board());
        for (a, b) in boards.iter().zip(boards.iter().skip(1)) {
            assert_eq!(Accumulator::new(a).after(a, b), Accumulator::new(b));
        }
    }

    #[test]
    fn a_piece_reads_the_same_from_either_side() {
        // A white pawn on e2 with White to move is a black pawn on e7 with Black to move.
        let (e2, e7) = (12, 52);
        assert_eq!(
            feature(Side::White, Side::White, Kind::Pawn, e2),
            feature(Side::Black, Side::Black, Kind::Pawn, e7)
        );
        assert_eq!(
            feature(Side::White, Side::Black, Kind::Queen, e7),
            feature(Side::Black, Side::White, Kind::Queen, e2)
        );
        assert_ne!(
            feature(Side::White, Side::White, Kind::Pawn, e2),
            feature(Side::White, Side::Black, Kind::Pawn, e2)
        );
    }
}
