//! Fault points for the failure tests. With `TAKHTE_FAULT=POINT:N` the server aborts at once
//! (as `kill -9` would: no cleanup, nothing flushed) when its N-th move or roll reaches POINT:
//! `before-store` (applied, not written), `after-store` (written, nobody told) or
//! `before-publish` (written and told to this instance's connections, not yet to the other
//! instances). `TAKHTE_FAULT=panic:N` makes the N-th move panic while the hub's map of games is
//! locked (a bug in one request: the server must go on serving every other).
//! `TAKHTE_FAULT=stall:MS` is not a crash: every move waits MS milliseconds before it is
//! written, the game locked meanwhile (a store that is slow to answer). Without the variable
//! nothing happens.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Where in a move's path the fault strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// Applied to the copy of the game, not yet written.
    BeforeStore,
    /// Written to the store, not yet sent anywhere.
    AfterStore,
    /// Sent to this instance's connections, not yet published to the other instances.
    BeforePublish,
    /// Not a crash: a panic in the request, with a lock held.
    Panic,
    /// Not a crash: every move waits (the number is milliseconds) before it is written.
    Stall,
}

fn spec() -> Option<(Point, u64)> {
    static SPEC: OnceLock<Option<(Point, u64)>> = OnceLock::new();
    *SPEC.get_or_init(|| {
        let v = std::env::var("TAKHTE_FAULT").ok()?;
        let (p, n) = v.split_once(':')?;
        let point = match p {
            "stall" => Point::Stall,
            "before-store" => Point::BeforeStore,
            "after-store" => Point::AfterStore,
            "before-publish" => Point::BeforePublish,
            "panic" => Point::Panic,
            _ => return None,
        };
        Some((point, n.parse().ok()?))
    })
}

static MOVES: AtomicU64 = AtomicU64::new(0);

/// Marks that a request reached `point`; aborts the process if the fault is set there.
pub fn at(point: Point, is_move: bool) {
    if !is_move {
        return;
    }
    let Some((p, n)) = spec() else { return };
    if point == Point::BeforeStore {
        MOVES.fetch_add(1, Ordering::SeqCst);
    }
    if p == point && MOVES.load(Ordering::SeqCst) == n {
        eprintln!("takhte-server: fault {point:?} at move {n}: aborting");
        std::process::abort();
    }
}

/// How long this request waits before it is written (`stall:MS`; moves only).
pub fn stall(is_move: bool) -> Option<std::time::Duration> {
    match spec() {
        Some((Point::Stall, ms)) if is_move => Some(std::time::Duration::from_millis(ms)),
        _ => None,
    }
}

/// Whether this request (the current move, counted at [`Point::BeforeStore`]) is the one that
/// must panic.
pub fn panics(is_move: bool) -> bool {
    is_move && spec().is_some_and(|(p, n)| p == Point::Panic && MOVES.load(Ordering::SeqCst) == n)
}
