//! The app adapter: the window, the state every screen shares, the callbacks connected to
//! the screens' adapters, navigation between the screens, and the timer. Each screen has its
//! adapter beside this one (`home.rs`, `new_game.rs`, `board.rs`, `saved.rs`, `settings.rs`,
//! `rules.rs`, `stats.rs`, `online.rs`, `share.rs`): they turn callbacks into intents and
//! views into models; no rules here.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::ai::{Engine, Standard};
use crate::game::{Autosaver, Controller, NewGame, TimeControl};
use crate::i18n::{system_lang, I18n, Lang};
use crate::rules::{chess::Kind, GameKind};
use crate::store::{Settings, Stats, Store};

use super::{
    App, BoardProps, HomeProps, MainWindow, NewGameProps, OnlineBoardProps, OnlineProps,
    RatedProps, RulesProps, SavedProps, Screen, SettingsProps, ShareProps, T,
};

/// Everything the adapter keeps between callbacks.
pub struct AppState {
    pub(crate) window: slint::Weak<MainWindow>,
    /// The translations and the current language.
    pub i18n: I18n,
    pub(crate) store: Option<Store>,
    /// The settings (saved on every change).
    pub settings: Settings,
    pub(crate) stats: Stats,
    /// The game on the board, if any.
    pub controller: Option<Controller>,
    pub(crate) saver: Option<Autosaver>,
    pub(crate) last_game: Option<NewGame>,
    /// The game screen's own state: the board's models and what it last showed.
    pub(crate) board: super::board::BoardState,
    pub(crate) stats_recorded: bool,
    pub(crate) result_closed: bool,
    /// Where the game on the board was opened from: back goes there (the saved games, for a
    /// saved or imported game; home otherwise).
    pub(crate) game_from: Screen,
    /// Where the player page or the leaderboard was opened from (back goes there), and the
    /// online game left for it (opened again on the way back).
    pub(crate) rated_from: Screen,
    pub(crate) rated_game: Option<String>,
    pub(crate) engine: Arc<dyn Engine>,
    pub(crate) movetime_ms: u64,
    pub(crate) ng_kind: GameKind,
    /// Online play: the client and the games it has open.
    pub online: takhte_online::session::OnlineSession,
    /// An invite link opened before the player had a name: joined once they give one.
    pub pending_invite: Option<String>,
    /// The games' sounds.
    pub sounds: crate::sound::Sounds,
    /// The platform's own share menu (Android's chooser): given a title and a text, opens it
    /// and says whether it did. None on the desktop.
    pub(crate) system_share: Option<SystemShare>,
}

/// Opens the platform's share menu with a title and a text; false when it could not.
pub type SystemShare = Rc<dyn Fn(&str, &str) -> bool>;

/// The running app: its window and state.
pub struct TakhteApp {
    /// The main window.
    pub window: MainWindow,
    /// The shared state.
    pub state: Rc<RefCell<AppState>>,
}

pub(super) fn kind_of(name: &str) -> GameKind {
    GameKind::parse(name).unwrap_or(GameKind::Chess)
}

pub(super) fn lang_index(lang: Lang) -> i32 {
    match lang {
        Lang::En => 0,
        Lang::Fa => 1,
    }
}

/// Sets a callback of a screen's global (`self.window`'s) to act on the app state: the
/// state is borrowed for the call (a callback that comes while it is borrowed does nothing).
macro_rules! on {
    ($w:ident, $app:ident, $global:ident, $setter:ident, |$s:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
        let st = Rc::clone(&$app.state);
        $w.global::<$global>().$setter(move |$($arg: $ty),*| {
            let Ok(mut guard) = st.try_borrow_mut() else { return };
            let $s: &mut AppState = &mut guard;
            $body;
        });
    }};
}

