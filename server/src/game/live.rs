//! The game in memory and [`Live::apply`]: a request checked with the rules and turned into
//! events (or refused, the game unchanged).

use rand::Rng;

use takhte_protocol::public::public_text;
use takhte_protocol::LAG_ALLOWANCE_MS;
use takhte_protocol::{
    ClockSpec, ClockState, ColourChoice, Crowd, EndState, ErrorCode, GameEvent, GameSettings,
    GameState, GameSummary, LiveEntry, LobbyEntry, PlyView, SeatView,
};
use takhte_rules::{dice, AnyGame, AnyMove, GameKind, GameResult, GameStart, MoveError, Side};

use super::record::*;

/// What a client may see of the spectators, for [`Live::state_for`].
#[derive(Clone, Debug, Default)]
pub struct WatchView {
    /// Spectators watching.
    pub spectators: u32,
    /// The suggestions for the move now, if this client may see them.
    pub suggestions: Option<Crowd>,
    /// The client's own suggestion (a spectator).
    pub yours: Option<String>,
}
use super::record::refuse;

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
        let mut game = start_of(&rec)
            .first_position()
            .map_err(|e| Corrupt(e.to_string()))?;
        let mut publics = vec![public_text(&game)];
        for m in &rec.moves {
            game.play_text(m)
                .map_err(|e| Corrupt(format!("move {m}: {e}")))?;
            publics.push(public_text(&game));
        }
        Ok(Live { game, rec, publics })
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
            rating: None,
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
            draw_offered_at: [None, None],
            rematch_offer: None,
            rematch: None,
            rematch_of: None,
            end: None,
            seq: 0,
            creator: creator.token_hash.clone(),
            crowd: Vec::new(),
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

    /// The whole state for one client (`you`: its seat, `None` for a spectator), with each
    /// seat's presence and what it may see of the spectators.
    pub fn state_for(
        &self,
        you: Option<Side>,
        presence: [(bool, u64); 2],
        now_ms: u64,
        watch: &WatchView,
    ) -> GameState {
        let r = &self.rec;
        // Players see the suggestions of the past once the game is over; spectators always.
        let history = you.is_none() || r.end.is_some();
        GameState {
            spectators_allowed: r.settings.spectators,
            request: None,
            audience: r.settings.audience,
            rated: r.settings.rated,
            spectators: watch.spectators,
            suggestions: watch.suggestions.clone(),
            your_suggestion: watch.yours.clone(),
            crowd: if history { r.crowd.clone() } else { Vec::new() },
            code: r.code.clone(),
            seq: r.seq,
            kind: r.kind(),
            clock: r.settings.clock,
            public: r.settings.public,
            seats: [0, 1].map(|i| SeatView {
                name: r.seats[i].as_ref().map(|s| s.name.clone()),
                online: presence[i].0,
                away_ms: presence[i].1,
                player: r.seats[i].as_ref().map(|s| crate::player_id(&s.token_hash)),
                rating: r.seats[i].as_ref().and_then(|s| s.rating),
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
            draw_offered_at: r.draw_offered_at,
            rematch_offer: r.rematch_offer.map(side_of),
            rematch: r.rematch.clone(),
            end: r.end.clone(),
        }
    }

    /// What suggestions are checked against now (a copy: checking takes no lock of the game).
    pub fn suggestion_board(&self) -> SuggestionBoard {
        let closed = if self.rec.end.is_some() {
            Some((ErrorCode::GameOver, "the game has ended"))
        } else if self.rec.stage() != Stage::Playing {
            Some((ErrorCode::NotStarted, "the game has not started"))
        } else {
            None
        };
        SuggestionBoard {
            game: self.game.clone(),
            ply: self.rec.moves.len() as u32,
            rolled: self.rec.rolled,
            closed,
        }
    }

    /// The entry of the live games list.
    pub fn live_entry(&self, spectators: u32) -> LiveEntry {
        let r = &self.rec;
        LiveEntry {
            code: r.code.clone(),
            kind: r.kind(),
            clock: r.settings.clock,
            players: [0, 1].map(|i| {
                r.seats[i]
                    .as_ref()
                    .map(|s| s.name.clone())
                    .unwrap_or_default()
            }),
            plies: r.moves.len() as u32,
            spectators,
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
        let seat = r.seats[free.opponent().index()].as_ref()?;
        Some(LobbyEntry {
            code: r.code.clone(),
            kind: r.kind(),
            clock: r.settings.clock,
            creator: seat.name.clone(),
            creator_id: Some(crate::player_id(&seat.token_hash)),
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

    /// Gives back to the running clock the time the servers were not running, from
    /// `outage_from_ms` to `now_ms`: time nobody served is nobody's thinking time. The event
    /// that says so, or nothing when no clock was running then (the record is unchanged).
    pub fn resume(&mut self, outage_from_ms: u64, now_ms: u64) -> Option<GameEvent> {
        if self.rec.end.is_some() {
            return None;
        }
        let c = self.rec.clock.as_mut()?;
        c.running?;
        let from = c.since_ms.max(outage_from_ms);
        let lost = now_ms.checked_sub(from).filter(|l| *l > 0)?;
        c.since_ms += lost;
        self.rec.seq += 1;
        self.rec.updated_ms = now_ms;
        Some(GameEvent::Resumed {
            paused_ms: lost,
            clocks: self.clocks_at(now_ms),
        })
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
        let end = EndState::new(
            if draw { None } else { Some(loser.opponent()) },
            if draw {
                "time-insufficient-material".into()
            } else {
                "time".into()
            },
        );
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
                if self.is_my_move_again(me, *ply, mv) {
                    return Ok(Vec::new());
                }
            }
            return refuse(ErrorCode::GameOver, "the game has ended");
        }
        if cmd == Command::Abort {
            if self.rec.moves.len() >= 2 {
                return refuse(
                    ErrorCode::CannotAbort,
                    "a game can be aborted only before each side has moved",
                );
            }
            return Ok(vec![
                self.end_with(EndState::new(None, "aborted".into()), now_ms)
            ]);
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
            Command::Move { ply, mv } => self.play(me, ply, &mv, now_ms, ctx.crowd.clone()),
            Command::Roll { ply } => self.roll(me, ply, now_ms, rng, ctx.crowd.clone()),
            Command::Resign => Ok(vec![self.end_with(
                EndState::new(Some(me.opponent()), "resignation".into()),
                now_ms,
            )]),
            Command::OfferDraw => self.offer_draw(me, now_ms),
            Command::AnswerDraw(accept) => self.answer_draw(me, accept, now_ms),
            Command::ClaimWin => self.claim_win(me, ctx),
            Command::Join | Command::Abort | Command::Rematch | Command::Rename(_) => {
                unreachable!("handled above")
            }
        }
    }

    /// A draw offered (or, when the other side's offer waits, agreed): one offer a move.
    fn offer_draw(&mut self, me: Side, now_ms: u64) -> Result<Vec<GameEvent>, Refusal> {
        match self.rec.draw_offer.map(side_of) {
            Some(s) if s == me => refuse(
                ErrorCode::NoDrawOffer,
                "your draw offer is waiting for an answer",
            ),
            Some(_) => Ok(vec![
                self.end_with(EndState::new(None, "agreement".into()), now_ms)
            ]),
            None => {
                let now = self.rec.moves.len() as u32;
                let last = &mut self.rec.draw_offered_at[me.index()];
                if last.is_some_and(|at| now < at + 2) {
                    return refuse(
                        ErrorCode::DrawOfferTooSoon,
                        "one draw offer a move: offer again after the next move",
                    );
                }
                *last = Some(now);
                self.rec.draw_offer = Some(me.index() as u8);
                Ok(vec![GameEvent::DrawOffered { by: me }])
            }
        }
    }

    /// The answer to the other side's draw offer.
    fn answer_draw(
        &mut self,
        me: Side,
        accept: bool,
        now_ms: u64,
    ) -> Result<Vec<GameEvent>, Refusal> {
        match self.rec.draw_offer.map(side_of) {
            Some(s) if s != me => {
                if accept {
                    Ok(vec![
                        self.end_with(EndState::new(None, "agreement".into()), now_ms)
                    ])
                } else {
                    self.rec.draw_offer = None;
                    Ok(vec![GameEvent::DrawDeclined { by: me }])
                }
            }
            _ => refuse(ErrorCode::NoDrawOffer, "there is no draw offer to answer"),
        }
    }

    /// The win claimed over an opponent gone long enough (before each side has moved, the
    /// game is aborted instead).
    fn claim_win(&mut self, me: Side, ctx: &Context) -> Result<Vec<GameEvent>, Refusal> {
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
            EndState::new(None, "aborted".into())
        } else {
            EndState::new(Some(me), "abandoned".into())
        };
        Ok(vec![self.end_with(end, ctx.now_ms)])
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
            rating: None,
        });
        Ok(vec![GameEvent::Seated {
            seat: free,
            name: actor.name.clone(),
            player: Some(crate::player_id(&actor.token_hash)),
            rating: None,
        }])
    }

    /// Whether `text` is the move `me` already played at `ply` (sent again after a lost
    /// connection). Sides alternate ply by ply (an empty roll in dice chess is a ply too), so
    /// the side of a past ply follows from the side to move now. The other side's move sent
    /// back is not this: it is refused as any move for a past ply.
    fn is_my_move_again(&self, me: Side, ply: u32, text: &str) -> bool {
        let n = self.rec.moves.len() as u32;
        if ply >= n || self.rec.moves[ply as usize] != text {
            return false;
        }
        let now = self.game.side_to_move();
        let mover = if (n - ply).is_multiple_of(2) {
            now
        } else {
            now.opponent()
        };
        mover == me
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

    fn play(
        &mut self,
        me: Side,
        ply: u32,
        text: &str,
        now_ms: u64,
        crowd: Option<Crowd>,
    ) -> Result<Vec<GameEvent>, Refusal> {
        if self.is_my_move_again(me, ply, text) {
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
        Ok(self.commit_move(me, &mv, now_ms, crowd))
    }

    /// Plays a checked move: clocks, the move (with what the spectators had suggested for it),
    /// the end if it ends the game.
    fn commit_move(
        &mut self,
        me: Side,
        mv: &AnyMove,
        now_ms: u64,
        crowd: Option<Crowd>,
    ) -> Vec<GameEvent> {
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
        self.rec.crowd.resize(ply as usize, None);
        self.rec.crowd.push(crowd.clone());
        let mut events = vec![GameEvent::Moved {
            ply,
            mv: text,
            position: public,
            clocks: self.clocks_at(now_ms),
            crowd,
        }];
        if let Some(o) = over {
            events.push(self.end_with(
                EndState::new(
                    match o.result {
                        GameResult::Win(s) => Some(s),
                        GameResult::Draw => None,
                    },
                    o.reason.as_str().into(),
                ),
                now_ms,
            ));
        }
        events
    }

    fn roll(
        &mut self,
        me: Side,
        ply: u32,
        now_ms: u64,
        rng: &mut impl Rng,
        crowd: Option<Crowd>,
    ) -> Result<Vec<GameEvent>, Refusal> {
        let AnyGame::Dice(l) = &self.game else {
            return refuse(ErrorCode::CannotRoll, "only dice chess has a die");
        };
        if self.rec.rolled.is_some()
            && ply as usize == self.rec.moves.len()
            && self.game.side_to_move() == me
        {
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
            events.extend(self.commit_move(
                me,
                &AnyMove::Dice(dice::Move::Pass { face }),
                now_ms,
                crowd,
            ));
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
        if let Some(code) = &self.rec.rematch {
            return refuse(
                ErrorCode::CannotRematch,
                format!("the rematch has been made already: {code}"),
            );
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
                let code = takhte_protocol::code::generate(rng);
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
                pos.piece_at(takhte_rules::Square(i))
                    .is_some_and(|p| p.side == side && p.kind == dice::PieceKind::Pawn)
            })
        }
        AnyGame::Draughts(_) => true,
    }
}

/// Checks a new game's settings: a time control in range; a start position that reads,
/// is not over, and is not of minesweeper chess.
pub fn check_settings(s: &GameSettings) -> Result<(), Refusal> {
    if s.audience && !s.spectators {
        return refuse(
            ErrorCode::BadSettings,
            "an audience game needs spectators (spectators: true)",
        );
    }
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
        if s.kind == GameKind::Draughts {
            check_draughts_position(p)?;
        }
    }
    Ok(())
}

