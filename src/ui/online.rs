//! The online adapter: the online screens (online home, create, lobby, waiting room, live
//! games) and the online parts of the board screen, over the library's online session
//! ([`OnlineSession`](takhte_online::session::OnlineSession): the server's messages, the mirrors of the games, what was asked). This
//! file turns the player's taps into the session's requests and the session's notices and
//! state into the screens' properties; nothing here knows the rules or the protocol's rules.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::Arc;
use web_time::Instant;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::game::{Controller, TimeControl};
use crate::net::client::{ClientEvent, ConnState, Fatal, ServerAddress, TlsProblem};
use crate::net::code;
use crate::net::protocol::{
    ClientMsg, ClockSpec, CloseReason, ColourChoice, ErrorCode, GameSettings,
};
use crate::rules::{GameKind, Side};
use crate::store::OnlineGame;
use takhte_online::session::{Notice, OnlineError};

use super::app::AppState;
use super::side_key;
use super::{HomeProps, OnlineBoardProps, OnlineProps, OnlineRow, Screen};

thread_local! {
    /// The app state, for the client's wake-up call (which runs on the UI thread).
    static STATE: RefCell<Option<Weak<RefCell<AppState>>>> = const { RefCell::new(None) };
}

/// Lets the network client's wake-up reach `state` on the UI thread.
pub fn register(state: &Rc<RefCell<AppState>>) {
    STATE.with(|s| *s.borrow_mut() = Some(Rc::downgrade(state)));
}

#[cfg(not(target_arch = "wasm32"))]
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
        ErrorCode::UnknownPlayer => "online-error-unknown-player",
        ErrorCode::BadMessage
        | ErrorCode::UnknownType
        | ErrorCode::HelloFirst
        | ErrorCode::BadToken => "online-error-client",
    }
}

/// Why a connection to `server` was given up, as a sentence in the language of `i18n` (the
/// online screens, and `takhte online-bot`'s refusals).
pub fn fatal_text(i18n: &crate::i18n::I18n, fatal: &Fatal, server: &str) -> String {
    let mut args = vec![("server", server.to_string())];
    let key = match fatal {
        Fatal::Tls(problem) => match problem {
            TlsProblem::WrongName => "online-tls-wrong-name",
            TlsProblem::Expired => "online-tls-expired",
            TlsProblem::SelfSigned => "online-tls-self-signed",
            TlsProblem::UnknownAuthority => "online-tls-unknown",
            TlsProblem::NotTls => "online-tls-not-tls",
            TlsProblem::NeedsTls => "online-tls-needs-tls",
            TlsProblem::Io(reason) | TlsProblem::Other(reason) => {
                args.push(("reason", reason.clone()));
                "online-tls-other"
            }
        },
        Fatal::Protocol { .. } => "online-error-protocol",
        Fatal::BadAddress(_) => "online-error-address",
        Fatal::Closed(_) => "online-error-closed",
    };
    i18n.tr_args(key, &args)
}

/// The translation key of an error of the online screens.
pub(crate) fn online_error_key(e: &OnlineError) -> &'static str {
    match e {
        OnlineError::NoServer => "online-no-server",
        OnlineError::Address => "online-error-address",
        OnlineError::Code(code::CodeError::Empty) => "online-error-code-empty",
        OnlineError::Code(code::CodeError::Length(_)) => "online-error-code-length",
        OnlineError::Code(code::CodeError::Character(_)) => "online-error-code-character",
        OnlineError::Refused(c) => error_key(*c),
        OnlineError::Closed(CloseReason::Protocol) => "online-error-protocol",
        OnlineError::Closed(CloseReason::TooManyConnections) => "online-error-too-many-connections",
        OnlineError::Closed(CloseReason::Shutdown) => "online-error-shutdown",
        OnlineError::Closed(_) => "online-error-closed",
    }
}

