//! The board does not move under a thumb: in an online game, a spectator arriving, the
//! spectators' suggestions (an audience game), the opponent leaving, the claim and the next
//! move leave the board's squares where they were and as large — at a phone's sizes, a
//! tablet's and a tablet turned, in both languages — and nothing is drawn over the board or
//! the player's own strip. In a local game the first move does not shrink the board.
//!
//! The changes come as the server's messages, through the app's own handling, and every
//! picture is drawn again as the app draws it.

use std::time::{Duration, Instant};

use i_slint_backend_testing::{ElementHandle, ElementQuery};
use slint::ComponentHandle;
use takhte::i18n::Lang;
use takhte::net::client::ClientEvent;
use takhte::net::protocol::{Crowd, GameEvent, ServerMsg, Tally};
use takhte::rules::Side;
use takhte::ui::screenshot::{render, with_scene, SIZES};

type Box4 = (i32, i32, i32, i32);

/// One change of the game, as the server's messages make it.
type Step<'a> = Box<dyn Fn() + 'a>;

/// Where an element is and how large: (left, top, right, bottom).
fn bounds(h: &ElementHandle) -> Box4 {
    let (p, s) = (h.absolute_position(), h.size());
    (
        p.x.round() as i32,
        p.y.round() as i32,
        (p.x + s.width).round() as i32,
        (p.y + s.height).round() as i32,
    )
}

