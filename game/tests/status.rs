//! Every message and mark belongs to the state it is shown with: after each action of a walk
//! through each game (taps, rolls, hints, undo, redo, draw offers, resigning, review), the
//! status line and the marks must fit the position now — never a message left from before.

use std::sync::Arc;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use takhte_ai::Standard;
use takhte_game::view::mark;
use takhte_game::{Controller, NewGame, ScriptedRandomness, View};
use takhte_rules::{GameKind, Side, Square};

fn game(kind: GameKind, seed: u64) -> Controller {
    let mut c = Controller::new(
        NewGame::pass_and_play(kind),
        Arc::new(Standard),
        Box::new(takhte_game::ScriptedRandomness::from_seed(seed)),
    )
    .unwrap();
    c.set_movetime(20);
    c
}

/// What the status must say about the state, whatever happened before. `hinted` is the
/// position a hint was last asked for.
fn check(c: &Controller, v: &View, after: &str, hinted: Option<&(usize, String)>) {
    let s = c.session();
    let over = if c.reviewing() {
        s.final_end().is_some()
    } else {
        s.end().is_some()
    };
    let key = v.status.key;
    // A message about an action is shown only right after that action.
    let causes: &[(&str, &[&str])] = &[
        ("status-draw-declined", &["decline draw", "offer draw"]),
        ("status-roll-first", &["a tap", "a move"]),
        ("status-must-capture", &["a tap", "a move"]),
        ("status-continue-capture", &["a tap", "a move"]),
        ("status-illegal", &["a tap", "a move"]),
        ("status-empty-roll", &["roll"]),
        ("status-mine-destroyed", &["a move", "redo"]),
        ("status-fog-lifted", &["a move", "redo"]),
        ("status-promoted-king", &["a move"]),
        ("status-hint-roll", &["hint"]),
    ];
    let transient = causes.iter().find(|(k, _)| *k == key);
    if let Some((k, from)) = transient {
        assert!(
            from.iter().any(|a| after.starts_with(a)),
            "after {after}: '{k}' left from an earlier action"
        );
    }
    if over {
        assert_eq!(key, "status-game-over", "after {after}: the game is over");
    }
    if key == "status-game-over" {
        assert!(over, "after {after}: 'game over' on a game that goes on");
    }
    // The die shows the roll of the turn now, and only while it waits for a pawn move.
    if let Some(d) = &v.die {
        assert_eq!(
            d.face,
            c.rolled(),
            "after {after}: the die shows a roll of another turn"
        );
        if c.rolled().is_some() && !over && c.view().draw_offer.is_none() && transient.is_none() {
            assert_eq!(key, "status-choose-pawn", "after {after}");
        }
        if c.rolled().is_some() {
            assert_ne!(
                key, "status-roll-first",
                "after {after}: rolled, still 'roll first'"
            );
        }
    }
    if key == "status-draw-declined" || key == "status-draw-offered" {
        assert!(!over, "after {after}: a draw message on an ended game");
    }
    if key == "status-draw-offered" {
        assert!(c.view().draw_offer.is_some(), "after {after}");
    }
    if key == "status-continue-capture" || key == "status-must-capture" {
        assert_eq!(s.kind(), GameKind::Draughts);
    }
    // No hint mark unless a hint was asked in this very position.
    let here = (s.cursor(), s.game().to_text());
    if hinted != Some(&here) {
        assert!(
            v.squares.iter().all(|q| q.marks & mark::HINT == 0),
            "after {after}: a hint of another position is still shown"
        );
    }
}

fn random_square(rng: &mut impl Rng, ranks: u8) -> Square {
    Square(rng.gen_range(0..8 * ranks))
}

#[test]
fn the_status_fits_the_state_after_every_action() {
    for kind in GameKind::ALL {
        for seed in 0..6u64 {
            let mut c = game(kind, seed);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed * 31 + kind as u64);
            let ranks = if kind == GameKind::MineChess { 10 } else { 8 };
            let mut hinted: Option<(usize, String)> = None;
            for step in 0..400 {
                let roll = rng.gen_range(0..100);
                // Only what a player could press now (the view's enabled buttons).
                let b = c.view().buttons;
                let reviewable = c.session().final_end().is_some() || c.reviewing();
                let label = match roll {
                    60..=69 if b.roll => {
                        c.roll();
                        "roll"
                    }
                    70..=74 if b.undo => {
                        c.undo();
                        "undo"
                    }
                    75..=77 if b.redo => {
                        c.redo();
                        "redo"
                    }
                    78..=81 if b.hint => {
                        c.hint();
                        c.wait_for_ai(Duration::from_secs(5));
                        hinted = Some((c.session().cursor(), c.session().game().to_text()));
                        "hint"
                    }
                    82..=85 if b.offer_draw => {
                        c.offer_draw();
                        "offer draw"
                    }
                    86..=89 if b.answer_draw => {
                        c.decline_draw();
                        "decline draw"
                    }
                    90 if b.answer_draw => {
                        c.accept_draw();
                        "accept draw"
                    }
                    91 if b.resign => {
                        c.resign();
                        "resign"
                    }
                    92..=95 if reviewable => {
                        c.review_step(-1);
                        "review back"
                    }
                    96..=99 if reviewable => {
                        c.review_step(1);
                        "review forward"
                    }
                    _ => {
                        // A tap on a square, or a move by two taps.
                        let v = c.view();
                        let from = v
                            .squares
                            .iter()
                            .enumerate()
                            .filter(|(_, q)| q.piece.is_some_and(|p| p.side == v.side_to_move))
                            .map(|(i, _)| Square(i as u8))
                            .nth(rng.gen_range(0..4));
                        match from {
                            Some(f) if rng.gen_bool(0.8) => {
                                c.tap(f);
                                let targets: Vec<Square> = c
                                    .view()
                                    .squares
                                    .iter()
                                    .enumerate()
                                    .filter(|(_, q)| q.marks & mark::TARGET != 0)
                                    .map(|(i, _)| Square(i as u8))
                                    .collect();
                                if let Some(&t) =
                                    targets.get(rng.gen_range(0..targets.len().max(1)))
                                {
                                    c.tap(t);
                                }
                                "a move"
                            }
                            _ => {
                                c.tap(random_square(&mut rng, ranks));
                                "a tap"
                            }
                        }
                    }
                };
                let v = c.view();
                check(
                    &c,
                    &v,
                    &format!("{label} (step {step}, {kind}, seed {seed})"),
                    hinted.as_ref(),
                );
                if c.session().final_end().is_some() && rng.gen_bool(0.1) {
                    c.new_game(NewGame::pass_and_play(kind)).unwrap();
                }
            }
        }
    }
}

