//! Minesweeper chess for the alpha-beta search, played on what a player sees.
//!
//! The search never touches a real [`takhte_rules::mine::Position`] (playing one would set off
//! its hidden mines). It works on a copy of the visible board ([`takhte_rules::mine::Visible`])
//! and the mine probabilities of [`odds`]: a piece other than the king landing on a square that
//! may hold a mine is a chance node ([`SearchGame::risk`]): with probability `p` the piece is lost
//! (and if that leaves its own king in check, its side loses at once), otherwise it lands safely
//! and the square is known to be clear for the rest of that line. A king landing on a mine
//! removes it (royal sapper), so king moves carry no risk. A pawn's sapper action is searched
//! when the square in front of it may hold a mine: it costs a tempo and clears that square.
//! Probabilities are those of the root; what later landings would reveal is not modelled.

pub mod odds;

use takhte_rules::bitboard::{bit, Bitboard};
use takhte_rules::chess::{Board, Kind, Move as ChessMove, MoveList};
use takhte_rules::mine::{Move, Visible, RANKS};
use takhte_rules::{Side, Square};

use super::chess::{capture_order, gain, has_pieces, is_tactical, pack, pass, see};
use super::game::{Quiet, Risk, SearchGame, MATE};
use super::zobrist::{board_key, board_key_after, cleared_key};
use odds::{mine_odds, MineOdds};

/// A minesweeper-chess position in the search: the visible board, the squares found clear in
/// this line, and the Zobrist key of both.
#[derive(Clone, Copy, Debug)]
pub struct Pos {
    /// The board (no mines in it).
    pub board: Board,
    /// Squares of the fog zone that this line of the search has found clear.
    pub cleared: Bitboard,
    /// The Zobrist key.
    pub key: u64,
}

/// Minesweeper chess as the search sees it: the mine probabilities of the root position in
/// thousandths.
pub struct MineGame {
    permille: [i32; 80],
    risky: Bitboard,
    /// The evaluation ([`crate::chess::eval::TUNED_EVAL`] unless changed).
    pub eval: &'static crate::chess::eval::Evaluator,
}

impl MineGame {
    /// The search game for what a player sees in `visible`, and the root position.
    pub fn new(visible: &Visible) -> (MineGame, Pos) {
        let odds = mine_odds(visible);
        let game = MineGame::from_odds(&odds);
        let board = visible.board;
        (
            game,
            Pos {
                board,
                cleared: 0,
                key: board_key(&board),
            },
        )
    }

    /// The search game for given probabilities.
    pub fn from_odds(odds: &MineOdds) -> MineGame {
        let mut permille = [0; 80];
        for (s, p) in permille.iter_mut().enumerate() {
            *p = (odds.at(s) * 1000.0).round() as i32;
            if odds.at(s) > 0.0 && *p == 0 {
                *p = 1;
            }
        }
        let risky = odds.risky();
        MineGame {
            permille,
            risky,
            eval: &crate::chess::eval::TUNED_EVAL,
        }
    }

    /// The chance in thousandths that square index `sq` holds a mine in this line.
    fn chance(&self, pos: &Pos, sq: usize) -> i32 {
        if pos.cleared & bit(sq) != 0 {
            0
        } else {
            self.permille[sq]
        }
    }

    fn front(board: &Board, pawn: Square) -> Option<Square> {
        let side = board.side_to_move();
        pawn.offset(0, if side == Side::White { 1 } else { -1 }, RANKS)
    }

    fn with_cleared(pos: &Pos, board: Board, clear: Bitboard) -> Pos {
        let newly = clear & !pos.cleared;
        Pos {
            key: board_key_after(&pos.board, pos.key, &board) ^ cleared_key(newly),
            board,
            cleared: pos.cleared | clear,
        }
    }
}

/// What a draw costs the side the search plays for (centipawns), with the contempt
/// refinement (off at every level, [`crate::search::Features::contempt`]): a quarter of a
/// pawn. Tried because 103 of 200 games between the top level and the reference search were
/// drawn by repetition; with it the top level did not score better (docs/strength.md).
pub const CONTEMPT: i32 = 25;

