//! A headless online player: connects to a server, creates or joins a game and plays it to the
//! end through the protocol with a computer level. Tests, `takhte online-bot` and load runs use
//! it.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use takhte_ai::{Answer, Engine, Request, Standard};
use takhte_protocol::rating::PoolChoice;
use takhte_protocol::{ClientMsg, EndState, ErrorCode, GameEvent, GameSettings, ServerMsg};
use takhte_store::OnlineGames;

use crate::client::{Client, ClientConfig, TextHook};
use crate::session::{Notice, OnlineError, OnlineSession};
use crate::transport::{ClientEvent, ConnState, Fatal, Transport};

/// Create a game or join one.
#[derive(Clone, Debug)]
pub enum BotRole {
    /// Create a game with these settings.
    Create(GameSettings),
    /// Join the game with this code.
    Join(String),
    /// Wait in this quick pairing pool and play the game it gives.
    Seek(PoolChoice),
}

/// What a bot does.
#[derive(Clone)]
pub struct BotConfig {
    /// The server address.
    pub address: String,
    /// The player token (see [`takhte_protocol::token`]).
    pub token: String,
    /// The display name.
    pub name: String,
    /// The computer level, 1–6.
    pub level: u8,
    /// The computer's time per move.
    pub movetime_ms: u64,
    /// A pause before each move, to play at a human pace.
    pub delay_ms: u64,
    /// Create or join.
    pub role: BotRole,
    /// Give up after this long.
    pub timeout: Duration,
    /// Called with the game's code once it is known (to tell the other player).
    pub on_code: Option<TextHook>,
    /// Stop after this many moves of its own (a test then drops or kills something).
    pub max_own_moves: Option<u32>,
    /// Certificate authorities (DER) trusted besides the public ones, for `wss://`.
    pub extra_roots: Vec<Vec<u8>>,
}

/// How the bot's game went.
#[derive(Clone, Debug)]
pub struct BotReport {
    /// The game's code.
    pub code: String,
    /// The moves of the game, as the bot saw them.
    pub moves: Vec<String>,
    /// How it ended (`None` when the bot stopped early).
    pub end: Option<EndState>,
    /// The refusals the bot received (none in a clean game).
    pub errors: Vec<String>,
    /// Connection losses it came back from.
    pub reconnects: u32,
    /// Every move of its game the server told it of, as (ply, move): each `moved` event, in
    /// the order they came (what was acknowledged to it).
    pub moved: Vec<(u32, String)>,
    /// The moves of every state of its game it was sent, as (ply, move).
    pub from_states: Vec<(u32, String)>,
    /// The numbers of the events of its game it was sent, in the order they came off the
    /// connection (before the session took them in), each with whether it was a whole state
    /// (`true`) or an event: a test checks the events go up one at a time.
    pub seqs: Vec<(u64, bool)>,
    /// The clocks told with each move, as (ply, clocks), in the order they came.
    pub clocks: Vec<(u32, takhte_protocol::ClockState)>,
}

/// Why the bot stopped without a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// The client gave up (bad address, another protocol…).
    Failed(Fatal),
    /// The server refused to create or join (or the code did not read).
    Refused(OnlineError),
    /// No end within the time allowed.
    Timeout {
        /// The moves seen so far.
        moves: usize,
    },
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Failed(e) => write!(f, "the connection failed: {e:?}"),
            BotError::Refused(e) => write!(f, "refused: {e:?}"),
            BotError::Timeout { moves } => write!(f, "no end in time ({moves} moves played)"),
        }
    }
}

impl std::error::Error for BotError {}

/// Plays one game. Blocks until it ends (or the timeout, or `max_own_moves`).
pub fn play(config: BotConfig) -> Result<BotReport, BotError> {
    play_with(config, Arc::new(Standard))
}

/// [`play`], with `tap` called on the raw text of every message the bot receives.
pub fn play_tapped(config: BotConfig, tap: TextHook) -> Result<BotReport, BotError> {
    run(config, Arc::new(Standard), Some(tap))
}

