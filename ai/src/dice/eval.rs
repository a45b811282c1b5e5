//! The static evaluation of dice chess.
//!
//! Terms, for each side: pawn count; advancement; king safety (enemy pawns close to the king,
//! squares around it the enemy attacks, room to step away, own pawns beside it that can take a
//! checking pawn); pressure on the enemy king. The side to move also gets its threats: for
//! each die face, whether that face would let it capture a pawn or give check (a sixth each),
//! computed with shift fills over the bitboards. When one side has no pawns left it can only
//! walk its king: the other side is rewarded for keeping pawns, hemming the king in and driving
//! it to its own back rank, as long as it does not stalemate it; a king that reaches the other
//! side's first rank can never be checked by pawns, which only attack forward, so there it is
//! safe for good.
//!
//! A side in check at a leaf is not judged here: the search looks one turn further.

use super::board::{DiceBoard, KING_STEPS, PAWN_ATTACKS};

/// A pawn's value.
pub const PAWN: i32 = 100;

/// Advancement bonus by rank counted from the own side (ranks 1–8), for a pawn still below
/// the enemy king: a pawn beyond the king attacks nothing near it.
const ADVANCE: [i32; 8] = [0, 0, 4, 9, 14, 18, 20, 20];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra, fb, rb) = (
        (a % 8) as i32,
        (a / 8) as i32,
        (b % 8) as i32,
        (b / 8) as i32,
    );
    (fa - fb).abs().max((ra - rb).abs())
}

/// One step in a direction (file step, rank step), dropping what leaves the board.
#[inline]
fn shift(b: u64, df: i32, dr: i32) -> u64 {
    let b = match df {
        1 => (b & !FILE_H) << 1,
        -1 => (b & !FILE_A) >> 1,
        _ => b,
    };
    match dr {
        1 => b << 8,
        -1 => b >> 8,
        _ => b,
    }
}

/// The squares pawns on `from` reach sliding up to four squares in one direction (`step`, a
/// shift that drops what leaves the board), stopping at any piece of `occupied` (which is
/// included).
#[inline(always)]
fn ray(from: u64, occupied: u64, step: impl Fn(u64) -> u64) -> u64 {
    let mut reach = 0;
    let mut g = from;
    for _ in 0..4 {
        g = step(g);
        reach |= g;
        g &= !occupied;
    }
    reach
}

/// [`ray`] in the four rook directions (face 2). Each direction is its own shift and mask, so
/// the compiler unrolls them instead of matching a direction pair at every step.
fn slide_orthogonal(from: u64, occupied: u64) -> u64 {
    ray(from, occupied, |g| (g & !FILE_H) << 1)
        | ray(from, occupied, |g| (g & !FILE_A) >> 1)
        | ray(from, occupied, |g| g << 8)
        | ray(from, occupied, |g| g >> 8)
}

/// [`ray`] in the four bishop directions (face 4).
fn slide_diagonal(from: u64, occupied: u64) -> u64 {
    ray(from, occupied, |g| (g & !FILE_H) << 9)
        | ray(from, occupied, |g| (g & !FILE_A) << 7)
        | ray(from, occupied, |g| (g & !FILE_H) >> 7)
        | ray(from, occupied, |g| (g & !FILE_A) >> 9)
}

