//! Scripted controller flows of each game, played by taps as a player would.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use takhte_ai::{Answer, Engine, Request, Standard};
use takhte_game::view::{mark, Glyph};
use takhte_game::{Controller, Layout, NewGame, Opponent, ScriptedRandomness, TimeControl, View};
use takhte_rules::{chess::Kind, AnyMove, GameKind, Side, Square};

fn sq(name: &str, ranks: u8) -> Square {
    Square::parse(name, ranks).unwrap()
}

struct Game {
    c: Controller,
    ranks: u8,
    time: Arc<Mutex<Instant>>,
}

impl Game {
    fn new(game: NewGame, rolls: Vec<u8>) -> Game {
        let ranks = if game.kind == GameKind::MineChess {
            10
        } else {
            8
        };
        let mut c = Controller::new(
            game,
            Arc::new(Standard),
            Box::new(ScriptedRandomness::new(rolls, vec![42])),
        )
        .unwrap();
        let time = Arc::new(Mutex::new(Instant::now()));
        let t = Arc::clone(&time);
        c.set_clock_source(Box::new(move || *t.lock().unwrap()));
        Game { c, ranks, time }
    }
    fn tap(&mut self, name: &str) -> &mut Self {
        let s = sq(name, self.ranks);
        self.c.tap(s);
        self
    }
    fn moves(&mut self, list: &str) {
        for m in list.split_whitespace() {
            let second = m
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .unwrap();
            let (a, b) = m.split_at(second);
            self.tap(a).tap(b);
        }
    }
    fn view(&self) -> View {
        self.c.view()
    }
    fn marks(&self, name: &str) -> u32 {
        self.view().squares[sq(name, self.ranks).index()].marks
    }
    fn advance(&self, ms: u64) {
        *self.time.lock().unwrap() += Duration::from_millis(ms);
    }
    fn text(&self) -> String {
        self.c.session().game().to_text()
    }
}

fn custom(kind: GameKind, position: &str) -> NewGame {
    let mut g = NewGame::pass_and_play(kind);
    g.position = Some(position.to_string());
    g
}

#[test]
fn chess_castling_en_passant_promotion_and_clock() {
    let mut g = custom(GameKind::Chess, "r3k3/1P6/8/8/3p4/8/4P3/R3K2R w KQq - 0 1");
    g.time_control = Some(TimeControl::new(3, 2));
    g.layout = Layout::Fixed;
    let mut g = Game::new(g, vec![]);
    // Selecting the king shows both castling targets.
    g.tap("e1");
    assert_ne!(g.marks("e1") & mark::SELECTED, 0);
    assert_ne!(g.marks("g1") & mark::TARGET, 0);
    assert_ne!(g.marks("c1") & mark::TARGET, 0);
    g.tap("g1");
    assert_eq!(g.text(), "r3k3/1P6/8/8/3p4/8/4P3/R4RK1 b q - 1 1");
    assert_ne!(g.marks("g1") & mark::LAST_TO, 0);
    // The clock started for Black after White's first move (with White's increment added).
    g.advance(5_000);
    let clocks = g.view().clocks.unwrap();
    assert_eq!(clocks[0].remaining_ms, 182_000);
    assert_eq!(clocks[1].remaining_ms, 175_000);
    assert!(clocks[1].running);
    g.moves("e8d8 e2e4");
    // En passant: d4 takes e3.
    g.tap("d4");
    assert_ne!(g.marks("e3") & mark::CAPTURE_TARGET, 0);
    g.tap("e3");
    assert_eq!(g.text(), "r2k4/1P6/8/8/8/4p3/8/R4RK1 w - - 0 3");
    assert_eq!(g.view().captured[1].len(), 1);
    // Promotion asks which piece.
    g.tap("b7").tap("b8");
    assert_eq!(g.view().promotion, Some((sq("b7", 8).0, sq("b8", 8).0)));
    assert_eq!(g.view().status.key, "status-choose-promotion");
    g.c.choose_promotion(Kind::Knight);
    assert_eq!(g.text(), "rN1k4/8/8/8/8/4p3/8/R4RK1 b - - 0 3");
    let moves: Vec<String> = g.view().moves.iter().map(|m| m.text.clone()).collect();
    assert_eq!(moves, ["O-O", "Kd8", "e4", "dxe3", "b8=N"]);
    // Undo in pass-and-play takes back one move.
    g.c.undo();
    assert_eq!(g.text(), "r2k4/1P6/8/8/8/4p3/8/R4RK1 w - - 0 3");
    assert!(g.view().buttons.redo);
    g.c.redo();
    assert_eq!(g.text(), "rN1k4/8/8/8/8/4p3/8/R4RK1 b - - 0 3");
    // Running out of time loses: Black's clock runs.
    g.advance(200_000);
    g.c.tick();
    let v = g.view();
    assert_eq!(
        v.result.as_ref().map(|r| (r.winner, r.reason)),
        Some((Some(Side::White), "time"))
    );
}

