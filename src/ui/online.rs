//! The online adapter: the network client, the client's copies of the games ([`Mirror`]),
//! and the online screens (online home, create, lobby, waiting room) and the online parts of
//! the board screen. Moves are checked by the server; nothing here knows the rules.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use std::sync::Arc;
use std::time::Instant;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::game::{Controller, Outgoing, TimeControl};
use crate::net::client::{Client, ClientConfig, ClientEvent, ConnState, Fatal, ServerAddress};
use crate::net::code;
use crate::net::mirror::{Mirror, MirrorError};
use crate::net::protocol::{
    ClientMsg, ClockSpec, CloseReason, ColourChoice, ErrorCode, GameEvent, GameSettings,
    GameSummary, LiveEntry, LobbyEntry, ServerMsg,
};
use crate::net::SERVER_ENV;
use crate::rules::{GameKind, Side};
use crate::store::{OnlineGame, OnlineGames};

use super::app::AppState;
use super::{App, OnlineRow};

/// What the last create, join or open asked for, so the state that answers it goes to the
/// right screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Nothing asked.
    None,
    /// A game is being created.
    Create,
    /// A game is being joined.
    Join(String),
    /// A game is being opened (from the list, a rematch, a link).
    Open(String),
    /// A game is being watched.
    Watch(String),
}

/// The app's online state.
pub struct Online {
    client: Option<Client>,
    /// The address the client talks to.
    pub address: String,
    /// The connection.
    pub conn: ConnState,
    /// The games this app has open.
    pub mirrors: HashMap<String, Mirror>,
    /// The lobby as last received.
    pub lobby: Vec<LobbyEntry>,
    /// The live games as last received.
    pub live: Vec<LiveEntry>,
    /// The games on the device.
    pub cache: OnlineGames,
    /// The game on the board.
    pub current: Option<String>,
    /// The game created and waiting for an opponent.
    pub waiting: Option<String>,
    /// What the last request asked for.
    pub pending: Pending,
    /// The last error, translated.
    pub error: String,
    /// How long an opponent must be gone before a claim (from the server's welcome).
    pub claim_after_ms: u64,
    /// The player token.
    pub token: String,
}

impl Online {
    /// The state before any connection.
    pub fn new(token: String, cache: OnlineGames) -> Online {
        Online {
            client: None,
            address: String::new(),
            conn: ConnState::Failed(Fatal::BadAddress(String::new())),
            mirrors: HashMap::new(),
            lobby: Vec::new(),
            live: Vec::new(),
            cache,
            current: None,
            waiting: None,
            pending: Pending::None,
            error: String::new(),
            claim_after_ms: crate::net::CLAIM_AFTER_MS,
            token,
        }
    }
}

thread_local! {
    /// The app state, for the client's wake-up call (which runs on the UI thread).
    static STATE: RefCell<Option<Weak<RefCell<AppState>>>> = const { RefCell::new(None) };
}

/// Lets the network client's wake-up reach `state` on the UI thread.
pub fn register(state: &Rc<RefCell<AppState>>) {
    STATE.with(|s| *s.borrow_mut() = Some(Rc::downgrade(state)));
}

fn wake() {
    let _ = slint::invoke_from_event_loop(|| {
        STATE.with(|s| {
            let strong = s.borrow().as_ref().and_then(Weak::upgrade);
            if let Some(st) = strong {
                if let Ok(mut st) = st.try_borrow_mut() {
                    st.net_tick();
                }
            }
        })
    });
}

fn kind_word(k: GameKind) -> &'static str {
    k.name()
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::White => "side-white",
        Side::Black => "side-black",
    }
}

