//! Negamax alpha-beta over any [`SearchGame`]: iterative deepening, principal-variation search,
//! a transposition table, null-move pruning, late-move reductions, check extensions and a
//! quiescence search; moves ordered by the table's move, captures (MVV-LVA, losing captures
//! last), two killer moves per ply and the history heuristic.
//!
//! A risky move (a landing on a fogged square of minesweeper chess) is a chance node with two
//! outcomes: the piece survives (searched normally) or is lost (searched by quiescence); its
//! score is the average weighted by the mine probability, with the window of the survival branch
//! narrowed so that alpha-beta stays exact at the node.
//!
//! The search stops when its [`Budget`] is spent (nodes, time, cancel flag); the result of the
//! last finished iteration (or of a partly finished one whose first move was searched) is kept.

#![allow(clippy::needless_range_loop)]

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::budget::Budget;
use super::game::{Quiet, SearchGame, INF, MATE, MATE_BOUND};
use super::tt::{Bound, Tt};

/// The deepest ply the search goes to (quiescence included).
pub const MAX_PLY: usize = 96;

/// How deep and how long to search, and how much noise to put on the choice at the root.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The last iteration of deepening, in plies.
    pub depth: i32,
    /// The node budget.
    pub nodes: u64,
    /// The time budget, if any.
    pub time: Option<Duration>,
    /// With a time budget: no new iteration begins after this share of it.
    pub soft_share: f64,
    /// Noise in centipawns: at the end each root move's score gets a seeded random bonus from
    /// 0 to this, and the best noisy score is played. 0 plays the best move.
    pub noise: i32,
    /// Seed of the noise.
    pub seed: u64,
}

impl Limits {
    /// A fixed-depth search with no noise and no other limit.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth,
            nodes: u64::MAX,
            time: None,
            soft_share: 0.5,
            noise: 0,
            seed: 0,
        }
    }
}

