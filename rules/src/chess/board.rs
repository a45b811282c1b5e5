//! The chess engine shared by chess (8×8) and minesweeper chess (8×10).
//!
//! One [`Board`] type serves both: it stores its number of ranks and its [`Variant`] (en passant
//! on or off, which promotion pieces exist), and its bitboards are `u128`
//! ([`crate::bitboard`]). Move generation is strictly legal: it computes the checkers and
//! the pinned pieces of the side to move and only produces moves that leave its king safe.

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

/// The a-file of a board of up to ten ranks.
const FILE_A: Bitboard = 0x0101_0101_0101_0101_0101;
/// The h-file of a board of up to ten ranks.
const FILE_H: Bitboard = FILE_A << 7;

/// Where the side to move's pieces may go: within a check's line (or anywhere without one),
/// and a pinned piece only along its pin.
struct Limits {
    king: usize,
    check_mask: Bitboard,
    pinned: Bitboard,
}

impl Limits {
    /// The squares the piece on `from` may move to.
    fn allowed(&self, from: usize) -> Bitboard {
        if self.pinned & bit(from) != 0 {
            self.check_mask & LINE[self.king][from]
        } else {
            self.check_mask
        }
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

    /// The pieces of `by` that attack `sq`, given the occupied squares `occupied`.
    #[inline]
    pub fn attackers(&self, sq: usize, by: Side, occupied: Bitboard) -> Bitboard {
        let them = self.sides[by.index()];
        let rq = self.kinds[Kind::Rook as usize] | self.kinds[Kind::Queen as usize];
        let bq = self.kinds[Kind::Bishop as usize] | self.kinds[Kind::Queen as usize];
        them & ((PAWN_ATTACKS[by.opponent().index()][sq] & self.kinds[Kind::Pawn as usize])
            | (KNIGHT[sq] & self.kinds[Kind::Knight as usize])
            | (KING[sq] & self.kinds[Kind::King as usize])
            | (rook_attacks_on(self.ranks, sq, occupied) & rq)
            | (bishop_attacks_on(self.ranks, sq, occupied) & bq))
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

    fn last_rank(&self, side: Side) -> u8 {
        match side {
            Side::White => self.ranks - 1,
            Side::Black => 0,
        }
    }

    fn push_pawn_move(&self, list: &mut MoveList, from: usize, to: usize) {
        if (to / 8) as u8 == self.last_rank(self.side) {
            self.push_promotions(list, from, to);
        } else {
            list.push(Move {
                from: Square(from as u8),
                to: Square(to as u8),
                promotion: None,
            });
        }
    }

    /// A pawn's move onto the last rank: one move per piece it may become.
    fn push_promotions(&self, list: &mut MoveList, from: usize, to: usize) {
        let (from, to) = (Square(from as u8), Square(to as u8));
        if self.variant.promotion_choice {
            for k in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                list.push(Move {
                    from,
                    to,
                    promotion: Some(k),
                });
            }
        } else {
            list.push(Move {
                from,
                to,
                promotion: Some(Kind::Queen),
            });
        }
    }

    /// Generates every legal move of the side to move into `list`.
    pub fn generate(&self, list: &mut MoveList) {
        let us = self.side;
        let them = us.opponent();
        let own = self.sides[us.index()];
        let occ = own | self.sides[them.index()];
        let Some(ksq) = self.king_square(us) else {
            return;
        };
        let k = ksq.index();

        // King steps: the destination must be safe with the king itself lifted off the board.
        let occ_without_king = occ ^ bit(k);
        for to in squares(KING[k] & !own & self.mask()) {
            if self.attackers(to, them, occ_without_king) == 0 {
                list.push(Move {
                    from: ksq,
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        }

        let checkers = self.attackers(k, them, occ);
        if checkers.count_ones() >= 2 {
            return;
        }
        let check_mask = if checkers != 0 {
            let c = checkers.trailing_zeros() as usize;
            BETWEEN[k][c] | checkers
        } else {
            self.mask()
        };
        let limits = Limits {
            king: k,
            check_mask,
            pinned: self.pinned(k),
        };
        self.generate_pieces(list, &limits);
        self.generate_pawns(list, &limits);
        if checkers == 0 {
            self.generate_castling(list, ksq);
        }
    }

    /// The side to move's pieces pinned to its king on `k`: each alone between the king and
    /// an enemy slider.
    fn pinned(&self, k: usize) -> Bitboard {
        let us = self.side;
        let own = self.sides[us.index()];
        let enemy = self.sides[us.opponent().index()];
        let occ = own | enemy;
        let rq = (self.kinds[Kind::Rook as usize] | self.kinds[Kind::Queen as usize]) & enemy;
        let bq = (self.kinds[Kind::Bishop as usize] | self.kinds[Kind::Queen as usize]) & enemy;
        let snipers = (rook_rays(k) & rq) | (bishop_rays(k) & bq);
        let mut pinned: Bitboard = 0;
        for s in squares(snipers) {
            let between = BETWEEN[k][s] & occ;
            if between.count_ones() == 1 && between & own != 0 {
                pinned |= between;
            }
        }
        pinned
    }

    /// The knights' and sliders' moves within the limits of a check and of pins.
    fn generate_pieces(&self, list: &mut MoveList, limits: &Limits) {
        let us = self.side;
        let own = self.sides[us.index()];
        let occ = own | self.sides[us.opponent().index()];
        let mut push = |from: usize, targets: Bitboard| {
            for to in squares(targets) {
                list.push(Move {
                    from: Square(from as u8),
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        };
        // Knights (a pinned knight can never move).
        for from in squares(self.pieces(us, Kind::Knight) & !limits.pinned) {
            push(from, KNIGHT[from] & !own & limits.check_mask);
        }
        let queens = self.kinds[Kind::Queen as usize];
        for from in squares((self.kinds[Kind::Bishop as usize] | queens) & own) {
            push(
                from,
                bishop_attacks_on(self.ranks, from, occ) & !own & limits.allowed(from),
            );
        }
        for from in squares((self.kinds[Kind::Rook as usize] | queens) & own) {
            push(
                from,
                rook_attacks_on(self.ranks, from, occ) & !own & limits.allowed(from),
            );
        }
    }

    /// The pawns' moves: steps, double steps, captures, promotions and en passant. The pawns
    /// that are not pinned move as one set (a shift of the whole set per kind of move); a pinned
    /// pawn moves alone, along its pin.
    fn generate_pawns(&self, list: &mut MoveList, limits: &Limits) {
        let us = self.side;
        let enemy = self.sides[us.opponent().index()];
        let occ = self.sides[us.index()] | enemy;
        let empty = !occ & self.mask();
        let pawns = self.pieces(us, Kind::Pawn);
        let free = pawns & !limits.pinned;
        let white = us == Side::White;
        // One step forward, towards the opponent; `back` undoes it on a destination square.
        let ahead = |set: Bitboard| if white { set << 8 } else { set >> 8 };
        let third = rank_mask(if white { 2 } else { self.ranks - 3 });
        let last = rank_mask(self.last_rank(us));

        let single = ahead(free) & empty;
        let double = ahead(single & third) & empty & limits.check_mask;
        let single = single & limits.check_mask;
        // Captures towards the a-file side and towards the h-file side.
        let (west, east) = if white {
            ((free & !FILE_A) << 7, (free & !FILE_H) << 9)
        } else {
            ((free & !FILE_A) >> 9, (free & !FILE_H) >> 7)
        };
        let targets = enemy & limits.check_mask;
        let from_of = |to: usize, delta: i32| (to as i32 - delta) as usize;
        let fwd: i32 = if white { 8 } else { -8 };
        for (set, delta) in [
            (single, fwd),
            (west & targets, fwd - 1),
            (east & targets, fwd + 1),
        ] {
            for to in squares(set & last) {
                self.push_promotions(list, from_of(to, delta), to);
            }
            for to in squares(set & !last) {
                list.push(Move {
                    from: Square(from_of(to, delta) as u8),
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        }
        for to in squares(double) {
            list.push(Move {
                from: Square(from_of(to, 2 * fwd) as u8),
                to: Square(to as u8),
                promotion: None,
            });
        }
        for from in squares(pawns & limits.pinned) {
            self.pinned_pawn(list, from, limits.allowed(from));
        }
        if let Some(ep) = self.ep.filter(|_| self.variant.en_passant) {
            let capturers = PAWN_ATTACKS[us.opponent().index()][ep.index()] & pawns;
            for from in squares(capturers) {
                let mv = Move {
                    from: Square(from as u8),
                    to: ep,
                    promotion: None,
                };
                if self.ep_is_safe(mv) {
                    list.push(mv);
                }
            }
        }
    }

    /// The moves of one pinned pawn, each within `ok` (its pin line and any check's line);
    /// en passant is left to [`Board::generate_pawns`].
    fn pinned_pawn(&self, list: &mut MoveList, from: usize, ok: Bitboard) {
        let us = self.side;
        let enemy = self.sides[us.opponent().index()];
        let occ = self.sides[us.index()] | enemy;
        let forward: i32 = if us == Side::White { 8 } else { -8 };
        let start_rank = if us == Side::White { 1 } else { self.ranks - 2 };
        let one = from as i32 + forward;
        if (0..(8 * self.ranks as i32)).contains(&one) && occ & bit(one as usize) == 0 {
            let one = one as usize;
            if ok & bit(one) != 0 {
                self.push_pawn_move(list, from, one);
            }
            if (from / 8) as u8 == start_rank {
                let two = (one as i32 + forward) as usize;
                if occ & bit(two) == 0 && ok & bit(two) != 0 {
                    self.push_pawn_move(list, from, two);
                }
            }
        }
        for to in squares(PAWN_ATTACKS[us.index()][from] & enemy & ok & self.mask()) {
            self.push_pawn_move(list, from, to);
        }
    }

    /// Castling, for a king not in check on its home square.
    fn generate_castling(&self, list: &mut MoveList, ksq: Square) {
        let us = self.side;
        let them = us.opponent();
        let occ = self.occupied();
        let r = if us == Side::White { 0 } else { self.ranks - 1 };
        let (kside, qside) = if us == Side::White {
            (castle::WHITE_KING, castle::WHITE_QUEEN)
        } else {
            (castle::BLACK_KING, castle::BLACK_QUEEN)
        };
        let sq = |f: u8| Square::new(f, r).index();
        if ksq.index() != sq(4) {
            return;
        }
        let free = |files: &[u8]| files.iter().all(|f| occ & bit(sq(*f)) == 0);
        let safe = |files: &[u8]| files.iter().all(|f| self.attackers(sq(*f), them, occ) == 0);
        let rook_on = |f: u8| self.pieces(us, Kind::Rook) & bit(sq(f)) != 0;
        if self.castling & kside != 0 && rook_on(7) && free(&[5, 6]) && safe(&[5, 6]) {
            list.push(Move {
                from: ksq,
                to: Square(sq(6) as u8),
                promotion: None,
            });
        }
        if self.castling & qside != 0 && rook_on(0) && free(&[1, 2, 3]) && safe(&[3, 2]) {
            list.push(Move {
                from: ksq,
                to: Square(sq(2) as u8),
                promotion: None,
            });
        }
    }

    /// Whether an en-passant capture leaves the mover's king safe (checked by playing it: the
    /// two pawns leaving one rank at once can uncover a rook, which pin detection misses).
    fn ep_is_safe(&self, mv: Move) -> bool {
        let mut after = *self;
        after.apply(mv);
        !after.in_check(self.side)
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