fn error_key(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::UnknownGame => "online-error-unknown-game",
        ErrorCode::GameFull => "online-error-game-full",
        ErrorCode::NotAPlayer => "online-error-not-a-player",
        ErrorCode::NotYourTurn => "online-error-not-your-turn",
        ErrorCode::WrongPly => "online-error-out-of-step",
        ErrorCode::IllegalMove => "online-error-illegal-move",
        ErrorCode::GameOver => "online-error-game-over",
        ErrorCode::NotStarted => "online-error-not-started",
        ErrorCode::ForgedDie | ErrorCode::CannotRoll => "online-error-die",
        ErrorCode::NoDrawOffer => "online-error-no-draw-offer",
        ErrorCode::DrawOfferTooSoon => "online-error-draw-offer-too-soon",
        ErrorCode::CannotAbort => "online-error-cannot-abort",
        ErrorCode::CannotClaim => "online-error-cannot-claim",
        ErrorCode::CannotRematch => "online-error-cannot-rematch",
        ErrorCode::BadSettings => "online-error-bad-settings",
        ErrorCode::TooManyGames => "online-error-too-many-games",
        ErrorCode::RateLimited => "online-error-rate-limited",
        ErrorCode::Storage => "online-error-storage",
        ErrorCode::Internal => "online-error-internal",
        ErrorCode::Protocol => "online-error-protocol",
        ErrorCode::NoSpectators => "online-error-no-spectators",
        ErrorCode::TooManySpectators => "online-error-too-many-spectators",
        ErrorCode::NotWatching => "online-error-not-watching",
        ErrorCode::TooManySuggestions => "online-error-too-many-suggestions",
        ErrorCode::DuplicateSuggestion => "online-error-duplicate-suggestion",
        ErrorCode::BadMessage
        | ErrorCode::UnknownType
        | ErrorCode::HelloFirst
        | ErrorCode::BadToken => "online-error-client",
    }
}

impl AppState {
    /// The server address: the setting, else `TAKHTE_SERVER`, else none.
    pub fn online_address(&self) -> String {
        match self.settings.server.as_deref().map(str::trim) {
            Some(a) if !a.is_empty() => a.to_string(),
            _ => std::env::var(SERVER_ENV)
                .unwrap_or_default()
                .trim()
                .to_string(),
        }
    }

    /// Starts the client when there is an address and none runs for it.
    pub fn ensure_client(&mut self) {
        let address = self.online_address();
        if address.is_empty() {
            self.online.client = None;
            self.online.address.clear();
            return;
        }
        if self.online.client.is_some() && self.online.address == address {
            return;
        }
        self.online.client = Some(Client::start(ClientConfig {
            address: address.clone(),
            token: self.online.token.clone(),
            name: self.settings.player_name.clone(),
            wake: Some(Arc::new(wake)),
            tap: None,
        }));
        self.online.address = address;
        self.online.conn = ConnState::Connecting;
        self.online.mirrors.clear();
    }

    fn send(&mut self, msg: ClientMsg) {
        self.ensure_client();
        match &self.online.client {
            Some(c) => c.send(msg),
            None => {
                self.online.error = self.tr("online-no-server");
                self.refresh_online();
            }
        }
    }

    /// Takes in what the network brought; the UI timer and the client's wake-up call it.
    pub fn net_tick(&mut self) {
        let mut events = Vec::new();
        if let Some(c) = &self.online.client {
            while let Some(e) = c.try_recv() {
                events.push(e);
            }
        }
        if events.is_empty() {
            return;
        }
        for e in events {
            self.handle_net(e);
        }
        self.refresh_online();
        if self.online.current.is_some() {
            self.refresh_game();
        }
    }

