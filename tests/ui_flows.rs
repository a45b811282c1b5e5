//! The app's behaviour as a player meets it, by taps: destructive actions ask first, a game
//! off screen stops its clocks, a finished game is reviewed rather than continued, and the last
//! new game's choices are offered again. Slint's testing backend, no display.

use i_slint_backend_testing::ElementHandle;
use slint::platform::PointerEventButton;
use slint::{ComponentHandle, Model};
use takhte::ui::{App, TakhteApp};

fn find(app: &TakhteApp, label: &str) -> ElementHandle {
    ElementHandle::find_by_accessible_label(&app.window, label)
        .find(|h| h.size().width > 1.0)
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
}

fn press(app: &TakhteApp, label: &str) {
    find(app, label).invoke_accessible_default_action();
}

fn tap(app: &TakhteApp, square: &str) {
    ElementHandle::find_by_accessible_label(&app.window, square)
        .find(|h| h.size().width > 10.0)
        .unwrap_or_else(|| panic!("no square {square}"))
        .mock_single_click(PointerEventButton::Left);
}

fn screen(app: &TakhteApp) -> String {
    app.window.global::<App>().get_screen().to_string()
}

fn view(app: &TakhteApp) -> takhte::game::View {
    app.state.borrow().controller.as_ref().unwrap().view()
}

#[test]
fn a_player_meets_the_app() {
    i_slint_backend_testing::init_no_event_loop();
    let dir = tempfile::tempdir().unwrap();
    let app = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    app.state
        .borrow_mut()
        .set_language(takhte::i18n::Lang::En);
    app.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 800.0));
    app.window.show().unwrap();

    // A timed game against nobody: the clock runs, and stops while the settings are open.
    press(&app, "Chess");
    press(&app, "Two players on this device");
    press(&app, "5+0");
    press(&app, "Start");
    tap(&app, "e2");
    tap(&app, "e4");
    assert!(view(&app).clocks.unwrap()[1].running);
    app.state.borrow_mut().open("settings");
    let v = view(&app);
    assert!(!v.clocks.unwrap()[0].running && !v.clocks.unwrap()[1].running);
    let left = v.clocks.unwrap()[1].remaining_ms;
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(view(&app).clocks.unwrap()[1].remaining_ms, left, "no time used off screen");
    app.state.borrow_mut().open("game");
    assert!(view(&app).clocks.unwrap()[1].running, "back on screen, the clock runs again");

    // Resign asks first: "keep playing" keeps it, the second time it is over.
    press(&app, "More");
    press(&app, "Resign");
    assert!(view(&app).result.is_none(), "one tap does not resign");
    press(&app, "Keep playing");
    assert!(view(&app).result.is_none());
    press(&app, "More");
    press(&app, "Resign");
    let sure = ElementHandle::find_by_accessible_label(&app.window, "Resign")
        .filter(|h| {
            h.size().width > 1.0
                && h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::Button)
        })
        .last()
        .unwrap();
    sure.invoke_accessible_default_action();
    assert!(view(&app).result.is_some(), "resigned after saying so");
    press(&app, "Home");

    // The finished game is not offered to continue; the saved list offers it for review.
    assert!(!app.window.global::<App>().get_has_continue());
    press(&app, "Saved games");
    let saved = app.window.global::<App>().get_saved();
    let first = saved.row_data(0).unwrap();
    assert!(first.finished);
    find(&app, "Review");

    // Delete asks first.
    let before = saved.row_count();
    press(&app, "Delete");
    assert_eq!(
        app.window.global::<App>().get_confirm_delete(),
        first.id,
        "asked which game"
    );
    press(&app, "Keep it");
    assert_eq!(app.window.global::<App>().get_saved().row_count(), before);
    press(&app, "Delete");
    let confirm = ElementHandle::find_by_accessible_label(&app.window, "Delete")
        .filter(|h| {
            h.size().width > 1.0
                && h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::Button)
        })
        .last()
        .unwrap();
    confirm.invoke_accessible_default_action();
    assert_eq!(app.window.global::<App>().get_saved().row_count(), before - 1);
    app.state.borrow_mut().open("home");

    // The last new game's choices come back: against the computer, level 5, Black, 10+0.
    press(&app, "Turkish draughts");
    press(&app, "Against the computer");
    app.window.global::<App>().set_ng_level(5);
    app.window.global::<App>().set_ng_white(false);
    app.window.global::<App>().set_ng_time(3);
    press(&app, "Start");
    assert_eq!(screen(&app), "game");
    app.state.borrow_mut().open("home");
    let again = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    again.window.global::<App>().invoke_choose_game("chess".into());
    let g = again.window.global::<App>();
    assert!(g.get_ng_computer());
    assert_eq!(g.get_ng_level(), 5);
    assert!(!g.get_ng_white());
    assert_eq!(g.get_ng_time(), 3);
}
