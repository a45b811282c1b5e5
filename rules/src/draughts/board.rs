//! The board as bitboards, and move generation over it (internal to the draughts module).
//!
//! Bit `i` of a bitboard is the square with index `i` (`rank * 8 + file`, a1 = 0). Generation
//! writes into a [`Sink`], so that the public move list, the fast perft and the move counter share
//! one generator and the perft needs no heap allocation per node.

/// Every square of the a-file.
pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Every square of the h-file.
pub(super) const FILE_H: u64 = FILE_A << 7;
/// Every square of rank 1 (Black's promotion rank).
pub(super) const RANK_1: u64 = 0xFF;
/// Every square of rank 8 (White's promotion rank).
pub(super) const RANK_8: u64 = 0xFF << 56;

/// Towards rank 8.
pub(super) const UP: usize = 0;
/// Towards rank 1.
pub(super) const DOWN: usize = 1;
/// Towards the a-file.
pub(super) const LEFT: usize = 2;
/// Towards the h-file.
pub(super) const RIGHT: usize = 3;
/// "No direction yet": the first jump of a sequence.
pub(super) const NO_DIR: usize = 4;

/// The opposite of a direction (`UP` ↔ `DOWN`, `LEFT` ↔ `RIGHT`).
#[inline]
pub(super) fn reverse(dir: usize) -> usize {
    dir ^ 1
}

/// The single-bit bitboard of a square index.
#[inline]
pub(super) fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// The neighbour of `sq` in direction `dir`, if it is on the board.
#[inline]
pub(super) fn step(sq: u8, dir: usize) -> Option<u8> {
    match dir {
        UP if sq < 56 => Some(sq + 8),
        DOWN if sq >= 8 => Some(sq - 8),
        LEFT if !sq.is_multiple_of(8) => Some(sq - 1),
        RIGHT if sq % 8 != 7 => Some(sq + 1),
        _ => None,
    }
}

/// The direction from `a` to `b` and the distance, when both are on one rank or file.
pub(super) fn direction(a: u8, b: u8) -> Option<(usize, u8)> {
    let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
    if a == b {
        None
    } else if fa == fb {
        Some(if rb > ra {
            (UP, rb - ra)
        } else {
            (DOWN, ra - rb)
        })
    } else if ra == rb {
        Some(if fb > fa {
            (RIGHT, fb - fa)
        } else {
            (LEFT, fa - fb)
        })
    } else {
        None
    }
}

/// The forward direction of a side (0 = White, 1 = Black).
#[inline]
pub(super) fn forward(side: usize) -> usize {
    if side == 0 {
        UP
    } else {
        DOWN
    }
}

/// The rank where a man of `side` is crowned.
#[inline]
pub(super) fn promotion_rank(side: usize) -> u64 {
    if side == 0 {
        RANK_8
    } else {
        RANK_1
    }
}

/// The directions a man of `side` moves and captures in: forward, left, right.
#[inline]
pub(super) fn man_dirs(side: usize) -> [usize; 3] {
    [forward(side), LEFT, RIGHT]
}

/// Men and kings of both sides, indexed by side (0 = White, 1 = Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(super) struct Board {
    /// Men per side.
    pub men: [u64; 2],
    /// Kings per side.
    pub kings: [u64; 2],
}

/// Where generated moves go. Captures arrive only at the current maximum length; when a longer
/// one is found, `reset_captures` drops the shorter ones first. Simple moves arrive only when
/// there is no capture at all.
pub(super) trait Sink {
    /// Forget every capture received so far (a longer one was found).
    fn reset_captures(&mut self);
    /// A capture: `path` is the start square and every landing square, `captured` the jumped
    /// squares in order, `mask` the same squares as a bitboard.
    fn capture(&mut self, path: &[u8], captured: &[u8], mask: u64);
    /// A simple (non-capturing) move.
    fn simple(&mut self, from: u8, to: u8);
}

/// Counts moves without storing them.
#[derive(Default)]
pub(super) struct Counter(pub u64);

impl Sink for Counter {
    fn reset_captures(&mut self) {
        self.0 = 0;
    }
    fn capture(&mut self, _: &[u8], _: &[u8], _: u64) {
        self.0 += 1;
    }
    fn simple(&mut self, _: u8, _: u8) {
        self.0 += 1;
    }
}

/// A legal move reduced to what playing it needs: start, end and the captured squares. Two
/// capture paths with the same start, end and captured pieces give the same `Compact`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compact {
    /// The index of the start square (`rank * 8 + file`).
    pub from: u8,
    /// The index of the square the piece ends on.
    pub to: u8,
    /// The captured squares as a bitboard (bit = square index); 0 for a simple move.
    pub mask: u64,
}

impl Sink for Vec<Compact> {
    fn reset_captures(&mut self) {
        self.clear();
    }
    fn capture(&mut self, path: &[u8], _: &[u8], mask: u64) {
        self.push(Compact {
            from: path[0],
            to: path[path.len() - 1],
            mask,
        });
    }
    fn simple(&mut self, from: u8, to: u8) {
        self.push(Compact { from, to, mask: 0 });
    }
}

