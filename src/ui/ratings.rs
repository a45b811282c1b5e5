//! Quick pairing, ratings, the player page, the leaderboard and the recovery code: the
//! player's taps become the online session's requests, and what the session knows becomes
//! the screens' properties. The pools, the ratings and the pairing are the server's.

use web_time::Instant;

use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

use crate::game::TimeControl;
use crate::i18n::isolated;
use crate::net::protocol::{ClockSpec, EndState};
use crate::net::rating::{PoolChoice, Rating, RatingChange};
use crate::net::recovery::{self, RecoveryError};
use crate::rules::{GameKind, Side};

use super::app::AppState;
use super::{KindCard, LeaderData, OnlineProps, OnlineRow, RatedProps, Screen};

/// The leaderboard's tabs, in the screen's order.
const BOARD_KINDS: [GameKind; 4] = [
    GameKind::Chess,
    GameKind::DiceChess,
    GameKind::Draughts,
    GameKind::MineChess,
];

impl AppState {
    /// A rating as shown: "1500", or "1500?" while provisional, in the language's digits.
    pub(crate) fn rating_text(&self, r: Rating) -> String {
        let n = self.i18n.number(r.rating);
        if r.provisional() {
            self.i18n.tr_args("rating-provisional", &[("rating", n)])
        } else {
            n
        }
    }

    /// A pool's name: "Chess 3+2".
    fn pool_label(&self, c: PoolChoice) -> String {
        self.i18n.tr_args(
            "quick-pool",
            &[
                ("game", self.game_name(c.kind)),
                ("clock", self.clock_in_line(Some(c.clock))),
            ],
        )
    }

    // ----- quick pairing -----

    /// Enters one of the one-tap pools.
    pub fn quick_seek(&mut self, index: usize) {
        if let Some(c) = PoolChoice::common().get(index).copied() {
            self.seek(c);
        }
    }

    /// Enters the pool of the create form's game and clock (a clock is needed).
    pub fn custom_seek(&mut self) {
        let Some(ui) = self.ui() else { return };
        let online_ui = ui.global::<OnlineProps>();
        let kind = GameKind::parse(&online_ui.get_oc_kind()).unwrap_or(GameKind::Chess);
        let clock = usize::try_from(online_ui.get_oc_time())
            .ok()
            .and_then(|i| TimeControl::PRESETS.get(i).copied());
        match clock {
            Some(t) if t.base_ms >= 60_000 => self.seek(PoolChoice {
                kind,
                clock: ClockSpec {
                    base_ms: t.base_ms,
                    increment_ms: t.increment_ms,
                },
            }),
            _ => {
                self.online
                    .set_error(takhte_online::session::OnlineError::Refused(
                        crate::net::protocol::ErrorCode::BadSettings,
                    ));
                online_ui.set_online_error(self.tr("quick-needs-clock").into());
            }
        }
    }

    fn seek(&mut self, choice: PoolChoice) {
        self.ensure_client();
        self.online.seek(choice, Instant::now());
        // The wait shows on the online screen (from the create form too).
        if self.screen() != Screen::Online {
            self.open(Screen::Online);
        }
        self.refresh_online();
    }

    /// Leaves the pool.
    pub fn cancel_seek(&mut self) {
        self.online.cancel_seek();
        self.refresh_online();
    }

    // ----- the player page and the leaderboard -----

    /// A player's page (asked of the server; it shows when it comes).
    pub fn open_player(&mut self, id: &str) {
        if id.is_empty() {
            return;
        }
        if self.screen() != Screen::Player {
            self.rated_from = self.screen();
        }
        self.ensure_client();
        self.online.ask_player(id);
        self.open(Screen::Player);
    }

    /// The page of the opponent of the game on the board (back returns to the game).
    pub fn open_opponent(&mut self) {
        let Some(m) = self.online.current_mirror() else {
            return;
        };
        let seat = match m.you {
            Some(me) => me.opponent(),
            None => Side::White,
        };
        let Some(id) = m.seats[seat.index()].player.clone() else {
            return;
        };
        self.rated_game = Some(m.code.clone());
        self.open_player(&id);
    }

    /// One of the page's recent games, in review: the player's own is opened, another's is
    /// watched.
    pub fn open_recent(&mut self, code: &str) {
        let mine = self
            .online
            .page()
            .is_some_and(|p| p.id == self.online.player_id());
        if mine {
            self.online_open(code);
        } else {
            self.online_watch(code);
        }
    }

    /// The leaderboard of a game (its tab).
    pub fn open_leaderboard(&mut self, tab: i32) {
        let kind = usize::try_from(tab)
            .ok()
            .and_then(|i| BOARD_KINDS.get(i).copied())
            .unwrap_or(GameKind::Chess);
        if let Some(ui) = self.ui() {
            ui.global::<RatedProps>().set_board_kind(tab.clamp(0, 3));
        }
        if self.screen() != Screen::Leaderboard {
            self.rated_from = self.screen();
        }
        self.ensure_client();
        self.online.ask_leaderboard(kind);
        self.open(Screen::Leaderboard);
    }

