//! Turns the controller's view into the board's Slint models: squares in display order with
//! their marks, and pieces with stable slots so that a moved piece slides and a captured one
//! fades. No rules here: which squares are marked comes from the view.

use slint::{Image, Model, VecModel};
use std::rc::Rc;

use crate::game::view::{mark, PieceView, View};
use crate::rules::Square;

use super::images::piece_image;
use super::{PieceData, SquareData};

/// Where a square is drawn: (column, row) from the top-left, for a board of `ranks` ranks.
pub fn display_cell(sq: Square, ranks: u8, flipped: bool) -> (i32, i32) {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    if flipped {
        (7 - f, r)
    } else {
        (f, ranks as i32 - 1 - r)
    }
}

/// The square drawn at (column, row), if it is on the board.
pub fn square_at(col: i32, row: i32, ranks: u8, flipped: bool) -> Option<Square> {
    if !(0..8).contains(&col) || !(0..ranks as i32).contains(&row) {
        return None;
    }
    let (f, r) = if flipped {
        (7 - col, row)
    } else {
        (col, ranks as i32 - 1 - row)
    };
    Some(Square::new(f as u8, r as u8))
}

/// The squares of a view, in index order, with display positions and marks.
pub fn squares(view: &View) -> Vec<SquareData> {
    let ranks = view.ranks;
    view.squares
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let sq = Square(i as u8);
            let (col, row) = display_cell(sq, ranks, view.flipped);
            let m = |bit: u32| s.marks & bit != 0;
            SquareData {
                col,
                row,
                dark: !sq.is_light(),
                selected: m(mark::SELECTED),
                target: m(mark::TARGET),
                capture: m(mark::CAPTURE_TARGET),
                last: m(mark::LAST_FROM) || m(mark::LAST_TO),
                check: m(mark::CHECK),
                path: m(mark::PATH),
                path_captured: m(mark::PATH_CAPTURED),
                fog: m(mark::FOG),
                mine: m(mark::MINE),
                sapper: m(mark::SAPPER_TARGET),
                usable: m(mark::USABLE),
                hint: m(mark::HINT),
                explosion: m(mark::EXPLOSION),
                number: s.number as i32,
                occupied: s.piece.is_some(),
                file_label: if row == ranks as i32 - 1 {
                    ((b'a' + sq.file()) as char).to_string().into()
                } else {
                    Default::default()
                },
                rank_label: if col == 0 {
                    (sq.rank() + 1).to_string().into()
                } else {
                    Default::default()
                },
                name: sq.to_string().into(),
            }
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    square: Option<Square>,
    piece: PieceView,
}

/// The pieces on the board as stable slots: slot `i` is row `i` of the Slint model for as long as
/// the game lasts, so Slint animates its position.
pub struct PieceSlots {
    slots: Vec<Slot>,
    model: Rc<VecModel<PieceData>>,
    px: u32,
}

impl Default for PieceSlots {
    fn default() -> Self {
        PieceSlots::new()
    }
}

impl PieceSlots {
    /// No pieces.
    pub fn new() -> PieceSlots {
        PieceSlots {
            slots: Vec::new(),
            model: Rc::new(VecModel::default()),
            px: 64,
        }
    }

    /// The Slint model.
    pub fn model(&self) -> Rc<VecModel<PieceData>> {
        Rc::clone(&self.model)
    }

    /// Sets the pixel size pieces are drawn at.
    pub fn set_pixel_size(&mut self, px: u32) {
        self.px = px;
    }

    fn image(&self, p: PieceView) -> Image {
        piece_image(p, self.px)
    }

    /// Starts over from the view's pieces (no animation): a new model.
    pub fn rebuild(&mut self, view: &View) {
        self.slots = pieces_of(view)
            .into_iter()
            .map(|(sq, p)| Slot {
                square: Some(sq),
                piece: p,
            })
            .collect();
        self.model = Rc::new(VecModel::from(self.rows(view)));
    }

