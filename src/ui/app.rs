//! The app adapter: connects the Slint `App` and `T` globals to the controller, the store and
//! the translations. It turns callbacks into intents and views into models; no rules here.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};

use crate::ai::{Engine, Standard};
use crate::game::view::{Glyph, PieceView, View};
use crate::game::{
    from_record, record_result, Autosaver, Controller, Layout, NewGame, Opponent, SystemRandomness,
    TimeControl,
};
use crate::i18n::{system_lang, I18n, Lang};
use crate::rules::{chess::Kind, GameKind, Side};
use crate::store::{Settings, Stats, Store};

use super::board_model::{self, square_at, PieceSlots};
use super::images::piece_image;
use super::{
    App, BoardProps, CardData, HomeProps, MainWindow, MoveRow, NewGameProps, OnlineBoardProps,
    OnlineProps, PieceData, RulesProps, SavedData, SavedProps, Screen, SettingsProps, ShareProps,
    SideInfo, SquareData, StatRow, StatsProps, Theme, T,
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
    pub(crate) pieces: PieceSlots,
    pub(crate) squares: Rc<VecModel<SquareData>>,
    pub(crate) last_view: Option<View>,
    pub(crate) press: Option<crate::rules::Square>,
    pub(crate) stats_recorded: bool,
    pub(crate) result_closed: bool,
    pub(crate) engine: Arc<dyn Engine>,
    pub(crate) movetime_ms: u64,
    pub(crate) ng_kind: GameKind,
    pub(crate) history: Vec<String>,
    pub(crate) die_rolls: i32,
    /// Online play: the client and the games it has open.
    pub online: takhte_online::session::OnlineSession,
    /// The games' sounds.
    pub(crate) sounds: crate::sound::Sounds,
    /// What was heard last: the moves, the die, the end, low time (to play each sound once).
    pub(crate) heard: Heard,
    /// The platform's own share menu (Android's chooser): given a title and a text, opens it
    /// and says whether it did. None on the desktop.
    pub(crate) system_share: Option<SystemShare>,
}

/// Opens the platform's share menu with a title and a text; false when it could not.
pub type SystemShare = Rc<dyn Fn(&str, &str) -> bool>;

/// What the sounds have already said about the game on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Heard {
    moves: usize,
    face: Option<u8>,
    over: bool,
    low: [bool; 2],
}

/// The running app: its window and state.
pub struct TakhteApp {
    /// The main window.
    pub window: MainWindow,
    /// The shared state.
    pub state: Rc<RefCell<AppState>>,
}

fn kind_of(name: &str) -> GameKind {
    GameKind::parse(name).unwrap_or(GameKind::Chess)
}

