//! Replays a session's moves to describe each one for the screen: its notation (SAN for
//! chess), the piece it captured, the piece a mine destroyed, and its squares.

use takhte_rules::{chess, dice, draughts, mine, AnyGame, AnyMove, Side, Square};

use super::view::{Glyph, PieceView};

/// What one move did, for the move list and the captured-pieces trays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move in the game's notation with letters: SAN for chess and minesweeper chess
    /// (`Nf3`, a sapper action `⚑e3`, a piece lost to a mine marked `✸`), and for the other
    /// games the same as [`Ply::figurine`].
    pub text: String,
    /// The move as people read it without letters: figurines for chess pieces (`♘f3`), the
    /// die face before a dice chess move (`⚂ b2–c4`, a king move `♔d1–e2`, an empty roll
    /// `⚂ —`), draughts landings joined by `–` or, capturing, `×` (`c3×c5×e5`).
    pub figurine: String,
    /// Who played it.
    pub side: Side,
    /// The squares it touched: origin, every landing (draughts), for the last-move marks.
    pub path: Vec<Square>,
    /// Squares of pieces it captured.
    pub captured_squares: Vec<Square>,
    /// Pieces it captured.
    pub captured: Vec<PieceView>,
    /// The moving piece, if a mine destroyed it.
    pub destroyed: Option<PieceView>,
}

/// The drawn form of a chess piece.
pub fn chess_piece(p: chess::Piece) -> PieceView {
    use chess::Kind::*;
    let glyph = match p.kind {
        Pawn => Glyph::Pawn,
        Knight => Glyph::Knight,
        Bishop => Glyph::Bishop,
        Rook => Glyph::Rook,
        Queen => Glyph::Queen,
        King => Glyph::King,
    };
    PieceView {
        side: p.side,
        glyph,
    }
}

/// The drawn form of a dice-chess piece.
pub fn dice_piece(p: dice::Piece) -> PieceView {
    let glyph = match p.kind {
        dice::PieceKind::King => Glyph::King,
        dice::PieceKind::Pawn => Glyph::Pawn,
    };
    PieceView {
        side: p.side,
        glyph,
    }
}

/// The drawn form of a draughts piece.
pub fn draughts_piece(p: draughts::Piece) -> PieceView {
    match p {
        draughts::Piece::Man(side) => PieceView {
            side,
            glyph: Glyph::Man,
        },
        draughts::Piece::King(side) => PieceView {
            side,
            glyph: Glyph::DamaKing,
        },
    }
}

/// Describes `mv`, about to be played in `game` (before it is played).
pub fn describe(game: &AnyGame, mv: &AnyMove) -> Ply {
    let side = game.side_to_move();
    let mut ply = Ply {
        text: game.move_to_text(mv),
        figurine: String::new(),
        side,
        path: Vec::new(),
        captured_squares: Vec::new(),
        captured: Vec::new(),
        destroyed: None,
    };
    match (game, mv) {
        (AnyGame::Chess(l), AnyMove::Chess(m)) => {
            let pos = l.position();
            ply.text = pos.san(m);
            ply.figurine = figurines(&ply.text, side);
            ply.path = vec![m.from, m.to];
            if pos.board().is_capture(*m) {
                let sq = if pos.board().is_en_passant(*m) {
                    Square::new(m.to.file(), m.from.rank())
                } else {
                    m.to
                };
                ply.captured_squares.push(sq);
                ply.captured.extend(pos.piece_at(sq).map(chess_piece));
            }
        }
        (AnyGame::Mine(l), AnyMove::Mine(m)) => {
            let pos = l.position();
            let mut after = *pos;
            let effect = after.play_with_effect(m).unwrap_or_default();
            if let mine::Move::Piece(pm) = m {
                ply.path = vec![pm.from, pm.to];
                if effect.captured.is_some() {
                    ply.captured_squares.push(pm.to);
                }
            } else if let mine::Move::Sapper(sq) = m {
                ply.path = vec![*sq];
            }
            ply.captured.extend(effect.captured.map(chess_piece));
            ply.destroyed = effect.destroyed.map(chess_piece);
            ply.text = match m {
                mine::Move::Piece(pm) => chess::san::to_san(pos.board(), *pm),
                mine::Move::Sapper(sq) => match pos.sapper_target(*sq) {
                    Some(t) => format!("⚑{t}"),
                    None => ply.text.clone(),
                },
            };
            ply.figurine = figurines(&ply.text, side);
            mark_destroyed(&mut ply);
        }
        (AnyGame::Dice(l), AnyMove::Dice(m)) => {
            let pos = l.position();
            let mut capture = false;
            if let (Some(from), Some(to)) = (m.from(), m.to()) {
                ply.path = vec![from, to];
                if let Some(p) = pos.piece_at(to) {
                    ply.captured_squares.push(to);
                    ply.captured.push(dice_piece(p));
                    capture = true;
                }
            }
            let sep = if capture { '×' } else { '–' };
            ply.figurine = match *m {
                dice::Move::King { from, to } => {
                    format!(
                        "{}{from}{sep}{to}",
                        if side == Side::White { '♔' } else { '♚' }
                    )
                }
                dice::Move::Pawn { face, from, to } => {
                    format!("{} {from}{sep}{to}", die_face(face))
                }
                dice::Move::Pass { face } => format!("{} —", die_face(face)),
            };
            ply.text = ply.figurine.clone();
        }
        (AnyGame::Draughts(l), AnyMove::Draughts(m)) => {
            let pos = l.position();
            ply.path = m.path.clone();
            ply.captured_squares = m.captured.clone();
            ply.captured = m
                .captured
                .iter()
                .filter_map(|&s| pos.piece_at(s))
                .map(draughts_piece)
                .collect();
            let sep = if m.is_capture() { "×" } else { "–" };
            ply.figurine = m
                .path
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(sep);
            ply.text = ply.figurine.clone();
        }
        _ => {}
    }
    ply
}

