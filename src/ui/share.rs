//! Sharing the game on the board as text (PGN for chess) and opening a game from text: the
//! adapter between the share sheet, the import screen and `game::share`. No rules here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use slint::{ComponentHandle, SharedString};

use crate::game::share::{self, ImportError, Players};
use crate::game::{Controller, Layout, Opponent, SystemRandomness};
use crate::rules::{GameKind, Side};

use super::{AppState, Screen, ShareProps};

/// Whether the game on the board can be shared: it has a move, and it is not an online
/// minesweeper game (its mines are the server's: this device's copy of the start position
/// has none, so its text would not be the game).
pub fn can_share(c: &Controller) -> bool {
    let online = c.is_online() || c.is_watching();
    !c.session().moves().is_empty() && (!online || c.session().kind() != GameKind::MineChess)
}

/// Now, as the seconds of the device's clock (its time zone): the PGN `Date` and the file
/// name say the day and time the player sees.
fn local_now() -> u64 {
    let now = crate::store::now_unix();
    now.saturating_add_signed(crate::i18n::local_offset(now) as i64)
}

/// A file name for a shared game: `takhte-chess-20261202-101500.pgn`.
fn file_name(kind: GameKind, unix: u64) -> String {
    let date = share::pgn_date(unix).replace('.', "");
    let s = unix % 86_400;
    format!(
        "takhte-{}-{date}-{:02}{:02}{:02}.pgn",
        kind.name(),
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Writes `text` to `dir/name` by way of a temporary file, so a full disk leaves no half file.
/// An existing file of that name is kept: a number is added to the new one.
fn write_new(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stem = name.trim_end_matches(".pgn");
    let mut path = dir.join(name);
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.pgn"));
        n += 1;
    }
    let tmp = path.with_extension("pgn.tmp");
    let written = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|_| path)
}

impl AppState {
    /// The players' names for the `White` and `Black` tags.
    fn share_players(&self, c: &Controller) -> Players {
        let mut names = [String::from("?"), String::from("?")];
        match c.opponent() {
            Opponent::Computer { level, human } => {
                names[human.opponent().index()] = format!("Takhte level {level}");
                if !self.settings.player_name.is_empty() {
                    names[human.index()] = self.settings.player_name.clone();
                }
            }
            Opponent::Online { .. } | Opponent::Watching => {
                if let Some(m) = self.online.current_mirror() {
                    for side in [Side::White, Side::Black] {
                        if let Some(name) = &m.seats[side.index()].name {
                            names[side.index()] = name.clone();
                        }
                    }
                }
            }
            Opponent::PassAndPlay => {
                for side in [Side::White, Side::Black] {
                    if let Some(name) = &c.session().names[side.index()] {
                        names[side.index()] = name.clone();
                    }
                }
            }
        }
        let [white, black] = names;
        Players { white, black }
    }

    /// Opens the share sheet with the text of the game on the board.
    pub fn share(&mut self) {
        let (Some(ui), Some(c)) = (self.ui(), self.controller.as_ref()) else {
            return;
        };
        if !can_share(c) {
            return;
        }
        let text = share::export(
            c.session(),
            &self.share_players(c),
            &share::pgn_date(local_now()),
        );
        let about = if c.session().kind() == GameKind::Chess {
            "share-about-pgn"
        } else {
            "share-about-record"
        };
        let share_ui = ui.global::<ShareProps>();
        share_ui.set_share_text(text.into());
        share_ui.set_share_about(self.tr(about).into());
        share_ui.set_share_note(SharedString::default());
        share_ui.set_share_open(true);
    }

    /// The share sheet's Copy was pressed (the sheet copied the text itself).
    pub fn share_copied(&mut self) {
        if let Some(ui) = self.ui() {
            ui.global::<ShareProps>()
                .set_share_note(self.tr("share-copied").into());
        }
    }

    /// "Send…": the shared text to the phone's share menu (where there is one).
    pub fn share_send(&mut self) {
        let (Some(send), Some(ui)) = (self.system_share.clone(), self.ui()) else {
            return;
        };
        let share_ui = ui.global::<ShareProps>();
        let text = share_ui.get_share_text();
        if text.is_empty() {
            return;
        }
        if !send(&self.tr("share-title"), &text) {
            share_ui.set_share_note(self.tr("share-send-failed").into());
        }
    }

    /// Where shared games are saved: the user's Downloads folder on a desktop that has one
    /// (when the app keeps its data in the usual place), else `exports/` in the data folder.
    pub fn export_dir(&self) -> PathBuf {
        let data = self.store.as_ref().map(|s| s.dir().to_path_buf());
        let usual = data
            .as_ref()
            .is_some_and(|d| *d == crate::store::Store::default_dir(None));
        if usual && !cfg!(target_os = "android") {
            if let Some(downloads) = directories::UserDirs::new()
                .and_then(|u| u.download_dir().map(Path::to_path_buf))
                .filter(|d| d.is_dir())
            {
                return downloads;
            }
        }
        data.unwrap_or_else(|| crate::store::Store::default_dir(None))
            .join("exports")
    }

