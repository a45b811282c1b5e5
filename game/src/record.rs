//! Converting a game (session, mode, clock, die) to and from the store's plain record.

use std::sync::Arc;
use web_time::Instant;

use takhte_ai::Engine;
use takhte_rules::{GameKind, GameResult, Side};
use takhte_store::{ClockRecord, GameRecord, ModeRecord, Opponent as StoredOpponent, ResultRecord};

use super::clock::{Clock, TimeControl};
use super::controller::{side_word, Controller, Layout, Opponent, Randomness};
use super::session::{GameEnd, GameStart, Session, SessionError};

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Why a record could not become a game (the store reports it as damaged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A field holds a value this version does not know.
    Field(String),
    /// The start or the moves do not replay.
    Session(SessionError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Field(m) => write!(f, "{m}"),
            LoadError::Session(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The record of the controller's game, to be saved under `id`.
pub fn to_record(
    c: &Controller,
    id: &str,
    created_unix: u64,
    now_unix: u64,
    now: Instant,
) -> GameRecord {
    let s = c.session();
    let mode = match c.opponent() {
        Opponent::Computer { level, human } => ModeRecord {
            opponent: StoredOpponent::Computer,
            level: Some(level),
            human_side: Some(side_word(human).to_string()),
            layout: Some(c.layout().name().to_string()),
        },
        Opponent::PassAndPlay => ModeRecord {
            opponent: StoredOpponent::PassAndPlay,
            level: None,
            human_side: None,
            layout: Some(c.layout().name().to_string()),
        },
        Opponent::Online { me } => ModeRecord {
            opponent: StoredOpponent::Online,
            level: None,
            human_side: Some(side_word(me).to_string()),
            layout: None,
        },
        Opponent::Watching => ModeRecord {
            opponent: StoredOpponent::Online,
            level: None,
            human_side: None,
            layout: None,
        },
    };
    let mut rec = GameRecord::new(id, s.kind().name(), mode, created_unix);
    rec.start_position = s.start().position.clone();
    rec.seed = s.start().seed;
    rec.start_rolls = s.start().start_rolls.clone();
    rec.moves = s.moves().to_vec();
    rec.cursor = s.cursor();
    rec.clock = s.clock.as_ref().map(|clock| ClockRecord {
        base_ms: clock.control.base_ms,
        increment_ms: clock.control.increment_ms,
        white_ms: clock.remaining(Side::White, now),
        black_ms: clock.remaining(Side::Black, now),
        running: clock.running_side().is_some(),
    });
    rec.result = s.final_end().map(|e| ResultRecord {
        winner: match e.result() {
            Some(GameResult::Win(side)) => Some(side_word(side).to_string()),
            _ => None,
        },
        reason: e.reason().to_string(),
    });
    rec.pending_roll = c.rolled();
    if let [Some(white), Some(black)] = &s.names {
        rec.players = Some([white.clone(), black.clone()]);
    }
    rec.updated_unix = now_unix;
    rec
}

/// Rebuilds a game from its record: replays every move (a move that no longer replays is an
/// error), restores the clock times, the cursor, a pending die roll and a players' end.
/// The clocks start paused.
pub fn from_record(
    rec: &GameRecord,
    engine: Arc<dyn Engine>,
    random: Box<dyn Randomness>,
) -> Result<Controller, LoadError> {
    let kind = GameKind::parse(&rec.kind)
        .ok_or_else(|| LoadError::Field(format!("unknown game '{}'", rec.kind)))?;
    let start = GameStart {
        kind,
        position: rec.start_position.clone(),
        seed: rec.seed,
        start_rolls: rec.start_rolls.clone(),
    };
    let layout = rec
        .mode
        .layout
        .as_deref()
        .and_then(Layout::parse)
        .unwrap_or(Layout::Rotate);
    let opponent = match rec.mode.opponent {
        StoredOpponent::PassAndPlay => Opponent::PassAndPlay,
        StoredOpponent::Online => {
            return Err(LoadError::Field(
                "an online game is kept by its server, not resumed from a file".into(),
            ))
        }
        StoredOpponent::Computer => {
            let level = rec
                .mode
                .level
                .filter(|l| (1..=6).contains(l))
                .ok_or_else(|| LoadError::Field("computer level missing or not 1-6".into()))?;
            let human = rec
                .mode
                .human_side
                .as_deref()
                .and_then(parse_side)
                .ok_or_else(|| LoadError::Field("human side missing".into()))?;
            Opponent::Computer { level, human }
        }
    };
    // Replay without the players' end first, to learn the final position.
    let mut session = Session::restore(start, rec.moves.clone(), rec.moves.len(), None)
        .map_err(LoadError::Session)?;
    let end = match &rec.result {
        None => None,
        Some(r) => {
            let result = match r.winner.as_deref() {
                None => GameResult::Draw,
                Some(w) => GameResult::Win(
                    parse_side(w)
                        .ok_or_else(|| LoadError::Field(format!("unknown winner '{w}'")))?,
                ),
            };
            if r.reason == "time-insufficient-material" {
                Some(GameEnd::Time {
                    loser: session.game().side_to_move(),
                    draw: true,
                })
            } else {
                GameEnd::from_parts(result, &r.reason)
            }
        }
    };
    if let Some(
        e @ (GameEnd::Resigned(_)
        | GameEnd::Agreed
        | GameEnd::Time { .. }
        | GameEnd::Abandoned(_)
        | GameEnd::Aborted),
    ) = end
    {
        session.finish(e);
    }
    session.go_to(rec.cursor);
    if let (Some(c), GameKind::Chess) = (&rec.clock, kind) {
        session.clock = Some(Clock::with_remaining(
            TimeControl {
                base_ms: c.base_ms,
                increment_ms: c.increment_ms,
            },
            c.white_ms,
            c.black_ms,
        ));
    }
    if let Some([white, black]) = &rec.players {
        session.names = [Some(white.clone()), Some(black.clone())];
    }
    let rolled = if rec.cursor == rec.moves.len() {
        rec.pending_roll
    } else {
        None
    };
    let mut c = Controller::from_session(session, opponent, layout, rolled, engine, random);
    // Behind the last move (after an undo): the next turn's face as it was played, never a
    // new roll.
    c.restore_undone_roll();
    Ok(c)
}

/// Saves a controller's game after every change, to one file; a failed write is reported on the
/// controller (`save_failed`, shown in the view) and tried again at the next change. The game in
/// memory is never touched by a failure.
pub struct Autosaver {
    store: takhte_store::Store,
    id: String,
    created_unix: u64,
    /// What was last played (moves, cursor, result, pending roll) and when: a save that
    /// changes none of it keeps that date, so that a game looked at, or only paused, does not
    /// move to the top of the saved games.
    played: std::sync::Mutex<Option<(Played, u64)>>,
}

/// The parts of a record that change when a game is played.
type Played = (Vec<String>, usize, Option<String>, Option<u8>);

fn played(rec: &takhte_store::GameRecord) -> Played {
    (
        rec.moves.clone(),
        rec.cursor,
        rec.result
            .as_ref()
            .map(|r| format!("{:?}:{}", r.winner, r.reason)),
        rec.pending_roll,
    )
}

impl Autosaver {
    /// Saves to `store` under a new id.
    pub fn new(store: takhte_store::Store, now_unix: u64) -> Autosaver {
        let id = store.new_id(now_unix);
        Autosaver {
            store,
            id,
            created_unix: now_unix,
            played: std::sync::Mutex::new(None),
        }
    }

    /// Saves a new game to `store` under the id `id` (the demo scenes' games).
    pub fn named(store: takhte_store::Store, id: String, created_unix: u64) -> Autosaver {
        Autosaver {
            store,
            id,
            created_unix,
            played: std::sync::Mutex::new(None),
        }
    }

    /// Saves to `store` under the id of the saved game `rec` (a resumed game): its date
    /// changes only when the game is played on.
    pub fn resume(store: takhte_store::Store, rec: &takhte_store::GameRecord) -> Autosaver {
        Autosaver {
            store,
            id: rec.id.clone(),
            created_unix: rec.created_unix,
            played: std::sync::Mutex::new(Some((played(rec), rec.updated_unix))),
        }
    }

    /// The game's id (its file name without `.json`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Saves if the controller changed (or the last save failed). Returns the error, if any.
    pub fn save_if_changed(&self, c: &mut Controller) -> Result<(), takhte_store::StoreError> {
        if !c.take_changed() && !c.save_failed {
            return Ok(());
        }
        self.save(c)
    }

    /// Saves now (also when the app is paused).
    pub fn save(&self, c: &mut Controller) -> Result<(), takhte_store::StoreError> {
        let mut rec = to_record(
            c,
            &self.id,
            self.created_unix,
            takhte_store::now_unix(),
            Instant::now(),
        );
        let now = played(&rec);
        let mut last = self.played.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((before, at)) = last.as_ref() {
            if *before == now {
                rec.updated_unix = *at;
            }
        }
        let result = self.store.save_game_with_retry(&rec, 3);
        c.save_failed = result.is_err();
        if result.is_ok() {
            *last = Some((now, rec.updated_unix));
        }
        result
    }
}

/// Adds a finished game to the statistics: against the computer from the human's side, in
/// pass-and-play from White's side. Returns false when the game has not ended, or was aborted (no result).
pub fn record_result(stats: &mut takhte_store::Stats, c: &Controller) -> bool {
    let Some(end) = c.session().end() else {
        return false;
    };
    let (mode, level, side) = match c.opponent() {
        Opponent::Computer { level, human } => ("computer", Some(level), human),
        Opponent::PassAndPlay => ("pass-and-play", None, Side::White),
        Opponent::Online { me } => ("online", None, me),
        // A spectator's games are not theirs to count.
        Opponent::Watching => return false,
    };
    let outcome = match end.result() {
        Some(GameResult::Draw) => takhte_store::StatOutcome::Draw,
        Some(GameResult::Win(w)) if w == side => takhte_store::StatOutcome::Win,
        Some(GameResult::Win(_)) => takhte_store::StatOutcome::Loss,
        // An aborted game has no result: it counts for nobody.
        None => return false,
    };
    stats.record(c.session().kind().name(), mode, level, outcome);
    true
}
