//! `cargo bench --bench dice_endgame`: the exact value of the dice-chess ending king and two
//! pawns against a lone king, by value iteration over every position (a harness run, not a
//! speed benchmark; about 1.5 GB of memory and a few minutes on the 2-core machine).
//!
//! The value of a position is the probability that the side with the pawns (White here) mates,
//! with both sides playing as well as possible and the die fair: White, to move, takes the best
//! of its king moves and of rolling (the mean over the six faces of the best pawn move of each,
//! or the same position with Black to move when a face has none); Black, the lone king, takes
//! the king move that leaves White the least. A Black king with no move is mated when in check
//! (value 1) and stalemated otherwise (0); when it takes a pawn, a king and one pawn cannot mate
//! (0); every other end is a draw. Starting from 0 everywhere, the iteration rises to the least
//! fixed point, the probability of mating in finitely many turns.
//!
//! It answers why dice chess between two searching levels is nearly always drawn (see
//! `src/ai/level.rs`): even perfect play almost never wins this ending.

use takhte_ai::dice::board::{DMove, DiceBoard, KING_STEPS};
use takhte_rules::Rules;

/// Position index: White king (files a–d only: the rules are symmetric under a↔h), Black king,
/// and the two pawns, lower square first.
fn index(wk: u8, bk: u8, p1: u8, p2: u8) -> usize {
    let (a, b) = if p1 < p2 { (p1, p2) } else { (p2, p1) };
    let wk = (wk / 8) * 4 + wk % 8;
    ((wk as usize * 64 + bk as usize) * 64 + a as usize) * 64 + b as usize
}

const STATES: usize = 32 * 64 * 64 * 64;

fn mirror(sq: u8) -> u8 {
    sq / 8 * 8 + (7 - sq % 8)
}

/// The index of a board with two White pawns, mirrored so that the White king is on files a–d.
fn key(b: &DiceBoard) -> u32 {
    let mut p = b.pawns[0];
    let p1 = p.trailing_zeros() as u8;
    p &= p - 1;
    let p2 = p.trailing_zeros() as u8;
    let (wk, bk) = (b.kings[0], b.kings[1]);
    if wk % 8 < 4 {
        index(wk, bk, p1, p2) as u32
    } else {
        index(mirror(wk), mirror(bk), mirror(p1), mirror(p2)) as u32
    }
}

/// A successor that ends the game: Black took a pawn (a dead draw) or has no move.
const DRAWN: u32 = u32::MAX;
const MATED: u32 = u32::MAX - 1;

/// The successor lists: for each White-to-move state its king moves, then for each face its
/// pawn moves (each list led by its length); for each Black-to-move state its king moves.
struct Graph {
    white: Vec<(u32, u32)>,
    white_next: Vec<u32>,
    black: Vec<(u32, u32)>,
    black_next: Vec<u32>,
}

fn build() -> Graph {
    let mut g = Graph {
        white: Vec::new(),
        white_next: Vec::new(),
        black: Vec::new(),
        black_next: Vec::new(),
    };
    let mut moves: Vec<DMove> = Vec::new();
    for wk in (0..64u8).filter(|s| s % 8 < 4) {
        // Kings never stand side by side.
        for bk in (0..64u8).filter(|&s| s != wk && KING_STEPS[wk as usize] & 1 << s == 0) {
            for p1 in (0..64u8).filter(|&s| s != wk && s != bk) {
                for p2 in (p1 + 1..64u8).filter(|&s| s != wk && s != bk) {
                    let i = index(wk, bk, p1, p2) as u32;
                    let white = DiceBoard {
                        pawns: [1 << p1 | 1 << p2, 0],
                        kings: [wk, bk],
                        side: 0,
                    };
                    // White to move with Black in check cannot happen.
                    if white.checkers(1) == 0 {
                        g.white.push((i, g.white_next.len() as u32));
                        moves.clear();
                        white.king_moves(&mut moves);
                        g.white_next.push(moves.len() as u32);
                        g.white_next
                            .extend(moves.iter().map(|&m| key(&white.play(m))));
                        for face in 1..=6 {
                            moves.clear();
                            white.pawn_moves(face, &mut moves);
                            g.white_next.push(moves.len() as u32);
                            g.white_next
                                .extend(moves.iter().map(|&m| key(&white.play(m))));
                        }
                    }
                    let black = DiceBoard { side: 1, ..white };
                    g.black.push((i, g.black_next.len() as u32));
                    moves.clear();
                    black.king_moves(&mut moves);
                    if moves.is_empty() {
                        g.black_next.push(1);
                        g.black_next
                            .push(if black.in_check() { MATED } else { DRAWN });
                    } else {
                        g.black_next.push(moves.len() as u32);
                        for &m in &moves {
                            let next = black.play(m);
                            g.black_next.push(if next.pawns[0].count_ones() < 2 {
                                DRAWN
                            } else {
                                key(&next)
                            });
                        }
                    }
                }
            }
        }
    }
    g
}

