//! The app as a spectator: it finds a game between two bots in the live games list, watches it,
//! suggests a move by tapping the board, and its board then shows the suggestion as an arrow
//! with its count. Slint's testing backend, a real server on loopback.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;

use common::*;
use slint::{ComponentHandle, Model};
use takhte::game::view::mark;
use takhte::net::bot::{self, BotConfig, BotRole};
use takhte::net::protocol::{ColourChoice, GameSettings};
use takhte::rules::{GameKind, Square};
use takhte::ui::{App, BoardProps, OnlineBoardProps, OnlineProps, TakhteApp};

fn until(app: &TakhteApp, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        app.state.borrow_mut().net_tick();
        if done() {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn bot(addr: &str, name: &str, role: BotRole) -> BotConfig {
    BotConfig {
        address: addr.into(),
        token: takhte::net::token::generate(),
        name: name.into(),
        level: 1,
        movetime_ms: 20,
        // Slow enough that the spectator's taps and its suggestion's round trip come before the
        // next real move even on a loaded machine.
        delay_ms: 5_000,
        role,
        timeout: Duration::from_secs(300),
        on_code: None,
        max_own_moves: Some(6),
        extra_roots: Vec::new(),
    }
}

#[test]
fn the_app_watches_a_bot_game_and_suggests_a_move_by_taps() {
    let dir = tempfile::tempdir().unwrap();
    let addr = takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.path().join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    // Set before any other thread runs (the environment is the process's).
    std::env::set_var("TAKHTE_SERVER", &addr);
    // Two bots play a public chess game that spectators may watch, slowly.
    let mut a = bot(
        &addr,
        "Ana",
        BotRole::Create(GameSettings {
            kind: GameKind::Chess,
            clock: None,
            colour: ColourChoice::White,
            public: true,
            position: None,
            spectators: true,
            audience: false,
            rated: false,
        }),
    );
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    a.on_code = Some(Arc::new(move |c: &str| {
        let _ = tx.lock().unwrap().send(c.to_string());
    }));
    std::thread::spawn(move || bot::play(a));
    let code = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    let mut b = bot(&addr, "Bahram", BotRole::Join(code.clone()));
    // The game is live (and listed) once the second player is seated: wait for that.
    let (joined_tx, joined) = std::sync::mpsc::channel::<String>();
    let joined_tx = Mutex::new(joined_tx);
    b.on_code = Some(Arc::new(move |c: &str| {
        let _ = joined_tx.lock().unwrap().send(c.to_string());
    }));
    std::thread::spawn(move || bot::play(b));
    joined.recv_timeout(Duration::from_secs(20)).unwrap();

    i_slint_backend_testing::init_no_event_loop();
    let app = TakhteApp::new(Some(dir.path().join("app"))).unwrap();
    app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    app.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 1100.0));
    app.window.show().unwrap();

    // The live games list shows the game; watch it.
    press(&app, "Play online with a friend");
    std::thread::sleep(Duration::from_millis(300));
    press(&app, "Live games");
    until(&app, "the live games", || {
        app.window
            .global::<OnlineProps>()
            .get_live_games()
            .row_count()
            == 1
    });
    let row = app
        .window
        .global::<OnlineProps>()
        .get_live_games()
        .row_data(0)
        .unwrap();
    assert_eq!(row.code.as_str(), code);
    assert!(row.title.contains("Ana against Bahram"), "{}", row.title);
    press(&app, &format!("Watch {code}"));
    until(&app, "the board", || {
        app.window.global::<App>().get_screen() == "game"
    });
    assert!(app.window.global::<OnlineBoardProps>().get_watching());

    // Right after a move, suggest one for the side to move by taps: a piece that can move,
    // then one of its targets.
    let view = || app.state.borrow().controller.as_ref().unwrap().view();
    let moves_now = || moves(&app).len();
    let start = moves_now();
    until(&app, "a fresh move", || moves_now() > start);
    let side = view().side_to_move;
    let from = (0..64u8)
        .map(Square)
        .find(|&sq| {
            let v = view();
            if v.squares[sq.index()].piece.map(|p| p.side) != Some(side) {
                return false;
            }
            app.state.borrow_mut().tap(sq);
            let has = view().squares.iter().any(|s| s.marks & mark::TARGET != 0);
            app.state.borrow_mut().tap(sq);
            has
        })
        .expect("a piece with a move");
    tap(&app, &from.to_string());
    let to = view()
        .squares
        .iter()
        .position(|s| s.marks & mark::TARGET != 0)
        .map(|i| Square(i as u8))
        .unwrap();
    let before = moves_now();
    tap(&app, &to.to_string());
    assert_eq!(moves_now(), before, "a suggestion does not move the pieces");
    // The server's tally comes back: an arrow from the piece to its target, counted once, ours.
    until(&app, "the arrow", || {
        app.window.global::<BoardProps>().get_arrows().row_count() == 1
    });
    let arrow = app
        .window
        .global::<BoardProps>()
        .get_arrows()
        .row_data(0)
        .unwrap();
    assert_eq!(arrow.label.as_str(), "1");
    assert!(arrow.own && arrow.strong);
    let v = view();
    assert_eq!((v.arrows[0].from, v.arrows[0].to), (from, to));
    assert!(app
        .window
        .global::<OnlineBoardProps>()
        .get_crowd_line()
        .starts_with("Suggested:"));
    // When the real move comes, the arrow goes, and the line compares.
    until(&app, "the real move", || moves_now() > before);
    until(&app, "the comparison", || {
        app.window.global::<BoardProps>().get_arrows().row_count() == 0
            && app
                .window
                .global::<OnlineBoardProps>()
                .get_crowd_line()
                .contains("of 1 spectators")
    });
}
