//! Turkish draughts (Dama), RULES.md §3.
//!
//! Men move and capture one square straight forward, left or right; kings fly along ranks and
//! files. Capturing is compulsory and the sequence that takes the most pieces must be chosen;
//! captured pieces leave the board as they are jumped, and a king may not turn back 180° between
//! two jumps. A man is crowned on the far rank only at the end of its move.
//!
//! Where RULES.md leaves a corner open, this module decides:
//! - the moving piece leaves its start square when a capture begins, so a king's sequence may
//!   cross or end on that square;
//! - a player with no pieces has lost even when it is not their turn (reachable only from a
//!   position text; with both sides empty, the side to move loses);
//! - position texts are permissive (any number of pieces, men anywhere but on their promotion
//!   rank) and any run of whitespace separates the two fields.
//!
//! ```
//! use takhte_rules::{draughts::Position, Rules};
//! let mut pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 8);
//! let mv = pos.parse_move("c3-c4").unwrap();
//! pos.play(&mv).unwrap();
//! assert_eq!(pos.to_text(), "8/bbbbbbbb/bbbbbbbb/8/2w5/ww1wwwww/wwwwwwww/8 b");
//! ```

mod board;
mod moves;

use std::fmt;

pub use board::Compact;
use board::{
    bit, can_jump, direction, man_dirs, promotion_rank, reverse, step, Board, Counter, Sink, NO_DIR,
};
pub use moves::Move;

use crate::common::stable_hash;
use crate::square::{parse_board_field, write_board_field};
use crate::{EndReason, MoveError, Outcome, PositionError, Rules, Side, Square};

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A man of the given side.
    Man(Side),
    /// A king (dama) of the given side.
    King(Side),
}

impl Piece {
    /// The side the piece belongs to.
    pub fn side(self) -> Side {
        match self {
            Piece::Man(s) | Piece::King(s) => s,
        }
    }

    /// Whether the piece is a king.
    pub fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }

    /// The position-text letter: `w`/`b` for men, `W`/`B` for kings.
    pub fn letter(self) -> char {
        match self {
            Piece::Man(Side::White) => 'w',
            Piece::Man(Side::Black) => 'b',
            Piece::King(Side::White) => 'W',
            Piece::King(Side::Black) => 'B',
        }
    }

    /// The piece of a position-text letter (`w`, `b`, `W`, `B`).
    pub fn from_letter(c: char) -> Option<Piece> {
        match c {
            'w' => Some(Piece::Man(Side::White)),
            'b' => Some(Piece::Man(Side::Black)),
            'W' => Some(Piece::King(Side::White)),
            'B' => Some(Piece::King(Side::Black)),
            _ => None,
        }
    }
}

/// A Turkish draughts position: the pieces and the side to move.
///
/// ```
/// use takhte_rules::{draughts::{Piece, Position}, Rules, Side, Square};
/// let pos = Position::start();
/// assert_eq!(pos.side_to_move(), Side::White);
/// assert_eq!(pos.piece_at(Square::parse("c3", 8).unwrap()), Some(Piece::Man(Side::White)));
/// assert_eq!(pos.count(Side::Black), 16);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    side: Side,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", self.to_text())
    }
}

impl Default for Position {
    /// The start position.
    fn default() -> Position {
        Position::start()
    }
}

/// Collects full [`Move`]s.
impl Sink for Vec<Move> {
    fn reset_captures(&mut self) {
        self.clear();
    }
    fn capture(&mut self, path: &[u8], captured: &[u8], _: u64) {
        self.push(Move {
            path: path.iter().map(|&s| Square(s)).collect(),
            captured: captured.iter().map(|&s| Square(s)).collect(),
        });
    }
    fn simple(&mut self, from: u8, to: u8) {
        self.push(Move::simple(Square(from), Square(to)));
    }
}

/// Capture jumps [`Position::playable`] may try to list the moves of a position.
pub const PLAYABLE_JUMPS: u64 = 200_000;
/// And the moves of every position one move later, together.
pub const PLAYABLE_NEXT_JUMPS: u64 = 2_000_000;

