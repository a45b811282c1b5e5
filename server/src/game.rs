//! A game as the server keeps it: the record stored after every change (the truth), the live
//! copy rebuilt from it (a cache), and [`Live::apply`], which turns a player's request into
//! events or a refusal. Nothing here touches sockets or the database.
//!
//! The server is the authority: it checks every move with the rules of `takhte-core`, rolls
//! the die of dice chess, lays the mines of minesweeper chess (from a seed that never leaves
//! it) and keeps the clocks in wall-clock milliseconds, so that any instance can take a game
//! over from its record and the clocks go on correctly.

use rand::Rng;
use serde::{Deserialize, Serialize};

use takhte_core::game::{GameStart, Session};
use takhte_core::net::protocol::{
    ClockSpec, ClockState, ColourChoice, EndState, ErrorCode, GameEvent, GameSettings,
    GameState, GameSummary, LobbyEntry, PlyView, SeatView,
};
use takhte_core::net::public::public_text;
use takhte_core::net::{CLAIM_AFTER_MS, LAG_ALLOWANCE_MS};
use takhte_core::rules::{dice, AnyGame, AnyMove, GameKind, GameResult, MoveError, Side};

/// The shortest and longest base times and the largest increment a game may have.
pub const MIN_BASE_MS: u64 = 1_000;
/// See [`MIN_BASE_MS`].
pub const MAX_BASE_MS: u64 = 3 * 3_600_000;
/// See [`MIN_BASE_MS`].
pub const MAX_INCREMENT_MS: u64 = 180_000;

/// One seat: who sits there (a hash of their token) and the name they show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// SHA-256 of the player token, hex.
    pub token_hash: String,
    /// The display name.
    pub name: String,
}

/// The running clocks: time left at the last change and, for the running side, since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRun {
    /// White's and Black's time left at `since_ms` (or when stopped).
    pub remaining: [u64; 2],
    /// The side whose clock runs: 0 White, 1 Black.
    pub running: Option<u8>,
    /// When the running clock started (milliseconds since the Unix epoch).
    pub since_ms: u64,
}

/// The stored record of a game: everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Record layout version.
    pub version: u32,
    /// The invite code (the game's key).
    pub code: String,
    /// What the creator chose.
    pub settings: GameSettings,
    /// When it was created (ms since the Unix epoch).
    pub created_ms: u64,
    /// When it last changed.
    pub updated_ms: u64,
    /// The mine seed (minesweeper chess). Never sent to a client.
    pub seed: u64,
    /// Dice chess start rolls.
    pub start_rolls: Vec<(u8, u8)>,
    /// White's and Black's seats.
    pub seats: [Option<Seat>; 2],
    /// The moves, machine notation.
    pub moves: Vec<String>,
    /// Dice chess: the face rolled for the turn now.
    pub rolled: Option<u8>,
    /// The clocks.
    pub clock: Option<ClockRun>,
    /// A pending draw offer by White (0) or Black (1).
    pub draw_offer: Option<u8>,
    /// A pending rematch offer.
    pub rematch_offer: Option<u8>,
    /// The rematch game's code.
    pub rematch: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// How it ended.
    pub end: Option<EndState>,
    /// The number of the last event.
    pub seq: u64,
    /// Who created it (token hash): the lobby shows the creator's name.
    pub creator: String,
}

/// The record's layout version.
pub const RECORD_VERSION: u32 = 1;

/// The stage of a game, as the store indexes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A seat is free.
    Waiting,
    /// Both seats taken, not ended.
    Playing,
    /// Ended (or aborted).
    Ended,
}

impl Stage {
    /// The stored word.
    pub fn word(self) -> &'static str {
        match self {
            Stage::Waiting => "waiting",
            Stage::Playing => "playing",
            Stage::Ended => "ended",
        }
    }
}

impl GameRecord {
    /// The stage.
    pub fn stage(&self) -> Stage {
        if self.end.is_some() {
            Stage::Ended
        } else if self.seats.iter().all(Option::is_some) {
            Stage::Playing
        } else {
            Stage::Waiting
        }
    }

    /// The seat a token hash holds.
    pub fn seat_of(&self, token_hash: &str) -> Option<Side> {
        [Side::White, Side::Black]
            .into_iter()
            .find(|s| self.seats[s.index()].as_ref().is_some_and(|x| x.token_hash == token_hash))
    }

