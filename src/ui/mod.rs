//! The app's UI adapters: the Slint window (compiled from `ui/*.slint`), connected to the game
//! controller, the store and the translations. No rules logic here.

#![allow(missing_docs)]
slint::include_modules!();

pub mod app;
pub mod back;
mod board;
pub mod board_model;
#[cfg(not(target_arch = "wasm32"))]
pub mod demo;
mod home;
pub mod images;
mod new_game;
pub mod online;
mod ratings;
mod rules;
mod saved;
#[cfg(not(target_arch = "wasm32"))]
pub mod screenshot;
mod settings;
pub mod share;
mod stats;

pub use app::{AppState, TakhteApp};

/// The screens' names (Slint's `Screen` is the typed value; a name is for the command line,
/// the tests and the logs).
const SCREENS: [(Screen, &str); 15] = [
    (Screen::Home, "home"),
    (Screen::NewGame, "new-game"),
    (Screen::Game, "game"),
    (Screen::Saved, "saved"),
    (Screen::Settings, "settings"),
    (Screen::Rules, "rules"),
    (Screen::Stats, "stats"),
    (Screen::Import, "import"),
    (Screen::Online, "online"),
    (Screen::OnlineCreate, "online-create"),
    (Screen::OnlineLobby, "online-lobby"),
    (Screen::OnlineWaiting, "online-waiting"),
    (Screen::OnlineLive, "online-live"),
    (Screen::Player, "player"),
    (Screen::Leaderboard, "leaderboard"),
];

impl Screen {
    /// The screen's name: `home`, `new-game`, `game`, `online-lobby`…
    pub fn name(self) -> &'static str {
        SCREENS
            .iter()
            .find(|(s, _)| *s == self)
            .map_or("home", |(_, n)| n)
    }

    /// The screen of a name, if there is one.
    pub fn from_name(name: &str) -> Option<Screen> {
        SCREENS.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }
}

impl PartialEq<&str> for Screen {
    /// Whether this is the screen of that name.
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

impl From<&str> for Screen {
    /// The screen of a name; home for a name that is none.
    fn from(name: &str) -> Screen {
        Screen::from_name(name).unwrap_or(Screen::Home)
    }
}

/// The translation key of a side's name.
pub(crate) fn side_key(side: crate::rules::Side) -> &'static str {
    match side {
        crate::rules::Side::White => "side-white",
        crate::rules::Side::Black => "side-black",
    }
}
