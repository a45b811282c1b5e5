//! Material and piece-square tables for chess and minesweeper chess, computed from a few
//! formulas (centralisation, advancement, a castled king) so that one description serves the
//! 8-rank and the 10-rank board. Values are centipawns for a middlegame (`mg`) and an endgame
//! (`eg`); the evaluation blends them by the material left.

use std::sync::OnceLock;

use takhte_rules::chess::Kind;
use takhte_rules::{Side, Square};

/// Middlegame material: pawn, knight, bishop, rook, queen, king.
pub const MG_VALUE: [i32; 6] = [85, 325, 345, 480, 1000, 0];
/// Endgame material.
pub const EG_VALUE: [i32; 6] = [105, 295, 315, 530, 950, 0];
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

/// The tables for a board of `ranks` ranks (8 or 10), built once.
pub fn tables(ranks: u8) -> &'static Tables {
    static EIGHT: OnceLock<Tables> = OnceLock::new();
    static TEN: OnceLock<Tables> = OnceLock::new();
    if ranks == 10 {
        TEN.get_or_init(|| build(10))
    } else {
        EIGHT.get_or_init(|| build(8))
    }
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

/// Square bonuses (middlegame, endgame) for White's `kind` on `file`, relative rank `rr`.
fn bonus(kind: Kind, file: u8, rr: u8, ranks: u8) -> (f64, f64) {
    let cf = file.min(7 - file) as f64; // 0 at the edge, 3 in the centre
    let half = (ranks as f64 - 1.0) / 2.0;
    let cr = (half - (rr as f64 - half).abs()) * 3.5 / half; // 0 at the edge, 3.5 in the middle
    let centre = cf + cr; // 0 .. 6.5
    match kind {
        Kind::Pawn => {
            let t = progress(rr, ranks);
            let mut mg = 55.0 * t * t;
            let eg = 110.0 * t * t;
            if (3..=4).contains(&file) {
                if rr == 1 {
                    mg -= 12.0;
                } else if t > 0.0 && t < 0.5 {
                    mg += 18.0;
                }
            } else if (2..=5).contains(&file) && t > 0.0 && t < 0.5 {
                mg += 6.0;
            }
            (mg, eg)
        }
        Kind::Knight => {
            let mut mg = -45.0 + 11.0 * centre;
            if rr == 0 {
                mg -= 10.0;
            }
            (mg, -35.0 + 9.0 * centre)
        }
        Kind::Bishop => {
            let mut mg = -18.0 + 5.0 * centre;
            if rr == 0 {
                mg -= 10.0;
            }
            (mg, -15.0 + 4.0 * centre)
        }
        Kind::Rook => {
            let mut mg = if cf >= 2.0 { 4.0 } else { 0.0 };
            let mut eg = 0.0;
            if rr + 2 == ranks {
                mg += 20.0;
                eg += 12.0;
            }
            if rr == 0 && (file == 0 || file == 7) {
                mg -= 4.0;
            }
            (mg, eg)
        }
        Kind::Queen => (-8.0 + 2.5 * centre, -22.0 + 6.0 * centre),
        Kind::King => {
            let mg = match rr {
                0 => [18.0, 28.0, 8.0, -4.0, -4.0, 8.0, 28.0, 18.0][file as usize],
                1 => [-2.0, -4.0, -14.0, -24.0, -24.0, -14.0, -4.0, -2.0][file as usize],
                r => -34.0 - 10.0 * (r as f64 - 2.0),
            };
            (mg, -45.0 + 11.0 * centre)
        }
    }
}

fn build(ranks: u8) -> Tables {
    let mut t = Tables {
        mg: [[[0; 80]; 6]; 2],
        eg: [[[0; 80]; 6]; 2],
    };
    for side in [Side::White, Side::Black] {
        for kind in Kind::ALL {
            for idx in 0..(8 * ranks as usize) {
                let sq = Square(idx as u8);
                let rr = relative_rank(sq, side, ranks);
                let (mg, eg) = bonus(kind, sq.file(), rr, ranks);
                let k = kind as usize;
                t.mg[side.index()][k][idx] = (MG_VALUE[k] as f64 + mg).round() as i16;
                t.eg[side.index()][k][idx] = (EG_VALUE[k] as f64 + eg).round() as i16;
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirrored_and_centralising() {
        let t = tables(8);
        let e4 = Square::parse("e4", 8).unwrap();
        let e5 = Square::parse("e5", 8).unwrap();
        let a1 = Square::parse("a1", 8).unwrap();
        let n = Kind::Knight as usize;
        assert_eq!(t.mg[0][n][e4.index()], t.mg[1][n][e5.index()]);
        assert!(t.mg[0][n][e4.index()] > t.mg[0][n][a1.index()]);
        let t10 = tables(10);
        let g1 = Square::parse("g1", 10).unwrap();
        let g10 = Square::parse("g10", 10).unwrap();
        let k = Kind::King as usize;
        assert_eq!(t10.mg[0][k][g1.index()], t10.mg[1][k][g10.index()]);
    }
}