/// What one finished iteration found (for UCI `info` lines).
#[derive(Clone, Debug)]
pub struct Progress<M> {
    /// The depth just finished.
    pub depth: i32,
    /// The score of the best move, for the side to move.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Found<M> {
    /// The move to play.
    pub best: M,
    /// Its score for the side to move (without noise).
    pub score: i32,
    /// The last depth finished.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// Whether a score is a forced win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// Integer division rounding towards minus infinity.
fn div_floor(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

struct Searcher<'a, G: SearchGame> {
    game: &'a G,
    tt: &'a mut Tt,
    budget: Budget<'a>,
    keys: Vec<u64>,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    moves: Vec<Vec<G::Mv>>,
    order: Vec<Vec<i32>>,
}

impl<G: SearchGame> Searcher<'_, G> {
    /// Searches `mv` from `pos` (at `ply`) to `depth` more plies; the score is for the side to
    /// move at `pos`. Handles risky moves as chance nodes.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        pos: &G::Pos,
        mv: G::Mv,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        quiescence: bool,
    ) -> i32 {
        match self.game.risk(pos, mv) {
            None => {
                let child = self.game.play(pos, mv);
                -self.child(&child, depth, -beta, -alpha, ply + 1, quiescence)
            }
            Some(risk) => {
                let p = risk.permille.clamp(0, 1000) as i64;
                let lost = -self.quiescence(&risk.lost, -INF, INF, ply + 1) as i64;
                if p >= 1000 {
                    return lost as i32;
                }
                let q = 1000 - p;
                // The survival score s makes (q*s + p*lost)/1000 cross alpha or beta where:
                let a = (div_floor(alpha as i64 * 1000 - p * lost, q) - 1)
                    .clamp(-INF as i64, INF as i64);
                let b = (div_floor(beta as i64 * 1000 - p * lost, q) + 2)
                    .clamp(-INF as i64, INF as i64);
                let child = self.game.play(pos, mv);
                let s =
                    -self.child(&child, depth, -b as i32, -a as i32, ply + 1, quiescence) as i64;
                ((q * s + p * lost) / 1000) as i32
            }
        }
    }

    fn child(&mut self, pos: &G::Pos, depth: i32, alpha: i32, beta: i32, ply: i32, q: bool) -> i32 {
        if q || depth <= 0 {
            self.quiescence(pos, alpha, beta, ply)
        } else {
            self.negamax(pos, depth, alpha, beta, ply, true)
        }
    }

    fn set_key(&mut self, ply: i32, key: u64) {
        let p = ply as usize;
        if self.keys.len() <= p {
            self.keys.resize(p + 1, 0);
        }
        self.keys[p] = key;
    }

    /// Whether the position at `ply` repeats one earlier on the search path or in the game.
    fn repeated(&self, pos: &G::Pos, ply: i32) -> bool {
        let p = ply as usize;
        let key = self.keys[p];
        let back = self.game.reversible_plies(pos).min(p);
        let mut i = 2;
        while i <= back {
            if self.keys[p - i] == key {
                return true;
            }
            i += 2;
        }
        ply <= 4 && self.game.repeats_game(pos, ply)
    }

    fn take_buffers(&mut self, ply: i32) -> (Vec<G::Mv>, Vec<i32>) {
        let p = ply as usize;
        (
            std::mem::take(&mut self.moves[p]),
            std::mem::take(&mut self.order[p]),
        )
    }

    fn give_buffers(&mut self, ply: i32, moves: Vec<G::Mv>, order: Vec<i32>) {
        let p = ply as usize;
        self.moves[p] = moves;
        self.order[p] = order;
    }

    /// Scores the moves for ordering.
    fn score_moves(
        &self,
        pos: &G::Pos,
        moves: &[G::Mv],
        order: &mut Vec<i32>,
        tt_move: u32,
        ply: i32,
    ) {
        order.clear();
        let killers = self.killers[ply as usize];
        for &m in moves {
            let packed = self.game.pack(m);
            let s = if packed == tt_move {
                4_000_000
            } else if !self.game.is_quiet(pos, m) {
                let base = self.game.capture_order(pos, m);
                if self.game.see_at_least(pos, m, 0) {
                    2_000_000 + base
                } else {
                    -1_000_000 + base
                }
            } else if packed == killers[0] {
                1_500_000
            } else if packed == killers[1] {
                1_400_000
            } else {
                self.history[self.game.history_index(m)]
            };
            order.push(s);
        }
    }

    /// Picks the best remaining move at or after `i` and swaps it into place.
    fn pick(moves: &mut [G::Mv], order: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if order[j] > order[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        order.swap(i, best);
    }

    fn negamax(
        &mut self,
        pos: &G::Pos,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        allow_null: bool,
    ) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        let key = self.game.key(pos);
        self.set_key(ply, key);
        if let Some(s) = self.game.decided(pos, ply) {
            return s;
        }
        if ply > 0 && self.repeated(pos, ply) {
            return 0;
        }
        if ply as usize >= MAX_PLY - 8 {
            return self.game.evaluate(pos);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply);
        beta = beta.min(MATE - ply - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.game.in_check(pos);
        if in_check {
            depth += 1;
        }
        let pv_node = beta - alpha > 1;
        let mut tt_move = 0;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.mv;
            if !pv_node && hit.depth >= depth {
                let s = from_tt(hit.score, ply);
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let static_eval = if in_check {
            -INF
        } else {
            self.game.evaluate(pos)
        };
        if !pv_node && !in_check && !is_mate(beta) {
            // Reverse futility: far above beta at a shallow depth.
            if depth <= 3 && static_eval - 100 * depth >= beta {
                return static_eval;
            }
            // Null move.
            if allow_null && depth >= 3 && static_eval >= beta {
                if let Some(null) = self.game.null_move(pos) {
                    let r = 2 + depth / 4;
                    let v = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    if self.budget.stopped() {
                        return 0;
                    }
                    if v >= beta {
                        return if is_mate(v) { beta } else { v };
                    }
                }
            }
        }

        let (mut moves, mut order) = self.take_buffers(ply);
        self.game.generate(pos, &mut moves);
        if moves.is_empty() {
            self.give_buffers(ply, moves, order);
            return self.game.no_moves(pos, ply);
        }
        self.score_moves(pos, &moves, &mut order, tt_move, ply);

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = 0u32;
        let mut searched = 0;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut order, i);
            let mv = moves[i];
            let quiet = self.game.is_quiet(pos, mv);
            // Futility pruning of quiet moves near the leaves.
            if !pv_node
                && !in_check
                && quiet
                && searched > 0
                && depth <= 2
                && !is_mate(alpha)
                && static_eval + 120 * depth + 60 <= alpha
            {
                continue;
            }
            let mut v;
            if searched == 0 {
                v = self.search_move(pos, mv, depth - 1, alpha, beta, ply, false);
            } else {
                // Late-move reduction for quiet moves.
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && searched >= 3 {
                    r = 1 + (searched >= 8) as i32 + (depth >= 7) as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.min(depth - 2).max(0);
                }
                v = self.search_move(pos, mv, depth - 1 - r, alpha, alpha + 1, ply, false);
                if v > alpha && r > 0 {
                    v = self.search_move(pos, mv, depth - 1, alpha, alpha + 1, ply, false);
                }
                if v > alpha && v < beta {
                    v = self.search_move(pos, mv, depth - 1, alpha, beta, ply, false);
                }
            }
            if self.budget.stopped() {
                self.give_buffers(ply, moves, order);
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                best_move = self.game.pack(mv);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if quiet {
                            let k = &mut self.killers[ply as usize];
                            if k[0] != best_move {
                                k[1] = k[0];
                                k[0] = best_move;
                            }
                            let h = &mut self.history[self.game.history_index(mv)];
                            *h = (*h + depth * depth).min(1_000_000);
                        }
                        break;
                    }
                }
            }
        }
        self.give_buffers(ply, moves, order);
        if searched == 0 {
            // Every move was pruned: the static evaluation stands for this node.
            return static_eval;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    fn quiescence(&mut self, pos: &G::Pos, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        let key = self.game.key(pos);
        self.set_key(ply, key);
        if let Some(s) = self.game.decided(pos, ply) {
            return s;
        }
        if ply as usize >= MAX_PLY - 2 {
            return self.game.evaluate(pos);
        }
        let (mut moves, mut order) = self.take_buffers(ply);
        let mode = self.game.quiescence_moves(pos, &mut moves);
        let mut best = -INF;
        let mut stand = -INF;
        match mode {
            Quiet::Forced => {
                if moves.is_empty() {
                    self.give_buffers(ply, moves, order);
                    return self.game.no_moves(pos, ply);
                }
            }
            Quiet::StandPat => {
                stand = self.game.evaluate(pos);
                if stand >= beta || moves.is_empty() {
                    self.give_buffers(ply, moves, order);
                    return stand;
                }
                best = stand;
                alpha = alpha.max(stand);
            }
        }
        order.clear();
        for &m in moves.iter() {
            order.push(self.game.capture_order(pos, m));
        }
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut order, i);
            let mv = moves[i];
            if mode == Quiet::StandPat {
                // Delta pruning and losing captures.
                if stand + self.game.gain(pos, mv) + 200 <= alpha {
                    continue;
                }
                if !self.game.see_at_least(pos, mv, 0) {
                    continue;
                }
            }
            let v = self.search_move(pos, mv, 0, alpha, beta, ply, true);
            if self.budget.stopped() {
                self.give_buffers(ply, moves, order);
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.give_buffers(ply, moves, order);
        best
    }

    /// The principal variation from the table, at most `len` moves.
    fn pv(&self, root: &G::Pos, first: G::Mv, len: usize) -> Vec<G::Mv> {
        let mut pv = vec![first];
        let mut pos = self.game.play(root, first);
        let mut seen = vec![self.game.key(root)];
        let mut buf = Vec::new();
        while pv.len() < len {
            let key = self.game.key(&pos);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(hit) = self.tt.probe(key) else { break };
            self.game.generate(&pos, &mut buf);
            let Some(&m) = buf.iter().find(|&&m| self.game.pack(m) == hit.mv) else {
                break;
            };
            pv.push(m);
            pos = self.game.play(&pos, m);
        }
        pv
    }
}