#[test]
fn time_out_against_a_lone_king_is_a_draw() {
    // Black's flag falls, but White has a lone king and could never mate.
    let mut g = custom(GameKind::Chess, "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
    g.time_control = Some(TimeControl::new(1, 0));
    let mut g = Game::new(g, vec![]);
    g.moves("e1d1");
    g.advance(61_000);
    g.c.tick();
    assert_eq!(
        g.view().result.map(|r| (r.winner, r.reason)),
        Some((None, "time-insufficient-material"))
    );
}

#[test]
fn dice_chess_start_roll_face_three_king_move_and_empty_roll() {
    // Start roll: 3-3 tie, then 5-2: White begins.
    let mut g = Game::new(
        NewGame::pass_and_play(GameKind::DiceChess),
        vec![3, 3, 5, 2, 3, 6],
    );
    let v = g.view();
    assert_eq!(v.die.as_ref().unwrap().start_rolls, vec![(3, 3), (5, 2)]);
    assert_eq!(v.side_to_move, Side::White);
    assert_eq!(v.status.key, "status-roll-or-king");
    // Before rolling a pawn cannot be chosen.
    g.tap("b1");
    assert_eq!(g.view().status.key, "status-roll-first");
    g.c.roll();
    let v = g.view();
    assert_eq!(v.die.as_ref().unwrap().face, Some(3));
    assert_ne!(g.marks("b1") & mark::USABLE, 0);
    assert_eq!(g.marks("d1") & mark::USABLE, 0);
    g.tap("b1");
    assert_ne!(g.marks("c3") & mark::TARGET, 0);
    g.tap("c3");
    assert_eq!(g.c.session().moves(), ["3:b1c3"]);
    assert_eq!(g.view().side_to_move, Side::Black);

    // A king move without rolling, and an empty roll that passes.
    let mut g = Game::new(
        custom(GameKind::DiceChess, "4k3/8/8/8/8/8/8/P2K4 w"),
        vec![1, 2],
    );
    g.tap("d1").tap("d2");
    assert_eq!(g.c.session().moves(), ["d1d2"]);
    // Black has no pawns: only the king moves.
    assert_eq!(g.view().status.key, "status-king-only");
    g.moves("e8e7");
    // White rolls 1: the a1 pawn moves forward to a2... but with a pawn on a1 (rank 1) face 1 is
    // a step to a2, legal. Roll 2 next for Black? Black cannot roll. White again:
    g.c.roll();
    assert_eq!(g.c.rolled(), Some(1));
    g.tap("a1").tap("a2");
    assert_eq!(g.c.session().moves(), ["d1d2", "e8e7", "1:a1a2"]);

    // An empty roll passes with a clear status: a pawn on the last rank cannot use face 1.
    let mut g = Game::new(
        custom(GameKind::DiceChess, "P3k3/8/8/8/8/8/8/3K4 w"),
        vec![1],
    );
    g.c.roll();
    assert_eq!(g.c.session().moves(), ["1:-"]);
    assert_eq!(g.view().status.key, "status-empty-roll");
    assert_eq!(g.view().side_to_move, Side::Black);
}

#[test]
fn dice_chess_undo_brings_the_roll_back_as_it_was() {
    // Start roll 5-2: White begins; White rolls 3, Black 1, White 6; a 4 would come next.
    let mut g = Game::new(
        NewGame::pass_and_play(GameKind::DiceChess),
        vec![5, 2, 3, 1, 6, 4, 4, 4],
    );
    g.c.roll();
    g.tap("b1").tap("c3");
    g.c.roll();
    g.tap("a7").tap("a6");
    assert_eq!(g.c.session().moves(), ["3:b1c3", "1:a7a6"]);
    g.c.undo();
    // Black's turn again with the 1 it rolled: no second roll, only a face-1 move.
    assert_eq!(g.c.session().cursor(), 1);
    assert_eq!(g.c.rolled(), Some(1));
    assert!(!g.view().die.unwrap().can_roll);
    g.c.roll();
    assert_eq!(g.c.rolled(), Some(1));
    g.tap("b7").tap("b5");
    assert_eq!(g.c.session().cursor(), 1, "b7-b5 is not a face-1 move");
    g.tap("b7").tap("b6");
    assert_eq!(g.c.session().moves(), ["3:b1c3", "1:b7b6"]);
    assert_eq!(g.c.rolled(), None);

    // Saved after an undo and opened again: the same roll, not a new one.
    g.c.undo();
    let rec = takhte_game::to_record(&g.c, "t", 0, 0, Instant::now());
    let again = takhte_game::from_record(
        &rec,
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![6], vec![0])),
    )
    .unwrap();
    assert_eq!(again.session().cursor(), 1);
    assert_eq!(again.rolled(), Some(1));
    g.c.redo();

    // White rolls 6; before moving, Black's turn is taken back and played again: the 6 is
    // still White's, and no 4 was rolled.
    g.c.roll();
    assert_eq!(g.c.rolled(), Some(6));
    g.c.undo();
    assert_eq!(g.c.rolled(), Some(1));
    g.c.undo();
    assert_eq!(g.c.session().cursor(), 0);
    assert_eq!(g.c.rolled(), Some(3));
    g.c.redo();
    assert_eq!(g.c.rolled(), Some(1));
    g.c.redo();
    assert_eq!(g.c.session().cursor(), 2);
    assert_eq!(g.c.rolled(), Some(6));
    g.c.roll();
    assert_eq!(g.c.rolled(), Some(6));
}