    /// The game kind.
    pub fn kind(&self) -> GameKind {
        self.settings.kind
    }

    /// When the running clock's flag falls (ms since the Unix epoch), lag allowance included.
    pub fn deadline_ms(&self) -> Option<u64> {
        if self.end.is_some() {
            return None;
        }
        let c = self.clock?;
        let side = c.running? as usize;
        Some(c.since_ms + c.remaining[side] + LAG_ALLOWANCE_MS)
    }
}

/// A refusal: what was wrong, and one line of English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The error code sent to the client.
    pub code: ErrorCode,
    /// The message.
    pub message: String,
}

fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        code,
        message: message.into(),
    })
}

/// What a player asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Take the free seat (or, already seated, nothing).
    Join,
    /// Play a move at a ply.
    Move {
        /// The number of moves before it.
        ply: u32,
        /// The move text.
        mv: String,
    },
    /// Roll the die for the turn at a ply.
    Roll {
        /// The number of moves before the turn.
        ply: u32,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Answer a draw offer.
    AnswerDraw(bool),
    /// Call the game off before each side has moved.
    Abort,
    /// Claim the win over an opponent who has gone.
    ClaimWin,
    /// Offer or accept a rematch.
    Rematch,
    /// Change the display name.
    Rename(String),
}

/// Who asks.
#[derive(Clone, Debug)]
pub struct Actor {
    /// The token hash.
    pub token_hash: String,
    /// The display name.
    pub name: String,
}

/// When a request is applied, and what the hub knows beside the game.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: u64,
    /// How long the actor's opponent has been gone.
    pub opponent_away_ms: u64,
    /// How long an opponent must be gone before the win can be claimed.
    pub claim_after_ms: u64,
}

impl Context {
    /// A context at `now_ms` with the opponent here and the standard claim time.
    pub fn at(now_ms: u64) -> Context {
        Context {
            now_ms,
            opponent_away_ms: 0,
            claim_after_ms: CLAIM_AFTER_MS,
        }
    }
}

/// What applying a request produced beyond events.
#[derive(Debug, Default)]
pub struct Effects {
    /// A new game to store with this change (a rematch).
    pub new_game: Option<GameRecord>,
}

/// A game in memory: its record, the position with its history, and the public text of
/// every position (sent in states).
#[derive(Clone, Debug)]
pub struct Live {
    /// The stored record.
    pub rec: GameRecord,
    game: AnyGame,
    publics: Vec<String>,
}

/// Why a stored record does not rebuild.
#[derive(Clone, Debug)]
pub struct Corrupt(pub String);

impl Live {
    /// Rebuilds a game from its record by replaying its moves.
    pub fn from_record(rec: GameRecord) -> Result<Live, Corrupt> {
        let start = start_of(&rec);
        let mut session = Session::new(start).map_err(|e| Corrupt(e.to_string()))?;
        let mut publics = vec![public_text(session.game())];
        for m in &rec.moves {
            session
                .play_text(m)
                .map_err(|e| Corrupt(format!("move {m}: {e}")))?;
            publics.push(public_text(session.game()));
        }
        Ok(Live {
            game: session.game().clone(),
            rec,
            publics,
        })
    }

    /// A new game created by `creator` with `settings`. `rng` draws the seed, the start rolls
    /// and a random colour.
    pub fn create(
        code: String,
        settings: GameSettings,
        creator: &Actor,
        now_ms: u64,
        rng: &mut impl Rng,
    ) -> Result<Live, Refusal> {
        check_settings(&settings)?;
        let seat = match settings.colour {
            ColourChoice::White => Side::White,
            ColourChoice::Black => Side::Black,
            ColourChoice::Random => {
                if rng.gen_bool(0.5) {
                    Side::White
                } else {
                    Side::Black
                }
            }
        };
        let mut start_rolls = Vec::new();
        if settings.kind == GameKind::DiceChess && settings.position.is_none() {
            loop {
                let pair = (rng.gen_range(1..=6), rng.gen_range(1..=6));
                start_rolls.push(pair);
                if pair.0 != pair.1 {
                    break;
                }
            }
        }
        let mut seats = [None, None];
        seats[seat.index()] = Some(Seat {
            token_hash: creator.token_hash.clone(),
            name: creator.name.clone(),
        });
        let rec = GameRecord {
            version: RECORD_VERSION,
            code,
            clock: settings.clock.map(|c| ClockRun {
                remaining: [c.base_ms; 2],
                running: None,
                since_ms: now_ms,
            }),
            settings,
            created_ms: now_ms,
            updated_ms: now_ms,
            seed: rng.gen(),
            start_rolls,
            seats,
            moves: Vec::new(),
            rolled: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            rematch_of: None,
            end: None,
            seq: 0,
            creator: creator.token_hash.clone(),
        };
        Live::from_record(rec).map_err(|e| Refusal {
            code: ErrorCode::BadSettings,
            message: e.0,
        })
    }

