//! Minesweeper chess: chess on an 8×10 board with four hidden mines in a fogged middle zone.
//!
//! The chess part is the engine of [`crate::chess::board`] on a 10-rank board without en
//! passant and with automatic queening. This module adds the mines, the fog, the sapper action
//! and the "king exposed by a mine" loss of RULES.md §4.
//!
//! ```
//! use takhte_rules::{mine::Position, Rules};
//! let text = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d5,e6,a4,h7 -";
//! let mut pos = Position::from_text(text).unwrap();
//! assert_eq!(pos.mines_left(), 4);
//! let mv = pos.parse_move("e2e4").unwrap();
//! pos.play(&mv).unwrap();
//! // e4 and its fog-zone neighbours d5, e5, f5, d4, f4 are revealed; d5 holds a mine.
//! assert_eq!(pos.to_text(), "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq a4,d5,e6,h7 d4,e4,f4,d5,e5,f5");
//! ```

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bitboard::{bit, rank_mask, squares, Bitboard, KING};
use super::chess::board::{Board, Kind, MoveList, Piece, Variant};
use super::chess::{fen, parse_uci};
use super::common::stable_hash;
use super::{EndReason, MoveError, Outcome, PositionError, Rules, Side, Square};

/// The number of ranks of the minesweeper-chess board.
pub const RANKS: u8 = 10;

/// The number of mines laid at the start.
pub const MINE_COUNT: u32 = 4;

/// The rules of minesweeper chess for the chess engine: no en passant, pawns always queen.
pub const MINE_CHESS: Variant = Variant {
    en_passant: false,
    promotion_choice: false,
};

/// The fog zone: ranks 4–7, 32 squares.
pub const FOG_ZONE: Bitboard = rank_mask(3) | rank_mask(4) | rank_mask(5) | rank_mask(6);

/// A move of minesweeper chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// An ordinary chess move (castling as the king's two-square move; promotion always `q`).
    Piece(super::chess::Move),
    /// The sapper action of the pawn on this square: it sweeps the square in front of it.
    Sapper(Square),
}

/// What a move did beyond moving pieces, for the controller and the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// The enemy piece captured, if any.
    pub captured: Option<Piece>,
    /// The moving piece, if a mine destroyed it.
    pub destroyed: Option<Piece>,
    /// Whether a king stepped on a mine and removed it (royal sapper).
    pub royal_sapper: bool,
    /// Whether a sapper action removed a mine.
    pub swept_mine: bool,
    /// The squares this move revealed (newly).
    pub revealed: Bitboard,
    /// Whether this move lifted the fog for good.
    pub fog_lifted: bool,
}

/// What a player may see of a position: everything except the hidden mines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visible {
    /// The pieces, side to move and castling rights.
    pub board: Board,
    /// The revealed squares of the fog zone.
    pub revealed: Bitboard,
    /// Mines on revealed squares (shown on the board).
    pub known_mines: Bitboard,
    /// How many mines are still on the board (the counter).
    pub mines_left: u32,
    /// For each revealed square without a mine, the number of mines among its eight neighbours.
    pub numbers: Vec<(Square, u8)>,
}

impl Visible {
    /// The fogged squares: the fog zone minus what is revealed.
    pub fn fog(&self) -> Bitboard {
        FOG_ZONE & !self.revealed
    }

    /// The number shown on `sq`, when it is revealed and not a mine (0 shows as nothing).
    pub fn number(&self, sq: Square) -> Option<u8> {
        self.numbers.iter().find(|(s, _)| *s == sq).map(|(_, n)| *n)
    }
}