impl AppState {
    /// The server address: the setting, else `TAKHTE_SERVER` (in the browser: the server the
    /// page came from), else the server the build names (`TAKHTE_DEFAULT_SERVER` when it was
    /// built), else none.
    pub fn online_address(&self) -> String {
        let default = || {
            option_env!("TAKHTE_DEFAULT_SERVER")
                .unwrap_or("")
                .trim()
                .to_string()
        };
        match self.settings.server.as_deref().map(str::trim) {
            Some(a) if !a.is_empty() => a.to_string(),
            #[cfg(target_arch = "wasm32")]
            _ => crate::web::page_server().unwrap_or_else(default),
            #[cfg(not(target_arch = "wasm32"))]
            _ => match std::env::var(crate::net::SERVER_ENV) {
                Ok(a) if !a.trim().is_empty() => a.trim().to_string(),
                _ => default(),
            },
        }
    }

    /// Starts the client when there is an address and none runs for it.
    pub fn ensure_client(&mut self) {
        let address = self.online_address();
        if address.is_empty() {
            self.online.disconnect();
            return;
        }
        if self.online.is_connected_to(&address) {
            return;
        }
        let transport = connect(&address, self.online.token(), &self.settings.player_name);
        self.online.connect(&address, transport);
    }

    /// Takes in what the network brought; the UI timer and the client's wake-up call it.
    pub fn net_tick(&mut self) {
        let notices = self.online.poll(Instant::now());
        if notices.is_empty() {
            return;
        }
        for n in notices {
            self.notice(n);
        }
        self.refresh_online();
        if self.online.current().is_some() {
            self.refresh_game();
        }
    }

    /// Takes in one event of the connection (the demo scenes and the tests make them up).
    pub fn handle_net(&mut self, event: ClientEvent) {
        for n in self.online.handle(event, Instant::now()) {
            self.notice(n);
        }
    }

    /// Does what the online session asks.
    fn notice(&mut self, notice: Notice) {
        let on_board = |s: &AppState, code: &str| s.online.current() == Some(code);
        match notice {
            Notice::ShowWaiting(_) => self.show_waiting(),
            Notice::ShowGame(code) => self.show_online_game(&code),
            Notice::Changed(code) | Notice::Event { code, .. } if on_board(self, &code) => {
                self.sync_board(&code)
            }
            Notice::Refused { code, error } if on_board(self, &code) => {
                if let Some(c) = self.controller.as_mut() {
                    c.refused(error_key(error));
                }
            }
            Notice::GamesChanged => {
                self.save_cache();
                self.refresh_home_online();
            }
            _ => {}
        }
    }

    pub(super) fn save_cache(&self) {
        if let Some(store) = &self.store {
            let _ = store.save_online_games(self.online.games());
        }
    }