    /// Updates after one move along `path` (origin first): the moved piece slides, pieces that
    /// left the board fade, others stay. Falls back to a rebuild when the slots do not fit.
    pub fn after_move(&mut self, view: &View, path: &[Square]) {
        let mut wanted: Vec<(Square, PieceView)> = pieces_of(view);
        let mut next: Vec<Slot> = self
            .slots
            .iter()
            .map(|s| Slot {
                square: None,
                piece: s.piece,
            })
            .collect();
        let mut taken = vec![false; self.slots.len()];
        // The moving piece: from the first square of the path to the last.
        if let (Some(&from), Some(&to)) = (path.first(), path.last()) {
            if let (Some(i), Some(w)) = (
                self.slots.iter().position(|s| s.square == Some(from)),
                wanted.iter().position(|(sq, _)| *sq == to),
            ) {
                next[i] = Slot {
                    square: Some(to),
                    piece: wanted[w].1,
                };
                taken[i] = true;
                wanted.remove(w);
            }
        }
        // Pieces that did not move.
        wanted.retain(|&(sq, p)| {
            if let Some(i) = self
                .slots
                .iter()
                .position(|s| s.square == Some(sq) && s.piece == p)
            {
                if !taken[i] {
                    next[i] = Slot {
                        square: Some(sq),
                        piece: p,
                    };
                    taken[i] = true;
                    return false;
                }
            }
            true
        });
        // Pieces that moved too (a castling rook): a vanished slot of the same piece.
        for (sq, p) in wanted {
            if let Some(i) = (0..self.slots.len())
                .find(|&i| !taken[i] && self.slots[i].piece == p && self.slots[i].square.is_some())
            {
                next[i] = Slot {
                    square: Some(sq),
                    piece: p,
                };
                taken[i] = true;
            } else if let Some(i) =
                (0..self.slots.len()).find(|&i| !taken[i] && self.slots[i].square.is_none())
            {
                next[i] = Slot {
                    square: Some(sq),
                    piece: p,
                };
                taken[i] = true;
            } else {
                next.push(Slot {
                    square: Some(sq),
                    piece: p,
                });
                taken.push(true);
            }
        }
        // Slots not taken fade where they stood.
        for (i, s) in next.iter_mut().enumerate() {
            if !taken[i] {
                s.square = None;
            }
        }
        let old = std::mem::replace(&mut self.slots, next);
        let ranks = view.ranks;
        for (i, slot) in self.slots.iter().enumerate() {
            let was = old.get(i).copied();
            let cell = slot.square.or(was.and_then(|w| w.square));
            let (col, row) = cell
                .map(|sq| display_cell(sq, ranks, view.flipped))
                .unwrap_or((-1, -1));
            let data = PieceData {
                key: i as i32,
                col,
                row,
                image: self.image(slot.piece),
                alive: slot.square.is_some(),
            };
            if i < self.model.row_count() {
                if self.model.row_data(i).as_ref() != Some(&data) {
                    self.model.set_row_data(i, data);
                }
            } else {
                self.model.push(data);
            }
        }
    }

    fn rows(&self, view: &View) -> Vec<PieceData> {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (col, row) = s
                    .square
                    .map(|sq| display_cell(sq, view.ranks, view.flipped))
                    .unwrap_or((-1, -1));
                PieceData {
                    key: i as i32,
                    col,
                    row,
                    image: self.image(s.piece),
                    alive: s.square.is_some(),
                }
            })
            .collect()
    }
}

/// The pieces of a view by square.
pub fn pieces_of(view: &View) -> Vec<(Square, PieceView)> {
    view.squares
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.piece.map(|p| (Square(i as u8), p)))
        .collect()
}

/// The arrows of the spectators' suggestions, in the board's cell units (display orientation):
/// the shaft from the centre of the first square towards the last, a head at the end, and
/// the count beside the head.
pub fn arrows(view: &View, number: impl Fn(u32) -> String) -> Vec<super::ArrowData> {
    view.arrows
        .iter()
        .map(|a| {
            let centre = |sq: Square| {
                let (c, r) = display_cell(sq, view.ranks, view.flipped);
                (c as f32 + 0.5, r as f32 + 0.5)
            };
            let (x1, y1) = centre(a.from);
            let (x2, y2) = centre(a.to);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt().max(0.01);
            let (ux, uy) = (dx / len, dy / len);
            let head = 0.36_f32.min(len * 0.5);
            let tip = (x2 - ux * 0.08, y2 - uy * 0.08);
            let base = (tip.0 - ux * head, tip.1 - uy * head);
            let half = if a.strong { 0.26 } else { 0.21 };
            let (px, py) = (-uy * half, ux * half);
            super::ArrowData {
                shaft: format!(
                    "M {:.3} {:.3} L {:.3} {:.3}",
                    x1 + ux * 0.2,
                    y1 + uy * 0.2,
                    base.0,
                    base.1
                )
                .into(),
                head: format!(
                    "M {:.3} {:.3} L {:.3} {:.3} L {:.3} {:.3} Z",
                    tip.0,
                    tip.1,
                    base.0 + px,
                    base.1 + py,
                    base.0 - px,
                    base.1 - py
                )
                .into(),
                label: number(a.count).into(),
                label_x: base.0 + px * 1.5,
                label_y: base.1 + py * 1.5,
                strong: a.strong,
                faint: a.faint,
                own: a.own,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_cells_round_trip_both_ways_on_both_boards() {
        for ranks in [8u8, 10] {
            for flipped in [false, true] {
                for i in 0..8 * ranks {
                    let sq = Square(i);
                    let (c, r) = display_cell(sq, ranks, flipped);
                    assert_eq!(square_at(c, r, ranks, flipped), Some(sq));
                }
            }
            assert_eq!(
                display_cell(Square::new(0, 0), ranks, false),
                (0, ranks as i32 - 1)
            );
            assert_eq!(display_cell(Square::new(0, 0), ranks, true), (7, 0));
            assert_eq!(square_at(8, 0, ranks, false), None);
        }
    }
}
