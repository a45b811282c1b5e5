//! A headless online player: connects to a server, creates or joins a game and plays it to the
//! end through the protocol with a computer level. Tests, `takhte online-bot` and load runs use
//! it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ai::{Answer, Engine, Request, Standard};

use super::client::{Client, ClientConfig, ClientEvent, ConnState, Fatal};
use super::mirror::{Mirror, MirrorError};
use super::protocol::{ClientMsg, EndState, GameEvent, GameSettings, ServerMsg};

/// Create a game or join one.
#[derive(Clone, Debug)]
pub enum BotRole {
    /// Create a game with these settings.
    Create(GameSettings),
    /// Join the game with this code.
    Join(String),
}

/// What a bot does.
#[derive(Clone)]
pub struct BotConfig {
    /// The server address.
    pub address: String,
    /// The player token (see [`crate::net::token`]).
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
    pub on_code: Option<Arc<dyn Fn(&str) + Send + Sync>>,
    /// Stop after this many moves of its own (a test then drops or kills something).
    pub max_own_moves: Option<u32>,
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
    /// The numbers of the events of its game it was sent, in the order they came, each with
    /// whether it was a whole state (`true`) or an event: a test checks the events go up one
    /// at a time.
    pub seqs: Vec<(u64, bool)>,
}

/// Why the bot stopped without a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// The client gave up (bad address, another protocol…).
    Failed(Fatal),
    /// The server refused to create or join.
    Refused(String),
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
            BotError::Refused(e) => write!(f, "refused: {e}"),
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
pub fn play_tapped(
    config: BotConfig,
    tap: Arc<dyn Fn(&str) + Send + Sync>,
) -> Result<BotReport, BotError> {
    run(config, Arc::new(Standard), Some(tap))
}

/// [`play`] with another engine.
pub fn play_with(config: BotConfig, engine: Arc<dyn Engine>) -> Result<BotReport, BotError> {
    run(config, engine, None)
}

