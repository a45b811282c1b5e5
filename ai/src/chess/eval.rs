//! The static evaluation of chess and minesweeper chess: material and piece-square tables
//! ([`super::pst`]), mobility, pawn structure (doubled, isolated, passed pawns), king safety (pawn
//! shield and attacks on the king's zone, a king on a file without own pawns), bishop pair,
//! rooks on open files, pieces attacked by pawns, connected pawns, the kings' race to a passed
//! pawn, and a little endgame knowledge (a lone king is driven to the edge; a minor piece up
//! without pawns is no win). In minesweeper chess, squares that may hold a mine count half for
//! mobility. Every number comes from an [`Evaluator`]'s [`Params`]: [`TUNED_EVAL`] (fitted by
//! `scripts/tune-eval.sh`) or [`HAND_EVAL`] (the hand-written values).

use takhte_rules::bitboard::{
    bishop_attacks_on, bit, rook_attacks_on, squares, Bitboard, KING, KNIGHT,
};
use takhte_rules::chess::{Board, Kind};
use takhte_rules::{Side, Square};

use std::sync::LazyLock;

use super::params::{Params, HAND};
use super::pst::{progress, relative_rank, Tables, PHASE};
use super::squares::{SQUARES_EG, SQUARES_MG};
use super::tuned::TUNED;

/// An evaluation's numbers with the piece-square tables built from them, for both board
/// heights.
pub struct Evaluator {
    /// The numbers.
    pub params: Params,
    eight: Tables,
    ten: Tables,
}

impl Evaluator {
    /// The evaluator of the numbers `params`.
    pub fn new(params: Params) -> Evaluator {
        Evaluator {
            eight: Tables::new(&params, 8),
            ten: Tables::new(&params, 10),
            params,
        }
    }

    /// The evaluator of the numbers `params` with the fitted piece-square corrections of
    /// [`super::squares`] on the 8-rank board (chess; minesweeper chess's 10-rank board keeps
    /// the formulas alone).
    pub fn with_squares(params: Params) -> Evaluator {
        let e = Evaluator::new(params);
        Evaluator {
            eight: e.eight.corrected(&SQUARES_MG, &SQUARES_EG),
            ..e
        }
    }

    /// The tables for a board of `ranks` ranks.
    pub fn tables(&self, ranks: u8) -> &Tables {
        if ranks == 10 {
            &self.ten
        } else {
            &self.eight
        }
    }

    /// The static evaluation of `b` for the side to move, in centipawns. `risky` holds the
    /// squares that may hold a mine (empty for chess): they count half for mobility.
    pub fn evaluate(&self, b: &Board, risky: Bitboard) -> i32 {
        evaluate_with(self, b, risky)
    }
}

/// The evaluation the app plays with: the tuned numbers ([`TUNED`]) and the piece-square
/// corrections fitted on top of them ([`super::squares`]).
pub static TUNED_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::with_squares(TUNED));
/// The tuned numbers without the corrections (for matches against [`TUNED_EVAL`]).
pub static TUNED_PLAIN_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::new(TUNED));
/// The hand-written numbers ([`HAND`]): levels 1–5, and matches against the tuned evaluation.
pub static HAND_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::new(HAND));

/// [`HAND_EVAL`] when `hand`, else [`TUNED_EVAL`] with the corrections `squares` or
/// [`TUNED_PLAIN_EVAL`] without.
pub fn chosen(hand: bool, squares: bool) -> &'static Evaluator {
    if hand {
        &HAND_EVAL
    } else if squares {
        &TUNED_EVAL
    } else {
        &TUNED_PLAIN_EVAL
    }
}

/// Every square of the a-file on a 10-rank board.
const FILE_A: Bitboard = {
    let mut f = 0u128;
    let mut r = 0;
    while r < 10 {
        f |= 1u128 << (r * 8);
        r += 1;
    }
    f
};

const fn file_mask(file: u8) -> Bitboard {
    FILE_A << file
}