#[test]
fn dice_chess_undo_takes_a_roll_that_gave_nothing_back_with_the_turn_before() {
    // White's pawn on a8 cannot use a 1: White's roll of 1 passes.
    let mut g = Game::new(
        custom(GameKind::DiceChess, "P3k3/8/8/8/8/8/8/3K4 w"),
        vec![1, 1],
    );
    g.tap("d1").tap("d2");
    g.tap("e8").tap("e7");
    g.c.roll();
    g.tap("e7").tap("e6");
    assert_eq!(g.c.session().moves(), ["d1d2", "e8e7", "1:-", "e7e6"]);
    g.c.undo();
    assert_eq!(g.c.session().cursor(), 3);
    assert_eq!(g.c.rolled(), None);
    // The pass left no choice: it goes back with Black's turn before it.
    g.c.undo();
    assert_eq!(g.c.session().cursor(), 1);
    assert_eq!(g.view().side_to_move, Side::Black);
    assert_eq!(g.c.rolled(), None);

    // A game that began with a pass: nothing can be taken back.
    let mut g = Game::new(
        custom(GameKind::DiceChess, "P3k3/8/8/8/8/8/8/3K4 w"),
        vec![1],
    );
    g.c.roll();
    assert_eq!(g.c.session().moves(), ["1:-"]);
    g.c.undo();
    assert_eq!(g.c.session().cursor(), 1);
    assert_eq!(g.view().side_to_move, Side::Black);
}