/// Marks a move whose piece a mine destroyed with `✸` (once).
fn mark_destroyed(ply: &mut Ply) {
    for t in [&mut ply.text, &mut ply.figurine] {
        if let Some(stripped) = t.strip_suffix('✸') {
            *t = stripped.to_string();
        }
        if ply.destroyed.is_some() {
            t.push('✸');
        }
    }
}

/// The die face as a die (`⚀`…`⚅`).
pub fn die_face(face: u8) -> char {
    char::from_u32(0x2680 + face.clamp(1, 6) as u32 - 1).unwrap_or('?')
}

/// SAN with figurines for the pieces (in the mover's colour) instead of letters.
///
/// ```
/// use takhte_game::annotate::figurines;
/// use takhte_rules::Side;
/// assert_eq!(figurines("Nf3", Side::White), "♘f3");
/// assert_eq!(figurines("exd8=Q+", Side::White), "exd8=♕+");
/// assert_eq!(figurines("Qxh2#", Side::Black), "♛xh2#");
/// assert_eq!(figurines("O-O", Side::Black), "O-O");
/// ```
pub fn figurines(san: &str, side: Side) -> String {
    let glyph = |c: char| match (c, side) {
        ('K', Side::White) => Some('♔'),
        ('Q', Side::White) => Some('♕'),
        ('R', Side::White) => Some('♖'),
        ('B', Side::White) => Some('♗'),
        ('N', Side::White) => Some('♘'),
        ('K', Side::Black) => Some('♚'),
        ('Q', Side::Black) => Some('♛'),
        ('R', Side::Black) => Some('♜'),
        ('B', Side::Black) => Some('♝'),
        ('N', Side::Black) => Some('♞'),
        _ => None,
    };
    let mut out = String::new();
    for (i, c) in san.chars().enumerate() {
        let after_eq =
            i > 0 && san[..san.char_indices().nth(i).map(|(b, _)| b).unwrap_or(0)].ends_with('=');
        match glyph(c) {
            Some(g) if i == 0 || after_eq => out.push(g),
            _ => out.push(c),
        }
    }
    out
}

/// Describes every move of a game, replayed from `start`. Stops at the first move that does
/// not replay.
pub fn annotate(start: &AnyGame, moves: &[String]) -> Vec<Ply> {
    let mut game = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for text in moves {
        let Ok(mv) = game.parse_move(text) else { break };
        out.push(describe(&game, &mv));
        if game.play(&mv).is_err() {
            break;
        }
    }
    out
}

/// Describes every move of an online game from the positions the server sent
/// (`snapshots[i]` before `moves[i]`, `snapshots[i + 1]` after it). In minesweeper chess the
/// positions before a move are stand-ins whose hidden mines are made up, so whether a mine
/// destroyed the moving piece is read from the position after the move: its landing square is
/// empty. Stops at the first move that does not read.
pub fn annotate_snapshots(snapshots: &[AnyGame], moves: &[String]) -> Vec<Ply> {
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (snapshots.get(i), snapshots.get(i + 1)) else {
            break;
        };
        let Ok(mv) = before.parse_move(text) else {
            break;
        };
        let mut ply = describe(before, &mv);
        if let (AnyMove::Mine(mine::Move::Piece(pm)), AnyGame::Mine(b), AnyGame::Mine(a)) =
            (&mv, before, after)
        {
            let landed = a.position().piece_at(pm.to).is_some();
            ply.destroyed = match b.position().piece_at(pm.from) {
                Some(p) if !landed => Some(chess_piece(p)),
                _ => None,
            };
            mark_destroyed(&mut ply);
        }
        out.push(ply);
    }
    out
}

/// Whether `mv` captures something.
pub fn is_capture(game: &AnyGame, mv: &AnyMove) -> bool {
    !describe(game, mv).captured.is_empty()
}
