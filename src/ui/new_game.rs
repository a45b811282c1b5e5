//! The new-game screen's adapter: the choices offered (the last ones again), starting a game
//! from them, putting a game on the board, a rematch.

use std::sync::Arc;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::game::{
    Autosaver, Controller, Layout, NewGame, Opponent, SystemRandomness, TimeControl,
};
use crate::rules::{GameKind, Side};

use super::app::*;
use super::{NewGameProps, Screen};

impl AppState {
    /// The line under the levels for each level of the new game's kind: "Level 4 · about
    /// 1800" where the level has a measured rating, "Level 4" otherwise.
    pub(crate) fn level_captions(&self) -> ModelRc<SharedString> {
        let captions: Vec<SharedString> = (1..=6u8)
            .map(|level| {
                let n = ("n", self.i18n.number(level));
                match crate::ai::level::approximate_rating(self.ng_kind, level) {
                    Some(r) => self
                        .i18n
                        .tr_args("level-rating", &[n, ("rating", self.i18n.number(r))]),
                    None => self.i18n.tr_args("level-n", &[n]),
                }
                .into()
            })
            .collect();
        ModelRc::new(VecModel::from(captions))
    }

    pub(crate) fn choose_game(&mut self, kind: GameKind) {
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

    pub(crate) fn start_from_form(&mut self) {
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
        self.game_from = Screen::Home;
        self.controller = Some(controller);
        self.board.last_view = None;
        self.board.history.clear();
        if let Some(c) = self.controller.as_mut() {
            c.resume();
        }
    }

    pub(crate) fn rematch(&mut self) {
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
}