impl TakhteApp {
    /// Builds the window and loads settings, statistics and saved games from `data_dir` (or the
    /// default folder). A store that cannot be opened leaves the app usable without saving.
    pub fn new(data_dir: Option<PathBuf>) -> Result<TakhteApp, slint::PlatformError> {
        let window = MainWindow::new()?;
        let store = Store::open(data_dir.unwrap_or_else(|| Store::default_dir(None))).ok();
        let (settings, _) = store
            .as_ref()
            .map(|s| s.load_settings())
            .unwrap_or_default();
        let (stats, _) = store.as_ref().map(|s| s.load_stats()).unwrap_or_default();
        let online = takhte_online::session::OnlineSession::new(
            store
                .as_ref()
                .map(|s| s.identity().token)
                .unwrap_or_else(crate::net::token::generate),
            store.as_ref().map(|s| s.online_games()).unwrap_or_default(),
        );
        let lang = match settings.language.as_deref() {
            Some(code) => Lang::from_locale(code).unwrap_or(Lang::En),
            None => system_lang(),
        };
        let state = Rc::new(RefCell::new(AppState {
            window: window.as_weak(),
            i18n: I18n::new(lang),
            store,
            settings,
            stats,
            controller: None,
            saver: None,
            last_game: None,
            board: super::board::BoardState::new(),
            stats_recorded: false,
            result_closed: false,
            game_from: Screen::Home,
            rated_from: Screen::Online,
            rated_game: None,
            engine: Arc::new(Standard),
            // The same second in the browser: its searches run in a Web Worker (web.rs).
            movetime_ms: 1000,
            ng_kind: GameKind::Chess,
            online,
            pending_invite: None,
            sounds: crate::sound::Sounds::new(),
            system_share: None,
        }));
        super::online::register(&state);
        let app = TakhteApp { window, state };
        app.connect();
        app.window
            .global::<BoardProps>()
            .set_mine_image(super::images::mine_image(96));
        app.state.borrow_mut().apply_settings_to_ui();
        {
            // Games in progress on the server: connect at once to show how they stand.
            let mut s = app.state.borrow_mut();
            let server = s.online_address();
            if !server.is_empty() && s.online.games().games.iter().any(|g| g.server == server) {
                s.ensure_client();
            }
        }
        app.state.borrow_mut().refresh_all();
        Ok(app)
    }

    /// Replaces the computer engine and its time per move (tests use a fast one).
    pub fn set_engine(&self, engine: Arc<dyn Engine>, movetime_ms: u64) {
        let mut s = self.state.borrow_mut();
        s.engine = engine;
        s.movetime_ms = movetime_ms;
    }

    /// Opens an invite link (`takhte://join/CODE`): the online screen, joining its game.
    pub fn open_link(&self, link: &str) {
        let mut s = self.state.borrow_mut();
        s.open_online();
        s.online_join(link);
    }

    /// Opens the online screen on an invite link: joined at once when the player has a name,
    /// else asking for one first (the browser's first visit).
    pub fn open_invite(&self, link: &str) {
        let mut s = self.state.borrow_mut();
        s.open_online();
        if s.settings.player_name.trim().is_empty() {
            s.pending_invite = Some(link.to_string());
            s.ask_invitation(link);
            s.refresh_online();
        } else {
            s.online_join(link);
        }
    }

    /// Opens the online screen watching the game of `code` (a `/watch/CODE` link).
    pub fn open_watch(&self, code: &str) {
        let mut s = self.state.borrow_mut();
        s.open_online();
        s.online_watch(code);
    }

    /// Gives the app the platform's share menu (Android's): the share sheet and the invite
    /// screen then offer "Send…", which hands the text to it.
    pub fn set_system_share(&self, share: impl Fn(&str, &str) -> bool + 'static) {
        self.state.borrow_mut().system_share = Some(Rc::new(share));
        self.window.global::<ShareProps>().set_can_send(true);
    }

    /// Whether the share sheet offers "Save as file": not where a saved file would land in the
    /// app's private folder, out of the user's reach (Android: the share menu saves instead).
    pub fn set_can_save_file(&self, can: bool) {
        self.window.global::<ShareProps>().set_can_save_file(can);
    }

    /// Shows the window and runs the event loop until it closes; the game is saved on the way out.
    pub fn run(&self) -> Result<(), slint::PlatformError> {
        let result = self.window.run();
        self.state.borrow_mut().save_now();
        result
    }

    fn connect(&self) {
        let w = &self.window;
        let t = w.global::<T>();
        let st = Rc::clone(&self.state);
        t.on_tr(move |key, _lang| {
            // `_lang` is only there so that Slint re-reads every text when the language changes.
            let s = st
                .try_borrow()
                .map(|s| s.i18n.tr(&key))
                .unwrap_or_else(|_| key.to_string());
            s.into()
        });
        self.connect_game();
        self.connect_online();
    }