/// One sweep over every state (updating in place); the largest change.
fn sweep(g: &Graph, wv: &mut [f32], bv: &mut [f32]) -> f32 {
    let mut delta = 0f32;
    for &(s, at) in &g.black {
        let at = at as usize;
        let n = g.black_next[at] as usize;
        let mut v = 1f32;
        for &t in &g.black_next[at + 1..at + 1 + n] {
            v = v.min(match t {
                DRAWN => 0.0,
                MATED => 1.0,
                t => wv[t as usize],
            });
        }
        delta = delta.max((v - bv[s as usize]).abs());
        bv[s as usize] = v;
    }
    for &(s, at) in &g.white {
        let mut at = at as usize;
        let n = g.white_next[at] as usize;
        let mut best = 0f32;
        for &t in &g.white_next[at + 1..at + 1 + n] {
            best = best.max(bv[t as usize]);
        }
        at += 1 + n;
        let (mut roll, mut any_face) = (0f32, false);
        for _ in 0..6 {
            let n = g.white_next[at] as usize;
            let face = if n == 0 {
                bv[s as usize]
            } else {
                any_face = true;
                g.white_next[at + 1..at + 1 + n]
                    .iter()
                    .map(|&t| bv[t as usize])
                    .fold(0f32, f32::max)
            };
            roll += face;
            at += 1 + n;
        }
        if any_face {
            best = best.max(roll / 6.0);
        }
        delta = delta.max((best - wv[s as usize]).abs());
        wv[s as usize] = best;
    }
    delta
}

fn main() {
    let started = std::time::Instant::now();
    let g = build();
    println!(
        "king and two pawns against a lone king: {} positions with White to move, {} with Black \
         (up to mirroring), built in {:.1} s",
        g.white.len(),
        g.black.len(),
        started.elapsed().as_secs_f64()
    );
    let mut wv = vec![0f32; STATES];
    let mut bv = vec![0f32; STATES];
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let delta = sweep(&g, &mut wv, &mut bv);
        if delta < 1e-5 || sweeps >= 1000 {
            println!("{sweeps} sweeps, last change {delta:.1e}");
            break;
        }
    }
    // Positions a game can come down to: the lone king in the middle (ranks 3-6), the pawns on
    // ranks 2-5 and the White king on ranks 1-4, White to move.
    let (mut sum, mut count, mut at_least_half, mut best) = (0f64, 0u64, 0u64, (0f32, 0u32));
    let (mut all_sum, mut immune_max) = (0f64, 0f32);
    for &(s, _) in &g.white {
        let v = wv[s as usize];
        let i = s as usize;
        let (p2, p1, bk, wk) = (i % 64, i / 64 % 64, i / 4096 % 64, i / 262_144);
        let wk_rank = wk / 4;
        all_sum += v as f64;
        if bk / 8 == 0 {
            immune_max = immune_max.max(v);
        }
        if (2..=5).contains(&(bk / 8))
            && (1..=4).contains(&(p1 / 8))
            && (1..=4).contains(&(p2 / 8))
            && wk_rank <= 3
        {
            sum += v as f64;
            count += 1;
            if v >= 0.5 {
                at_least_half += 1;
            }
        }
        if v > best.0 {
            best = (v, s);
        }
    }
    println!(
        "mean chance to mate, every position with White to move: {:.4}",
        all_sum / g.white.len() as f64
    );
    println!(
        "mean chance to mate, lone king on ranks 3-6, pawns on ranks 2-5, White king on ranks \
         1-4: {:.4} over {count} positions; {at_least_half} of them ({:.3}%) at 50% or more",
        sum / count as f64,
        100.0 * at_least_half as f64 / count as f64
    );
    println!(
        "largest chance with the lone king on rank 1 (where no pawn can check it): {immune_max:.4}"
    );
    let i = best.1 as usize;
    let wk = (i / 262_144 / 4 * 8 + i / 262_144 % 4) as u8;
    let b = DiceBoard {
        pawns: [1 << (i / 64 % 64) | 1 << (i % 64), 0],
        kings: [wk, (i / 4096 % 64) as u8],
        side: 0,
    };
    println!(
        "largest chance of all: {:.4} in {}",
        best.0,
        takhte_ai::dice::board::to_position(&b).to_text()
    );
    println!("total {:.1} s", started.elapsed().as_secs_f64());
}
