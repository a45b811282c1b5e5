//! The online session: one state machine that turns the server's messages into the player's
//! games, for the app, the headless bot and the browser alike.
//!
//! It keeps the client's copy of every game open ([`Mirror`]), what the last create, join,
//! open or watch asked for (so that the state answering it goes to the waiting room or the
//! board), the game on the board and the one waiting for an opponent, the lobby and the live
//! games, the device's list of its online games, and the last error. It speaks through a
//! [`Transport`]; what it asks of its user (a screen to show, a board to update, a list to
//! save) comes back as [`Notice`]s. Nothing here draws, translates or knows the rules beyond
//! the mirrors.

use std::collections::HashMap;
use web_time::Instant;

use takhte_game::Outgoing;
use takhte_protocol::code::{self, CodeError};
use takhte_protocol::rating::{LeaderRow, PlayerPage, PoolChoice};
use takhte_protocol::{
    ClientMsg, CloseReason, ErrorCode, GameEvent, GameSettings, GameSummary, LiveEntry, LobbyEntry,
    ServerMsg, CLAIM_AFTER_MS,
};
use takhte_rules::{GameKind, Side};
use takhte_store::{OnlineGame, OnlineGames};

use crate::mirror::Mirror;
use crate::transport::{ClientEvent, ConnState, Fatal, Transport};

/// What the last create, join, open or watch asked for, so the state that answers it goes to
/// the right place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Nothing asked.
    None,
    /// A game is being created, by this request id.
    Create(String),
    /// A game is being joined.
    Join(String),
    /// A game is being opened (from the list, a rematch, a link).
    Open(String),
    /// A game is being watched.
    Watch(String),
}

/// An error to show on the online screens (the app says it in the player's language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnlineError {
    /// No server address is set.
    NoServer,
    /// The server address does not read.
    Address,
    /// A typed invite code does not read.
    Code(CodeError),
    /// The server refused a request.
    Refused(ErrorCode),
    /// The server closed the connection.
    Closed(CloseReason),
}

/// What the session asks of its user after taking something in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The connection changed ([`OnlineSession::conn`]).
    Conn,
    /// The game asked for is here and waits for an opponent: show its waiting room.
    ShowWaiting(String),
    /// The game asked for is here and has started, ended or is watched: put it on the board
    /// (it is [`OnlineSession::current`] now).
    ShowGame(String),
    /// A game's whole state was taken in (its mirror was made anew from it).
    State(String),
    /// An event was taken into a game's mirror.
    Event {
        /// The game.
        code: String,
        /// The event's number.
        seq: u64,
        /// The event.
        event: GameEvent,
    },
    /// A game's mirror changed otherwise (a whole state, presence, spectators, suggestions).
    Changed(String),
    /// A request on the game on the board was refused; its state was asked for again.
    Refused {
        /// The game.
        code: String,
        /// Why.
        error: ErrorCode,
    },
    /// An error for the online screens ([`OnlineSession::error`]).
    Error(OnlineError),
    /// The lobby or the live games came.
    Lists,
    /// The device's list of online games changed ([`OnlineSession::games`]): save it.
    GamesChanged,
    /// Quick pairing changed: the player entered a pool, left it, or was paired
    /// ([`OnlineSession::seeking`]).
    Seek,
    /// A player's page came ([`OnlineSession::page`]).
    Page,
    /// A leaderboard came ([`OnlineSession::leaderboard`]).
    Leaderboard,
}

/// The player's place in quick pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeking {
    /// The pool.
    pub choice: PoolChoice,
    /// Whether the server has said the player waits there (until then, the request is on its
    /// way).
    pub confirmed: bool,
    /// How long the server holds the player back before pairing (players who left rated
    /// games), in milliseconds.
    pub held_ms: u64,
    /// When the player asked.
    pub since: Instant,
}

/// A leaderboard as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaderboard {
    /// Which game.
    pub kind: GameKind,
    /// The best established players, best first.
    pub rows: Vec<LeaderRow>,
    /// The player's own place, when they are established.
    pub you: Option<LeaderRow>,
}

/// What an invite opens, as the server described it before the player took the seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The game, its clock, who invites and the seat left.
    pub game: LobbyEntry,
    /// Whether the game is rated.
    pub rated: bool,
}