impl Visible {
    /// The text of what a player sees, for sending it over the network:
    /// `BOARD SIDE CASTLING KNOWN-MINES REVEALED MINES-LEFT NUMBERS`. The first five fields are
    /// those of the position text with only the revealed mines listed; `MINES-LEFT` is the
    /// counter; `NUMBERS` has one digit for each revealed square without a mine, in board order
    /// (a1, b1, …, h10), or `-` when there is none. No hidden mine can be read from it.
    ///
    /// ```
    /// use takhte_rules::{mine::Position, Rules};
    /// let mut pos = Position::from_text("rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d5,e6,a4,h7 -").unwrap();
    /// pos.play(&pos.parse_move("e2e4").unwrap()).unwrap();
    /// assert_eq!(
    ///     pos.visible().to_text(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d5 d4,e4,f4,d5,e5,f5 4 11021"
    /// );
    /// ```
    pub fn to_text(&self) -> String {
        let numbers: String = if self.numbers.is_empty() {
            "-".into()
        } else {
            let mut sorted = self.numbers.clone();
            sorted.sort_by_key(|(s, _)| s.index());
            sorted.iter().map(|(_, n)| char::from(b'0' + n)).collect()
        };
        format!(
            "{} {} {} {} {} {} {}",
            fen::write_pieces(&self.board),
            self.board.side_to_move().letter(),
            fen::write_castling(self.board.castling()),
            square_list(self.known_mines),
            square_list(self.revealed),
            self.mines_left,
            numbers
        )
    }

    /// Reads the text of [`Visible::to_text`]. Known mines must be revealed, empty squares;
    /// the counter at least the number of known mines and at most four (and equal to it once
    /// the fog has lifted); one number 0–8 for each revealed square without a mine.
    pub fn from_text(text: &str) -> Result<Visible, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(PositionError::new(format!(
                "needs 7 fields (board, side, castling, known mines, revealed, mines left, numbers), found {}",
                fields.len()
            )));
        }
        let mut board = Board::empty(RANKS, MINE_CHESS);
        fen::read_pieces(&mut board, fields[0])?;
        board.set_side_to_move(fen::read_side(fields[1])?);
        fen::read_castling(&mut board, fields[2])?;
        let known_mines = read_square_list(fields[3], "known mines")?;
        let revealed = read_square_list(fields[4], "revealed")?;
        if known_mines & !revealed != 0 {
            return Err(PositionError::new(
                "known mines: a listed mine is not revealed",
            ));
        }
        if let Some(s) = squares(known_mines & board.occupied()).next() {
            return Err(PositionError::new(format!(
                "known mines: a mine under the piece on {}",
                Square(s as u8)
            )));
        }
        let mines_left: u32 = fields[5].parse().map_err(|_| {
            PositionError::new(format!("mines left: '{}' is not a number", fields[5]))
        })?;
        if mines_left > MINE_COUNT || mines_left < known_mines.count_ones() {
            return Err(PositionError::new(format!(
                "mines left: {mines_left} does not fit {} known mines and at most {MINE_COUNT} in all",
                known_mines.count_ones()
            )));
        }
        if revealed == FOG_ZONE && mines_left != known_mines.count_ones() {
            return Err(PositionError::new(
                "mines left: the fog has lifted, so every mine left must be known",
            ));
        }
        let numbered: Vec<Square> = squares(revealed & !known_mines)
            .map(|s| Square(s as u8))
            .collect();
        let digits: Vec<u8> = if fields[6] == "-" {
            Vec::new()
        } else {
            fields[6]
                .chars()
                .map(|c| match c {
                    '0'..='8' => Ok(c as u8 - b'0'),
                    _ => Err(PositionError::new(format!(
                        "numbers: '{c}' is not a mine number 0-8"
                    ))),
                })
                .collect::<Result<_, _>>()?
        };
        if digits.len() != numbered.len() {
            return Err(PositionError::new(format!(
                "numbers: {} given for {} revealed squares without a mine",
                digits.len(),
                numbered.len()
            )));
        }
        Ok(Visible {
            board,
            revealed,
            known_mines,
            mines_left,
            numbers: numbered.into_iter().zip(digits).collect(),
        })
    }
}