/// [`play`] with another engine.
pub fn play_with(config: BotConfig, engine: Arc<dyn Engine>) -> Result<BotReport, BotError> {
    run(config, engine, None)
}

fn run(
    config: BotConfig,
    engine: Arc<dyn Engine>,
    tap: Option<TextHook>,
) -> Result<BotReport, BotError> {
    let client = Client::start(ClientConfig {
        address: config.address.clone(),
        token: config.token.clone(),
        name: config.name.clone(),
        wake: None,
        tap,
        extra_roots: config.extra_roots.clone(),
    });
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut session = OnlineSession::new(config.token.clone(), OnlineGames::default());
    session.connect(
        &config.address,
        Box::new(Recorded {
            inner: client,
            seen: Rc::clone(&seen),
        }),
    );
    match &config.role {
        BotRole::Create(settings) => session.create(settings.clone()),
        BotRole::Join(code) => {
            if let Err(e) = session.join(code) {
                return Err(BotError::Refused(e));
            }
        }
        BotRole::Seek(choice) => session.seek(*choice, Instant::now()),
    }
    let mut bot = Bot {
        config,
        engine,
        report: BotReport {
            code: String::new(),
            moves: Vec::new(),
            end: None,
            errors: Vec::new(),
            reconnects: 0,
            moved: Vec::new(),
            from_states: Vec::new(),
            seqs: Vec::new(),
            clocks: Vec::new(),
        },
        acted: None,
        own_moves: 0,
        seen,
    };
    let deadline = Instant::now() + bot.config.timeout;
    loop {
        if Instant::now() > deadline {
            return Err(BotError::Timeout {
                moves: session
                    .mirror(&bot.report.code)
                    .map_or(0, |m| m.moves.len()),
            });
        }
        if let Some(done) = bot.act(&mut session) {
            return Ok(done);
        }
        for notice in session.wait(Duration::from_millis(50)) {
            bot.take(&mut session, notice)?;
        }
    }
}

/// A bot's game as it goes.
struct Bot {
    config: BotConfig,
    engine: Arc<dyn Engine>,
    report: BotReport,
    /// The ply (and roll state) the bot last acted on, so it acts once per turn.
    acted: Option<(u32, Option<u8>)>,
    own_moves: u32,
    /// Every game's states and events as they came, before the session took them in.
    seen: Rc<RefCell<Vec<(String, u64, bool)>>>,
}

/// The bot's connection: the client, with the number of every state and event of a game
/// noted as it comes (before the session takes it in, which would drop one out of step and
/// ask for the game again: a lost event would not show in what it tells).
struct Recorded {
    inner: Client,
    seen: Rc<RefCell<Vec<(String, u64, bool)>>>,
}

impl Recorded {
    fn note(&self, e: Option<ClientEvent>) -> Option<ClientEvent> {
        match &e {
            Some(ClientEvent::Msg(ServerMsg::State { state })) => {
                self.seen
                    .borrow_mut()
                    .push((state.code.clone(), state.seq, true))
            }
            Some(ClientEvent::Msg(ServerMsg::Event { code, seq, .. })) => {
                self.seen.borrow_mut().push((code.clone(), *seq, false))
            }
            _ => {}
        }
        e
    }
}

impl Transport for Recorded {
    fn send(&self, msg: ClientMsg) {
        self.inner.send(msg)
    }
    fn try_recv(&self) -> Option<ClientEvent> {
        self.note(self.inner.try_recv())
    }
    fn recv_timeout(&self, timeout: Duration) -> Option<ClientEvent> {
        self.note(self.inner.recv_timeout(timeout))
    }
}