#[test]
fn the_move_list_numbers_moves_and_greys_what_was_taken_back() {
    let mut g = Game::new(NewGame::pass_and_play(GameKind::Chess), vec![]);
    g.moves("e2e4 e7e5 g1f3");
    g.c.undo();
    let v = g.view();
    let numbers: Vec<usize> = v.moves.iter().map(|m| m.number).collect();
    assert_eq!(numbers, [1, 1, 2]);
    let undone: Vec<bool> = v.moves.iter().map(|m| m.undone).collect();
    assert_eq!(undone, [false, false, true]);
    assert!(v.moves[1].current);

    // Black began (a set-up position): "1. … e5" then "2. Nf3".
    let mut g = Game::new(
        custom(
            GameKind::Chess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        vec![],
    );
    g.moves("e7e5 g1f3 b8c6");
    let numbers: Vec<usize> = g.view().moves.iter().map(|m| m.number).collect();
    assert_eq!(numbers, [1, 2, 2]);
}

#[test]
fn dice_chess_empty_roll_in_check_is_checkmate() {
    // The black pawn on c2 checks d1; face 1 gives no pawn move that helps (h8 pawn stuck).
    let mut g = Game::new(
        custom(GameKind::DiceChess, "4k2P/8/8/8/8/8/2p5/3K4 w"),
        vec![1],
    );
    g.c.roll();
    let v = g.view();
    assert_eq!(
        v.result.map(|r| (r.winner, r.reason)),
        Some((Some(Side::Black), "checkmate"))
    );
}

#[test]
fn draughts_capture_entered_landing_by_landing_with_a_choice() {
    let mut g = Game::new(
        custom(GameKind::Draughts, "8/3b4/2b1b3/3b4/3w4/8/w6w/8 w"),
        vec![],
    );
    // Compulsory capture: the piece that must take is shown before any tap, no other.
    assert_ne!(g.marks("d4") & mark::USABLE, 0);
    for other in ["a2", "h2"] {
        assert_eq!(g.marks(other) & mark::USABLE, 0, "{other}");
    }
    // Another piece cannot be chosen.
    g.tap("a2");
    assert_eq!(g.view().status.key, "status-must-capture");
    g.tap("d4");
    assert_ne!(g.marks("d6") & mark::TARGET, 0);
    g.tap("d6");
    // Three equal continuations: d8, b6, f6.
    for t in ["d8", "b6", "f6"] {
        assert_ne!(g.marks(t) & mark::TARGET, 0, "{t}");
    }
    assert_ne!(g.marks("d5") & mark::PATH_CAPTURED, 0);
    assert!(g.c.session().moves().is_empty());
    g.tap("b6");
    assert_eq!(g.c.session().moves(), ["d4xd6xb6"]);
    assert_eq!(g.text(), "8/3b4/1w2b3/8/8/8/w6w/8 b");
    assert_eq!(
        g.view().captured[0]
            .iter()
            .filter(|p| p.glyph == Glyph::Man)
            .count(),
        2
    );
}

#[test]
fn draughts_a_man_that_becomes_a_king_is_said_so() {
    // The white man on c7 steps to c8 and is crowned; Black's man then moves on.
    let mut g = Game::new(
        custom(GameKind::Draughts, "8/2w4b/8/8/8/8/w4b2/8 w"),
        vec![],
    );
    assert_eq!(
        g.marks("c7") & mark::USABLE,
        0,
        "no capture: nothing to point at"
    );
    g.tap("c7").tap("c8");
    assert_eq!(g.c.session().moves().len(), 1);
    let status = g.view().status;
    assert_eq!(status.key, "status-promoted-king");
    assert_eq!(status.args, vec![("owner", "white".to_string())]);
    // A man that does not reach the last rank is not said to be crowned.
    g.tap("f2").tap("f1");
    assert_eq!(
        g.view().status.key,
        "status-promoted-king",
        "Black's man reached rank 1"
    );
    assert_eq!(g.view().status.args, vec![("owner", "black".to_string())]);
    let mut g = Game::new(
        custom(GameKind::Draughts, "8/2w4b/8/8/8/8/w4b2/8 w"),
        vec![],
    );
    g.tap("c7").tap("d7");
    assert_ne!(g.view().status.key, "status-promoted-king");
}

#[test]
fn mine_chess_sapper_royal_sapper_destruction_and_fog_lifting() {
    let mut g = Game::new(
        custom(
            GameKind::MineChess,
            "k7/8/8/8/8/8/8/3KP3/6N1/7R w - d4,e4,f4,h6 -",
        ),
        vec![],
    );
    assert_eq!(g.view().mines_left, Some(4));
    assert_ne!(g.marks("e4") & mark::FOG, 0);
    // Sapper action: select the pawn, the square in front is marked, the button plays it.
    g.tap("e3");
    assert_ne!(g.marks("e4") & mark::SAPPER_TARGET, 0);
    assert!(g.view().buttons.sapper);
    g.c.sapper();
    assert_eq!(g.c.session().moves(), ["e3^"]);
    assert_eq!(g.view().mines_left, Some(3));
    assert_eq!(g.marks("e4") & mark::FOG, 0);
    g.moves("a10a9");
    // Royal sapper: the king steps on the mine on d4 and removes it.
    g.moves("d3d4");
    assert_eq!(g.view().mines_left, Some(2));
    assert!(g.view().squares[sq("d4", 10).index()]
        .piece
        .is_some_and(|p| p.glyph == Glyph::King));
    // The number on e4 counts the mine on f4 next to it.
    assert_eq!(g.view().squares[sq("e5", 10).index()].number, 1);
    g.moves("a9a10");
    // The knight lands on the hidden mine on f4 and is destroyed.
    g.moves("g2f4");
    let v = g.view();
    assert_eq!(v.mines_left, Some(1));
    assert_eq!(v.lost_to_mines[0].len(), 1);
    assert_eq!(v.lost_to_mines[0][0].glyph, Glyph::Knight);
    assert_eq!(v.status.key, "status-mine-destroyed");
    assert_ne!(g.marks("f4") & mark::EXPLOSION, 0);
    g.moves("a10a9");
    // The rook reveals the last mine (h6): the fog lifts.
    g.moves("h1h5");
    let v = g.view();
    assert_eq!(v.status.key, "status-fog-lifted");
    assert!(v.squares.iter().all(|s| s.marks & mark::FOG == 0));
    assert_ne!(g.marks("h6") & mark::MINE, 0);
}

#[test]
fn the_view_never_shows_a_hidden_mine() {
    let g = Game::new(
        custom(
            GameKind::MineChess,
            "k7/8/8/8/8/8/8/3KP3/6N1/7R w - d4,e4,f4,h6 -",
        ),
        vec![],
    );
    assert!(g
        .view()
        .squares
        .iter()
        .all(|s| s.marks & mark::MINE == 0 && s.number == 0));
}

/// An engine that records the time it was given, then answers with the first legal move once
/// the test lets it.
struct Gated {
    release: Mutex<Receiver<()>>,
    given: Mutex<Vec<u64>>,
}

impl Engine for Gated {
    fn think(&self, req: &Request, _cancel: &AtomicBool) -> Option<Answer> {
        self.given.lock().unwrap().push(req.movetime_ms);
        let _ = self
            .release
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(5));
        req.game.legal_moves().into_iter().next().map(Answer::Move)
    }
}