    /// The position now.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The clocks at `now_ms`, as sent to clients.
    pub fn clocks_at(&self, now_ms: u64) -> Option<ClockState> {
        let c = self.rec.clock?;
        let mut rem = c.remaining;
        if let (Some(side), None) = (c.running, &self.rec.end) {
            let s = side as usize;
            rem[s] = rem[s].saturating_sub(now_ms.saturating_sub(c.since_ms));
        }
        Some(ClockState {
            white_ms: rem[0],
            black_ms: rem[1],
            running: c.running.filter(|_| self.rec.end.is_none()).map(side_of),
        })
    }

    /// The whole state for one client (`you`: its seat), with each seat's presence.
    pub fn state_for(&self, you: Option<Side>, presence: [(bool, u64); 2], now_ms: u64) -> GameState {
        let r = &self.rec;
        GameState {
            code: r.code.clone(),
            seq: r.seq,
            kind: r.kind(),
            clock: r.settings.clock,
            public: r.settings.public,
            seats: [0, 1].map(|i| SeatView {
                name: r.seats[i].as_ref().map(|s| s.name.clone()),
                online: presence[i].0,
                away_ms: presence[i].1,
            }),
            you,
            start: self.publics[0].clone(),
            start_rolls: r.start_rolls.clone(),
            plies: r
                .moves
                .iter()
                .zip(&self.publics[1..])
                .map(|(m, p)| PlyView {
                    mv: m.clone(),
                    position: p.clone(),
                })
                .collect(),
            rolled: r.rolled,
            clocks: self.clocks_at(now_ms),
            draw_offer: r.draw_offer.map(side_of),
            rematch_offer: r.rematch_offer.map(side_of),
            rematch: r.rematch.clone(),
            end: r.end.clone(),
        }
    }

    /// The lobby entry of a waiting game.
    pub fn lobby_entry(&self) -> Option<LobbyEntry> {
        let r = &self.rec;
        if r.stage() != Stage::Waiting {
            return None;
        }
        let free = [Side::White, Side::Black]
            .into_iter()
            .find(|s| r.seats[s.index()].is_none())?;
        let creator = r.seats[free.opponent().index()].as_ref()?.name.clone();
        Some(LobbyEntry {
            code: r.code.clone(),
            kind: r.kind(),
            clock: r.settings.clock,
            creator,
            free_seat: free,
            created_ms: r.created_ms,
        })
    }

    /// The summary of this game for the player in `seat`.
    pub fn summary_for(&self, seat: Side) -> GameSummary {
        let r = &self.rec;
        GameSummary {
            code: r.code.clone(),
            kind: r.kind(),
            clock: r.settings.clock,
            you: seat,
            opponent: r.seats[seat.opponent().index()]
                .as_ref()
                .map(|s| s.name.clone()),
            plies: r.moves.len() as u32,
            your_turn: r.stage() == Stage::Playing && self.game.side_to_move() == seat,
        }
    }

    /// Applies a request by `actor` in `ctx` (the time, and how long the opponent has been
    /// gone, for a claim). On success the record has changed (its `seq`
    /// counts the events) and the events are returned; a refusal changes nothing.
    pub fn apply(
        &mut self,
        actor: &Actor,
        cmd: Command,
        ctx: &Context,
        rng: &mut impl Rng,
    ) -> Result<(Vec<GameEvent>, Effects), Refusal> {
        let mut next = self.clone();
        let mut effects = Effects::default();
        let events = next.apply_inner(actor, cmd, ctx, rng, &mut effects)?;
        if !events.is_empty() {
            next.rec.seq += events.len() as u64;
            next.rec.updated_ms = ctx.now_ms;
        }
        *self = next;
        Ok((events, effects))
    }

