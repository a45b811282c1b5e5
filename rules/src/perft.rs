//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move generator.

use super::Rules;

/// Counts the leaves of the legal-move tree `depth` plies deep. A finished game has no moves, so
/// it is a leaf only when it stands exactly at `depth`. Depth 0 counts the position itself.
///
/// ```
/// use takhte_rules::{chess, perft::perft};
/// assert_eq!(perft(&chess::Position::start(), 2), 400);
/// ```
pub fn perft<G: Rules>(position: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = position.clone();
            match next.play(mv) {
                Ok(()) => perft(&next, depth - 1),
                Err(_) => 0,
            }
        })
        .sum()
}
