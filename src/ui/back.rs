//! What the system back button (Android) or Escape does on each screen.

/// What the system back button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAction {
    /// Go to this screen (by its name, [`super::Screen::name`]).
    GoTo(&'static str),
    /// On the home screen: ask before leaving the app.
    AskToLeave,
    /// A dialog is open (the leave question, the share sheet): close it (stay).
    CloseDialog,
}

/// The back button on `screen` (with a dialog open or not), the game on the board having been
/// opened from `game_from`: an open dialog closes; the game goes back where it was opened
/// from (the saved games, for a saved or imported game); opening a game from text goes back
/// to the saved games; every other screen goes back to home; home asks before leaving; a
/// second back closes the question.
///
/// ```
/// use takhte::ui::back::{back_action, BackAction};
/// use takhte::ui::Screen;
/// assert_eq!(back_action(Screen::Game, Screen::Home, false), BackAction::GoTo("home"));
/// assert_eq!(back_action(Screen::Game, Screen::Saved, false), BackAction::GoTo("saved"));
/// assert_eq!(back_action(Screen::Home, Screen::Home, false), BackAction::AskToLeave);
/// assert_eq!(back_action(Screen::Home, Screen::Home, true), BackAction::CloseDialog);
/// assert_eq!(back_action(Screen::Import, Screen::Home, false), BackAction::GoTo("saved"));
/// ```
pub fn back_action(
    screen: super::Screen,
    game_from: super::Screen,
    dialog_open: bool,
) -> BackAction {
    use super::Screen;
    if dialog_open {
        return BackAction::CloseDialog;
    }
    match screen {
        Screen::Home => BackAction::AskToLeave,
        Screen::Import => BackAction::GoTo(Screen::Saved.name()),
        Screen::Player | Screen::Leaderboard => BackAction::GoTo(Screen::Online.name()),
        Screen::Game => BackAction::GoTo(game_from.name()),
        _ => BackAction::GoTo(Screen::Home.name()),
    }
}