    /// Ends the game on time if the running clock's flag has fallen by `now_ms`.
    pub fn check_time(&mut self, now_ms: u64) -> Vec<GameEvent> {
        let Some(deadline) = self.rec.deadline_ms() else {
            return Vec::new();
        };
        if now_ms < deadline {
            return Vec::new();
        }
        let loser = side_of(self.rec.clock.and_then(|c| c.running).unwrap_or(0));
        let ev = self.flag(loser, now_ms);
        self.rec.seq += 1;
        self.rec.updated_ms = now_ms;
        vec![ev]
    }

    fn flag(&mut self, loser: Side, now_ms: u64) -> GameEvent {
        if let Some(c) = self.rec.clock.as_mut() {
            c.remaining[loser.index()] = 0;
            c.running = None;
            c.since_ms = now_ms;
        }
        let draw = !can_possibly_win(&self.game, loser.opponent());
        let end = EndState {
            winner: if draw { None } else { Some(loser.opponent()) },
            reason: if draw {
                "time-insufficient-material".into()
            } else {
                "time".into()
            },
        };
        self.end_with(end, now_ms)
    }

    fn end_with(&mut self, end: EndState, now_ms: u64) -> GameEvent {
        if let Some(c) = self.rec.clock.as_mut() {
            if let Some(side) = c.running.take() {
                let s = side as usize;
                c.remaining[s] = c.remaining[s].saturating_sub(now_ms.saturating_sub(c.since_ms));
            }
            c.since_ms = now_ms;
        }
        self.rec.end = Some(end.clone());
        self.rec.draw_offer = None;
        self.rec.rolled = None;
        GameEvent::Ended {
            end,
            clocks: self.clocks_at(now_ms),
        }
    }

    fn apply_inner(
        &mut self,
        actor: &Actor,
        cmd: Command,
        ctx: &Context,
        rng: &mut impl Rng,
        effects: &mut Effects,
    ) -> Result<Vec<GameEvent>, Refusal> {
        let now_ms = ctx.now_ms;
        let seat = self.rec.seat_of(&actor.token_hash);
        if cmd == Command::Join {
            return self.join(actor, seat);
        }
        let Some(me) = seat else {
            return refuse(ErrorCode::NotAPlayer, "you do not sit at this game");
        };
        if let Command::Rename(name) = &cmd {
            let s = self.rec.seats[me.index()].as_mut().expect("seated");
            if s.name == *name {
                return Ok(Vec::new());
            }
            s.name = name.clone();
            return Ok(vec![GameEvent::Renamed {
                seat: me,
                name: name.clone(),
            }]);
        }
        if cmd == Command::Rematch {
            return self.rematch(me, now_ms, rng, effects);
        }
        if self.rec.end.is_some() {
            // A move sent again after the end (its first copy was played) is no error.
            if let Command::Move { ply, mv } = &cmd {
                if self.rec.moves.get(*ply as usize) == Some(mv) {
                    return Ok(Vec::new());
                }
            }
            return refuse(ErrorCode::GameOver, "the game has ended");
        }
        if cmd == Command::Abort {
            if self.rec.moves.len() >= 2 {
                return refuse(ErrorCode::CannotAbort, "a game can be aborted only before each side has moved");
            }
            return Ok(vec![self.end_with(
                EndState {
                    winner: None,
                    reason: "aborted".into(),
                },
                now_ms,
            )]);
        }
        if self.rec.stage() != Stage::Playing {
            return refuse(ErrorCode::NotStarted, "nobody has taken the other seat yet");
        }
        // A flag that has fallen ends the game before anything else is looked at.
        if let Some(deadline) = self.rec.deadline_ms() {
            if now_ms >= deadline {
                let loser = side_of(self.rec.clock.and_then(|c| c.running).unwrap_or(0));
                return Ok(vec![self.flag(loser, now_ms)]);
            }
        }
        match cmd {
            Command::Move { ply, mv } => self.play(me, ply, &mv, now_ms),
            Command::Roll { ply } => self.roll(me, ply, now_ms, rng),
            Command::Resign => Ok(vec![self.end_with(
                EndState {
                    winner: Some(me.opponent()),
                    reason: "resignation".into(),
                },
                now_ms,
            )]),
            Command::OfferDraw => match self.rec.draw_offer.map(side_of) {
                Some(s) if s == me => refuse(ErrorCode::NoDrawOffer, "your draw offer is waiting for an answer"),
                Some(_) => Ok(vec![self.end_with(
                    EndState {
                        winner: None,
                        reason: "agreement".into(),
                    },
                    now_ms,
                )]),
                None => {
                    self.rec.draw_offer = Some(me.index() as u8);
                    Ok(vec![GameEvent::DrawOffered { by: me }])
                }
            },
            Command::AnswerDraw(accept) => match self.rec.draw_offer.map(side_of) {
                Some(s) if s != me => {
                    if accept {
                        Ok(vec![self.end_with(
                            EndState {
                                winner: None,
                                reason: "agreement".into(),
                            },
                            now_ms,
                        )])
                    } else {
                        self.rec.draw_offer = None;
                        Ok(vec![GameEvent::DrawDeclined { by: me }])
                    }
                }
                _ => refuse(ErrorCode::NoDrawOffer, "there is no draw offer to answer"),
            },
            Command::ClaimWin => {
                if ctx.opponent_away_ms < ctx.claim_after_ms {
                    return refuse(
                        ErrorCode::CannotClaim,
                        format!(
                            "the opponent has been gone {} s; a claim needs {} s",
                            ctx.opponent_away_ms / 1000,
                            ctx.claim_after_ms / 1000
                        ),
                    );
                }
                let end = if self.rec.moves.len() < 2 {
                    EndState {
                        winner: None,
                        reason: "aborted".into(),
                    }
                } else {
                    EndState {
                        winner: Some(me),
                        reason: "abandoned".into(),
                    }
                };
                Ok(vec![self.end_with(end, now_ms)])
            }
            Command::Join | Command::Abort | Command::Rematch | Command::Rename(_) => {
                unreachable!("handled above")
            }
        }
    }

