//! Chess for the alpha-beta search: [`ChessGame`] implements [`SearchGame`] over the rules'
//! bitboard [`Board`], with the evaluation of [`eval`] and the exchange test of [`see`]. The
//! helpers here (move packing, capture order) serve minesweeper chess too.

pub mod eval;
pub mod net;
pub mod net_weights;
pub mod params;
pub mod pst;
pub mod see;
pub mod squares;
pub mod tuned;

use takhte_rules::bitboard::bit;
use takhte_rules::chess::{Board, Kind, Move, MoveList};
use takhte_rules::Square;

use super::game::{Quiet, SearchGame, MATE};
use super::zobrist::{board_key, board_key_after};
use pst::SEE_VALUE;

/// A chess position in the search: the board, its Zobrist key and the neural correction's
/// hidden-layer sums.
#[derive(Clone, Copy, Debug)]
pub struct Pos {
    /// The board.
    pub board: Board,
    /// Its Zobrist key.
    pub key: u64,
    /// The sums of [`net`] for the board, kept up to date by [`ChessGame`] when its evaluation
    /// uses the network (otherwise those of the root, unused).
    pub acc: net::Accumulator,
}

impl Pos {
    /// A search position for `board`.
    pub fn new(board: Board) -> Pos {
        Pos {
            key: board_key(&board),
            acc: net::Accumulator::new(&board),
            board,
        }
    }
}

impl ChessGame {
    /// The position after `board` replaces the board of `pos`: the key and, when the
    /// evaluation uses the network, its sums brought up to date.
    fn next(&self, pos: &Pos, board: Board) -> Pos {
        Pos {
            key: board_key_after(&pos.board, pos.key, &board),
            acc: if self.eval.net {
                pos.acc.after(&pos.board, &board)
            } else {
                pos.acc
            },
            board,
        }
    }
}

/// Chess as the search sees it. `history` holds the rules' repetition keys of the game so far,
/// so that the search treats a return to an earlier position as a draw.
pub struct ChessGame {
    /// Repetition keys ([`takhte_rules::Rules::repetition_key`]) of the positions since the last
    /// irreversible move, the root included.
    pub history: Vec<u64>,
    /// The evaluation ([`eval::TUNED_NET_EVAL`] at chess level 6, [`eval::HAND_EVAL`] below it).
    pub eval: &'static eval::Evaluator,
}

/// The kind of the piece on `sq`.
pub fn kind_at(b: &Board, sq: Square) -> Option<Kind> {
    let m = bit(sq.index());
    Kind::ALL.into_iter().find(|&k| b.kind_pieces(k) & m != 0)
}

/// Packs a chess move into a non-zero number.
pub fn pack(mv: Move) -> u32 {
    (mv.from.0 as u32)
        | (mv.to.0 as u32) << 7
        | mv.promotion.map_or(0, |k| k as u32 + 1) << 14
        | 1 << 20
}

/// Whether `mv` captures or promotes.
pub fn is_tactical(b: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || b.is_capture(mv)
}

/// MVV-LVA: the most valuable victim first, then the least valuable attacker.
pub fn capture_order(b: &Board, mv: Move) -> i32 {
    let victim = kind_at(b, mv.to).map_or(if b.is_en_passant(mv) { 0 } else { -1 }, |k| k as i32);
    let attacker = kind_at(b, mv.from).map_or(0, |k| k as i32);
    let promo = mv.promotion.map_or(0, |k| SEE_VALUE[k as usize]);
    (victim + 1) * 1000 - attacker * 10 + promo
}

/// The material `mv` can win at once.
pub fn gain(b: &Board, mv: Move) -> i32 {
    let victim = kind_at(b, mv.to).map_or(if b.is_en_passant(mv) { 100 } else { 0 }, |k| {
        SEE_VALUE[k as usize]
    });
    victim + mv.promotion.map_or(0, |k| SEE_VALUE[k as usize] - 100)
}

/// Whether the side to move has a piece other than pawns and king (null moves are unsafe
/// without one: zugzwang).
pub fn has_pieces(b: &Board) -> bool {
    let side = b.side_to_move();
    (b.pieces(side, Kind::Knight)
        | b.pieces(side, Kind::Bishop)
        | b.pieces(side, Kind::Rook)
        | b.pieces(side, Kind::Queen))
        != 0
}

/// The board with the turn passed (no en-passant square).
pub fn pass(b: &Board) -> Board {
    let mut n = *b;
    n.set_side_to_move(b.side_to_move().opponent());
    n.set_ep_square(None);
    n
}

impl SearchGame for ChessGame {
    type Pos = Pos;
    type Mv = Move;
    const HISTORY_SIZE: usize = 80 * 80;

    fn key(&self, pos: &Pos) -> u64 {
        pos.key
    }

    fn generate(&self, pos: &Pos, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        pos.board.generate(&mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
    }

    fn quiescence_moves(&self, pos: &Pos, out: &mut Vec<Move>) -> Quiet {
        if pos.board.in_check(pos.board.side_to_move()) {
            self.generate(pos, out);
            return Quiet::Forced;
        }
        // Captures and queen promotions, in the order the full list has them.
        let mut list = MoveList::new();
        pos.board.generate_tactical(&mut list);
        out.clear();
        out.extend_from_slice(list.as_slice());
        Quiet::StandPat
    }

    fn play(&self, pos: &Pos, mv: Move) -> Pos {
        let mut board = pos.board;
        board.apply(mv);
        self.next(pos, board)
    }

    fn in_check(&self, pos: &Pos) -> bool {
        pos.board.in_check(pos.board.side_to_move())
    }

    fn evaluate(&self, pos: &Pos) -> i32 {
        self.eval.evaluate_kept(&pos.board, 0, &pos.acc)
    }

    fn decided(&self, pos: &Pos, _ply: i32) -> Option<i32> {
        if pos.board.insufficient_material() || pos.board.halfmove_clock() >= 100 {
            Some(0)
        } else {
            None
        }
    }

    fn no_moves(&self, pos: &Pos, ply: i32) -> i32 {
        if self.in_check(pos) {
            -(MATE - ply)
        } else {
            0
        }
    }

    fn is_quiet(&self, pos: &Pos, mv: Move) -> bool {
        !is_tactical(&pos.board, mv)
    }

    fn capture_order(&self, pos: &Pos, mv: Move) -> i32 {
        capture_order(&pos.board, mv)
    }

    fn see_at_least(&self, pos: &Pos, mv: Move, threshold: i32) -> bool {
        see::see_at_least(&pos.board, mv, threshold)
    }

    fn gain(&self, pos: &Pos, mv: Move) -> i32 {
        gain(&pos.board, mv)
    }

    fn pack(&self, mv: Move) -> u32 {
        pack(mv)
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.from.index() * 80 + mv.to.index()
    }

    fn null_move(&self, pos: &Pos) -> Option<Pos> {
        if !has_pieces(&pos.board) {
            return None;
        }
        Some(self.next(pos, pass(&pos.board)))
    }

    fn reversible_plies(&self, pos: &Pos) -> usize {
        pos.board.halfmove_clock() as usize
    }

    fn repeats_game(&self, pos: &Pos, ply: i32) -> bool {
        self.history.len() > 1
            && pos.board.halfmove_clock() >= ply as u32
            && self.history.contains(&pos.board.repetition_key())
    }
}
