//! Builds the [`View`] of a controller's game.

use takhte_rules::bitboard::{bit, squares};
use takhte_rules::{mine, AnyGame, AnyMove, Side, Square};

use super::annotate::{chess_piece, dice_piece, draughts_piece};
use super::controller::{move_path, result_word, side_word, Controller, Opponent};
use super::view::{
    mark, Buttons, ClockView, DieView, MoveEntry, PieceView, ResultView, SquareView, Status, View,
};

impl Controller {
    /// The view of the game now.
    pub fn view(&self) -> View {
        build(self)
    }
}

/// The view of `c`'s game now.
fn build(c: &Controller) -> View {
    let session = c.session();
    let game = session.game();
    let ranks = if matches!(game, AnyGame::Mine(_)) {
        10
    } else {
        8
    };
    let side = game.side_to_move();
    let (mut squares_view, mines_left) = board(c, game, ranks);
    let plies = c.plies();
    let cursor = session.cursor();
    mark_last_move(&mut squares_view, game, plies, cursor);
    let sapper_button = mark_selection(c, game, &mut squares_view);
    let (captured, lost) = taken(plies, cursor);
    // A move is both sides' turns: it is numbered when White plays (or at the first ply, when
    // Black began).
    let mut number = 0;
    let moves = plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == 0 || p.side == Side::White {
                number += 1;
            }
            MoveEntry {
                text: p.text.clone(),
                figurine: p.figurine.clone(),
                side: p.side,
                number,
                current: i + 1 == cursor,
                undone: i >= cursor,
            }
        })
        .collect();
    let die = match game {
        AnyGame::Dice(l) => Some(DieView {
            face: c.rolled(),
            last_face: c.last_face(),
            can_roll: c.can_act_now() && c.rolled().is_none() && l.position().can_roll(),
            start_rolls: session.start().start_rolls.clone(),
        }),
        _ => None,
    };
    let now = c.clock_now();
    let clocks = session.clock.as_ref().map(|clock| {
        [Side::White, Side::Black].map(|s| ClockView {
            remaining_ms: clock.remaining(s, now),
            running: clock.running_side() == Some(s),
        })
    });
    let end = if c.reviewing() {
        session.final_end()
    } else {
        session.end()
    };
    let result = end.map(|e| ResultView {
        winner: match e.result() {
            Some(takhte_rules::GameResult::Win(s)) => Some(s),
            _ => None,
        },
        aborted: e.result().is_none(),
        reason: e.reason(),
    });
    let online = match c.opponent() {
        Opponent::Online { me } => Some(me),
        _ => None,
    };
    let watching = c.opponent() == Opponent::Watching;
    let can_roll = die.as_ref().is_some_and(|d| d.can_roll);
    let buttons = buttons(c, online, watching, sapper_button, can_roll);
    let in_check = squares_view.iter().any(|s| s.marks & mark::CHECK != 0);
    let status = status(c, online, watching, end, in_check);
    let (arrows, crowd) = crowd_view(c, online, watching);

    View {
        arrows,
        crowd,
        watching,
        kind: session.kind(),
        ranks,
        squares: squares_view,
        flipped: c.flipped(),
        side_to_move: side,
        status,
        die,
        clocks,
        captured,
        lost_to_mines: lost,
        moves,
        mines_left,
        buttons,
        promotion: c.pending_promotion().map(|(f, t)| (f.0, t.0)),
        result,
        review: c.reviewing(),
        thinking: c.thinking(),
        draw_offer: c.draw_offer(),
        save_failed: c.save_failed,
        last_path: if cursor > 0 {
            plies
                .get(cursor - 1)
                .map(|p| p.path.clone())
                .unwrap_or_default()
        } else {
            Vec::new()
        },
    }
}