    fn join(&mut self, actor: &Actor, seat: Option<Side>) -> Result<Vec<GameEvent>, Refusal> {
        if seat.is_some() {
            return Ok(Vec::new());
        }
        if self.rec.end.is_some() {
            return refuse(ErrorCode::GameOver, "the game has ended");
        }
        let Some(free) = [Side::White, Side::Black]
            .into_iter()
            .find(|s| self.rec.seats[s.index()].is_none())
        else {
            return refuse(ErrorCode::GameFull, "both seats are taken");
        };
        self.rec.seats[free.index()] = Some(Seat {
            token_hash: actor.token_hash.clone(),
            name: actor.name.clone(),
        });
        Ok(vec![GameEvent::Seated {
            seat: free,
            name: actor.name.clone(),
        }])
    }

    fn check_turn(&self, me: Side, ply: u32) -> Result<(), Refusal> {
        let n = self.rec.moves.len() as u32;
        if ply != n {
            return refuse(
                ErrorCode::WrongPly,
                format!("the game is at ply {n}, not {ply}"),
            );
        }
        if self.game.side_to_move() != me {
            return refuse(ErrorCode::NotYourTurn, "it is the other side's turn");
        }
        Ok(())
    }

    fn play(&mut self, me: Side, ply: u32, text: &str, now_ms: u64) -> Result<Vec<GameEvent>, Refusal> {
        if (ply as usize) < self.rec.moves.len() && self.rec.moves[ply as usize] == text {
            // The same move sent again after a lost connection: already played.
            return Ok(Vec::new());
        }
        self.check_turn(me, ply)?;
        if let (AnyGame::Dice(_), Some((face, rest))) = (&self.game, text.split_once(':')) {
            // The face is the server's: checked before the move itself.
            if rest.trim() == "-" {
                return refuse(ErrorCode::ForgedDie, "the server plays empty rolls itself");
            }
            match self.rec.rolled {
                None => return refuse(ErrorCode::ForgedDie, "roll the die before a pawn move"),
                Some(r) if face.trim() != r.to_string() => {
                    return refuse(
                        ErrorCode::ForgedDie,
                        format!("the die shows {r}, not {}", face.trim()),
                    )
                }
                _ => {}
            }
        }
        let mv = self.game.parse_move(text).map_err(|e| Refusal {
            code: match e {
                MoveError::GameOver => ErrorCode::GameOver,
                _ => ErrorCode::IllegalMove,
            },
            message: e.to_string(),
        })?;
        if let AnyMove::Dice(d) = &mv {
            match (d, self.rec.rolled) {
                (dice::Move::Pass { .. }, _) => {
                    return refuse(ErrorCode::ForgedDie, "the server plays empty rolls itself")
                }
                (dice::Move::Pawn { face, .. }, Some(r)) if *face != r => {
                    return refuse(
                        ErrorCode::ForgedDie,
                        format!("the die shows {r}, not {face}"),
                    )
                }
                (dice::Move::Pawn { .. }, None) => {
                    return refuse(ErrorCode::ForgedDie, "roll the die before a pawn move")
                }
                (dice::Move::King { .. }, Some(r)) => {
                    return refuse(
                        ErrorCode::IllegalMove,
                        format!("the die is rolled ({r}): move a pawn with it"),
                    )
                }
                _ => {}
            }
        }
        Ok(self.commit_move(me, &mv, now_ms))
    }