/// Depth-first search of capture sequences from one piece, with fixed buffers.
struct Search<'s, S: Sink> {
    sink: &'s mut S,
    /// Start square then landing squares; `plen` used.
    path: [u8; 66],
    plen: usize,
    /// Captured squares in jump order; `clen` used.
    caps: [u8; 64],
    clen: usize,
    mask: u64,
    /// The longest sequence found so far (0: none).
    best: usize,
    man_dirs: [usize; 3],
    /// Jumps the search may still try; at 0 it stops (`exhausted`).
    budget: u64,
    /// The budget ran out: what the sink holds is incomplete.
    exhausted: bool,
}

impl<S: Sink> Search<'_, S> {
    #[inline]
    fn push(&mut self, land: u8, victim: u8) {
        self.budget = self.budget.saturating_sub(1);
        if self.budget == 0 {
            self.exhausted = true;
        }
        self.path[self.plen] = land;
        self.plen += 1;
        self.caps[self.clen] = victim;
        self.clen += 1;
        self.mask |= bit(victim);
    }

    #[inline]
    fn pop(&mut self) {
        self.plen -= 1;
        self.clen -= 1;
        self.mask &= !bit(self.caps[self.clen]);
    }

    fn record(&mut self) {
        if self.clen == 0 || self.clen < self.best {
            return;
        }
        if self.clen > self.best {
            self.best = self.clen;
            self.sink.reset_captures();
        }
        self.sink
            .capture(&self.path[..self.plen], &self.caps[..self.clen], self.mask);
    }

    /// A man on `sq`; `occ` holds every piece but the moving one, `enemy` the enemy pieces not
    /// yet captured. A man stays a man for the whole sequence.
    fn man(&mut self, sq: u8, occ: u64, enemy: u64) {
        let mut found = false;
        for d in self.man_dirs {
            if self.exhausted {
                return;
            }
            let Some(mid) = step(sq, d) else { continue };
            if enemy & bit(mid) == 0 {
                continue;
            }
            let Some(land) = step(mid, d) else { continue };
            if occ & bit(land) != 0 {
                continue;
            }
            found = true;
            self.push(land, mid);
            self.man(land, occ & !bit(mid), enemy & !bit(mid));
            self.pop();
        }
        if !found {
            self.record();
        }
    }

    /// A king on `sq` whose previous jump went in direction `last` (`NO_DIR` before the first).
    fn king(&mut self, sq: u8, occ: u64, enemy: u64, last: usize) {
        let mut found = false;
        for d in [UP, DOWN, LEFT, RIGHT] {
            if last != NO_DIR && d == reverse(last) {
                continue;
            }
            // The first occupied square along the line.
            let mut s = sq;
            let victim = loop {
                match step(s, d) {
                    None => break None,
                    Some(n) if occ & bit(n) != 0 => break Some(n),
                    Some(n) => s = n,
                }
            };
            let Some(v) = victim else { continue };
            if enemy & bit(v) == 0 {
                continue;
            }
            let (occ2, enemy2) = (occ & !bit(v), enemy & !bit(v));
            let mut t = v;
            while let Some(n) = step(t, d) {
                if occ2 & bit(n) != 0 || self.exhausted {
                    break;
                }
                found = true;
                self.push(n, v);
                self.king(n, occ2, enemy2, d);
                self.pop();
                t = n;
            }
        }
        if !found {
            self.record();
        }
    }
}

impl Board {
    /// Every piece of `side`.
    #[inline]
    pub fn pieces(&self, side: usize) -> u64 {
        self.men[side] | self.kings[side]
    }