    pub(crate) fn handle_net(&mut self, event: ClientEvent) {
        let now = Instant::now();
        match event {
            ClientEvent::Conn(state) => {
                if state == ConnState::Connected {
                    self.online.error.clear();
                }
                self.online.conn = state;
            }
            ClientEvent::Msg(msg) => match msg {
                ServerMsg::Welcome { claim_after_ms, .. } => {
                    self.online.claim_after_ms = claim_after_ms;
                    if let Some(c) = &self.online.client {
                        c.send(ClientMsg::MyGames);
                    }
                }
                ServerMsg::State { state } => {
                    let code = state.code.clone();
                    match Mirror::from_state(&state, now) {
                        Ok(m) => {
                            self.online.mirrors.insert(code.clone(), m);
                        }
                        Err(_) => return,
                    }
                    self.remember(&code);
                    let pending = std::mem::replace(&mut self.online.pending, Pending::None);
                    let started = self.online.mirrors[&code].started();
                    match pending {
                        Pending::Create => {
                            self.online.error.clear();
                            self.show_waiting(&code);
                        }
                        Pending::Watch(c) if c == code => {
                            self.online.error.clear();
                            self.show_online_game(&code);
                        }
                        Pending::Join(c) | Pending::Open(c) if c == code => {
                            self.online.error.clear();
                            if started || self.online.mirrors[&code].is_over() {
                                self.show_online_game(&code);
                            } else {
                                self.show_waiting(&code);
                            }
                        }
                        other => {
                            self.online.pending = other;
                            if self.online.current.as_deref() == Some(code.as_str()) {
                                self.sync_board(&code);
                            }
                        }
                    }
                }
                ServerMsg::Event { code, seq, event } => {
                    let Some(m) = self.online.mirrors.get_mut(&code) else {
                        return;
                    };
                    match m.apply(seq, &event, now) {
                        Ok(_) => {}
                        Err(MirrorError::Gap { .. }) | Err(_) => {
                            if let Some(c) = &self.online.client {
                                c.send(ClientMsg::Open { code, since: None });
                            }
                            return;
                        }
                    }
                    match &event {
                        GameEvent::Seated { .. } => {
                            if self.online.waiting.as_deref() == Some(code.as_str()) {
                                self.online.waiting = None;
                                self.remember(&code);
                                self.show_online_game(&code);
                                return;
                            }
                        }
                        GameEvent::Rematch { code: new } => {
                            if self.online.current.as_deref() == Some(code.as_str()) {
                                self.online.pending = Pending::Open(new.clone());
                                let new = new.clone();
                                self.send(ClientMsg::Open {
                                    code: new,
                                    since: None,
                                });
                            }
                        }
                        GameEvent::Ended { .. } | GameEvent::Moved { .. } => self.remember(&code),
                        _ => {}
                    }
                    if self.online.current.as_deref() == Some(code.as_str()) {
                        self.sync_board(&code);
                    }
                }
                ServerMsg::Presence { code, seat, online } => {
                    if let Some(m) = self.online.mirrors.get_mut(&code) {
                        m.set_presence(seat, online, now);
                    }
                }
                ServerMsg::Lobby { games } => self.online.lobby = games,
                ServerMsg::LiveGames { games } => self.online.live = games,
                ServerMsg::Crowd { code, spectators } => {
                    if let Some(m) = self.online.mirrors.get_mut(&code) {
                        m.set_spectators(spectators);
                    }
                }
                ServerMsg::Suggestions { code, ply, crowd } => {
                    if let Some(m) = self.online.mirrors.get_mut(&code) {
                        m.set_suggestions(ply, crowd);
                    }
                    if self.online.current.as_deref() == Some(code.as_str()) {
                        self.sync_board(&code);
                    }
                }
                ServerMsg::MyGames { games } => self.take_my_games(games),
                ServerMsg::Error { error, code, .. } => {
                    let text = self.tr(error_key(error));
                    let on_board = code.is_some() && code == self.online.current;
                    if on_board {
                        if let Some(c) = self.controller.as_mut() {
                            c.refused(error_key(error));
                        }
                        // Whatever was refused, take the server's game again.
                        if let Some(code) = code {
                            let since = self.online.mirrors.get(&code).map(|m| m.seq);
                            self.send(ClientMsg::Open { code, since });
                        }
                    } else {
                        if matches!(error, ErrorCode::UnknownGame | ErrorCode::NotAPlayer) {
                            if let Some(c) = &code {
                                self.forget(c);
                            }
                        }
                        self.online.pending = Pending::None;
                        self.online.error = text;
                    }
                }
                ServerMsg::Bye { reason, .. } => {
                    let key = match reason {
                        CloseReason::Protocol => "online-error-protocol",
                        CloseReason::TooManyConnections => "online-error-too-many-connections",
                        CloseReason::Shutdown => "online-error-shutdown",
                        _ => "online-error-closed",
                    };
                    self.online.error = self.tr(key);
                }
                ServerMsg::Pong { .. } => {}
            },
        }
    }

    /// Keeps a game in the device's list (or drops it once it has ended).
    fn remember(&mut self, code: &str) {
        let Some(m) = self.online.mirrors.get(code) else {
            return;
        };
        // A watched game is not the player's own.
        let Some(you) = m.you else { return };
        let server = self.online.address.clone();
        self.online
            .cache
            .games
            .retain(|g| !(g.code == code && g.server == server));
        if !m.is_over() {
            self.online.cache.games.insert(
                0,
                OnlineGame {
                    code: code.to_string(),
                    server,
                    kind: kind_word(m.kind).to_string(),
                    side: if you == Side::White { "white" } else { "black" }.into(),
                    opponent: m.seats[you.opponent().index()].name.clone(),
                    your_turn: m.my_turn(),
                    updated_unix: crate::store::now_unix(),
                },
            );
        }
        self.save_cache();
    }

