//! The chess engine shared by chess (8×8) and minesweeper chess (8×10).
//!
//! One [`Board`] type serves both: it stores its number of ranks and its [`Variant`] (en passant
//! on or off, which promotion pieces exist), and its bitboards are `u128`
//! ([`crate::bitboard`]). Move generation is strictly legal: it computes the checkers and
//! the pinned pieces of the side to move and only produces moves that leave its king safe.

mod movegen;

use super::super::bitboard::*;
use super::super::{Side, Square};

/// A kind of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// All kinds, pawn first.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// The lower-case FEN letter (`p n b r q k`).
    pub fn letter(self) -> char {
        ['p', 'n', 'b', 'r', 'q', 'k'][self as usize]
    }

    /// Reads a FEN letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())
    }
}

/// A piece: a kind and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind of piece.
    pub kind: Kind,
    /// Its owner.
    pub side: Side,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        if self.side == Side::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Reads a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        Some(Piece { kind, side })
    }
}

/// A move of the chess engine in from–to form. Castling is the king's two-square move
/// (`e1g1`); en passant is the pawn's diagonal move to the empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece lands on.
    pub to: Square,
    /// The piece a pawn promotes to, when it reaches the last rank.
    pub promotion: Option<Kind>,
}

impl Move {
    /// The UCI form: `e2e4`, `e7e8q`, `e9e10q`.
    pub fn uci(&self) -> String {
        match self.promotion {
            Some(k) => format!("{}{}{}", self.from, self.to, k.letter()),
            None => format!("{}{}", self.from, self.to),
        }
    }
}

/// The rule differences between the two chess games that the engine serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Whether en passant exists (chess yes, minesweeper chess no).
    pub en_passant: bool,
    /// Whether a promoting pawn may choose (chess) or always becomes a queen (minesweeper chess).
    pub promotion_choice: bool,
}

/// Castling rights, one bit each: White king side, White queen side, Black king side, Black
/// queen side.
pub mod castle {
    /// White may castle king side (`K`).
    pub const WHITE_KING: u8 = 1;
    /// White may castle queen side (`Q`).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black may castle king side (`k`).
    pub const BLACK_KING: u8 = 4;
    /// Black may castle queen side (`q`).
    pub const BLACK_QUEEN: u8 = 8;
}