    /// Every piece on the board.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces(0) | self.pieces(1)
    }

    /// Generates the legal moves of `side` into `sink` (maximum captures only; simple moves only
    /// when there is no capture). Returns the number of pieces the captures take (0: none).
    pub fn generate<S: Sink>(&self, side: usize, sink: &mut S) -> usize {
        let mut unlimited = u64::MAX;
        self.generate_within(side, sink, &mut unlimited)
            .expect("an unlimited search is never cut short")
    }

    /// As [`Board::generate`], trying at most `budget` jumps (reduced by the jumps tried): None
    /// when the capture search needs more (what `sink` then holds is incomplete).
    pub fn generate_within<S: Sink>(
        &self,
        side: usize,
        sink: &mut S,
        budget: &mut u64,
    ) -> Option<usize> {
        let occ = self.occupied();
        let enemy = self.pieces(1 - side);
        let mut search = Search {
            sink,
            path: [0; 66],
            plen: 1,
            caps: [0; 64],
            clen: 0,
            mask: 0,
            best: 0,
            man_dirs: man_dirs(side),
            budget: *budget,
            exhausted: false,
        };
        let mut men = self.men[side];
        while men != 0 {
            let sq = men.trailing_zeros() as u8;
            men &= men - 1;
            search.path[0] = sq;
            search.man(sq, occ & !bit(sq), enemy);
        }
        let mut kings = self.kings[side];
        while kings != 0 {
            let sq = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            search.path[0] = sq;
            search.king(sq, occ & !bit(sq), enemy, NO_DIR);
        }
        *budget = search.budget;
        if search.exhausted {
            return None;
        }
        let best = search.best;
        if best == 0 {
            self.simple_moves(side, sink);
        }
        Some(best)
    }

    /// The simple moves of `side`, men first (forward, then towards a, then towards h), then kings.
    fn simple_moves<S: Sink>(&self, side: usize, sink: &mut S) {
        let empty = !self.occupied();
        let men = self.men[side];
        let (fwd, delta): (u64, i32) = if side == 0 {
            ((men << 8) & empty, 8)
        } else {
            ((men >> 8) & empty, -8)
        };
        emit_shifted(fwd, delta, sink);
        emit_shifted(((men & !FILE_A) >> 1) & empty, -1, sink);
        emit_shifted(((men & !FILE_H) << 1) & empty, 1, sink);
        let mut kings = self.kings[side];
        while kings != 0 {
            let sq = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for d in [UP, DOWN, LEFT, RIGHT] {
                let mut s = sq;
                while let Some(n) = step(s, d) {
                    if empty & bit(n) == 0 {
                        break;
                    }
                    sink.simple(sq, n);
                    s = n;
                }
            }
        }
    }

    /// Whether `side` has any legal move (without generating the whole list).
    pub fn has_move(&self, side: usize) -> bool {
        let empty = !self.occupied();
        let men = self.men[side];
        let fwd = if side == 0 { men << 8 } else { men >> 8 };
        if (fwd | ((men & !FILE_A) >> 1) | ((men & !FILE_H) << 1)) & empty != 0 {
            return true;
        }
        let mut kings = self.kings[side];
        while kings != 0 {
            let sq = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            if [UP, DOWN, LEFT, RIGHT]
                .into_iter()
                .any(|d| step(sq, d).is_some_and(|n| empty & bit(n) != 0))
            {
                return true;
            }
        }
        // No simple move: is there a capture? Only the first jump matters.
        let occ = self.occupied();
        let enemy = self.pieces(1 - side);
        let mut men = self.men[side];
        while men != 0 {
            let sq = men.trailing_zeros() as u8;
            men &= men - 1;
            if can_jump(sq, true, side, occ & !bit(sq), enemy, NO_DIR) {
                return true;
            }
        }
        let mut kings = self.kings[side];
        while kings != 0 {
            let sq = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            if can_jump(sq, false, side, occ & !bit(sq), enemy, NO_DIR) {
                return true;
            }
        }
        false
    }

    /// Plays a move of `side`: the piece on `from` goes to `to` (a man on its promotion rank is
    /// crowned) and the pieces on `mask` are removed.
    pub fn apply(&mut self, side: usize, from: u8, to: u8, mask: u64) {
        let (fb, tb) = (bit(from), bit(to));
        if self.kings[side] & fb != 0 {
            self.kings[side] = (self.kings[side] & !fb) | tb;
        } else {
            self.men[side] &= !fb;
            if tb & promotion_rank(side) != 0 {
                self.kings[side] |= tb;
            } else {
                self.men[side] |= tb;
            }
        }
        let other = 1 - side;
        self.men[other] &= !mask;
        self.kings[other] &= !mask;
    }
}

/// Emits a simple move for every destination bit, the source being `delta` squares back.
#[inline]
fn emit_shifted<S: Sink>(mut dests: u64, delta: i32, sink: &mut S) {
    while dests != 0 {
        let to = dests.trailing_zeros() as u8;
        dests &= dests - 1;
        sink.simple((to as i32 - delta) as u8, to);
    }
}

/// Whether a piece on `sq` (a man of `side` when `is_man`, else a king whose last jump went in
/// direction `last`) can make one more jump. `occ` excludes the moving piece.
pub(super) fn can_jump(
    sq: u8,
    is_man: bool,
    side: usize,
    occ: u64,
    enemy: u64,
    last: usize,
) -> bool {
    if is_man {
        man_dirs(side).into_iter().any(|d| {
            step(sq, d).is_some_and(|mid| {
                enemy & bit(mid) != 0 && step(mid, d).is_some_and(|land| occ & bit(land) == 0)
            })
        })
    } else {
        [UP, DOWN, LEFT, RIGHT].into_iter().any(|d| {
            if last != NO_DIR && d == reverse(last) {
                return false;
            }
            let mut s = sq;
            while let Some(n) = step(s, d) {
                if occ & bit(n) != 0 {
                    return enemy & bit(n) != 0 && step(n, d).is_some_and(|l| occ & bit(l) == 0);
                }
                s = n;
            }
            false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_on_the_board() {
        assert_eq!(step(0, LEFT), None);
        assert_eq!(step(0, DOWN), None);
        assert_eq!(step(7, RIGHT), None);
        assert_eq!(step(63, UP), None);
        assert_eq!(step(8, LEFT), None);
        assert_eq!(step(9, LEFT), Some(8));
        assert_eq!(direction(0, 56), Some((UP, 7)));
        assert_eq!(direction(7, 0), Some((LEFT, 7)));
        assert_eq!(direction(0, 9), None);
    }
}