    /// The callbacks of the local screens: home, new game, the board, saved games, settings.
    fn connect_game(&self) {
        let w = &self.window;
        on!(w, self, App, on_open, |s, screen: Screen| s.open(screen));
        on!(w, self, App, on_back, |s| s.back());
        on!(w, self, App, on_back_pressed, |s| {
            s.back_pressed();
        });
        on!(w, self, App, on_exit_app, |s| {
            s.save_now();
            let _ = slint::quit_event_loop();
        });
        on!(
            w,
            self,
            HomeProps,
            on_choose_game,
            |s, kind: SharedString| s.choose_game(kind_of(&kind))
        );
        on!(w, self, HomeProps, on_continue_game, |s| s.continue_game());
        on!(w, self, NewGameProps, on_start_game, |s| s
            .start_from_form());
        on!(
            w,
            self,
            BoardProps,
            on_square_down,
            |s, col: i32, row: i32| s.square_down(col, row)
        );
        on!(
            w,
            self,
            BoardProps,
            on_square_up,
            |s, col: i32, row: i32| s.square_up(col, row)
        );
        on!(w, self, BoardProps, on_undo, |s| s.with_game(|c| c.undo()));
        on!(w, self, BoardProps, on_redo, |s| s.with_game(|c| c.redo()));
        on!(w, self, BoardProps, on_hint, |s| s.with_game(|c| c.hint()));
        on!(w, self, BoardProps, on_flip, |s| s.with_game(|c| c.flip()));
        on!(w, self, BoardProps, on_resign, |s| s
            .with_game(|c| c.resign()));
        on!(w, self, BoardProps, on_offer_draw, |s| s
            .with_game(|c| c.offer_draw()));
        on!(w, self, BoardProps, on_accept_draw, |s| s
            .with_game(|c| c.accept_draw()));
        on!(w, self, BoardProps, on_decline_draw, |s| s
            .with_game(|c| c.decline_draw()));
        on!(w, self, BoardProps, on_roll, |s| {
            s.board.die_rolls += 1;
            s.with_game(|c| c.roll())
        });
        on!(w, self, BoardProps, on_sapper, |s| s
            .with_game(|c| c.sapper()));
        on!(w, self, BoardProps, on_promote, |s, i: i32| {
            let kind =
                [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight][i.clamp(0, 3) as usize];
            s.with_game(|c| c.choose_promotion(kind))
        });
        on!(w, self, BoardProps, on_cancel_promotion, |s| s
            .with_game(|c| c.cancel_promotion()));
        on!(w, self, BoardProps, on_rematch, |s| s.rematch());
        on!(w, self, BoardProps, on_review, |s| {
            s.result_closed = true;
            s.with_game(|c| {
                let n = c.session().moves().len();
                c.review_to(n)
            })
        });
        on!(w, self, BoardProps, on_close_result, |s| {
            s.result_closed = true;
            s.refresh_game()
        });
        on!(w, self, BoardProps, on_review_step, |s, d: i32| s
            .with_game(|c| c.review_step(d)));
        on!(w, self, SavedProps, on_resume, |s, id: SharedString| s
            .resume(&id));
        on!(w, self, SavedProps, on_delete, |s, id: SharedString| s
            .delete(&id));
        on!(w, self, SettingsProps, on_settings_changed, |s| s
            .settings_from_ui());
        on!(w, self, RulesProps, on_rules_tab_changed, |s, i: i32| s
            .refresh_rules(i));
        on!(w, self, App, on_tick, |s| s.tick());
        on!(w, self, ShareProps, on_share, |s| s.share());
        on!(w, self, ShareProps, on_share_copied, |s| s.share_copied());
        on!(w, self, ShareProps, on_share_save, |s| s.share_save());
        on!(w, self, ShareProps, on_share_send, |s| s.share_send());
        on!(w, self, ShareProps, on_open_import, |s| s.open_import());
        on!(w, self, ShareProps, on_import_game, |s| s.import_game());
    }