impl Position {
    /// The start position: White men on ranks 2 and 3, Black men on ranks 6 and 7, White to move.
    pub fn start() -> Position {
        Position {
            board: Board {
                men: [0xFFFF << 8, 0xFFFF << 40],
                kings: [0, 0],
            },
            side: Side::White,
        }
    }

    /// The piece on `sq`, if any (`None` also for a square off the 8×8 board).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.index() >= 64 {
            return None;
        }
        let b = bit(sq.0);
        [Side::White, Side::Black].into_iter().find_map(|s| {
            if self.board.men[s.index()] & b != 0 {
                Some(Piece::Man(s))
            } else if self.board.kings[s.index()] & b != 0 {
                Some(Piece::King(s))
            } else {
                None
            }
        })
    }

    /// How many pieces (men and kings) `side` has.
    pub fn count(&self, side: Side) -> usize {
        self.board.pieces(side.index()).count_ones() as usize
    }

    /// How many men `side` has.
    pub fn men_count(&self, side: Side) -> usize {
        self.board.men[side.index()].count_ones() as usize
    }

    /// How many kings `side` has.
    pub fn king_count(&self, side: Side) -> usize {
        self.board.kings[side.index()].count_ones() as usize
    }

    /// The squares holding a piece of `side`, from a1 upwards (a1, b1, …, h8).
    pub fn squares_of(&self, side: Side) -> Vec<Square> {
        let mut bits = self.board.pieces(side.index());
        let mut out = Vec::with_capacity(bits.count_ones() as usize);
        while bits != 0 {
            out.push(Square(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
        out
    }

    /// How many pieces the compulsory capture takes here (0 when there is no capture or the game
    /// is over).
    pub fn max_capture(&self) -> usize {
        if self.material_outcome().is_some() {
            return 0;
        }
        self.board
            .generate(self.side.index(), &mut Counter::default())
    }

    /// The number of legal moves, without building them (0 when the game is over).
    pub fn move_count(&self) -> usize {
        if self.material_outcome().is_some() {
            return 0;
        }
        let mut counter = Counter::default();
        self.board.generate(self.side.index(), &mut counter);
        counter.0 as usize
    }

    /// The number of legal moves, trying at most `budget` capture jumps (reduced by the jumps
    /// tried): None when the search of capture sequences needs more. A set-up position with
    /// many pieces and kings can have millions of maximal sequences (each a legal move); a
    /// server that takes positions from strangers refuses those instead of listing them.
    pub fn move_count_within(&self, budget: &mut u64) -> Option<usize> {
        if self.material_outcome().is_some() {
            return Some(0);
        }
        let mut counter = Counter::default();
        self.board
            .generate_within(self.side.index(), &mut counter, budget)?;
        Some(counter.0 as usize)
    }

    /// Whether a set-up position is one to play from: at most the sixteen pieces a side has at
    /// the start, and legal moves that can be listed quickly, now and one move later (at most
    /// [`PLAYABLE_JUMPS`] capture jumps, then [`PLAYABLE_NEXT_JUMPS`] for every next position
    /// together). With kings among many pieces the maximal capture sequences — each a legal
    /// move — can run into the millions, and every move would then take seconds to check.
    ///
    /// ```
    /// use takhte_rules::draughts::Position;
    /// use takhte_rules::Rules;
    /// assert!(Position::start().playable().is_ok());
    /// let crowded = Position::from_text("bbbbbbbb/bbbbbbbb/b7/8/8/8/wwwwwwww/8 w").unwrap();
    /// assert!(crowded.playable().unwrap_err().to_string().contains("17 pieces"));
    /// ```
    pub fn playable(&self) -> Result<(), PositionError> {
        for (side, name) in [(Side::White, "White"), (Side::Black, "Black")] {
            let n = self.board.pieces(side.index()).count_ones();
            if n > 16 {
                return Err(PositionError::new(format!(
                    "{name} has {n} pieces; a side has at most 16"
                )));
            }
        }
        let too_complex =
            || PositionError::new("the position has too many capture sequences to play");
        let mut jumps = PLAYABLE_JUMPS;
        self.move_count_within(&mut jumps).ok_or_else(too_complex)?;
        let mut left = PLAYABLE_NEXT_JUMPS;
        for mv in self.legal_moves() {
            let mut next = self.clone();
            if next.play(&mv).is_ok() {
                next.move_count_within(&mut left).ok_or_else(too_complex)?;
            }
        }
        Ok(())
    }

    /// The legal moves in compact form, appended to `out` after clearing it, for the computer
    /// player's search. Returns how many pieces the compulsory capture takes (0: simple moves).
    /// Unlike [`Rules::legal_moves`] it does not look at the end of the game by material.
    pub fn compact_moves(&self, out: &mut Vec<Compact>) -> usize {
        out.clear();
        self.board.generate(self.side.index(), out)
    }

    /// Plays a move taken from [`Position::compact_moves`] of this position (not checked).
    pub fn play_compact(&mut self, mv: &Compact) {
        self.board.apply(self.side.index(), mv.from, mv.to, mv.mask);
        self.side = self.side.opponent();
    }

    /// The men of `side` as a bitboard (bit = square index).
    pub fn men_bits(&self, side: Side) -> u64 {
        self.board.men[side.index()]
    }

    /// The kings of `side` as a bitboard (bit = square index).
    pub fn king_bits(&self, side: Side) -> u64 {
        self.board.kings[side.index()]
    }

    /// Perft (see [`crate::perft::perft`]) with the same counts, but without building
    /// [`Move`]s or allocating per node: the fast path for benchmarks.
    ///
    /// ```
    /// use takhte_rules::draughts::Position;
    /// assert_eq!(Position::start().perft(3), 708);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Compact>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        perft_rec(&self.board, self.side.index(), depth, &mut buffers)
    }

    /// The end of the game decided by the material alone (everything but "no legal move").
    fn material_outcome(&self) -> Option<Outcome> {
        let x = self.side;
        let y = x.opponent();
        material_outcome(&self.board, x.index()).map(|(loser, reason)| match loser {
            Some(l) if l == x.index() => Outcome::win(y, reason),
            Some(_) => Outcome::win(x, reason),
            None => Outcome::draw(reason),
        })
    }

    /// Why a well-formed move text is not legal here (the position is not over).
    fn illegal_reason(&self, path: &[Square], capture: bool) -> String {
        let text = moves_text(path, capture);
        let me = self.side.index();
        let from = path[0];
        let piece = match self.piece_at(from) {
            None => return format!("{text}: there is no piece on {from}"),
            Some(p) if p.side() != self.side => {
                return format!("{text}: the piece on {from} is not yours")
            }
            Some(p) => p,
        };
        let mut legal: Vec<Move> = Vec::new();
        let max = self.board.generate(me, &mut legal);
        if !capture {
            let (to, ok) = (path[1], self.is_simple_step(from, path[1], piece));
            if max > 0 {
                if legal.iter().any(|m| m.path == path) {
                    return format!("{text}: this is a capture, written {from}x{to}");
                }
                if ok {
                    return format!("{text}: a capture is compulsory");
                }
            }
            return if piece.is_king() {
                format!("{text}: a king moves along a rank or file over empty squares only")
            } else {
                format!(
                    "{text}: a man moves one square forward, left or right, onto an empty square"
                )
            };
        }
        // Follow the capture leg by leg, exactly as the generator would.
        let mut occ = self.board.occupied() & !bit(from.0);
        let mut enemy = self.board.pieces(1 - me);
        let mut last = NO_DIR;
        let mut sq = from.0;
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            // Name the leg only when the move has several: "c3xc5xe5: c5xe5: ...".
            let leg = if path.len() > 2 {
                format!("{a}x{b}: ")
            } else {
                String::new()
            };
            let Some((dir, dist)) = direction(a.0, b.0) else {
                return format!("{text}: {leg}not along a rank or file");
            };
            if !piece.is_king() {
                if !man_dirs(me).contains(&dir) {
                    return format!("{text}: {leg}a man captures only forward, left or right");
                }
                if dist != 2 {
                    return format!("{text}: {leg}a man jumps over an adjacent piece onto the square just beyond");
                }
            } else if last != NO_DIR && dir == reverse(last) {
                return format!("{text}: {leg}a king may not turn back 180° between two jumps");
            }
            if occ & bit(b.0) != 0 {
                return format!("{text}: {a}x{b}: {b} is not empty");
            }
            let mut between = Vec::new();
            let mut s = a.0;
            while let Some(n) = step(s, dir) {
                if n == b.0 {
                    break;
                }
                if occ & bit(n) != 0 {
                    between.push(n);
                }
                s = n;
            }
            let victim = match between.as_slice() {
                [] => return format!("{text}: {a}x{b} jumps over no piece"),
                [v] if enemy & bit(*v) != 0 => *v,
                [v] => {
                    return format!(
                        "{text}: {a}x{b}: the piece on {} is not an enemy piece",
                        Square(*v)
                    )
                }
                _ => return format!("{text}: {a}x{b} jumps over more than one piece"),
            };
            occ &= !bit(victim);
            enemy &= !bit(victim);
            last = dir;
            sq = b.0;
        }
        if can_jump(sq, !piece.is_king(), me, occ, enemy, last) {
            return format!("{text}: the capture must go on from {}", Square(sq));
        }
        if path.len() - 1 < max {
            return format!("{text}: a longer capture is available ({max} pieces)");
        }
        format!("{text}: not a legal move")
    }

    /// Why `play` refuses `mv` (not legal here; the game is not over).
    fn refusal(&self, mv: &Move) -> String {
        let on_board = (2..=64).contains(&mv.path.len()) && mv.path.iter().all(|s| s.index() < 64);
        if !on_board || (!mv.is_capture() && mv.path.len() != 2) {
            return format!("{mv:?} is not a move on this board");
        }
        let same_path = |m: &Move| m.path == mv.path && m.is_capture() == mv.is_capture();
        if self.generate_moves().iter().any(same_path) {
            return format!("{mv}: the captured squares do not match the path");
        }
        self.illegal_reason(&mv.path, mv.is_capture())
    }

    /// Whether `from`→`to` is a simple move of `piece`, ignoring the compulsory capture.
    fn is_simple_step(&self, from: Square, to: Square, piece: Piece) -> bool {
        let occ = self.board.occupied();
        let Some((dir, dist)) = direction(from.0, to.0) else {
            return false;
        };
        if piece.is_king() {
            let mut s = from.0;
            while let Some(n) = step(s, dir) {
                if occ & bit(n) != 0 {
                    return false;
                }
                if n == to.0 {
                    return true;
                }
                s = n;
            }
            false
        } else {
            dist == 1 && man_dirs(piece.side().index()).contains(&dir) && occ & bit(to.0) == 0
        }
    }

    /// The legal moves into a vector (the game is not over by material).
    fn generate_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(16);
        self.board.generate(self.side.index(), &mut out);
        out
    }
}