fn lang_index(lang: Lang) -> i32 {
    match lang {
        Lang::En => 0,
        Lang::Fa => 1,
    }
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
            pieces: PieceSlots::new(),
            squares: Rc::new(VecModel::default()),
            last_view: None,
            press: None,
            stats_recorded: false,
            result_closed: false,
            engine: Arc::new(Standard),
            movetime_ms: 1000,
            ng_kind: GameKind::Chess,
            history: Vec::new(),
            die_rolls: 0,
            online,
            sounds: crate::sound::Sounds::new(),
            heard: Heard::default(),
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

    /// Gives the app the platform's share menu (Android's): the share sheet and the invite
    /// screen then offer "Send…", which hands the text to it.
    pub fn set_system_share(&self, share: impl Fn(&str, &str) -> bool + 'static) {
        self.state.borrow_mut().system_share = Some(Rc::new(share));
        self.window.global::<ShareProps>().set_can_send(true);
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
        // Each callback is set on the global of its screen.
        macro_rules! on {
            ($global:ident, $setter:ident, |$s:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
                let st = Rc::clone(&self.state);
                w.global::<$global>().$setter(move |$($arg: $ty),*| {
                    let Ok(mut guard) = st.try_borrow_mut() else { return };
                    let $s: &mut AppState = &mut guard;
                    $body;
                });
            }};
        }
        on!(App, on_open, |s, screen: Screen| s.open(screen));
        on!(App, on_back, |s| s.back());
        on!(App, on_back_pressed, |s| {
            s.back_pressed();
        });
        on!(App, on_exit_app, |s| {
            s.save_now();
            let _ = slint::quit_event_loop();
        });
        on!(HomeProps, on_choose_game, |s, kind: SharedString| s
            .choose_game(kind_of(&kind)));
        on!(HomeProps, on_continue_game, |s| s.continue_game());
        on!(NewGameProps, on_start_game, |s| s.start_from_form());
        on!(BoardProps, on_square_down, |s, col: i32, row: i32| s
            .square_down(col, row));
        on!(BoardProps, on_square_up, |s, col: i32, row: i32| s
            .square_up(col, row));
        on!(BoardProps, on_undo, |s| s.with_game(|c| c.undo()));
        on!(BoardProps, on_redo, |s| s.with_game(|c| c.redo()));
        on!(BoardProps, on_hint, |s| s.with_game(|c| c.hint()));
        on!(BoardProps, on_flip, |s| s.with_game(|c| c.flip()));
        on!(BoardProps, on_resign, |s| s.with_game(|c| c.resign()));
        on!(BoardProps, on_offer_draw, |s| s
            .with_game(|c| c.offer_draw()));
        on!(BoardProps, on_accept_draw, |s| s
            .with_game(|c| c.accept_draw()));
        on!(BoardProps, on_decline_draw, |s| s
            .with_game(|c| c.decline_draw()));
        on!(BoardProps, on_roll, |s| {
            s.die_rolls += 1;
            s.with_game(|c| c.roll())
        });
        on!(BoardProps, on_sapper, |s| s.with_game(|c| c.sapper()));
        on!(BoardProps, on_promote, |s, i: i32| {
            let kind =
                [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight][i.clamp(0, 3) as usize];
            s.with_game(|c| c.choose_promotion(kind))
        });
        on!(BoardProps, on_cancel_promotion, |s| s
            .with_game(|c| c.cancel_promotion()));
        on!(BoardProps, on_rematch, |s| s.rematch());
        on!(BoardProps, on_review, |s| {
            s.result_closed = true;
            s.with_game(|c| {
                let n = c.session().moves().len();
                c.review_to(n)
            })
        });
        on!(BoardProps, on_close_result, |s| {
            s.result_closed = true;
            s.refresh_game()
        });
        on!(BoardProps, on_review_step, |s, d: i32| s
            .with_game(|c| c.review_step(d)));
        on!(SavedProps, on_resume, |s, id: SharedString| s.resume(&id));
        on!(SavedProps, on_delete, |s, id: SharedString| s.delete(&id));
        on!(SettingsProps, on_settings_changed, |s| s.settings_from_ui());
        on!(RulesProps, on_rules_tab_changed, |s, i: i32| s
            .refresh_rules(i));
        on!(App, on_tick, |s| s.tick());
        on!(App, on_net_tick, |s| s.net_tick_timer());
        on!(OnlineProps, on_open_online, |s| s.open_online());
        on!(OnlineProps, on_open_online_create, |s| s
            .open_online_create());
        on!(OnlineProps, on_open_lobby, |s| s.open_lobby());
        on!(OnlineProps, on_online_create, |s| s.online_create());
        on!(OnlineProps, on_online_join, |s, text: SharedString| s
            .online_join(&text));
        on!(OnlineProps, on_online_open, |s, code: SharedString| s
            .online_open(&code));
        on!(OnlineProps, on_online_cancel, |s| s.online_cancel());
        on!(OnlineProps, on_set_server, |s, text: SharedString| s
            .set_server(&text));
        on!(OnlineProps, on_set_name, |s, text: SharedString| s
            .set_name(&text));
        on!(OnlineBoardProps, on_claim_win, |s| s.claim_win());
        on!(OnlineProps, on_open_live, |s| s.open_live());
        on!(OnlineProps, on_online_watch, |s, text: SharedString| s
            .online_watch(&text));
        on!(OnlineBoardProps, on_abort_game, |s| s.abort_game());
        on!(ShareProps, on_share, |s| s.share());
        on!(ShareProps, on_share_copied, |s| s.share_copied());
        on!(ShareProps, on_share_save, |s| s.share_save());
        on!(ShareProps, on_share_send, |s| s.share_send());
        on!(OnlineProps, on_invite_copied, |s| s.invite_copied());
        on!(OnlineProps, on_invite_send, |s| s.invite_send());
        on!(ShareProps, on_open_import, |s| s.open_import());
        on!(ShareProps, on_import_game, |s| s.import_game());
    }
}

impl AppState {
    pub(crate) fn ui(&self) -> Option<MainWindow> {
        self.window.upgrade()
    }

    pub(crate) fn tr(&self, key: &str) -> String {
        self.i18n.tr(key)
    }