/// The online session of one player.
pub struct OnlineSession {
    transport: Option<Box<dyn Transport>>,
    /// The address the transport talks to.
    address: String,
    conn: ConnState,
    mirrors: HashMap<String, Mirror>,
    lobby: Vec<LobbyEntry>,
    live: Vec<LiveEntry>,
    games: OnlineGames,
    current: Option<String>,
    waiting: Option<String>,
    pending: Pending,
    error: Option<OnlineError>,
    claim_after_ms: u64,
    token: String,
    player: String,
    seeking: Option<Seeking>,
    page: Option<PlayerPage>,
    leaderboard: Option<Leaderboard>,
    invitation: Option<Invitation>,
}

impl OnlineSession {
    /// A session of the player `token`, with the device's list of their online games; no
    /// connection yet.
    pub fn new(token: String, games: OnlineGames) -> OnlineSession {
        OnlineSession {
            transport: None,
            address: String::new(),
            conn: ConnState::Failed(Fatal::BadAddress(String::new())),
            mirrors: HashMap::new(),
            lobby: Vec::new(),
            live: Vec::new(),
            games,
            current: None,
            waiting: None,
            pending: Pending::None,
            error: None,
            claim_after_ms: CLAIM_AFTER_MS,
            token,
            player: String::new(),
            seeking: None,
            page: None,
            leaderboard: None,
            invitation: None,
        }
    }

    // ----- the connection -----

    /// Speaks through `transport` to the server at `address` from now on; the games of the
    /// last connection are forgotten (their states come again).
    pub fn connect(&mut self, address: &str, transport: Box<dyn Transport>) {
        self.transport = Some(transport);
        self.address = address.to_string();
        self.conn = ConnState::Connecting;
        self.mirrors.clear();
        self.seeking = None;
    }

    /// No server: the transport is dropped.
    pub fn disconnect(&mut self) {
        self.transport = None;
        self.address.clear();
        self.seeking = None;
    }

    /// Whether a transport is there.
    pub fn is_connected_to(&self, address: &str) -> bool {
        self.transport.is_some() && self.address == address
    }

    /// The address of the server (empty without one).
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The connection's state.
    pub fn conn(&self) -> &ConnState {
        &self.conn
    }

    /// The player token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Becomes another player (a recovery code entered): the token changes, the device's
    /// list of games is the new player's (it comes from the server), and the connection must
    /// be made again by the caller.
    pub fn set_token(&mut self, token: String) {
        self.token = token;
        self.games.games.clear();
        self.player.clear();
        self.seeking = None;
        self.page = None;
        self.leaderboard = None;
        self.current = None;
        self.waiting = None;
        self.pending = Pending::None;
        self.mirrors.clear();
    }

    /// The player's public id on this server (from its welcome; empty before).
    pub fn player_id(&self) -> &str {
        &self.player
    }

    /// The player's place in quick pairing, while they wait.
    pub fn seeking(&self) -> Option<&Seeking> {
        self.seeking.as_ref()
    }

    /// The last player's page received.
    pub fn page(&self) -> Option<&PlayerPage> {
        self.page.as_ref()
    }

    /// The last leaderboard received.
    pub fn leaderboard(&self) -> Option<&Leaderboard> {
        self.leaderboard.as_ref()
    }

    /// What the invite asked about with [`OnlineSession::ask_invitation`] opens, once the
    /// server has said.
    pub fn invitation(&self) -> Option<&Invitation> {
        self.invitation.as_ref()
    }

    /// Sends a message; without a server, says so ([`OnlineError::NoServer`]).
    pub fn send(&mut self, msg: ClientMsg) -> Result<(), OnlineError> {
        match &self.transport {
            Some(t) => {
                t.send(msg);
                Ok(())
            }
            None => {
                self.error = Some(OnlineError::NoServer);
                Err(OnlineError::NoServer)
            }
        }
    }

    // ----- what is known -----

    /// The mirror of a game open here.
    pub fn mirror(&self, code: &str) -> Option<&Mirror> {
        self.mirrors.get(code)
    }

    /// The mirror of a game open here, to change (a suggestion shown at once, the demo scenes).
    pub fn mirror_mut(&mut self, code: &str) -> Option<&mut Mirror> {
        self.mirrors.get_mut(code)
    }

