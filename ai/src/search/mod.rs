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
use super::game::{SearchGame, INF, MATE, MATE_BOUND};
use super::tt::{Bound, Tt};

mod negamax;

use negamax::{to_tt, Searcher};

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
    /// Which of the search's refinements are on ([`Features::ALL`] but in comparisons).
    pub features: Features,
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
            features: Features::ALL,
        }
    }
}

/// The refinements of the search added after the reference search (commit dc245c6), each of
/// which can be switched off, so that the match runner can play the current search against
/// the reference one at the same speed (`takhte match chess --white 6 --black 6ref`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Late-move reductions that grow with the logarithms of the depth and of the move's
    /// number (the reference reduced by one to three plies), less for moves with a good
    /// history.
    pub log_reductions: bool,
    /// Late-move pruning: near the leaves, quiet moves after the first few are not searched;
    /// and no pruning of quiet moves (late-move or futility) skips a move that gives check.
    pub late_move_pruning: bool,
    /// History with a malus for the quiet moves searched before the one that refuted the node,
    /// and a bounded ("gravity") update instead of a sum that saturates.
    pub history_malus: bool,
    /// A null-move reduction that also grows with how far the evaluation is above beta.
    pub eval_null_reduction: bool,
    /// Contempt: a draw (repetition, or by the rules) is worth a little less than nothing to
    /// the side the search plays for, as much as the game asks
    /// ([`crate::game::SearchGame::contempt`]; minesweeper chess only). Off at every level.
    pub contempt: bool,
    /// Internal iterative reduction: a node of four plies or more whose position the table
    /// does not know (no move to try first) is searched one ply shallower.
    pub iir: bool,
    /// The "improving" test: where the side to move's evaluation has not risen since its last
    /// move, late-move pruning keeps fewer quiet moves (3 + depth² instead of 3 + 2·depth²);
    /// where it has, reverse futility asks a smaller margin (70 less).
    pub improving: bool,
    /// Aspiration windows: from depth 5 on, each iteration first searches the root in a window
    /// of ±30 around the last iteration's score, widened (three times as wide, then to the
    /// whole range) when the score falls outside it.
    pub aspiration: bool,
    /// The table's score as the static evaluation: where the table holds a score for the node
    /// whose bound says the true value lies beyond the evaluation on that side (or is exact),
    /// reverse futility, the null move and futility pruning start from that score.
    pub tt_eval: bool,
    /// Pruning by static exchange near the leaves: in a node of at most four plies, outside
    /// the principal variation and not in check, a later move whose exchange loses more than
    /// 120 a ply (a capture) or 50 times the depth squared (a quiet move) is not searched,
    /// unless it gives check.
    pub see_pruning: bool,
    /// Singular extensions: in a node of seven plies or more whose table entry holds a lower
    /// bound (or an exact score) from at most three plies shallower, the table's move is
    /// searched one ply deeper when every other move, searched to half the depth, stays below
    /// that score less twice the depth; where the others reach beta all the same, the node is
    /// cut at once (multi-cut).
    pub singular: bool,
    /// Chess with the tuned numbers: the piece-square corrections fitted on top of them
    /// ([`crate::chess::squares`]); off, the tuned numbers alone.
    pub squares: bool,
    /// Chess with the tuned numbers and the piece-square corrections: the neural correction
    /// on top of them ([`crate::chess::net`]).
    pub net: bool,
    /// Evaluate with the hand-written numbers ([`crate::chess::params::HAND`],
    /// [`crate::draughts::params::HAND`]) instead of the tuned ones (for matches between the two;
    /// the reference search plays with them, as the top level did before the tuning).
    pub hand_eval: bool,
}

impl Features {
    /// The refinements levels 1–5 play with (level 6 adds internal iterative reduction,
    /// aspiration windows and the table's score as the evaluation, [`Features::TOP`]). `improving` is off everywhere: with both, chess level 6 scored
    /// 45.0% [36.9%, 53.1%] against itself without them. Contempt is off: in minesweeper chess
    /// it scored no better against the reference search than without it (docs/strength.md);
    /// the match runner's `6+…,contempt` plays with it.
    pub const ALL: Features = Features {
        log_reductions: true,
        late_move_pruning: true,
        history_malus: true,
        eval_null_reduction: true,
        contempt: false,
        iir: false,
        improving: false,
        aspiration: false,
        tt_eval: false,
        see_pruning: false,
        singular: false,
        squares: false,
        net: false,
        hand_eval: false,
    };
    /// Level 6 (chess, minesweeper chess, draughts): [`Features::ALL`], internal iterative
    /// reduction, aspiration windows, the table's score as the evaluation and (chess) the
    /// piece-square corrections. In 200 games at
    /// 100 ms a move: chess with iir against the same level without it scored 54.8% [49.3%,
    /// 60.2%], then with aspiration and the table's score too against that 59.2% [53.5%, 65.0%]
    /// (Elo +65 [+24, +108]); minesweeper chess against the reference search 56.0% [51.6%,
    /// 60.4%] with none of the three, 58.0% [53.6%, 62.4%] with iir, 66.5% [62.3%, 70.7%] with
    /// all three (docs/strength.md). Chess evaluates with the piece-square corrections too
    /// (`squares`): 57.0% [51.3%, 62.7%] (Elo +49 [+9, +90]) against the same level without
    /// them. The lower levels do without them: their ratings were measured without them.
    /// Pruning by static exchange stays off (chess 48.6% [40.5%, 56.6%] with it in 104 games).
    pub const TOP: Features = Features {
        squares: true,
        iir: true,
        aspiration: true,
        tt_eval: true,
        ..Features::ALL
    };
    /// Chess level 6: [`Features::TOP`], singular extensions, which scored 53.8% [48.4%,
    /// 59.1%] (Elo +26 [−11, +64]) against level 6 without them in 200 chess games at 100 ms a
    /// move (not measured in the other games, whose level 6 stays [`Features::TOP`]), and the
    /// neural correction of the evaluation ([`crate::chess::net`]), which scored 55.8% [50.6%,
    /// 60.9%] (Elo +40 [+4, +77]) against the same level without it in 200 games at 100 ms.
    pub const TOP_CHESS: Features = Features {
        singular: true,
        net: true,
        ..Features::TOP
    };
    /// None: the reference search, with the hand-written evaluation.
    pub const REFERENCE: Features = Features {
        log_reductions: false,
        late_move_pruning: false,
        history_malus: false,
        eval_null_reduction: false,
        contempt: false,
        iir: false,
        improving: false,
        aspiration: false,
        tt_eval: false,
        see_pruning: false,
        singular: false,
        squares: false,
        net: false,
        hand_eval: true,
    };
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
    /// How many moves singular extensions searched a ply deeper ([`Features::singular`]).
    pub singular_extensions: u64,
}

