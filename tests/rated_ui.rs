//! Quick pairing, ratings and the recovery code through the app, by taps, on a real game server
//! on loopback (Slint's testing backend, no display): two apps tap "Chess 3+2" and are paired,
//! play a rated game and see their ratings move; the recovery code of one moves that player to
//! a third app, which has the same rating and goes on with the game in progress.

mod common;

use common::*;
use slint::ComponentHandle;
use takhte::ui::{BoardProps, OnlineBoardProps, RatedProps, TakhteApp};
use takhte_rules::Side;

/// A text without its directional isolates (a rating such as "1500?" is one).
fn plain(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '\u{2066}'..='\u{2069}'))
        .collect()
}

fn side_of(app: &TakhteApp) -> Side {
    app.state
        .borrow()
        .online
        .current_mirror()
        .and_then(|m| m.you)
        .expect("a seat")
}

/// An app in a window `height` tall (the testing backend finds only what is on screen: the
/// settings' recovery code is far down).
fn app(dir: &std::path::Path, name: &str) -> TakhteApp {
    app_sized(dir, name, 800.0)
}

fn app_sized(dir: &std::path::Path, name: &str, height: f32) -> TakhteApp {
    let a = TakhteApp::new(Some(dir.join(name))).unwrap();
    a.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    a.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, height));
    a.window.show().unwrap();
    a
}

