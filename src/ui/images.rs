//! Piece and board images: the SVG files under `ui/images/`, embedded and drawn at the size they
//! are shown, cached.

use std::cell::RefCell;
use std::collections::HashMap;

use slint::{Image, Rgba8Pixel, SharedPixelBuffer};

use crate::game::view::{Glyph, PieceView};
use crate::rules::Side;

fn svg_source(piece: PieceView) -> &'static [u8] {
    use Glyph::*;
    match (piece.side, piece.glyph) {
        (Side::White, King) => include_bytes!("../../ui/images/pieces/wk.svg"),
        (Side::White, Queen) => include_bytes!("../../ui/images/pieces/wq.svg"),
        (Side::White, Rook) => include_bytes!("../../ui/images/pieces/wr.svg"),
        (Side::White, Bishop) => include_bytes!("../../ui/images/pieces/wb.svg"),
        (Side::White, Knight) => include_bytes!("../../ui/images/pieces/wn.svg"),
        (Side::White, Pawn) => include_bytes!("../../ui/images/pieces/wp.svg"),
        (Side::White, Man) => include_bytes!("../../ui/images/draughts/wm.svg"),
        (Side::White, DamaKing) => include_bytes!("../../ui/images/draughts/wk.svg"),
        (Side::Black, King) => include_bytes!("../../ui/images/pieces/bk.svg"),
        (Side::Black, Queen) => include_bytes!("../../ui/images/pieces/bq.svg"),
        (Side::Black, Rook) => include_bytes!("../../ui/images/pieces/br.svg"),
        (Side::Black, Bishop) => include_bytes!("../../ui/images/pieces/bb.svg"),
        (Side::Black, Knight) => include_bytes!("../../ui/images/pieces/bn.svg"),
        (Side::Black, Pawn) => include_bytes!("../../ui/images/pieces/bp.svg"),
        (Side::Black, Man) => include_bytes!("../../ui/images/draughts/bm.svg"),
        (Side::Black, DamaKing) => include_bytes!("../../ui/images/draughts/bk.svg"),
    }
}

/// Draws SVG bytes into an image `px` pixels square; an empty image if the SVG cannot be read.
pub fn render_svg(bytes: &[u8], px: u32) -> Image {
    let px = px.clamp(8, 512);
    let Ok(tree) = resvg::usvg::Tree::from_data(bytes, &resvg::usvg::Options::default()) else {
        return Image::default();
    };
    let Some(mut pixmap) = resvg::tiny_skia::Pixmap::new(px, px) else {
        return Image::default();
    };
    let size = tree.size();
    let scale = px as f32 / size.width().max(size.height());
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // tiny-skia stores premultiplied alpha; Slint's RGBA buffer wants it straight.
    let mut buffer = SharedPixelBuffer::<Rgba8Pixel>::new(px, px);
    for (dst, src) in buffer.make_mut_slice().iter_mut().zip(pixmap.pixels()) {
        let c = src.demultiply();
        *dst = Rgba8Pixel {
            r: c.red(),
            g: c.green(),
            b: c.blue(),
            a: c.alpha(),
        };
    }
    Image::from_rgba8(buffer)
}

thread_local! {
    static CACHE: RefCell<HashMap<(PieceView, u32), Image>> = RefCell::new(HashMap::new());
}

/// The image of a piece, `px` pixels square (cached).
pub fn piece_image(piece: PieceView, px: u32) -> Image {
    let px = px.clamp(8, 512);
    CACHE.with(|c| {
        c.borrow_mut()
            .entry((piece, px))
            .or_insert_with(|| render_svg(svg_source(piece), px))
            .clone()
    })
}

/// The mine image, `px` pixels square.
pub fn mine_image(px: u32) -> Image {
    render_svg(include_bytes!("../../ui/images/misc/mine.svg"), px)
}