const fn adjacent_files(file: u8) -> Bitboard {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// `FRONT_SPAN[side][square]`: the squares in front of the square (towards the enemy) on its
/// own and neighbouring files, on a 10-rank board (an 8-rank board has nothing beyond rank 8).
static FRONT_SPAN: [[Bitboard; 80]; 2] = {
    let mut t = [[0u128; 80]; 2];
    let mut sq = 0;
    while sq < 80 {
        let (file, rank) = ((sq % 8) as u8, sq / 8);
        let files = file_mask(file) | adjacent_files(file);
        let mut r = 0;
        while r < 10 {
            let row = 0xffu128 << (8 * r);
            if r > rank {
                t[0][sq] |= files & row;
            }
            if r < rank {
                t[1][sq] |= files & row;
            }
            r += 1;
        }
        sq += 1;
    }
    t
};

/// The squares attacked by `side`'s pawns.
pub fn pawn_attacks(b: &Board, side: Side) -> Bitboard {
    let pawns = b.pieces(side, Kind::Pawn);
    let (west, east) = (pawns & !FILE_A, pawns & !file_mask(7));
    let attacked = match side {
        Side::White => (west << 7) | (east << 9),
        Side::Black => (west >> 9) | (east >> 7),
    };
    attacked & b.mask()
}

/// The evaluation terms summed per side, then blended.
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    fn add(&mut self, sign: i32, mg: i32, eg: i32) {
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

/// [`Evaluator::evaluate`].
fn evaluate_with(e: &Evaluator, b: &Board, risky: Bitboard) -> i32 {
    let p = &e.params;
    let ranks = b.ranks();
    let t = e.tables(ranks);
    let occ = b.occupied();
    let mut s = Score { mg: 0, eg: 0 };
    let mut phase = 0;
    let mut non_pawn = [0i32; 2];
    let mut attack_units = [0i32; 2]; // pressure on the enemy king
    let pawn_att = [pawn_attacks(b, Side::White), pawn_attacks(b, Side::Black)];
    let kings = [b.king_square(Side::White), b.king_square(Side::Black)];

    for side in [Side::White, Side::Black] {
        let si = side.index();
        let sign = if side == Side::White { 1 } else { -1 };
        let own = b.side_pieces(side);
        let them = side.opponent();
        let enemy_zone = kings[them.index()]
            .map(|k| KING[k.index()] | bit(k.index()))
            .unwrap_or(0);
        let mobility_area = !own & !pawn_att[them.index()] & b.mask();
        for kind in Kind::ALL {
            let k = kind as usize;
            for sq in squares(b.pieces(side, kind)) {
                s.add(sign, t.mg[si][k][sq] as i32, t.eg[si][k][sq] as i32);
                phase += PHASE[k];
                if kind != Kind::Pawn && kind != Kind::King {
                    non_pawn[si] += super::pst::SEE_VALUE[k];
                }
                let att = match kind {
                    Kind::Knight => KNIGHT[sq] & b.mask(),
                    Kind::Bishop => bishop_attacks_on(ranks, sq, occ),
                    Kind::Rook => rook_attacks_on(ranks, sq, occ),
                    Kind::Queen => {
                        bishop_attacks_on(ranks, sq, occ) | rook_attacks_on(ranks, sq, occ)
                    }
                    _ => continue,
                };
                let area = att & mobility_area;
                let safe = (area & !risky).count_ones() as i32;
                let mob = 2 * safe + (area & risky).count_ones() as i32; // half-squares
                let (mg, eg) = match kind {
                    Kind::Knight => (
                        p.knight_mobility_mg_tenths * (mob - 8),
                        p.knight_mobility_eg_tenths * (mob - 8),
                    ),
                    Kind::Bishop => (
                        p.bishop_mobility_mg_tenths * (mob - 12),
                        p.bishop_mobility_eg_tenths * (mob - 12),
                    ),
                    Kind::Rook => (
                        p.rook_mobility_mg_tenths * (mob - 12),
                        p.rook_mobility_eg_tenths * (mob - 12),
                    ),
                    _ => (
                        p.queen_mobility_mg_tenths * (mob - 24),
                        p.queen_mobility_eg_tenths * (mob - 24),
                    ),
                };
                s.add(sign, mg / 20, eg / 20);
                let hits = (att & enemy_zone).count_ones() as i32;
                if hits > 0 {
                    let w = match kind {
                        Kind::Knight | Kind::Bishop => p.attack_minor,
                        Kind::Rook => p.attack_rook,
                        _ => p.attack_queen,
                    };
                    attack_units[si] += w * hits;
                }
                if kind == Kind::Rook {
                    let file = file_mask(Square(sq as u8).file());
                    let ours = b.pieces(side, Kind::Pawn) & file != 0;
                    let theirs = b.pieces(them, Kind::Pawn) & file != 0;
                    if !ours && !theirs {
                        s.add(sign, p.rook_open_mg, p.rook_open_eg);
                    } else if !ours {
                        s.add(sign, p.rook_half_open_mg, p.rook_half_open_eg);
                    }
                }
            }
        }
        if b.pieces(side, Kind::Bishop).count_ones() >= 2 {
            s.add(sign, p.bishop_pair_mg, p.bishop_pair_eg);
        }
        // Pieces attacked by enemy pawns.
        let threatened = (own
            & !b.pieces(side, Kind::Pawn)
            & !b.pieces(side, Kind::King)
            & pawn_att[them.index()])
        .count_ones() as i32;
        s.add(
            sign,
            -p.pawn_threat_mg * threatened,
            -p.pawn_threat_eg * threatened,
        );
        pawn_structure(p, b, side, sign, pawn_att[si], kings, &mut s);
        // Pawn shield in front of a king on its first two ranks.
        if let Some(k) = kings[si] {
            let rr = relative_rank(k, side, ranks);
            if rr <= 1 {
                let fwd: i32 = if side == Side::White { 1 } else { -1 };
                let mut shield = 0;
                for df in -1..=1 {
                    for (dr, w) in [(1, p.shield_near), (2, p.shield_far)] {
                        if let Some(q) = k.offset(df, fwd * dr, ranks) {
                            if b.pieces(side, Kind::Pawn) & bit(q.index()) != 0 {
                                shield += w;
                            }
                        }
                    }
                }
                s.add(sign, shield, 0);
            }
            if b.pieces(side, Kind::Pawn) & file_mask(k.file()) == 0 {
                s.add(sign, -p.king_open_file_mg, 0);
            }
        }
    }
    // King safety: the attacks each side makes on the other's king zone.
    for side in [Side::White, Side::Black] {
        let sign = if side == Side::White { 1 } else { -1 };
        let u = attack_units[side.index()];
        if u > 2 {
            s.add(
                sign,
                (u * u * p.king_danger_scale / 100).min(p.king_danger_cap),
                0,
            );
        }
    }

    let phase = phase.min(24);
    let mut score = (s.mg * phase + s.eg * (24 - phase)) / 24;
    score += endgame(b, score, non_pawn);
    let stm = if b.side_to_move() == Side::White {
        score
    } else {
        -score
    };
    stm + p.tempo
}

fn pawn_structure(
    p: &Params,
    b: &Board,
    side: Side,
    sign: i32,
    own_pawn_attacks: Bitboard,
    kings: [Option<Square>; 2],
    s: &mut Score,
) {
    let ranks = b.ranks();
    let ours = b.pieces(side, Kind::Pawn);
    let theirs = b.pieces(side.opponent(), Kind::Pawn);
    for file in 0..8u8 {
        let n = (ours & file_mask(file)).count_ones() as i32;
        if n > 1 {
            s.add(sign, -p.doubled_mg * (n - 1), -p.doubled_eg * (n - 1));
        }
        if n > 0 && ours & adjacent_files(file) == 0 {
            s.add(sign, -p.isolated_mg * n, -p.isolated_eg * n);
        }
    }
    // Defended by a pawn, or with a pawn beside it on the same rank.
    let beside = ((ours & !FILE_A) >> 1) | ((ours & !file_mask(7)) << 1);
    let connected = (ours & (own_pawn_attacks | beside)).count_ones() as i32;
    s.add(sign, p.connected_mg * connected, p.connected_eg * connected);
    let fwd: i32 = if side == Side::White { 1 } else { -1 };
    let (own_king, enemy_king) = (kings[side.index()], kings[side.opponent().index()]);
    for sq in squares(ours) {
        let sq = Square(sq as u8);
        if FRONT_SPAN[side.index()][sq.index()] & theirs == 0 {
            let t = progress(relative_rank(sq, side, ranks), ranks);
            let mg = p.passed_mg as f64 + p.passed_advance_mg as f64 * t * t;
            let eg = p.passed_eg as f64 + p.passed_advance_eg as f64 * t * t;
            s.add(sign, mg as i32, eg as i32);
            if let (Some(stop), Some(ok), Some(ek)) =
                (sq.offset(0, fwd, ranks), own_king, enemy_king)
            {
                let lead = distance(ek, stop).min(5) - distance(ok, stop).min(5);
                s.add(sign, 0, p.passed_king_eg * lead);
            }
        }
    }
}

/// The number of king steps between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Endgame corrections to the White-relative `score`.
fn endgame(b: &Board, score: i32, non_pawn: [i32; 2]) -> i32 {
    let pawns = [
        b.pieces(Side::White, Kind::Pawn).count_ones(),
        b.pieces(Side::Black, Kind::Pawn).count_ones(),
    ];
    let strong = if score > 0 { Side::White } else { Side::Black };
    let weak = strong.opponent();
    let (si, wi) = (strong.index(), weak.index());
    let mut adj = 0;
    // A minor piece up and no pawns: hardly ever a win.
    if pawns[si] == 0 && non_pawn[si] - non_pawn[wi] <= 350 && non_pawn[si] < 1000 {
        return -score + score / 8;
    }
    // Drive a bare king to the edge and bring the own king closer.
    if pawns[wi] == 0 && non_pawn[wi] == 0 && non_pawn[si] >= 500 {
        if let (Some(wk), Some(sk)) = (b.king_square(weak), b.king_square(strong)) {
            let ranks = b.ranks() as i32;
            let cf = (2 * wk.file() as i32 - 7).abs();
            let cr = (2 * wk.rank() as i32 - (ranks - 1)).abs();
            let dist = (wk.file() as i32 - sk.file() as i32).abs()
                + (wk.rank() as i32 - sk.rank() as i32).abs();
            let bonus = 200 + 10 * (cf + cr) + 6 * (16 - dist);
            adj += if strong == Side::White { bonus } else { -bonus };
        }
    }
    adj
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::chess::Position;
    use takhte_rules::Rules;

    fn eval(fen: &str) -> i32 {
        TUNED_EVAL.evaluate(Position::from_text(fen).unwrap().board(), 0)
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.abs() < 30, "{start}");
        let black = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(start, black);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 700);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -700);
    }
}
