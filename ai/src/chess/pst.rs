//! Material and piece-square tables for chess and minesweeper chess, computed from a few
//! formulas (centralisation, advancement, a castled king) so that one description serves the
//! 8-rank and the 10-rank board. Values are centipawns for a middlegame (`mg`) and an endgame
//! (`eg`); the evaluation blends them by the material left. The formulas' coefficients and the
//! material are numbers of [`Params`] (hand-written or tuned).

use takhte_rules::chess::Kind;
use takhte_rules::{Side, Square};

use super::params::Params;

/// Material for exchanges and move ordering.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];
/// How much each piece counts towards the middlegame phase (24 at the start).
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Material plus square bonus, per side, kind and square, for one board height.
pub struct Tables {
    /// Middlegame values, `[side][kind][square]`.
    pub mg: [[[i16; 80]; 6]; 2],
    /// Endgame values.
    pub eg: [[[i16; 80]; 6]; 2],
}

/// The rank of `sq` counted from `side`'s own back rank.
pub fn relative_rank(sq: Square, side: Side, ranks: u8) -> u8 {
    match side {
        Side::White => sq.rank(),
        Side::Black => ranks - 1 - sq.rank(),
    }
}

/// How far a pawn on relative rank `rr` has come, from 0 (its start rank) to 1 (the last rank).
pub fn progress(rr: u8, ranks: u8) -> f64 {
    (rr as f64 - 1.0).max(0.0) / (ranks as f64 - 2.0)
}

/// Square bonuses (middlegame, endgame) of the numbers `p` for White's `kind` on `file`,
/// relative rank `rr`.
fn bonus(p: &Params, kind: Kind, file: u8, rr: u8, ranks: u8) -> (f64, f64) {
    let f = |v: i32| v as f64;
    let tenths = |v: i32| v as f64 / 10.0;
    let cf = file.min(7 - file) as f64; // 0 at the edge, 3 in the centre
    let half = (ranks as f64 - 1.0) / 2.0;
    let cr = (half - (rr as f64 - half).abs()) * 3.5 / half; // 0 at the edge, 3.5 in the middle
    let centre = cf + cr; // 0 .. 6.5
    match kind {
        Kind::Pawn => {
            let t = progress(rr, ranks);
            let mut mg = f(p.pawn_advance_mg) * t * t;
            let eg = f(p.pawn_advance_eg) * t * t;
            if (3..=4).contains(&file) {
                if rr == 1 {
                    mg += f(p.pawn_centre_home_mg);
                } else if t > 0.0 && t < 0.5 {
                    mg += f(p.pawn_centre_mg);
                }
            } else if (2..=5).contains(&file) && t > 0.0 && t < 0.5 {
                mg += f(p.pawn_near_centre_mg);
            }
            (mg, eg)
        }
        Kind::Knight => {
            let mut mg = -45.0 + tenths(p.knight_centre_mg_tenths) * centre;
            if rr == 0 {
                mg += f(p.knight_home_mg);
            }
            (mg, -35.0 + tenths(p.knight_centre_eg_tenths) * centre)
        }
        Kind::Bishop => {
            let mut mg = -18.0 + tenths(p.bishop_centre_mg_tenths) * centre;
            if rr == 0 {
                mg += f(p.bishop_home_mg);
            }
            (mg, -15.0 + tenths(p.bishop_centre_eg_tenths) * centre)
        }
        Kind::Rook => {
            let mut mg = if cf >= 2.0 {
                f(p.rook_centre_file_mg)
            } else {
                0.0
            };
            let mut eg = 0.0;
            if rr + 2 == ranks {
                mg += f(p.rook_seventh_mg);
                eg += f(p.rook_seventh_eg);
            }
            if rr == 0 && (file == 0 || file == 7) {
                mg += f(p.rook_corner_mg);
            }
            (mg, eg)
        }
        Kind::Queen => (
            -8.0 + tenths(p.queen_centre_mg_tenths) * centre,
            -22.0 + tenths(p.queen_centre_eg_tenths) * centre,
        ),
        Kind::King => {
            let edge = file.min(7 - file) as usize; // a/h 0, b/g 1, c/f 2, d/e 3
            let mg = match rr {
                0 => [
                    p.king_home_edge,
                    p.king_home_wing,
                    p.king_home_flank,
                    p.king_home_centre,
                ][edge] as f64,
                1 => [
                    p.king_second_edge,
                    p.king_second_wing,
                    p.king_second_flank,
                    p.king_second_centre,
                ][edge] as f64,
                r => f(p.king_third_mg) + f(p.king_up_mg) * (r as f64 - 2.0),
            };
            (mg, -45.0 + tenths(p.king_centre_eg_tenths) * centre)
        }
    }
}

impl Tables {
    /// The tables of the numbers `p` for a board of `ranks` ranks (8 or 10).
    pub fn new(p: &Params, ranks: u8) -> Tables {
        let material = |k: usize| {
            [
                (p.pawn_mg, p.pawn_eg),
                (p.knight_mg, p.knight_eg),
                (p.bishop_mg, p.bishop_eg),
                (p.rook_mg, p.rook_eg),
                (p.queen_mg, p.queen_eg),
                (0, 0),
            ][k]
        };
        let mut t = Tables {
            mg: [[[0; 80]; 6]; 2],
            eg: [[[0; 80]; 6]; 2],
        };
        for side in [Side::White, Side::Black] {
            for kind in Kind::ALL {
                for idx in 0..(8 * ranks as usize) {
                    let sq = Square(idx as u8);
                    let rr = relative_rank(sq, side, ranks);
                    let (mg, eg) = bonus(p, kind, sq.file(), rr, ranks);
                    let k = kind as usize;
                    let (vm, ve) = material(k);
                    t.mg[side.index()][k][idx] = (vm as f64 + mg).round() as i16;
                    t.eg[side.index()][k][idx] = (ve as f64 + eg).round() as i16;
                }
            }
        }
        t
    }

    /// These tables (of an 8-rank board) with the corrections `mg` and `eg` added, each
    /// `[kind][square]` with squares counted from the side's own first rank
    /// ([`super::squares`]).
    pub fn corrected(mut self, mg: &[[i16; 64]; 6], eg: &[[i16; 64]; 6]) -> Tables {
        for side in [Side::White, Side::Black] {
            for k in 0..6 {
                for idx in 0..64 {
                    let own = match side {
                        Side::White => idx,
                        Side::Black => (7 - idx / 8) * 8 + idx % 8,
                    };
                    self.mg[side.index()][k][idx] += mg[k][own];
                    self.eg[side.index()][k][idx] += eg[k][own];
                }
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirrored_and_centralising() {
        let t = Tables::new(&super::super::params::HAND, 8);
        let e4 = Square::parse("e4", 8).unwrap();
        let e5 = Square::parse("e5", 8).unwrap();
        let a1 = Square::parse("a1", 8).unwrap();
        let n = Kind::Knight as usize;
        assert_eq!(t.mg[0][n][e4.index()], t.mg[1][n][e5.index()]);
        assert!(t.mg[0][n][e4.index()] > t.mg[0][n][a1.index()]);
        let t10 = Tables::new(&super::super::params::HAND, 10);
        let g1 = Square::parse("g1", 10).unwrap();
        let g10 = Square::parse("g10", 10).unwrap();
        let k = Kind::King as usize;
        assert_eq!(t10.mg[0][k][g1.index()], t10.mg[1][k][g10.index()]);
    }
}