    fn forget(&mut self, code: &str) {
        let server = self.online.address.clone();
        self.online
            .cache
            .games
            .retain(|g| !(g.code == code && g.server == server));
        self.save_cache();
    }

    fn save_cache(&self) {
        if let Some(store) = &self.store {
            let _ = store.save_online_games(&self.online.cache);
        }
    }

    fn take_my_games(&mut self, games: Vec<GameSummary>) {
        let server = self.online.address.clone();
        self.online.cache.games.retain(|g| g.server != server);
        for g in games {
            self.online.cache.games.push(OnlineGame {
                code: g.code,
                server: server.clone(),
                kind: kind_word(g.kind).into(),
                side: if g.you == Side::White {
                    "white"
                } else {
                    "black"
                }
                .into(),
                opponent: g.opponent,
                your_turn: g.your_turn,
                updated_unix: crate::store::now_unix(),
            });
        }
        self.save_cache();
        self.refresh_home_online();
    }

    /// Puts an online game on the board.
    fn show_online_game(&mut self, code: &str) {
        let Some(m) = self.online.mirrors.get(code) else {
            return;
        };
        let me = m.you;
        let state = m.online_state();
        let over = m.is_over();
        let Ok(c) = Controller::online(
            m.kind,
            m.start_rolls.clone(),
            me,
            &state,
            Arc::clone(&self.engine),
        ) else {
            return;
        };
        self.save_now();
        self.online.current = Some(code.to_string());
        self.online.waiting = None;
        self.controller = Some(c);
        self.saver = None;
        self.last_game = None;
        self.stats_recorded = over;
        self.result_closed = over;
        self.last_view = None;
        self.history.clear();
        self.open("game");
    }

    fn sync_board(&mut self, code: &str) {
        let Some(m) = self.online.mirrors.get(code) else {
            return;
        };
        let state = m.online_state();
        if let Some(c) = self.controller.as_mut() {
            if c.is_online() {
                c.sync_online(&state);
            }
        }
        self.after_action();
    }

    /// Sends what the board's player asked for.
    pub fn flush_outbox(&mut self) {
        let Some(code) = self.online.current.clone() else {
            return;
        };
        let Some(c) = self.controller.as_mut() else {
            return;
        };
        if !c.is_online() {
            return;
        }
        for o in c.take_outbox() {
            let msg = match o {
                Outgoing::Move { ply, text } => ClientMsg::Move {
                    code: code.clone(),
                    ply,
                    mv: text,
                },
                Outgoing::Roll { ply } => ClientMsg::Roll {
                    code: code.clone(),
                    ply,
                },
                Outgoing::Resign => ClientMsg::Resign { code: code.clone() },
                Outgoing::OfferDraw => ClientMsg::OfferDraw { code: code.clone() },
                Outgoing::AnswerDraw(accept) => ClientMsg::AnswerDraw {
                    code: code.clone(),
                    accept,
                },
                Outgoing::Suggest { ply, text } => {
                    // Shown at once; the tally comes from the server.
                    if let Some(m) = self.online.mirrors.get_mut(&code) {
                        m.your_suggestion = Some(text.clone());
                    }
                    ClientMsg::Suggest {
                        code: code.clone(),
                        ply,
                        mv: text,
                    }
                }
            };
            self.send(msg);
        }
    }

    /// Leaves the online game on the board (its events stop coming here).
    pub fn leave_online_game(&mut self) {
        if let Some(code) = self.online.current.take() {
            if let Some(c) = &self.online.client {
                c.send(ClientMsg::Close { code: code.clone() });
            }
            self.online.mirrors.remove(&code);
            if self.controller.as_ref().is_some_and(Controller::is_online) {
                self.controller = None;
            }
        }
    }

    // ----- intents -----

