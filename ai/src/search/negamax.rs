//! The recursive part of the search: negamax with alpha-beta, the chance nodes of risky moves,
//! quiescence, move ordering (table move, captures by MVV-LVA with losing captures last,
//! killers, history) and the pruning (reverse futility, null move, futility, late-move
//! reductions).

#![allow(clippy::needless_range_loop)]

use super::super::budget::Budget;
use super::super::game::{Quiet, SearchGame, INF, MATE, MATE_BOUND};
use super::super::tt::{Bound, Hit, Tt};
use super::{is_mate, Features, MAX_PLY};

/// The bound of a history score (the gravity update keeps every score within it).
const HISTORY_MAX: i32 = 16_384;

/// The late-move reduction of the move numbered `searched` at `depth`: `0.75 + ln(depth) ·
/// ln(searched) / 2.25` plies (both taken up to 63), from a table made once.
fn log_reduction(depth: i32, searched: i32) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(TABLE[depth.clamp(1, 63) as usize][searched.clamp(1, 63) as usize])
}

pub(super) fn to_tt(score: i32, ply: i32) -> i32 {
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

/// What the move loop of a node needs from its start ([`Searcher::enter`]).
pub(super) struct Node {
    key: u64,
    /// The depth, one more in check.
    depth: i32,
    /// The window after mate-distance pruning.
    alpha: i32,
    beta: i32,
    in_check: bool,
    pv_node: bool,
    /// The evaluation (minus infinity in check).
    static_eval: i32,
    /// Whether the side to move stands better than at its last move ([`Features::improving`]).
    improving: bool,
    /// The table's entry for the node, if any.
    hit: Option<Hit>,
}

impl Node {
    /// The table's move for the node (0 for none): tried first.
    fn tt_move(&self) -> u32 {
        self.hit.map_or(0, |h| h.mv)
    }
}

pub(super) struct Searcher<'a, G: SearchGame> {
    pub(super) game: &'a G,
    pub(super) tt: &'a mut Tt,
    pub(super) budget: Budget<'a>,
    pub(super) features: Features,
    pub(super) keys: Vec<u64>,
    /// The static evaluation of each negamax node on the path by ply (minus infinity in
    /// check; infinity where unknown, as at the root), for the improving test.
    pub(super) evals: Vec<i32>,
    /// The move a singular-extension search leaves out at each ply (0 for none): the node is
    /// searched again without it, and neither reads its result from the table nor stores one.
    pub(super) excluded: Vec<u32>,
    /// How many moves singular extensions searched deeper.
    pub(super) singular_extensions: u64,
    pub(super) killers: Vec<[u32; 2]>,
    pub(super) history: Vec<i32>,
    pub(super) moves: Vec<Vec<G::Mv>>,
    pub(super) order: Vec<Vec<i32>>,
}

