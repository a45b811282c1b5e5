//! The controller: turns what the player does (tap, drag, roll, sapper, undo…) into session
//! changes, runs the computer's turns on a worker thread, ticks the clocks, and produces the
//! [`View`](crate::View) the UI draws. It knows nothing of Slint.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use web_time::Instant;

use takhte_ai::{Answer, Engine};
use takhte_rules::{
    chess, dice, mine, AnyGame, AnyMove, GameKind, GameResult, Rules, Side, Square,
};

use super::annotate::{annotate, annotate_snapshots, describe, Ply};
use super::clock::{Clock, TimeControl};
use super::session::{GameEnd, GameStart, Session, SessionError};
use super::view::Status;

mod computer;
pub use computer::{offload_searches, Offload};
mod online;

/// Who plays the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer at `level` (1–6); the human plays `human`.
    Computer {
        /// Strength 1–6.
        level: u8,
        /// The human's side.
        human: Side,
    },
    /// Two players on one device.
    PassAndPlay,
    /// A player on another device, through the game server; this device plays `me`. Moves,
    /// rolls, resignation and draw offers go to the server ([`Controller::take_outbox`]) and
    /// come back as the server's positions ([`Controller::sync_online`]).
    Online {
        /// This device's side.
        me: Side,
    },
    /// A spectator of an online game: a move played on the board is a suggestion for the side
    /// to move, sent to the server ([`Outgoing::Suggest`]); the position does not change.
    Watching,
}

/// What the player of an online game asked for, for the app to send to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// Play this move at this ply.
    Move {
        /// The number of moves before it.
        ply: u32,
        /// The move in machine notation.
        text: String,
    },
    /// Dice chess: roll for the turn at this ply.
    Roll {
        /// The number of moves before the turn.
        ply: u32,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Answer the opponent's draw offer.
    AnswerDraw(bool),
    /// A spectator's suggestion for the move at this ply.
    Suggest {
        /// The number of moves before it.
        ply: u32,
        /// The move in machine notation.
        text: String,
    },
}

/// What an online game looks like to the controller, taken from the client's copy of the
/// server's game (the online crate's `Mirror`).
#[derive(Clone, Debug)]
pub struct OnlineState {
    /// The moves and the position after each (index 0: the first position).
    pub moves: Vec<String>,
    /// The positions.
    pub positions: Vec<AnyGame>,
    /// Whether both seats are taken.
    pub started: bool,
    /// The face rolled and not yet used.
    pub rolled: Option<u8>,
    /// The clocks: the time control, White's and Black's time left, the running side, and
    /// the moment those times were told.
    pub clocks: Option<(TimeControl, u64, u64, Option<Side>, Instant)>,
    /// A draw offer waiting, by this side.
    pub draw_offer: Option<Side>,
    /// This player offered a draw during this move or the last one: the server would refuse
    /// another offer until the game has gone on.
    pub draw_offer_too_soon: bool,
    /// How the game ended.
    pub end: Option<GameEnd>,
    /// What the spectators suggest for the move now, as far as this client may see.
    pub suggestions: Option<takhte_protocol::Crowd>,
    /// What they had suggested before each move played (`crowd[i]`: before move `i`).
    pub crowd: Vec<Option<takhte_protocol::Crowd>>,
    /// This spectator's own suggestion for the move now.
    pub your_suggestion: Option<String>,
}

/// How a pass-and-play board is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The board turns to the player to move after each move.
    Rotate,
    /// A tablet on a table: the board stays, the far player's panel is turned 180°.
    FaceToFace,
    /// The board stays with White at the bottom.
    Fixed,
}

impl Layout {
    /// The machine word: `rotate`, `face-to-face`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Rotate => "rotate",
            Layout::FaceToFace => "face-to-face",
            Layout::Fixed => "none",
        }
    }

    /// Reads the machine word.
    pub fn parse(text: &str) -> Option<Layout> {
        [Layout::Rotate, Layout::FaceToFace, Layout::Fixed]
            .into_iter()
            .find(|l| l.name() == text)
    }
}

/// The settings of a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Which game.
    pub kind: GameKind,
    /// Against whom.
    pub opponent: Opponent,
    /// Pass-and-play layout.
    pub layout: Layout,
    /// Chess clock, if any.
    pub time_control: Option<TimeControl>,
    /// A custom start position, or `None`.
    pub position: Option<String>,
}