    /// The online home screen.
    pub fn open_online(&mut self) {
        self.online.error.clear();
        self.ensure_client();
        if let Some(c) = &self.online.client {
            c.send(ClientMsg::MyGames);
        }
        self.open("online");
    }

    /// The create form.
    pub fn open_online_create(&mut self) {
        self.online.error.clear();
        self.open("online-create");
    }

    /// The lobby (asks the server again).
    pub fn open_lobby(&mut self) {
        self.online.error.clear();
        self.send(ClientMsg::Lobby);
        self.open("online-lobby");
    }

    /// Creates a game from the form.
    pub fn online_create(&mut self) {
        let Some(ui) = self.ui() else { return };
        let app = ui.global::<App>();
        let kind = GameKind::parse(&app.get_oc_kind()).unwrap_or(GameKind::Chess);
        let clock = usize::try_from(app.get_oc_time())
            .ok()
            .and_then(|i| TimeControl::PRESETS.get(i).copied())
            .map(|t| ClockSpec {
                base_ms: t.base_ms,
                increment_ms: t.increment_ms,
            });
        let colour = match app.get_oc_colour() {
            0 => ColourChoice::White,
            1 => ColourChoice::Black,
            _ => ColourChoice::Random,
        };
        let spectators = app.get_oc_spectators();
        let settings = GameSettings {
            kind,
            clock,
            colour,
            public: app.get_oc_public(),
            position: None,
            spectators,
            audience: spectators && app.get_oc_audience(),
        };
        self.online.error.clear();
        self.online.pending = Pending::Create;
        self.send(ClientMsg::Create { settings });
        self.refresh_online();
    }

    /// The live games (asks the server again).
    pub fn open_live(&mut self) {
        self.online.error.clear();
        self.send(ClientMsg::LiveGames);
        self.open("online-live");
    }

    /// Watches a game by a typed code, a pasted link, or from the live list.
    pub fn online_watch(&mut self, text: &str) {
        match code::normalize(text) {
            Ok(c) => {
                self.online.error.clear();
                self.online.pending = Pending::Watch(c.clone());
                self.send(ClientMsg::Watch {
                    code: c,
                    since: None,
                });
            }
            Err(e) => {
                self.online.error = self.tr(match e {
                    code::CodeError::Empty => "online-error-code-empty",
                    code::CodeError::Length(_) => "online-error-code-length",
                    code::CodeError::Character(_) => "online-error-code-character",
                });
            }
        }
        self.refresh_online();
    }

    /// Joins by a typed code or a pasted link.
    pub fn online_join(&mut self, text: &str) {
        match code::normalize(text) {
            Ok(c) => {
                self.online.error.clear();
                self.online.pending = Pending::Join(c.clone());
                self.send(ClientMsg::Join { code: c });
            }
            Err(e) => {
                let key = match e {
                    code::CodeError::Empty => "online-error-code-empty",
                    code::CodeError::Length(_) => "online-error-code-length",
                    code::CodeError::Character(_) => "online-error-code-character",
                };
                self.online.error = self.tr(key);
            }
        }
        self.refresh_online();
    }

    /// A time control inside a sentence: "3+2" (in Persian "۳+۲" kept left to right by an
    /// isolate, or it reads "۲+۳"), or "No clock".
    fn clock_in_line(&self, clock: Option<ClockSpec>) -> String {
        match clock {
            Some(c) => self.isolate(
                &self.i18n.number(
                    TimeControl {
                        base_ms: c.base_ms,
                        increment_ms: c.increment_ms,
                    }
                    .label(),
                ),
            ),
            None => self.tr("time-none"),
        }
    }

    /// The waiting room of a game that has a free seat: its code, its link, a fresh note.
    fn show_waiting(&mut self, code: &str) {
        self.online.waiting = Some(code.to_string());
        if let Some(ui) = self.ui() {
            ui.global::<App>().set_invite_note(SharedString::default());
        }
        self.open("online-waiting");
    }

    /// The message that invites a friend to the waiting game: the game, its link and its code.
    pub fn invite_message(&self) -> Option<String> {
        let code = self.online.waiting.as_ref()?;
        let kind = self.online.mirrors.get(code)?.kind;
        let link = self.ui()?.global::<App>().get_online_link().to_string();
        Some(self.i18n.tr_args(
            "online-invite-message",
            &[
                ("game", self.tr(&format!("game-{}", kind.name()))),
                ("link", link),
                ("code", code.clone()),
            ],
        ))
    }

