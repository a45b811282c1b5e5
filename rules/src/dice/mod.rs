//! Dice chess ("king and fifteen pawns"), RULES.md §2.
//!
//! Each side has a king and fifteen pawns. A turn is either a king move (no roll) or a roll of one
//! die followed by a pawn move with the power of the face ([`face_name`]); a face that gives no
//! legal pawn move is an empty roll, [`Move::Pass`]. A [`Move`] is a whole turn, die face
//! included, so [`Rules::legal_moves`] lists the turn options: the king's moves and, for each face
//! 1–6, that face's pawn moves or its single pass.
//!
//! Everything here is pure: the die face is an input, never rolled here. The start roll is
//! decided by [`first_player`] and [`start_roll`].
//!
//! ```
//! use takhte_rules::dice::{Move, Position};
//! use takhte_rules::{Rules, Side};
//!
//! let mut pos = Position::start(Side::White);
//! assert_eq!(pos.to_text(), "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w");
//! assert_eq!(pos.legal_moves().len(), 220);
//! let mv = pos.parse_move("3:b1c3").unwrap();
//! assert!(matches!(mv, Move::Pawn { face: 3, .. }));
//! pos.play(&mv).unwrap();
//! assert_eq!(pos.side_to_move(), Side::Black);
//! ```

mod movegen;
/// The step directions of the die faces, shared with the computer player's board.
pub use movegen::{AROUND, DIAGONAL, ORTHOGONAL};
mod moves;
mod start_roll;
mod text;

pub use moves::{face_name, Move};
pub use start_roll::{first_player, start_roll, StartRollError};

use super::common::stable_hash;
use super::{EndReason, MoveError, Outcome, Rules, Side, Square};

/// What stands on a square: a king or a pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// The king: moves one square in any direction, without a roll; can never be captured.
    King,
    /// A pawn: an ordinary pawn at rest, moved with the power of the rolled face.
    Pawn,
}

/// A piece on the board: whose it is and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub side: Side,
    /// King or pawn.
    pub kind: PieceKind,
}

impl Piece {
    /// The position-text letter: `K`, `P` for White, `k`, `p` for Black.
    pub fn letter(self) -> char {
        match (self.side, self.kind) {
            (Side::White, PieceKind::King) => 'K',
            (Side::White, PieceKind::Pawn) => 'P',
            (Side::Black, PieceKind::King) => 'k',
            (Side::Black, PieceKind::Pawn) => 'p',
        }
    }
}

/// A dice chess position: the board and the side to move.
///
/// A position is always one that the rules allow (one king a side, kings apart, at most fifteen
/// pawns a side); [`Rules::from_text`] refuses anything else. After an empty roll in check the
/// side to move flips as after every turn, so the final position of such a game shows the side
/// *not* to move in check, and [`Rules::outcome`] reports the checkmate.
///
/// ```
/// use takhte_rules::dice::Position;
/// use takhte_rules::{Rules, Side, Square};
///
/// let pos = Position::start(Side::Black);
/// assert_eq!(pos.side_to_move(), Side::Black);
/// assert_eq!(pos.king_square(Side::White), Square::parse("d1", 8).unwrap());
/// assert_eq!(pos.pawn_count(Side::Black), 15);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pawn bitboards (bit = square index), indexed by [`Side::index`].
    pawns: [u64; 2],
    /// King squares, indexed by [`Side::index`].
    kings: [Square; 2],
    /// The side whose turn it is.
    side: Side,
}

/// The bit of a square in a bitboard; 0 for a square index off the 8×8 board.
fn bit(sq: Square) -> u64 {
    1u64.checked_shl(sq.0 as u32).unwrap_or(0)
}

/// The English name of a side, for error messages.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

impl Position {
    /// The setup of RULES.md §2: White king d1, every other square of ranks 1–2 a white pawn;
    /// Black king e8, every other square of ranks 7–8 a black pawn. `first` moves first (the
    /// start roll decides it, see [`start_roll`]).
    ///
    /// ```
    /// use takhte_rules::dice::Position;
    /// use takhte_rules::{Rules, Side};
    /// let pos = Position::start(Side::Black);
    /// assert_eq!(pos.to_text(), "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP b");
    /// ```
    pub fn start(first: Side) -> Position {
        let d1 = Square::new(3, 0);
        let e8 = Square::new(4, 7);
        Position {
            pawns: [0xFFFF & !bit(d1), (0xFFFF << 48) & !bit(e8)],
            kings: [d1, e8],
            side: first,
        }
    }