/// The material end of the game with `x` to move: `(Some(loser) or None for a draw, reason)`.
#[inline]
fn material_outcome(b: &Board, x: usize) -> Option<(Option<usize>, EndReason)> {
    let y = 1 - x;
    let (nx, ny) = (b.pieces(x).count_ones(), b.pieces(y).count_ones());
    if nx == 0 {
        return Some((Some(x), EndReason::NoPieces));
    }
    if ny == 0 {
        return Some((Some(y), EndReason::NoPieces));
    }
    if nx == 1 && ny == 1 {
        return Some((None, EndReason::OnePieceEach));
    }
    if nx == 1 && b.men[x] != 0 {
        return Some((Some(x), EndReason::LoneMan));
    }
    if ny == 1 && b.men[y] != 0 {
        return Some((Some(y), EndReason::LoneMan));
    }
    None
}

fn perft_rec(b: &Board, side: usize, depth: u32, buffers: &mut [Vec<Compact>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if material_outcome(b, side).is_some() {
        return 0;
    }
    if depth == 1 {
        let mut c = Counter::default();
        b.generate(side, &mut c);
        return c.0;
    }
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    buf.clear();
    b.generate(side, buf);
    let mut total = 0;
    for m in buf.iter() {
        let mut next = *b;
        next.apply(side, m.from, m.to, m.mask);
        total += perft_rec(&next, 1 - side, depth - 1, rest);
    }
    total
}

/// The text of a path, as a simple move or a capture.
fn moves_text(path: &[Square], capture: bool) -> String {
    let sep = if capture { "x" } else { "-" };
    path.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

impl Rules for Position {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.material_outcome().is_some() {
            return Vec::new();
        }
        self.generate_moves()
    }

    fn is_legal(&self, mv: &Move) -> bool {
        if mv.path.len() < 2 || self.piece_at(mv.from()).map(Piece::side) != Some(self.side) {
            return false;
        }
        self.legal_moves().contains(mv)
    }

    fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal(self.refusal(mv)));
        }
        let mask = mv.captured.iter().fold(0u64, |m, s| m | bit(s.0));
        self.board
            .apply(self.side.index(), mv.from().0, mv.to().0, mask);
        self.side = self.side.opponent();
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.material_outcome() {
            return Some(o);
        }
        if !self.board.has_move(self.side.index()) {
            return Some(Outcome::win(self.side.opponent(), EndReason::NoMoves));
        }
        None
    }

    fn to_text(&self) -> String {
        let board = write_board_field(8, |sq| self.piece_at(sq).map(Piece::letter));
        format!("{board} {}", self.side.letter())
    }

    fn from_text(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(PositionError::new(format!(
                "expected 2 fields (board, side to move), found {}",
                fields.len()
            )));
        }
        let mut board = Board::default();
        parse_board_field(fields[0], 8, |sq, c| match Piece::from_letter(c) {
            Some(Piece::Man(s)) => {
                board.men[s.index()] |= bit(sq.0);
                true
            }
            Some(Piece::King(s)) => {
                board.kings[s.index()] |= bit(sq.0);
                true
            }
            None => false,
        })?;
        for (side, name, rank) in [(Side::White, "white", 8), (Side::Black, "black", 1)] {
            let wrong = board.men[side.index()] & promotion_rank(side.index());
            if wrong != 0 {
                let sq = Square(wrong.trailing_zeros() as u8);
                return Err(PositionError::new(format!(
                    "board: a {name} man on {sq} stands on rank {rank}, where it would have been crowned"
                )));
            }
        }
        let side = Side::from_letter(fields[1]).ok_or_else(|| {
            PositionError::new(format!(
                "side to move: expected 'w' or 'b', found '{}'",
                fields[1].escape_debug()
            ))
        })?;
        Ok(Position { board, side })
    }

    fn move_to_text(&self, mv: &Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = moves::parse_move_text(text)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let found = self
            .generate_moves()
            .into_iter()
            .find(|m| m.path == parsed.path && m.is_capture() == parsed.capture);
        match found {
            Some(m) => Ok(m),
            None => Err(MoveError::Illegal(
                self.illegal_reason(&parsed.path, parsed.capture),
            )),
        }
    }

    fn repetition_key(&self) -> u64 {
        stable_hash(self.to_text().as_bytes())
    }

    fn is_irreversible(&self, mv: &Move) -> bool {
        if mv.is_capture() {
            return true;
        }
        if mv.path.len() < 2 {
            return false;
        }
        match self.piece_at(mv.from()) {
            Some(Piece::Man(_)) => mv.from().rank() != mv.to().rank(),
            _ => false,
        }
    }
}