    /// Plays a checked move: clocks, the move, the end if it ends the game.
    fn commit_move(&mut self, me: Side, mv: &AnyMove, now_ms: u64) -> Vec<GameEvent> {
        let ply = self.rec.moves.len() as u32;
        let text = self.game.move_to_text(mv);
        self.game.play(mv).expect("a checked move plays");
        self.rec.moves.push(text.clone());
        let public = public_text(&self.game);
        self.publics.push(public.clone());
        self.rec.rolled = None;
        self.rec.draw_offer = None;
        let over = self.game.outcome();
        if let (Some(c), Some(spec)) = (self.rec.clock.as_mut(), self.rec.settings.clock) {
            if c.running == Some(me.index() as u8) {
                let used = now_ms
                    .saturating_sub(c.since_ms)
                    .saturating_sub(LAG_ALLOWANCE_MS);
                let s = me.index();
                c.remaining[s] = c.remaining[s].saturating_sub(used) + spec.increment_ms;
            } else if c.running.is_none() && ply > 0 {
                c.remaining[me.index()] += spec.increment_ms;
            }
            c.running = if over.is_none() {
                Some(me.opponent().index() as u8)
            } else {
                None
            };
            c.since_ms = now_ms;
        }
        let mut events = vec![GameEvent::Moved {
            ply,
            mv: text,
            position: public,
            clocks: self.clocks_at(now_ms),
        }];
        if let Some(o) = over {
            events.push(self.end_with(
                EndState {
                    winner: match o.result {
                        GameResult::Win(s) => Some(s),
                        GameResult::Draw => None,
                    },
                    reason: o.reason.as_str().into(),
                },
                now_ms,
            ));
        }
        events
    }

    fn roll(&mut self, me: Side, ply: u32, now_ms: u64, rng: &mut impl Rng) -> Result<Vec<GameEvent>, Refusal> {
        let AnyGame::Dice(l) = &self.game else {
            return refuse(ErrorCode::CannotRoll, "only dice chess has a die");
        };
        if self.rec.rolled.is_some() && ply as usize == self.rec.moves.len() && self.game.side_to_move() == me {
            // The same roll asked again after a lost connection: it was rolled once.
            return Ok(Vec::new());
        }
        self.check_turn(me, ply)?;
        let pos = l.position();
        if !pos.can_roll() {
            return refuse(ErrorCode::CannotRoll, "a side without pawns cannot roll");
        }
        let face: u8 = rng.gen_range(1..=6);
        let empty = pos.pawn_moves(face).is_empty();
        self.rec.rolled = Some(face);
        let mut events = vec![GameEvent::Rolled { ply, face }];
        if empty {
            events.extend(self.commit_move(me, &AnyMove::Dice(dice::Move::Pass { face }), now_ms));
        }
        Ok(events)
    }