    /// Puts the session's game on the board (the session made it the current one).
    fn show_online_game(&mut self, code: &str) {
        let Some(m) = self.online.mirror(code) else {
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
        self.controller = Some(c);
        self.saver = None;
        self.last_game = None;
        self.stats_recorded = over;
        self.result_closed = over;
        self.board.last_view = None;
        self.board.history.clear();
        self.open(Screen::Game);
    }

    fn sync_board(&mut self, code: &str) {
        let Some(m) = self.online.mirror(code) else {
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
        let Some(c) = self.controller.as_mut().filter(|c| c.is_online()) else {
            return;
        };
        let outbox = c.take_outbox();
        if outbox.is_empty() || self.online.current().is_none() {
            return;
        }
        self.ensure_client();
        self.online.send_outgoing(outbox);
    }

    /// Leaves the online game on the board (its events stop coming here).
    pub fn leave_online_game(&mut self) {
        if self.online.leave_current().is_some()
            && self.controller.as_ref().is_some_and(Controller::is_online)
        {
            self.controller = None;
        }
    }

    // ----- intents -----

    /// The online home screen.
    pub fn open_online(&mut self) {
        self.online.clear_error();
        self.ensure_client();
        self.online.ask_my_games();
        self.open(Screen::Online);
    }

    /// The create form.
    pub fn open_online_create(&mut self) {
        self.online.clear_error();
        self.open(Screen::OnlineCreate);
    }

    /// The lobby (asks the server again).
    pub fn open_lobby(&mut self) {
        self.ensure_client();
        self.online.ask_lobby();
        self.open(Screen::OnlineLobby);
    }

    /// Creates a game from the form.
    pub fn online_create(&mut self) {
        let Some(ui) = self.ui() else { return };
        let online_ui = ui.global::<OnlineProps>();
        let kind = GameKind::parse(&online_ui.get_oc_kind()).unwrap_or(GameKind::Chess);
        let clock = usize::try_from(online_ui.get_oc_time())
            .ok()
            .and_then(|i| TimeControl::PRESETS.get(i).copied())
            .map(|t| ClockSpec {
                base_ms: t.base_ms,
                increment_ms: t.increment_ms,
            });
        let colour = match online_ui.get_oc_colour() {
            0 => ColourChoice::White,
            1 => ColourChoice::Black,
            _ => ColourChoice::Random,
        };
        let spectators = online_ui.get_oc_spectators();
        let settings = GameSettings {
            kind,
            clock,
            colour,
            public: online_ui.get_oc_public(),
            position: None,
            spectators,
            audience: spectators && online_ui.get_oc_audience(),
            rated: ui.global::<super::RatedProps>().get_oc_rated(),
        };
        self.ensure_client();
        // One create at a time: a second tap while the first waits makes nothing.
        if !self.online.creating() {
            self.online.create(settings);
        }
        self.refresh_online();
    }

    /// Calls off the create that waits for the server (nothing is made, or its game is
    /// aborted).
    pub fn online_cancel_create(&mut self) {
        self.online.cancel_create();
        self.refresh_online();
    }

    /// The live games (asks the server again).
    pub fn open_live(&mut self) {
        self.ensure_client();
        self.online.ask_live();
        self.open(Screen::OnlineLive);
    }

    /// Watches a game by a typed code, a pasted link, or from the live list.
    pub fn online_watch(&mut self, text: &str) {
        self.follow_link_server(text);
        self.ensure_client();
        let _ = self.online.watch(text);
        self.refresh_online();
    }

    /// Joins by a typed code or a pasted link.
    pub fn online_join(&mut self, text: &str) {
        self.follow_link_server(text);
        self.ensure_client();
        let _ = self.online.join(text);
        self.refresh_online();
    }

    /// A link names its server (and how to reach it): that server becomes the one used.
    fn follow_link_server(&mut self, text: &str) {
        if let Some(server) = takhte_online::address::link_server(text) {
            let address = server.canonical();
            if ServerAddress::parse(&self.online_address()).ok() != Some(server) {
                self.settings.server = Some(address);
                if let Some(store) = &self.store {
                    let _ = store.save_settings(&self.settings);
                }
                self.online.disconnect();
            }
        }
    }

    /// A time control inside a sentence: "3+2" (in Persian "۳+۲", kept left to right by the
    /// isolate `tr_args` puts it in, or it reads "۲+۳"), or "No clock".
    pub(super) fn clock_in_line(&self, clock: Option<ClockSpec>) -> String {
        match clock {
            Some(c) => self.i18n.number(
                TimeControl {
                    base_ms: c.base_ms,
                    increment_ms: c.increment_ms,
                }
                .label(),
            ),
            None => self.tr("time-none-inline"),
        }
    }

    /// The waiting room of the game that has a free seat: its code, its link, a fresh note.
    fn show_waiting(&mut self) {
        if let Some(ui) = self.ui() {
            ui.global::<OnlineProps>()
                .set_invite_note(SharedString::default());
        }
        self.open(Screen::OnlineWaiting);
    }

    /// The message that invites a friend to the waiting game: the game, its link and its code.
    pub fn invite_message(&self) -> Option<String> {
        let code = self.online.waiting()?;
        let kind = self.online.kind_of(code)?;
        let link = self
            .ui()?
            .global::<OnlineProps>()
            .get_online_link()
            .to_string();
        Some(self.i18n.tr_args(
            "online-invite-message",
            &[
                ("game", self.tr(&format!("game-{}", kind.name()))),
                ("link", link),
                ("code", code.to_string()),
            ],
        ))
    }

    /// The waiting room's "Copy link" was pressed (the screen copied the link itself).
    pub fn invite_copied(&mut self) {
        if let Some(ui) = self.ui() {
            ui.global::<OnlineProps>()
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
                ui.global::<OnlineProps>()
                    .set_invite_note(self.tr("share-send-failed").into());
            }
        }
    }

    /// Opens one of the player's games.
    pub fn online_open(&mut self, code: &str) {
        self.online.clear_error();
        if self.online.current() == Some(code) && self.controller.is_some() {
            self.open(Screen::Game);
            return;
        }
        self.ensure_client();
        self.online.open(code);
    }

    /// Calls off the game waiting for an opponent.
    pub fn online_cancel(&mut self) {
        self.ensure_client();
        self.online.cancel_waiting();
        self.save_cache();
        self.open_online();
    }

    /// Sets the server address (from the online screen or the settings).
    pub fn set_server(&mut self, text: &str) {
        let t = text.trim();
        if !t.is_empty() && ServerAddress::parse(t).is_err() {
            self.online.set_error(OnlineError::Address);
            self.refresh_online();
            return;
        }
        self.settings.server = (!t.is_empty()).then(|| t.to_string());
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        self.online.clear_error();
        self.online.disconnect();
        self.ensure_client();
        if !self.online.address().is_empty() {
            self.online.ask_my_games();
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
        if !self.online.address().is_empty() {
            let _ = self.online.send(ClientMsg::SetName { name });
        }
        self.refresh_online();
    }

    /// Asks the server what the invite of `link` opens (shown on the card that asks the
    /// player's name first).
    pub fn ask_invitation(&mut self, link: &str) {
        self.follow_link_server(link);
        self.ensure_client();
        self.online.ask_invitation(link);
    }

    /// The invite card's lines: who invites, and the game, its clock and the player's side
    /// (until the server has said: a plain line).
    fn invite_card(&self) -> (String, String) {
        let Some(inv) = self.online.invitation() else {
            return (self.tr("online-invited"), String::new());
        };
        let g = &inv.game;
        let title = self.i18n.tr_args(
            "online-invited-by",
            &[("name", self.player_name(Some(&g.creator)))],
        );
        let key = if inv.rated {
            "online-invited-details-rated"
        } else {
            "online-invited-details"
        };
        let details = self.i18n.tr_args(
            key,
            &[
                ("game", self.tr(&format!("game-{}", g.kind.name()))),
                ("clock", self.clock_in_line(g.clock)),
                ("side", self.tr(side_key(g.free_seat))),
            ],
        );
        (title, details)
    }

    /// The name given for an invite waiting for it, then the invite's game joined.
    pub fn join_invite(&mut self, name: &str) {
        if crate::net::token::clean_name(name).is_empty() {
            return; // the card stays until there is a name
        }
        self.set_name(name);
        if let Some(link) = self.pending_invite.take() {
            self.online_join(&link);
        }
        self.refresh_online();
    }

    /// Claims the win over an opponent who left.
    pub fn claim_win(&mut self) {
        self.ensure_client();
        self.online.on_board(|code| ClientMsg::ClaimWin { code });
    }

    /// Aborts the game on the board (before each side has moved).
    pub fn abort_game(&mut self) {
        self.ensure_client();
        self.online.on_board(|code| ClientMsg::Abort { code });
    }

    /// Offers or accepts a rematch of the online game on the board.
    pub fn online_rematch(&mut self) {
        self.ensure_client();
        self.online.on_board(|code| ClientMsg::Rematch { code });
    }

    // ----- texts and the screens -----

    fn player_name(&self, name: Option<&str>) -> String {
        match name {
            Some(n) if !n.trim().is_empty() => n.to_string(),
            _ => self.tr("online-anonymous"),
        }
    }

    /// Whether the server's address is reached encrypted (`wss://`).
    fn online_secure(&self) -> bool {
        ServerAddress::parse(&self.online_address()).is_ok_and(|a| a.secure)
    }

    fn conn_text(&self) -> (i32, String) {
        if self.online_address().is_empty() {
            return (2, self.tr("online-no-server"));
        }
        let server = || vec![("server", self.online.address().to_string())];
        match self.online.conn() {
            // Encrypted: the lock beside it says so; plain: the words do.
            ConnState::Connected if self.online_secure() => {
                (0, self.i18n.tr_args("online-connected", &server()))
            }
            ConnState::Connected => (0, self.i18n.tr_args("online-connected-plain", &server())),
            ConnState::Failed(fatal) => (2, fatal_text(&self.i18n, fatal, self.online.address())),
            ConnState::Connecting => (1, self.tr("online-connecting")),
            ConnState::Reconnecting { attempt, .. } if attempt >= &3 => (
                2,
                self.i18n.tr_args(
                    "online-offline",
                    &[("server", self.online.address().to_string())],
                ),
            ),
            ConnState::Reconnecting { .. } => (1, self.tr("online-reconnecting")),
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
            player: SharedString::default(),
        }
    }

    /// The home screen's list of online games in progress.
    pub fn refresh_home_online(&mut self) {
        let Some(ui) = self.ui() else { return };
        let server = self.online_address();
        let rows: Vec<OnlineRow> = self
            .online
            .games()
            .games
            .iter()
            .filter(|g| g.server == server && !server.is_empty())
            .map(|g| self.game_row(g))
            .collect();
        ui.global::<HomeProps>()
            .set_home_online(ModelRc::new(VecModel::from(rows)));
    }

    /// Every online screen's properties.
    pub fn refresh_online(&mut self) {
        let Some(ui) = self.ui() else { return };
        let online_ui = ui.global::<OnlineProps>();
        online_ui.set_online_server(self.online_address().into());
        let (conn, text) = self.conn_text();
        online_ui.set_online_conn(conn);
        online_ui.set_online_conn_text(text.into());
        online_ui.set_online_secure(self.online_secure());
        // On the board, one word; beside a button, a short line (that says when the
        // connection is not encrypted): the server's name is on the online screen.
        let word = self.tr(match conn {
            0 => "online-conn-short-connected",
            1 => "online-conn-short-connecting",
            _ => "online-conn-short-offline",
        });
        online_ui.set_online_conn_short(
            if conn == 0 && !self.online_secure() {
                self.tr("online-conn-short-plain")
            } else {
                word.clone()
            }
            .into(),
        );
        online_ui.set_online_conn_word(word.into());
        online_ui.set_online_name(self.settings.player_name.clone().into());
        online_ui.set_invite_code(self.pending_invite.clone().unwrap_or_default().into());
        let (title, details) = self.invite_card();
        online_ui.set_invite_title(title.into());
        online_ui.set_invite_details(details.into());
        // A create waiting: for the server's answer, or for the server itself.
        let creating = self.online.creating();
        online_ui.set_creating(creating);
        online_ui.set_create_status(
            if !creating {
                String::new()
            } else if *self.online.conn() == ConnState::Connected {
                self.tr("online-creating")
            } else {
                self.i18n.tr_args(
                    "online-create-unreachable",
                    &[("server", self.online_address())],
                )
            }
            .into(),
        );
        online_ui.set_online_error(
            self.online
                .error()
                .map(|e| self.tr(online_error_key(e)))
                .unwrap_or_default()
                .into(),
        );
        let server = self.online_address();
        let rows: Vec<OnlineRow> = self
            .online
            .games()
            .games
            .iter()
            .filter(|g| g.server == server)
            .map(|g| self.game_row(g))
            .collect();
        online_ui.set_online_games(ModelRc::new(VecModel::from(rows)));
        online_ui.set_lobby(ModelRc::new(VecModel::from(self.lobby_rows())));
        online_ui.set_live_games(ModelRc::new(VecModel::from(self.live_rows())));
        if let Some(code) = self.online.waiting() {
            online_ui.set_online_code(code.into());
            online_ui.set_online_code_spaced(format!("{} {}", &code[..3], &code[3..]).into());
            // The link carries the scheme this app uses (https:// for an encrypted server), so
            // that a friend connects the same way.
            let link = match ServerAddress::parse(self.online.address()) {
                Ok(a) => a.invite_link(code),
                Err(_) => code::link(code),
            };
            online_ui.set_online_link(link.into());
            if let Some(m) = self.online.mirror(code) {
                let clock = self.clock_in_line(m.clock);
                let side = m.you.map(|s| self.tr(side_key(s))).unwrap_or_default();
                online_ui.set_online_waiting_line(
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
        self.refresh_rated();
    }

    /// The open games' rows: the game, its creator, clock and the free seat.
    fn lobby_rows(&self) -> Vec<OnlineRow> {
        self.online
            .lobby()
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
                    player: e.creator_id.clone().unwrap_or_default().into(),
                }
            })
            .collect()
    }

    /// The live games' rows: the game and its players, the move, the spectators.
    fn live_rows(&self) -> Vec<OnlineRow> {
        self.online
            .live()
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
                player: SharedString::default(),
            })
            .collect()
    }