/// Chooses `count` squares of `candidates` (in order) so that every number is met; `counts`
/// holds, per numbered square, how many mines it still needs. Depth-first, with pruning.
fn place_hidden(
    candidates: &[usize],
    count: usize,
    needs: &mut [(usize, u8)],
    chosen: &mut Vec<usize>,
) -> bool {
    if count == 0 {
        return needs.iter().all(|&(_, n)| n == 0);
    }
    for (i, &sq) in candidates.iter().enumerate() {
        if candidates.len() - i < count {
            break;
        }
        let touches = |n: &(usize, u8)| KING[n.0] & bit(sq) != 0;
        if needs.iter().any(|n| touches(n) && n.1 == 0) {
            continue;
        }
        for n in needs.iter_mut().filter(|n| KING[n.0] & bit(sq) != 0) {
            n.1 -= 1;
        }
        chosen.push(sq);
        if place_hidden(&candidates[i + 1..], count - 1, needs, chosen) {
            return true;
        }
        chosen.pop();
        for n in needs.iter_mut().filter(|n| KING[n.0] & bit(sq) != 0) {
            n.1 += 1;
        }
    }
    false
}

/// A minesweeper-chess position: the chess board, the mines still on it and the revealed squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    mines: Bitboard,
    revealed: Bitboard,
}

/// The four mine squares laid by `seed`: four distinct squares of the fog zone, uniformly at
/// random, the same on every platform (ChaCha8 and a partial Fisher–Yates shuffle).
///
/// ```
/// use takhte_rules::mine::{mines_from_seed, FOG_ZONE};
/// let mines = mines_from_seed(7);
/// assert_eq!(mines.count_ones(), 4);
/// assert_eq!(mines & !FOG_ZONE, 0);
/// assert_eq!(mines, mines_from_seed(7));
/// ```
pub fn mines_from_seed(seed: u64) -> Bitboard {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut zone: Vec<usize> = squares(FOG_ZONE).collect();
    let mut mines = 0;
    for i in 0..MINE_COUNT as usize {
        let j = i + (rng.next_u64() % (zone.len() - i) as u64) as usize;
        zone.swap(i, j);
        mines |= bit(zone[i]);
    }
    mines
}

fn ring(sq: Square) -> Bitboard {
    (KING[sq.index()] | bit(sq.index())) & FOG_ZONE
}