fn gated() -> (Arc<Gated>, Sender<()>) {
    let (tx, rx) = channel();
    (
        Arc::new(Gated {
            release: Mutex::new(rx),
            given: Mutex::new(Vec::new()),
        }),
        tx,
    )
}

#[test]
fn a_late_answer_after_undo_is_dropped() {
    let (engine, release) = gated();
    let game = NewGame::against_computer(GameKind::Chess, 3, Side::White);
    let mut c = Controller::new(
        game,
        engine,
        Box::new(ScriptedRandomness::new(vec![], vec![1])),
    )
    .unwrap();
    c.tap(sq("e2", 8));
    c.tap(sq("e4", 8));
    assert!(c.thinking());
    assert_eq!(c.view().status.key, "status-thinking");
    // The human takes the move back while the computer still thinks.
    c.undo();
    assert_eq!(c.session().cursor(), 0);
    release.send(()).unwrap();
    // The old search's answer arrives and is dropped: nothing is played.
    std::thread::sleep(Duration::from_millis(100));
    c.poll_ai();
    assert_eq!(c.session().cursor(), 0);
    assert!(!c.thinking());
    // A new move starts a new search whose answer is played.
    c.tap(sq("d2", 8));
    c.tap(sq("d4", 8));
    assert_eq!(c.session().cursor(), 1, "{:?}", c.view().status);
    assert!(c.thinking());
    release.send(()).unwrap();
    assert!(c.wait_for_ai(Duration::from_secs(5)));
    assert_eq!(c.session().moves().len(), 2);
    assert_eq!(c.view().status.key, "status-your-turn");
}

#[test]
fn computer_plays_dice_chess_rolls_itself() {
    let mut game = NewGame::against_computer(GameKind::DiceChess, 1, Side::White);
    game.layout = Layout::Fixed;
    // Start roll 2-5: Black (the computer) begins; its rolls follow.
    let mut c = Controller::new(
        game,
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![2, 5, 4, 4, 4], vec![9])),
    )
    .unwrap();
    assert_eq!(c.session().game().side_to_move(), Side::Black);
    for _ in 0..4 {
        if !c.wait_for_ai(Duration::from_secs(5)) {
            break;
        }
    }
    assert_eq!(c.session().moves().len(), 1);
    assert_eq!(c.session().game().side_to_move(), Side::White);
    assert!(matches!(c.opponent(), Opponent::Computer { .. }));
    let _ = AnyMove::Chess;
}

