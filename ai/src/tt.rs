//! The transposition table: a fixed-size hash table of search results keyed by Zobrist keys.
//!
//! Its memory is bounded when it is made ([`Tt::with_megabytes`]; 32 MB by default, see
//! [`DEFAULT_MB`]) and never grows. Each entry keeps the full 64-bit key, the best move found
//! (packed by the game into 32 bits), the score with its bound, the depth it was searched to and
//! the search generation; a new result replaces an entry of another position when it was searched
//! at least as deep or the old entry is from an earlier search.

/// The default size of the table, in megabytes.
pub const DEFAULT_MB: usize = 32;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What a node's result `best` means, given the window `(alpha, beta)` it was searched
    /// with: at least `best` when it reached `beta`, exactly `best` inside the window, at most
    /// `best` when nothing beat `alpha`.
    ///
    /// ```
    /// use takhte_ai::tt::Bound;
    /// assert_eq!(Bound::of(50, 0, 40), Bound::Lower);
    /// assert_eq!(Bound::of(20, 0, 40), Bound::Exact);
    /// assert_eq!(Bound::of(0, 0, 40), Bound::Upper);
    /// ```
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with the window
    /// `(alpha, beta)`, so the node can return it at once.
    ///
    /// ```
    /// use takhte_ai::tt::Bound;
    /// assert!(Bound::Exact.settles(10, 0, 40));
    /// assert!(Bound::Lower.settles(45, 0, 40) && !Bound::Lower.settles(30, 0, 40));
    /// assert!(Bound::Upper.settles(-5, 0, 40) && !Bound::Upper.settles(30, 0, 40));
    /// ```
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// A table entry as read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The packed best move, 0 for none.
    pub mv: u32,
    /// The stored score (mate scores relative to the stored node; see [`Tt::probe`]).
    pub score: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

/// A bounded transposition table.
pub struct Tt {
    slots: Vec<[u64; 2]>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `mb` megabytes (at least one slot; rounded down to a power of two slots).
    pub fn with_megabytes(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = 1usize;
        while n * 2 * 16 <= bytes {
            n *= 2;
        }
        Tt::with_slots(n)
    }

    /// A table with exactly `n` slots (`n` a power of two), for tests and small searches.
    pub fn with_slots(n: usize) -> Tt {
        let n = n.next_power_of_two().max(1);
        Tt {
            slots: vec![[0u64; 2]; n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        for s in self.slots.iter_mut() {
            *s = [0, 0];
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let [k, data] = self.slots[key as usize & self.mask];
        if k != key || data == 0 {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: data as u32,
            score: ((data >> 32) as u16 as i16) as i32,
            depth: ((data >> 48) as u8 as i8) as i32,
            bound,
        })
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn store(&mut self, key: u64, mv: u32, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.slots[key as usize & self.mask];
        let [old_key, old] = *slot;
        if old != 0 && old_key != key {
            let old_depth = ((old >> 48) as u8 as i8) as i32;
            let old_gen = ((old >> 58) & 63) as u8;
            if old_gen == self.generation && old_depth > depth {
                return;
            }
        }
        // Keep the old best move when the new result has none.
        let mv = if mv == 0 && old_key == key {
            old as u32
        } else {
            mv
        };
        let b = match bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = mv as u64
            | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 48)
            | (b << 56)
            | ((self.generation as u64) << 58);
        *slot = [key, data];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_reads_back() {
        let mut tt = Tt::with_slots(1024);
        tt.store(12345, 77, -300, 5, Bound::Lower);
        let hit = tt.probe(12345).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (77, -300, 5, Bound::Lower)
        );
        assert!(tt.probe(12346).is_none());
        assert!(Tt::with_megabytes(32).bytes() <= 32 * 1024 * 1024);
    }
}