/// The squares knights on `p` jump to: one file and two ranks, or two files and one rank.
fn knight_jumps(p: u64) -> u64 {
    const FILE_B: u64 = FILE_A << 1;
    const FILE_G: u64 = FILE_A << 6;
    let one = ((p >> 1) & !FILE_H) | ((p << 1) & !FILE_A);
    let two = ((p >> 2) & !(FILE_G | FILE_H)) | ((p << 2) & !(FILE_A | FILE_B));
    (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
}

fn king_steps(p: u64) -> u64 {
    let h = p | shift(p, 1, 0) | shift(p, -1, 0);
    (h | shift(h, 0, 1) | shift(h, 0, -1)) & !p
}

/// For each face 1–6, the squares `side`'s pawns could land on (shape and blockers only).
#[inline(always)]
fn face_reach(b: &DiceBoard, side: usize) -> [u64; 6] {
    let own = b.pawns[side];
    let occ = b.pawns[0] | b.pawns[1] | 1 << b.kings[0] | 1 << b.kings[1];
    let rook = slide_orthogonal(own, occ);
    let bishop = slide_diagonal(own, occ);
    let steps = king_steps(own);
    let forward = if side == 0 { own << 8 } else { own >> 8 };
    [
        b.pawn_attacks(side) | forward,
        rook,
        knight_jumps(own),
        bishop,
        steps,
        rook | bishop | steps,
    ]
}

/// What the side to move threatens this turn: a sixth of a pawn for each face that captures,
/// more for each face that gives check to a king with nowhere to go.
#[inline(always)]
fn threats(b: &DiceBoard) -> i32 {
    let us = b.side;
    let them = 1 - us;
    let reach = face_reach(b, us);
    let prey = b.pawns[them];
    let ek = b.kings[them] as usize;
    // Landing squares from which a pawn attacks the enemy king.
    let checking = PAWN_ATTACKS[them][ek];
    let boxed = escape_squares(b, them) == 0;
    let mut t = 0;
    for (f, &r) in reach.iter().enumerate() {
        if r & prey != 0 {
            t += 70;
        }
        if f != 2 && r & checking != 0 {
            t += if boxed { 120 } else { 25 };
        }
    }
    // The king takes an unprotected pawn next to it without rolling.
    let guarded = b.pawn_attacks(them) | KING_STEPS[ek];
    let king_takes = KING_STEPS[b.kings[us] as usize] & prey & !guarded;
    t / 6 + if king_takes != 0 { 85 } else { 0 }
}

/// The squares `side`'s king could step to (ignoring whose turn it is).
#[inline(always)]
fn escape_squares(b: &DiceBoard, side: usize) -> u32 {
    let them = 1 - side;
    let ek = b.kings[them] as usize;
    let banned = b.pawns[side] | KING_STEPS[ek] | 1 << ek | b.pawn_attacks(them);
    (KING_STEPS[b.kings[side] as usize] & !banned).count_ones()
}

/// `RINGS[sq][d]`: the squares at distance `d` (0–3, in king steps) from `sq`.
static RINGS: [[u64; 4]; 64] = rings();

const fn rings() -> [[u64; 4]; 64] {
    let mut t = [[0u64; 4]; 64];
    let mut a: usize = 0;
    while a < 64 {
        let mut b: usize = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            let d = if df > dr { df } else { dr };
            if d < 4 {
                t[a][d as usize] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// The squares on ranks (0–7) below `rank` as `side`'s pawns look at it: lower ranks for
/// White (0), higher for Black (1). A pawn there attacks towards that rank.
#[inline]
fn below(side: usize, rank: u8) -> u64 {
    if side == 0 {
        (1u64 << (8 * rank as u32)) - 1
    } else {
        u64::MAX.checked_shl(8 * (rank as u32 + 1)).unwrap_or(0)
    }
}

/// The pawn terms of `side`'s evaluation: the advancement and nearness to the enemy king of its
/// pawns below that king plus those beside its own king; the enemy pawns within two squares
/// below its king (attackers); its own pawns within two squares of it (defenders).
#[inline(always)]
fn pawn_terms(b: &DiceBoard, side: usize) -> (i32, i32, i32) {
    let them = 1 - side;
    let own = b.pawns[side];
    let (king, enemy_king) = (b.kings[side], b.kings[them]);
    let mut s = 0;
    // Pawns attack forward only: they count near the enemy king and below it.
    let coming = own & below(side, enemy_king / 8);
    for rank in 0..8 {
        let on = (coming >> (8 * rank)) & 0xff;
        if on != 0 {
            let rel = if side == 0 { rank } else { 7 - rank };
            s += ADVANCE[rel] * on.count_ones() as i32;
        }
    }
    let near = &RINGS[enemy_king as usize];
    s += 14 * (coming & near[1]).count_ones() as i32
        + 12 * (coming & near[2]).count_ones() as i32
        + 5 * (coming & near[3]).count_ones() as i32;
    let close = &RINGS[king as usize];
    s += 5 * (own & close[1]).count_ones() as i32;
    let within2 = close[1] | close[2];
    let attackers = (b.pawns[them] & below(them, king / 8) & within2).count_ones() as i32;
    let defenders = (own & within2).count_ones() as i32;
    (s, attackers, defenders)
}

/// The evaluation of `b` for one side (positive is good for `side`).
#[inline(always)]
fn side_score(b: &DiceBoard, side: usize) -> i32 {
    let them = 1 - side;
    let own = b.pawns[side];
    let n = own.count_ones() as i32;
    let king = b.kings[side];
    let enemy_king = b.kings[them];
    let (terms, attackers, defenders) = pawn_terms(b, side);
    let mut s = PAWN * n + terms;
    // King danger: enemy pawns close below the king (they attack forward), the more so when
    // the king has little room; own pawns close by can take a checking pawn.
    let escape = escape_squares(b, side) as i32;
    let room = escape.min(3);
    s -= attackers * (10 + 8 * (3 - room)) - 3 * defenders.min(6);
    let attacked = b.pawn_attacks(them);
    let around = KING_STEPS[king as usize];
    s -= 7 * (around & attacked).count_ones() as i32;
    s += 3 * escape.min(4);
    s += 6 * (KING_STEPS[enemy_king as usize] & b.pawn_attacks(side)).count_ones() as i32;
    // Against a king without pawns: keep pawns, hem it in, drive it to the edge. A king on
    // our own first rank can never be checked by our pawns (they attack forward): a fortress.
    let (f, r) = ((enemy_king % 8) as i32, (enemy_king / 8) as i32);
    let back = if them == 1 { 7 - r } else { r };
    if b.pawns[them] == 0 && n > 0 && back < 7 {
        let ek = enemy_king;
        let edge = f.min(7 - f);
        s += 80 + 25 * n.min(6) - 25 * back - 8 * edge - 20 * escape_squares(b, them) as i32
            + 6 * (7 - distance(king, ek))
            + 10 * (KING_STEPS[ek as usize] & b.pawn_attacks(side)).count_ones() as i32;
    }
    s
}

with_feature! {
    "popcnt",
    /// The evaluation for the side to move, clamped well inside the win score (with the
    /// `popcnt` instruction where the processor has it).
    pub fn evaluate(b: &DiceBoard) -> i32 = evaluate_body
}

/// [`evaluate`] itself (inlined into both its versions).
#[inline(always)]
fn evaluate_body(b: &DiceBoard) -> i32 {
    let us = b.side;
    let v = side_score(b, us) - side_score(b, 1 - us) + threats(b);
    v.clamp(-super::expectimax::WIN / 2, super::expectimax::WIN / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::dice::Position;
    use takhte_rules::{Rules, Side};

    /// [`pawn_terms`] as it was written before the bitboard version: a loop over the pawns.
    fn pawn_terms_by_loops(b: &DiceBoard, side: usize) -> (i32, i32, i32) {
        const ADVANCE_BY_RANK: [i32; 8] = [0, 0, 4, 9, 14, 18, 20, 20];
        let them = 1 - side;
        let (king, enemy_king) = (b.kings[side], b.kings[them]);
        let ranks_below = |sq: u8, of: u8, pawns_of: usize| {
            if pawns_of == 0 {
                sq / 8 < of / 8
            } else {
                sq / 8 > of / 8
            }
        };
        let (mut s, mut attackers, mut defenders) = (0, 0, 0);
        for sq in (0..64u8).filter(|&q| b.pawns[side] >> q & 1 == 1) {
            if ranks_below(sq, enemy_king, side) {
                let rank = (sq / 8) as usize;
                s += ADVANCE_BY_RANK[if side == 0 { rank } else { 7 - rank }];
                s += match distance(sq, enemy_king) {
                    1 => 14,
                    2 => 12,
                    3 => 5,
                    _ => 0,
                };
            }
            if distance(sq, king) == 1 {
                s += 5;
            }
            if distance(sq, king) <= 2 {
                defenders += 1;
            }
        }
        for sq in (0..64u8).filter(|&q| b.pawns[them] >> q & 1 == 1) {
            if ranks_below(sq, king, them) && distance(sq, king) <= 2 {
                attackers += 1;
            }
        }
        (s, attackers, defenders)
    }

    #[test]
    fn pawn_terms_match_a_loop_over_the_pawns() {
        // Boards along seeded random games (random faces and moves, king moves now and then),
        // both sides' terms at every turn.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..60 {
            let mut b = DiceBoard::from_position(&Position::start(Side::White));
            for _ in 0..120 {
                for side in 0..2 {
                    assert_eq!(
                        pawn_terms(&b, side),
                        pawn_terms_by_loops(&b, side),
                        "side {side} of {b:?}"
                    );
                    checked += 1;
                }
                let mut moves = Vec::new();
                if rng.gen_bool(0.2) {
                    b.king_moves(&mut moves);
                }
                if moves.is_empty() {
                    b.pawn_moves(rng.gen_range(1..=6), &mut moves);
                }
                if moves.is_empty() {
                    b = b.pass();
                    continue;
                }
                b = b.play(moves[rng.gen_range(0..moves.len())]);
                if b.only_kings() {
                    break;
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn knight_jumps_are_the_knights_squares() {
        for sq in 0..64i32 {
            let (f, r) = (sq % 8, sq / 8);
            let mut want = 0u64;
            for (df, dr) in takhte_rules::square::KNIGHT_JUMPS {
                let (tf, tr) = (f + df, r + dr);
                if (0..8).contains(&tf) && (0..8).contains(&tr) {
                    want |= 1 << (tr * 8 + tf);
                }
            }
            assert_eq!(knight_jumps(1 << sq), want, "from square {sq}");
        }
        // Several knights at once: the union.
        assert_eq!(
            knight_jumps(1 | 1 << 63),
            knight_jumps(1) | knight_jumps(1 << 63)
        );
    }

    #[test]
    fn slides_are_a_walk_square_by_square() {
        // Seeded random pawns and blockers; each of `from`'s pawns walks up to four squares
        // in each direction of the rules' lists, stopping on the board's edge or on a piece.
        use rand::{Rng, SeedableRng};
        use takhte_rules::dice::{DIAGONAL, ORTHOGONAL};
        let walk = |from: u64, occupied: u64, dirs: &[(i32, i32)]| {
            let mut want = 0u64;
            for sq in (0..64i32).filter(|&q| from >> q & 1 == 1) {
                for &(df, dr) in dirs {
                    let (mut f, mut r) = (sq % 8, sq / 8);
                    for _ in 0..4 {
                        (f, r) = (f + df, r + dr);
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            break;
                        }
                        want |= 1 << (r * 8 + f);
                        if occupied >> (r * 8 + f) & 1 == 1 {
                            break;
                        }
                    }
                }
            }
            want
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for i in 0..4_000 {
            let (from, other): (u64, u64) = if i < 64 {
                (1 << i, 0)
            } else {
                (
                    rng.gen::<u64>() & rng.gen::<u64>(),
                    rng.gen::<u64>() & rng.gen::<u64>(),
                )
            };
            let occupied = from | other;
            assert_eq!(
                slide_orthogonal(from, occupied),
                walk(from, occupied, &ORTHOGONAL)
            );
            assert_eq!(
                slide_diagonal(from, occupied),
                walk(from, occupied, &DIAGONAL)
            );
        }
    }

    #[test]
    fn face_reach_matches_the_move_generator() {
        let pos =
            Position::from_text("pppk1ppp/ppp2ppp/3p4/4p3/3P4/2P5/PP2PPPP/PPPKPP1P w").unwrap();
        let b = DiceBoard::from_position(&pos);
        let reach = face_reach(&b, 0);
        for face in 1..=6u8 {
            let mut moves = Vec::new();
            b.pawn_moves(face, &mut moves);
            for m in moves {
                assert!(
                    reach[face as usize - 1] & (1 << m.to) != 0,
                    "face {face}: {:?}",
                    m
                );
            }
        }
        let start = DiceBoard::from_position(&Position::start(Side::White));
        assert_eq!(evaluate(&start), threats(&start));
    }
}