impl NewGame {
    /// A game of `kind` for two players on this device, rotating, without a clock.
    pub fn pass_and_play(kind: GameKind) -> NewGame {
        NewGame {
            kind,
            opponent: Opponent::PassAndPlay,
            layout: Layout::Rotate,
            time_control: None,
            position: None,
        }
    }

    /// A game of `kind` against the computer at `level`, the human playing `human`.
    pub fn against_computer(kind: GameKind, level: u8, human: Side) -> NewGame {
        NewGame {
            kind,
            opponent: Opponent::Computer { level, human },
            layout: Layout::Fixed,
            time_control: None,
            position: None,
        }
    }
}

/// Where randomness comes from: die rolls and mine seeds. Tests script it.
pub trait Randomness: Send {
    /// A die roll, 1–6.
    fn roll(&mut self) -> u8;
    /// A fresh seed.
    fn seed(&mut self) -> u64;
}

/// Randomness from the `rand` crate's thread generator.
pub struct SystemRandomness;

impl Randomness for SystemRandomness {
    fn roll(&mut self) -> u8 {
        rand::Rng::gen_range(&mut rand::thread_rng(), 1..=6)
    }
    fn seed(&mut self) -> u64 {
        rand::Rng::gen(&mut rand::thread_rng())
    }
}

/// A scripted source: rolls and seeds from lists, repeating the last value.
pub struct ScriptedRandomness {
    rolls: Vec<u8>,
    seeds: Vec<u64>,
}

impl ScriptedRandomness {
    /// Rolls and seeds in the order they will be used.
    pub fn new(rolls: Vec<u8>, seeds: Vec<u64>) -> ScriptedRandomness {
        ScriptedRandomness { rolls, seeds }
    }
}

impl ScriptedRandomness {
    /// Rolls and seeds drawn from a seeded generator (reproducible random play).
    pub fn from_seed(seed: u64) -> SeededRandomness {
        SeededRandomness(<rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed))
    }
}

/// Randomness from a seeded generator.
pub struct SeededRandomness(rand_chacha::ChaCha8Rng);

impl Randomness for SeededRandomness {
    fn roll(&mut self) -> u8 {
        rand::Rng::gen_range(&mut self.0, 1..=6)
    }
    fn seed(&mut self) -> u64 {
        rand::Rng::gen(&mut self.0)
    }
}

impl Randomness for ScriptedRandomness {
    fn roll(&mut self) -> u8 {
        if self.rolls.len() > 1 {
            self.rolls.remove(0)
        } else {
            self.rolls.first().copied().unwrap_or(1)
        }
    }
    fn seed(&mut self) -> u64 {
        if self.seeds.len() > 1 {
            self.seeds.remove(0)
        } else {
            self.seeds.first().copied().unwrap_or(0)
        }
    }
}

#[derive(Clone, Copy)]
enum Purpose {
    Move,
    Hint,
}

struct Pending {
    generation: u64,
    purpose: Purpose,
    cancel: Arc<AtomicBool>,
    answer: Receiver<Option<Answer>>,
    /// Where there are no threads (the browser): the search, run on a later tick than the one
    /// that started it, so the page has drawn "thinking" first.
    job: Option<Box<dyn FnOnce() + Send>>,
    /// Ticks seen since the search was asked for (the browser's search waits for one).
    ticks: u32,
}

/// The game controller. Every intent returns nothing; read [`Controller::view`] afterwards.
pub struct Controller {
    session: Session,
    opponent: Opponent,
    layout: Layout,
    engine: Arc<dyn Engine>,
    random: Box<dyn Randomness>,
    clock_source: Box<dyn Fn() -> Instant + Send>,
    movetime_ms: u64,
    selected: Option<Square>,
    path: Vec<Square>,
    promotion: Option<(Square, Square)>,
    rolled: Option<u8>,
    /// Dice chess: a roll made at the end of the game and not used when undo took the game
    /// back (its ply and face): redo to that ply brings it back, so that undo and redo never
    /// roll the die again.
    kept_roll: Option<(usize, u8)>,
    last_face: Option<u8>,
    manual_flip: bool,
    draw_offer: Option<Side>,
    /// Online: this player's draw offer would be refused as too soon (one a move).
    draw_offer_too_soon: bool,
    hint: Option<AnyMove>,
    notice: Option<Status>,
    plies: Vec<Ply>,
    generation: u64,
    pending: Option<Pending>,
    paused: bool,
    reviewing: bool,
    changed: bool,
    /// Online: what the player asked for and the app has not sent yet.
    outbox: Vec<Outgoing>,
    /// Online: a move or roll sent and not yet answered (taps wait), with the move's squares.
    awaiting: Option<Vec<Square>>,
    /// Online: whether both seats are taken.
    online_started: bool,
    /// Online: the suggestions now and before each move, and this spectator's own.
    suggestions: Option<takhte_protocol::Crowd>,
    crowd: Vec<Option<takhte_protocol::Crowd>>,
    your_suggestion: Option<String>,
    /// Set when the last save failed; the app retries after the next move.
    pub save_failed: bool,
}

