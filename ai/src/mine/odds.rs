//! Exact mine probabilities from what a player sees.
//!
//! The hidden mines lie uniformly at random among the placements that agree with everything
//! shown: the revealed squares (no mine unless shown), the numbers (mines among the eight
//! neighbours, counting only mines still on the board) and the counter (mines left). So each
//! fogged square's probability is the share of consistent placements that put a mine on it.
//! The fogged squares next to a number (the frontier) are enumerated exhaustively; the other
//! fogged squares (the interior) are interchangeable, so a frontier choice with `k` mines stands
//! for `C(interior, hidden - k)` placements. With at most four mines this is at most a few tens
//! of thousands of frontier subsets.

use takhte_rules::bitboard::{bit, squares, Bitboard, KING};
use takhte_rules::mine::Visible;

/// The probability that each square holds a mine: 0 where none can be, 1 for a shown mine.
#[derive(Clone, Debug, PartialEq)]
pub struct MineOdds {
    /// Indexed by square (`rank * 8 + file`, 80 squares).
    pub p: [f64; 80],
}

impl MineOdds {
    /// The probability of a mine on square index `sq`.
    pub fn at(&self, sq: usize) -> f64 {
        self.p[sq]
    }

    /// The squares where a mine may be (probability above 0).
    pub fn risky(&self) -> Bitboard {
        (0..80)
            .filter(|&s| self.p[s] > 0.0)
            .fold(0, |m, s| m | bit(s))
    }
}

fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r.round()
}

struct Enumeration<'a> {
    frontier: &'a [usize],
    /// Per constraint: its unknown squares and the mines it still needs.
    constraints: &'a [(Bitboard, u32)],
    hidden: u32,
    interior: u32,
    total: f64,
    mass: [f64; 80],
    interior_mass: f64,
}

impl Enumeration<'_> {
    fn walk(&mut self, i: usize, chosen: Bitboard, k: u32) {
        // Prune: no constraint may already have more mines than it needs.
        for &(set, need) in self.constraints {
            if (set & chosen).count_ones() > need {
                return;
            }
        }
        if i == self.frontier.len() {
            if self
                .constraints
                .iter()
                .any(|&(set, need)| (set & chosen).count_ones() != need)
            {
                return;
            }
            let rest = self.hidden - k;
            let w = choose(self.interior, rest);
            if w == 0.0 {
                return;
            }
            self.total += w;
            for s in squares(chosen) {
                self.mass[s] += w;
            }
            if self.interior > 0 {
                self.interior_mass += w * rest as f64 / self.interior as f64;
            }
            return;
        }
        // Prune: every constraint must still be able to reach its count.
        let later: Bitboard = self.frontier[i..].iter().fold(0, |m, &s| m | bit(s));
        for &(set, need) in self.constraints {
            if (set & chosen).count_ones() + (set & later).count_ones() < need {
                return;
            }
        }
        self.walk(i + 1, chosen, k);
        if k < self.hidden {
            self.walk(i + 1, chosen | bit(self.frontier[i]), k + 1);
        }
    }
}

/// The exact probabilities of `v` (see the module text). If the shown numbers admit no
/// placement at all (which play never produces), every fogged square gets the plain share
/// `hidden / fogged`.
///
/// ```
/// use takhte_ai::mine::odds::mine_odds;
/// use takhte_rules::{mine::Position, Rules};
/// let pos = Position::start(3);
/// let odds = mine_odds(&pos.visible());
/// assert!((odds.at(28) - 4.0 / 32.0).abs() < 1e-12); // e4: 4 mines in 32 fogged squares
/// ```
pub fn mine_odds(v: &Visible) -> MineOdds {
    let fog = v.fog();
    let known = v.known_mines;
    let hidden = v.mines_left.saturating_sub(known.count_ones());
    let mut p = [0.0; 80];
    for s in squares(known) {
        p[s] = 1.0;
    }
    if hidden == 0 || fog == 0 {
        return MineOdds { p };
    }
    let mut constraints = Vec::new();
    let mut frontier_set: Bitboard = 0;
    for &(sq, n) in &v.numbers {
        let around = KING[sq.index()];
        let unknown = around & fog;
        let need = (n as u32).saturating_sub((around & known).count_ones());
        if unknown == 0 {
            continue;
        }
        constraints.push((unknown, need));
        frontier_set |= unknown;
    }
    let frontier: Vec<usize> = squares(frontier_set).collect();
    let interior = (fog & !frontier_set).count_ones();
    let mut e = Enumeration {
        frontier: &frontier,
        constraints: &constraints,
        hidden,
        interior,
        total: 0.0,
        mass: [0.0; 80],
        interior_mass: 0.0,
    };
    e.walk(0, 0, 0);
    if e.total == 0.0 {
        let share = hidden as f64 / fog.count_ones() as f64;
        for s in squares(fog) {
            p[s] = share.min(1.0);
        }
        return MineOdds { p };
    }
    for &s in &frontier {
        p[s] = e.mass[s] / e.total;
    }
    let q = e.interior_mass / e.total;
    for s in squares(fog & !frontier_set) {
        p[s] = q;
    }
    MineOdds { p }
}