/// A set-up Turkish draughts position the server takes: [`Position::playable`] (at most
/// sixteen pieces a side, moves listable quickly now and one move later).
///
/// [`Position::playable`]: takhte_rules::draughts::Position::playable
fn check_draughts_position(text: &str) -> Result<(), Refusal> {
    use takhte_rules::draughts::Position;
    use takhte_rules::Rules;
    Position::from_text(text)
        .and_then(|pos| pos.playable())
        .map_err(|e| Refusal {
            code: ErrorCode::BadSettings,
            message: e.to_string(),
        })
}

/// A game as it stands, for checking spectators' suggestions without the game's lock: the
/// position, the ply, the face rolled, and why nothing may be suggested (the game has not
/// started, or has ended).
#[derive(Clone)]
pub struct SuggestionBoard {
    game: AnyGame,
    ply: u32,
    rolled: Option<u8>,
    closed: Option<(ErrorCode, &'static str)>,
}

impl SuggestionBoard {
    /// The ply a suggestion is for now.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Whether the game is in play (suggestions are taken).
    pub fn open(&self) -> bool {
        self.closed.is_none()
    }

    /// A suggestion for the move at `ply`, checked: the game is in play, the ply is the one
    /// now, and the move is legal for the side to move (dice chess: a pawn move with the face
    /// rolled, or a king move before the roll). Returns the move's machine text.
    pub fn check(&self, ply: u32, text: &str) -> Result<String, Refusal> {
        if let Some((code, why)) = self.closed {
            return refuse(code, why);
        }
        let n = self.ply;
        if ply != n {
            return refuse(
                ErrorCode::WrongPly,
                format!("the game is at ply {n}: that move has been played"),
            );
        }
        let mv = self.game.parse_move(text).map_err(|e| Refusal {
            code: ErrorCode::IllegalMove,
            message: e.to_string(),
        })?;
        if let AnyMove::Dice(d) = &mv {
            let ok = match (d, self.rolled) {
                (dice::Move::Pawn { face, .. }, Some(r)) => *face == r,
                (dice::Move::King { .. }, None) => true,
                _ => false,
            };
            if !ok {
                return refuse(
                    ErrorCode::IllegalMove,
                    "suggest a pawn move with the face rolled, or a king move before the roll",
                );
            }
        }
        Ok(self.game.move_to_text(&mv))
    }
}