    fn rematch(
        &mut self,
        me: Side,
        now_ms: u64,
        rng: &mut impl Rng,
        effects: &mut Effects,
    ) -> Result<Vec<GameEvent>, Refusal> {
        if self.rec.end.is_none() {
            return refuse(ErrorCode::CannotRematch, "the game is not over");
        }
        if self.rec.rematch.is_some() {
            return Ok(Vec::new());
        }
        if self.rec.seats.iter().any(Option::is_none) {
            return refuse(ErrorCode::CannotRematch, "nobody else sat at this game");
        }
        match self.rec.rematch_offer.map(side_of) {
            Some(s) if s == me => Ok(Vec::new()),
            None => {
                self.rec.rematch_offer = Some(me.index() as u8);
                Ok(vec![GameEvent::RematchOffered { by: me }])
            }
            Some(_) => {
                // Both want it: a new game with the colours swapped.
                let code = takhte_core::net::code::generate(rng);
                let mut settings = self.rec.settings.clone();
                settings.colour = ColourChoice::White;
                let old = self.rec.seats.clone();
                let new_white = old[1].clone().expect("seated");
                let creator = Actor {
                    token_hash: new_white.token_hash.clone(),
                    name: new_white.name.clone(),
                };
                let mut new = Live::create(code.clone(), settings, &creator, now_ms, rng)?;
                new.rec.seats = [old[1].clone(), old[0].clone()];
                new.rec.rematch_of = Some(self.rec.code.clone());
                effects.new_game = Some(new.rec);
                self.rec.rematch = Some(code.clone());
                self.rec.rematch_offer = None;
                Ok(vec![GameEvent::Rematch { code }])
            }
        }
    }
}

/// White for 0, Black for 1.
pub fn side_of(i: u8) -> Side {
    if i == 0 {
        Side::White
    } else {
        Side::Black
    }
}

fn start_of(rec: &GameRecord) -> GameStart {
    GameStart {
        kind: rec.kind(),
        position: rec.settings.position.clone(),
        seed: rec.seed,
        start_rolls: rec.start_rolls.clone(),
    }
}

/// Whether `side` could still win by any series of legal moves (for a flag fall): chess and
/// minesweeper chess by the FIDE rule, dice chess only with a pawn (a lone king cannot mate),
/// draughts always.
pub fn can_possibly_win(game: &AnyGame, side: Side) -> bool {
    match game {
        AnyGame::Chess(l) => l.position().board().can_possibly_mate(side),
        AnyGame::Mine(l) => l.position().board().can_possibly_mate(side),
        AnyGame::Dice(l) => {
            let pos = l.position();
            (0..64u8).any(|i| {
                pos.piece_at(takhte_core::rules::Square(i))
                    .is_some_and(|p| p.side == side && p.kind == dice::PieceKind::Pawn)
            })
        }
        AnyGame::Draughts(_) => true,
    }
}