    /// Back from the player page or the leaderboard: where they were opened from (the game
    /// on the board is opened again).
    pub fn rated_back(&mut self) {
        match (self.rated_from, self.rated_game.take()) {
            (Screen::Game, Some(code)) => self.online_open(&code),
            (Screen::Player, _) | (Screen::Leaderboard, _) | (Screen::Game, None) => {
                self.open_online()
            }
            (from, _) => self.open(from),
        }
    }

    // ----- the recovery code -----

    /// Copied: says so.
    pub fn copy_recovery(&mut self) {
        if let Some(ui) = self.ui() {
            let r = ui.global::<RatedProps>();
            r.set_recovery_error(false);
            r.set_recovery_note(self.tr("recovery-copied").into());
        }
    }

    /// Becomes the player of a recovery code typed or pasted: saved first (nothing changes if
    /// it cannot be), then the connection is made again as that player, whose games come
    /// from the server.
    pub fn use_recovery(&mut self, text: &str) {
        let note = match recovery::token_of(text) {
            Err(e) => Err(self.tr(match e {
                RecoveryError::Length(0) => "recovery-error-empty",
                RecoveryError::Length(_) => "recovery-error-length",
                RecoveryError::Character(_) => "recovery-error-character",
                RecoveryError::Check => "recovery-error-check",
            })),
            Ok(token) if token == self.online.token() => Ok(self.tr("recovery-same")),
            Ok(token) => {
                let saved = match &self.store {
                    Some(s) => s
                        .set_identity(&crate::store::Identity {
                            token: token.clone(),
                        })
                        .map_err(|_| self.tr("recovery-error-save")),
                    None => Ok(()),
                };
                saved.map(|()| {
                    self.online.set_token(token);
                    self.online.disconnect();
                    self.save_cache();
                    self.ensure_client();
                    self.online.ask_my_games();
                    self.tr("recovery-done")
                })
            }
        };
        if let Some(ui) = self.ui() {
            let r = ui.global::<RatedProps>();
            r.set_recovery_error(note.is_err());
            r.set_recovery_note(note.unwrap_or_else(|e| e).into());
        }
        self.refresh_rated();
        self.refresh_home_online();
    }

    // ----- refreshing -----

    /// The properties of quick pairing, the player page, the leaderboard and the recovery
    /// code.
    pub fn refresh_rated(&mut self) {
        let Some(ui) = self.ui() else { return };
        let r = ui.global::<RatedProps>();
        let labels: Vec<SharedString> = PoolChoice::common()
            .into_iter()
            .map(|c| self.pool_label(c).into())
            .collect();
        r.set_quick_labels(ModelRc::new(VecModel::from(labels)));
        match self.online.seeking() {
            Some(s) => {
                r.set_seeking(true);
                let waited = s.since.elapsed().as_millis() as u64;
                r.set_seek_line(
                    self.i18n
                        .tr_args(
                            "quick-waiting-line",
                            &[
                                ("pool", self.pool_label(s.choice)),
                                (
                                    "time",
                                    self.i18n.number(format!(
                                        "{}:{:02}",
                                        waited / 60_000,
                                        waited / 1000 % 60
                                    )),
                                ),
                            ],
                        )
                        .into(),
                );
                let held = s.held_ms.saturating_sub(waited);
                r.set_seek_held(
                    if s.held_ms > 0 && held > 0 {
                        self.i18n.tr_args(
                            "quick-held",
                            &[("seconds", self.i18n.number(held.div_ceil(1000)))],
                        )
                    } else {
                        String::new()
                    }
                    .into(),
                );
            }
            None => {
                r.set_seeking(false);
                r.set_seek_held(SharedString::default());
            }
        }
        self.refresh_page(&r);
        self.refresh_leaderboard(&r);
        // Groups apart by spaces, so that a narrow screen wraps between them.
        let code = recovery::code_of(self.online.token())
            .unwrap_or_default()
            .replace('-', " ");
        r.set_recovery_code(code.into());
        self.refresh_rating_line(&r);
    }

