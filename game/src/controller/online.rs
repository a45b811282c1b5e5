//! The controller of an online game: the server's positions taken back as snapshots, the
//! player's moves and requests to an outbox for the online session.

use std::sync::Arc;

use takhte_ai::Engine;
use takhte_rules::{GameKind, Side};

use crate::clock::Clock;
use crate::session::{GameStart, Session, SessionError};
use crate::view::Status;

use super::*;

impl Controller {
    /// A controller for an online game as the server describes it; this device plays `me`, or
    /// watches (`None`).
    pub fn online(
        kind: GameKind,
        start_rolls: Vec<(u8, u8)>,
        me: Option<Side>,
        state: &OnlineState,
        engine: Arc<dyn Engine>,
    ) -> Result<Controller, SessionError> {
        let start = GameStart {
            kind,
            position: None,
            seed: 0,
            start_rolls,
        };
        let session = Session::from_snapshots(start, state.moves.clone(), state.positions.clone())?;
        let opponent = match me {
            Some(me) => Opponent::Online { me },
            None => Opponent::Watching,
        };
        let mut c = Controller::from_session(
            session,
            opponent,
            Layout::Fixed,
            None,
            engine,
            Box::new(ScriptedRandomness::new(vec![1], vec![0])),
        );
        c.manual_flip = me == Some(Side::Black);
        c.paused = false;
        c.sync_online(state);
        c.changed = false;
        Ok(c)
    }

    /// Online: takes in the server's game as it stands now. New moves are appended (the
    /// cursor follows unless the player is reviewing); a game that no longer fits is rebuilt.
    pub fn sync_online(&mut self, state: &OnlineState) {
        if !self.is_online() {
            return;
        }
        let known = self.session.moves().len();
        let fits = state.moves.len() >= known
            && state.moves[..known] == *self.session.moves()
            && state.positions.len() == state.moves.len() + 1;
        let mut moved = false;
        if fits {
            for i in known..state.moves.len() {
                self.session
                    .push_snapshot(state.moves[i].clone(), state.positions[i + 1].clone());
                moved = true;
            }
        } else if let Ok(s) = Session::from_snapshots(
            self.session.start().clone(),
            state.moves.clone(),
            state.positions.clone(),
        ) {
            self.session = s;
            moved = true;
        }
        if moved || state.rolled.is_some() != self.rolled.is_some() {
            self.awaiting = None;
        }
        if state.rolled.is_some() && state.rolled != self.rolled {
            self.last_face = state.rolled;
        }
        if moved {
            // The face of a pawn move (or an empty roll) stays shown until the next roll.
            if let Some(face) = state
                .moves
                .last()
                .and_then(|m| m.split_once(':'))
                .and_then(|(f, _)| f.parse().ok())
            {
                self.last_face = Some(face);
            }
        }
        self.rolled = state.rolled;
        self.online_started = state.started;
        self.suggestions = state.suggestions.clone();
        self.crowd = state.crowd.clone();
        self.your_suggestion = state.your_suggestion.clone();
        // This player's offer gone without the game ending, and not by their own move: the
        // opponent declined it (by answering, or by moving on).
        let me = match self.opponent {
            Opponent::Online { me } => Some(me),
            _ => None,
        };
        let my_move = moved && self.session.game().side_to_move() != me.unwrap_or(Side::White);
        let declined = me.is_some()
            && self.draw_offer == me
            && state.draw_offer.is_none()
            && state.end.is_none()
            && !my_move;
        self.draw_offer = state.draw_offer;
        self.draw_offer_too_soon = state.draw_offer_too_soon;
        let ended = self.session.players_end();
        self.session.set_end(state.end);
        if state.end.is_some() {
            self.awaiting = None;
        }
        self.session.clock = state.clocks.map(|(control, w, b, running, at)| {
            let mut clock = Clock::with_remaining(control, w, b);
            if let (Some(side), None) = (running, state.end) {
                clock.start(side, at);
            }
            clock
        });
        if moved {
            self.notice = None;
            self.after_change_keep_ai();
        } else if ended != state.end {
            self.changed = true;
        }
        // The end says what happened: a line about the game before it (a declined offer, a
        // refusal) is stale once the game is over.
        if state.end.is_some() && ended.is_none() {
            self.notice = None;
        }
        if declined {
            self.notice = Some(Status::new("status-draw-offer-declined"));
        }
        self.changed = true;
    }

    /// Online: the requests for the server made since the last call.
    pub fn take_outbox(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.outbox)
    }

    /// Online: the server refused what was sent (the reason is a translation key); taps work
    /// again.
    pub fn refused(&mut self, key: &'static str) {
        self.awaiting = None;
        self.selected = None;
        self.path.clear();
        self.notice = Some(Status::new(key));
        self.changed = true;
    }

    /// Whether this is an online game (played or watched).
    pub fn is_online(&self) -> bool {
        matches!(self.opponent, Opponent::Online { .. } | Opponent::Watching)
    }

    /// Whether this device watches an online game.
    pub fn is_watching(&self) -> bool {
        matches!(self.opponent, Opponent::Watching)
    }

    /// Online: whether a move or roll is on its way to the server.
    pub fn awaiting_server(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Online: whether both seats are taken.
    pub fn online_started(&self) -> bool {
        self.online_started
    }
}
