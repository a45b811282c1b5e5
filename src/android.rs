//! What the Android app does that the desktop does not, as plain logic that also runs (and is
//! tested) on the desktop: where data lives, what the back button does, and saving when Android
//! pauses or stops the app. `android_main` in `lib.rs` only connects these to Slint's Android
//! backend.

use std::path::PathBuf;

/// What the system back button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAction {
    /// Go to this screen.
    GoTo(&'static str),
    /// On the home screen: ask before leaving the app.
    AskToLeave,
    /// A dialog is open (the leave question, the share sheet): close it (stay).
    CloseDialog,
}

/// The back button on `screen` (with a dialog open or not): an open dialog closes; opening a
/// game from text goes back to the saved games; every other screen goes back to home; home asks
/// before leaving; a second back closes the question.
///
/// ```
/// use takhte::android::{back_action, BackAction};
/// assert_eq!(back_action("game", false), BackAction::GoTo("home"));
/// assert_eq!(back_action("home", false), BackAction::AskToLeave);
/// assert_eq!(back_action("home", true), BackAction::CloseDialog);
/// assert_eq!(back_action("import", false), BackAction::GoTo("saved"));
/// ```
pub fn back_action(screen: &str, dialog_open: bool) -> BackAction {
    if dialog_open {
        return BackAction::CloseDialog;
    }
    match screen {
        "home" | "" => BackAction::AskToLeave,
        "import" => BackAction::GoTo("saved"),
        _ => BackAction::GoTo("home"),
    }
}

/// The data folder on Android: `TAKHTE_DATA_DIR` if set, else the app's internal data path
/// (what `AndroidApp::internal_data_path` returns), else the desktop default.
pub fn data_dir(internal_data_path: Option<PathBuf>) -> PathBuf {
    crate::store::Store::default_dir(internal_data_path)
}

/// An Android lifecycle event the app reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// The app lost the foreground (`MainEvent::Pause`).
    Pause,
    /// Android asks the app to save its state (`MainEvent::SaveState`).
    SaveState,
    /// The app is stopped; it may be killed next (`MainEvent::Stop`).
    Stop,
    /// The app is back in the foreground (`MainEvent::Resume`).
    Resume,
}

/// Reacts to a lifecycle event: pausing, saving or stopping saves the game and stops the
/// clock; resuming starts the clock again.
pub fn on_lifecycle(state: &mut crate::ui::AppState, event: Lifecycle) {
    match event {
        Lifecycle::Pause | Lifecycle::SaveState | Lifecycle::Stop => state.pause(),
        Lifecycle::Resume => state.resume_app(),
    }
}
