//! The statistics screen's adapter.

use slint::{ComponentHandle, ModelRc, VecModel};

use super::app::*;
use super::{StatRow, StatsProps};

impl AppState {
    pub(crate) fn refresh_stats(&mut self) {
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
    pub(crate) fn count_text(&self, n: u32) -> String {
        if n == 0 {
            "–".to_string()
        } else {
            self.i18n.number(n)
        }
    }
}