/// Whether a score is a forced win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
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
        features: limits.features,
        keys: vec![0; MAX_PLY + 1],
        evals: vec![INF; MAX_PLY + 1],
        excluded: vec![0; MAX_PLY + 1],
        singular_extensions: 0,
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
        let last = result.as_ref().map(|r| r.score).filter(|v| !is_mate(*v));
        let (best, done) = match last {
            Some(last) if s.features.aspiration && depth >= 5 && !exact_all => {
                aspirated(&mut s, root, &mut scored, depth, last)
            }
            _ => root_iteration(&mut s, root, &mut scored, depth, exact_all, -INF, INF),
        };
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
                    singular_extensions: 0,
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
            singular_extensions: 0,
        },
    };
    if limits.noise > 0 && !finished.is_empty() {
        let seed = limits.seed ^ game.key(root);
        let (mv, v) = noisy_choice(&finished, (found.best, found.score), limits.noise, seed);
        if mv != found.best {
            found.best = mv;
            found.score = v;
            found.pv = vec![mv];
        }
    }
    found.nodes = s.budget.nodes();
    found.singular_extensions = s.singular_extensions;
    Some(found)
}

/// An iteration at `depth` in aspiration windows ([`Features::aspiration`]): first ±30 around
/// `last` (the previous iteration's score), three times as wide each time the best score falls
/// outside the window, the whole range once the half-width passes 1,000. When the budget runs
/// out before a widened search has finished a move, the last attempt that did counts (a score
/// beyond its window is a bound, but its move is the one the search prefers).
fn aspirated<G: SearchGame>(
    s: &mut Searcher<'_, G>,
    root: &G::Pos,
    scored: &mut [(G::Mv, i32)],
    depth: i32,
    last: i32,
) -> (Option<(G::Mv, i32)>, usize) {
    let mut delta = 30;
    let mut kept: (Option<(G::Mv, i32)>, usize) = (None, 0);
    loop {
        let (lo, hi) = if delta > 1000 {
            (-INF, INF)
        } else {
            (last - delta, last + delta)
        };
        let attempt = root_iteration(s, root, scored, depth, false, lo, hi);
        if attempt.1 > 0 {
            kept = attempt;
        }
        let inside = kept.0.is_some_and(|(_, v)| v > lo && v < hi);
        if inside || s.budget.stopped() || (lo, hi) == (-INF, INF) {
            return kept;
        }
        delta *= 3;
    }
}

/// One iteration over the root moves at `depth` in the window `(lo, hi)` (the first move with
/// the whole window, the others with a null window unless every score must be exact): their
/// scores in `scored`, the best one, and how many were searched before the budget ran out.
fn root_iteration<G: SearchGame>(
    s: &mut Searcher<'_, G>,
    root: &G::Pos,
    scored: &mut [(G::Mv, i32)],
    depth: i32,
    exact_all: bool,
    lo: i32,
    hi: i32,
) -> (Option<(G::Mv, i32)>, usize) {
    let mut alpha = lo;
    let beta = hi;
    let mut best: Option<(G::Mv, i32)> = None;
    let mut done = 0;
    for i in 0..scored.len() {
        let mv = scored[i].0;
        let v = if exact_all || i == 0 {
            s.search_move(root, mv, depth - 1, lo, beta, 0, false)
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
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
            if v > alpha {
                alpha = v;
            }
        }
    }
    (best, done)
}

/// The lower levels' choice among the root moves of the last whole iteration: each score with
/// a random bonus up to `noise` (seeded), the best of those. Noise never turns a forced loss
/// into a choice, nor throws away a forced win.
fn noisy_choice<M: Copy>(
    finished: &[(M, i32)],
    found: (M, i32),
    noise: i32,
    seed: u64,
) -> (M, i32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = (found.0, found.1, i64::MIN);
    for &(mv, v) in finished {
        let bonus = rng.gen_range(0..=noise);
        let noisy = if is_mate(v) {
            v as i64 * 4
        } else {
            (v + bonus) as i64
        };
        if noisy > pick.2 {
            pick = (mv, v, noisy);
        }
    }
    (pick.0, pick.1)
}
