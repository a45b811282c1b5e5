//! The game screen's adapter: the board (pieces and squares as models, updated in place),
//! taps, the players' strips, the moves, the die, the buttons, the result sheet, the status,
//! the spectators' line, the sounds of what happened.

use std::rc::Rc;

use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};

use crate::game::view::{Glyph, PieceView, View};
use crate::game::{record_result, Controller, Layout, Opponent};
use crate::rules::{GameKind, Side};

use super::app::*;
use super::board_model::PieceSlots;
use super::board_model::{self, square_at};
use super::images::piece_image;
use super::SquareData;
use super::{BoardProps, MainWindow, MoveRow, OnlineBoardProps, ShareProps, SideInfo};

/// The game screen's own state: the board's models (updated in place, so that marks and
/// moves animate once) and what it showed last.
pub(crate) struct BoardState {
    /// The pieces, one slot each, so that a move slides.
    pub(crate) pieces: PieceSlots,
    /// The squares' rows.
    pub(crate) squares: Rc<VecModel<SquareData>>,
    /// The view last shown.
    pub(crate) last_view: Option<View>,
    /// The square a press started on (a tap or a drag).
    pub(crate) press: Option<crate::rules::Square>,
    /// The moves on the board last shown (one more is a move to animate).
    pub(crate) history: Vec<String>,
    /// Rolls of the die so far (the die animates on each).
    pub(crate) die_rolls: i32,
    /// What the sounds have already said.
    pub(crate) heard: Heard,
}

impl BoardState {
    /// Nothing shown yet.
    pub(crate) fn new() -> BoardState {
        BoardState {
            pieces: PieceSlots::new(),
            squares: Rc::new(VecModel::default()),
            last_view: None,
            press: None,
            history: Vec::new(),
            die_rolls: 0,
            heard: Heard::default(),
        }
    }
}

/// What the sounds have already said about the game on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Heard {
    moves: usize,
    face: Option<u8>,
    over: bool,
    low: [bool; 2],
}

use super::side_key;

impl AppState {
    pub(crate) fn with_game(&mut self, f: impl FnOnce(&mut Controller)) {
        if let Some(c) = self.controller.as_mut() {
            f(c);
        }
        self.after_action();
    }

    pub(crate) fn square_down(&mut self, col: i32, row: i32) {
        let Some(view) = &self.board.last_view else {
            return;
        };
        let sq = square_at(col, row, view.ranks, view.flipped);
        self.board.press = sq;
        let img = sq
            .and_then(|s| view.squares.get(s.index()).and_then(|v| v.piece))
            .map(|p| piece_image(p, 96))
            .unwrap_or_default();
        if let Some(ui) = self.ui() {
            ui.global::<BoardProps>().set_drag_image(img);
        }
    }