/// The squares: pieces, check, fog, mines and numbers, the pawns the die allows; and the
/// minesweeper chess counter.
fn board(c: &Controller, game: &AnyGame, ranks: u8) -> (Vec<SquareView>, Option<u32>) {
    let mut squares_view = vec![SquareView::default(); 8 * ranks as usize];
    let side = game.side_to_move();
    let mut mines_left = None;
    match game {
        AnyGame::Chess(l) => {
            let pos = l.position();
            for (i, sq) in squares_view.iter_mut().enumerate() {
                sq.piece = pos.piece_at(Square(i as u8)).map(chess_piece);
            }
            if pos.in_check() {
                if let Some(k) = pos.board().king_square(side) {
                    squares_view[k.index()].marks |= mark::CHECK;
                }
            }
        }
        AnyGame::Mine(l) => {
            let pos = l.position();
            let visible = pos.visible();
            for (i, sq) in squares_view.iter_mut().enumerate() {
                sq.piece = visible.board.piece_at(Square(i as u8)).map(chess_piece);
                if visible.fog() & bit(i) != 0 {
                    sq.marks |= mark::FOG;
                }
                if visible.known_mines & bit(i) != 0 {
                    sq.marks |= mark::MINE;
                }
            }
            for (s, n) in &visible.numbers {
                squares_view[s.index()].number = *n;
            }
            for k in [Side::White, Side::Black] {
                if visible.board.in_check(k) {
                    if let Some(ks) = visible.board.king_square(k) {
                        squares_view[ks.index()].marks |= mark::CHECK;
                    }
                }
            }
            mines_left = Some(visible.mines_left);
        }
        AnyGame::Dice(l) => {
            let pos = l.position();
            for (i, sq) in squares_view.iter_mut().enumerate() {
                sq.piece = pos.piece_at(Square(i as u8)).map(dice_piece);
            }
            for k in [Side::White, Side::Black] {
                if pos.in_check(k) {
                    squares_view[pos.king_square(k).index()].marks |= mark::CHECK;
                }
            }
            if let Some(face) = c.rolled() {
                for m in pos.pawn_moves(face) {
                    if let Some(f) = m.from() {
                        squares_view[f.index()].marks |= mark::USABLE;
                    }
                }
            }
        }
        AnyGame::Draughts(l) => {
            let pos = l.position();
            for (i, sq) in squares_view.iter_mut().enumerate() {
                sq.piece = pos.piece_at(Square(i as u8)).map(draughts_piece);
            }
            // Capturing is compulsory: the pieces that can take the most are shown before the
            // player has to find them.
            if pos.max_capture() > 0 && c.selected().is_none() && c.can_act_now() {
                for m in l.legal_moves() {
                    squares_view[m.path[0].index()].marks |= mark::USABLE;
                }
            }
        }
    }

    (squares_view, mines_left)
}

/// Marks the last move (its path, its captures, a mine that went off).
fn mark_last_move(
    squares_view: &mut [SquareView],
    game: &AnyGame,
    plies: &[crate::annotate::Ply],
    cursor: usize,
) {
    if cursor > 0 {
        if let Some(ply) = plies.get(cursor - 1) {
            if let (Some(first), Some(last)) = (ply.path.first(), ply.path.last()) {
                squares_view[first.index()].marks |= mark::LAST_FROM;
                squares_view[last.index()].marks |= mark::LAST_TO;
            }
            if ply.path.len() > 2
                || !ply.captured_squares.is_empty() && matches!(game, AnyGame::Draughts(_))
            {
                for s in &ply.path[1..] {
                    squares_view[s.index()].marks |= mark::PATH;
                }
                for s in &ply.captured_squares {
                    squares_view[s.index()].marks |= mark::PATH_CAPTURED;
                }
            }
            if ply.destroyed.is_some() {
                if let Some(last) = ply.path.last() {
                    squares_view[last.index()].marks |= mark::EXPLOSION;
                }
            }
        }
    }
}

/// Marks the selection, its targets, the draughts path being entered, the sapper's target,
/// a move awaited from the server and the hint. Whether the sapper button is on.
fn mark_selection(c: &Controller, game: &AnyGame, squares_view: &mut [SquareView]) -> bool {
    let mut sapper_button = false;
    if let Some(sel) = c.selected() {
        squares_view[sel.index()].marks |= mark::SELECTED;
        let partial = c.partial_path();
        for (mv, path) in c.moves_for(sel) {
            let next = if partial.len() > 1 {
                if !path.starts_with(partial) {
                    continue;
                }
                path.get(partial.len()).copied()
            } else if matches!(mv, AnyMove::Draughts(_)) {
                path.get(1).copied()
            } else {
                path.last().copied()
            };
            if let Some(t) = next {
                squares_view[t.index()].marks |= mark::TARGET;
                if captures(game, &mv) {
                    squares_view[t.index()].marks |= mark::CAPTURE_TARGET;
                }
            }
        }
        if partial.len() > 1 {
            for s in &partial[1..] {
                squares_view[s.index()].marks |= mark::PATH;
            }
            // In the middle of a capture the man stands where it has landed; its start and
            // the squares passed show the way it came.
            if let Some(&at) = partial.last() {
                let man = squares_view[sel.index()].piece.take();
                squares_view[at.index()].piece = man;
                squares_view[sel.index()].marks &= !mark::SELECTED;
                squares_view[sel.index()].marks |= mark::PATH;
                squares_view[at.index()].marks |= mark::SELECTED;
            }
            if let AnyGame::Draughts(l) = game {
                if let Some(m) = l
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.path.starts_with(partial))
                {
                    for s in m.captured.iter().take(partial.len() - 1) {
                        squares_view[s.index()].marks |= mark::PATH_CAPTURED;
                    }
                }
            }
        }
        if let Some(t) = c.sapper_target_of(sel) {
            squares_view[t.index()].marks |= mark::SAPPER_TARGET;
            sapper_button = true;
        }
    }
    if let Some(path) = c.awaiting_path() {
        for s in path {
            squares_view[s.index()].marks |= mark::SELECTED;
        }
    }
    if let Some(h) = c.hint_move() {
        for s in move_path(h) {
            squares_view[s.index()].marks |= mark::HINT;
        }
    }

    sapper_button
}

