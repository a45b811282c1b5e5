//! The home screen's adapter: the game cards with their previews, the game to continue.

use std::sync::Arc;

use slint::{ComponentHandle, ModelRc, VecModel};

use crate::ai::Standard;
use crate::game::{Controller, Layout, NewGame, Opponent, SystemRandomness};
use crate::rules::GameKind;

use super::app::*;
use super::board_model::{self};
use super::images::piece_image;
use super::{CardData, HomeProps, PieceData};

impl AppState {
    pub(crate) fn refresh_home(&mut self) {
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

    pub(crate) fn continue_game(&mut self) {
        if let Some(id) = self.continue_id() {
            self.resume(&id);
        }
    }

    pub(crate) fn continue_id(&self) -> Option<String> {
        let store = self.store.as_ref()?;
        store.list_games().into_iter().find_map(|g| match g.entry {
            Ok(rec) if rec.result.is_none() => Some(g.id),
            _ => None,
        })
    }
}

pub(super) fn preview_pieces(game: &crate::rules::AnyGame) -> Vec<PieceData> {
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
