//! Legal move generation, written once over the width of the bitboard: the 8×8 chess board
//! generates on `u64` (the board's `u128` sets cut to their low half, which is free), the 8×10
//! minesweeper board on `u128`. [`Board::generate`] picks the width from the number of ranks.
//!
//! Generation is strictly legal: the king's steps are tested against the enemy's attacks with
//! the king lifted off the board, the other pieces move within the check's line (if any) and a
//! pinned piece only along its pin; en passant, which can uncover a rook along the rank, is
//! tested by playing it.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

use super::super::super::bitboard::{
    bishop_attacks, bishop_attacks64, bishop_rays, rook_attacks, rook_attacks64, rook_rays,
    Bitboard, BETWEEN, KING, KNIGHT, LINE, PAWN_ATTACKS,
};
use super::super::super::{Side, Square};
use super::{castle, Board, Kind, Move, MoveList};

/// A set of squares of one width: `u64` for the 8×8 board, `u128` for the 8×10 one.
pub(super) trait Bits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The set of a board's `u128` cut to this width.
    fn cut(wide: Bitboard) -> Self;
    /// The lowest square of a non-empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// The number of squares.
    fn count(self) -> u32;
    /// A rook's attacks from `sq` through `occupied` (beyond the board's last rank they may
    /// run on; callers cut them with the board's mask).
    fn rook(sq: usize, occupied: Self) -> Self;
    /// A bishop's attacks from `sq` through `occupied` (as [`Bits::rook`]).
    fn bishop(sq: usize, occupied: Self) -> Self;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn cut(wide: Bitboard) -> u64 {
        wide as u64
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> u64 {
        self & (self - 1)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn rook(sq: usize, occupied: u64) -> u64 {
        rook_attacks64(sq, occupied)
    }
    #[inline(always)]
    fn bishop(sq: usize, occupied: u64) -> u64 {
        bishop_attacks64(sq, occupied)
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    #[inline(always)]
    fn cut(wide: Bitboard) -> u128 {
        wide
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & (self - 1)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn rook(sq: usize, occupied: u128) -> u128 {
        rook_attacks(sq, occupied)
    }
    #[inline(always)]
    fn bishop(sq: usize, occupied: u128) -> u128 {
        bishop_attacks(sq, occupied)
    }
}

/// The squares of a set, lowest first.
#[inline(always)]
fn each<B: Bits>(mut set: B) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == B::ZERO {
            None
        } else {
            let sq = set.lowest();
            set = set.without_lowest();
            Some(sq)
        }
    })
}

/// The single square `sq`.
#[inline(always)]
fn one<B: Bits>(sq: usize) -> B {
    B::cut(1u128 << sq)
}

/// The a-file of a board of up to ten ranks.
const FILE_A: Bitboard = 0x0101_0101_0101_0101_0101;
/// The h-file of a board of up to ten ranks.
const FILE_H: Bitboard = FILE_A << 7;

/// Where the side to move's pieces may go: within a check's line (or anywhere without one),
/// and a pinned piece only along its pin.
struct Limits<B> {
    king: usize,
    check_mask: B,
    pinned: B,
    /// Whether quiet moves are wanted too (not only the tactical ones).
    quiet: bool,
}

impl<B: Bits> Limits<B> {
    /// The squares the piece on `from` may move to.
    #[inline(always)]
    fn allowed(&self, from: usize) -> B {
        if self.pinned & one(from) != B::ZERO {
            self.check_mask & B::cut(LINE[self.king][from])
        } else {
            self.check_mask
        }
    }
}

impl Board {
    /// Generates every legal move of the side to move into `list`.
    pub fn generate(&self, list: &mut MoveList) {
        if self.ranks == 8 {
            self.generate_in::<u64>(list, true);
        } else {
            self.generate_in::<u128>(list, true);
        }
    }

    /// Generates the side to move's legal tactical moves into `list`: every capture (en
    /// passant and capturing promotions included) and every promotion to a queen. They come in
    /// the order [`Board::generate`] gives them, which is that list without the other moves.
    /// (A quiescence search wants these; generating them alone saves the quiet moves' work.)
    pub fn generate_tactical(&self, list: &mut MoveList) {
        if self.ranks == 8 {
            self.generate_in::<u64>(list, false);
        } else {
            self.generate_in::<u128>(list, false);
        }
    }

    /// The pieces of `kind` owned by `side`, at width `B`.
    #[inline(always)]
    fn set<B: Bits>(&self, side: Side, kind: Kind) -> B {
        B::cut(self.kinds[kind as usize]) & B::cut(self.sides[side.index()])
    }

    /// The pieces of `by` that attack `sq`, given the occupied squares `occupied`.
    #[inline]
    pub fn attackers(&self, sq: usize, by: Side, occupied: Bitboard) -> Bitboard {
        if self.ranks == 8 {
            u128::from(self.attackers_in::<u64>(sq, by, occupied as u64))
        } else {
            self.attackers_in::<u128>(sq, by, occupied)
        }
    }