    fn game_name(&self, kind: GameKind) -> String {
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
            }
            ui.global::<App>().set_screen(screen);
        }
        self.refresh_all();
    }

    /// The back button: one screen back (the game goes home).
    pub fn back(&mut self) {
        if self.screen() != Screen::Home {
            self.open(Screen::Home);
        }
    }

    /// The system back button: one screen back; on the home screen it asks before leaving.
    /// Returns what it did.
    pub fn back_pressed(&mut self) -> crate::android::BackAction {
        let screen = self.screen();
        let action = crate::android::back_action(
            screen,
            self.ui().is_some_and(|u| {
                let app = u.global::<App>();
                app.get_confirm_exit() || u.global::<ShareProps>().get_share_open()
            }),
        );
        match action {
            crate::android::BackAction::GoTo(target) => self.open(target),
            crate::android::BackAction::AskToLeave => {
                if let Some(ui) = self.ui() {
                    ui.global::<App>().set_confirm_exit(true);
                }
            }
            crate::android::BackAction::CloseDialog => {
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

    fn choose_game(&mut self, kind: GameKind) {
        self.ng_kind = kind;
        if let Some(ui) = self.ui() {
            let new_game_ui = ui.global::<NewGameProps>();
            new_game_ui.set_ng_kind(kind.name().into());
            // The last new game's choices, offered again.
            if let Some(last) = &self.settings.last_new_game {
                new_game_ui.set_ng_computer(last.computer);
                new_game_ui.set_ng_level(last.level.clamp(1, 6) as i32);
                new_game_ui.set_ng_white(last.white);
                let presets = TimeControl::PRESETS.len() as i32;
                new_game_ui.set_ng_time(if (0..presets).contains(&last.time) {
                    last.time
                } else {
                    -1
                });
            }
            new_game_ui.set_ng_layout(match Layout::parse(&self.settings.pass_and_play_rotation) {
                Some(Layout::FaceToFace) => 1,
                Some(Layout::Fixed) => 2,
                _ => 0,
            });
        }
        self.open(Screen::NewGame);
    }

    fn start_from_form(&mut self) {
        let Some(ui) = self.ui() else { return };
        let new_game_ui = ui.global::<NewGameProps>();
        let kind = self.ng_kind;
        self.settings.last_new_game = Some(crate::store::LastNewGame {
            kind: kind.name().to_string(),
            computer: new_game_ui.get_ng_computer(),
            level: new_game_ui.get_ng_level().clamp(1, 6) as u8,
            white: new_game_ui.get_ng_white(),
            time: new_game_ui.get_ng_time(),
        });
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        let layout = [Layout::Rotate, Layout::FaceToFace, Layout::Fixed]
            [new_game_ui.get_ng_layout().clamp(0, 2) as usize];
        let opponent = if new_game_ui.get_ng_computer() {
            let human = if kind == GameKind::DiceChess || new_game_ui.get_ng_white() {
                Side::White
            } else {
                Side::Black
            };
            Opponent::Computer {
                level: new_game_ui.get_ng_level().clamp(1, 6) as u8,
                human,
            }
        } else {
            Opponent::PassAndPlay
        };
        let time_control = if kind == GameKind::Chess {
            usize::try_from(new_game_ui.get_ng_time())
                .ok()
                .and_then(|i| TimeControl::PRESETS.get(i).copied())
        } else {
            None
        };
        let game = NewGame {
            kind,
            opponent,
            layout: if matches!(opponent, Opponent::Computer { .. }) {
                Layout::Fixed
            } else {
                layout
            },
            time_control,
            position: None,
        };
        self.start(game);
    }

    /// Starts a new game and shows it.
    pub fn start(&mut self, game: NewGame) {
        self.save_now();
        let controller = match Controller::new(
            game.clone(),
            Arc::clone(&self.engine),
            Box::new(SystemRandomness),
        ) {
            Ok(c) => c,
            Err(_) => return,
        };
        self.install(controller, None);
        self.last_game = Some(game);
        self.open(Screen::Game);
    }

    pub(crate) fn install(&mut self, mut controller: Controller, saver: Option<Autosaver>) {
        controller.set_movetime(self.movetime_ms);
        self.saver = saver.or_else(|| {
            self.store
                .clone()
                .map(|s| Autosaver::new(s, crate::store::now_unix()))
        });
        self.stats_recorded = controller.session().is_over();
        self.result_closed = controller.session().is_over();
        self.controller = Some(controller);
        self.last_view = None;
        self.history.clear();
        if let Some(c) = self.controller.as_mut() {
            c.resume();
        }
    }

    fn rematch(&mut self) {
        if self.controller.as_ref().is_some_and(Controller::is_online) {
            self.online_rematch();
            return;
        }
        if let Some(g) = self.last_game.clone() {
            self.start(g);
        } else if let Some(c) = &self.controller {
            let kind = c.session().kind();
            self.start(NewGame {
                kind,
                opponent: c.opponent(),
                layout: c.layout(),
                time_control: c.session().clock.as_ref().map(|k| k.control),
                position: None,
            });
        }
    }

    fn continue_game(&mut self) {
        if let Some(id) = self.continue_id() {
            self.resume(&id);
        }
    }

    fn continue_id(&self) -> Option<String> {
        let store = self.store.as_ref()?;
        store.list_games().into_iter().find_map(|g| match g.entry {
            Ok(rec) if rec.result.is_none() => Some(g.id),
            _ => None,
        })
    }

    /// Resumes a saved game by id.
    pub fn resume(&mut self, id: &str) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let Ok(rec) = store.load_game(id) else {
            self.refresh_all();
            return;
        };
        match from_record(&rec, Arc::clone(&self.engine), Box::new(SystemRandomness)) {
            Ok(mut c) => {
                self.save_now();
                self.last_game = None;
                // A finished game opens for review at its last move, without the result sheet
                // (install closes the sheet of a game over at its cursor).
                if c.session().final_end().is_some() {
                    let n = c.session().moves().len();
                    c.review_to(n);
                }
                self.install(
                    c,
                    Some(Autosaver::resume(store, rec.id.clone(), rec.created_unix)),
                );
                self.open(Screen::Game);
            }
            Err(_) => self.refresh_all(),
        }
    }

    fn delete(&mut self, id: &str) {
        if let Some(store) = &self.store {
            let _ = store.delete_game(id);
        }
        if self.saver.as_ref().is_some_and(|s| s.id() == id) {
            self.saver = None;
            self.controller = None;
        }
        self.refresh_saved();
        self.refresh_home();
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

    fn with_game(&mut self, f: impl FnOnce(&mut Controller)) {
        if let Some(c) = self.controller.as_mut() {
            f(c);
        }
        self.after_action();
    }

    fn square_down(&mut self, col: i32, row: i32) {
        let Some(view) = &self.last_view else { return };
        let sq = square_at(col, row, view.ranks, view.flipped);
        self.press = sq;
        let img = sq
            .and_then(|s| view.squares.get(s.index()).and_then(|v| v.piece))
            .map(|p| piece_image(p, 96))
            .unwrap_or_default();
        if let Some(ui) = self.ui() {
            ui.global::<BoardProps>().set_drag_image(img);
        }
    }

    fn square_up(&mut self, col: i32, row: i32) {
        let Some(view) = &self.last_view else { return };
        let to = square_at(col, row, view.ranks, view.flipped);
        let from = self.press.take();
        match (from, to) {
            (Some(f), Some(t)) if f == t => self.with_game(|c| c.tap(t)),
            (Some(f), Some(t)) => self.with_game(|c| c.drag(f, t)),
            _ => {}
        }
    }

    /// Taps a square by name (tests and the CLI).
    pub fn tap(&mut self, sq: crate::rules::Square) {
        self.with_game(|c| c.tap(sq));
    }

    fn tick(&mut self) {
        let Some(c) = self.controller.as_mut() else {
            return;
        };
        c.tick();
        if self.last_view.as_ref() != Some(&c.view()) {
            self.after_action();
        } else if self.online.current().is_some() {
            // The opponent's presence counts seconds.
            self.refresh_online_board();
        }
    }

    /// The network timer: takes in what came (when the wake-up did not already).
    fn net_tick_timer(&mut self) {
        self.net_tick();
    }

    pub(crate) fn after_action(&mut self) {
        self.flush_outbox();
        if let (Some(saver), Some(c)) = (&self.saver, self.controller.as_mut()) {
            let _ = saver.save_if_changed(c);
        }
        if let Some(c) = &self.controller {
            if !self.stats_recorded && c.session().is_over() {
                self.stats_recorded = record_result(&mut self.stats, c);
                if let Some(store) = &self.store {
                    let _ = store.save_stats(&self.stats);
                }
            }
        }
        self.refresh_game();
    }

    // ----- refreshing the UI -----

    /// Refreshes every screen's texts and models (after a language change, a screen change).
    pub fn refresh_all(&mut self) {
        let Some(ui) = self.ui() else { return };
        let t = ui.global::<T>();
        t.set_lang(self.i18n.lang().code().into());
        t.set_rtl(self.i18n.lang().rtl());
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
        self.refresh_home();
        self.refresh_saved();
        self.refresh_stats();
        self.refresh_rules(ui.global::<RulesProps>().get_rules_tab());
        self.refresh_online();
        self.last_view = None;
        self.refresh_game();
    }

    fn refresh_home(&mut self) {
        let Some(ui) = self.ui() else { return };
        let home_ui = ui.global::<HomeProps>();
        let cards: Vec<CardData> = GameKind::ALL
            .iter()
            .map(|&k| {
                let game = crate::rules::AnyGame::start(k, 7);
                let view_pieces = preview_pieces(&game);
                CardData {
                    kind: k.name().into(),
                    title: self.game_name(k).into(),
                    blurb: self.tr(&format!("game-{}-blurb", k.name())).into(),
                    preview_ranks: if k == GameKind::MineChess { 10 } else { 8 },
                    preview: ModelRc::new(VecModel::from(view_pieces)),
                }
            })
            .collect();
        home_ui.set_cards(ModelRc::new(VecModel::from(cards)));
        let cont = self
            .continue_id()
            .and_then(|id| self.store.as_ref()?.load_game(&id).ok());
        home_ui.set_has_continue(cont.is_some());
        if let Some(rec) = cont {
            let kind = kind_of(&rec.kind);
            home_ui.set_continue_title(
                self.i18n
                    .tr_args("home-continue-title", &[("game", self.game_name(kind))])
                    .into(),
            );
            let state = self.opponent_text(&rec);
            let line = self.i18n.tr_args(
                "home-continue-line",
                &[
                    ("game", self.game_name(kind)),
                    ("moves", self.moves_text(rec.moves.len())),
                    ("state", state),
                ],
            );
            home_ui.set_continue_line(line.into());
        }
    }

    fn opponent_text(&self, rec: &crate::store::GameRecord) -> String {
        match rec.mode.opponent {
            crate::store::Opponent::Computer => self.i18n.tr_args(
                "saved-vs-computer",
                &[("n", self.i18n.number(rec.mode.level.unwrap_or(1)))],
            ),
            crate::store::Opponent::PassAndPlay => self.tr("saved-two-players"),
            crate::store::Opponent::Online => self.tr("saved-online"),
        }
    }

    /// How many moves a game has, counted as players count them (both sides' moves are one).
    fn moves_text(&self, plies: usize) -> String {
        self.i18n.tr_count("saved-moves", plies.div_ceil(2))
    }

    fn refresh_saved(&mut self) {
        let Some(ui) = self.ui() else { return };
        let Some(store) = &self.store else { return };
        let mut rows = Vec::new();
        for g in store.list_games() {
            let damaged = |title: String, reason: String| SavedData {
                id: g.id.clone().into(),
                title: title.into(),
                line1: self.tr("saved-damaged").into(),
                line2: SharedString::default(),
                damaged: true,
                finished: false,
                details: self
                    .i18n
                    .tr_args(
                        "saved-damaged-details",
                        &[("file", g.file.clone()), ("reason", reason)],
                    )
                    .into(),
            };
            let row = match &g.entry {
                Ok(rec) => {
                    let kind = kind_of(&rec.kind);
                    let line1 = self.i18n.tr_args(
                        "saved-line",
                        &[
                            ("opponent", self.opponent_text(rec)),
                            ("moves", self.moves_text(rec.moves.len())),
                        ],
                    );
                    let state = match &rec.result {
                        Some(r) => self.i18n.tr_args(
                            "saved-result",
                            &[
                                (
                                    "result",
                                    self.tr(&format!(
                                        "result-{}",
                                        r.winner.as_deref().unwrap_or("draw")
                                    )),
                                ),
                                ("reason", self.tr(&format!("reason-{}", r.reason))),
                            ],
                        ),
                        None => {
                            match from_record(rec, Arc::new(Standard), Box::new(SystemRandomness)) {
                                Ok(c) => {
                                    let side = c.session().game().side_to_move();
                                    self.i18n.tr_args(
                                        "saved-to-move",
                                        &[("side", self.tr(side_key(side)))],
                                    )
                                }
                                Err(e) => {
                                    rows.push(damaged(self.game_name(kind), e.to_string()));
                                    continue;
                                }
                            }
                        }
                    };
                    SavedData {
                        id: g.id.clone().into(),
                        title: self.game_name(kind).into(),
                        line1: line1.into(),
                        line2: self
                            .i18n
                            .tr_args(
                                "saved-state-line",
                                &[("state", state), ("date", self.i18n.date(rec.updated_unix))],
                            )
                            .into(),
                        damaged: false,
                        finished: rec.result.is_some(),
                        details: SharedString::default(),
                    }
                }
                Err(d) => damaged(self.tr("saved-damaged-title"), d.reason.clone()),
            };
            rows.push(row);
        }
        ui.global::<SavedProps>()
            .set_saved(ModelRc::new(VecModel::from(rows)));
    }

    fn refresh_stats(&mut self) {
        let Some(ui) = self.ui() else { return };
        let rows: Vec<StatRow> = self
            .stats
            .entries
            .iter()
            .map(|e| {
                let mode = match (e.mode.as_str(), e.level) {
                    ("computer", Some(l)) => self
                        .i18n
                        .tr_args("stats-vs-computer", &[("n", self.i18n.number(l))]),
                    ("online", _) => self.tr("stats-online"),
                    _ => self.tr("stats-two-players"),
                };
                StatRow {
                    title: self
                        .i18n
                        .tr_args(
                            "stats-row-title",
                            &[("game", self.game_name(kind_of(&e.kind))), ("mode", mode)],
                        )
                        .into(),
                    wins: self.count_text(e.wins).into(),
                    draws: self.count_text(e.draws).into(),
                    losses: self.count_text(e.losses).into(),
                }
            })
            .collect();
        ui.global::<StatsProps>()
            .set_stats(ModelRc::new(VecModel::from(rows)));
    }

    /// A count in the statistics: a dash for none (the Persian zero is a small dot).
    fn count_text(&self, n: u32) -> String {
        if n == 0 {
            "–".to_string()
        } else {
            self.i18n.number(n)
        }
    }

    fn refresh_rules(&mut self, tab: i32) {
        let Some(ui) = self.ui() else { return };
        let rules_ui = ui.global::<RulesProps>();
        let kind = GameKind::ALL[tab.clamp(0, 3) as usize];
        let text = self.tr(&format!("rules-{}", kind.name()));
        let paragraphs: Vec<SharedString> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim().into())
            .collect();
        rules_ui.set_rules_paragraphs(ModelRc::new(VecModel::from(paragraphs)));
        let view = rules_diagram(kind);
        rules_ui.set_rules_ranks(view.ranks as i32);
        rules_ui.set_rules_squares(ModelRc::new(VecModel::from(board_model::squares(&view))));
        let mut slots = PieceSlots::new();
        slots.set_pixel_size(64);
        slots.rebuild(&view);
        rules_ui.set_rules_pieces(ModelRc::from(slots.model()));
        rules_ui.set_rules_caption(self.tr(&format!("game-{}-blurb", kind.name())).into());
    }

    /// Refreshes the game screen from the controller's view.
    pub fn refresh_game(&mut self) {
        let Some(ui) = self.ui() else { return };
        let board_ui = ui.global::<BoardProps>();
        let Some(c) = &self.controller else { return };
        let view = c.view();
        let moves_now: Vec<String> = c.session().moves()[..c.session().cursor()].to_vec();
        let one_more =
            moves_now.len() == self.history.len() + 1 && moves_now.starts_with(&self.history);
        let same_orientation = self
            .last_view
            .as_ref()
            .is_some_and(|v| v.flipped == view.flipped && v.ranks == view.ranks);
        let px = self.piece_pixels(&ui, view.ranks);
        self.pieces.set_pixel_size(px);
        if one_more && same_orientation {
            self.pieces.after_move(&view, &view.last_path);
        } else if self.last_view.as_ref().map(|v| (&v.squares, v.flipped))
            != Some((&view.squares, view.flipped))
            || board_ui.get_pieces().row_count() == 0
        {
            self.pieces.rebuild(&view);
            board_ui.set_pieces(ModelRc::from(self.pieces.model()));
        }
        self.history = moves_now;

        // Squares: update rows in place, so that marks animate once.
        let rows = board_model::squares(&view);
        if self.squares.row_count() != rows.len() {
            self.squares = Rc::new(VecModel::from(rows));
            board_ui.set_squares(ModelRc::from(Rc::clone(&self.squares)));
        } else {
            for (i, r) in rows.into_iter().enumerate() {
                if self.squares.row_data(i).as_ref() != Some(&r) {
                    self.squares.set_row_data(i, r);
                }
            }
        }
        if board_ui.get_squares().row_count() == 0 {
            board_ui.set_squares(ModelRc::from(Rc::clone(&self.squares)));
        }
        let i18n = &self.i18n;
        board_ui.set_arrows(ModelRc::new(VecModel::from(board_model::arrows(
            &view,
            |n| i18n.number(n),
        ))));
        ui.global::<OnlineBoardProps>()
            .set_crowd_line(self.crowd_text(&view).into());

        self.refresh_online_board();
        let Some(c) = &self.controller else { return };
        let kind = view.kind;
        board_ui.set_kind(kind.name().into());
        board_ui.set_ranks(view.ranks as i32);
        let title = match c.opponent() {
            Opponent::Computer { level, .. } => self.i18n.tr_args(
                "title-vs-computer",
                &[
                    ("game", self.game_name(kind)),
                    (
                        "level",
                        self.i18n
                            .tr_args("level-n", &[("n", self.i18n.number(level))]),
                    ),
                ],
            ),
            Opponent::PassAndPlay | Opponent::Online { .. } => self.game_name(kind),
            Opponent::Watching => self
                .i18n
                .tr_args("online-watching-title", &[("game", self.game_name(kind))]),
        };
        board_ui.set_title(title.into());
        board_ui.set_status(self.i18n.status(&view.status).into());
        let bottom_side = if view.flipped {
            Side::Black
        } else {
            Side::White
        };
        board_ui.set_top(self.side_info(&view, c, bottom_side.opponent()));
        board_ui.set_bottom(self.side_info(&view, c, bottom_side));
        board_ui.set_has_clocks(view.clocks.is_some());
        board_ui.set_face_to_face(
            matches!(c.opponent(), Opponent::PassAndPlay) && c.layout() == Layout::FaceToFace,
        );
        board_ui.set_moves(ModelRc::new(VecModel::from(self.move_rows(&view))));
        if let Some(die) = &view.die {
            board_ui.set_has_die(true);
            // Only the roll of the turn now: the last move's face is in the move list.
            let face = die.face.unwrap_or(0);
            board_ui.set_die_face(face as i32);
            board_ui.set_die_rolls(self.die_rolls);
            let label = if face > 0 {
                self.i18n.tr_args(
                    "die-face",
                    &[
                        ("face", self.i18n.number(face)),
                        ("name", self.tr(&format!("face-name-{face}"))),
                    ],
                )
            } else {
                String::new()
            };
            board_ui.set_die_label(label.into());
            let start = match (view.moves.is_empty(), die.start_rolls.last()) {
                (true, Some(&(w, b))) => self.i18n.tr_args(
                    "start-roll",
                    &[
                        ("white", self.i18n.number(w)),
                        ("black", self.i18n.number(b)),
                    ],
                ),
                _ => String::new(),
            };
            board_ui.set_start_roll(start.into());
        } else {
            board_ui.set_has_die(false);
        }
        // The counter of RULES.md (mines still on the board), and how many of them are
        // hidden: the fog lifts when that is none.
        let known = view
            .squares
            .iter()
            .filter(|q| q.marks & crate::game::view::mark::MINE != 0)
            .count() as u32;
        board_ui.set_mines_label(
            view.mines_left
                .map(|n| {
                    self.i18n.tr_args(
                        "mines-left",
                        &[
                            ("n", self.i18n.number(n)),
                            ("hidden", self.i18n.number(n.saturating_sub(known))),
                        ],
                    )
                })
                .unwrap_or_default()
                .into(),
        );
        let b = view.buttons;
        board_ui.set_can_undo(b.undo);
        board_ui.set_can_redo(b.redo);
        board_ui.set_can_hint(b.hint);
        board_ui.set_can_resign(b.resign);
        board_ui.set_can_offer_draw(b.offer_draw);
        board_ui.set_can_answer_draw(b.answer_draw);
        board_ui.set_can_roll(b.roll);
        board_ui.set_can_sapper(b.sapper);
        board_ui.set_promoting(view.promotion.is_some());
        let promo_side = view.side_to_move;
        board_ui.set_promotion_images(ModelRc::new(VecModel::from(
            [Glyph::Queen, Glyph::Rook, Glyph::Bishop, Glyph::Knight]
                .map(|g| {
                    piece_image(
                        PieceView {
                            side: promo_side,
                            glyph: g,
                        },
                        96,
                    )
                })
                .to_vec(),
        )));
        board_ui.set_game_over(view.result.is_some());
        board_ui
            .set_show_result_sheet(view.result.is_some() && !self.result_closed && !view.review);
        if let Some(r) = &view.result {
            let title = match (c.opponent(), r.winner) {
                (_, None) => self.tr("result-draw"),
                (Opponent::Computer { human, .. }, Some(w)) if w == human => {
                    self.tr("result-you-win")
                }
                (Opponent::Computer { .. }, Some(_)) => self.tr("result-you-lose"),
                (Opponent::Online { me }, Some(w)) if w == me => self.tr("result-you-win"),
                (Opponent::Online { .. }, Some(_)) => self.tr("result-you-lose"),
                (Opponent::Watching, Some(w)) => self.tr(&format!(
                    "result-{}",
                    side_key(w).trim_start_matches("side-")
                )),
                (Opponent::PassAndPlay, Some(w)) => self.tr(&format!(
                    "result-{}",
                    side_key(w).trim_start_matches("side-")
                )),
            };
            board_ui.set_result_title(title.into());
            board_ui.set_result_reason(self.tr(&format!("reason-{}", r.reason)).into());
        }
        board_ui.set_reviewing(view.review);
        ui.global::<ShareProps>()
            .set_can_share(super::share::can_share(c));
        let total = c.session().moves().len();
        board_ui.set_review_label(
            self.i18n
                .tr_args(
                    "review-position",
                    &[
                        ("n", self.i18n.number(c.session().cursor())),
                        ("total", self.i18n.number(total)),
                    ],
                )
                .into(),
        );
        board_ui.set_save_failed(view.save_failed);
        self.sound_for(&view);
        self.last_view = Some(view);
    }

    /// Plays what changed on the board since it was last heard: a move (a capture, a check, a
    /// mine), the die, the end, a clock running low. Stepping through a game is silent.
    fn sound_for(&mut self, view: &View) {
        use crate::game::view::mark;
        use crate::sound::Effect;
        let Some(c) = &self.controller else { return };
        let moves = c.session().cursor();
        let now = Heard {
            moves,
            face: view.die.as_ref().and_then(|d| d.face),
            over: view.result.is_some(),
            low: [0, 1].map(|i| {
                view.clocks
                    .is_some_and(|k| k[i].running && k[i].remaining_ms < 10_000)
            }),
        };
        let before = std::mem::replace(&mut self.heard, now.clone());
        if !self.settings.sound || view.review {
            return;
        }
        let mut effect = None;
        if now.moves == before.moves + 1 {
            let last = view.moves.last();
            effect = Some(
                if view.squares.iter().any(|q| q.marks & mark::EXPLOSION != 0) {
                    Effect::Mine
                } else if view.squares.iter().any(|q| q.marks & mark::CHECK != 0) {
                    Effect::Check
                } else if last.is_some_and(|m| m.figurine.contains('×') || m.text.contains('x')) {
                    Effect::Capture
                } else {
                    Effect::Move
                },
            );
        }
        if now.face.is_some() && now.face != before.face {
            effect = Some(Effect::Roll);
        }
        if now.over && !before.over && now.moves >= before.moves {
            effect = Some(Effect::End);
        }
        if (now.low[0] && !before.low[0]) || (now.low[1] && !before.low[1]) {
            effect = effect.or(Some(Effect::LowTime));
        }
        if let Some(e) = effect {
            self.sounds.play(e);
        }
    }

    /// A move's notation kept left to right inside right-to-left text (a Unicode isolate).
    pub(crate) fn isolate(&self, text: &str) -> String {
        if self.i18n.lang().rtl() {
            format!("\u{2066}{text}\u{2069}")
        } else {
            text.to_string()
        }
    }

    /// The line about the spectators' suggestions, in the user's language.
    fn crowd_text(&self, view: &View) -> String {
        use crate::game::view::CrowdLine;
        match &view.crowd {
            None => String::new(),
            Some(CrowdLine::Suggested { items, voters }) => {
                let sep = self.tr("list-separator");
                let list = items
                    .iter()
                    .map(|(mv, n)| {
                        self.i18n.tr_args(
                            "crowd-item",
                            &[("move", self.isolate(mv)), ("count", self.i18n.number(*n))],
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(&sep);
                self.i18n.tr_args(
                    "crowd-suggested",
                    &[("list", list), ("voters", self.i18n.number(*voters))],
                )
            }
            Some(CrowdLine::Played {
                mv,
                matched,
                voters,
            }) => self.i18n.tr_args(
                "crowd-played",
                &[
                    ("move", self.isolate(mv)),
                    ("matched", self.i18n.number(*matched)),
                    ("voters", self.i18n.number(*voters)),
                ],
            ),
        }
    }

    fn piece_pixels(&self, ui: &MainWindow, ranks: u8) -> u32 {
        let size = ui.window().size();
        let scale = ui.window().scale_factor().max(1.0);
        let cell = (size.width as f32 / 8.0).min(size.height as f32 * 0.75 / ranks as f32);
        ((cell.max(24.0 * scale) / 8.0).ceil() * 8.0) as u32
    }

    fn side_info(&self, view: &View, c: &Controller, side: Side) -> SideInfo {
        let name = match c.opponent() {
            Opponent::Online { .. } | Opponent::Watching => self
                .online_side_name(side)
                .unwrap_or_else(|| self.tr(side_key(side))),
            Opponent::Computer { human, .. } if human != side => self
                .i18n
                .tr_args("side-computer", &[("side", self.tr(side_key(side)))]),
            _ => self.tr(side_key(side)),
        };
        let (clock, running, low) = match &view.clocks {
            Some(cl) => {
                let k = cl[side.index()];
                (
                    self.i18n.clock(k.remaining_ms),
                    k.running,
                    k.remaining_ms < 20_000,
                )
            }
            None => (String::new(), false, false),
        };
        let imgs = |list: &[PieceView]| {
            ModelRc::new(VecModel::from(
                list.iter().map(|&p| piece_image(p, 40)).collect::<Vec<_>>(),
            ))
        };
        SideInfo {
            name: name.into(),
            clock: clock.into(),
            clock_running: running,
            clock_low: low,
            captured: imgs(&view.captured[side.index()]),
            lost: imgs(&view.lost_to_mines[side.index()]),
            to_move: view.result.is_none() && view.side_to_move == side,
        }
    }

    fn move_rows(&self, view: &View) -> Vec<MoveRow> {
        let mut rows: Vec<MoveRow> = Vec::new();
        let letters = self.settings.move_letters
            && matches!(view.kind, GameKind::Chess | GameKind::MineChess);
        let shown = |m: &crate::game::view::MoveEntry| -> SharedString {
            if letters {
                m.text.clone().into()
            } else {
                m.figurine.clone().into()
            }
        };
        for (i, m) in view.moves.iter().enumerate() {
            let new_row = m.side == Side::White || rows.is_empty() || i == 0;
            if m.side == Side::White
                || new_row && rows.last().map(|r| !r.black.is_empty()).unwrap_or(true)
            {
                rows.push(MoveRow {
                    number: format!("{}.", self.i18n.number(rows.len() + 1)).into(),
                    white: if m.side == Side::White {
                        shown(m)
                    } else {
                        "…".into()
                    },
                    black: SharedString::default(),
                    white_current: m.current && m.side == Side::White,
                    black_current: false,
                });
                if m.side == Side::White {
                    continue;
                }
            }
            if let Some(last) = rows.last_mut() {
                last.black = shown(m);
                last.black_current = m.current;
            }
        }
        rows
    }

    // ----- settings -----

    fn apply_settings_to_ui(&mut self) {
        let Some(ui) = self.ui() else { return };
        let board_ui = ui.global::<BoardProps>();
        let settings_ui = ui.global::<SettingsProps>();
        let s = &self.settings;
        settings_ui.set_set_lang(lang_index(self.i18n.lang()));
        settings_ui.set_set_theme(match s.theme.as_str() {
            "green" => 1,
            "blue" => 2,
            _ => 0,
        });
        settings_ui.set_set_anim(match s.animation_speed.as_str() {
            "off" => 0,
            "fast" => 1,
            "slow" => 3,
            _ => 2,
        });
        settings_ui.set_set_rotation(match s.pass_and_play_rotation.as_str() {
            "face-to-face" => 1,
            "none" => 2,
            _ => 0,
        });
        settings_ui.set_set_sound(s.sound);
        settings_ui.set_set_legal(s.show_legal_moves);
        settings_ui.set_set_coords(s.coordinates);
        settings_ui.set_set_letters(s.move_letters);
        ui.global::<Theme>()
            .set_board_theme(settings_ui.get_set_theme());
        board_ui.set_show_targets(s.show_legal_moves);
        board_ui.set_show_coordinates(s.coordinates);
        board_ui.set_slide_time(match s.animation_speed.as_str() {
            "off" => 0,
            "fast" => 100,
            "slow" => 320,
            _ => 180,
        });
    }

    fn settings_from_ui(&mut self) {
        let Some(ui) = self.ui() else { return };
        let settings_ui = ui.global::<SettingsProps>();
        let lang = if settings_ui.get_set_lang() == 1 {
            Lang::Fa
        } else {
            Lang::En
        };
        self.settings.language = Some(lang.code().to_string());
        self.settings.theme = ["classic", "green", "blue"]
            [settings_ui.get_set_theme().clamp(0, 2) as usize]
            .to_string();
        self.settings.animation_speed = ["off", "fast", "normal", "slow"]
            [settings_ui.get_set_anim().clamp(0, 3) as usize]
            .to_string();
        self.settings.pass_and_play_rotation = ["rotate", "face-to-face", "none"]
            [settings_ui.get_set_rotation().clamp(0, 2) as usize]
            .to_string();
        self.settings.sound = settings_ui.get_set_sound();
        self.settings.show_legal_moves = settings_ui.get_set_legal();
        self.settings.coordinates = settings_ui.get_set_coords();
        self.settings.move_letters = settings_ui.get_set_letters();
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        self.set_language(lang);
        self.apply_settings_to_ui();
    }

    /// Switches the language at once (no restart).
    pub fn set_language(&mut self, lang: Lang) {
        self.i18n.set_lang(lang);
        if let Some(ui) = self.ui() {
            ui.global::<SettingsProps>().set_set_lang(lang_index(lang));
        }
        self.refresh_all();
    }
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::White => "side-white",
        Side::Black => "side-black",
    }
}

fn preview_pieces(game: &crate::rules::AnyGame) -> Vec<PieceData> {
    let Ok(c) = Controller::new(
        NewGame {
            kind: game.kind(),
            opponent: Opponent::PassAndPlay,
            layout: Layout::Fixed,
            time_control: None,
            position: Some(game.to_text()),
        },
        Arc::new(Standard),
        Box::new(SystemRandomness),
    ) else {
        return Vec::new();
    };
    let view = c.view();
    board_model::pieces_of(&view)
        .into_iter()
        .enumerate()
        .map(|(i, (sq, p))| {
            let (col, row) = board_model::display_cell(sq, view.ranks, false);
            PieceData {
                key: i as i32,
                col,
                row,
                image: piece_image(p, 24),
                alive: true,
            }
        })
        .collect()
}

/// A small illustrative position for each game's rules page.
fn rules_diagram(kind: GameKind) -> View {
    let (position, taps): (Option<&str>, &[&str]) = match kind {
        GameKind::Chess => (Some("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1"), &["e1"]),
        GameKind::DiceChess => (None, &[]),
        GameKind::Draughts => (Some("8/3b4/2b1b3/3b4/3w4/8/w6w/8 w"), &["d4", "d6"]),
        GameKind::MineChess => (Some("rnbqkbnr/pppp1ppp/8/4p3/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c5,d6,f4,h7 d4,e4,f4,d5,e5,f5,d6,e6,f6,d7,e7,f7"), &["e4"]),
    };
    let game = NewGame {
        kind,
        opponent: Opponent::PassAndPlay,
        layout: Layout::Fixed,
        time_control: None,
        position: position.map(String::from),
    };
    let Ok(mut c) = Controller::new(
        game,
        Arc::new(Standard),
        Box::new(crate::game::ScriptedRandomness::new(vec![5, 2], vec![7])),
    ) else {
        return Controller::new(
            NewGame::pass_and_play(GameKind::Chess),
            Arc::new(Standard),
            Box::new(SystemRandomness),
        )
        .expect("chess starts")
        .view();
    };
    let ranks = if kind == GameKind::MineChess { 10 } else { 8 };
    for t in taps {
        if let Some(sq) = crate::rules::Square::parse(t, ranks) {
            c.tap(sq);
        }
    }
    c.view()
}