/// The board's place and size: the box around its corner squares a1 and h8 (whichever way
/// the board is turned).
fn board_box(app: &takhte::ui::TakhteApp) -> Box4 {
    let (a, b) = (square(app, "a1"), square(app, "h8"));
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

fn square(app: &takhte::ui::TakhteApp, name: &str) -> Box4 {
    let h = ElementHandle::find_by_accessible_label(&app.window, name)
        .find(|h| h.size().width > 10.0)
        .unwrap_or_else(|| panic!("no square {name}"));
    bounds(&h)
}

/// The element with the test hook `id` (its accessible-id), if it is shown.
fn by_id(app: &takhte::ui::TakhteApp, id: &'static str) -> Option<Box4> {
    ElementQuery::from_root(&app.window)
        .match_descendants()
        .match_predicate(move |e| e.accessible_id().as_deref() == Some(id))
        .find_all()
        .iter()
        .find(|e| e.size().width > 1.0)
        .map(bounds)
}

/// The element that says `words`, if it is shown.
fn by_label(app: &takhte::ui::TakhteApp, words: &str) -> Option<Box4> {
    if words.is_empty() {
        return None;
    }
    ElementHandle::find_by_accessible_label(&app.window, words)
        .find(|e| e.size().width > 1.0)
        .map(|e| bounds(&e))
}

fn overlap(a: Box4, b: Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

const CODE: &str = "K7M3QX";

fn msg(app: &takhte::ui::TakhteApp, m: ServerMsg) {
    app.state.borrow_mut().handle_net(ClientEvent::Msg(m));
}

#[test]
fn the_board_stays_where_it_is_through_an_online_game() {
    for lang in [Lang::En, Lang::Fa] {
        for (w, h) in SIZES {
            with_scene("online-game", lang, w, h, |app, window| {
                let label = format!("{lang:?} {w}x{h}");
                // The scene's opponent has left: back, nobody watching.
                msg(
                    app,
                    ServerMsg::Presence {
                        code: CODE.into(),
                        seat: Side::White,
                        online: true,
                    },
                );
                render(window, app, w, h);
                let before = board_box(app);
                let seq = app.state.borrow().online.mirror(CODE).unwrap().seq;
                let plies = app.state.borrow().online.mirror(CODE).unwrap().moves.len() as u32;
                let crowd = Crowd {
                    tally: vec![
                        Tally {
                            mv: "b8c6".into(),
                            count: 7,
                        },
                        Tally {
                            mv: "g8f6".into(),
                            count: 3,
                        },
                        Tally {
                            mv: "e7e5".into(),
                            count: 1,
                        },
                    ],
                    voters: 11,
                };
                let steps: Vec<(&str, Step)> = vec![
                    (
                        "a spectator",
                        Box::new(|| {
                            msg(
                                app,
                                ServerMsg::Crowd {
                                    code: CODE.into(),
                                    spectators: 1,
                                },
                            )
                        }),
                    ),
                    (
                        "suggestions",
                        Box::new(|| {
                            msg(
                                app,
                                ServerMsg::Suggestions {
                                    code: CODE.into(),
                                    ply: plies,
                                    crowd: crowd.clone(),
                                },
                            )
                        }),
                    ),
                    (
                        "the opponent gone",
                        Box::new(|| {
                            msg(
                                app,
                                ServerMsg::Presence {
                                    code: CODE.into(),
                                    seat: Side::White,
                                    online: false,
                                },
                            )
                        }),
                    ),
                    (
                        "the claim",
                        Box::new(|| {
                            let mut s = app.state.borrow_mut();
                            let m = s.online.mirror_mut(CODE).unwrap();
                            m.set_presence(
                                Side::White,
                                false,
                                Instant::now() - Duration::from_secs(90),
                            );
                            drop(s);
                            assert!(app
                                .window
                                .global::<takhte::ui::OnlineBoardProps>()
                                .get_opponent_away());
                        }),
                    ),
                    (
                        "a move",
                        Box::new(|| {
                            msg(
                                app,
                                ServerMsg::Event {
                                    code: CODE.into(),
                                    seq: seq + 1,
                                    event: GameEvent::Moved {
                                        ply: plies,
                                        mv: "b8c6".into(),
                                        position: String::new(),
                                        clocks: None,
                                        crowd: None,
                                    },
                                },
                            )
                        }),
                    ),
                ];
                for (what, step) in steps {
                    step();
                    render(window, app, w, h);
                    let now = board_box(app);
                    assert_eq!(now, before, "{label}: the board moved with {what}");
                    // Nothing drawn over the board or the player's own strip: the suggestions
                    // (marked), the claim's countdown and button (found by their words).
                    let g = app.window.global::<takhte::ui::OnlineBoardProps>();
                    let mut over = vec![("suggestions", by_id(app, "suggestions"))];
                    for words in [
                        g.get_claim_line().to_string(),
                        "Claim the win".into(),
                        "اعلام برد".into(),
                    ] {
                        over.push(("the claim", by_label(app, &words)));
                    }
                    let strip = by_id(app, "bottom-player").expect("the player's strip");
                    for (id, b) in over.into_iter().filter_map(|(id, b)| b.map(|b| (id, b))) {
                        assert!(
                            !overlap(b, now),
                            "{label}: {id} over the board after {what}"
                        );
                        assert!(
                            !overlap(b, strip),
                            "{label}: {id} over the player's strip after {what}"
                        );
                    }
                }
                // What the steps were meant to show is shown.
                let g = app.window.global::<takhte::ui::OnlineBoardProps>();
                assert!(g.get_can_claim(), "{label}: the claim");
                let claim = if lang == Lang::En {
                    "Claim the win"
                } else {
                    "اعلام برد"
                };
                assert!(by_label(app, claim).is_some(), "{label}: the claim button");
                assert!(
                    by_id(app, "suggestions").is_some(),
                    "{label}: the suggestions"
                );
                assert!(
                    !g.get_spectators_line().is_empty(),
                    "{label}: the spectators"
                );
            })
            .unwrap();
        }
    }
}

#[test]
fn the_first_move_does_not_shrink_the_board() {
    for lang in [Lang::En, Lang::Fa] {
        for (w, h) in SIZES {
            with_scene("chess", lang, w, h, |app, window| {
                // A new game for two players, no move yet.
                let mut s = app.state.borrow_mut();
                s.start(takhte::game::NewGame::pass_and_play(
                    takhte::rules::GameKind::Chess,
                ));
                drop(s);
                render(window, app, w, h);
                let before = board_box(app);
                for sq in ["e2", "e4"] {
                    app.state
                        .borrow_mut()
                        .tap(takhte::rules::Square::parse(sq, 8).unwrap());
                }
                render(window, app, w, h);
                assert_eq!(
                    app.state
                        .borrow()
                        .controller
                        .as_ref()
                        .unwrap()
                        .session()
                        .moves()
                        .len(),
                    1
                );
                assert_eq!(
                    board_box(app),
                    before,
                    "{lang:?} {w}x{h}: the board changed with the first move"
                );
            })
            .unwrap();
        }
    }
}