    /// The waiting room's "Copy link" was pressed (the screen copied the link itself).
    pub fn invite_copied(&mut self) {
        if let Some(ui) = self.ui() {
            ui.global::<App>()
                .set_invite_note(self.tr("online-link-copied").into());
        }
    }

    /// "Send invite…": the invite message to the phone's share menu.
    pub fn invite_send(&mut self) {
        let (Some(send), Some(text)) = (self.system_share.clone(), self.invite_message()) else {
            return;
        };
        if !send(&self.tr("online-invite-chooser"), &text) {
            if let Some(ui) = self.ui() {
                ui.global::<App>()
                    .set_invite_note(self.tr("share-send-failed").into());
            }
        }
    }

    /// Opens one of the player's games.
    pub fn online_open(&mut self, code: &str) {
        self.online.error.clear();
        if self.online.current.as_deref() == Some(code) && self.controller.is_some() {
            self.open("game");
            return;
        }
        self.online.pending = Pending::Open(code.to_string());
        self.send(ClientMsg::Open {
            code: code.to_string(),
            since: None,
        });
    }

    /// Calls off the game waiting for an opponent.
    pub fn online_cancel(&mut self) {
        if let Some(code) = self.online.waiting.take() {
            self.send(ClientMsg::Abort { code: code.clone() });
            self.send(ClientMsg::Close { code: code.clone() });
            self.online.mirrors.remove(&code);
            self.forget(&code);
        }
        self.open_online();
    }

    /// Sets the server address (from the online screen or the settings).
    pub fn set_server(&mut self, text: &str) {
        let t = text.trim();
        if !t.is_empty() {
            if let Err(e) = ServerAddress::parse(t) {
                let _ = e;
                self.online.error = self.tr("online-error-address");
                self.refresh_online();
                return;
            }
        }
        self.settings.server = (!t.is_empty()).then(|| t.to_string());
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        self.online.error.clear();
        self.online.client = None;
        self.ensure_client();
        if let Some(c) = &self.online.client {
            c.send(ClientMsg::MyGames);
        }
        self.refresh_online();
        self.refresh_home_online();
    }

    /// Sets the display name.
    pub fn set_name(&mut self, text: &str) {
        let name = crate::net::token::clean_name(text);
        self.settings.player_name = name.clone();
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        if let Some(c) = &self.online.client {
            c.send(ClientMsg::SetName { name });
        }
        self.refresh_online();
    }

    /// Claims the win over an opponent who left.
    pub fn claim_win(&mut self) {
        if let Some(code) = self.online.current.clone() {
            self.send(ClientMsg::ClaimWin { code });
        }
    }

    /// Aborts the game on the board (before each side has moved).
    pub fn abort_game(&mut self) {
        if let Some(code) = self.online.current.clone() {
            self.send(ClientMsg::Abort { code });
        }
    }

    /// Offers or accepts a rematch of the online game on the board.
    pub fn online_rematch(&mut self) {
        if let Some(code) = self.online.current.clone() {
            self.send(ClientMsg::Rematch { code });
        }
    }

    // ----- texts and the screens -----

    fn player_name(&self, name: Option<&str>) -> String {
        match name {
            Some(n) if !n.trim().is_empty() => n.to_string(),
            _ => self.tr("online-anonymous"),
        }
    }

    fn conn_text(&self) -> (i32, String) {
        if self.online_address().is_empty() {
            return (2, self.tr("online-no-server"));
        }
        match &self.online.conn {
            ConnState::Connected => (
                0,
                self.i18n.tr_args(
                    "online-connected",
                    &[("server", self.online.address.clone())],
                ),
            ),
            ConnState::Connecting => (1, self.tr("online-connecting")),
            ConnState::Reconnecting { attempt, .. } if *attempt >= 3 => (
                2,
                self.i18n
                    .tr_args("online-offline", &[("server", self.online.address.clone())]),
            ),
            ConnState::Reconnecting { .. } => (1, self.tr("online-reconnecting")),
            ConnState::Failed(Fatal::Protocol { .. }) => (2, self.tr("online-error-protocol")),
            ConnState::Failed(Fatal::BadAddress(_)) => (2, self.tr("online-error-address")),
            ConnState::Failed(Fatal::Closed(_)) => (2, self.tr("online-error-closed")),
        }
    }