fn run(
    config: BotConfig,
    engine: Arc<dyn Engine>,
    tap: Option<Arc<dyn Fn(&str) + Send + Sync>>,
) -> Result<BotReport, BotError> {
    let client = Client::start(ClientConfig {
        address: config.address.clone(),
        token: config.token.clone(),
        name: config.name.clone(),
        wake: None,
        tap,
    });
    match &config.role {
        BotRole::Create(settings) => client.send(ClientMsg::Create {
            settings: settings.clone(),
        }),
        BotRole::Join(code) => client.send(ClientMsg::Join { code: code.clone() }),
    }
    let deadline = Instant::now() + config.timeout;
    let mut mirror: Option<Mirror> = None;
    let mut report = BotReport {
        code: String::new(),
        moves: Vec::new(),
        end: None,
        errors: Vec::new(),
        reconnects: 0,
        moved: Vec::new(),
        from_states: Vec::new(),
        seqs: Vec::new(),
    };
    // The ply (and roll state) the bot last acted on, so it acts once per turn.
    let mut acted: Option<(u32, Option<u8>)> = None;
    let mut own_moves = 0u32;
    let cancel = AtomicBool::new(false);
    loop {
        if Instant::now() > deadline {
            return Err(BotError::Timeout {
                moves: mirror.map_or(0, |m| m.moves.len()),
            });
        }
        if let Some(m) = &mirror {
            if m.is_over() {
                report.moves = m.moves.clone();
                report.end = m.end.clone();
                return Ok(report);
            }
            let key = (m.ply(), m.rolled);
            if m.my_turn() && acted != Some(key) {
                if config.max_own_moves.is_some_and(|n| own_moves >= n) {
                    report.moves = m.moves.clone();
                    return Ok(report);
                }
                if config.delay_ms > 0 {
                    std::thread::sleep(Duration::from_millis(config.delay_ms));
                }
                let req = Request {
                    game: m.game().clone(),
                    level: config.level,
                    seed: rand::random(),
                    rolled: m.rolled,
                    movetime_ms: config.movetime_ms,
                };
                acted = Some(key);
                match engine.think(&req, &cancel) {
                    Some(Answer::Move(mv)) => {
                        let text = m.game().move_to_text(&mv);
                        own_moves += 1;
                        client.send(ClientMsg::Move {
                            code: m.code.clone(),
                            ply: m.ply(),
                            mv: text,
                        });
                    }
                    Some(Answer::Roll) => client.send(ClientMsg::Roll {
                        code: m.code.clone(),
                        ply: m.ply(),
                    }),
                    None => {}
                }
            }
        }
        let Some(event) = client.recv_timeout(Duration::from_millis(50)) else {
            continue;
        };
        let now = Instant::now();
        match event {
            ClientEvent::Conn(ConnState::Failed(f)) => return Err(BotError::Failed(f)),
            ClientEvent::Conn(ConnState::Reconnecting { attempt: 1, .. }) => report.reconnects += 1,
            ClientEvent::Conn(_) => {}
            ClientEvent::Msg(ServerMsg::State { state }) => {
                if !report.code.is_empty() && report.code != state.code {
                    continue; // another game (a rematch offer's, say)
                }
                if report.code.is_empty() {
                    report.code = state.code.clone();
                    if let Some(f) = &config.on_code {
                        f(&state.code);
                    }
                }
                report.seqs.push((state.seq, true));
                report.from_states.extend(
                    state
                        .plies
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (i as u32, p.mv.clone())),
                );
                match Mirror::from_state(&state, now) {
                    Ok(m) => {
                        // The same turn as the one acted on: the client resends that action
                        // itself (a second, different move for the ply would be refused).
                        if acted != Some((m.ply(), m.rolled)) {
                            acted = None;
                        }
                        mirror = Some(m);
                    }
                    Err(e) => {
                        report.errors.push(format!("state: {e}"));
                        acted = None;
                    }
                }
            }
            ClientEvent::Msg(ServerMsg::Event { code, seq, event }) => {
                if code == report.code {
                    report.seqs.push((seq, false));
                    if let GameEvent::Moved { ply, mv, .. } = &event {
                        report.moved.push((*ply, mv.clone()));
                    }
                }
                let Some(m) = mirror.as_mut().filter(|m| m.code == code) else {
                    continue;
                };
                match m.apply(seq, &event, now) {
                    Ok(_) => {}
                    Err(MirrorError::Gap { .. }) | Err(_) => {
                        client.send(ClientMsg::Open { code, since: None });
                    }
                }
                if let GameEvent::DrawOffered { by } = event {
                    if Some(by) != m.you {
                        client.send(ClientMsg::AnswerDraw {
                            code: m.code.clone(),
                            accept: engine.accepts_draw(m.game(), config.level),
                        });
                    }
                }
            }
            ClientEvent::Msg(ServerMsg::Presence { seat, online, .. }) => {
                if let Some(m) = mirror.as_mut() {
                    m.set_presence(seat, online, now);
                }
            }
            ClientEvent::Msg(ServerMsg::Error {
                error,
                message,
                code,
            }) => {
                let line = format!("{error:?}: {message}");
                if error == super::protocol::ErrorCode::RateLimited {
                    // Too fast for the server: wait, then act again.
                    std::thread::sleep(Duration::from_millis(500));
                }
                if mirror.is_none()
                    && code
                        .as_deref()
                        .is_none_or(|c| report.code.is_empty() || c == report.code)
                {
                    return Err(BotError::Refused(line));
                }
                report.errors.push(line);
                // Whatever was refused, act again on the next state.
                acted = None;
                if let Some(m) = &mirror {
                    client.send(ClientMsg::Open {
                        code: m.code.clone(),
                        since: Some(m.seq),
                    });
                }
            }
            ClientEvent::Msg(_) => {}
        }
    }
}