    /// The game on the board.
    pub fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }

    /// The mirror of the game on the board.
    pub fn current_mirror(&self) -> Option<&Mirror> {
        self.mirrors.get(self.current.as_deref()?)
    }

    /// The game created and waiting for an opponent.
    pub fn waiting(&self) -> Option<&str> {
        self.waiting.as_deref()
    }

    /// What the last request asked for.
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// The lobby as last received.
    pub fn lobby(&self) -> &[LobbyEntry] {
        &self.lobby
    }

    /// The live games as last received.
    pub fn live(&self) -> &[LiveEntry] {
        &self.live
    }

    /// The device's list of online games.
    pub fn games(&self) -> &OnlineGames {
        &self.games
    }

    /// Replaces the device's list (the demo scenes).
    pub fn set_games(&mut self, games: Vec<OnlineGame>) {
        self.games.games = games;
    }

    /// The last error, until the next request clears it.
    pub fn error(&self) -> Option<&OnlineError> {
        self.error.as_ref()
    }

    /// Sets the error shown (a check of the app's, such as an address that does not read).
    pub fn set_error(&mut self, e: OnlineError) {
        self.error = Some(e);
    }

    /// Clears the error shown.
    pub fn clear_error(&mut self) {
        self.error = None;
    }

    /// How long an opponent must be gone before a claim (from the server's welcome).
    pub fn claim_after_ms(&self) -> u64 {
        self.claim_after_ms
    }

    /// Sets what the next state answers (the demo scenes, which make the server's answers up).
    pub fn expect(&mut self, pending: Pending) {
        self.pending = pending;
    }

    // ----- taking in -----

    /// Waits up to `timeout` for the transport to bring something (where it can wait), then
    /// takes in everything it brought.
    pub fn wait(&mut self, timeout: std::time::Duration) -> Vec<Notice> {
        let first = self
            .transport
            .as_ref()
            .and_then(|t| t.recv_timeout(timeout));
        let mut out = match first {
            Some(e) => self.handle(e, Instant::now()),
            None => return Vec::new(),
        };
        out.extend(self.poll(Instant::now()));
        out
    }

    /// Takes in everything the transport brought.
    pub fn poll(&mut self, now: Instant) -> Vec<Notice> {
        let mut events = Vec::new();
        if let Some(t) = &self.transport {
            while let Some(e) = t.try_recv() {
                events.push(e);
            }
        }
        let mut out = Vec::new();
        for e in events {
            out.extend(self.handle(e, now));
        }
        out
    }

    /// Takes in one event of the connection.
    pub fn handle(&mut self, event: ClientEvent, now: Instant) -> Vec<Notice> {
        let mut out = Vec::new();
        match event {
            ClientEvent::Conn(state) => {
                if state == ConnState::Connected {
                    self.error = None;
                }
                self.conn = state;
                out.push(Notice::Conn);
            }
            ClientEvent::Msg(msg) => self.take_in(msg, now, &mut out),
        }
        out
    }

    fn take_in(&mut self, msg: ServerMsg, now: Instant, out: &mut Vec<Notice>) {
        match msg {
            ServerMsg::Welcome {
                claim_after_ms,
                player,
                ..
            } => {
                // (The player's games are asked for by the screens that show them: a refusal of
                // an unasked request would call off what the player is waiting for.)
                self.claim_after_ms = claim_after_ms;
                self.player = player;
            }
            ServerMsg::State { state } => {
                let code = state.code.clone();
                let Ok(m) = Mirror::from_state(&state, now) else {
                    return;
                };
                self.mirrors.insert(code.clone(), m);
                out.push(Notice::State(code.clone()));
                self.remember(&code, out);
                self.answered(&code, state.request.as_deref(), out);
            }
            ServerMsg::Cancelled { request } => {
                if self.pending == Pending::Create(request) {
                    self.pending = Pending::None;
                }
            }
            ServerMsg::Event { code, seq, event } => self.take_event(code, seq, event, now, out),
            ServerMsg::Presence { code, seat, online } => {
                if let Some(m) = self.mirrors.get_mut(&code) {
                    m.set_presence(seat, online, now);
                    out.push(Notice::Changed(code));
                }
            }
            ServerMsg::Lobby { games } => {
                self.lobby = games;
                out.push(Notice::Lists);
            }
            ServerMsg::Invitation { game, rated } => {
                self.invitation = Some(Invitation { game, rated });
                out.push(Notice::Lists);
            }
            ServerMsg::LiveGames { games } => {
                self.live = games;
                out.push(Notice::Lists);
            }
            ServerMsg::Crowd { code, spectators } => {
                if let Some(m) = self.mirrors.get_mut(&code) {
                    m.set_spectators(spectators);
                    out.push(Notice::Changed(code));
                }
            }
            ServerMsg::Suggestions { code, ply, crowd } => {
                if let Some(m) = self.mirrors.get_mut(&code) {
                    m.set_suggestions(ply, crowd);
                    out.push(Notice::Changed(code));
                }
            }
            ServerMsg::MyGames { games } => {
                self.take_my_games(games);
                out.push(Notice::GamesChanged);
            }
            ServerMsg::Error { error, code, .. } => self.refused(error, code, out),
            ServerMsg::Bye { reason, .. } => {
                let e = OnlineError::Closed(reason);
                self.error = Some(e.clone());
                out.push(Notice::Error(e));
            }
            ServerMsg::Pong { .. } => {}
            ServerMsg::Seeking { choice, held_ms } => {
                let since = match &self.seeking {
                    Some(s) if s.choice == choice => s.since,
                    _ => now,
                };
                self.seeking = Some(Seeking {
                    choice,
                    confirmed: true,
                    held_ms,
                    since,
                });
                out.push(Notice::Seek);
            }
            ServerMsg::SeekEnded => {
                // An answer to a seek asked for meanwhile (another pool) is not the end.
                if self.seeking.as_ref().is_some_and(|s| s.confirmed) {
                    self.seeking = None;
                    out.push(Notice::Seek);
                }
            }
            ServerMsg::Paired { code } => {
                // The game's state follows on this connection: it goes to the board.
                self.seeking = None;
                self.error = None;
                self.pending = Pending::Open(code);
                out.push(Notice::Seek);
            }
            ServerMsg::Player { page } => {
                self.page = Some(page);
                out.push(Notice::Page);
            }
            ServerMsg::Leaderboard { kind, rows, you } => {
                self.leaderboard = Some(Leaderboard { kind, rows, you });
                out.push(Notice::Leaderboard);
            }
        }
    }

    /// A state came: where it goes depends on what was asked.
    fn answered(&mut self, code: &str, request: Option<&str>, out: &mut Vec<Notice>) {
        let pending = std::mem::replace(&mut self.pending, Pending::None);
        let m = &self.mirrors[code];
        let started = m.started() || m.is_over();
        match pending {
            Pending::Create(r) if Some(r.as_str()) == request => {
                self.error = None;
                self.show_waiting(code, out);
            }
            Pending::Watch(c) if c == code => {
                self.error = None;
                self.show_game(code, out);
            }
            Pending::Join(c) | Pending::Open(c) if c == code => {
                self.error = None;
                if started {
                    self.show_game(code, out);
                } else {
                    self.show_waiting(code, out);
                }
            }
            other => {
                self.pending = other;
                out.push(Notice::Changed(code.to_string()));
            }
        }
    }

    fn show_waiting(&mut self, code: &str, out: &mut Vec<Notice>) {
        self.waiting = Some(code.to_string());
        out.push(Notice::ShowWaiting(code.to_string()));
    }

    fn show_game(&mut self, code: &str, out: &mut Vec<Notice>) {
        self.current = Some(code.to_string());
        self.waiting = None;
        out.push(Notice::ShowGame(code.to_string()));
    }

    fn take_event(
        &mut self,
        code: String,
        seq: u64,
        event: GameEvent,
        now: Instant,
        out: &mut Vec<Notice>,
    ) {
        let Some(m) = self.mirrors.get_mut(&code) else {
            return;
        };
        if m.apply(seq, &event, now).is_err() {
            // Out of step with the server (a gap, or a move that does not fit): the whole
            // state again.
            let _ = self.send(ClientMsg::Open { code, since: None });
            return;
        }
        match &event {
            GameEvent::Seated { .. } if self.waiting.as_deref() == Some(code.as_str()) => {
                self.remember(&code, out);
                self.show_game(&code, out);
            }
            GameEvent::Rematch { code: new } if self.current.as_deref() == Some(code.as_str()) => {
                self.pending = Pending::Open(new.clone());
                let _ = self.send(ClientMsg::Open {
                    code: new.clone(),
                    since: None,
                });
            }
            GameEvent::Ended { .. } | GameEvent::Moved { .. } => self.remember(&code, out),
            _ => {}
        }
        out.push(Notice::Event { code, seq, event });
    }

    fn refused(&mut self, error: ErrorCode, code: Option<String>, out: &mut Vec<Notice>) {
        let on_board = code.is_some() && code == self.current;
        if let (true, Some(code)) = (on_board, code.clone()) {
            // Whatever was refused, take the server's game again.
            let since = self.mirrors.get(&code).map(|m| m.seq);
            let _ = self.send(ClientMsg::Open {
                code: code.clone(),
                since,
            });
            out.push(Notice::Refused { code, error });
            return;
        }
        if matches!(error, ErrorCode::UnknownGame | ErrorCode::NotAPlayer) {
            if let Some(c) = &code {
                self.forget(c);
                out.push(Notice::GamesChanged);
            }
        }
        self.pending = Pending::None;
        if self.seeking.as_ref().is_some_and(|s| !s.confirmed) {
            // The seek was refused (too many games, a clock out of range).
            self.seeking = None;
            out.push(Notice::Seek);
        }
        let e = OnlineError::Refused(error);
        self.error = Some(e.clone());
        out.push(Notice::Error(e));
    }

    // ----- the device's list of games -----

    /// Keeps a game in the device's list (or drops it once it has ended).
    fn remember(&mut self, code: &str, out: &mut Vec<Notice>) {
        let Some(m) = self.mirrors.get(code) else {
            return;
        };
        // A watched game is not the player's own.
        let Some(you) = m.you else { return };
        let server = self.address.clone();
        self.games
            .games
            .retain(|g| !(g.code == code && g.server == server));
        if !m.is_over() {
            self.games.games.insert(
                0,
                OnlineGame {
                    code: code.to_string(),
                    server,
                    kind: m.kind.name().to_string(),
                    side: side_word(you).into(),
                    opponent: m.seats[you.opponent().index()].name.clone(),
                    your_turn: m.my_turn(),
                    updated_unix: takhte_store::now_unix(),
                },
            );
        }
        out.push(Notice::GamesChanged);
    }

    fn forget(&mut self, code: &str) {
        let server = self.address.clone();
        self.games
            .games
            .retain(|g| !(g.code == code && g.server == server));
    }

    fn take_my_games(&mut self, games: Vec<GameSummary>) {
        let server = self.address.clone();
        self.games.games.retain(|g| g.server != server);
        for g in games {
            self.games.games.push(OnlineGame {
                code: g.code,
                server: server.clone(),
                kind: g.kind.name().into(),
                side: side_word(g.you).into(),
                opponent: g.opponent,
                your_turn: g.your_turn,
                updated_unix: takhte_store::now_unix(),
            });
        }
    }

    // ----- the player's requests -----

    /// Asks for the player's games on the server (without a server, nothing: nobody asked,
    /// so nothing is refused).
    pub fn ask_my_games(&mut self) {
        if self.transport.is_some() {
            let _ = self.send(ClientMsg::MyGames);
        }
    }

    /// Asks what the invite of `text` (a code or a link) opens: the game, its clock, who
    /// invites ([`OnlineSession::invitation`]). Nothing is taken; a code that does not read is
    /// left for the join to say.
    pub fn ask_invitation(&mut self, text: &str) {
        self.invitation = None;
        if let Ok(code) = code::normalize(text) {
            let _ = self.send(ClientMsg::Invitation { code });
        }
    }

    /// Asks for the lobby.
    pub fn ask_lobby(&mut self) {
        self.error = None;
        let _ = self.send(ClientMsg::Lobby);
    }

    /// Asks for the live games.
    pub fn ask_live(&mut self) {
        self.error = None;
        let _ = self.send(ClientMsg::LiveGames);
    }

    /// Creates a game; its state will show the waiting room. The request has an id of its
    /// own: sent again after a lost connection, it still makes one game.
    pub fn create(&mut self, settings: GameSettings) {
        self.error = None;
        let request = takhte_protocol::request::generate();
        self.pending = Pending::Create(request.clone());
        let _ = self.send(ClientMsg::Create {
            settings,
            request: Some(request),
        });
    }

    /// Whether a create is waiting for its answer.
    pub fn creating(&self) -> bool {
        matches!(self.pending, Pending::Create(_))
    }

    /// Calls off the create waiting for its answer: nothing is made, or the game it made is
    /// aborted on the server.
    pub fn cancel_create(&mut self) {
        if let Pending::Create(request) = std::mem::replace(&mut self.pending, Pending::None) {
            let _ = self.send(ClientMsg::CancelCreate { request });
        }
    }

    /// Enters a quick pairing pool (leaving any other); the game comes when the server pairs
    /// the player ([`Notice::ShowGame`]).
    pub fn seek(&mut self, choice: PoolChoice, now: Instant) {
        self.error = None;
        self.seeking = Some(Seeking {
            choice,
            confirmed: false,
            held_ms: 0,
            since: now,
        });
        if self.send(ClientMsg::Seek { choice }).is_err() {
            self.seeking = None;
        }
    }

    /// Leaves the pool.
    pub fn cancel_seek(&mut self) {
        if self.seeking.take().is_some() {
            let _ = self.send(ClientMsg::CancelSeek);
        }
    }

    /// Asks for a player's page (by their public id).
    pub fn ask_player(&mut self, id: &str) {
        self.error = None;
        self.page = None;
        let _ = self.send(ClientMsg::Player { id: id.to_string() });
    }

    /// Asks for a game's leaderboard.
    pub fn ask_leaderboard(&mut self, kind: GameKind) {
        self.error = None;
        self.leaderboard = None;
        let _ = self.send(ClientMsg::Leaderboard { kind });
    }

    /// Joins by a typed code or a pasted link.
    pub fn join(&mut self, text: &str) -> Result<(), OnlineError> {
        let c = self.read_code(text)?;
        self.error = None;
        self.pending = Pending::Join(c.clone());
        self.send(ClientMsg::Join { code: c })
    }

    /// Watches a game by a typed code, a pasted link, or from the live list.
    pub fn watch(&mut self, text: &str) -> Result<(), OnlineError> {
        let c = self.read_code(text)?;
        self.error = None;
        self.pending = Pending::Watch(c.clone());
        self.send(ClientMsg::Watch {
            code: c,
            since: None,
        })
    }

    fn read_code(&mut self, text: &str) -> Result<String, OnlineError> {
        code::normalize(text).map_err(|e| {
            let e = OnlineError::Code(e);
            self.error = Some(e.clone());
            e
        })
    }

    /// Opens one of the player's games (its state will show it).
    pub fn open(&mut self, code: &str) {
        self.error = None;
        self.pending = Pending::Open(code.to_string());
        let _ = self.send(ClientMsg::Open {
            code: code.to_string(),
            since: None,
        });
    }

    /// Calls off the game waiting for an opponent.
    pub fn cancel_waiting(&mut self) {
        if let Some(code) = self.waiting.take() {
            let _ = self.send(ClientMsg::Abort { code: code.clone() });
            let _ = self.send(ClientMsg::Close { code: code.clone() });
            self.mirrors.remove(&code);
            self.forget(&code);
        }
    }

    /// Leaves the game on the board (its events stop coming here). Returns its code.
    pub fn leave_current(&mut self) -> Option<String> {
        let code = self.current.take()?;
        if let Some(t) = &self.transport {
            t.send(ClientMsg::Close { code: code.clone() });
        }
        self.mirrors.remove(&code);
        Some(code)
    }

    /// A request about the game on the board (resign, claim, abort, rematch…): the message
    /// made from its code, sent.
    pub fn on_board(&mut self, make: impl FnOnce(String) -> ClientMsg) {
        if let Some(code) = self.current.clone() {
            let _ = self.send(make(code));
        }
    }

    /// Sends what the board's player asked for (the controller's outbox) for the game on the
    /// board. A suggestion is shown at once; its tally comes from the server.
    pub fn send_outgoing(&mut self, outgoing: Vec<Outgoing>) {
        let Some(code) = self.current.clone() else {
            return;
        };
        for o in outgoing {
            let code = code.clone();
            let msg = match o {
                Outgoing::Move { ply, text } => ClientMsg::Move {
                    code,
                    ply,
                    mv: text,
                },
                Outgoing::Roll { ply } => ClientMsg::Roll { code, ply },
                Outgoing::Resign => ClientMsg::Resign { code },
                Outgoing::OfferDraw => ClientMsg::OfferDraw { code },
                Outgoing::AnswerDraw(accept) => ClientMsg::AnswerDraw { code, accept },
                Outgoing::Suggest { ply, text } => {
                    if let Some(m) = self.mirrors.get_mut(&code) {
                        m.your_suggestion = Some(text.clone());
                    }
                    ClientMsg::Suggest {
                        code,
                        ply,
                        mv: text,
                    }
                }
            };
            let _ = self.send(msg);
        }
    }

    /// The kind of a game open here.
    pub fn kind_of(&self, code: &str) -> Option<GameKind> {
        self.mirrors.get(code).map(|m| m.kind)
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}