#[test]
fn quick_pairing_rated_game_and_the_recovery_code_on_a_second_phone() {
    let dir = tempfile::tempdir().unwrap();
    let addr = takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.path().join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    std::env::set_var("TAKHTE_SERVER", &addr);
    i_slint_backend_testing::init_no_event_loop();
    let a = app(dir.path(), "a");
    let b = app(dir.path(), "b");

    // Both tap "Chess 3+2": a card says they are looking, then the board.
    for x in [&a, &b] {
        press(x, "Play online with a friend");
        find_id(x, "quick-0").invoke_accessible_default_action();
    }
    assert!(a.window.global::<RatedProps>().get_seeking());
    let line: String = find_id(&a, "seek-line")
        .accessible_label()
        .unwrap()
        .chars()
        .filter(|c| !matches!(c, '\u{2066}'..='\u{2069}'))
        .collect();
    assert!(line.starts_with("Chess 3+2, waiting"), "{line}");
    until(&[&a, &b], "both boards", || {
        screen(&a) == "game" && screen(&b) == "game"
    });
    assert!(!a.window.global::<RatedProps>().get_seeking());
    // A rated game: the opponent's provisional rating on the board.
    assert!(
        plain(&a.window.global::<OnlineBoardProps>().get_opponent_line()).ends_with("rating 1500?"),
        "{}",
        a.window.global::<OnlineBoardProps>().get_opponent_line()
    );
    let (white, black) = if side_of(&a) == Side::White {
        (&a, &b)
    } else {
        (&b, &a)
    };
    assert_eq!(side_of(black), Side::Black);
    // White mates: A's rating after the first game.
    let a_rating = if side_of(&a) == Side::White {
        1662
    } else {
        1338
    };

    // The scholar's mate, by taps.
    let game = [
        (white, "e2", "e4"),
        (black, "e7", "e5"),
        (white, "f1", "c4"),
        (black, "b8", "c6"),
        (white, "d1", "h5"),
        (black, "g8", "f6"),
        (white, "h5", "f7"),
    ];
    for (i, (who, from, to)) in game.iter().enumerate() {
        tap(who, from);
        tap(who, to);
        until(&[&a, &b], &format!("move {}", i + 1), || {
            moves(&a).len() == i + 1 && moves(&b).len() == i + 1
        });
    }
    until(&[&a, &b], "the results", || {
        a.window.global::<BoardProps>().get_game_over()
            && b.window.global::<BoardProps>().get_game_over()
    });
    // Both see their rating move (two new players: 1500 → 1662 and 1338, still provisional).
    until(&[&a, &b], "the rating lines", || {
        white.window.global::<RatedProps>().get_rating_line() != ""
    });
    assert_eq!(
        plain(&white.window.global::<RatedProps>().get_rating_line()),
        "Your rating: 1500 → 1662? (+162)"
    );
    assert_eq!(
        plain(&black.window.global::<RatedProps>().get_rating_line()),
        "Your rating: 1500 → 1338? (−162)"
    );
    // A gain is drawn as good news, a loss is not.
    assert_eq!(white.window.global::<RatedProps>().get_rating_trend(), 1);
    assert_eq!(black.window.global::<RatedProps>().get_rating_trend(), -1);

    // The winner's page, from the loser's board: one game, won, rated.
    black.state.borrow_mut().open_opponent();
    assert_eq!(screen(black), "player");
    until(&[black], "the page", || {
        black.window.global::<RatedProps>().get_page_status() == ""
    });
    let page = black.state.borrow().online.page().cloned().unwrap();
    assert_eq!(page.kinds[0].rating.rating, 1662);
    assert_eq!(page.recent.len(), 1);
    // Back goes to the game.
    black.state.borrow_mut().rated_back();
    until(&[black], "the board again", || screen(black) == "game");

    // A second game, paired again; White moves first.
    for x in [&a, &b] {
        x.state.borrow_mut().open_online();
        find_id(x, "quick-0").invoke_accessible_default_action();
    }
    until(&[&a, &b], "the second game", || {
        screen(&a) == "game" && screen(&b) == "game" && moves(&a).is_empty()
    });
    let second = a.state.borrow().online.current().unwrap().to_string();
    let white = if side_of(&a) == Side::White { &a } else { &b };
    tap(white, "d2");
    tap(white, "d4");
    until(&[&a, &b], "1. d4", || {
        moves(&a).len() == 1 && moves(&b).len() == 1
    });

    // A's recovery code, entered on a third phone: the same player, the same rating, the
    // game in progress goes on there.
    a.state.borrow_mut().open(takhte::ui::Screen::Settings);
    let code = a
        .window
        .global::<RatedProps>()
        .get_recovery_code()
        .to_string();
    assert_eq!(code.len(), 28 + 6);
    let c = app_sized(dir.path(), "c", 1800.0);
    c.state.borrow_mut().open(takhte::ui::Screen::Settings);
    let field = i_slint_backend_testing::ElementHandle::find_by_accessible_label(
        &c.window,
        "Use this code",
    )
    .find(|h| h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::TextInput))
    .expect("the code field");
    // A mistyped code changes nothing, and says so.
    let mut wrong: Vec<char> = code.chars().collect();
    wrong[0] = if wrong[0] == 'A' { 'B' } else { 'A' };
    field.set_accessible_value(wrong.iter().collect::<String>());
    press_last_button(&c, "Use this code");
    assert!(c.window.global::<RatedProps>().get_recovery_error());
    assert_ne!(
        c.state.borrow().online.token(),
        a.state.borrow().online.token()
    );
    // The right one, in lower case with dashes.
    field.set_accessible_value(code.replace(' ', "-").to_lowercase());
    press_last_button(&c, "Use this code");
    assert!(!c.window.global::<RatedProps>().get_recovery_error());
    assert_eq!(
        c.state.borrow().online.token(),
        a.state.borrow().online.token()
    );
    // Its identity is saved: a restart of the app is still that player.
    drop(c);
    let c = app(dir.path(), "c");
    assert_eq!(
        c.state.borrow().online.token(),
        a.state.borrow().online.token()
    );
    c.state.borrow_mut().open_online();
    until(&[&c], "the game in progress listed", || {
        c.state
            .borrow()
            .online
            .games()
            .games
            .iter()
            .any(|g| g.code == second)
    });
    c.state.borrow_mut().online_open(&second);
    until(&[&c], "the game on the third phone", || {
        screen(&c) == "game" && moves(&c).len() == 1
    });
    // Black moves now: the third phone if A is Black, else B.
    let mover = if side_of(&c) == Side::Black { &c } else { &b };
    let (from, to) = ("d7", "d5");
    tap(mover, from);
    tap(mover, to);
    until(&[&c, &b], "1… d5 on both", || {
        moves(&c).len() == 2 && moves(&b).len() == 2
    });
    // The same rating on the third phone: its own page.
    let me = c.state.borrow().online.player_id().to_string();
    c.state.borrow_mut().open_player(&me);
    until(&[&c], "its own page", || {
        c.state.borrow().online.page().is_some_and(|p| p.id == me)
    });
    let page = c.state.borrow().online.page().cloned().unwrap();
    assert_eq!(page.kinds[0].rating.rating, a_rating);
}
