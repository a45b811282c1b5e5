//! The saved-games screen's adapter: the list, opening and deleting a game.

use std::sync::Arc;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::ai::Standard;
use crate::game::controller::result_word;
use crate::game::{from_record, Autosaver, SystemRandomness};

use super::app::*;
use super::{SavedData, SavedProps, Screen};
use crate::store::DamageKind;

use super::side_key;

impl AppState {
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
                self.install(c, Some(Autosaver::resume(store, &rec)));
                self.game_from = Screen::Saved;
                self.open(Screen::Game);
            }
            Err(_) => self.refresh_all(),
        }
    }

    pub(crate) fn delete(&mut self, id: &str) {
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

    pub(crate) fn refresh_saved(&mut self) {
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
                    // A game whose moves no longer replay is damaged, finished or not (its
                    // review would show nothing).
                    let c = match from_record(rec, Arc::new(Standard), Box::new(SystemRandomness)) {
                        Ok(c) => c,
                        Err(e) => {
                            rows.push(damaged(self.game_name(kind), self.load_error_text(&e)));
                            continue;
                        }
                    };
                    let state = match c.session().final_end() {
                        Some(e) => match e.result() {
                            Some(result) => self.i18n.tr_args(
                                "saved-result",
                                &[
                                    (
                                        "result",
                                        self.tr(&format!("result-{}", result_word(result))),
                                    ),
                                    ("reason", self.tr(&format!("reason-{}", e.reason()))),
                                ],
                            ),
                            None => self.tr("saved-aborted"),
                        },
                        None => {
                            let side = c.session().game().side_to_move();
                            self.i18n
                                .tr_args("saved-to-move", &[("side", self.tr(side_key(side)))])
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
                Err(d) => damaged(self.tr("saved-damaged-title"), self.damage_text(d.kind)),
            };
            rows.push(row);
        }
        ui.global::<SavedProps>()
            .set_saved(ModelRc::new(VecModel::from(rows)));
    }

    pub(crate) fn opponent_text(&self, rec: &crate::store::GameRecord) -> String {
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
    pub(crate) fn moves_text(&self, plies: usize) -> String {
        self.i18n.tr_count("saved-moves", plies.div_ceil(2))
    }

    /// Why a saved file does not read, in the player's language.
    pub(crate) fn damage_text(&self, kind: DamageKind) -> String {
        match kind {
            DamageKind::Unreadable => self.tr("damage-unreadable"),
            DamageKind::Empty => self.tr("damage-empty"),
            DamageKind::Truncated => self.tr("damage-truncated"),
            DamageKind::NotJson => self.tr("damage-not-json"),
            DamageKind::NewerSchema(_) => self.tr("damage-newer"),
            DamageKind::WrongShape => self.tr("damage-wrong-shape"),
        }
    }

    /// Why a saved game does not replay, in the player's language.
    fn load_error_text(&self, e: &crate::game::LoadError) -> String {
        match e {
            crate::game::LoadError::Session(crate::game::SessionError::Replay {
                index, ..
            }) => self
                .i18n
                .tr_args("damage-replay", &[("n", self.i18n.number(index))]),
            crate::game::LoadError::Session(crate::game::SessionError::Position(_)) => {
                self.tr("damage-position")
            }
            _ => self.tr("damage-wrong-shape"),
        }
    }
}