/// A fixed-capacity list of moves, so that generation does not allocate. Its slots are left
/// uninitialised until a move is pushed (filling 256 moves at every node cost a fifth of the
/// generation time).
#[derive(Clone)]
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; 256],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [std::mem::MaybeUninit::uninit(); 256],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        if self.len < 256 {
            self.moves[self.len] = std::mem::MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` slots were written by `push` (and never the others read);
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// A chess position on an 8×8 or 8×10 board: pieces, side to move, castling rights, en-passant
/// square and move counters. Copying it is cheap; playing a move changes it in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    ranks: u8,
    variant: Variant,
    kinds: [Bitboard; 6],
    sides: [Bitboard; 2],
    side: Side,
    castling: u8,
    ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
}

impl Board {
    /// An empty board with `ranks` ranks (8 or 10), White to move, no rights.
    pub fn empty(ranks: u8, variant: Variant) -> Board {
        Board {
            ranks,
            variant,
            kinds: [0; 6],
            sides: [0; 2],
            side: Side::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The usual start: back ranks R N B Q K B N R on the first and last rank, pawns in front,
    /// all castling rights, White to move.
    pub fn start(ranks: u8, variant: Variant) -> Board {
        let mut b = Board::empty(ranks, variant);
        let back = [
            Kind::Rook,
            Kind::Knight,
            Kind::Bishop,
            Kind::Queen,
            Kind::King,
            Kind::Bishop,
            Kind::Knight,
            Kind::Rook,
        ];
        for f in 0..8u8 {
            b.put(
                Square::new(f, 0),
                Piece {
                    kind: back[f as usize],
                    side: Side::White,
                },
            );
            b.put(
                Square::new(f, 1),
                Piece {
                    kind: Kind::Pawn,
                    side: Side::White,
                },
            );
            b.put(
                Square::new(f, ranks - 2),
                Piece {
                    kind: Kind::Pawn,
                    side: Side::Black,
                },
            );
            b.put(
                Square::new(f, ranks - 1),
                Piece {
                    kind: back[f as usize],
                    side: Side::Black,
                },
            );
        }
        b.castling = 15;
        b
    }

    /// The number of ranks (8 or 10).
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The rule variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every square of this board.
    #[inline(always)]
    pub fn mask(&self) -> Bitboard {
        board_mask(self.ranks)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Side) {
        self.side = side;
    }

    /// Castling rights as bits of [`castle`].
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// Sets the castling rights (bits of [`castle`]).
    pub fn set_castling(&mut self, rights: u8) {
        self.castling = rights & 15;
    }

    /// The en-passant target square after a double step (always set after one, as in FEN).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Sets the en-passant target square.
    pub fn set_ep_square(&mut self, sq: Option<Square>) {
        self.ep = sq;
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and growing after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Sets both move counters.
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = bit(sq.index());
        let side = if self.sides[0] & b != 0 {
            Side::White
        } else if self.sides[1] & b != 0 {
            Side::Black
        } else {
            return None;
        };
        let kind = Kind::ALL
            .into_iter()
            .find(|k| self.kinds[*k as usize] & b != 0)?;
        Some(Piece { kind, side })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        let b = bit(sq.index());
        self.kinds[piece.kind as usize] |= b;
        self.sides[piece.side.index()] |= b;
    }

    /// Empties `sq`.
    pub fn remove(&mut self, sq: Square) {
        let nb = !bit(sq.index());
        for k in self.kinds.iter_mut() {
            *k &= nb;
        }
        self.sides[0] &= nb;
        self.sides[1] &= nb;
    }

    /// The squares holding pieces of `kind` owned by `side`.
    #[inline(always)]
    pub fn pieces(&self, side: Side, kind: Kind) -> Bitboard {
        self.kinds[kind as usize] & self.sides[side.index()]
    }

    /// The squares holding pieces of `side`.
    #[inline(always)]
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        self.sides[side.index()]
    }

    /// The squares holding pieces of `kind`, both sides.
    #[inline(always)]
    pub fn kind_pieces(&self, kind: Kind) -> Bitboard {
        self.kinds[kind as usize]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.sides[0] | self.sides[1]
    }

    /// The square of `side`'s king (the lowest one if a malformed board had several).
    #[inline]
    pub fn king_square(&self, side: Side) -> Option<Square> {
        let k = self.pieces(side, Kind::King);
        if k == 0 {
            None
        } else {
            Some(Square(k.trailing_zeros() as u8))
        }
    }

    /// Whether `side`'s king is attacked.
    pub fn in_check(&self, side: Side) -> bool {
        match self.king_square(side) {
            Some(k) => self.attackers(k.index(), side.opponent(), self.occupied()) != 0,
            None => false,
        }
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers(k.index(), self.side.opponent(), self.occupied()),
            None => 0,
        }
    }

    /// Every legal move, as a vector.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.as_slice().to_vec()
    }

    /// Whether the move is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.as_slice().contains(&mv)
    }

    /// Whether `mv` (legal here) captures something, en passant included.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.occupied() & bit(mv.to.index()) != 0 || self.is_en_passant(mv)
    }

    /// Whether `mv` is an en-passant capture.
    pub fn is_en_passant(&self, mv: Move) -> bool {
        self.variant.en_passant
            && Some(mv.to) == self.ep
            && self.pieces(self.side, Kind::Pawn) & bit(mv.from.index()) != 0
            && mv.from.file() != mv.to.file()
    }

    /// Whether `mv` is castling (the king moving two files).
    pub fn is_castling(&self, mv: Move) -> bool {
        self.pieces(self.side, Kind::King) & bit(mv.from.index()) != 0
            && (mv.from.file() as i32 - mv.to.file() as i32).abs() == 2
    }

    /// Plays `mv`, which must be legal (not checked here: callers check with [`Board::is_legal`]
    /// or take it from [`Board::generate`]). Returns the piece captured, if any.
    pub fn apply(&mut self, mv: Move) -> Option<Piece> {
        let us = self.side;
        let from = mv.from;
        let to = mv.to;
        let moving = self.piece_at(from);
        let mut captured = self.piece_at(to);
        let Some(moving) = moving else {
            self.side = us.opponent();
            return None;
        };
        let is_pawn = moving.kind == Kind::Pawn;
        if is_pawn && self.is_en_passant(mv) && captured.is_none() {
            let victim = Square::new(to.file(), from.rank());
            captured = self.piece_at(victim);
            self.remove(victim);
        }
        if moving.kind == Kind::King && (from.file() as i32 - to.file() as i32).abs() == 2 {
            let r = from.rank();
            let (rf, rt) = if to.file() == 6 { (7, 5) } else { (0, 3) };
            self.remove(Square::new(rf, r));
            self.put(
                Square::new(rt, r),
                Piece {
                    kind: Kind::Rook,
                    side: us,
                },
            );
        }
        self.remove(from);
        let placed = match mv.promotion {
            Some(k) if is_pawn => Piece { kind: k, side: us },
            _ => moving,
        };
        self.put(to, placed);

        // Rights: a king move loses both, a rook leaving or being taken on its corner loses one.
        let top = self.ranks - 1;
        for (sq, right) in [
            (Square::new(4, 0), castle::WHITE_KING | castle::WHITE_QUEEN),
            (Square::new(7, 0), castle::WHITE_KING),
            (Square::new(0, 0), castle::WHITE_QUEEN),
            (
                Square::new(4, top),
                castle::BLACK_KING | castle::BLACK_QUEEN,
            ),
            (Square::new(7, top), castle::BLACK_KING),
            (Square::new(0, top), castle::BLACK_QUEEN),
        ] {
            if from == sq || to == sq {
                self.castling &= !right;
            }
        }
        self.ep = None;
        if is_pawn && (from.rank() as i32 - to.rank() as i32).abs() == 2 && self.variant.en_passant
        {
            self.ep = Some(Square::new(from.file(), (from.rank() + to.rank()) / 2));
        }
        if is_pawn || captured.is_some() {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == Side::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.opponent();
        captured
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and either at most one
    /// knight and nothing else, or only bishops all standing on squares of one colour
    /// (K v K, K+B v K, K+N v K, K+B v K+B with same-coloured bishops).
    pub fn insufficient_material(&self) -> bool {
        if self.kinds[Kind::Pawn as usize]
            | self.kinds[Kind::Rook as usize]
            | self.kinds[Kind::Queen as usize]
            != 0
        {
            return false;
        }
        let knights = self.kinds[Kind::Knight as usize].count_ones();
        let bishops = self.kinds[Kind::Bishop as usize];
        if knights == 0 {
            let light = squares(bishops)
                .filter(|&s| Square(s as u8).is_light())
                .count();
            return light == 0 || light == bishops.count_ones() as usize;
        }
        knights == 1 && bishops == 0
    }

    /// Whether `side` could still mate by some series of legal moves, as used when the
    /// opponent's time runs out: false when `side` has only its king; or a lone knight while the
    /// opponent has nothing but its king and queens; or only bishops while every bishop on the
    /// board stands on one colour and the opponent has no pawns or knights to block with.
    pub fn can_possibly_mate(&self, side: Side) -> bool {
        let own = self.sides[side.index()];
        let theirs = self.sides[side.opponent().index()];
        let heavy = self.kinds[Kind::Pawn as usize]
            | self.kinds[Kind::Rook as usize]
            | self.kinds[Kind::Queen as usize];
        if own & heavy != 0 {
            return true;
        }
        let knights = self.kinds[Kind::Knight as usize];
        let bishops = self.kinds[Kind::Bishop as usize];
        if own & knights != 0 {
            let blockers =
                theirs & !self.kinds[Kind::King as usize] & !self.kinds[Kind::Queen as usize];
            return (own & (knights | bishops)).count_ones() > 1 || blockers != 0;
        }
        if own & bishops != 0 {
            let light = squares(bishops)
                .filter(|&s| Square(s as u8).is_light())
                .count();
            let one_colour = light == 0 || light == bishops.count_ones() as usize;
            let blockers = theirs & (self.kinds[Kind::Pawn as usize] | knights);
            return !one_colour || blockers != 0;
        }
        false
    }

    /// A stable key for repetition: pieces, side, castling rights, and the en-passant square only
    /// when an en-passant capture is actually legal (FIDE's "same position").
    pub fn repetition_key(&self) -> u64 {
        let mut bytes = Vec::with_capacity(8 * 16 + 4);
        for bb in self.kinds.iter().chain(self.sides.iter()) {
            bytes.extend_from_slice(&bb.to_le_bytes());
        }
        bytes.push(self.side as u8);
        bytes.push(self.castling);
        let ep_live = self.ep.filter(|&ep| {
            self.legal_moves()
                .iter()
                .any(|m| m.to == ep && self.is_en_passant(*m))
        });
        bytes.push(ep_live.map(|s| s.0 + 1).unwrap_or(0));
        crate::common::stable_hash(&bytes)
    }

    /// Perft with bulk counting at the last ply: the number of leaves `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.generate(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for &mv in list.as_slice() {
            let mut next = *self;
            next.apply(mv);
            total += next.perft(depth - 1);
        }
        total
    }
}