    /// What stands on `sq`, if anything.
    ///
    /// ```
    /// use takhte_rules::dice::{Piece, PieceKind, Position};
    /// use takhte_rules::{Side, Square};
    /// let pos = Position::start(Side::White);
    /// let e8 = Square::parse("e8", 8).unwrap();
    /// assert_eq!(pos.piece_at(e8), Some(Piece { side: Side::Black, kind: PieceKind::King }));
    /// assert_eq!(pos.piece_at(Square::parse("e4", 8).unwrap()), None);
    /// ```
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        for side in [Side::White, Side::Black] {
            if self.kings[side.index()] == sq {
                return Some(Piece {
                    side,
                    kind: PieceKind::King,
                });
            }
            if self.pawns[side.index()] & bit(sq) != 0 {
                return Some(Piece {
                    side,
                    kind: PieceKind::Pawn,
                });
            }
        }
        None
    }

    /// The square of `side`'s king.
    pub fn king_square(&self, side: Side) -> Square {
        self.kings[side.index()]
    }

    /// The squares of `side`'s pawns, from a1 towards h8.
    pub fn pawn_squares(&self, side: Side) -> Vec<Square> {
        let mut b = self.pawns[side.index()];
        let mut out = Vec::with_capacity(b.count_ones() as usize);
        while b != 0 {
            out.push(Square(b.trailing_zeros() as u8));
            b &= b - 1;
        }
        out
    }

    /// How many pawns `side` has left.
    pub fn pawn_count(&self, side: Side) -> u32 {
        self.pawns[side.index()].count_ones()
    }

    /// Whether `side` has at least one pawn (a side without pawns cannot roll).
    pub fn has_pawns(&self, side: Side) -> bool {
        self.pawns[side.index()] != 0
    }

    /// Whether `side`'s king is attacked: by an enemy pawn (the two squares diagonally in front
    /// of it) or by the enemy king (the eight squares around it). Die powers never attack.
    ///
    /// ```
    /// use takhte_rules::dice::Position;
    /// use takhte_rules::{Rules, Side};
    /// // The black pawn on e2 attacks d1 and f1.
    /// let pos = Position::from_text("7k/8/8/8/8/8/4p3/3K4 w").unwrap();
    /// assert!(pos.in_check(Side::White));
    /// assert!(!pos.in_check(Side::Black));
    /// ```
    pub fn in_check(&self, side: Side) -> bool {
        self.attacked_by(self.kings[side.index()], side.opponent())
    }

    /// Whether the side to move may roll now: the game is on and it has a pawn.
    pub fn can_roll(&self) -> bool {
        self.has_pawns(self.side) && self.outcome().is_none()
    }

    /// The king's legal moves for the side to move, in square order of the target. Empty once
    /// the game is over.
    ///
    /// ```
    /// use takhte_rules::dice::Position;
    /// use takhte_rules::Side;
    /// // In the start position the white king on d1 is walled in by its own pawns.
    /// assert!(Position::start(Side::White).king_moves().is_empty());
    /// ```
    pub fn king_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if !self.ended_outright() {
            self.gen_king_moves(&mut out);
        }
        out
    }

    /// The legal pawn moves of the side to move for die face `face` (1–6), in square order of
    /// the moving pawn. Empty when the face gives none (an empty roll), when `face` is not 1–6,
    /// or once the game is over.
    ///
    /// ```
    /// use takhte_rules::dice::Position;
    /// use takhte_rules::Side;
    /// let pos = Position::start(Side::White);
    /// assert_eq!(pos.pawn_moves(1).len(), 8); // a2a3 ... h2h3
    /// assert!(pos.pawn_moves(7).is_empty());
    /// ```
    pub fn pawn_moves(&self, face: u8) -> Vec<Move> {
        let mut out = Vec::new();
        if (1..=6).contains(&face) && !self.ended_outright() {
            self.gen_pawn_moves(face, &mut out);
        }
        out
    }

    /// What the side to move may do after rolling `face`: that face's pawn moves, or the single
    /// [`Move::Pass`] when it has none. Empty when the side cannot roll (no pawns, game over) or
    /// `face` is not 1–6. A king move is chosen instead of rolling, so it is never among these.
    ///
    /// ```
    /// use takhte_rules::dice::{Move, Position};
    /// use takhte_rules::{Rules, Side};
    /// // The white pawn on h8 has no pawn-like move: face 1 is an empty roll.
    /// let pos = Position::from_text("k6P/8/8/8/8/8/8/K7 w").unwrap();
    /// assert_eq!(pos.roll_options(1), vec![Move::Pass { face: 1 }]);
    /// ```
    pub fn roll_options(&self, face: u8) -> Vec<Move> {
        if !(1..=6).contains(&face) || !self.can_roll() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.gen_pawn_moves(face, &mut out);
        if out.is_empty() {
            out.push(Move::Pass { face });
        }
        out
    }

    /// Parses a pawn move for an already rolled `face` in the plain from–to form the CLI shows
    /// (`b2c4`), or `-` for the empty roll; checks that it is legal.
    ///
    /// ```
    /// use takhte_rules::dice::{Move, Position};
    /// use takhte_rules::{Side, Square};
    /// let pos = Position::start(Side::White);
    /// let mv = pos.parse_pawn_move(3, "b1c3").unwrap();
    /// assert_eq!(mv.to_string(), "3:b1c3");
    /// assert_eq!(mv.plain_text(), "b1c3");
    /// ```
    pub fn parse_pawn_move(&self, face: u8, text: &str) -> Result<Move, MoveError> {
        if !(1..=6).contains(&face) {
            return Err(MoveError::Malformed(format!(
                "die face {face}: a die face is 1 to 6"
            )));
        }
        self.parse_move(&format!("{face}:{}", text.trim()))
    }

    /// The side to move has neither a king move nor, for any face, a pawn move.
    fn no_move_at_all(&self) -> bool {
        let mut king = Vec::new();
        self.gen_king_moves(&mut king);
        king.is_empty() && !(self.has_pawns(self.side) && (1..=6).any(|f| self.any_pawn_move(f)))
    }

    /// The game is over for a reason that needs no move generation: the side not to move is in
    /// check (an empty roll in check), or only the kings are left.
    fn ended_outright(&self) -> bool {
        self.in_check(self.side.opponent()) || (self.pawns[0] | self.pawns[1]) == 0
    }

    /// Plays `mv` without checking it.
    fn apply(&mut self, mv: &Move) {
        let us = self.side.index();
        let them = self.side.opponent().index();
        match *mv {
            Move::King { to, .. } => {
                self.kings[us] = to;
                self.pawns[them] &= !bit(to);
            }
            Move::Pawn { from, to, .. } => {
                self.pawns[us] = (self.pawns[us] & !bit(from)) | bit(to);
                self.pawns[them] &= !bit(to);
            }
            Move::Pass { .. } => {}
        }
        self.side = self.side.opponent();
    }
}