impl<G: SearchGame> Searcher<'_, G> {
    /// Searches `mv` from `pos` (at `ply`) to `depth` more plies; the score is for the side to
    /// move at `pos`. Handles risky moves as chance nodes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_move(
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

    pub(super) fn set_key(&mut self, ply: i32, key: u64) {
        let p = ply as usize;
        if self.keys.len() <= p {
            self.keys.resize(p + 1, 0);
        }
        self.keys[p] = key;
    }

    /// Whether the position at `ply` repeats one earlier on the search path or in the game.
    /// What a draw `ply` plies into the search is worth to the side to move there: with the
    /// contempt refinement, the game's [`SearchGame::contempt`] below nothing for the side the
    /// search plays for (the root's side moves at even plies) and as much above it for the
    /// other; else 0.
    fn draw_at(&self, ply: i32) -> i32 {
        let c = if self.features.contempt {
            self.game.contempt()
        } else {
            0
        };
        if ply % 2 == 0 {
            -c
        } else {
            c
        }
    }

    /// A score of the rules' verdict (a decided position, or no moves): a draw (0) valued as
    /// [`Self::draw_at`] says, a win or loss as it is.
    fn verdict(&self, score: i32, ply: i32) -> i32 {
        if score == 0 {
            self.draw_at(ply)
        } else {
            score
        }
    }

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
    pub(super) fn score_moves(
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

    /// The start of a node: the budget, the rules' verdicts, repetitions, mate-distance
    /// pruning, the table, and the pruning before any move (reverse futility, null move).
    /// Either the node's score, or what its move loop needs.
    fn enter(
        &mut self,
        pos: &G::Pos,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        allow_null: bool,
    ) -> Result<Node, i32> {
        if self.budget.tick() {
            return Err(0);
        }
        let key = self.game.key(pos);
        self.set_key(ply, key);
        if let Some(s) = self.game.decided(pos, ply) {
            return Err(self.verdict(s, ply));
        }
        if ply > 0 && self.repeated(pos, ply) {
            return Err(self.draw_at(ply));
        }
        if ply as usize >= MAX_PLY - 8 {
            return Err(self.game.evaluate(pos));
        }
        // Mate-distance pruning.
        let alpha = alpha.max(-MATE + ply);
        let beta = beta.min(MATE - ply - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        let in_check = self.game.in_check(pos);
        let depth = if in_check { depth + 1 } else { depth };
        let pv_node = beta - alpha > 1;
        let excluding = self.excluded[ply as usize] != 0;
        let hit = self.tt.probe(key);
        let tt_move = hit.map_or(0, |h| h.mv);
        if let Some(hit) = hit {
            if !pv_node && !excluding && hit.depth >= depth {
                let s = from_tt(hit.score, ply);
                if hit.bound.settles(s, alpha, beta) {
                    return Err(s);
                }
            }
        }
        let evaluation = if in_check {
            -INF
        } else {
            self.game.evaluate(pos)
        };
        self.evals[ply as usize] = evaluation;
        let improving = self.improving(ply, evaluation);
        let static_eval = match hit {
            Some(hit) if self.features.tt_eval && !in_check => {
                let s = from_tt(hit.score, ply);
                let beyond = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > evaluation,
                    Bound::Upper => s < evaluation,
                };
                if beyond && !is_mate(s) {
                    s
                } else {
                    evaluation
                }
            }
            _ => evaluation,
        };
        if !pv_node && !in_check && !excluding && !is_mate(beta) {
            // Reverse futility: far above beta at a shallow depth.
            let margin = 100 * depth - if improving { 70 } else { 0 };
            if depth <= 3 && static_eval - margin >= beta {
                return Err(static_eval);
            }
            // Null move.
            if allow_null && depth >= 3 && static_eval >= beta {
                if let Some(null) = self.game.null_move(pos) {
                    let mut r = 2 + depth / 4;
                    if self.features.eval_null_reduction {
                        r += ((static_eval - beta) / 200).min(2);
                    }
                    let v = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    if self.budget.stopped() {
                        return Err(0);
                    }
                    if v >= beta {
                        return Err(if is_mate(v) { beta } else { v });
                    }
                }
            }
        }
        // Internal iterative reduction: nothing to try first, so a shallower search.
        let depth = if self.features.iir && depth >= 4 && tt_move == 0 && !in_check && !excluding {
            depth - 1
        } else {
            depth
        };
        Ok(Node {
            key,
            depth,
            alpha,
            beta,
            in_check,
            pv_node,
            static_eval,
            improving,
            hit,
        })
    }

    /// The extension of the table's move `packed` at node `n` ([`Features::singular`]): 1 when
    /// it is singular, else 0; `Err(score)` when the other moves alone refute the node (or the
    /// budget ran out, with 0).
    fn singular_extension(
        &mut self,
        pos: &G::Pos,
        n: &Node,
        packed: u32,
        ply: i32,
    ) -> Result<i32, i32> {
        let p = ply as usize;
        let Some(hit) = n.hit else { return Ok(0) };
        if !self.features.singular
            || ply == 0
            || packed != n.tt_move()
            || n.depth < 7
            || self.excluded[p] != 0
            || hit.depth < n.depth - 3
            || hit.bound == Bound::Upper
        {
            return Ok(0);
        }
        let tt_score = from_tt(hit.score, ply);
        if is_mate(tt_score) {
            return Ok(0);
        }
        let singular_beta = tt_score - 2 * n.depth;
        self.excluded[p] = packed;
        let v = self.negamax(
            pos,
            (n.depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
        );
        self.excluded[p] = 0;
        if self.budget.stopped() {
            Err(0)
        } else if v < singular_beta {
            self.singular_extensions += 1;
            Ok(1)
        } else if singular_beta >= n.beta {
            Err(singular_beta)
        } else {
            Ok(0)
        }
    }

    /// How many plies less a late quiet move is searched at first.
    fn reduction(&self, n: &Node, searched: i32, quiet: bool, history: i32) -> i32 {
        if n.depth < 3 || !quiet || n.in_check || searched < 3 {
            return 0;
        }
        let mut r = if self.features.log_reductions {
            log_reduction(n.depth, searched) - (history > HISTORY_MAX / 2) as i32
        } else {
            1 + (searched >= 8) as i32 + (n.depth >= 7) as i32
        };
        if n.pv_node {
            r -= 1;
        }
        r.min(n.depth - 2).max(0)
    }

    /// Whether a move that pruning would skip is searched all the same: with the refinements
    /// on, a move that gives check (a quiet mate is a late quiet move too).
    fn spared(&self, pos: &G::Pos, mv: G::Mv) -> bool {
        self.features.late_move_pruning && self.game.in_check(&self.game.play(pos, mv))
    }

    /// Whether late-move pruning skips the quiet moves from number `searched` on, at `depth`.
    fn late_move_pruned(&self, n: &Node, searched: i32, depth: i32) -> bool {
        let per_depth = if self.features.improving && !n.improving {
            1
        } else {
            2
        };
        self.features.late_move_pruning
            && !n.pv_node
            && !n.in_check
            && depth <= 3
            && searched >= 3 + per_depth * depth * depth
    }

    /// With [`Features::improving`], whether the side to move at `ply` evaluates higher than at
    /// its previous move (two plies back, or four if it was in check then; true where neither
    /// is known). Never in check.
    fn improving(&self, ply: i32, static_eval: i32) -> bool {
        if !self.features.improving || static_eval == -INF {
            return false;
        }
        let p = ply as usize;
        let before = |back: usize| {
            p.checked_sub(back)
                .map(|q| self.evals[q])
                .filter(|&e| e != -INF && e != INF)
        };
        match before(2).or_else(|| before(4)) {
            Some(e) => static_eval > e,
            None => true,
        }
    }

    /// A quiet move that refuted the node: a killer of its ply, and its history grows; the
    /// quiet moves searched before it (`tried`) lose some of theirs.
    fn remember_cutoff(&mut self, mv: G::Mv, packed: u32, depth: i32, ply: i32, tried: &[usize]) {
        let k = &mut self.killers[ply as usize];
        if k[0] != packed {
            k[1] = k[0];
            k[0] = packed;
        }
        let index = self.game.history_index(mv);
        if !self.features.history_malus {
            let h = &mut self.history[index];
            *h = (*h + depth * depth).min(1_000_000);
            return;
        }
        let bonus = (depth * depth).min(400);
        let gravity = |h: &mut i32, change: i32| {
            *h += change - *h * change.abs() / HISTORY_MAX;
        };
        gravity(&mut self.history[index], bonus);
        for &t in tried {
            gravity(&mut self.history[t], -bonus);
        }
    }

    fn negamax(
        &mut self,
        pos: &G::Pos,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        allow_null: bool,
    ) -> i32 {
        let n = match self.enter(pos, depth, alpha, beta, ply, allow_null) {
            Ok(n) => n,
            Err(score) => return score,
        };
        let (depth, mut alpha, beta) = (n.depth, n.alpha, n.beta);
        let (mut moves, mut order) = self.take_buffers(ply);
        self.game.generate(pos, &mut moves);
        if moves.is_empty() {
            self.give_buffers(ply, moves, order);
            return self.verdict(self.game.no_moves(pos, ply), ply);
        }
        self.score_moves(pos, &moves, &mut order, n.tt_move(), ply);

        let mut best = -INF;
        let mut best_move = 0u32;
        let mut searched = 0;
        // The history slots of the quiet moves searched so far (for the malus at a cutoff).
        let mut tried = [0usize; 64];
        let mut tried_len = 0;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut order, i);
            let mv = moves[i];
            let packed = self.game.pack(mv);
            if packed == self.excluded[ply as usize] {
                continue;
            }
            let extension = match self.singular_extension(pos, &n, packed, ply) {
                Ok(e) => e,
                Err(score) => {
                    self.give_buffers(ply, moves, order);
                    return score;
                }
            };
            let quiet = self.game.is_quiet(pos, mv);
            let late = quiet && searched > 0 && self.late_move_pruned(&n, searched, depth);
            // Futility pruning of quiet moves near the leaves.
            let futile = !n.pv_node
                && !n.in_check
                && quiet
                && searched > 0
                && depth <= 2
                && n.static_eval + 120 * depth + 60 <= alpha;
            let skipped = late || futile;
            let losing = self.features.see_pruning
                && !skipped
                && !n.pv_node
                && !n.in_check
                && searched > 0
                && depth <= 4
                && !self.game.see_at_least(
                    pos,
                    mv,
                    if quiet {
                        -50 * depth * depth
                    } else {
                        -120 * depth
                    },
                );
            if (skipped || losing) && !is_mate(alpha) && !self.spared(pos, mv) {
                continue;
            }
            let mut v;
            if searched == 0 {
                v = self.search_move(pos, mv, depth - 1 + extension, alpha, beta, ply, false);
            } else {
                // Late-move reduction for quiet moves, then a null window, then the full one.
                let history = if quiet {
                    self.history[self.game.history_index(mv)]
                } else {
                    0
                };
                let r = self.reduction(&n, searched, quiet, history);
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
                best_move = packed;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if quiet {
                            let tried = &tried[..tried_len];
                            self.remember_cutoff(mv, best_move, depth, ply, tried);
                        }
                        break;
                    }
                }
            }
            if quiet && tried_len < tried.len() {
                tried[tried_len] = self.game.history_index(mv);
                tried_len += 1;
            }
        }
        self.give_buffers(ply, moves, order);
        if searched == 0 {
            if self.excluded[ply as usize] != 0 {
                // The left-out move is all there is (or the rest fell below alpha): it is
                // singular.
                return n.alpha;
            }
            // Every move was pruned: the static evaluation stands for this node.
            return n.static_eval;
        }
        if self.excluded[ply as usize] == 0 {
            let bound = Bound::of(best, n.alpha, beta);
            self.tt
                .store(n.key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    fn quiescence(&mut self, pos: &G::Pos, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        let key = self.game.key(pos);
        self.set_key(ply, key);
        if let Some(s) = self.game.decided(pos, ply) {
            return self.verdict(s, ply);
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
                    return self.verdict(self.game.no_moves(pos, ply), ply);
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
    pub(super) fn pv(&self, root: &G::Pos, first: G::Mv, len: usize) -> Vec<G::Mv> {
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
