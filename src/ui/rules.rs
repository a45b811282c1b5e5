//! The rules screen's adapter: each game's paragraphs and its diagram.

use std::sync::Arc;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::ai::Standard;
use crate::game::view::View;
use crate::game::{Controller, Layout, NewGame, Opponent, SystemRandomness};
use crate::rules::GameKind;

use super::app::*;
use super::board_model::{self, PieceSlots};
use super::RulesProps;

impl AppState {
    pub(crate) fn refresh_rules(&mut self, tab: i32) {
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
}

/// A small illustrative position for each game's rules page.
pub(super) fn rules_diagram(kind: GameKind) -> View {
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
