//! Dice chess: the simple player of the source description (level 1) and the expectimax
//! search of [`expectimax`] (levels 2–6), over the compact board of [`board`].

pub mod board;
pub mod eval;
pub mod expectimax;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use takhte_rules::dice::{Move, Position};

use board::{DMove, DiceBoard};

/// The simple player: always rolls when it can; after the roll it takes a capture if there is
/// one, else gives a check, else plays any move (seeded). Without pawns it moves the king,
/// capturing when it can. Returns `None` to roll.
pub fn simple_choice(pos: &Position, rolled: Option<u8>, seed: u64) -> Option<Move> {
    let b = DiceBoard::from_position(pos);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ b.key());
    let mut moves = Vec::new();
    match rolled {
        None => {
            if b.can_roll() {
                return None;
            }
            b.king_moves(&mut moves);
        }
        Some(face) => {
            b.pawn_moves(face, &mut moves);
            if moves.is_empty() {
                return Some(Move::Pass { face });
            }
        }
    }
    if moves.is_empty() {
        return None;
    }
    let captures: Vec<DMove> = moves.iter().copied().filter(|&m| b.is_capture(m)).collect();
    let checks: Vec<DMove> = moves
        .iter()
        .copied()
        .filter(|&m| b.gives_check(m))
        .collect();
    let pool = if !captures.is_empty() {
        captures
    } else if !checks.is_empty() {
        checks
    } else {
        moves
    };
    Some(pool[rng.gen_range(0..pool.len())].to_rules())
}