fn square_list(set: Bitboard) -> String {
    if set == 0 {
        return "-".into();
    }
    squares(set)
        .map(|s| Square(s as u8).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn read_square_list(field: &str, name: &str) -> Result<Bitboard, PositionError> {
    let mut set = 0;
    if field == "-" {
        return Ok(0);
    }
    for part in field.split(',') {
        let sq = Square::parse(part, RANKS).ok_or_else(|| {
            PositionError::new(format!(
                "{name}: '{part}' is not a square of the 8×10 board"
            ))
        })?;
        if FOG_ZONE & bit(sq.index()) == 0 {
            return Err(PositionError::new(format!(
                "{name}: {sq} is outside the fog zone (ranks 4–7)"
            )));
        }
        if set & bit(sq.index()) != 0 {
            return Err(PositionError::new(format!("{name}: {sq} is listed twice")));
        }
        set |= bit(sq.index());
    }
    Ok(set)
}

impl Position {
    /// The start position with the mines laid by `seed`.
    pub fn start(seed: u64) -> Position {
        Position::start_with_mines(mines_from_seed(seed))
    }

    /// The start position with the given mines (squares of the fog zone).
    pub fn start_with_mines(mines: Bitboard) -> Position {
        Position {
            board: Board::start(RANKS, MINE_CHESS),
            mines: mines & FOG_ZONE,
            revealed: 0,
        }
    }

    /// The chess board underneath.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The mines still on the board, hidden ones included. Not for the computer player.
    pub fn mines(&self) -> Bitboard {
        self.mines
    }

    /// The revealed squares of the fog zone.
    pub fn revealed(&self) -> Bitboard {
        self.revealed
    }

    /// The mine counter: mines still on the board.
    pub fn mines_left(&self) -> u32 {
        self.mines.count_ones()
    }

    /// Whether the fog has lifted (every remaining mine revealed).
    pub fn fog_lifted(&self) -> bool {
        self.revealed == FOG_ZONE
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.board.in_check(self.board.side_to_move())
    }

    /// The number of mines among the eight neighbours of `sq`.
    pub fn mine_number(&self, sq: Square) -> u8 {
        (KING[sq.index()] & self.mines).count_ones() as u8
    }

    /// What a player may see: no hidden mine, but the numbers of revealed squares.
    pub fn visible(&self) -> Visible {
        let known_mines = self.mines & self.revealed;
        let numbers = squares(self.revealed & !self.mines)
            .map(|s| (Square(s as u8), self.mine_number(Square(s as u8))))
            .collect();
        Visible {
            board: self.board,
            revealed: self.revealed,
            known_mines,
            mines_left: self.mines_left(),
            numbers,
        }
    }

    /// A position that looks exactly like `visible` to a player — the same pieces, revealed
    /// squares, known mines, numbers and counter — with its hidden mines put on fogged squares
    /// that agree with every number shown. It is a stand-in for the real position, which only
    /// the server knows: a client draws it and the computer reasons on it (both read only
    /// [`Position::visible`], which equals `visible`), but playing a move on it would set off
    /// the stand-in's mines, not the real ones. An error when no layout fits the numbers.
    ///
    /// ```
    /// use takhte_rules::mine::{Position, Visible};
    /// use takhte_rules::Rules;
    /// let text = "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d5 d4,e4,f4,d5,e5,f5 4 11021";
    /// let visible = Visible::from_text(text).unwrap();
    /// let stand_in = Position::stand_in(&visible).unwrap();
    /// assert_eq!(stand_in.visible(), visible);
    /// assert_eq!(stand_in.mines_left(), 4);
    /// ```
    pub fn stand_in(visible: &Visible) -> Result<Position, PositionError> {
        let known = visible.known_mines;
        let hidden = visible
            .mines_left
            .checked_sub(known.count_ones())
            .ok_or_else(|| PositionError::new("more known mines than mines left"))?
            as usize;
        let candidates: Vec<usize> = squares(visible.fog() & !visible.board.occupied()).collect();
        let mut needs = Vec::new();
        for &(sq, n) in &visible.numbers {
            let have = (KING[sq.index()] & known).count_ones() as u8;
            let need = n.checked_sub(have).ok_or_else(|| {
                PositionError::new(format!(
                    "numbers: {sq} shows {n} but has {have} known mines around"
                ))
            })?;
            needs.push((sq.index(), need));
        }
        let mut chosen = Vec::new();
        if !place_hidden(&candidates, hidden, &mut needs, &mut chosen) {
            return Err(PositionError::new(
                "numbers: no layout of the hidden mines fits them",
            ));
        }
        let mines = chosen.into_iter().fold(known, |m, s| m | bit(s));
        Ok(Position {
            board: visible.board,
            mines,
            revealed: visible.revealed,
        })
    }

    /// The pawn squares of the side to move that may make the sapper action now.
    pub fn sapper_squares(&self) -> Vec<Square> {
        let side = self.board.side_to_move();
        if self.board.in_check(side) || self.outcome_exposed().is_some() {
            return Vec::new();
        }
        let occ = self.board.occupied();
        squares(self.board.pieces(side, Kind::Pawn))
            .filter_map(|s| {
                let from = Square(s as u8);
                let front = from.offset(0, if side == Side::White { 1 } else { -1 }, RANKS)?;
                (occ & bit(front.index()) == 0).then_some(from)
            })
            .collect()
    }

    /// The square a sapper action from `pawn` sweeps (the square in front of it).
    pub fn sapper_target(&self, pawn: Square) -> Option<Square> {
        let side = self.board.piece_at(pawn)?.side;
        pawn.offset(0, if side == Side::White { 1 } else { -1 }, RANKS)
    }

    fn lift_fog_if_done(&mut self) -> bool {
        if self.revealed != FOG_ZONE && self.mines & !self.revealed == 0 {
            self.revealed = FOG_ZONE;
            return true;
        }
        false
    }

    fn outcome_exposed(&self) -> Option<Outcome> {
        let mover = self.board.side_to_move();
        if self.board.in_check(mover.opponent()) {
            Some(Outcome::win(mover, EndReason::MineExposedKing))
        } else {
            None
        }
    }

    /// Plays a legal move and tells what it did (capture, mine, reveal, fog lift).
    pub fn play_with_effect(&mut self, mv: &Move) -> Result<MoveEffect, MoveError> {
        if !self.is_legal(mv) {
            return Err(self.explain_illegal(mv));
        }
        let before = self.revealed;
        let mut effect = MoveEffect::default();
        match *mv {
            Move::Piece(m) => {
                let moving = self.board.piece_at(m.from);
                effect.captured = self.board.apply(m);
                let landing = bit(m.to.index());
                if self.mines & landing != 0 {
                    self.mines &= !landing;
                    if moving.map(|p| p.kind) == Some(Kind::King) {
                        effect.royal_sapper = true;
                    } else {
                        effect.destroyed = self.board.piece_at(m.to);
                        self.board.remove(m.to);
                    }
                }
                self.revealed |= ring(m.to);
            }
            Move::Sapper(pawn) => {
                if let Some(front) = self.sapper_target(pawn) {
                    let b = bit(front.index());
                    effect.swept_mine = self.mines & b != 0;
                    self.mines &= !b;
                    self.revealed |= b & FOG_ZONE;
                }
                let side = self.board.side_to_move();
                self.board.set_side_to_move(side.opponent());
            }
        }
        // No fifty-move rule and no move number in the position text: the counters stay put, so
        // that a position equals the one read back from its text.
        self.board.set_counters(0, 1);
        effect.fog_lifted = self.lift_fog_if_done();
        effect.revealed = self.revealed & !before;
        Ok(effect)
    }

    fn explain_illegal(&self, mv: &Move) -> MoveError {
        if self.outcome().is_some() {
            return MoveError::GameOver;
        }
        match *mv {
            Move::Piece(m) => parse_uci(&self.board, &m.uci())
                .err()
                .unwrap_or(MoveError::Illegal(m.uci())),
            Move::Sapper(sq) => {
                let side = self.board.side_to_move();
                let reason = match self.board.piece_at(sq) {
                    Some(p) if p.kind == Kind::Pawn && p.side == side => {
                        if self.board.in_check(side) {
                            "no sapper action while your king is in check"
                        } else {
                            "the square in front of the pawn is not empty"
                        }
                    }
                    _ => "only your own pawn can make the sapper action",
                };
                MoveError::Illegal(format!("{sq}^: {reason}"))
            }
        }
    }
}

impl Rules for Position {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.board.side_to_move()
    }

    /// Chess moves (legality ignores the mines: it never depends on, or reveals, a hidden mine)
    /// and sapper actions. Empty once a mine has exposed a king, at checkmate and stalemate; a
    /// draw by material keeps its moves listed (see [`crate::Line`]).
    fn legal_moves(&self) -> Vec<Move> {
        if self.outcome_exposed().is_some() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        self.board.generate(&mut list);
        let mut moves: Vec<Move> = list.as_slice().iter().map(|&m| Move::Piece(m)).collect();
        moves.extend(self.sapper_squares().into_iter().map(Move::Sapper));
        moves
    }

    fn is_legal(&self, mv: &Move) -> bool {
        if self.outcome_exposed().is_some() {
            return false;
        }
        match *mv {
            Move::Piece(m) => self.board.is_legal(m),
            Move::Sapper(sq) => self.sapper_squares().contains(&sq),
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        self.play_with_effect(mv).map(|_| ())
    }

    /// A king exposed by a mine (the side not to move is in check), checkmate, stalemate, then
    /// insufficient material. No fifty-move rule.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.outcome_exposed() {
            return Some(o);
        }
        let side = self.board.side_to_move();
        if self.legal_moves().is_empty() {
            return Some(if self.board.in_check(side) {
                Outcome::win(side.opponent(), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if self.board.insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        None
    }

    /// `BOARD SIDE CASTLING MINES REVEALED`; squares listed in board order (a1, b1, …, h10).
    fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {}",
            fen::write_pieces(&self.board),
            self.board.side_to_move().letter(),
            fen::write_castling(self.board.castling()),
            square_list(self.mines),
            square_list(self.revealed)
        )
    }

    /// Reads `BOARD SIDE CASTLING MINES REVEALED`. Mines must be at most four distinct empty
    /// squares of the fog zone; revealed squares lie in the fog zone. If every mine left is
    /// revealed, the fog is lifted (all 32 squares revealed), as it would have been in play.
    /// A position whose side not to move is in check is the end of a game lost by a mine.
    fn from_text(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(PositionError::new(format!(
                "needs 5 fields (board, side, castling, mines, revealed), found {}",
                fields.len()
            )));
        }
        let mut board = Board::empty(RANKS, MINE_CHESS);
        fen::read_pieces(&mut board, fields[0])?;
        board.set_side_to_move(fen::read_side(fields[1])?);
        fen::read_castling(&mut board, fields[2])?;
        let mines = read_square_list(fields[3], "mines")?;
        if mines.count_ones() > MINE_COUNT {
            return Err(PositionError::new(format!(
                "mines: {} listed, at most {MINE_COUNT}",
                mines.count_ones()
            )));
        }
        if let Some(s) = squares(mines & board.occupied()).next() {
            return Err(PositionError::new(format!(
                "mines: a mine under the piece on {}",
                Square(s as u8)
            )));
        }
        let revealed = read_square_list(fields[4], "revealed")?;
        let side = board.side_to_move();
        if board.in_check(side) && board.in_check(side.opponent()) {
            return Err(PositionError::new("board: both kings are in check"));
        }
        if board.checkers().count_ones() > 2 {
            return Err(PositionError::new(
                "board: the side to move is in check from more than two pieces",
            ));
        }
        // Only a mine going off can leave the side that just moved in check: then a mine is gone
        // and the square where it went off is revealed.
        if board.in_check(side.opponent())
            && (mines.count_ones() >= MINE_COUNT || (revealed == 0 && mines != 0))
        {
            return Err(PositionError::new(
                "board: the side not to move is in check, which only a mine can cause, but no mine has gone off",
            ));
        }
        let mut pos = Position {
            board,
            mines,
            revealed,
        };
        pos.lift_fog_if_done();
        Ok(pos)
    }

    fn move_to_text(&self, mv: &Move) -> String {
        match mv {
            Move::Piece(m) => m.uci(),
            Move::Sapper(sq) => format!("{sq}^"),
        }
    }

    /// Reads `e2e4`, `e9e10q` (the `q` may be left out: pawns always queen) or `e2^`.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.outcome_exposed().is_some() {
            return Err(MoveError::GameOver);
        }
        if let Some(sq) = text.strip_suffix('^') {
            let sq = Square::parse(sq, RANKS).ok_or_else(|| {
                MoveError::Malformed(format!(
                    "'{text}': a sapper action is a pawn's square and ^, e.g. e2^"
                ))
            })?;
            let mv = Move::Sapper(sq);
            return if self.is_legal(&mv) {
                Ok(mv)
            } else {
                Err(self.explain_illegal(&mv))
            };
        }
        match parse_uci(&self.board, text) {
            Ok(m) => Ok(Move::Piece(m)),
            Err(e) => {
                // Auto-queen: accept the promotion without its letter.
                if let Ok(m) = parse_uci(&self.board, &format!("{text}q")) {
                    if text.len() >= 4 && text.chars().last().is_some_and(|c| c.is_ascii_digit()) {
                        return Ok(Move::Piece(m));
                    }
                }
                Err(e)
            }
        }
    }

    fn repetition_key(&self) -> u64 {
        let mut bytes = self.board.repetition_key().to_le_bytes().to_vec();
        bytes.extend_from_slice(&self.mines.to_le_bytes());
        bytes.extend_from_slice(&self.revealed.to_le_bytes());
        stable_hash(&bytes)
    }

    fn is_irreversible(&self, mv: &Move) -> bool {
        match mv {
            Move::Piece(m) => {
                self.board.is_capture(*m)
                    || self
                        .board
                        .piece_at(m.from)
                        .map(|p| p.kind == Kind::Pawn)
                        .unwrap_or(false)
            }
            Move::Sapper(_) => false,
        }
    }
}