/// The pieces each side has captured, and each side's pieces lost to mines, up to `cursor`.
fn taken(
    plies: &[crate::annotate::Ply],
    cursor: usize,
) -> ([Vec<PieceView>; 2], [Vec<PieceView>; 2]) {
    let mut captured: [Vec<PieceView>; 2] = [Vec::new(), Vec::new()];
    let mut lost: [Vec<PieceView>; 2] = [Vec::new(), Vec::new()];
    for ply in plies.iter().take(cursor) {
        captured[ply.side.index()].extend(ply.captured.iter().copied());
        if let Some(p) = ply.destroyed {
            lost[p.side.index()].push(p);
        }
    }
    (captured, lost)
}

/// The buttons the player may press now.
fn buttons(
    c: &Controller,
    online: Option<Side>,
    watching: bool,
    sapper_button: bool,
    can_roll: bool,
) -> Buttons {
    let session = c.session();
    let can = c.can_act_now();
    match online {
        None if watching => Buttons {
            sapper: sapper_button && can,
            ..Buttons::default()
        },
        None => Buttons {
            undo: session.cursor() > 0 && !c.reviewing() && session.players_end().is_none(),
            redo: session.is_behind() && !c.reviewing(),
            hint: can && !c.thinking(),
            resign: !session.is_over(),
            // Two people on one device may agree a draw; the computer is not asked (the rules
            // end a dead game by themselves).
            offer_draw: !session.is_over()
                && c.draw_offer().is_none()
                && matches!(c.opponent(), Opponent::PassAndPlay),
            draw_offers: matches!(c.opponent(), Opponent::PassAndPlay),
            offer_draw_later: false,
            answer_draw: c.draw_offer().is_some(),
            roll: can_roll,
            sapper: sapper_button && can,
        },
        Some(me) => {
            let live = !session.is_over() && c.online_started();
            Buttons {
                undo: false,
                redo: false,
                hint: false,
                resign: live,
                offer_draw: live && c.draw_offer().is_none() && !c.draw_offer_too_soon(),
                draw_offers: true,
                offer_draw_later: live && c.draw_offer().is_none() && c.draw_offer_too_soon(),
                answer_draw: live && c.draw_offer() == Some(me.opponent()),
                roll: can_roll,
                sapper: sapper_button && can,
            }
        }
    }
}

/// The status line.
fn status(
    c: &Controller,
    online: Option<Side>,
    watching: bool,
    end: Option<crate::GameEnd>,
    in_check: bool,
) -> Status {
    let session = c.session();
    let game = session.game();
    let side = game.side_to_move();
    if let Some(n) = c.notice() {
        n.clone()
    } else if watching && end.is_none() {
        if !c.online_started() {
            Status::new("status-waiting-opponent")
        } else if c.reviewing() || session.is_behind() {
            Status::new("status-watching-review")
        } else {
            match c.rolled() {
                Some(face) => Status::new("status-watching-rolled")
                    .arg("face", face.to_string())
                    .arg("side", side_word(side)),
                None => Status::new("status-watching-turn").arg("side", side_word(side)),
            }
        }
    } else if let (Some(_), None, false) = (online, end, c.online_started()) {
        Status::new("status-waiting-opponent")
    } else if let (Some(_), None, true) = (online, end, c.awaiting_server()) {
        Status::new("status-sending")
    } else if let Some(e) = end {
        match e.result() {
            Some(result) => Status::new("status-game-over")
                .arg("result", result_word(result))
                .arg("reason", e.reason()),
            None => Status::new("status-aborted"),
        }
    } else if c.pending_promotion().is_some() {
        Status::new("status-choose-promotion")
    } else if c.partial_path().len() > 1 {
        Status::new("status-continue-capture")
    } else if c.thinking() {
        Status::new("status-thinking")
    } else if let (Some(offer), Some(me)) = (c.draw_offer(), online) {
        if offer == me {
            Status::new("status-draw-offer-sent")
        } else {
            Status::new("status-draw-offer-received")
        }
    } else if let Some(offer) = c.draw_offer() {
        Status::new("status-draw-offered").arg("side", side_word(offer))
    } else if let (AnyGame::Dice(l), true) = (game, c.human_to_move()) {
        match c.rolled() {
            Some(face) => Status::new("status-choose-pawn")
                .arg("face", face.to_string())
                .arg("side", side_word(side)),
            None if l.position().can_roll() => {
                Status::new("status-roll-or-king").arg("side", side_word(side))
            }
            None => Status::new("status-king-only").arg("side", side_word(side)),
        }
    } else if in_check {
        Status::new("status-check").arg("side", side_word(side))
    } else {
        match c.opponent() {
            Opponent::Computer { human, .. } if human == side => Status::new("status-your-turn"),
            Opponent::Computer { .. } => Status::new("status-thinking"),
            Opponent::PassAndPlay => Status::new("status-turn").arg("side", side_word(side)),
            Opponent::Online { me } if me == side => Status::new("status-your-turn"),
            Opponent::Online { .. } => Status::new("status-their-turn"),
            Opponent::Watching => Status::new("status-turn").arg("side", side_word(side)),
        }
    }
}

