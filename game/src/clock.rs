//! Chess clocks with increment. Time is an input (`Instant`), so tests drive it by hand.

use web_time::Instant;

use takhte_rules::Side;

/// A time control: minutes for the game plus an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Time for the whole game per side, in milliseconds.
    pub base_ms: u64,
    /// Time added after each of a side's moves, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// A control of `minutes` plus `increment_s` seconds a move.
    pub const fn new(minutes: u64, increment_s: u64) -> TimeControl {
        TimeControl {
            base_ms: minutes * 60_000,
            increment_ms: increment_s * 1000,
        }
    }

    /// The presets offered in the new-game screen: 1+0, 3+2, 5+0, 10+0, 10+5, 15+10, 30+0.
    pub const PRESETS: [TimeControl; 7] = [
        TimeControl::new(1, 0),
        TimeControl::new(3, 2),
        TimeControl::new(5, 0),
        TimeControl::new(10, 0),
        TimeControl::new(10, 5),
        TimeControl::new(15, 10),
        TimeControl::new(30, 0),
    ];

    /// The short name, e.g. `3+2`.
    pub fn label(&self) -> String {
        format!("{}+{}", self.base_ms / 60_000, self.increment_ms / 1000)
    }
}

/// Two clocks, at most one running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    remaining: [u64; 2],
    running: Option<(Side, Instant)>,
}

impl Clock {
    /// Both sides at the full time, stopped.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: [control.base_ms; 2],
            running: None,
        }
    }

    /// A clock with the given times left (from a saved game), stopped.
    pub fn with_remaining(control: TimeControl, white_ms: u64, black_ms: u64) -> Clock {
        Clock {
            control,
            remaining: [white_ms, black_ms],
            running: None,
        }
    }

    /// Milliseconds left for `side` at `now`.
    pub fn remaining(&self, side: Side, now: Instant) -> u64 {
        let base = self.remaining[side.index()];
        match self.running {
            Some((s, since)) if s == side => {
                base.saturating_sub(now.saturating_duration_since(since).as_millis() as u64)
            }
            _ => base,
        }
    }

    /// The side whose clock runs, if any.
    pub fn running_side(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// Starts `side`'s clock (stopping the other).
    pub fn start(&mut self, side: Side, now: Instant) {
        self.pause(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock, keeping the time used.
    pub fn pause(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            self.running = None;
        }
    }

    /// After `mover` completed a move: stop its clock, add the increment, start the opponent's.
    pub fn after_move(&mut self, mover: Side, now: Instant) {
        self.pause(now);
        if self.remaining[mover.index()] > 0 {
            self.remaining[mover.index()] =
                self.remaining[mover.index()].saturating_add(self.control.increment_ms);
        }
        self.running = Some((mover.opponent(), now));
    }

    /// The side whose time has run out, if any.
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        [Side::White, Side::Black]
            .into_iter()
            .find(|&s| self.remaining(s, now) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn clock_runs_for_one_side_and_adds_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::new(3, 2));
        c.start(Side::White, t0);
        assert_eq!(
            c.remaining(Side::White, t0 + Duration::from_secs(10)),
            170_000
        );
        c.after_move(Side::White, t0 + Duration::from_secs(10));
        assert_eq!(
            c.remaining(Side::White, t0 + Duration::from_secs(20)),
            172_000
        );
        assert_eq!(
            c.remaining(Side::Black, t0 + Duration::from_secs(20)),
            170_000
        );
        c.pause(t0 + Duration::from_secs(20));
        assert_eq!(
            c.remaining(Side::Black, t0 + Duration::from_secs(500)),
            170_000
        );
        c.start(Side::Black, t0 + Duration::from_secs(500));
        assert_eq!(c.flagged(t0 + Duration::from_secs(669)), None);
        assert_eq!(c.flagged(t0 + Duration::from_secs(670)), Some(Side::Black));
    }

    #[test]
    fn presets_are_the_issue_list() {
        let labels: Vec<String> = TimeControl::PRESETS.iter().map(|t| t.label()).collect();
        assert_eq!(
            labels,
            ["1+0", "3+2", "5+0", "10+0", "10+5", "15+10", "30+0"]
        );
    }
}