/// Checks a new game's settings: a time control in range; a start position that reads,
/// is not over, and is not of minesweeper chess.
pub fn check_settings(s: &GameSettings) -> Result<(), Refusal> {
    if let Some(ClockSpec {
        base_ms,
        increment_ms,
    }) = s.clock
    {
        if !(MIN_BASE_MS..=MAX_BASE_MS).contains(&base_ms) || increment_ms > MAX_INCREMENT_MS {
            return refuse(
                ErrorCode::BadSettings,
                format!(
                    "a clock needs 1 s to 3 h and at most 180 s a move, not {base_ms} ms + {increment_ms} ms"
                ),
            );
        }
    }
    if let Some(p) = &s.position {
        if s.kind == GameKind::MineChess {
            return refuse(
                ErrorCode::BadSettings,
                "minesweeper chess starts from its own position (a position text would show the mines)",
            );
        }
        if p.len() > 200 {
            return refuse(ErrorCode::BadSettings, "the position text is too long");
        }
        let game = AnyGame::from_text(s.kind, p).map_err(|e| Refusal {
            code: ErrorCode::BadSettings,
            message: e.to_string(),
        })?;
        if game.outcome().is_some() {
            return refuse(ErrorCode::BadSettings, "the position is already over");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn actor(n: u8) -> Actor {
        Actor {
            token_hash: format!("hash{n}"),
            name: format!("player {n}"),
        }
    }

    fn started(kind: GameKind, clock: Option<ClockSpec>) -> (Live, rand_chacha::ChaCha8Rng) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let settings = GameSettings {
            kind,
            clock,
            colour: ColourChoice::White,
            public: false,
            position: None,
        };
        let mut g = Live::create("ABCDEF".into(), settings, &actor(1), 0, &mut rng).unwrap();
        g.apply(&actor(2), Command::Join, &Context::at(0), &mut rng).unwrap();
        (g, rng)
    }

    #[test]
    fn refusals_leave_the_game_as_it_was() {
        let (mut g, mut rng) = started(GameKind::Chess, None);
        let before = g.rec.clone();
        let cases = [
            (actor(2), Command::Move { ply: 0, mv: "e7e5".into() }, ErrorCode::NotYourTurn),
            (actor(1), Command::Move { ply: 1, mv: "e2e4".into() }, ErrorCode::WrongPly),
            (actor(1), Command::Move { ply: 0, mv: "e2e5".into() }, ErrorCode::IllegalMove),
            (actor(1), Command::Move { ply: 0, mv: "zz".into() }, ErrorCode::IllegalMove),
            (actor(3), Command::Move { ply: 0, mv: "e2e4".into() }, ErrorCode::NotAPlayer),
            (actor(1), Command::Roll { ply: 0 }, ErrorCode::CannotRoll),
            (actor(1), Command::AnswerDraw(true), ErrorCode::NoDrawOffer),
            (actor(1), Command::ClaimWin, ErrorCode::CannotClaim),
            (actor(3), Command::Join, ErrorCode::GameFull),
        ];
        for (who, cmd, code) in cases {
            let err = g.apply(&who, cmd.clone(), &Context::at(10), &mut rng).unwrap_err();
            assert_eq!(err.code, code, "{cmd:?}");
            assert_eq!(g.rec, before, "{cmd:?} changed the game");
        }
    }

    #[test]
    fn a_move_sent_twice_is_played_once() {
        let (mut g, mut rng) = started(GameKind::Chess, None);
        let (ev, _) = g.apply(&actor(1), Command::Move { ply: 0, mv: "e2e4".into() }, &Context::at(5), &mut rng).unwrap();
        assert_eq!(ev.len(), 1);
        let (ev, _) = g.apply(&actor(1), Command::Move { ply: 0, mv: "e2e4".into() }, &Context::at(6), &mut rng).unwrap();
        assert!(ev.is_empty());
        assert_eq!(g.rec.moves, ["e2e4"]);
    }

    #[test]
    fn dice_faces_come_from_the_server() {
        let (mut g, mut rng) = started(GameKind::DiceChess, None);
        let first = g.game().side_to_move();
        let who = if first == Side::White { actor(1) } else { actor(2) };
        // A pawn move without a roll, with a made-up face.
        let pawn = if first == Side::White { "1:a2a3" } else { "1:a7a6" };
        let err = g.apply(&who, Command::Move { ply: 0, mv: pawn.into() }, &Context::at(1), &mut rng).unwrap_err();
        assert_eq!(err.code, ErrorCode::ForgedDie);
        let (ev, _) = g.apply(&who, Command::Roll { ply: 0 }, &Context::at(1), &mut rng).unwrap();
        let GameEvent::Rolled { face, .. } = ev[0] else { panic!("{ev:?}") };
        let wrong = if face == 1 { 2 } else { 1 };
        let forged = format!("{wrong}:{}", &pawn[2..]);
        let err = g.apply(&who, Command::Move { ply: 0, mv: forged }, &Context::at(2), &mut rng).unwrap_err();
        assert_eq!(err.code, ErrorCode::ForgedDie);
        // Asked again (a resend after a lost connection): no second roll.
        let (ev, _) = g.apply(&who, Command::Roll { ply: 0 }, &Context::at(2), &mut rng).unwrap();
        assert!(ev.is_empty());
        assert_eq!(g.rec.rolled, Some(face));
    }

    #[test]
    fn clocks_charge_the_mover_and_flags_fall() {
        let spec = ClockSpec {
            base_ms: 10_000,
            increment_ms: 1_000,
        };
        let (mut g, mut rng) = started(GameKind::Chess, Some(spec));
        g.apply(&actor(1), Command::Move { ply: 0, mv: "e2e4".into() }, &Context::at(1_000), &mut rng).unwrap();
        // Black's clock runs from 1 000 ms; 4 000 ms later (300 of them allowed for lag).
        g.apply(&actor(2), Command::Move { ply: 1, mv: "e7e5".into() }, &Context::at(5_000), &mut rng).unwrap();
        let c = g.rec.clock.unwrap();
        assert_eq!(c.remaining[1], 10_000 - 3_700 + 1_000);
        assert_eq!(c.running, Some(0));
        // White's flag: 10 000 (no increment for the move made before the clocks ran) + the
        // allowance.
        assert_eq!(c.remaining[0], 10_000);
        assert!(g.check_time(5_000 + 10_299).is_empty());
        let ev = g.check_time(5_000 + 10_300);
        assert!(matches!(&ev[0], GameEvent::Ended { end, .. } if end.reason == "time" && end.winner == Some(Side::Black)));
    }
}
