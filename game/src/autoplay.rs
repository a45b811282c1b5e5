//! Random play through the controller's intents, as a player would tap: used by the
//! `takhte autoplay` crash test and by the save/load tests.

use rand::Rng;

use takhte_rules::{chess, dice, mine, AnyGame, AnyMove, Square};

use super::controller::{move_path, Controller};

/// Plays one random legal ply for the side to move through taps, rolls, the sapper button and
/// the promotion chooser. Returns false when there is nothing to do (the game is over, or it is
/// the computer's turn).
pub fn random_ply(c: &mut Controller, rng: &mut impl Rng) -> bool {
    if c.session().is_over() || !c.human_to_move() || c.reviewing() {
        return false;
    }
    let before = (c.session().cursor(), c.rolled());
    let game = c.session().game().clone();
    if let AnyGame::Dice(l) = &game {
        let pos = l.position();
        let kings = pos.king_moves();
        if c.rolled().is_none() && pos.can_roll() && (kings.is_empty() || rng.gen_bool(0.85)) {
            c.roll();
            if c.rolled().is_none() {
                return true; // an empty roll passed (or ended the game)
            }
        }
    }
    let moves: Vec<AnyMove> = match (&game, c.rolled()) {
        (AnyGame::Dice(l), Some(face)) => l
            .position()
            .pawn_moves(face)
            .into_iter()
            .map(AnyMove::Dice)
            .collect(),
        (AnyGame::Dice(l), None) => l
            .position()
            .king_moves()
            .into_iter()
            .map(AnyMove::Dice)
            .collect(),
        _ => game.legal_moves(),
    };
    if moves.is_empty() {
        return false;
    }
    let mv = moves[rng.gen_range(0..moves.len())].clone();
    enter(c, &mv);
    (c.session().cursor(), c.rolled()) != before
}

/// Enters `mv` through the intents a player would use.
pub fn enter(c: &mut Controller, mv: &AnyMove) {
    match mv {
        AnyMove::Mine(mine::Move::Sapper(sq)) => {
            c.tap(*sq);
            c.sapper();
        }
        AnyMove::Chess(chess::Move {
            promotion: Some(kind),
            from,
            to,
        }) => {
            c.tap(*from);
            c.tap(*to);
            c.choose_promotion(*kind);
        }
        AnyMove::Dice(dice::Move::Pass { .. }) => {}
        _ => {
            let path: Vec<Square> = move_path(mv);
            for sq in path {
                c.tap(sq);
            }
        }
    }
}