    pub(crate) fn square_up(&mut self, col: i32, row: i32) {
        let Some(view) = &self.board.last_view else {
            return;
        };
        let to = square_at(col, row, view.ranks, view.flipped);
        let from = self.board.press.take();
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

    /// Refreshes the game screen from the controller's view.
    pub fn refresh_game(&mut self) {
        let Some(ui) = self.ui() else { return };
        let Some(view) = self.controller.as_ref().map(Controller::view) else {
            return;
        };
        self.refresh_board_models(&ui, &view);
        self.refresh_online_board();
        let board_ui = ui.global::<BoardProps>();
        self.refresh_game_texts(&board_ui, &view);
        self.refresh_die(&board_ui, &view);
        self.refresh_mines(&board_ui, &view);
        refresh_buttons(&board_ui, &view);
        self.refresh_result(&board_ui, &view);
        self.refresh_review(&ui, &view);
        self.sound_for(&view);
        self.board.last_view = Some(view);
    }

    /// The board's models: the pieces (a move slides, anything else rebuilds them), the
    /// squares (rows updated in place, so that marks animate once), the arrows, the crowd line.
    fn refresh_board_models(&mut self, ui: &MainWindow, view: &View) {
        let board_ui = ui.global::<BoardProps>();
        let Some(c) = &self.controller else { return };
        let moves_now: Vec<String> = c.session().moves()[..c.session().cursor()].to_vec();
        let one_more = moves_now.len() == self.board.history.len() + 1
            && moves_now.starts_with(&self.board.history);
        let same_orientation = self
            .board
            .last_view
            .as_ref()
            .is_some_and(|v| v.flipped == view.flipped && v.ranks == view.ranks);
        let px = self.piece_pixels(ui, view.ranks);
        self.board.pieces.set_pixel_size(px);
        if one_more && same_orientation {
            self.board.pieces.after_move(view, &view.last_path);
        } else if self
            .board
            .last_view
            .as_ref()
            .map(|v| (&v.squares, v.flipped))
            != Some((&view.squares, view.flipped))
            || board_ui.get_pieces().row_count() == 0
        {
            self.board.pieces.rebuild(view);
            board_ui.set_pieces(ModelRc::from(self.board.pieces.model()));
        }
        self.board.history = moves_now;

        let rows = board_model::squares(view);
        if self.board.squares.row_count() != rows.len() {
            self.board.squares = Rc::new(VecModel::from(rows));
            board_ui.set_squares(ModelRc::from(Rc::clone(&self.board.squares)));
        } else {
            for (i, r) in rows.into_iter().enumerate() {
                if self.board.squares.row_data(i).as_ref() != Some(&r) {
                    self.board.squares.set_row_data(i, r);
                }
            }
        }
        if board_ui.get_squares().row_count() == 0 {
            board_ui.set_squares(ModelRc::from(Rc::clone(&self.board.squares)));
        }
        let i18n = &self.i18n;
        board_ui.set_arrows(ModelRc::new(VecModel::from(board_model::arrows(
            view,
            |n| i18n.number(n),
        ))));
        ui.global::<OnlineBoardProps>()
            .set_crowd_line(self.crowd_text(view).into());
    }

    /// The title, the status, the players' strips, the moves.
    fn refresh_game_texts(&self, board_ui: &BoardProps, view: &View) {
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
        board_ui.set_top(self.side_info(view, c, bottom_side.opponent()));
        board_ui.set_bottom(self.side_info(view, c, bottom_side));
        board_ui.set_has_clocks(view.clocks.is_some());
        board_ui.set_face_to_face(
            matches!(c.opponent(), Opponent::PassAndPlay) && c.layout() == Layout::FaceToFace,
        );
        board_ui.set_moves(ModelRc::new(VecModel::from(self.move_rows(view))));
    }

    /// The die of dice chess: the face of the turn now, its name, the start roll.
    fn refresh_die(&self, board_ui: &BoardProps, view: &View) {
        if let Some(die) = &view.die {
            board_ui.set_has_die(true);
            // Only the roll of the turn now: the last move's face is in the move list.
            let face = die.face.unwrap_or(0);
            board_ui.set_die_face(face as i32);
            board_ui.set_die_rolls(self.board.die_rolls);
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
    }

    /// The mines' counter of minesweeper chess.
    fn refresh_mines(&self, board_ui: &BoardProps, view: &View) {
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
    }

    /// The result sheet.
    fn refresh_result(&self, board_ui: &BoardProps, view: &View) {
        let Some(c) = &self.controller else { return };
        board_ui.set_game_over(view.result.is_some());
        board_ui
            .set_show_result_sheet(view.result.is_some() && !self.result_closed && !view.review);
        if let Some(r) = &view.result {
            let title = match (c.opponent(), r.winner) {
                _ if r.aborted => self.tr("result-aborted"),
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
            board_ui.set_result_reason(self.tr(&format!("end-{}", r.reason)).into());
        }
    }

    /// Review, sharing, the save warning.
    fn refresh_review(&self, ui: &MainWindow, view: &View) {
        let board_ui = ui.global::<BoardProps>();
        let Some(c) = &self.controller else { return };
        board_ui.set_reviewing(view.review);
        ui.global::<ShareProps>()
            .set_can_share(super::share::can_share(c));
        // Each tap steps one side's turn: the label names that turn as the move list writes
        // it ("2… Nc6") and counts turns, so what it says is what a tap does.
        let cursor = c.session().cursor();
        let total = view.moves.len();
        let label = match cursor.checked_sub(1).and_then(|k| view.moves.get(k)) {
            Some(m) => self.i18n.tr_args(
                "review-position",
                &[
                    ("move", self.move_with_number(view, m)),
                    ("n", self.i18n.number(cursor)),
                    ("total", self.i18n.number(total)),
                ],
            ),
            None => self.tr("review-start"),
        };
        board_ui.set_review_label(label.into());
        board_ui.set_save_failed(view.save_failed);
    }

    /// Plays what changed on the board since it was last heard: a move (a capture, a check, a
    /// mine), the die, the end, a clock running low. Stepping through a game is silent.
    pub(crate) fn sound_for(&mut self, view: &View) {
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
        let before = std::mem::replace(&mut self.board.heard, now.clone());
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

    /// The line about the spectators' suggestions, in the user's language.
    pub(crate) fn crowd_text(&self, view: &View) -> String {
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
                            &[("move", mv.clone()), ("count", self.i18n.number(*n))],
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
                    ("move", mv.clone()),
                    ("matched", self.i18n.number(*matched)),
                    ("voters", self.i18n.number(*voters)),
                ],
            ),
        }
    }

    pub(crate) fn piece_pixels(&self, ui: &MainWindow, ranks: u8) -> u32 {
        let size = ui.window().size();
        let scale = ui.window().scale_factor().max(1.0);
        let cell = (size.width as f32 / 8.0).min(size.height as f32 * 0.75 / ranks as f32);
        ((cell.max(24.0 * scale) / 8.0).ceil() * 8.0) as u32
    }

    pub(crate) fn side_info(&self, view: &View, c: &Controller, side: Side) -> SideInfo {
        let name = match c.opponent() {
            Opponent::Online { .. } | Opponent::Watching => self
                .online_side_name(side)
                .unwrap_or_else(|| self.tr(side_key(side))),
            Opponent::Computer { human, .. } if human != side => self
                .i18n
                .tr_args("side-computer", &[("side", self.tr(side_key(side)))]),
            _ => match &c.session().names[side.index()] {
                Some(name) => name.clone(),
                None => self.tr(side_key(side)),
            },
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

    /// A move with its number, as the move list writes it: "2. e4", "2… Nc6".
    fn move_with_number(&self, view: &View, m: &crate::game::view::MoveEntry) -> String {
        let letters = self.settings.move_letters
            && matches!(view.kind, GameKind::Chess | GameKind::MineChess);
        let text = if letters { &m.text } else { &m.figurine };
        let dots = if m.side == Side::White { ". " } else { "… " };
        format!("{}{dots}{text}", self.i18n.number(m.number))
    }

    pub(crate) fn move_rows(&self, view: &View) -> Vec<MoveRow> {
        let mut rows: Vec<MoveRow> = Vec::new();
        let letters = self.settings.move_letters
            && matches!(view.kind, GameKind::Chess | GameKind::MineChess);
        let rtl = self.i18n.lang().rtl();
        // A move is written left to right, its figurine first, in a right-to-left row too.
        let shown = |m: &crate::game::view::MoveEntry| -> SharedString {
            let text = if letters { &m.text } else { &m.figurine };
            if rtl {
                format!("\u{2066}{text}\u{2069}").into()
            } else {
                text.clone().into()
            }
        };
        for m in &view.moves {
            if rows.len() < m.number {
                rows.push(MoveRow {
                    number: format!("{}.", self.i18n.number(m.number)).into(),
                    white: if m.side == Side::White {
                        shown(m)
                    } else {
                        "…".into()
                    },
                    black: SharedString::default(),
                    white_current: m.current && m.side == Side::White,
                    black_current: false,
                    white_undone: m.undone && m.side == Side::White,
                    black_undone: false,
                });
                if m.side == Side::White {
                    continue;
                }
            }
            if let Some(last) = rows.last_mut() {
                last.black = shown(m);
                last.black_current = m.current;
                last.black_undone = m.undone;
            }
        }
        rows
    }
}

/// The buttons the player may press now, and the promotion choice.
fn refresh_buttons(board_ui: &BoardProps, view: &View) {
    let b = view.buttons;
    board_ui.set_can_undo(b.undo);
    board_ui.set_can_redo(b.redo);
    board_ui.set_can_hint(b.hint);
    board_ui.set_can_resign(b.resign);
    board_ui.set_can_offer_draw(b.offer_draw);
    board_ui.set_draw_offers(b.draw_offers);
    board_ui.set_offer_draw_later(b.offer_draw_later);
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
}