    /// The callbacks of the online screens and the online parts of the board.
    fn connect_online(&self) {
        let w = &self.window;
        on!(w, self, App, on_net_tick, |s| s.net_tick_timer());
        on!(w, self, OnlineProps, on_open_online, |s| s.open_online());
        on!(w, self, OnlineProps, on_open_online_create, |s| s
            .open_online_create());
        on!(w, self, OnlineProps, on_open_lobby, |s| s.open_lobby());
        on!(w, self, OnlineProps, on_online_create, |s| s
            .online_create());
        on!(w, self, OnlineProps, on_online_cancel_create, |s| s
            .online_cancel_create());
        on!(
            w,
            self,
            OnlineProps,
            on_online_join,
            |s, text: SharedString| s.online_join(&text)
        );
        on!(
            w,
            self,
            OnlineProps,
            on_online_open,
            |s, code: SharedString| s.online_open(&code)
        );
        on!(w, self, OnlineProps, on_online_cancel, |s| s
            .online_cancel());
        on!(
            w,
            self,
            OnlineProps,
            on_set_server,
            |s, text: SharedString| s.set_server(&text)
        );
        on!(
            w,
            self,
            OnlineProps,
            on_set_name,
            |s, text: SharedString| s.set_name(&text)
        );
        on!(
            w,
            self,
            OnlineProps,
            on_join_invite,
            |s, text: SharedString| s.join_invite(&text)
        );
        on!(w, self, OnlineBoardProps, on_claim_win, |s| s.claim_win());
        on!(w, self, OnlineProps, on_open_live, |s| s.open_live());
        on!(
            w,
            self,
            OnlineProps,
            on_online_watch,
            |s, text: SharedString| s.online_watch(&text)
        );
        on!(w, self, OnlineBoardProps, on_abort_game, |s| s.abort_game());
        on!(w, self, OnlineProps, on_invite_copied, |s| s
            .invite_copied());
        on!(w, self, RatedProps, on_quick_seek, |s, i: i32| s
            .quick_seek(usize::try_from(i).unwrap_or(usize::MAX)));
        on!(w, self, RatedProps, on_custom_seek, |s| s.custom_seek());
        on!(w, self, RatedProps, on_cancel_seek, |s| s.cancel_seek());
        on!(
            w,
            self,
            RatedProps,
            on_open_player,
            |s, id: SharedString| s.open_player(&id)
        );
        on!(w, self, RatedProps, on_open_opponent, |s| s.open_opponent());
        on!(
            w,
            self,
            RatedProps,
            on_open_recent,
            |s, code: SharedString| s.open_recent(&code)
        );
        on!(w, self, RatedProps, on_open_leaderboard, |s, tab: i32| s
            .open_leaderboard(tab));
        on!(w, self, RatedProps, on_rated_back, |s| s.rated_back());
        on!(w, self, RatedProps, on_copy_recovery, |s| s.copy_recovery());
        on!(
            w,
            self,
            RatedProps,
            on_use_recovery,
            |s, text: SharedString| s.use_recovery(&text)
        );
        on!(w, self, OnlineProps, on_invite_send, |s| s.invite_send());
    }
}

impl AppState {
    pub(crate) fn ui(&self) -> Option<MainWindow> {
        self.window.upgrade()
    }

    pub(crate) fn tr(&self, key: &str) -> String {
        self.i18n.tr(key)
    }

    pub(crate) fn game_name(&self, kind: GameKind) -> String {
        self.tr(&format!("game-{}", kind.name()))
    }

    // ----- navigation -----

    /// Shows a screen (a typed [`Screen`], or its name).
    pub fn open(&mut self, screen: impl Into<Screen>) {
        let screen = screen.into();
        let leaving_game = screen != Screen::Game && self.screen() == Screen::Game;
        if leaving_game && self.online.current().is_some() {
            self.leave_online_game();
        }
        if leaving_game || screen == Screen::Home {
            // A game not on screen does not use its players' time (a computer or two players
            // here; an online game's clocks are the server's).
            self.save_now();
            if let Some(c) = self.controller.as_mut() {
                c.pause();
            }
        }
        if screen == Screen::Game && self.screen() != Screen::Game {
            if let Some(c) = self.controller.as_mut() {
                c.resume();
            }
        }
        if let Some(ui) = self.ui() {
            if leaving_game {
                ui.global::<ShareProps>().set_share_open(false);
                let board_ui = ui.global::<BoardProps>();
                board_ui.set_more_open(false);
                board_ui.set_confirm_resign(false);
                board_ui.set_confirm_abort(false);
            }
            ui.global::<App>().set_screen(screen);
        }
        self.refresh_all();
    }