impl Controller {
    /// A controller with a new game.
    pub fn new(
        game: NewGame,
        engine: Arc<dyn Engine>,
        mut random: Box<dyn Randomness>,
    ) -> Result<Controller, SessionError> {
        let session = Controller::new_session(&game, random.as_mut())?;
        let mut c = Controller {
            session,
            opponent: game.opponent,
            layout: game.layout,
            engine,
            random,
            clock_source: Box::new(Instant::now),
            movetime_ms: 1000,
            selected: None,
            path: Vec::new(),
            promotion: None,
            rolled: None,
            kept_roll: None,
            last_face: None,
            manual_flip: false,
            draw_offer: None,
            draw_offer_too_soon: false,
            hint: None,
            notice: None,
            plies: Vec::new(),
            generation: 0,
            pending: None,
            paused: false,
            reviewing: false,
            changed: false,
            outbox: Vec::new(),
            awaiting: None,
            online_started: false,
            suggestions: None,
            crowd: Vec::new(),
            your_suggestion: None,
            save_failed: false,
        };
        c.after_change();
        Ok(c)
    }

    /// A controller for a session restored from a save.
    pub fn from_session(
        session: Session,
        opponent: Opponent,
        layout: Layout,
        rolled: Option<u8>,
        engine: Arc<dyn Engine>,
        random: Box<dyn Randomness>,
    ) -> Controller {
        let mut c = Controller::new(NewGame::pass_and_play(GameKind::Chess), engine, random)
            .expect("the standard chess start always builds");
        c.session = session;
        c.opponent = opponent;
        c.layout = layout;
        c.rolled = rolled.filter(|f| (1..=6).contains(f));
        c.reviewing = c.session.is_behind() && c.session.final_end().is_some();
        c.paused = true;
        c.after_change();
        c.changed = false;
        c
    }

    fn new_session(game: &NewGame, random: &mut dyn Randomness) -> Result<Session, SessionError> {
        let seed = random.seed();
        let mut rolls = Vec::new();
        if game.kind == GameKind::DiceChess && game.position.is_none() {
            for _ in 0..100 {
                let pair = (random.roll(), random.roll());
                rolls.push(pair);
                if pair.0 != pair.1 {
                    break;
                }
            }
            if rolls.last().is_some_and(|p| p.0 == p.1) {
                rolls.push((6, 1));
            }
        }
        let start = GameStart {
            kind: game.kind,
            position: game.position.clone(),
            seed,
            start_rolls: rolls,
        };
        let mut session = Session::new(start)?;
        if game.kind == GameKind::Chess {
            session.clock = game.time_control.map(Clock::new);
        }
        Ok(session)
    }

    /// Replaces the clock source (tests drive time by hand).
    pub fn set_clock_source(&mut self, source: Box<dyn Fn() -> Instant + Send>) {
        self.clock_source = source;
    }

    /// Sets the computer's time per move.
    pub fn set_movetime(&mut self, ms: u64) {
        self.movetime_ms = ms;
    }