/// Searches `root` within `limits`; `progress` is told about each finished iteration. `None`
/// when the side to move has no move. The table `tt` may carry knowledge from earlier searches.
pub fn search<G: SearchGame>(
    game: &G,
    root: &G::Pos,
    limits: &Limits,
    tt: &mut Tt,
    cancel: &std::sync::atomic::AtomicBool,
    progress: &mut dyn FnMut(&Progress<G::Mv>),
) -> Option<Found<G::Mv>> {
    let budget = Budget::new(limits.nodes, limits.time, limits.soft_share, cancel);
    tt.new_search();
    let mut s = Searcher {
        game,
        tt,
        budget,
        keys: vec![0; MAX_PLY + 1],
        killers: vec![[0, 0]; MAX_PLY + 1],
        history: vec![0; G::HISTORY_SIZE],
        moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
        order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
    };
    let mut root_moves = Vec::new();
    game.generate(root, &mut root_moves);
    if root_moves.is_empty() {
        return None;
    }
    s.set_key(0, game.key(root));
    // Root moves with their last scores; ordered by the previous iteration.
    let mut scored: Vec<(G::Mv, i32)> = root_moves.iter().map(|&m| (m, 0)).collect();
    {
        let mut order = Vec::new();
        let tt_move = s.tt.probe(game.key(root)).map_or(0, |h| h.mv);
        s.score_moves(root, &root_moves, &mut order, tt_move, 0);
        let mut idx: Vec<usize> = (0..root_moves.len()).collect();
        idx.sort_by_key(|&i| -order[i]);
        scored = idx.into_iter().map(|i| scored[i]).collect();
    }
    let exact_all = limits.noise > 0;
    let mut result: Option<Found<G::Mv>> = None;
    let mut finished: Vec<(G::Mv, i32)> = Vec::new();
    let single = scored.len() == 1;

    for depth in 1..=limits.depth.max(1) {
        if depth > 1 && !s.budget.may_deepen() {
            break;
        }
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<(G::Mv, i32)> = None;
        let mut done = 0;
        for i in 0..scored.len() {
            let mv = scored[i].0;
            let v = if exact_all || i == 0 {
                s.search_move(root, mv, depth - 1, -INF, beta, 0, false)
            } else {
                let mut v = s.search_move(root, mv, depth - 1, alpha, alpha + 1, 0, false);
                if v > alpha && !s.budget.stopped() {
                    v = s.search_move(root, mv, depth - 1, alpha, beta, 0, false);
                }
                v
            };
            if s.budget.stopped() {
                break;
            }
            done += 1;
            scored[i].1 = if exact_all || i == 0 || v > alpha {
                v
            } else {
                alpha - 1
            };
            if best.map_or(true, |(_, b)| v > b) {
                best = Some((mv, v));
                if v > alpha {
                    alpha = v;
                }
            }
        }
        let complete = done == scored.len();
        if let Some((mv, v)) = best {
            if complete || (!exact_all && done > 0) {
                let pv = s.pv(root, mv, depth as usize + 4);
                s.tt.store(s.keys[0], game.pack(mv), to_tt(v, 0), depth, Bound::Exact);
                result = Some(Found {
                    best: mv,
                    score: v,
                    depth,
                    nodes: s.budget.nodes(),
                    pv: pv.clone(),
                });
                progress(&Progress {
                    depth,
                    score: v,
                    nodes: s.budget.nodes(),
                    elapsed: s.budget.elapsed(),
                    pv,
                });
            }
        }
        if complete {
            finished = scored.clone();
            // Best first for the next iteration (stable: earlier order breaks ties).
            scored.sort_by_key(|&(_, v)| -v);
        }
        if !complete || single {
            break;
        }
        if let Some(r) = &result {
            if is_mate(r.score) && MATE - r.score.abs() <= depth {
                break;
            }
        }
    }
    let mut found = match result {
        Some(r) => r,
        None => Found {
            best: scored[0].0,
            score: 0,
            depth: 0,
            nodes: s.budget.nodes(),
            pv: vec![scored[0].0],
        },
    };
    if limits.noise > 0 && !finished.is_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(limits.seed ^ game.key(root));
        let mut pick = (found.best, found.score, i64::MIN);
        for &(mv, v) in &finished {
            let bonus = rng.gen_range(0..=limits.noise);
            // Noise never turns a forced loss into a choice, nor throws away a forced win.
            let noisy = if is_mate(v) {
                v as i64 * 4
            } else {
                (v + bonus) as i64
            };
            if noisy > pick.2 {
                pick = (mv, v, noisy);
            }
        }
        if pick.0 != found.best {
            found.best = pick.0;
            found.score = pick.1;
            found.pv = vec![pick.0];
        }
    }
    found.nodes = s.budget.nodes();
    Some(found)
}