impl SearchGame for MineGame {
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
        out.extend(list.as_slice().iter().map(|&m| Move::Piece(m)));
        let b = &pos.board;
        let side = b.side_to_move();
        if b.in_check(side) {
            return;
        }
        let occ = b.occupied();
        for s in takhte_rules::bitboard::squares(b.pieces(side, Kind::Pawn)) {
            let from = Square(s as u8);
            if let Some(front) = Self::front(b, from) {
                if occ & bit(front.index()) == 0 && self.chance(pos, front.index()) > 0 {
                    out.push(Move::Sapper(from));
                }
            }
        }
    }

    fn quiescence_moves(&self, pos: &Pos, out: &mut Vec<Move>) -> Quiet {
        let mut list = MoveList::new();
        let b = &pos.board;
        let forced = b.in_check(b.side_to_move());
        if forced {
            b.generate(&mut list);
        } else {
            // Captures and promotions (always to a queen here): the rules' tactical moves.
            b.generate_tactical(&mut list);
        }
        out.clear();
        out.extend(list.as_slice().iter().map(|&m| Move::Piece(m)));
        if forced {
            return Quiet::Forced;
        }
        Quiet::StandPat
    }

    fn play(&self, pos: &Pos, mv: Move) -> Pos {
        match mv {
            Move::Piece(m) => {
                let mut board = pos.board;
                board.apply(m);
                Self::with_cleared(pos, board, bit(m.to.index()) & self.risky)
            }
            Move::Sapper(pawn) => {
                let board = pass(&pos.board);
                let clear =
                    Self::front(&pos.board, pawn).map_or(0, |f| bit(f.index()) & self.risky);
                Self::with_cleared(pos, board, clear)
            }
        }
    }

    fn risk(&self, pos: &Pos, mv: Move) -> Option<Risk<Pos>> {
        let Move::Piece(m) = mv else { return None };
        let to = m.to.index();
        let p = self.chance(pos, to);
        if p == 0
            || pos.board.pieces(pos.board.side_to_move(), Kind::King) & bit(m.from.index()) != 0
        {
            return None;
        }
        let mut board = pos.board;
        board.apply(m);
        board.remove(m.to);
        Some(Risk {
            permille: p,
            lost: Self::with_cleared(pos, board, bit(to)),
        })
    }

    fn in_check(&self, pos: &Pos) -> bool {
        pos.board.in_check(pos.board.side_to_move())
    }

    fn evaluate(&self, pos: &Pos) -> i32 {
        self.eval.evaluate(&pos.board, self.risky & !pos.cleared)
    }

    fn decided(&self, pos: &Pos, ply: i32) -> Option<i32> {
        let b = &pos.board;
        if b.in_check(b.side_to_move().opponent()) {
            // A mine took the piece that shielded the mover's king: the mover has lost.
            return Some(MATE - ply);
        }
        if b.insufficient_material() {
            return Some(0);
        }
        None
    }

    fn contempt(&self) -> i32 {
        CONTEMPT
    }

    fn no_moves(&self, pos: &Pos, ply: i32) -> i32 {
        if self.in_check(pos) {
            -(MATE - ply)
        } else {
            0
        }
    }

    fn is_quiet(&self, pos: &Pos, mv: Move) -> bool {
        match mv {
            Move::Piece(m) => !is_tactical(&pos.board, m),
            Move::Sapper(_) => true,
        }
    }

    fn capture_order(&self, pos: &Pos, mv: Move) -> i32 {
        match mv {
            Move::Piece(m) => capture_order(&pos.board, m),
            Move::Sapper(_) => 0,
        }
    }

    fn see_at_least(&self, pos: &Pos, mv: Move, threshold: i32) -> bool {
        match mv {
            Move::Piece(m) => see::see_at_least(&pos.board, m, threshold),
            Move::Sapper(_) => threshold <= 0,
        }
    }

    fn gain(&self, pos: &Pos, mv: Move) -> i32 {
        match mv {
            Move::Piece(m) => gain(&pos.board, m),
            Move::Sapper(_) => 0,
        }
    }

    fn pack(&self, mv: Move) -> u32 {
        match mv {
            Move::Piece(m) => pack(m),
            Move::Sapper(sq) => sq.0 as u32 | 1 << 21,
        }
    }

    fn history_index(&self, mv: Move) -> usize {
        match mv {
            Move::Piece(m) => m.from.index() * 80 + m.to.index(),
            Move::Sapper(sq) => sq.index() * 81,
        }
    }

    fn null_move(&self, pos: &Pos) -> Option<Pos> {
        if !has_pieces(&pos.board) {
            return None;
        }
        Some(Self::with_cleared(pos, pass(&pos.board), 0))
    }

    fn reversible_plies(&self, pos: &Pos) -> usize {
        pos.board.halfmove_clock() as usize
    }
}

/// The chess move of a piece move (sapper actions have none).
pub fn piece_move(mv: &Move) -> Option<ChessMove> {
    match mv {
        Move::Piece(m) => Some(*m),
        Move::Sapper(_) => None,
    }
}