    /// Saves the shared text as a `.pgn` file and says where (or why not).
    pub fn share_save(&mut self) {
        let (Some(ui), Some(c)) = (self.ui(), self.controller.as_ref()) else {
            return;
        };
        let share_ui = ui.global::<ShareProps>();
        let text = share_ui.get_share_text().to_string();
        let name = file_name(c.session().kind(), local_now());
        let note = match write_new(&self.export_dir(), &name, &text) {
            Ok(path) => self
                .i18n
                .tr_args("share-saved", &[("path", path.display().to_string())]),
            Err(e) if e.kind() == std::io::ErrorKind::StorageFull => self.tr("share-disk-full"),
            Err(e) => {
                let reason = match e.kind() {
                    std::io::ErrorKind::PermissionDenied
                    | std::io::ErrorKind::ReadOnlyFilesystem => self.tr("io-error-permission"),
                    std::io::ErrorKind::NotFound => self.tr("io-error-not-found"),
                    _ => self.tr("io-error-other"),
                };
                self.i18n
                    .tr_args("share-save-failed", &[("reason", reason)])
            }
        };
        share_ui.set_share_note(note.into());
    }

    /// Shows the import screen, empty of old errors.
    pub fn open_import(&mut self) {
        if let Some(ui) = self.ui() {
            ui.global::<ShareProps>()
                .set_import_error(SharedString::default());
        }
        self.open(Screen::Import);
    }

    /// Why a text is not a game, in the user's language.
    fn import_error_text(&self, e: &ImportError) -> String {
        match e {
            ImportError::Empty => self.tr("import-error-empty"),
            ImportError::Variant(name) => self
                .i18n
                .tr_args("import-error-variant", &[("name", name.clone())]),
            ImportError::Position(_) => self.tr("import-error-position"),
            ImportError::Unclosed => self.tr("import-error-unclosed"),
            ImportError::TooLong => self.i18n.tr_args(
                "import-error-too-long",
                &[(
                    "max",
                    self.i18n.number(crate::game::share::MAX_IMPORT_MOVES),
                )],
            ),
            ImportError::Move { numbered, text, .. } => {
                // The move number in this language's digits ("۲. Ke3"), the move as written.
                let number = numbered
                    .strip_suffix(text.as_str())
                    .unwrap_or("")
                    .trim_end();
                let move_text = format!("{} {text}", self.i18n.number(number));
                self.i18n
                    .tr_args("import-error-move", &[("move", move_text)])
            }
        }
    }

    /// Reads the pasted text and opens the game for review at its last move, as a game for
    /// two players on this device (kept with the saved games). A text that is not a game
    /// leaves the screen as it is, with the reason.
    pub fn import_game(&mut self) {
        let Some(ui) = self.ui() else { return };
        let share_ui = ui.global::<ShareProps>();
        let text = share_ui.get_import_text().to_string();
        let session = share::import(&text)
            .map_err(|e| self.import_error_text(&e))
            .and_then(|imported| {
                share::session_of(&imported).map_err(|_| self.tr("import-error-position"))
            });
        let session = match session {
            Ok(s) => s,
            Err(message) => {
                share_ui.set_import_error(message.into());
                return;
            }
        };
        let mut c = Controller::from_session(
            session,
            Opponent::PassAndPlay,
            Layout::Fixed,
            None,
            Arc::clone(&self.engine),
            Box::new(SystemRandomness),
        );
        let n = c.session().moves().len();
        c.review_to(n);
        self.save_now();
        self.last_game = None;
        // At its last move a finished game opens with its result sheet closed (install).
        self.install(c, None);
        self.game_from = Screen::Saved;
        share_ui.set_import_text(SharedString::default());
        share_ui.set_import_error(SharedString::default());
        self.open(Screen::Game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_shared_once_it_has_a_move() {
        let mut c = Controller::new(
            crate::game::NewGame::pass_and_play(GameKind::MineChess),
            Arc::new(crate::ai::Standard),
            Box::new(SystemRandomness),
        )
        .unwrap();
        assert!(!can_share(&c));
        c.drag(
            crate::rules::Square::parse("e2", 10).unwrap(),
            crate::rules::Square::parse("e4", 10).unwrap(),
        );
        assert!(
            can_share(&c),
            "a local minesweeper game is shared with its mines"
        );
    }

    #[test]
    fn file_names_and_no_overwrite() {
        assert_eq!(
            file_name(GameKind::Draughts, 1_764_671_705),
            "takhte-draughts-20251202-103505.pgn"
        );
        let dir = tempfile::tempdir().unwrap();
        let a = write_new(dir.path(), "x.pgn", "one").unwrap();
        let b = write_new(dir.path(), "x.pgn", "two").unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "one");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "two");
        assert!(b.ends_with("x-2.pgn"));
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary file left");
    }
}
