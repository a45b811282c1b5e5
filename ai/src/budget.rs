//! When a search must stop: a node budget, a time budget and a cancel flag set from another
//! thread.
//!
//! A node budget makes a search reproducible (the same nodes are searched on every machine); a
//! time budget does not. The flag is read every few thousand nodes, so a cancelled search
//! returns within a millisecond or so.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// How often (in nodes) the clock and the flag are read.
const POLL: u64 = 1024;

/// The limits of one search and the running count against them.
pub struct Budget<'a> {
    start: Instant,
    /// Stop when this instant has passed.
    hard: Option<Instant>,
    /// Do not begin a new iteration after this instant.
    soft: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    cancel: &'a AtomicBool,
    stopped: bool,
}

impl<'a> Budget<'a> {
    /// A budget of at most `max_nodes` nodes and, when `time` is given, that long (a new
    /// iteration of deepening is not begun after `soft_share` of it has passed). `cancel` stops
    /// the search as soon as it is set.
    pub fn new(
        max_nodes: u64,
        time: Option<Duration>,
        soft_share: f64,
        cancel: &'a AtomicBool,
    ) -> Budget<'a> {
        let start = Instant::now();
        Budget {
            start,
            hard: time.map(|t| start + t),
            soft: time.map(|t| start + t.mul_f64(soft_share.clamp(0.0, 1.0))),
            max_nodes: max_nodes.max(1),
            nodes: 0,
            cancel,
            stopped: false,
        }
    }

    /// Counts one node; true when the search must stop now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(POLL) {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.cancel.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h) {
            self.stopped = true;
        }
    }

    /// Whether the search has been told to stop (budget spent, time up or cancelled).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether there is room to begin another iteration of deepening.
    pub fn may_deepen(&mut self) -> bool {
        self.poll();
        !self.stopped && self.soft.is_none_or(|s| Instant::now() < s)
    }

    /// The nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// The time a computer move may take when its side plays on a clock: at most `cap_ms` (the
/// app's usual time a move, so that a long game does not make the player wait longer), at most
/// a thirtieth of the time left plus three quarters of the increment, and never more than a
/// fifth of the time left; at least 20 ms, or what is left when that is less.
///
/// ```
/// use takhte_ai::budget::movetime_on_clock;
/// assert_eq!(movetime_on_clock(600_000, 0, 1000), 1000); // 10 minutes left: the usual second
/// assert_eq!(movetime_on_clock(15_000, 0, 1000), 500); // 15 s left: 0.5 s a move
/// assert_eq!(movetime_on_clock(3_000, 2_000, 1000), 600); // 3 s + 2 s increment: 0.6 s
/// assert_eq!(movetime_on_clock(10, 0, 1000), 10); // next to nothing left
/// ```
pub fn movetime_on_clock(left_ms: u64, increment_ms: u64, cap_ms: u64) -> u64 {
    let share = left_ms / 30 + increment_ms * 3 / 4;
    share.min(left_ms / 5).min(cap_ms).max(20.min(left_ms))
}