    fn refresh_page(&self, r: &RatedProps) {
        let Some(page) = self.online.page() else {
            r.set_page_name(SharedString::default());
            r.set_page_status(self.page_waiting().into());
            r.set_page_kinds(ModelRc::new(VecModel::from(Vec::<KindCard>::new())));
            r.set_page_recent(ModelRc::new(VecModel::from(Vec::<OnlineRow>::new())));
            return;
        };
        r.set_page_name(page.name.clone().into());
        r.set_page_status(
            if page.kinds.is_empty() {
                self.tr("player-no-games")
            } else {
                String::new()
            }
            .into(),
        );
        let kinds: Vec<KindCard> = page
            .kinds
            .iter()
            .map(|k| KindCard {
                title: self.game_name(k.kind).into(),
                rating: self.rating_text(k.rating).into(),
                line: self
                    .i18n
                    .tr_args(
                        "player-kind-line",
                        &[
                            ("played", self.i18n.number(k.played)),
                            ("wins", self.i18n.number(k.wins)),
                            ("draws", self.i18n.number(k.draws)),
                            ("losses", self.i18n.number(k.losses)),
                        ],
                    )
                    .into(),
            })
            .collect();
        r.set_page_kinds(ModelRc::new(VecModel::from(kinds)));
        let lang = self.i18n.lang();
        let recent: Vec<OnlineRow> = page
            .recent
            .iter()
            .map(|g| OnlineRow {
                code: g.code.clone().into(),
                title: self
                    .i18n
                    .tr_args(
                        "player-recent-title",
                        &[
                            ("game", self.game_name(g.kind)),
                            ("opponent", isolated(&g.opponent, lang)),
                        ],
                    )
                    .into(),
                line: {
                    let result = self.tr(&format!("player-result-{}", g.result));
                    if g.rated {
                        self.i18n
                            .tr_args("player-rated-line", &[("result", result)])
                    } else {
                        result
                    }
                }
                .into(),
                highlight: g.result == "win",
                player: SharedString::default(),
            })
            .collect();
        r.set_page_recent(ModelRc::new(VecModel::from(recent)));
    }

    /// What the page says while it has not come (or could not).
    fn page_waiting(&self) -> String {
        match self.online.error() {
            Some(e) => self.tr(super::online::online_error_key(e)),
            None => self.tr("player-loading"),
        }
    }

    fn refresh_leaderboard(&self, r: &RatedProps) {
        let tab = usize::try_from(r.get_board_kind()).unwrap_or(0).min(3);
        let board = self
            .online
            .leaderboard()
            .filter(|b| b.kind == BOARD_KINDS[tab]);
        let Some(board) = board else {
            r.set_board_rows(ModelRc::new(VecModel::from(Vec::<LeaderData>::new())));
            r.set_board_you(SharedString::default());
            r.set_board_status(self.page_waiting().into());
            return;
        };
        let me = self.online.player_id();
        let rows: Vec<LeaderData> = board
            .rows
            .iter()
            .map(|row| LeaderData {
                place: self.i18n.number(row.place).into(),
                name: row.name.clone().into(),
                rating: self.i18n.number(row.rating).into(),
                id: row.id.clone().into(),
                you: row.id == me,
            })
            .collect();
        r.set_board_status(
            if rows.is_empty() {
                self.tr("leaderboard-empty")
            } else {
                String::new()
            }
            .into(),
        );
        r.set_board_rows(ModelRc::new(VecModel::from(rows)));
        r.set_board_you(
            match &board.you {
                Some(y) => self.i18n.tr_args(
                    "leaderboard-you",
                    &[
                        ("place", self.i18n.number(y.place)),
                        ("rating", self.i18n.number(y.rating)),
                    ],
                ),
                None => self.tr("leaderboard-you-none"),
            }
            .into(),
        );
    }

    /// The result sheet's line of a rated game: the player's rating change (both players'
    /// to a spectator), or why it changed nothing.
    fn refresh_rating_line(&self, r: &RatedProps) {
        let line = self
            .online
            .current_mirror()
            .and_then(|m| Some((m.you, m.end.clone()?)))
            .map(|(you, end)| (self.rating_line(you, &end), rating_trend(you, &end)))
            .unwrap_or_default();
        r.set_rating_line(line.0.into());
        r.set_rating_trend(line.1);
    }

    /// The rating line of an end (empty for an unrated game).
    pub(crate) fn rating_line(&self, you: Option<Side>, end: &EndState) -> String {
        if let Some(why) = &end.unrated {
            return self.tr(&format!("rating-unrated-{why}"));
        }
        let Some(changes) = end.ratings else {
            return String::new();
        };
        let change = |c: RatingChange| {
            let diff = c.after - c.before;
            let signed = if diff >= 0 {
                format!("+{diff}")
            } else {
                format!("−{}", -diff)
            };
            self.i18n.tr_args(
                "rating-change",
                &[
                    ("before", self.i18n.number(c.before)),
                    (
                        "after",
                        self.rating_text(Rating {
                            rating: c.after,
                            deviation: if c.provisional { 350 } else { 0 },
                        }),
                    ),
                    ("diff", self.i18n.number(signed)),
                ],
            )
        };
        match you {
            Some(side) => self
                .i18n
                .tr_args("rating-yours", &[("change", change(changes[side.index()]))]),
            None => self.i18n.tr_args(
                "rating-both",
                &[("white", change(changes[0])), ("black", change(changes[1]))],
            ),
        }
    }
}

/// Which way the player's rating went in `end`: 1 up, -1 down, 0 neither (unchanged, unrated,
/// or watched by a spectator, who has no rating at stake). A loss is never drawn as good news.
pub(crate) fn rating_trend(you: Option<Side>, end: &EndState) -> i32 {
    match (you, end.ratings, &end.unrated) {
        (Some(side), Some(changes), None) => {
            let c = changes[side.index()];
            (c.after - c.before).signum()
        }
        _ => 0,
    }
}
