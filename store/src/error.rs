//! What can go wrong when using the store, and what the caller can do about it.

use std::fmt;
use std::path::PathBuf;

use super::damage::Damage;

/// An error from the store. Every variant keeps the record the caller had untouched: nothing in
/// memory is lost, and the caller may simply try again later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The data folder (or its `games/` folder) could not be created or opened.
    /// The caller can fall back to another folder or keep playing without saving.
    Open {
        /// The folder that could not be created.
        path: PathBuf,
        /// The operating system's explanation.
        message: String,
    },
    /// A file could not be written (read-only folder, full disk, …). The previous file, if any,
    /// is unchanged; the caller keeps the record in memory and retries (e.g. after the next move).
    Write {
        /// The file that was being saved.
        path: PathBuf,
        /// Which step failed and the operating system's explanation.
        message: String,
    },
    /// A saved game could not be deleted; it is still on disk.
    Delete {
        /// The file that could not be removed.
        path: PathBuf,
        /// The operating system's explanation.
        message: String,
    },
    /// There is no saved game with this id (it was deleted, or never saved).
    NotFound {
        /// The id asked for.
        id: String,
    },
    /// The saved game's file is damaged and cannot be loaded; it stays on disk, and can be
    /// deleted with [`Store::delete_game`](super::Store::delete_game).
    Damaged {
        /// The id of the damaged game.
        id: String,
        /// What is wrong with the file.
        damage: Damage,
    },
    /// The id cannot be a file name (empty, starts with a dot, or holds a path separator).
    /// Ids from [`Store::new_id`](super::Store::new_id) are always valid.
    InvalidId {
        /// The id given.
        id: String,
    },
    /// The record is inconsistent and was not saved (a caller bug), e.g. a cursor past the moves.
    InvalidRecord {
        /// The id of the record.
        id: String,
        /// What is inconsistent.
        message: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Open { path, message } => write!(
                f,
                "cannot use the data folder {}: {message}; choose another folder or play without saving",
                path.display()
            ),
            StoreError::Write { path, message } => write!(
                f,
                "could not save {}: {message}; the previous copy is unchanged — keep the game in memory and \
                 try again (is the disk full or the folder read-only?)",
                path.display()
            ),
            StoreError::Delete { path, message } => {
                write!(f, "could not delete {}: {message}; the file is still there", path.display())
            }
            StoreError::NotFound { id } => write!(f, "no saved game with id {id:?}"),
            StoreError::Damaged { id, damage } => write!(
                f,
                "saved game {id:?} is damaged ({damage}); it can only be deleted"
            ),
            StoreError::InvalidId { id } => write!(
                f,
                "{id:?} cannot be a saved game id (empty, starts with a dot, or holds a path separator); use Store::new_id"
            ),
            StoreError::InvalidRecord { id, message } => {
                write!(f, "saved game {id:?} was not saved: {message}")
            }
        }
    }
}

impl std::error::Error for StoreError {}
