//! Turkish draughts for the alpha-beta search: [`DraughtsGame`] implements [`SearchGame`] over
//! the rules' [`Position`] and its compact moves. Captures are compulsory and maximal, so
//! quiescence search follows every capture (no standing pat while a capture is due) and the
//! null move is never tried (zugzwang is common).

pub mod eval;
pub mod params;
pub mod tuned;

use takhte_rules::draughts::{Compact, Position};
use takhte_rules::{Rules, Side};

use super::game::{Quiet, SearchGame, MATE};
use super::zobrist::{draughts_key, BLACK_TO_MOVE};
use params::{Params, HAND};
use tuned::TUNED;

/// A draughts position in the search, with its Zobrist key.
#[derive(Clone, Debug)]
pub struct Pos {
    /// The position.
    pub pos: Position,
    /// Its key.
    pub key: u64,
}

fn bitboards(p: &Position) -> [u64; 4] {
    [
        p.men_bits(Side::White),
        p.men_bits(Side::Black),
        p.king_bits(Side::White),
        p.king_bits(Side::Black),
    ]
}

impl Pos {
    /// The search position for `pos`.
    pub fn new(pos: Position) -> Pos {
        let mut key = bitboards(&pos)
            .iter()
            .enumerate()
            .fold(0, |k, (slot, &b)| k ^ draughts_key(b, slot));
        if pos.side_to_move() == Side::Black {
            key ^= BLACK_TO_MOVE;
        }
        Pos { pos, key }
    }
}

/// Draughts as the search sees it. `history` holds the repetition keys of the game so far.
pub struct DraughtsGame {
    /// Repetition keys of the positions since the last irreversible move, the root included.
    pub history: Vec<u64>,
    /// The evaluation's numbers.
    pub eval: &'static Params,
}

impl DraughtsGame {
    /// The game after the repetition keys `history`, evaluating with the hand-written numbers
    /// ([`HAND`]) if `hand`, else the tuned ones ([`TUNED`]).
    pub fn new(history: Vec<u64>, hand: bool) -> DraughtsGame {
        DraughtsGame {
            history,
            eval: if hand { &HAND } else { &TUNED },
        }
    }
}

/// The outcome by material with `pos`'s side to move: a loss, a win or a draw, as a score.
fn material_decision(pos: &Position, ply: i32) -> Option<i32> {
    let x = pos.side_to_move();
    let y = x.opponent();
    let nx = pos.count(x);
    let ny = pos.count(y);
    if nx == 0 {
        return Some(-(MATE - ply));
    }
    if ny == 0 {
        return Some(MATE - ply);
    }
    if nx == 1 && ny == 1 {
        return Some(0);
    }
    if nx == 1 && pos.men_bits(x) != 0 {
        return Some(-(MATE - ply));
    }
    if ny == 1 && pos.men_bits(y) != 0 {
        return Some(MATE - ply);
    }
    None
}

impl SearchGame for DraughtsGame {
    type Pos = Pos;
    type Mv = Compact;
    const HISTORY_SIZE: usize = 64 * 64;

    fn key(&self, pos: &Pos) -> u64 {
        pos.key
    }

    fn generate(&self, pos: &Pos, out: &mut Vec<Compact>) {
        let n = pos.pos.compact_moves(out);
        if n > 0 && out.len() > 1 {
            // Different paths with the same effect are one move for the search.
            let mut i = 0;
            while i < out.len() {
                if out[..i].contains(&out[i]) {
                    out.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }

    fn quiescence_moves(&self, pos: &Pos, out: &mut Vec<Compact>) -> Quiet {
        self.generate(pos, out);
        if out.first().is_some_and(|m| m.mask != 0) {
            Quiet::Forced
        } else {
            out.clear();
            Quiet::StandPat
        }
    }

    fn play(&self, pos: &Pos, mv: Compact) -> Pos {
        let before = bitboards(&pos.pos);
        let mut next = pos.pos.clone();
        next.play_compact(&mv);
        let after = bitboards(&next);
        let mut key = pos.key ^ BLACK_TO_MOVE;
        for slot in 0..4 {
            key ^= draughts_key(before[slot] ^ after[slot], slot);
        }
        Pos { pos: next, key }
    }

    fn in_check(&self, _pos: &Pos) -> bool {
        false
    }

    fn evaluate(&self, pos: &Pos) -> i32 {
        eval::evaluate(self.eval, &pos.pos)
    }

    fn decided(&self, pos: &Pos, ply: i32) -> Option<i32> {
        material_decision(&pos.pos, ply)
    }

    fn no_moves(&self, _pos: &Pos, ply: i32) -> i32 {
        -(MATE - ply)
    }

    fn is_quiet(&self, _pos: &Pos, mv: Compact) -> bool {
        mv.mask == 0
    }

    fn capture_order(&self, pos: &Pos, mv: Compact) -> i32 {
        let them = pos.pos.side_to_move().opponent();
        let kings = (mv.mask & pos.pos.king_bits(them)).count_ones() as i32;
        mv.mask.count_ones() as i32 * 100 + kings * 200
    }

    fn gain(&self, pos: &Pos, mv: Compact) -> i32 {
        let them = pos.pos.side_to_move().opponent();
        let kings = (mv.mask & pos.pos.king_bits(them)).count_ones() as i32;
        mv.mask.count_ones() as i32 * eval::MAN + kings * (self.eval.king - eval::MAN)
    }

    fn pack(&self, mv: Compact) -> u32 {
        mv.from as u32 | (mv.to as u32) << 6 | 1 << 12
    }

    fn history_index(&self, mv: Compact) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    fn repeats_game(&self, pos: &Pos, ply: i32) -> bool {
        ply <= 2 && self.history.len() > 1 && self.history.contains(&pos.pos.repetition_key())
    }
}