impl Bot {
    /// Plays when it is the bot's turn; the report once the game is over (or the bot has made
    /// its moves).
    fn act(&mut self, session: &mut OnlineSession) -> Option<BotReport> {
        let m = session.mirror(&self.report.code)?;
        if m.is_over() {
            self.report.moves = m.moves.clone();
            self.report.end = m.end.clone();
            return Some(self.finished());
        }
        let key = (m.ply(), m.rolled);
        if !m.my_turn() || self.acted == Some(key) {
            return None;
        }
        if self
            .config
            .max_own_moves
            .is_some_and(|n| self.own_moves >= n)
        {
            self.report.moves = m.moves.clone();
            return Some(self.finished());
        }
        if self.config.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.config.delay_ms));
        }
        let req = Request {
            game: m.game().clone(),
            level: self.config.level,
            seed: rand::random(),
            rolled: m.rolled,
            movetime_ms: self.config.movetime_ms,
        };
        let (code, ply) = (m.code.clone(), m.ply());
        self.acted = Some(key);
        let msg = match self.engine.think(&req, &AtomicBool::new(false)) {
            Some(Answer::Move(mv)) => {
                self.own_moves += 1;
                ClientMsg::Move {
                    code,
                    ply,
                    mv: m.game().move_to_text(&mv),
                }
            }
            Some(Answer::Roll) => ClientMsg::Roll { code, ply },
            None => return None,
        };
        let _ = session.send(msg);
        None
    }

    /// The report as it stands, with the numbers of its game's states and events as they
    /// came.
    fn finished(&mut self) -> BotReport {
        self.report.seqs = self
            .seen
            .borrow()
            .iter()
            .filter(|(code, ..)| *code == self.report.code)
            .map(|(_, seq, state)| (*seq, *state))
            .collect();
        self.report.clone()
    }

    /// Takes in what the session noticed.
    fn take(&mut self, session: &mut OnlineSession, notice: Notice) -> Result<(), BotError> {
        match notice {
            Notice::Conn => match session.conn() {
                ConnState::Failed(f) => return Err(BotError::Failed(f.clone())),
                ConnState::Reconnecting { attempt: 1, .. } => self.report.reconnects += 1,
                _ => {}
            },
            Notice::ShowWaiting(code) | Notice::ShowGame(code) if self.report.code.is_empty() => {
                self.report.code = code.clone();
                if let Some(f) = &self.config.on_code {
                    f(&code);
                }
            }
            Notice::State(code) if code == self.report.code || self.report.code.is_empty() => {
                let Some(m) = session.mirror(&code) else {
                    return Ok(());
                };
                self.report.from_states.extend(
                    m.moves
                        .iter()
                        .enumerate()
                        .map(|(i, mv)| (i as u32, mv.clone())),
                );
                // The same turn as the one acted on: the client resends that action itself
                // (a second, different move for the ply would be refused).
                if self.acted != Some((m.ply(), m.rolled)) {
                    self.acted = None;
                }
            }
            Notice::Event { code, event, .. } if code == self.report.code => {
                if let GameEvent::Moved {
                    ply, mv, clocks, ..
                } = &event
                {
                    self.report.moved.push((*ply, mv.clone()));
                    if let Some(c) = clocks {
                        self.report.clocks.push((*ply, *c));
                    }
                }
                if let (GameEvent::DrawOffered { by }, Some(m)) = (&event, session.mirror(&code)) {
                    if Some(*by) != m.you {
                        let accept = self.engine.accepts_draw(m.game(), self.config.level);
                        let _ = session.send(ClientMsg::AnswerDraw { code, accept });
                    }
                }
            }
            Notice::Refused { error, .. } => self.refused(error, session),
            Notice::Error(e) => {
                if self.report.code.is_empty() {
                    return Err(BotError::Refused(e));
                }
                if let OnlineError::Refused(error) = e {
                    self.refused(error, session);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A request of the bot's was refused: it acts again on the server's game.
    fn refused(&mut self, error: ErrorCode, session: &mut OnlineSession) {
        self.report.errors.push(format!("{error:?}"));
        if error == ErrorCode::RateLimited {
            // Too fast for the server: wait, then act again.
            std::thread::sleep(Duration::from_millis(500));
        }
        self.acted = None;
        if session.current() != Some(self.report.code.as_str()) {
            // Not on the board yet (waiting for the opponent): ask for the game again.
            if let Some(m) = session.mirror(&self.report.code) {
                let since = Some(m.seq);
                let code = self.report.code.clone();
                let _ = session.send(ClientMsg::Open { code, since });
            }
        }
    }
}
