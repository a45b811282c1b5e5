//! What the headless UI tests share: finding elements by their accessible label, pressing
//! them, tapping board squares, and reading the app's screen and view.

#![allow(dead_code)]

pub mod webdriver;

use i_slint_backend_testing::ElementHandle;
use slint::platform::PointerEventButton;
use slint::ComponentHandle;
use takhte::ui::{App, TakhteApp};

/// The first element labelled `label` that is on screen (wider than a pixel).
pub fn find(app: &TakhteApp, label: &str) -> ElementHandle {
    ElementHandle::find_by_accessible_label(&app.window, label)
        .find(|h| h.size().width > 1.0)
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
}

/// The first element on screen with the test hook `id` (its accessible-id).
pub fn find_id(app: &TakhteApp, id: &str) -> ElementHandle {
    let want = id.to_string();
    i_slint_backend_testing::ElementQuery::from_root(&app.window)
        .match_descendants()
        .match_predicate(move |e| e.accessible_id().as_deref() == Some(want.as_str()))
        .find_all()
        .into_iter()
        .find(|h| h.size().width > 1.0)
        .unwrap_or_else(|| panic!("no element with the id '{id}'"))
}

/// Presses the element labelled `label` (its default action).
pub fn press(app: &TakhteApp, label: &str) {
    find(app, label).invoke_accessible_default_action();
}

/// Presses the last button labelled `label`: the one of a dialog above the screen that has a
/// button of the same name.
pub fn press_last_button(app: &TakhteApp, label: &str) {
    ElementHandle::find_by_accessible_label(&app.window, label)
        .filter(|h| {
            h.size().width > 1.0
                && h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::Button)
        })
        .last()
        .unwrap_or_else(|| panic!("no button labelled '{label}'"))
        .invoke_accessible_default_action();
}

/// A real tap (pointer down and up) on a board square, through the board's touch area.
pub fn tap(app: &TakhteApp, square: &str) {
    ElementHandle::find_by_accessible_label(&app.window, square)
        .find(|h| h.size().width > 10.0)
        .unwrap_or_else(|| panic!("no square {square}"))
        .mock_single_click(PointerEventButton::Left);
}

/// The screen shown.
pub fn screen(app: &TakhteApp) -> String {
    app.window.global::<App>().get_screen().name().to_string()
}

/// Every move of the game on the board (whatever the review cursor), none without a game.
pub fn moves(app: &TakhteApp) -> Vec<String> {
    app.state
        .borrow()
        .controller
        .as_ref()
        .map(|c| c.session().moves().to_vec())
        .unwrap_or_default()
}

/// The view of the game on the board.
pub fn view(app: &TakhteApp) -> takhte::game::View {
    app.state.borrow().controller.as_ref().unwrap().view()
}

/// Lets the apps take in what the network brought until `done` (or fails after 20 s).
pub fn until(apps: &[&TakhteApp], what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        for a in apps {
            a.state.borrow_mut().net_tick();
        }
        if done() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