    /// The back button: one screen back (the game goes home).
    pub fn back(&mut self) {
        match self.screen() {
            Screen::Home => {}
            Screen::Game => self.open(self.game_from),
            _ => self.open(Screen::Home),
        }
    }

    /// The system back button: one screen back; on the home screen it asks before leaving.
    /// Returns what it did.
    pub fn back_pressed(&mut self) -> super::back::BackAction {
        let screen = self.screen();
        let action = super::back::back_action(
            screen,
            self.game_from,
            self.ui().is_some_and(|u| {
                let app = u.global::<App>();
                app.get_confirm_exit() || u.global::<ShareProps>().get_share_open()
            }),
        );
        match action {
            super::back::BackAction::GoTo(target) => self.open(target),
            super::back::BackAction::AskToLeave => {
                if let Some(ui) = self.ui() {
                    ui.global::<App>().set_confirm_exit(true);
                }
            }
            super::back::BackAction::CloseDialog => {
                if let Some(ui) = self.ui() {
                    ui.global::<App>().set_confirm_exit(false);
                    ui.global::<ShareProps>().set_share_open(false);
                }
            }
        }
        action
    }

    /// The current screen's name.
    pub fn screen(&self) -> Screen {
        self.ui()
            .map(|u| u.global::<App>().get_screen())
            .unwrap_or(Screen::Home)
    }

    /// Saves the current game now (leaving the game, pausing the app).
    pub fn save_now(&mut self) {
        if let (Some(saver), Some(c)) = (&self.saver, self.controller.as_mut()) {
            if !c.session().moves().is_empty() {
                let _ = saver.save(c);
            }
        }
    }

    /// The app goes to the background: the clock stops and the game is saved.
    pub fn pause(&mut self) {
        if let Some(c) = self.controller.as_mut() {
            c.pause();
        }
        self.save_now();
    }

    /// The app comes back to the foreground.
    pub fn resume_app(&mut self) {
        if self.screen() == Screen::Game {
            if let Some(c) = self.controller.as_mut() {
                c.resume();
            }
        }
    }

    // ----- the board -----

    fn tick(&mut self) {
        let Some(c) = self.controller.as_mut() else {
            return;
        };
        c.tick();
        if self.board.last_view.as_ref() != Some(&c.view()) {
            self.after_action();
        } else if self.online.current().is_some() {
            // The opponent's presence counts seconds.
            self.refresh_online_board();
        }
    }

    /// The network timer: takes in what came (when the wake-up did not already).
    fn net_tick_timer(&mut self) {
        self.net_tick();
        // Waiting in a pool: the seconds count.
        if self.online.seeking().is_some() {
            self.refresh_rated();
        }
    }

    // ----- refreshing the UI -----

    /// Refreshes every screen's texts and models (after a language change, a screen change).
    pub fn refresh_all(&mut self) {
        let Some(ui) = self.ui() else { return };
        let t = ui.global::<T>();
        t.set_lang(self.i18n.lang().code().into());
        t.set_rtl(self.i18n.lang().rtl());
        #[cfg(target_arch = "wasm32")]
        crate::web::page_follows(
            self.screen().name(),
            self.i18n.lang().code(),
            self.i18n.lang().rtl(),
            &self.tr("app-name"),
        );
        let new_game_ui = ui.global::<NewGameProps>();
        new_game_ui.set_level_labels(ModelRc::new(VecModel::from(
            (1..=6)
                .map(|n| SharedString::from(self.i18n.number(n)))
                .collect::<Vec<_>>(),
        )));
        new_game_ui.set_time_labels(ModelRc::new(VecModel::from(
            TimeControl::PRESETS
                .iter()
                .map(|t| SharedString::from(self.i18n.number(t.label())))
                .collect::<Vec<_>>(),
        )));
        new_game_ui.set_ng_title(self.game_name(self.ng_kind).into());
        new_game_ui.set_level_captions(self.level_captions());
        self.refresh_home();
        self.refresh_saved();
        self.refresh_stats();
        self.refresh_rules(ui.global::<RulesProps>().get_rules_tab());
        self.refresh_online();
        self.board.last_view = None;
        self.refresh_game();
    }
}
