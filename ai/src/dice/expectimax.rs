//! Expectimax for dice chess with Star1 and Star2 pruning (Ballard 1983; Hauk, Buro and
//! Schaeffer 2004), in negamax form.
//!
//! A turn is a max node: each king move, or rolling. Rolling is a chance node over the six
//! equally likely faces; after a face comes another max node for the same player: that face's
//! pawn moves (or the empty roll: the turn passes, and in check that loses). Depth counts turns.
//!
//! Star1 narrows each face's window from the faces already searched and the bounds
//! `[-WIN, WIN]` of any value; Star2 first probes each face with its most promising move, whose
//! value is a lower bound for that face, cuts off when those bounds already reach beta, and
//! uses them in place of `-WIN` for the faces not yet searched. Results go into the
//! transposition table (turn nodes by their key, face nodes by their key and face).

#![allow(clippy::needless_range_loop)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::budget::Budget;
use super::super::search::Limits;
use super::super::tt::{Bound, Tt};
use super::super::zobrist::splitmix;
use super::board::{DMove, DiceBoard};
use super::eval::evaluate;

/// The score of a win (minus the plies to it).
pub const WIN: i32 = 10_000;
const INF: i32 = WIN + 1;
const MAX_PLY: i32 = 60;

/// What to do at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Move the king (no roll).
    King(DMove),
    /// Roll the die.
    Roll,
    /// After the roll: this pawn move.
    Pawn(DMove),
    /// After the roll: the face gives no move.
    Pass,
}

/// The decision and what the search knew about it.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The choice.
    pub choice: Choice,
    /// Its score for the side to move.
    pub score: i32,
    /// Turns searched.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

fn face_key(face: u8) -> u64 {
    splitmix(0xd1ce_0000 + face as u64)
}

#[derive(Default)]
struct PlyMoves {
    kings: Vec<DMove>,
    faces: [Vec<DMove>; 6],
}

/// What a draw is worth to the side the search plays for (the root's side to move): a little
/// less than nothing, so it plays on instead of trading down to bare kings.
const CONTEMPT: i32 = 40;

/// What each pawn on the board (either side's) is worth to the searching side: trading pawns
/// off brings the game closer to a draw (a lone king walks to the far first rank, where no
/// pawn can ever check it), and the searching side would rather keep chances to win.
const LIFE: i32 = 4;

struct Expectimax<'a> {
    tt: &'a mut Tt,
    budget: Budget<'a>,
    plies: Vec<PlyMoves>,
    /// The side the search plays for.
    root: usize,
}

fn distance(a: u8, b: u8) -> i32 {
    let (fa, ra, fb, rb) = (
        (a % 8) as i32,
        (a / 8) as i32,
        (b % 8) as i32,
        (b / 8) as i32,
    );
    (fa - fb).abs().max((ra - rb).abs())
}

/// Orders moves: the table's move, captures (nearest the own king first), checks, then moves
/// towards the enemy king.
fn order(b: &DiceBoard, moves: &mut [DMove], first: u32) {
    let ek = b.kings[1 - b.side];
    let ok = b.kings[b.side];
    moves.sort_by_cached_key(|&m| {
        let mut s = 0;
        if m.pack() == first {
            s += 100_000;
        }
        if b.is_capture(m) {
            s += 10_000 - 100 * distance(m.to, ok);
        }
        if b.gives_check(m) {
            s += 5_000;
        }
        s += 10 * (distance(m.from, ek) - distance(m.to, ek));
        -s
    });
}