#[test]
fn resign_and_draw_by_agreement() {
    let mut g = Game::new(NewGame::pass_and_play(GameKind::Draughts), vec![]);
    g.c.offer_draw();
    assert_eq!(g.view().draw_offer, Some(Side::White));
    assert!(g.view().buttons.answer_draw);
    g.c.decline_draw();
    assert_eq!(g.view().status.key, "status-draw-declined");
    g.c.offer_draw();
    g.c.accept_draw();
    assert_eq!(
        g.view().result.map(|r| (r.winner, r.reason)),
        Some((None, "agreement"))
    );
    // The computer is not offered draws: no button, and the intent does nothing.
    let mut g = Game::new(
        NewGame::against_computer(GameKind::Draughts, 1, Side::White),
        vec![],
    );
    assert!(!g.view().buttons.draw_offers);
    assert!(!g.view().buttons.offer_draw);
    g.c.offer_draw();
    assert_eq!(g.view().result, None);
    assert_eq!(g.view().draw_offer, None);
    let mut g = Game::new(NewGame::pass_and_play(GameKind::Chess), vec![]);
    assert!(g.view().buttons.draw_offers);
    g.moves("e2e4");
    g.c.resign();
    assert_eq!(
        g.view().result.map(|r| (r.winner, r.reason)),
        Some((Some(Side::White), "resignation"))
    );
}

#[test]
fn review_steps_through_a_finished_game() {
    let mut g = Game::new(NewGame::pass_and_play(GameKind::Chess), vec![]);
    g.moves("f2f3 e7e5 g2g4 d8h4");
    assert!(g.view().result.is_some());
    g.c.review_to(0);
    let v = g.view();
    assert!(v.review);
    assert_eq!(g.text(), takhte_rules::chess::START_FEN);
    g.c.review_step(2);
    assert_eq!(g.c.session().cursor(), 2);
    assert!(g.view().moves[1].current);
    // Taps do nothing in review.
    g.tap("g2").tap("g4");
    assert_eq!(g.c.session().moves().len(), 4);
    // At the last move of a finished game the review goes on, showing the result.
    g.c.review_step(10);
    assert_eq!(g.c.session().cursor(), 4);
    assert!(g.view().review && g.view().result.is_some());
}

#[test]
fn rotate_layout_turns_the_board_to_the_player() {
    let mut g = Game::new(NewGame::pass_and_play(GameKind::Chess), vec![]);
    assert!(!g.view().flipped);
    g.moves("e2e4");
    assert!(g.view().flipped);
    g.c.flip();
    assert!(!g.view().flipped);
}