    fn now(&self) -> Instant {
        (self.clock_source)()
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The opponent setting.
    pub fn opponent(&self) -> Opponent {
        self.opponent
    }

    /// The pass-and-play layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// A dice face rolled and not yet used.
    pub fn rolled(&self) -> Option<u8> {
        self.rolled
    }

    /// Whether something changed since the last [`Controller::take_changed`] (the app saves then).
    pub fn take_changed(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }

    /// Whether the side to move is played by a human here.
    pub fn human_to_move(&self) -> bool {
        match self.opponent {
            Opponent::PassAndPlay => true,
            Opponent::Computer { human, .. } => self.session.game().side_to_move() == human,
            Opponent::Online { me } => self.session.game().side_to_move() == me,
            // A spectator suggests moves for whichever side is to move.
            Opponent::Watching => true,
        }
    }

    fn can_act(&self) -> bool {
        let online_ready = match self.opponent {
            Opponent::Online { .. } => {
                self.online_started && self.awaiting.is_none() && !self.session.is_behind()
            }
            Opponent::Watching => self.online_started && !self.session.is_behind(),
            _ => true,
        };
        !self.reviewing
            && !self.session.is_over()
            && self.human_to_move()
            && self.promotion.is_none()
            && online_ready
    }

    /// Whether the player is stepping through the game (review): moves are not played then.
    pub fn reviewing(&self) -> bool {
        self.reviewing
    }

    // ----- intents -----

    /// Starts a new game (cancelling any search).
    pub fn new_game(&mut self, game: NewGame) -> Result<(), SessionError> {
        let session = Controller::new_session(&game, self.random.as_mut())?;
        self.cancel_search();
        self.session = session;
        self.opponent = game.opponent;
        self.layout = game.layout;
        self.rolled = None;
        self.kept_roll = None;
        self.last_face = None;
        self.reviewing = false;
        self.manual_flip = matches!(
            game.opponent,
            Opponent::Computer {
                human: Side::Black,
                ..
            }
        );
        self.draw_offer = None;
        self.paused = false;
        self.after_change();
        Ok(())
    }

    /// A tap on a square (index `rank * 8 + file`).
    pub fn tap(&mut self, square: Square) {
        self.notice = None;
        self.hint = None;
        if !self.can_act() {
            if self.promotion.is_some() {
                self.promotion = None;
            }
            return;
        }
        match self.session.kind() {
            GameKind::Draughts => self.tap_draughts(square),
            _ => self.tap_piece_game(square),
        }
    }

    /// A drag from one square to another: a tap on each.
    pub fn drag(&mut self, from: Square, to: Square) {
        if self.selected != Some(from) {
            self.selected = None;
            self.path.clear();
            self.tap(from);
        }
        if self.selected == Some(from) {
            self.tap(to);
        }
    }

    fn selectable_moves(&self, from: Square) -> Vec<(AnyMove, Vec<Square>)> {
        let game = self.session.game();
        game.legal_moves()
            .into_iter()
            .filter_map(|m| {
                let path = move_path(&m);
                if path.first() != Some(&from) {
                    return None;
                }
                match (&m, self.rolled) {
                    (AnyMove::Dice(dice::Move::King { .. }), None) => Some((m, path)),
                    (AnyMove::Dice(dice::Move::Pawn { face, .. }), Some(f)) if *face == f => {
                        Some((m, path))
                    }
                    (AnyMove::Dice(_), _) => None,
                    _ => Some((m, path)),
                }
            })
            .collect()
    }

    fn tap_piece_game(&mut self, square: Square) {
        if let Some(from) = self.selected {
            let candidates: Vec<AnyMove> = self
                .selectable_moves(from)
                .into_iter()
                .filter(|(_, p)| p.last() == Some(&square))
                .map(|(m, _)| m)
                .collect();
            if candidates.len() > 1 {
                // Only chess promotions share their squares: ask which piece.
                self.promotion = Some((from, square));
                return;
            }
            if let Some(mv) = candidates.into_iter().next() {
                self.selected = None;
                self.play(mv);
                return;
            }
        }
        let has_moves =
            !self.selectable_moves(square).is_empty() || self.sapper_of(square).is_some();
        if has_moves {
            self.selected = if self.selected == Some(square) {
                None
            } else {
                Some(square)
            };
        } else {
            self.selected = None;
            if let AnyGame::Dice(l) = self.session.game() {
                let pos = l.position();
                let own_pawn = pos.piece_at(square).is_some_and(|p| {
                    p.side == pos.side_to_move() && p.kind == dice::PieceKind::Pawn
                });
                if own_pawn && self.rolled.is_none() && pos.can_roll() {
                    self.notice = Some(Status::new("status-roll-first"));
                }
            }
        }
    }

    fn tap_draughts(&mut self, square: Square) {
        let game = self.session.game();
        let all: Vec<takhte_rules::draughts::Move> = match game {
            AnyGame::Draughts(l) => l.legal_moves(),
            _ => return,
        };
        if !self.path.is_empty() {
            let mut next = self.path.clone();
            next.push(square);
            let candidates: Vec<_> = all.iter().filter(|m| m.path.starts_with(&next)).collect();
            if !candidates.is_empty() {
                if let [only] = candidates.as_slice() {
                    if only.path.len() == next.len() {
                        let mv = AnyMove::Draughts((*only).clone());
                        self.path.clear();
                        self.selected = None;
                        self.play(mv);
                        return;
                    }
                }
                self.path = next;
                return;
            }
            if self.path.len() > 1 {
                // In the middle of a capture only its continuations count.
                self.notice = Some(Status::new("status-continue-capture"));
                return;
            }
        }
        if all.iter().any(|m| m.path[0] == square) {
            if self.path.first() == Some(&square) {
                self.path.clear();
                self.selected = None;
            } else {
                self.path = vec![square];
                self.selected = Some(square);
            }
        } else {
            self.path.clear();
            self.selected = None;
            if let AnyGame::Draughts(l) = game {
                let pos = l.position();
                if pos.max_capture() > 0
                    && pos
                        .piece_at(square)
                        .is_some_and(|p| p.side() == pos.side_to_move())
                {
                    self.notice = Some(
                        Status::new("status-must-capture")
                            .arg("count", pos.max_capture().to_string()),
                    );
                }
            }
        }
    }

    fn sapper_of(&self, square: Square) -> Option<Square> {
        match self.session.game() {
            AnyGame::Mine(l) if l.legal_moves().contains(&mine::Move::Sapper(square)) => {
                l.position().sapper_target(square)
            }
            _ => None,
        }
    }

    /// Chooses the promotion piece for the pending promotion.
    pub fn choose_promotion(&mut self, kind: chess::Kind) {
        let Some((from, to)) = self.promotion.take() else {
            return;
        };
        let mv = AnyMove::Chess(chess::Move {
            from,
            to,
            promotion: Some(kind),
        });
        self.selected = None;
        self.play(mv);
    }

    /// Cancels a pending promotion choice.
    pub fn cancel_promotion(&mut self) {
        self.promotion = None;
    }

    /// The sapper action of the selected pawn (minesweeper chess).
    pub fn sapper(&mut self) {
        if !self.can_act() {
            return;
        }
        if let Some(sq) = self.selected {
            if self.sapper_of(sq).is_some() {
                self.selected = None;
                self.play(AnyMove::Mine(mine::Move::Sapper(sq)));
            }
        }
    }

    /// Rolls the die (dice chess, human's turn, before a pawn move).
    pub fn roll(&mut self) {
        if !self.can_act() || self.rolled.is_some() {
            return;
        }
        let AnyGame::Dice(l) = self.session.game() else {
            return;
        };
        if !l.position().can_roll() {
            return;
        }
        if self.is_watching() {
            return;
        }
        if self.is_online() {
            self.outbox.push(Outgoing::Roll {
                ply: self.session.cursor() as u32,
            });
            self.awaiting = Some(Vec::new());
            self.selected = None;
            self.changed = true;
            return;
        }
        let face = self.random.roll();
        self.apply_roll(face);
    }

    fn apply_roll(&mut self, face: u8) {
        let AnyGame::Dice(l) = self.session.game() else {
            return;
        };
        let pos = l.position();
        self.selected = None;
        self.hint = None;
        self.notice = None;
        // Rolling plays on: a draw offer waiting is declined, as a move would decline it.
        if !self.is_online() {
            self.draw_offer = None;
        }
        self.last_face = Some(face);
        if pos.pawn_moves(face).is_empty() {
            let in_check = pos.in_check(pos.side_to_move());
            let side = pos.side_to_move();
            self.play(AnyMove::Dice(dice::Move::Pass { face }));
            if !in_check {
                self.notice = Some(
                    Status::new("status-empty-roll")
                        .arg("face", face.to_string())
                        .arg("side", side_word(side)),
                );
            }
        } else {
            self.rolled = Some(face);
            self.changed = true;
        }
    }

    fn play(&mut self, mv: AnyMove) {
        if self.is_watching() {
            let text = self.session.game().move_to_text(&mv);
            self.your_suggestion = Some(text.clone());
            self.outbox.push(Outgoing::Suggest {
                ply: self.session.cursor() as u32,
                text,
            });
            self.selected = None;
            self.path.clear();
            self.changed = true;
            return;
        }
        if self.is_online() {
            let text = self.session.game().move_to_text(&mv);
            self.outbox.push(Outgoing::Move {
                ply: self.session.cursor() as u32,
                text,
            });
            self.awaiting = Some(move_path(&mv));
            self.selected = None;
            self.path.clear();
            self.hint = None;
            self.changed = true;
            return;
        }
        let mover = self.session.game().side_to_move();
        let ply = describe(self.session.game(), &mv);
        let before_fog = match self.session.game() {
            AnyGame::Mine(l) => Some(l.position().fog_lifted()),
            _ => None,
        };
        // Draughts: whether the man that moves will stand at the end of its way as a king.
        let man_moves = match (self.session.game(), &mv) {
            (AnyGame::Draughts(l), AnyMove::Draughts(m)) => l
                .position()
                .piece_at(m.path[0])
                .is_some_and(|p| !p.is_king())
                .then(|| *m.path.last().unwrap_or(&m.path[0])),
            _ => None,
        };
        if let Err(e) = self.session.play(&mv) {
            self.notice = Some(Status::new("status-illegal").arg("reason", e.to_string()));
            return;
        }
        self.rolled = None;
        self.kept_roll = None;
        self.draw_offer = None;
        let now = self.now();
        let over = self.session.end().is_some();
        if let Some(clock) = self.session.clock.as_mut() {
            if !over {
                clock.after_move(mover, now);
            } else {
                clock.pause(now);
            }
        }
        // Messages about this move; every older one is gone with the change.
        let mut notice = ply.destroyed.map(|p| {
            Status::new("status-mine-destroyed")
                .arg("what", p.glyph.name())
                .arg("owner", side_word(p.side))
        });
        if let (Some(false), AnyGame::Mine(l)) = (before_fog, self.session.game()) {
            if l.position().fog_lifted() && notice.is_none() {
                notice = Some(Status::new("status-fog-lifted"));
            }
        }
        if let (Some(to), AnyGame::Draughts(l)) = (man_moves, self.session.game()) {
            if let Some(p) = l.position().piece_at(to).filter(|p| p.is_king()) {
                notice =
                    Some(Status::new("status-promoted-king").arg("owner", side_word(p.side())));
            }
        }
        self.after_change();
        self.notice = notice;
    }

    /// Takes back the last move (against the computer: back to the human's previous turn).
    ///
    /// Dice chess: the die is not rolled again. The turn taken back comes back with the face
    /// it was played with (a roll that gave no move is taken back with the turn before it, as
    /// it left no choice), and a roll made and not used yet comes back on redo.
    pub fn undo(&mut self) {
        if self.reviewing || self.session.players_end().is_some() || self.is_online() {
            return;
        }
        self.cancel_search();
        let start = self.session.cursor();
        if let Some(face) = self.rolled.take() {
            if start == self.session.moves().len() {
                self.kept_roll = Some((start, face));
            }
        }
        loop {
            if self.undo_turn() == 0 {
                // Only forced turns are left to take back: nothing is.
                self.session.go_to(start);
                break;
            }
            if !matches!(self.undone_dice(), Some(dice::Move::Pass { .. })) {
                break;
            }
        }
        self.rolled = self.roll_of_undone();
        if self.session.cursor() == start {
            self.rolled = self
                .kept_roll
                .filter(|(at, _)| *at == start)
                .map(|(_, f)| f);
        }
        if let Some(face) = self.rolled {
            self.last_face = Some(face);
        }
        self.pause_clock_if_behind();
        self.after_change();
    }

    /// Takes back one turn (against the computer: back to the human's previous turn).
    /// Returns how many moves were taken back.
    fn undo_turn(&mut self) -> usize {
        let mut total = self.session.undo(1);
        let mut n = total;
        if let Opponent::Computer { human, .. } = self.opponent {
            while n > 0 && self.session.game().side_to_move() != human && self.session.cursor() > 0
            {
                n = self.session.undo(1);
                total += n;
            }
        }
        total
    }

    /// Behind the last move (a game saved after an undo): the face of the pawn move that the
    /// next redo would play is the roll of this turn.
    pub(crate) fn restore_undone_roll(&mut self) {
        if self.session.is_behind() {
            self.rolled = self.roll_of_undone();
            if let Some(face) = self.rolled {
                self.last_face = Some(face);
            }
        }
    }

    /// The dice chess move that the next redo would play.
    fn undone_dice(&self) -> Option<dice::Move> {
        let text = self.session.moves().get(self.session.cursor())?;
        match self.session.game().parse_move(text).ok()? {
            AnyMove::Dice(m) => Some(m),
            _ => None,
        }
    }

    /// The face of the pawn move that the next redo would play (the roll it was made with).
    fn roll_of_undone(&self) -> Option<u8> {
        match self.undone_dice()? {
            dice::Move::Pawn { face, .. } => Some(face),
            _ => None,
        }
    }

    /// Replays an undone move (against the computer: up to the human's next turn).
    pub fn redo(&mut self) {
        if self.reviewing || self.is_online() {
            return;
        }
        self.cancel_search();
        let mut n = self.session.redo(1);
        if let Opponent::Computer { human, .. } = self.opponent {
            while n > 0 && self.session.game().side_to_move() != human && self.session.is_behind() {
                n = self.session.redo(1);
            }
        }
        // Still behind: the next turn's face, as it was played; at the end, the roll that was
        // made there and not used.
        self.rolled = self.roll_of_undone();
        if !self.session.is_behind() {
            let end = self.session.cursor();
            self.rolled = self.kept_roll.filter(|(at, _)| *at == end).map(|(_, f)| f);
        }
        self.after_change();
    }

    /// Steps the review cursor by `delta` moves (a finished or saved game).
    pub fn review_step(&mut self, delta: i32) {
        let target = (self.session.cursor() as i64 + delta as i64)
            .clamp(0, self.session.moves().len() as i64) as usize;
        self.review_to(target);
    }

    /// Puts the review cursor at `ply`.
    pub fn review_to(&mut self, ply: usize) {
        self.cancel_search();
        self.session.go_to(ply);
        self.reviewing = self.session.is_behind() || self.session.final_end().is_some();
        self.pause_clock_if_behind();
        self.after_change_keep_ai();
    }

    fn pause_clock_if_behind(&mut self) {
        if self.is_online() {
            return;
        }
        let now = self.now();
        if let Some(c) = self.session.clock.as_mut() {
            c.pause(now);
        }
    }

    /// The human resigns (pass-and-play: the side to move resigns).
    pub fn resign(&mut self) {
        if self.session.is_over() {
            return;
        }
        let side = match self.opponent {
            Opponent::Computer { human, .. } => human,
            Opponent::PassAndPlay => self.session.game().side_to_move(),
            Opponent::Online { .. } => {
                self.outbox.push(Outgoing::Resign);
                self.changed = true;
                return;
            }
            Opponent::Watching => return,
        };
        self.cancel_search();
        self.session.finish(GameEnd::Resigned(side));
        self.stop_clock();
        self.after_change();
    }

    /// Offers a draw: in pass-and-play the other player answers; online the server passes it
    /// on. The computer is not offered draws (nothing happens).
    pub fn offer_draw(&mut self) {
        if self.session.is_over() || self.draw_offer.is_some() {
            return;
        }
        match self.opponent {
            Opponent::Computer { .. } | Opponent::Watching => {}
            Opponent::PassAndPlay => {
                self.notice = None;
                self.draw_offer = Some(self.session.game().side_to_move());
                self.changed = true;
            }
            Opponent::Online { .. } => {
                self.notice = None;
                self.outbox.push(Outgoing::OfferDraw);
                self.changed = true;
            }
        }
    }

    /// Accepts the pending draw offer.
    pub fn accept_draw(&mut self) {
        if self.is_online() {
            if self.draw_offer.is_some() {
                self.outbox.push(Outgoing::AnswerDraw(true));
            }
            return;
        }
        if self.draw_offer.take().is_some() && !self.session.is_over() {
            self.session.finish(GameEnd::Agreed);
            self.stop_clock();
            self.after_change();
        }
    }

    /// Declines the pending draw offer.
    pub fn decline_draw(&mut self) {
        if self.is_online() {
            if self.draw_offer.is_some() {
                self.outbox.push(Outgoing::AnswerDraw(false));
            }
            return;
        }
        if self.session.is_over() || self.reviewing {
            return;
        }
        if self.draw_offer.take().is_some() {
            self.notice = Some(Status::new("status-draw-declined"));
            self.changed = true;
        }
    }

    /// Asks the computer for a hint for the human to move.
    pub fn hint(&mut self) {
        if !self.can_act() || self.pending.is_some() || self.is_online() {
            return;
        }
        self.notice = None;
        self.start_search(Purpose::Hint);
    }

    /// Turns the board around.
    pub fn flip(&mut self) {
        self.manual_flip = !self.manual_flip;
        self.notice = None;
    }

    /// The app goes to the background: clocks stop, the search goes on.
    pub fn pause(&mut self) {
        self.paused = true;
        if !self.is_online() {
            // An online game's clocks are the server's: they run on.
            self.stop_clock();
        }
    }

    /// The app comes back: the clock of the side to move runs again.
    pub fn resume(&mut self) {
        self.paused = false;
        self.start_clock_if_live();
        self.maybe_start_ai();
    }

    fn stop_clock(&mut self) {
        let now = self.now();
        if let Some(c) = self.session.clock.as_mut() {
            c.pause(now);
        }
    }

    fn start_clock_if_live(&mut self) {
        if self.is_online() {
            return;
        }
        let now = self.now();
        let live =
            !self.paused && !self.reviewing && !self.session.is_over() && self.session.cursor() > 0;
        let side = self.session.game().side_to_move();
        if let Some(c) = self.session.clock.as_mut() {
            if live && c.running_side() != Some(side) {
                c.start(side, now);
            }
        }
    }

    /// Checks the clocks and the computer's answer; call it from a UI timer.
    pub fn tick(&mut self) {
        let now = self.now();
        if self.is_online() {
            // The server decides time-outs.
            return;
        }
        if let Some(c) = &self.session.clock {
            if let Some(loser) = c.flagged(now) {
                if !self.session.is_over() {
                    let draw = match self.session.game() {
                        AnyGame::Chess(l) => {
                            !l.position().board().can_possibly_mate(loser.opponent())
                        }
                        _ => false,
                    };
                    self.cancel_search();
                    self.session.finish(GameEnd::Time { loser, draw });
                    self.stop_clock();
                    self.after_change();
                }
            }
        }
        self.poll_ai();
    }

    // ----- the computer -----

    fn after_change(&mut self) {
        self.cancel_search();
        self.after_change_keep_ai();
        self.start_clock_if_live();
        self.maybe_start_ai();
    }

    fn after_change_keep_ai(&mut self) {
        self.selected = None;
        self.path.clear();
        self.promotion = None;
        // Messages, marks and offers belong to the position they were made for.
        self.hint = None;
        self.notice = None;
        if self.session.is_over() && !self.is_online() {
            self.draw_offer = None;
        }
        self.changed = true;
        self.plies = if self.session.is_snapshots() {
            annotate_snapshots(self.session.snapshots(), self.session.moves())
        } else {
            let start = self.session.game_at(0);
            annotate(&start, self.session.moves())
        };
    }

    // ----- accessors for the view builder -----

    pub(crate) fn plies(&self) -> &[Ply] {
        &self.plies
    }
    pub(crate) fn selected(&self) -> Option<Square> {
        self.selected
    }
    pub(crate) fn partial_path(&self) -> &[Square] {
        &self.path
    }
    pub(crate) fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.promotion
    }
    pub(crate) fn last_face(&self) -> Option<u8> {
        self.last_face
    }
    pub(crate) fn hint_move(&self) -> Option<&AnyMove> {
        self.hint.as_ref()
    }
    pub(crate) fn notice(&self) -> Option<&Status> {
        self.notice.as_ref()
    }
    pub(crate) fn draw_offer_too_soon(&self) -> bool {
        self.draw_offer_too_soon
    }
    pub(crate) fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }
    pub(crate) fn flipped(&self) -> bool {
        let rotate =
            matches!(self.opponent, Opponent::PassAndPlay) && self.layout == Layout::Rotate;
        let base = rotate && self.session.game().side_to_move() == Side::Black;
        base != self.manual_flip
    }
    pub(crate) fn clock_now(&self) -> Instant {
        self.now()
    }
    pub(crate) fn moves_for(&self, from: Square) -> Vec<(AnyMove, Vec<Square>)> {
        self.selectable_moves(from)
    }
    pub(crate) fn sapper_target_of(&self, sq: Square) -> Option<Square> {
        self.sapper_of(sq)
    }
    pub(crate) fn can_act_now(&self) -> bool {
        self.can_act()
    }
    pub(crate) fn awaiting_path(&self) -> Option<&[Square]> {
        self.awaiting.as_deref()
    }
    /// The suggestions for the move from the position at ply `ply` (now, or in the history).
    pub(crate) fn crowd_at(&self, ply: usize) -> Option<&takhte_protocol::Crowd> {
        if ply == self.session.moves().len() {
            return self.suggestions.as_ref();
        }
        self.crowd.get(ply).and_then(Option::as_ref)
    }
    pub(crate) fn your_suggestion(&self) -> Option<&str> {
        self.your_suggestion.as_deref()
    }
}

/// The squares a move touches: origin then every landing.
pub fn move_path(mv: &AnyMove) -> Vec<Square> {
    match mv {
        AnyMove::Chess(m) => vec![m.from, m.to],
        AnyMove::Mine(mine::Move::Piece(m)) => vec![m.from, m.to],
        AnyMove::Mine(mine::Move::Sapper(s)) => vec![*s],
        AnyMove::Dice(m) => match (m.from(), m.to()) {
            (Some(f), Some(t)) => vec![f, t],
            _ => Vec::new(),
        },
        AnyMove::Draughts(m) => m.path.clone(),
    }
}

/// `white` or `black`.
pub fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// `white`, `black` or `draw`.
pub fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::Win(s) => side_word(s),
        GameResult::Draw => "draw",
    }
}