fn captures(game: &AnyGame, mv: &AnyMove) -> bool {
    match (game, mv) {
        (AnyGame::Chess(l), AnyMove::Chess(m)) => l.position().board().is_capture(*m),
        (AnyGame::Mine(l), AnyMove::Mine(mine::Move::Piece(m))) => {
            l.position().board().is_capture(*m)
        }
        (AnyGame::Draughts(_), AnyMove::Draughts(m)) => m.is_capture(),
        (AnyGame::Dice(l), AnyMove::Dice(m)) => {
            m.to().and_then(|t| l.position().piece_at(t)).is_some()
        }
        _ => false,
    }
}

#[allow(dead_code)]
fn fog_squares(v: &mine::Visible) -> impl Iterator<Item = usize> {
    squares(v.fog())
}

/// The suggestions as arrows and as a line: for the move from the position at the cursor (the
/// live suggestions, or in review those made before that move); at the live position with no
/// suggestion yet, the last move compared with what had been suggested for it.
fn crowd_view(
    c: &Controller,
    online: Option<Side>,
    watching: bool,
) -> (Vec<super::view::ArrowView>, Option<super::view::CrowdLine>) {
    use super::annotate::describe;
    use super::view::{ArrowView, CrowdLine};
    let session = c.session();
    let cursor = session.cursor();
    let game = session.game();
    let notation = |g: &AnyGame, text: &str| {
        g.parse_move(text)
            .map(|m| describe(g, &m).text)
            .unwrap_or_else(|_| text.to_string())
    };
    if let Some(crowd) = c.crowd_at(cursor).filter(|c| !c.tally.is_empty()) {
        let faint = online.is_some() && !watching;
        let top = crowd.tally.first().map_or(0, |t| t.count);
        let unique_top = crowd.tally.iter().filter(|t| t.count == top).count() == 1;
        let mut arrows = Vec::new();
        for t in crowd.tally.iter().take(6) {
            let Ok(mv) = game.parse_move(&t.mv) else {
                continue;
            };
            let path = move_path(&mv);
            let (Some(&from), Some(&last)) = (path.first(), path.last()) else {
                continue;
            };
            let to = match (&mv, game) {
                (AnyMove::Mine(mine::Move::Sapper(p)), AnyGame::Mine(l)) => {
                    l.position().sapper_target(*p).unwrap_or(last)
                }
                _ => last,
            };
            arrows.push(ArrowView {
                from,
                to,
                count: t.count,
                strong: unique_top && t.count == top,
                faint,
                own: watching && c.your_suggestion() == Some(t.mv.as_str()),
            });
        }
        let items = crowd
            .tally
            .iter()
            .take(5)
            .map(|t| (notation(game, &t.mv), t.count))
            .collect();
        let line = if cursor < session.moves().len() {
            // In review: what was suggested here, and what was played.
            let played = &session.moves()[cursor];
            CrowdLine::Played {
                mv: notation(game, played),
                matched: crowd.count_of(played),
                voters: crowd.voters,
            }
        } else {
            CrowdLine::Suggested {
                items,
                voters: crowd.voters,
            }
        };
        return (arrows, Some(line));
    }
    // Live, nothing suggested yet: the last move against its suggestions.
    if cursor > 0 && cursor == session.moves().len() {
        if let Some(crowd) = c.crowd_at(cursor - 1).filter(|c| c.voters > 0) {
            let before = session.game_at(cursor - 1);
            let played = &session.moves()[cursor - 1];
            return (
                Vec::new(),
                Some(CrowdLine::Played {
                    mv: notation(&before, played),
                    matched: crowd.count_of(played),
                    voters: crowd.voters,
                }),
            );
        }
    }
    (Vec::new(), None)
}