    /// The pieces of `by` that attack `sq` through `occupied`, at width `B`.
    #[inline(always)]
    fn attackers_in<B: Bits>(&self, sq: usize, by: Side, occupied: B) -> B {
        let kinds = |k: Kind| B::cut(self.kinds[k as usize]);
        let queens = kinds(Kind::Queen);
        let near = (B::cut(PAWN_ATTACKS[by.opponent().index()][sq]) & kinds(Kind::Pawn))
            | (B::cut(KNIGHT[sq]) & kinds(Kind::Knight))
            | (B::cut(KING[sq]) & kinds(Kind::King));
        let lines = (B::rook(sq, occupied) & (kinds(Kind::Rook) | queens))
            | (B::bishop(sq, occupied) & (kinds(Kind::Bishop) | queens));
        B::cut(self.sides[by.index()]) & (near | lines)
    }

    fn generate_in<B: Bits>(&self, list: &mut MoveList, quiet: bool) {
        let us = self.side;
        let them = us.opponent();
        let own = B::cut(self.sides[us.index()]);
        let occ = own | B::cut(self.sides[them.index()]);
        let mask = B::cut(self.mask());
        let kings = self.set::<B>(us, Kind::King);
        if kings == B::ZERO {
            return;
        }
        let k = kings.lowest();
        let ksq = Square(k as u8);
        let enemy = B::cut(self.sides[them.index()]);
        // Where a piece may land: any square but its own side's, or only on an enemy piece.
        let dest = if quiet { !own & mask } else { enemy };

        // King steps: the destination must be safe with the king itself lifted off the board.
        let occ_without_king = occ ^ one(k);
        for to in each(B::cut(KING[k]) & dest) {
            if self.attackers_in(to, them, occ_without_king) == B::ZERO {
                list.push(Move {
                    from: ksq,
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        }

        let checkers = self.attackers_in(k, them, occ);
        if checkers.count() >= 2 {
            return;
        }
        let check_mask = if checkers != B::ZERO {
            B::cut(BETWEEN[k][checkers.lowest()]) | checkers
        } else {
            mask
        };
        let limits = Limits {
            king: k,
            check_mask,
            pinned: self.pinned::<B>(k),
            quiet,
        };
        self.generate_pieces(list, &limits, dest, occ);
        self.generate_pawns(list, &limits, occ, mask);
        if quiet && checkers == B::ZERO && self.castling != 0 {
            self.generate_castling::<B>(list, ksq, occ);
        }
    }

    /// The side to move's pieces pinned to its king on `k`: each alone between the king and
    /// an enemy slider.
    #[inline(always)]
    fn pinned<B: Bits>(&self, k: usize) -> B {
        let us = self.side;
        let them = us.opponent();
        let own = B::cut(self.sides[us.index()]);
        let occ = own | B::cut(self.sides[them.index()]);
        let queens = self.set::<B>(them, Kind::Queen);
        let snipers = (B::cut(rook_rays(k)) & (self.set::<B>(them, Kind::Rook) | queens))
            | (B::cut(bishop_rays(k)) & (self.set::<B>(them, Kind::Bishop) | queens));
        let mut pinned = B::ZERO;
        for s in each(snipers) {
            let between = B::cut(BETWEEN[k][s]) & occ;
            if between.count() == 1 && between & own != B::ZERO {
                pinned |= between;
            }
        }
        pinned
    }

    /// The knights' and sliders' moves within the limits of a check and of pins.
    #[inline(always)]
    fn generate_pieces<B: Bits>(&self, list: &mut MoveList, limits: &Limits<B>, dest: B, occ: B) {
        let us = self.side;
        let mut push = |from: usize, targets: B| {
            for to in each(targets) {
                list.push(Move {
                    from: Square(from as u8),
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        };
        // Knights (a pinned knight can never move).
        let reach = dest & limits.check_mask;
        for from in each(self.set::<B>(us, Kind::Knight) & !limits.pinned) {
            push(from, B::cut(KNIGHT[from]) & reach);
        }
        let queens = self.set::<B>(us, Kind::Queen);
        for from in each(self.set::<B>(us, Kind::Bishop) | queens) {
            push(from, B::bishop(from, occ) & dest & limits.allowed(from));
        }
        for from in each(self.set::<B>(us, Kind::Rook) | queens) {
            push(from, B::rook(from, occ) & dest & limits.allowed(from));
        }
    }

    /// The pawns' moves: steps, double steps, captures, promotions and en passant. The pawns
    /// that are not pinned move as one set (a shift of the whole set per kind of move); a pinned
    /// pawn moves alone, along its pin.
    #[inline(always)]
    fn generate_pawns<B: Bits>(&self, list: &mut MoveList, limits: &Limits<B>, occ: B, mask: B) {
        let us = self.side;
        let enemy = B::cut(self.sides[us.opponent().index()]);
        let empty = !occ & mask;
        let pawns = self.set::<B>(us, Kind::Pawn);
        let free = pawns & !limits.pinned;
        let white = us == Side::White;
        // One step forward, towards the opponent.
        let ahead = |set: B| if white { set << 8 } else { set >> 8 };
        let rank = |r: u8| B::cut(0xffu128 << (8 * r as u32));
        let third = rank(if white { 2 } else { self.ranks - 3 });
        let last = rank(self.last_rank(us));

        let single = ahead(free) & empty;
        let double = if limits.quiet {
            ahead(single & third) & empty & limits.check_mask
        } else {
            B::ZERO
        };
        // Without quiet moves, a step forward is wanted only when it promotes.
        let single = single & limits.check_mask & if limits.quiet { mask } else { last };
        // Captures towards the a-file side and towards the h-file side.
        let (not_a, not_h) = (B::cut(!FILE_A), B::cut(!FILE_H));
        let (west, east) = if white {
            ((free & not_a) << 7, (free & not_h) << 9)
        } else {
            ((free & not_a) >> 9, (free & not_h) >> 7)
        };
        let targets = enemy & limits.check_mask;
        let fwd: i32 = if white { 8 } else { -8 };
        let from_of = |to: usize, delta: i32| Square((to as i32 - delta) as u8);
        for (set, delta) in [
            (single, fwd),
            (west & targets, fwd - 1),
            (east & targets, fwd + 1),
        ] {
            for to in each(set & last) {
                let queen_only = !limits.quiet && delta == fwd;
                self.push_promotions(list, from_of(to, delta), Square(to as u8), queen_only);
            }
            for to in each(set & !last) {
                list.push(Move {
                    from: from_of(to, delta),
                    to: Square(to as u8),
                    promotion: None,
                });
            }
        }
        for to in each(double) {
            list.push(Move {
                from: from_of(to, 2 * fwd),
                to: Square(to as u8),
                promotion: None,
            });
        }
        for from in each(pawns & limits.pinned) {
            self.pinned_pawn(list, from, limits, occ, enemy);
        }
        if let Some(ep) = self.ep.filter(|_| self.variant.en_passant) {
            let capturers = B::cut(PAWN_ATTACKS[us.opponent().index()][ep.index()]) & pawns;
            for from in each(capturers) {
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
    fn pinned_pawn<B: Bits>(
        &self,
        list: &mut MoveList,
        from: usize,
        limits: &Limits<B>,
        occ: B,
        enemy: B,
    ) {
        let ok = limits.allowed(from);
        let quiet = limits.quiet;
        let us = self.side;
        let forward: i32 = if us == Side::White { 8 } else { -8 };
        let start_rank = if us == Side::White { 1 } else { self.ranks - 2 };
        let step = |sq: usize| {
            let to = sq as i32 + forward;
            (0..(8 * self.ranks as i32))
                .contains(&to)
                .then_some(to as usize)
        };
        if let Some(one_ahead) = step(from).filter(|&s| occ & one(s) == B::ZERO) {
            let promotes = (one_ahead / 8) as u8 == self.last_rank(us);
            if ok & one(one_ahead) != B::ZERO && (quiet || promotes) {
                self.push_pawn_move(list, from, one_ahead, !quiet);
            }
            if quiet && (from / 8) as u8 == start_rank {
                if let Some(two) = step(one_ahead) {
                    if (occ | !ok) & one(two) == B::ZERO {
                        self.push_pawn_move(list, from, two, false);
                    }
                }
            }
        }
        let mask = B::cut(self.mask());
        for to in each(B::cut(PAWN_ATTACKS[us.index()][from]) & enemy & ok & mask) {
            self.push_pawn_move(list, from, to, false);
        }
    }

    fn last_rank(&self, side: Side) -> u8 {
        match side {
            Side::White => self.ranks - 1,
            Side::Black => 0,
        }
    }

    /// A pawn's move; onto the last rank, its promotions (only the queen's if `queen_only`).
    fn push_pawn_move(&self, list: &mut MoveList, from: usize, to: usize, queen_only: bool) {
        let (from, to) = (Square(from as u8), Square(to as u8));
        if to.rank() == self.last_rank(self.side) {
            self.push_promotions(list, from, to, queen_only);
        } else {
            list.push(Move {
                from,
                to,
                promotion: None,
            });
        }
    }

    /// A pawn's move onto the last rank: one move per piece it may become (only the queen's
    /// if `queen_only`).
    #[inline(always)]
    fn push_promotions(&self, list: &mut MoveList, from: Square, to: Square, queen_only: bool) {
        if self.variant.promotion_choice && !queen_only {
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

    /// Castling, for a king not in check on its home square.
    fn generate_castling<B: Bits>(&self, list: &mut MoveList, ksq: Square, occ: B) {
        let us = self.side;
        let them = us.opponent();
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
        let free = |files: &[u8]| files.iter().all(|f| occ & one(sq(*f)) == B::ZERO);
        let safe = |files: &[u8]| {
            files
                .iter()
                .all(|f| self.attackers_in(sq(*f), them, occ) == B::ZERO)
        };
        let rook_on = |f: u8| self.set::<B>(us, Kind::Rook) & one(sq(f)) != B::ZERO;
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
}