/// The cases the players reported, one by one.
#[test]
fn no_message_or_mark_outlives_its_moment() {
    // Dice chess: "roll first", then a roll: the prompt follows the roll.
    let mut c = Controller::new(
        NewGame::pass_and_play(GameKind::DiceChess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![5, 2, 3, 4, 3], vec![1])),
    )
    .unwrap();
    let first = c.session().game().side_to_move();
    let pawn = if first == Side::White { "a2" } else { "a7" };
    c.tap(Square::parse(pawn, 8).unwrap());
    assert_eq!(c.view().status.key, "status-roll-first");
    c.roll();
    assert_eq!(c.view().status.key, "status-choose-pawn");
    // After the pawn move, the other side's die is empty.
    let v = c.view();
    let from = v
        .squares
        .iter()
        .position(|q| q.marks & mark::USABLE != 0)
        .unwrap();
    c.tap(Square(from as u8));
    let to = c
        .view()
        .squares
        .iter()
        .position(|q| q.marks & mark::TARGET != 0)
        .unwrap();
    c.tap(Square(to as u8));
    assert_eq!(c.session().moves().len(), 1);
    assert_eq!(
        c.view().die.unwrap().face,
        None,
        "the new turn's die is not the old face"
    );

    // A declined draw offer, then resigning: the status is the result, also in review.
    let mut c = game(GameKind::Chess, 1);
    for m in ["e2e4", "e7e5"] {
        let mv = c.session().game().parse_move(m).unwrap();
        takhte_game::autoplay::enter(&mut c, &mv);
    }
    c.offer_draw();
    c.decline_draw();
    assert_eq!(c.view().status.key, "status-draw-declined");
    c.resign();
    assert_eq!(c.view().status.key, "status-game-over");
    c.review_step(-1);
    assert_eq!(c.view().status.key, "status-game-over");

    // A hint, then undo: the hint's squares go.
    let mut c = game(GameKind::Draughts, 2);
    let mv = c.session().game().parse_move("c3-c4").unwrap();
    takhte_game::autoplay::enter(&mut c, &mv);
    c.hint();
    assert!(c.wait_for_ai(Duration::from_secs(5)));
    assert!(c.view().squares.iter().any(|q| q.marks & mark::HINT != 0));
    c.undo();
    assert!(c.view().squares.iter().all(|q| q.marks & mark::HINT == 0));
}

/// In the middle of a draughts capture the man is drawn where it has landed, the way it came is
/// marked, and the status says to keep capturing.
#[test]
fn a_capture_under_way_shows_the_man_where_it_is() {
    let mut c = Controller::new(
        NewGame {
            position: Some("8/1bbb1bb1/2b1b3/3b4/3w1w2/2w5/ww4ww/8 w".into()),
            ..NewGame::pass_and_play(GameKind::Draughts)
        },
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![1])),
    )
    .unwrap();
    let sq = |n: &str| Square::parse(n, 8).unwrap();
    c.tap(sq("d4"));
    c.tap(sq("d6"));
    let v = c.view();
    assert_eq!(v.status.key, "status-continue-capture");
    assert!(
        v.squares[sq("d4").index()].piece.is_none(),
        "the man left d4"
    );
    assert!(
        v.squares[sq("d6").index()].piece.is_some(),
        "the man stands on d6"
    );
    assert!(v.squares[sq("d6").index()].marks & mark::SELECTED != 0);
    assert!(v.squares[sq("d4").index()].marks & mark::PATH != 0);
    assert!(v.squares[sq("d5").index()].marks & mark::PATH_CAPTURED != 0);
    assert!(
        c.session().moves().is_empty(),
        "nothing is played until the capture is complete"
    );
}