    /// The online parts of the board screen: names, presence, claim, abort, rematch.
    pub fn refresh_online_board(&mut self) {
        let Some(ui) = self.ui() else { return };
        let online_board_ui = ui.global::<OnlineBoardProps>();
        let Some(m) = self.online.current_mirror() else {
            online_board_ui.set_online(false);
            online_board_ui.set_watching(false);
            online_board_ui.set_spectators_line(SharedString::default());
            online_board_ui.set_opponent_away(false);
            online_board_ui.set_can_claim(false);
            online_board_ui.set_can_abort(false);
            online_board_ui.set_rematch_line(SharedString::default());
            return;
        };
        online_board_ui.set_online(true);
        online_board_ui.set_watching(m.you.is_none());
        online_board_ui.set_spectators_line(
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
            online_board_ui.set_opponent_line(names.into());
            online_board_ui.set_opponent_away(false);
            online_board_ui.set_can_claim(false);
            online_board_ui.set_can_abort(false);
            online_board_ui.set_rematch_line(SharedString::default());
            return;
        }
        let me = m.you.unwrap_or(Side::White);
        let opp = me.opponent();
        let name = self.player_name(m.seats[opp.index()].name.as_deref());
        let live = m.started() && !m.is_over();
        let away = m.away_ms(opp, now);
        let here = m.seats[opp.index()].online;
        let gone = live && !here;
        let line = if !m.started() {
            self.tr("online-waiting-opponent")
        } else if !live && !here {
            // The game is over (a claimed win, or they left after it): they are not here.
            self.i18n
                .tr_args("online-opponent-left", &[("name", name.clone())])
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
        // In a rated game, the opponent's rating after the line (a number after words: the
        // name cannot carry it to its side).
        let line = match m.seats[opp.index()].rating {
            Some(r) => format!(
                "{line}{}{}",
                self.tr("list-separator"),
                self.i18n
                    .tr_args("online-rating-of", &[("rating", self.rating_text(r))])
            ),
            None => line,
        };
        online_board_ui.set_opponent_line(line.into());
        online_board_ui.set_opponent_away(gone);
        let claim_after = self.online.claim_after_ms();
        online_board_ui.set_can_claim(gone && away >= claim_after);
        // Until the win can be claimed: how long (once it can, the button says it).
        online_board_ui.set_claim_line(
            self.i18n
                .tr_args(
                    "online-claim-in",
                    &[(
                        "seconds",
                        self.i18n
                            .number(claim_after.saturating_sub(away).div_ceil(1000)),
                    )],
                )
                .into(),
        );
        online_board_ui.set_can_abort(live && m.moves.len() < 2);
        let rematch = match m.rematch_offer {
            Some(s) if s == me => self.tr("online-rematch-sent"),
            Some(_) => self
                .i18n
                .tr_args("online-rematch-offered", &[("name", name)]),
            None => String::new(),
        };
        online_board_ui.set_rematch_line(rematch.into());
    }

    /// The name shown on a side's strip in an online game.
    pub fn online_side_name(&self, side: Side) -> Option<String> {
        let m = self.online.current_mirror()?;
        let name = self.player_name(m.seats[side.index()].name.as_deref());
        Some(if m.you == Some(side) {
            self.i18n.tr_args("online-you", &[("name", name)])
        } else {
            name
        })
    }
}

/// The connection to `address`: the native client (a WebSocket on a thread of its own).
#[cfg(not(target_arch = "wasm32"))]
fn connect(address: &str, token: &str, name: &str) -> Box<dyn takhte_online::transport::Transport> {
    Box::new(crate::net::client::Client::start(
        crate::net::client::ClientConfig {
            address: address.to_string(),
            token: token.to_string(),
            name: name.to_string(),
            wake: Some(Arc::new(wake)),
            tap: None,
            extra_roots: crate::net::client::extra_roots_from_env(),
        },
    ))
}

/// The connection to `address`: the page's WebSocket.
#[cfg(target_arch = "wasm32")]
fn connect(address: &str, token: &str, name: &str) -> Box<dyn takhte_online::transport::Transport> {
    Box::new(takhte_online::web::WebTransport::start(
        takhte_online::web::WebConfig {
            address: address.to_string(),
            token: token.to_string(),
            name: name.to_string(),
        },
    ))
}
