//! Headless UI tests with Slint's testing backend: every game started from the home screen,
//! moves by tapping squares, the die, the sapper action, undo, the language switch with its
//! mirrored layout, and resuming a saved game. One test function: one platform per process.

mod common;

use common::*;
use slint::ComponentHandle;
use takhte::game::view::mark;
use takhte::rules::{GameKind, Square};
use takhte::ui::{App, HomeProps, NewGameProps, SavedProps, TakhteApp, T};

fn moves(app: &TakhteApp) -> Vec<String> {
    app.state
        .borrow()
        .controller
        .as_ref()
        .map(|c| c.session().moves()[..c.session().cursor()].to_vec())
        .unwrap_or_default()
}

/// Without the isolates that keep a move's direction.
fn plain(s: &str) -> String {
    s.chars()
        .filter(|c| !('\u{2066}'..='\u{2069}').contains(c))
        .collect()
}

fn start_two_player(app: &TakhteApp, game: &str) {
    press(app, game);
    assert_eq!(screen(app), "new-game");
    press(app, "Two players on this device");
    press(app, "Start");
    assert_eq!(screen(app), "game");
}

#[test]
fn the_app_end_to_end() {
    i_slint_backend_testing::init_no_event_loop();
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("LANG", "en_US.UTF-8");
    let app = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    // The window opens at its preferred size (as the desktop's does) with the whole home
    // screen in it, its last row included.
    app.window.show().unwrap();
    let opened = app.window.window().size();
    let last = find(&app, "Statistics");
    let bottom = last.absolute_position().y + last.size().height;
    assert!(
        bottom <= opened.height as f32 / app.window.window().scale_factor(),
        "the home's last row ends at {bottom} in a window {opened:?} high"
    );
    app.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 760.0));
    assert_eq!(screen(&app), "home");

    // Chess: taps play e2-e4 and e7-e5; undo takes one back.
    start_two_player(&app, "Chess");
    tap(&app, "e2");
    tap(&app, "e4");
    tap(&app, "e7");
    tap(&app, "e5");
    assert_eq!(moves(&app), ["e2e4", "e7e5"]);
    // Stepping back through the game: each step is one side's turn, and the label says which
    // (the move as the list writes it) and how far through the game.
    let board = app.window.global::<takhte::ui::BoardProps>();
    board.invoke_review_step(-1);
    assert_eq!(plain(&board.get_review_label()), "1. e4\n1 of 2");
    board.invoke_review_step(1);
    assert_eq!(plain(&board.get_review_label()), "1… e5\n2 of 2");
    press(&app, "Undo");
    assert_eq!(moves(&app), ["e2e4"]);
    press(&app, "Back");
    assert_eq!(screen(&app), "home");

    // Dice chess: roll, then move a pawn the face allows (or see the turn pass).
    start_two_player(&app, "Dice chess");
    press(&app, "Roll the die");
    let v = view(&app);
    let face = v.die.as_ref().unwrap().face;
    if let Some(face) = face {
        let usable = v
            .squares
            .iter()
            .position(|s| s.marks & mark::USABLE != 0)
            .expect("a usable pawn is marked");
        let from = Square(usable as u8);
        tap(&app, &from.to_string());
        let target = view(&app)
            .squares
            .iter()
            .position(|s| s.marks & mark::TARGET != 0)
            .expect("the pawn has a target");
        tap(&app, &Square(target as u8).to_string());
        assert_eq!(moves(&app).len(), 1);
        assert!(moves(&app)[0].starts_with(&format!("{face}:")));
    } else {
        assert_eq!(moves(&app).len(), 1);
    }
    press(&app, "Back");

    // Turkish draughts: a man steps forward.
    start_two_player(&app, "Turkish draughts");
    tap(&app, "c3");
    tap(&app, "c4");
    assert_eq!(moves(&app), ["c3-c4"]);
    press(&app, "Back");

    // Minesweeper chess: the sapper action of the e2 pawn.
    start_two_player(&app, "Minesweeper chess");
    tap(&app, "e2");
    assert!(view(&app).buttons.sapper);
    press(&app, "Sapper");
    assert_eq!(moves(&app), ["e2^"]);
    let mine_moves = moves(&app);
    press(&app, "Back");

    // The saved minesweeper game is listed and resumes exactly.
    press(&app, "Saved games");
    assert_eq!(screen(&app), "saved");
    let saved = app.window.global::<SavedProps>().get_saved();
    use slint::Model;
    assert!(saved.row_count() >= 4, "{} saved games", saved.row_count());
    let first = saved.row_data(0).unwrap();
    assert_eq!(first.title.as_str(), "Minesweeper chess");
    app.window
        .global::<SavedProps>()
        .invoke_resume(first.id.clone());
    assert_eq!(screen(&app), "game");
    assert_eq!(moves(&app), mine_moves);
    assert_eq!(
        app.state
            .borrow()
            .controller
            .as_ref()
            .unwrap()
            .session()
            .kind(),
        GameKind::MineChess
    );
    // Back from a saved game is the saved games; back again, home.
    press(&app, "Back");
    assert_eq!(screen(&app), "saved");
    press(&app, "Back");
    assert_eq!(screen(&app), "home");

    // Switching to Persian takes effect at once and mirrors the layout.
    press(&app, "Settings");
    let width = app.window.window().size().width as f32 / app.window.window().scale_factor();
    let back_en = find(&app, "Back").absolute_position().x;
    assert!(back_en < width / 2.0);
    press(&app, "فارسی");
    assert_eq!(app.window.global::<T>().get_lang().as_str(), "fa");
    assert!(app.window.global::<T>().get_rtl());
    find(&app, "تنظیمات");
    let back_fa = find(&app, "بازگشت").absolute_position().x;
    assert!(
        back_fa > width / 2.0,
        "the back button moves to the right in Persian ({back_fa} of {width})"
    );
    // Numbers come in Persian digits.
    assert!(app
        .window
        .global::<NewGameProps>()
        .get_level_labels()
        .iter()
        .any(|l| l.as_str() == "۳"));
    press(&app, "English");
    assert!(!app.window.global::<T>().get_rtl());

    // Android: the back button goes back one screen, and on home asks before leaving.
    use takhte::android::{on_lifecycle, BackAction, Lifecycle};
    assert_eq!(
        app.state.borrow_mut().back_pressed(),
        BackAction::GoTo("home")
    );
    assert_eq!(screen(&app), "home");
    assert_eq!(
        app.state.borrow_mut().back_pressed(),
        BackAction::AskToLeave
    );
    assert!(app.window.global::<App>().get_confirm_exit());
    find(&app, "Leave Takhte?");
    assert_eq!(
        app.state.borrow_mut().back_pressed(),
        BackAction::CloseDialog
    );
    assert!(!app.window.global::<App>().get_confirm_exit());

    // Android pauses the app in the middle of a timed game: the clock stops and the game is
    // saved; after the process is killed, a new app resumes it exactly.
    press(&app, "Chess");
    press(&app, "Two players on this device");
    press(&app, "10+0");
    press(&app, "Start");
    tap(&app, "d2");
    tap(&app, "d4");
    assert!(view(&app).clocks.unwrap()[1].running);
    on_lifecycle(&mut app.state.borrow_mut(), Lifecycle::Pause);
    let v = view(&app);
    assert!(
        !v.clocks.unwrap()[0].running && !v.clocks.unwrap()[1].running,
        "the clock stops in the background"
    );
    let left = v.clocks.unwrap()[1].remaining_ms;
    std::thread::sleep(std::time::Duration::from_millis(30));
    assert_eq!(view(&app).clocks.unwrap()[1].remaining_ms, left);
    on_lifecycle(&mut app.state.borrow_mut(), Lifecycle::Resume);
    assert!(view(&app).clocks.unwrap()[1].running);
    on_lifecycle(&mut app.state.borrow_mut(), Lifecycle::Stop);
    let again = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    assert!(again.window.global::<HomeProps>().get_has_continue());
    again.window.global::<HomeProps>().invoke_continue_game();
    let c = again.state.borrow();
    let c = c.controller.as_ref().unwrap();
    assert_eq!(c.session().moves(), ["d2d4"]);
    assert_eq!(c.view().clocks.unwrap()[1].remaining_ms / 1000, left / 1000);
}