impl Expectimax<'_> {
    /// The value of a draw for the side to move in `b`.
    fn draw(&self, b: &DiceBoard) -> i32 {
        if b.side == self.root {
            -CONTEMPT
        } else {
            CONTEMPT
        }
    }

    /// The static value of `b` for the side to move, with the searching side's wish to keep
    /// pawns on the board.
    fn leaf(&self, b: &DiceBoard) -> i32 {
        let pawns = (b.pawns[0] | b.pawns[1]).count_ones() as i32;
        let life = if b.side == self.root { LIFE } else { -LIFE } * pawns;
        evaluate(b) + life
    }

    fn take(&mut self, ply: i32) -> PlyMoves {
        std::mem::take(&mut self.plies[ply as usize])
    }

    fn give(&mut self, ply: i32, m: PlyMoves) {
        self.plies[ply as usize] = m;
    }

    /// A turn: king moves or rolling.
    fn turn(&mut self, b: &DiceBoard, mut depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        if b.dead_draw() {
            return self.draw(b);
        }
        let in_check = b.in_check();
        if !b.can_roll() && b.king_is_stuck() {
            // No pawns and no king move: checkmate or stalemate.
            return if in_check { -(WIN - ply) } else { self.draw(b) };
        }
        if depth <= 0 {
            // A side in check at the horizon: look one turn further.
            if in_check && ply < MAX_PLY {
                depth = 1;
            } else {
                return self.leaf(b);
            }
        }
        if ply >= MAX_PLY {
            return self.leaf(b);
        }
        let key = b.key();
        let mut first = 0;
        if let Some(hit) = self.tt.probe(key) {
            first = hit.mv;
            if hit.depth >= depth && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }
        let alpha0 = alpha;
        let mut pm = self.take(ply);
        pm.kings.clear();
        b.king_moves(&mut pm.kings);
        order(b, &mut pm.kings, first);
        let mut best = -INF;
        let mut best_move = 0;
        for i in 0..pm.kings.len() {
            let m = pm.kings[i];
            let v = -self.turn(&b.play(m), depth - 1, -beta, -alpha, ply + 1);
            if self.budget.stopped() {
                self.give(ply, pm);
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.pack();
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        let no_king_move = pm.kings.is_empty();
        if best < beta {
            if b.can_roll() {
                let (v, all_empty) = self.roll(b, &mut pm, depth, alpha, beta, ply);
                if self.budget.stopped() {
                    self.give(ply, pm);
                    return 0;
                }
                let v = if all_empty && no_king_move && !in_check {
                    self.draw(b)
                } else {
                    v
                };
                if v > best {
                    best = v;
                    best_move = 0;
                }
            } else if no_king_move {
                best = if in_check { -(WIN - ply) } else { self.draw(b) };
            }
        }
        self.give(ply, pm);
        self.tt
            .store(key, best_move, best, depth, Bound::of(best, alpha0, beta));
        best
    }

    /// The chance node of a roll. Returns the value and whether no face gives a pawn move.
    fn roll(
        &mut self,
        b: &DiceBoard,
        pm: &mut PlyMoves,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> (i32, bool) {
        let mut all_empty = true;
        for f in 0..6 {
            pm.faces[f].clear();
            b.pawn_moves(f as u8 + 1, &mut pm.faces[f]);
            if !pm.faces[f].is_empty() {
                all_empty = false;
            }
        }
        if all_empty {
            let v = if b.in_check() {
                -(WIN - ply)
            } else {
                -self.turn(&b.pass(), depth - 1, -beta, -alpha, ply + 1)
            };
            return (v, true);
        }
        let key = b.key();
        for f in 0..6 {
            let first = self
                .tt
                .probe(key ^ face_key(f as u8 + 1))
                .map_or(0, |h| h.mv);
            order(b, &mut pm.faces[f], first);
        }
        let (l, u) = (-WIN, WIN);
        // Star2: probe each face with its first move for a lower bound.
        let mut lo = [l; 6];
        if depth >= 2 {
            for f in 0..6 {
                lo[f] = match pm.faces[f].first() {
                    Some(&m) => -self.turn(&b.play(m), depth - 1, -INF, INF, ply + 1),
                    None if b.in_check() => -(WIN - ply),
                    None => -self.turn(&b.pass(), depth - 1, -INF, INF, ply + 1),
                };
                if self.budget.stopped() {
                    return (0, false);
                }
            }
            let s: i32 = lo.iter().sum();
            if s >= 6 * beta {
                return (s / 6, false);
            }
        }
        // Star1 over the faces, with the probes' lower bounds for the faces still to come.
        let mut sum = 0;
        let mut rest_lo: i32 = lo.iter().sum();
        for f in 0..6 {
            rest_lo -= lo[f];
            let remaining = 5 - f as i32;
            let a = 6 * alpha - sum - u * remaining;
            let bb = 6 * beta - sum - rest_lo;
            let moves = std::mem::take(&mut pm.faces[f]);
            let v = self.face(
                b,
                f as u8 + 1,
                &moves,
                depth,
                a.max(l - 1),
                bb.min(u + 1),
                ply,
            );
            pm.faces[f] = moves;
            if self.budget.stopped() {
                return (0, false);
            }
            if v <= a {
                return ((sum + v + u * remaining) / 6, false);
            }
            if v >= bb {
                return ((sum + v + rest_lo) / 6, false);
            }
            sum += v;
        }
        (sum / 6, false)
    }

    /// After rolling `face`: the best of its pawn moves (or the empty roll).
    #[allow(clippy::too_many_arguments)]
    fn face(
        &mut self,
        b: &DiceBoard,
        face: u8,
        moves: &[DMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if moves.is_empty() {
            return if b.in_check() {
                -(WIN - ply)
            } else {
                -self.turn(&b.pass(), depth - 1, -beta, -alpha, ply + 1)
            };
        }
        let key = b.key() ^ face_key(face);
        if let Some(hit) = self.tt.probe(key) {
            if hit.depth >= depth && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = 0;
        for &m in moves {
            let v = -self.turn(&b.play(m), depth - 1, -beta, -alpha, ply + 1);
            if self.budget.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.pack();
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        self.tt
            .store(key, best_move, best, depth, Bound::of(best, alpha0, beta));
        best
    }
}

/// Searches the root: before the roll (`rolled` None) the king moves against rolling, after it
/// that face's pawn moves. `None` when there is nothing to choose (the game is over).
///
/// `limits.depth` counts turns here, not plies.
///
/// `repeats` tells which king moves lead back to a position already seen in this game. Dice
/// chess has no repetition rule, but going round in circles makes no progress: such a move is
/// scored at most as a draw, so a side that stands better rolls or walks somewhere new instead
/// of shuffling its king for ever (a side that stands worse is not pushed away from it).
pub fn decide(
    b: &DiceBoard,
    rolled: Option<u8>,
    limits: &Limits,
    tt: &mut Tt,
    cancel: &std::sync::atomic::AtomicBool,
    repeats: &dyn Fn(DMove) -> bool,
) -> Option<Decision> {
    let options = root_choices(b, rolled);
    if options.is_empty() || b.only_kings() {
        return None;
    }
    tt.new_search();
    let budget = Budget::new(limits.nodes, limits.time, limits.soft_share, cancel);
    let mut x = Expectimax {
        tt,
        budget,
        plies: (0..=MAX_PLY as usize + 2)
            .map(|_| PlyMoves::default())
            .collect(),
        root: b.side,
    };
    let exact_all = limits.noise > 0;
    let mut finished: Vec<(Choice, i32)> = Vec::new();
    let mut best: Option<(Choice, i32, i32)> = None;
    let mut scored: Vec<(Choice, i32)> = options.iter().map(|&c| (c, 0)).collect();
    // Whether each king move goes back to a position seen before (asked once per move).
    let mut cyclic: Vec<u32> = Vec::new();
    for &c in &options {
        if let Choice::King(m) = c {
            if repeats(m) {
                cyclic.push(m.pack());
            }
        }
    }
    if scored.len() == 1 {
        return Some(Decision {
            choice: scored[0].0,
            score: 0,
            depth: 0,
            nodes: 0,
        });
    }
    for depth in 1..=limits.depth.max(1) {
        if depth > 1 && !x.budget.may_deepen() {
            break;
        }
        let (iter_best, complete) = x.root_iteration(b, &mut scored, &cyclic, depth, exact_all);
        if !complete {
            // An iteration cut short still counts when it searched the previous best move
            // (always searched first) in full: any move that beat it is exact and better. With
            // noise, the choice is made from the last complete iteration's scores instead.
            if !exact_all {
                if let Some((c, v)) = iter_best {
                    best = Some((c, v, depth));
                }
            }
            break;
        }
        if let Some((c, v)) = iter_best {
            best = Some((c, v, depth));
        }
        finished = scored.clone();
        scored.sort_by_key(|&(_, v)| -v);
        if best.is_some_and(|(_, v, _)| v.abs() >= WIN - MAX_PLY) {
            break;
        }
    }
    let nodes = x.budget.nodes();
    let (mut choice, mut score, depth) = best.unwrap_or((scored[0].0, 0, 0));
    if limits.noise > 0 && !finished.is_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(limits.seed ^ b.key() ^ rolled.unwrap_or(0) as u64);
        let mut top = i64::MIN;
        for &(c, v) in &finished {
            let bonus = rng.gen_range(0..=limits.noise);
            let noisy = if v.abs() >= WIN - MAX_PLY {
                v as i64 * 4
            } else {
                (v + bonus) as i64
            };
            if noisy > top {
                top = noisy;
                choice = c;
                score = v;
            }
        }
    }
    Some(Decision {
        choice,
        score,
        depth,
        nodes,
    })
}

/// What may be chosen at the root: before the roll the king moves and rolling, after it that
/// face's pawn moves (or passing when there is none), in a first order.
fn root_choices(b: &DiceBoard, rolled: Option<u8>) -> Vec<Choice> {
    let mut options: Vec<Choice> = Vec::new();
    match rolled {
        None => {
            let mut kings = Vec::new();
            b.king_moves(&mut kings);
            order(b, &mut kings, 0);
            options.extend(kings.into_iter().map(Choice::King));
            if b.can_roll() {
                options.push(Choice::Roll);
            }
        }
        Some(face) => {
            let mut moves = Vec::new();
            b.pawn_moves(face, &mut moves);
            order(b, &mut moves, 0);
            options.extend(moves.into_iter().map(Choice::Pawn));
            if options.is_empty() {
                options.push(Choice::Pass);
            }
        }
    }
    options
}

impl Expectimax<'_> {
    /// One iteration over the root's choices at `depth` turns: their scores in `scored`, the
    /// best one, and whether every choice was searched before the budget ran out. King moves
    /// back to a position seen before (`cyclic`) are worth a draw at most.
    fn root_iteration(
        &mut self,
        b: &DiceBoard,
        scored: &mut [(Choice, i32)],
        cyclic: &[u32],
        depth: i32,
        exact_all: bool,
    ) -> (Option<(Choice, i32)>, bool) {
        let mut alpha = -INF;
        let mut iter_best: Option<(Choice, i32)> = None;
        for i in 0..scored.len() {
            let a = if exact_all { -INF } else { alpha };
            let c = scored[i].0;
            let v = match c {
                Choice::King(m) if cyclic.contains(&m.pack()) => {
                    // Searched in full: its value is only capped, not replaced.
                    (-self.turn(&b.play(m), depth - 1, -INF, INF, 1)).min(-CONTEMPT)
                }
                Choice::King(m) | Choice::Pawn(m) => -self.turn(&b.play(m), depth - 1, -INF, -a, 1),
                Choice::Roll => {
                    let mut pm = PlyMoves::default();
                    let (v, _) = self.roll(b, &mut pm, depth, a, INF, 0);
                    v
                }
                Choice::Pass => -self.turn(&b.pass(), depth - 1, -INF, INF, 1),
            };
            if self.budget.stopped() {
                return (iter_best, false);
            }
            scored[i].1 = v;
            if iter_best.is_none_or(|(_, s)| v > s) {
                iter_best = Some((c, v));
                alpha = alpha.max(v);
            }
        }
        (iter_best, true)
    }
}
