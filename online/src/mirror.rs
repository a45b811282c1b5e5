//! The client's copy of an online game: built from the server's [`GameState`] and kept up to
//! date by its numbered [`GameEvent`]s. The app's board and the headless bots both read it.
//!
//! Events come in order; one already seen is ignored, and one that skips a number is a
//! [`MirrorError::Gap`]: the client then asks for the whole state again. The positions are the
//! server's public texts, so a minesweeper chess mirror never knows a hidden mine (its
//! positions are stand-ins, see [`takhte_protocol::public`]).

use web_time::Instant;

use takhte_game::{GameEnd, GameStart, OnlineState, TimeControl};
use takhte_rules::{AnyGame, GameKind, GameResult, PositionError, Side};

use takhte_protocol::public::{game_from_public, public_text};
use takhte_protocol::{ClockSpec, ClockState, Crowd, EndState, GameEvent, GameState, SeatView};

/// Why an event or a state could not be taken in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MirrorError {
    /// An event skipped a number: the whole state is needed.
    Gap {
        /// The number expected next.
        expected: u64,
        /// The number that came.
        got: u64,
    },
    /// A position text did not read.
    Position(PositionError),
    /// The event does not fit the game (another ply, a move that does not give the position).
    Mismatch(String),
}

impl std::fmt::Display for MirrorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MirrorError::Gap { expected, got } => {
                write!(f, "event {got} came while {expected} was expected")
            }
            MirrorError::Position(e) => write!(f, "{e}"),
            MirrorError::Mismatch(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for MirrorError {}

/// The client's copy of one online game.
#[derive(Clone, Debug)]
pub struct Mirror {
    /// The invite code.
    pub code: String,
    /// The number of the last event taken in.
    pub seq: u64,
    /// Which game.
    pub kind: GameKind,
    /// The time control.
    pub clock: Option<ClockSpec>,
    /// Listed in the lobby.
    pub public: bool,
    /// White's and Black's seats.
    pub seats: [SeatView; 2],
    /// This client's seat, if it plays.
    pub you: Option<Side>,
    /// Dice chess start rolls.
    pub start_rolls: Vec<(u8, u8)>,
    /// The moves, machine notation.
    pub moves: Vec<String>,
    /// The first position and the position after each move.
    pub positions: Vec<AnyGame>,
    /// The position now, with its history where the moves can be replayed here (every game
    /// but minesweeper chess, whose mines only the server knows).
    current: AnyGame,
    /// Dice chess: the face rolled for this turn.
    pub rolled: Option<u8>,
    /// The clocks as last told, and when that was (local time).
    pub clocks: Option<(ClockState, Instant)>,
    /// A draw offer waiting, by this side.
    pub draw_offer: Option<Side>,
    /// How many moves the game had when White and Black last offered a draw.
    pub draw_offered_at: [Option<u32>; 2],
    /// A rematch offer waiting, by this side.
    pub rematch_offer: Option<Side>,
    /// The rematch game's code.
    pub rematch: Option<String>,
    /// How the game ended.
    pub end: Option<EndState>,
    /// When each seat's player went away (local time), while they are gone.
    pub gone_since: [Option<Instant>; 2],
    /// Whether spectators may watch.
    pub spectators_allowed: bool,
    /// Whether the player to move sees the suggestions.
    pub audience: bool,
    /// Whether the game is rated.
    pub rated: bool,
    /// Spectators watching.
    pub spectators: u32,
    /// The suggestions for the move now, and the ply they are for.
    pub suggestions: Option<(u32, Crowd)>,
    /// This client's own suggestion for the move now (a spectator).
    pub your_suggestion: Option<String>,
    /// What the spectators had suggested before each move (`crowd[i]`: before move `i`).
    pub crowd: Vec<Option<Crowd>>,
}

fn position(kind: GameKind, text: &str) -> Result<AnyGame, MirrorError> {
    game_from_public(kind, text).map_err(MirrorError::Position)
}

/// The game after `mv`: replayed here and checked against the server's position `after`, or
/// (minesweeper chess) the server's position itself once the move is found legal.
fn next(
    kind: GameKind,
    current: &AnyGame,
    mv: &str,
    after: &AnyGame,
) -> Result<AnyGame, MirrorError> {
    if kind == GameKind::MineChess {
        current
            .parse_move(mv)
            .map_err(|e| MirrorError::Mismatch(format!("move {mv} is not legal here: {e}")))?;
        return Ok(after.clone());
    }
    let mut check = current.clone();
    check
        .play_text(mv)
        .map_err(|e| MirrorError::Mismatch(format!("move {mv} does not play here: {e}")))?;
    if public_text(&check) != public_text(after) {
        return Err(MirrorError::Mismatch(format!(
            "move {mv} gives another position than the server's"
        )));
    }
    Ok(check)
}

impl Mirror {
    /// The mirror of a whole state, received at `now`.
    pub fn from_state(state: &GameState, now: Instant) -> Result<Mirror, MirrorError> {
        let mut positions = vec![position(state.kind, &state.start)?];
        let mut moves = Vec::new();
        let mut current = positions[0].clone();
        for p in &state.plies {
            let after = position(state.kind, &p.position)?;
            current = next(state.kind, &current, &p.mv, &after)?;
            positions.push(after);
            moves.push(p.mv.clone());
        }
        let gone_since = [0, 1].map(|i| {
            let seat = &state.seats[i];
            (seat.name.is_some() && !seat.online).then(|| {
                now.checked_sub(std::time::Duration::from_millis(seat.away_ms))
                    .unwrap_or(now)
            })
        });
        Ok(Mirror {
            code: state.code.clone(),
            seq: state.seq,
            kind: state.kind,
            clock: state.clock,
            public: state.public,
            seats: state.seats.clone(),
            you: state.you,
            start_rolls: state.start_rolls.clone(),
            moves,
            positions,
            current,
            rolled: state.rolled,
            clocks: state.clocks.map(|c| (c, now)),
            draw_offer: state.draw_offer,
            draw_offered_at: state.draw_offered_at,
            rematch_offer: state.rematch_offer,
            rematch: state.rematch.clone(),
            end: state.end.clone(),
            gone_since,
            spectators_allowed: state.spectators_allowed,
            audience: state.audience,
            rated: state.rated,
            spectators: state.spectators,
            suggestions: state
                .suggestions
                .clone()
                .map(|c| (state.plies.len() as u32, c)),
            your_suggestion: state.your_suggestion.clone(),
            crowd: state.crowd.clone(),
        })
    }

    /// Takes in event number `seq` at `now`. Returns false for an event already seen.
    pub fn apply(
        &mut self,
        seq: u64,
        event: &GameEvent,
        now: Instant,
    ) -> Result<bool, MirrorError> {
        if seq <= self.seq {
            return Ok(false);
        }
        if seq != self.seq + 1 {
            return Err(MirrorError::Gap {
                expected: self.seq + 1,
                got: seq,
            });
        }
        match event {
            GameEvent::Seated {
                seat,
                name,
                player,
                rating,
            } => {
                self.seats[seat.index()] = SeatView {
                    name: Some(name.clone()),
                    online: true,
                    away_ms: 0,
                    player: player.clone(),
                    rating: *rating,
                };
                self.gone_since[seat.index()] = None;
            }
            GameEvent::Moved {
                ply,
                mv,
                position: text,
                clocks,
                crowd,
            } => {
                if *ply as usize != self.moves.len() {
                    return Err(MirrorError::Mismatch(format!(
                        "move for ply {ply}, but {} moves are known",
                        self.moves.len()
                    )));
                }
                let after = position(self.kind, text)?;
                self.current = next(self.kind, &self.current, mv, &after)?;
                self.moves.push(mv.clone());
                self.positions.push(after);
                self.rolled = None;
                self.draw_offer = None;
                // The suggestions of this move become history.
                self.crowd.resize(*ply as usize, None);
                self.crowd.push(crowd.clone());
                self.suggestions = None;
                self.your_suggestion = None;
                if let Some(c) = clocks {
                    self.clocks = Some((*c, now));
                }
            }
            GameEvent::Rolled { ply, face } => {
                if *ply as usize != self.moves.len() || !(1..=6).contains(face) {
                    return Err(MirrorError::Mismatch(format!(
                        "roll {face} for ply {ply}, but {} moves are known",
                        self.moves.len()
                    )));
                }
                self.rolled = Some(*face);
            }
            GameEvent::DrawOffered { by } => {
                self.draw_offer = Some(*by);
                self.draw_offered_at[by.index()] = Some(self.moves.len() as u32);
            }
            GameEvent::DrawDeclined { .. } => self.draw_offer = None,
            GameEvent::RematchOffered { by } => self.rematch_offer = Some(*by),
            GameEvent::Rematch { code } => {
                self.rematch = Some(code.clone());
                self.rematch_offer = None;
            }
            GameEvent::Renamed { seat, name } => {
                self.seats[seat.index()].name = Some(name.clone());
            }
            GameEvent::Resumed { clocks, .. } => {
                if let Some(c) = clocks {
                    self.clocks = Some((*c, now));
                }
            }
            GameEvent::Ended { end, clocks } => {
                self.end = Some(end.clone());
                self.draw_offer = None;
                self.rolled = None;
                // No move comes for them any more.
                self.suggestions = None;
                if let Some(c) = clocks {
                    self.clocks = Some((*c, now));
                }
            }
        }
        self.seq = seq;
        Ok(true)
    }

    /// The number of spectators changed.
    pub fn set_spectators(&mut self, n: u32) {
        self.spectators = n;
    }

    /// New suggestions for the move at `ply` (ignored when that move is already played).
    pub fn set_suggestions(&mut self, ply: u32, crowd: Crowd) {
        if ply as usize == self.moves.len() && self.end.is_none() {
            self.suggestions = Some((ply, crowd));
        }
    }

    /// What the spectators suggested (or suggest now) for the move at `ply`, if anything.
    pub fn crowd_at(&self, ply: usize) -> Option<&Crowd> {
        if ply == self.moves.len() {
            return self.suggestions.as_ref().map(|(_, c)| c);
        }
        self.crowd.get(ply).and_then(Option::as_ref)
    }

    /// A player came or went.
    pub fn set_presence(&mut self, seat: Side, online: bool, now: Instant) {
        let s = &mut self.seats[seat.index()];
        s.online = online;
        self.gone_since[seat.index()] = if online { None } else { Some(now) };
    }

    /// How long the player of `seat` has been gone at `now` (0 when here or the seat is free).
    pub fn away_ms(&self, seat: Side, now: Instant) -> u64 {
        self.gone_since[seat.index()]
            .map(|t| now.saturating_duration_since(t).as_millis() as u64)
            .unwrap_or(0)
    }

    /// The position now (with its history, except in minesweeper chess).
    pub fn game(&self) -> &AnyGame {
        &self.current
    }

    /// The number of moves played.
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Whether both seats are taken.
    pub fn started(&self) -> bool {
        self.seats.iter().all(|s| s.name.is_some())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Whether it is this client's turn in a game that goes on.
    pub fn my_turn(&self) -> bool {
        self.started() && !self.is_over() && self.you == Some(self.game().side_to_move())
    }

    /// The time `side` has left at `now`, counting down from the last clock state told.
    pub fn remaining_ms(&self, side: Side, now: Instant) -> Option<u64> {
        let (c, at) = self.clocks?;
        let base = match side {
            Side::White => c.white_ms,
            Side::Black => c.black_ms,
        };
        Some(if c.running == Some(side) && self.end.is_none() {
            base.saturating_sub(now.saturating_duration_since(at).as_millis() as u64)
        } else {
            base
        })
    }

    /// How the game started, for a session (the seed stays the server's).
    pub fn game_start(&self) -> GameStart {
        GameStart {
            kind: self.kind,
            position: None,
            seed: 0,
            start_rolls: self.start_rolls.clone(),
        }
    }

    /// The game as the board's controller takes it in
    /// ([`takhte_game::Controller::sync_online`]).
    pub fn online_state(&self) -> OnlineState {
        OnlineState {
            moves: self.moves.clone(),
            positions: self.positions.clone(),
            started: self.started(),
            rolled: self.rolled,
            clocks: match (self.clock, self.clocks) {
                (Some(spec), Some((c, at))) => Some((
                    TimeControl {
                        base_ms: spec.base_ms,
                        increment_ms: spec.increment_ms,
                    },
                    c.white_ms,
                    c.black_ms,
                    c.running,
                    at,
                )),
                _ => None,
            },
            draw_offer: self.draw_offer,
            // The server takes one offer a move from each side (the same rule as its own).
            draw_offer_too_soon: self.you.is_some_and(|me| {
                self.draw_offered_at[me.index()]
                    .is_some_and(|at| (self.moves.len() as u32) < at + 2)
            }),
            end: self.game_end(),
            suggestions: self
                .suggestions
                .as_ref()
                .filter(|(ply, _)| *ply as usize == self.moves.len())
                .map(|(_, c)| c.clone()),
            crowd: self.crowd.clone(),
            your_suggestion: self.your_suggestion.clone(),
        }
    }

    /// The end as a session's [`GameEnd`], if the game has ended.
    pub fn game_end(&self) -> Option<GameEnd> {
        let e = self.end.as_ref()?;
        let result = match e.winner {
            Some(w) => GameResult::Win(w),
            None => GameResult::Draw,
        };
        if e.reason == "time-insufficient-material" {
            return Some(GameEnd::Time {
                loser: self.game().side_to_move(),
                draw: true,
            });
        }
        GameEnd::from_parts(result, &e.reason).or(Some(GameEnd::Aborted))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use takhte_protocol::PlyView;

    /// The state of a chess game at its start (for the other modules' tests).
    pub(crate) fn state_of_a_new_game() -> GameState {
        let start = takhte_protocol::public::public_text(&AnyGame::start(GameKind::Chess, 0));
        state(GameKind::Chess, &start)
    }

    fn state(kind: GameKind, start: &str) -> GameState {
        GameState {
            code: "K7M3QX".into(),
            request: None,
            seq: 2,
            kind,
            clock: None,
            public: false,
            seats: [
                SeatView {
                    name: Some("a".into()),
                    online: true,
                    away_ms: 0,
                    player: None,
                    rating: None,
                },
                SeatView {
                    name: Some("b".into()),
                    online: false,
                    away_ms: 5000,
                    player: None,
                    rating: None,
                },
            ],
            you: Some(Side::White),
            start: start.into(),
            start_rolls: Vec::new(),
            plies: Vec::new(),
            rolled: None,
            clocks: None,
            draw_offer: None,
            draw_offered_at: [None, None],
            rematch_offer: None,
            rematch: None,
            end: None,
            spectators_allowed: false,
            audience: false,
            rated: false,
            spectators: 0,
            suggestions: None,
            your_suggestion: None,
            crowd: Vec::new(),
        }
    }

    #[test]
    fn events_apply_in_order_and_gaps_are_reported() {
        let start = AnyGame::start(GameKind::Chess, 0);
        let now = Instant::now();
        let mut m = Mirror::from_state(&state(GameKind::Chess, &start.to_text()), now).unwrap();
        assert!(m.away_ms(Side::Black, now + std::time::Duration::from_secs(1)) >= 6000);
        let mut after = start.clone();
        after.play_text("e2e4").unwrap();
        let ev = GameEvent::Moved {
            ply: 0,
            mv: "e2e4".into(),
            position: after.to_text(),
            clocks: None,
            crowd: None,
        };
        assert!(m.apply(3, &ev, now).unwrap());
        assert!(
            !m.apply(3, &ev, now).unwrap(),
            "a repeated event is ignored"
        );
        assert_eq!(m.moves, ["e2e4"]);
        assert!(matches!(
            m.apply(5, &GameEvent::DrawOffered { by: Side::Black }, now),
            Err(MirrorError::Gap {
                expected: 4,
                got: 5
            })
        ));
        // A move whose position is not what it gives is a mismatch, and changes nothing.
        let wrong = GameEvent::Moved {
            ply: 1,
            mv: "e7e5".into(),
            position: after.to_text(),
            clocks: None,
            crowd: None,
        };
        assert!(matches!(
            m.apply(4, &wrong, now),
            Err(MirrorError::Mismatch(_))
        ));
        assert_eq!(m.seq, 3);
        assert_eq!(m.ply(), 1);
    }

    #[test]
    fn a_mine_chess_mirror_reads_public_positions() {
        let mut real = AnyGame::start(GameKind::MineChess, 11);
        let start = public_text(&real);
        let mut st = state(GameKind::MineChess, &start);
        for mv in ["e2e4", "d9d7", "e4d5"] {
            if real.play_text(mv).is_err() {
                break;
            }
            st.plies.push(PlyView {
                mv: mv.into(),
                position: public_text(&real),
            });
        }
        let m = Mirror::from_state(&st, Instant::now()).unwrap();
        assert_eq!(public_text(m.game()), public_text(&real));
        let AnyGame::Mine(l) = m.game() else { panic!() };
        let AnyGame::Mine(r) = &real else { panic!() };
        assert_eq!(l.position().visible(), r.position().visible());
    }
}