    fn game_row(&self, g: &OnlineGame) -> OnlineRow {
        let kind = GameKind::parse(&g.kind).unwrap_or(GameKind::Chess);
        let game = self.tr(&format!("game-{}", kind.name()));
        let title = match &g.opponent {
            Some(o) => self.i18n.tr_args(
                "online-row-title",
                &[("game", game), ("name", self.player_name(Some(o)))],
            ),
            None => game,
        };
        let line = if g.opponent.is_none() {
            self.tr("online-row-waiting")
        } else if g.your_turn {
            self.tr("online-row-your-turn")
        } else {
            self.tr("online-row-their-turn")
        };
        OnlineRow {
            code: g.code.clone().into(),
            title: title.into(),
            line: line.into(),
            highlight: g.your_turn && g.opponent.is_some(),
        }
    }

    /// The home screen's list of online games in progress.
    pub fn refresh_home_online(&mut self) {
        let Some(ui) = self.ui() else { return };
        let server = self.online_address();
        let rows: Vec<OnlineRow> = self
            .online
            .cache
            .games
            .iter()
            .filter(|g| g.server == server && !server.is_empty())
            .map(|g| self.game_row(g))
            .collect();
        ui.global::<App>()
            .set_home_online(ModelRc::new(VecModel::from(rows)));
    }

    /// Every online screen's properties.
    pub fn refresh_online(&mut self) {
        let Some(ui) = self.ui() else { return };
        let app = ui.global::<App>();
        app.set_online_server(self.online_address().into());
        let (conn, text) = self.conn_text();
        app.set_online_conn(conn);
        app.set_online_conn_text(text.into());
        app.set_online_name(self.settings.player_name.clone().into());
        app.set_online_error(self.online.error.clone().into());
        let server = self.online_address();
        let rows: Vec<OnlineRow> = self
            .online
            .cache
            .games
            .iter()
            .filter(|g| g.server == server)
            .map(|g| self.game_row(g))
            .collect();
        app.set_online_games(ModelRc::new(VecModel::from(rows)));
        let lobby: Vec<OnlineRow> = self
            .online
            .lobby
            .iter()
            .map(|e| {
                let clock = self.clock_in_line(e.clock);
                OnlineRow {
                    code: e.code.clone().into(),
                    title: self.tr(&format!("game-{}", e.kind.name())).into(),
                    line: self
                        .i18n
                        .tr_args(
                            "online-lobby-line",
                            &[
                                ("name", self.player_name(Some(&e.creator))),
                                ("clock", clock),
                                ("side", self.tr(side_key(e.free_seat))),
                            ],
                        )
                        .into(),
                    highlight: false,
                }
            })
            .collect();
        app.set_lobby(ModelRc::new(VecModel::from(lobby)));
        let live: Vec<OnlineRow> = self
            .online
            .live
            .iter()
            .map(|e| OnlineRow {
                code: e.code.clone().into(),
                title: self
                    .i18n
                    .tr_args(
                        "online-live-row-title",
                        &[
                            ("game", self.tr(&format!("game-{}", e.kind.name()))),
                            ("white", self.player_name(Some(&e.players[0]))),
                            ("black", self.player_name(Some(&e.players[1]))),
                        ],
                    )
                    .into(),
                line: self
                    .i18n
                    .tr_args(
                        "online-live-row-line",
                        &[
                            ("move", self.i18n.number(e.plies / 2 + 1)),
                            ("spectators", self.i18n.number(e.spectators)),
                        ],
                    )
                    .into(),
                highlight: false,
            })
            .collect();
        app.set_live_games(ModelRc::new(VecModel::from(live)));
        if let Some(code) = &self.online.waiting {
            app.set_online_code(code.clone().into());
            app.set_online_code_spaced(format!("{} {}", &code[..3], &code[3..]).into());
            let link = match ServerAddress::parse(&self.online.address) {
                Ok(a) if a.host.contains(':') => {
                    format!("http://[{}]:{}/join/{code}", a.host, a.port)
                }
                Ok(a) => format!("http://{}:{}/join/{code}", a.host, a.port),
                Err(_) => code::link(code),
            };
            app.set_online_link(link.into());
            if let Some(m) = self.online.mirrors.get(code) {
                let clock = self.clock_in_line(m.clock);
                let side = m.you.map(|s| self.tr(side_key(s))).unwrap_or_default();
                app.set_online_waiting_line(
                    self.i18n
                        .tr_args(
                            "online-waiting-line",
                            &[
                                ("game", self.tr(&format!("game-{}", m.kind.name()))),
                                ("clock", clock),
                                ("side", side),
                            ],
                        )
                        .into(),
                );
            }
        }
        self.refresh_home_online();
    }