/// The browser's way: searches handed to another thread as text (`offload_searches`, the Web
/// Worker's part played here by a thread running `takhte_ai::wire::answer_request`). The
/// controller's own engine is never asked; each request replays to the position on the board
/// (dice chess with its start rolls and the face rolled); the answers are played; a request
/// replaced by a newer one has its late answer dropped.
#[test]
fn searches_handed_elsewhere_as_text_play_the_game() {
    struct Never;
    impl Engine for Never {
        fn think(&self, _: &Request, _: &AtomicBool) -> Option<Answer> {
            panic!("the controller's own engine was asked")
        }
    }
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = Arc::clone(&asked);
    takhte_game::offload_searches(Some(std::rc::Rc::new(
        move |text: String, reply: Box<dyn FnOnce(String)>| {
            log.lock().unwrap().push(text.clone());
            // The "worker" answers on another thread; the reply is called back on this one.
            let answer = std::thread::spawn(move || takhte_ai::wire::answer_request(&text))
                .join()
                .unwrap();
            reply(answer);
        },
    )));
    // The computer begins (White) in each game; in chess the human (White) begins and the
    // computer answers each of two moves, its requests carrying the moves before them.
    for (kind, rolls) in [
        (GameKind::Chess, vec![]),
        (GameKind::DiceChess, vec![5, 2, 4, 1, 6, 3, 4, 4]),
        (GameKind::Draughts, vec![]),
        (GameKind::MineChess, vec![]),
    ] {
        asked.lock().unwrap().clear();
        let human = if kind == GameKind::Chess {
            Side::White
        } else {
            Side::Black
        };
        let mut game = NewGame::against_computer(kind, 2, human);
        game.layout = Layout::Fixed;
        let mut c = Controller::new(
            game,
            Arc::new(Never),
            Box::new(ScriptedRandomness::new(rolls, vec![7])),
        )
        .unwrap();
        let taps: &[(&str, &str)] = if kind == GameKind::Chess {
            &[("e2", "e4"), ("g1", "f3")]
        } else {
            &[]
        };
        for (from, to) in taps {
            c.tap(sq(from, 8));
            c.tap(sq(to, 8));
            assert!(
                c.wait_for_ai(Duration::from_secs(10)),
                "{kind} after {from}{to}"
            );
        }
        // Until it is the human's turn (in dice chess: a roll, then a move).
        while c.wait_for_ai(Duration::from_secs(10)) {}
        assert_eq!(
            c.session().moves().len(),
            if taps.is_empty() { 1 } else { 4 },
            "{kind}"
        );
        let texts = asked.lock().unwrap().clone();
        assert!(!texts.is_empty(), "{kind}");
        // The last request replays to the position before the computer's last move.
        let last = takhte_ai::wire::Asked::parse(texts.last().unwrap()).unwrap();
        assert_eq!(
            last.moves[..],
            c.session().moves()[..last.moves.len()],
            "{kind}"
        );
        assert_eq!(last.level, 2);
        assert_eq!(&last.start, c.session().start(), "{kind}");
    }

    // A request replaced before its answer came: the late answer is dropped.
    type Replies = Arc<Mutex<Vec<Box<dyn FnOnce(String)>>>>;
    let replies: Replies = Arc::default();
    let held = Arc::clone(&replies);
    takhte_game::offload_searches(Some(std::rc::Rc::new(
        move |_text: String, reply: Box<dyn FnOnce(String)>| held.lock().unwrap().push(reply),
    )));
    let mut game = NewGame::against_computer(GameKind::Chess, 1, Side::White);
    game.layout = Layout::Fixed;
    let mut c = Controller::new(
        game,
        Arc::new(Never),
        Box::new(ScriptedRandomness::new(vec![], vec![1])),
    )
    .unwrap();
    c.tap(sq("e2", 8));
    c.tap(sq("e4", 8));
    assert!(c.thinking());
    c.undo();
    c.tap(sq("d2", 8));
    c.tap(sq("d4", 8));
    let mut pending = std::mem::take(&mut *replies.lock().unwrap());
    assert_eq!(pending.len(), 2, "one request for each position");
    let newer = pending.pop().unwrap();
    let older = pending.pop().unwrap();
    older("move e7e5".to_string()); // legal after e4, and after d4: must not be played
    c.poll_ai();
    assert_eq!(c.session().moves().len(), 1, "the late answer was dropped");
    newer("move d7d5".to_string());
    c.poll_ai();
    assert_eq!(c.session().moves(), ["d2d4", "d7d5"]);
    takhte_game::offload_searches(None);
}

#[test]
fn the_computer_thinks_less_when_its_clock_runs_low() {
    let (engine, tx) = gated();
    let mut game = NewGame::against_computer(GameKind::Chess, 6, Side::White);
    game.time_control = Some(TimeControl::new(1, 0));
    let mut c = Controller::new(
        game,
        engine.clone(),
        Box::new(ScriptedRandomness::new(vec![], vec![1])),
    )
    .unwrap();
    c.set_movetime(1000);
    let time = Arc::new(Mutex::new(Instant::now()));
    let t = Arc::clone(&time);
    c.set_clock_source(Box::new(move || *t.lock().unwrap()));
    let advance = |ms: u64| *time.lock().unwrap() += Duration::from_millis(ms);
    c.tap(sq("e2", 8));
    c.tap(sq("e4", 8));
    // A full minute left: the usual second.
    assert!(c.thinking());
    // The computer's clock runs while it thinks: 50 s of its minute go.
    advance(50_000);
    tx.send(()).unwrap();
    assert!(c.wait_for_ai(Duration::from_secs(5)));
    c.tap(sq("d2", 8));
    c.tap(sq("d4", 8));
    assert!(c.thinking());
    tx.send(()).unwrap();
    assert!(c.wait_for_ai(Duration::from_secs(5)));
    // About 10 s left: a thirtieth of it.
    assert_eq!(*engine.given.lock().unwrap(), vec![1000, 333]);
}