impl Rules for Position {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.side
    }

    /// The turn options: the king's legal moves, then — if the side to move has a pawn — for
    /// each face 1–6 that face's legal pawn moves or the single [`Move::Pass`]. This is also how
    /// perft branches. Empty when the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        if self.ended_outright() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.gen_king_moves(&mut out);
        if self.has_pawns(self.side) {
            let mut any_pawn_move = false;
            for face in 1..=6 {
                let before = out.len();
                self.gen_pawn_moves(face, &mut out);
                if out.len() == before {
                    out.push(Move::Pass { face });
                } else {
                    any_pawn_move = true;
                }
            }
            if !any_pawn_move && !matches!(out.first(), Some(Move::King { .. })) {
                // No king move and no face moves a pawn: checkmate or stalemate before rolling.
                out.clear();
            }
        }
        out
    }

    fn is_legal(&self, mv: &Move) -> bool {
        !self.ended_outright() && self.check_move(mv).is_ok()
    }

    fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if self.ended_outright() {
            return Err(MoveError::GameOver);
        }
        match self.check_move(mv) {
            Ok(()) => {
                self.apply(mv);
                Ok(())
            }
            Err(_) if self.outcome().is_some() => Err(MoveError::GameOver),
            Err(reason) => Err(MoveError::Illegal(reason)),
        }
    }

    /// In this order: the side not to move in check (it passed an empty roll in check) → the
    /// side to move wins by checkmate; only the two kings left → draw; the side to move has no
    /// king move and no face gives it a pawn move → it loses by checkmate when in check, else
    /// stalemate.
    fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        if self.in_check(us.opponent()) {
            return Some(Outcome::win(us, EndReason::Checkmate));
        }
        if (self.pawns[0] | self.pawns[1]) == 0 {
            return Some(Outcome::draw(EndReason::OnlyKings));
        }
        if self.no_move_at_all() {
            return Some(if self.in_check(us) {
                Outcome::win(us.opponent(), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        None
    }

    fn to_text(&self) -> String {
        text::write_position(self)
    }

    fn from_text(text: &str) -> Result<Position, super::PositionError> {
        text::read_position(text)
    }

    /// The record form: `d1e2` for a king move, `3:b2c4` for a pawn move, `1:-` for an empty
    /// roll (the same as the move's `Display`).
    fn move_to_text(&self, mv: &Move) -> String {
        mv.to_string()
    }

    /// Reads the record form (`d1e2`, `3:b2c4`, `1:-`) and checks that the move is legal here.
    /// Bad text is [`MoveError::Malformed`]; a well-formed move the rules refuse is
    /// [`MoveError::Illegal`] with the reason.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = moves::parse_record(text)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        self.check_move(&mv).map_err(MoveError::Illegal)?;
        Ok(mv)
    }

    /// The [`stable_hash`] of the position text. (Repetition does not end a dice chess game;
    /// the key only identifies positions.)
    fn repetition_key(&self) -> u64 {
        stable_hash(self.to_text().as_bytes())
    }

    /// A capture (by a pawn or the king). Pawn moves without capture can be undone, since pawns
    /// move backwards with faces 2–6.
    fn is_irreversible(&self, mv: &Move) -> bool {
        match *mv {
            Move::King { to, .. } | Move::Pawn { to, .. } => {
                self.pawns[self.side.opponent().index()] & bit(to) != 0
            }
            Move::Pass { .. } => false,
        }
    }

    /// RULES.md has no repetition rule for dice chess.
    fn repetition_draws() -> bool {
        false
    }
}