    /// The online parts of the board screen: names, presence, claim, abort, rematch.
    pub fn refresh_online_board(&mut self) {
        let Some(ui) = self.ui() else { return };
        let app = ui.global::<App>();
        let code = self.online.current.clone();
        let Some(m) = code.as_ref().and_then(|c| self.online.mirrors.get(c)) else {
            app.set_online(false);
            app.set_watching(false);
            app.set_spectators_line(SharedString::default());
            app.set_opponent_away(false);
            app.set_can_claim(false);
            app.set_can_abort(false);
            app.set_rematch_line(SharedString::default());
            return;
        };
        app.set_online(true);
        app.set_watching(m.you.is_none());
        app.set_spectators_line(
            if m.spectators > 0 || m.audience {
                let count = self.i18n.tr_args(
                    "online-spectators",
                    &[("n", self.i18n.number(m.spectators))],
                );
                if m.audience {
                    self.i18n
                        .tr_args("online-audience-game", &[("spectators", count)])
                } else {
                    count
                }
            } else {
                String::new()
            }
            .into(),
        );
        let now = Instant::now();
        if m.you.is_none() {
            // A spectator: no opponent of theirs, nothing to claim or abort.
            let names = self.i18n.tr_args(
                "online-watching-line",
                &[
                    ("white", self.player_name(m.seats[0].name.as_deref())),
                    ("black", self.player_name(m.seats[1].name.as_deref())),
                ],
            );
            app.set_opponent_line(names.into());
            app.set_opponent_away(false);
            app.set_can_claim(false);
            app.set_can_abort(false);
            app.set_rematch_line(SharedString::default());
            return;
        }
        let me = m.you.unwrap_or(Side::White);
        let opp = me.opponent();
        let name = self.player_name(m.seats[opp.index()].name.as_deref());
        let live = m.started() && !m.is_over();
        let away = m.away_ms(opp, now);
        let gone = live && !m.seats[opp.index()].online;
        let line = if !m.started() {
            self.tr("online-waiting-opponent")
        } else if gone {
            self.i18n.tr_args(
                "online-opponent-gone",
                &[
                    ("name", name.clone()),
                    ("seconds", self.i18n.number(away / 1000)),
                ],
            )
        } else {
            self.i18n
                .tr_args("online-opponent-here", &[("name", name.clone())])
        };
        app.set_opponent_line(line.into());
        app.set_opponent_away(gone);
        let claim_after = self.online.claim_after_ms;
        app.set_can_claim(gone && away >= claim_after);
        app.set_claim_line(
            if away >= claim_after {
                self.i18n
                    .tr_args("online-claim-now", &[("name", name.clone())])
            } else {
                self.i18n.tr_args(
                    "online-claim-in",
                    &[(
                        "seconds",
                        self.i18n.number((claim_after - away).div_ceil(1000)),
                    )],
                )
            }
            .into(),
        );
        app.set_can_abort(live && m.moves.len() < 2);
        let rematch = match m.rematch_offer {
            Some(s) if s == me => self.tr("online-rematch-sent"),
            Some(_) => self
                .i18n
                .tr_args("online-rematch-offered", &[("name", name)]),
            None => String::new(),
        };
        app.set_rematch_line(rematch.into());
    }

    /// The name shown on a side's strip in an online game.
    pub fn online_side_name(&self, side: Side) -> Option<String> {
        let m = self.online.mirrors.get(self.online.current.as_ref()?)?;
        let name = self.player_name(m.seats[side.index()].name.as_deref());
        Some(if m.you == Some(side) {
            self.i18n.tr_args("online-you", &[("name", name)])
        } else {
            name
        })
    }
}
