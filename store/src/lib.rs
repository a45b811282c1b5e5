//! Saved games, settings and statistics on the device, as JSON files.
//!
//! The store knows nothing of sessions or rules: it keeps plain serde records ([`GameRecord`],
//! [`Settings`], [`Stats`]) and the session layer converts itself to and from them.
//!
//! On disk, under the data folder ([`Store::default_dir`]):
//!
//! ```text
//! <dir>/settings.json           Settings
//! <dir>/stats.json              Stats
//! <dir>/games/<id>.json         one GameRecord per game (pretty JSON)
//! <dir>/**/.<name>.tmp-<pid>-<n> a write in progress (or left by a crash; cleaned on open)
//! ```
//!
//! Every write replaces its file atomically (temporary file, sync, rename), so a crash or a full
//! disk leaves the old file whole. A damaged file is reported as a [`Damage`] and skipped: it
//! never stops the others from loading, never panics, and can be deleted.
//!
//! ```
//! use takhte_store::{GameRecord, ModeRecord, Opponent, Store};
//! let folder = tempfile::tempdir().unwrap();
//! let store = Store::open(folder.path().to_path_buf()).unwrap();
//! let mode = ModeRecord { opponent: Opponent::PassAndPlay, level: None, human_side: None, layout: Some("rotate".into()) };
//! let mut game = GameRecord::new(store.new_id(1_796_000_000), "chess", mode, 1_796_000_000);
//! game.moves.push("e2e4".into());
//! game.cursor = 1;
//! store.save_game(&game).unwrap();
//! assert_eq!(store.load_game(&game.id).unwrap(), game);
//! assert_eq!(store.list_games().len(), 1);
//! ```

#![deny(missing_docs)]

#[cfg(not(target_arch = "wasm32"))]
mod atomic;
mod damage;
mod disk;
mod error;
mod id;

pub use id::civil_from_days;
mod record;

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::{SystemTime, UNIX_EPOCH};

use disk as fs;
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use damage::{Damage, DamageKind};
pub use error::StoreError;
pub use record::{
    ClockRecord, GameRecord, Identity, LastNewGame, ModeRecord, OnlineGame, OnlineGames, Opponent,
    ResultRecord, Settings, StatEntry, StatOutcome, Stats, SCHEMA_VERSION,
};

/// The environment variable that overrides the data folder (tests, portable installs).
pub const DATA_DIR_ENV: &str = "TAKHTE_DATA_DIR";

const GAMES: &str = "games";
const SETTINGS_FILE: &str = "settings.json";
const STATS_FILE: &str = "stats.json";
const IDENTITY_FILE: &str = "identity.json";
const ONLINE_FILE: &str = "online.json";
const EXTENSION: &str = ".json";

/// Longest single wait between two tries of [`Store::save_game_with_retry`].
const MAX_BACKOFF: Duration = Duration::from_millis(100);
/// The first wait between two tries; each later wait is one step longer.
const BACKOFF_STEP: Duration = Duration::from_millis(20);

/// Seconds since the Unix epoch now, for `created_unix`, `updated_unix` and [`Store::new_id`]
/// (0 if the system clock is before 1970).
pub fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// One file in `games/`, as found by [`Store::list_games`]: the game, or why it cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedGame {
    /// The game's id: its file name without `.json` (pass it to `load_game` or `delete_game`).
    pub id: String,
    /// The file name inside the `games/` folder, e.g. `"20261201-142233-7f3a.json"`.
    pub file: String,
    /// When the file was last modified, in seconds since the Unix epoch (0 if unknown).
    pub modified_unix: u64,
    /// The saved game, or the damage that keeps it from loading.
    pub entry: Result<GameRecord, Damage>,
}

impl ListedGame {
    /// The time the list is sorted on: `updated_unix` for a good game, the file's modification
    /// time for a damaged one.
    pub fn sort_time(&self) -> u64 {
        match &self.entry {
            Ok(game) => game.updated_unix,
            Err(_) => self.modified_unix,
        }
    }
}

/// The saved-games store: a data folder holding settings, statistics and one file per game.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens the store in `dir`, creating the folder and its `games/` folder if needed, and removes
    /// temporary files left by an earlier crash.
    pub fn open(dir: PathBuf) -> Result<Store, StoreError> {
        let games = dir.join(GAMES);
        fs::create_dir_all(&games).map_err(|e| StoreError::Open {
            path: games.clone(),
            message: e.to_string(),
        })?;
        if !fs::is_dir(&games) {
            return Err(StoreError::Open {
                path: games,
                message: "not a folder".to_string(),
            });
        }
        let store = Store { dir };
        store.clean_temp_files();
        Ok(store)
    }

    /// The data folder to use: `TAKHTE_DATA_DIR` if set and not empty, else the Android internal
    /// data path if given, else the platform's per-user data folder, else `./takhte-data`.
    pub fn default_dir(android_internal: Option<PathBuf>) -> PathBuf {
        Self::default_dir_from(std::env::var_os(DATA_DIR_ENV), android_internal)
    }

    /// [`Store::default_dir`] with the value of `TAKHTE_DATA_DIR` passed in rather than read from
    /// the environment, so it can be tested. Empty values count as unset.
    pub fn default_dir_from(
        env_value: Option<OsString>,
        android_internal: Option<PathBuf>,
    ) -> PathBuf {
        if let Some(value) = env_value.filter(|v| !v.is_empty()) {
            return PathBuf::from(value);
        }
        if let Some(path) = android_internal.filter(|p| !p.as_os_str().is_empty()) {
            return path;
        }
        match directories::ProjectDirs::from("org", "Takhte", "takhte") {
            Some(dirs) => dirs.data_dir().to_path_buf(),
            None => PathBuf::from("./takhte-data"),
        }
    }

    /// The data folder this store uses.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder holding one file per saved game.
    pub fn games_dir(&self) -> PathBuf {
        self.dir.join(GAMES)
    }

    /// A new game id for a game started at `now_unix`: `YYYYMMDD-HHMMSS-xxxx` (UTC time and four
    /// hex digits), file-name safe, sorting by time, and not yet used by a file in `games/`.
    pub fn new_id(&self, now_unix: u64) -> String {
        self.new_id_from(now_unix, id::next_suffix)
    }

    fn new_id_from(&self, now_unix: u64, mut next_suffix: impl FnMut() -> u16) -> String {
        let stamp = id::timestamp(now_unix);
        let games = self.games_dir();
        for _ in 0..=u16::MAX {
            let candidate = format!("{stamp}-{:04x}", next_suffix());
            if !fs::exists(&games.join(format!("{candidate}{EXTENSION}"))) {
                return candidate;
            }
        }
        // All 65 536 suffixes of this second are taken: add a longer, still sortable tail.
        format!("{stamp}-ffff-{:04x}{:04x}", next_suffix(), next_suffix())
    }

    /// Saves a game to `games/<id>.json`, replacing the old file atomically. The file always gets
    /// `schema` = [`SCHEMA_VERSION`], whatever the record says.
    ///
    /// On failure the old file is unchanged and the record is still the caller's: keep it and try
    /// again (see [`Store::save_game_with_retry`]).
    pub fn save_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        let path = self.game_path(&game.id)?;
        if game.cursor > game.moves.len() {
            return Err(StoreError::InvalidRecord {
                id: game.id.clone(),
                message: format!(
                    "cursor {} is past the {} moves",
                    game.cursor,
                    game.moves.len()
                ),
            });
        }
        if game.schema == SCHEMA_VERSION {
            write_json(&path, game)
        } else {
            write_json(
                &path,
                &GameRecord {
                    schema: SCHEMA_VERSION,
                    ..game.clone()
                },
            )
        }
    }

    /// [`Store::save_game`], tried up to `attempts` times (at least once) with a short growing
    /// pause between tries (20 ms, 40 ms, …, at most 100 ms). Only write failures are retried;
    /// the last error is returned. It blocks the calling thread while it waits.
    pub fn save_game_with_retry(&self, game: &GameRecord, attempts: u32) -> Result<(), StoreError> {
        let attempts = attempts.max(1);
        let mut attempt = 1;
        loop {
            match self.save_game(game) {
                Err(StoreError::Write { .. }) if attempt < attempts => {
                    pause((BACKOFF_STEP * attempt).min(MAX_BACKOFF));
                    attempt += 1;
                }
                result => return result,
            }
        }
    }

    /// Loads the game saved as `id`.
    ///
    /// The file name is the game's identity: if the `id` inside the file differs (a renamed file),
    /// the record is returned with `id` set to the file's, so saving it again writes the same file.
    /// Errors: [`StoreError::NotFound`], [`StoreError::Damaged`] (the file stays, and can be
    /// deleted), [`StoreError::InvalidId`].
    pub fn load_game(&self, id: &str) -> Result<GameRecord, StoreError> {
        let path = self.game_path(id)?;
        match fs::read(&path) {
            Ok(bytes) => decode_game(id, &bytes).map_err(|damage| StoreError::Damaged {
                id: id.to_string(),
                damage,
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(StoreError::NotFound { id: id.to_string() })
            }
            Err(e) => Err(StoreError::Damaged {
                id: id.to_string(),
                damage: Damage::unreadable(&e),
            }),
        }
    }

    /// Deletes the game saved as `id`, damaged or not.
    /// Errors: [`StoreError::NotFound`] if there is no such file, [`StoreError::Delete`] if it
    /// could not be removed, [`StoreError::InvalidId`].
    pub fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        let path = self.game_path(id)?;
        match fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(StoreError::NotFound { id: id.to_string() })
            }
            Err(e) => Err(StoreError::Delete {
                path,
                message: e.to_string(),
            }),
        }
    }

    /// Every saved game, newest first (by `updated_unix`; a damaged file by its modification
    /// time), each either loaded or with its [`Damage`]. Temporary and hidden files, folders and
    /// files not ending in `.json` are skipped. If the `games/` folder itself cannot be read the
    /// list is empty; use [`Store::try_list_games`] to see that error.
    pub fn list_games(&self) -> Vec<ListedGame> {
        self.try_list_games().unwrap_or_default()
    }

    /// [`Store::list_games`], but failing with [`StoreError::Open`] if the `games/` folder cannot
    /// be read at all (a damaged file is still never an error).
    pub fn try_list_games(&self) -> Result<Vec<ListedGame>, StoreError> {
        let games = self.games_dir();
        let entries = fs::list(&games).map_err(|e| StoreError::Open {
            path: games.clone(),
            message: e.to_string(),
        })?;
        let mut listed = Vec::new();
        for entry in entries {
            let file = entry.name;
            let Some(id) = file.strip_suffix(EXTENSION) else {
                continue;
            };
            if !id::is_valid(id) || is_temp_name(&file) {
                continue;
            }
            let (path, modified_unix) = (entry.path, entry.modified_unix);
            if entry.is_dir {
                continue;
            }
            let entry = match fs::read(&path) {
                Ok(bytes) => decode_game(id, &bytes),
                Err(e) => Err(Damage::unreadable(&e)),
            };
            listed.push(ListedGame {
                id: id.to_string(),
                file: file.clone(),
                modified_unix,
                entry,
            });
        }
        listed.sort_by(|a, b| {
            b.sort_time()
                .cmp(&a.sort_time())
                .then_with(|| b.id.cmp(&a.id))
        });
        Ok(listed)
    }

    /// The player token for online play, made (and saved) on first use. A damaged or missing
    /// file gives a new token; a token that cannot be saved is still returned (it then lasts
    /// until the app closes).
    pub fn identity(&self) -> Identity {
        let path = self.dir.join(IDENTITY_FILE);
        if let Ok(bytes) = fs::read(&path) {
            if let Ok(id) = serde_json::from_slice::<Identity>(&bytes) {
                if takhte_protocol::token::is_valid(&id.token) {
                    return id;
                }
            }
        }
        let id = Identity {
            token: takhte_protocol::token::generate(),
        };
        let _ = write_json(&path, &id);
        id
    }

    /// Makes `id` the player of this device (a recovery code entered): saved atomically, or
    /// an error and the old identity kept.
    pub fn set_identity(&self, id: &Identity) -> Result<(), StoreError> {
        write_json(&self.dir.join(IDENTITY_FILE), id)
    }

    /// The online games remembered on the device (a damaged file gives none).
    pub fn online_games(&self) -> OnlineGames {
        self.load_or_default::<OnlineGames>(ONLINE_FILE).0
    }

    /// Saves the online games remembered on the device.
    pub fn save_online_games(&self, games: &OnlineGames) -> Result<(), StoreError> {
        write_json(&self.dir.join(ONLINE_FILE), games)
    }

    /// The settings, or the defaults if none were saved yet. A damaged settings file gives the
    /// defaults plus the [`Damage`], never an error; missing fields take default values.
    pub fn load_settings(&self) -> (Settings, Option<Damage>) {
        self.load_or_default(SETTINGS_FILE)
    }

    /// Saves the settings atomically to `settings.json` (with `schema` = [`SCHEMA_VERSION`]).
    pub fn save_settings(&self, settings: &Settings) -> Result<(), StoreError> {
        write_json(
            &self.dir.join(SETTINGS_FILE),
            &Settings {
                schema: SCHEMA_VERSION,
                ..settings.clone()
            },
        )
    }

    /// The statistics, or empty ones if none were saved yet. A damaged statistics file gives
    /// empty statistics plus the [`Damage`], never an error.
    pub fn load_stats(&self) -> (Stats, Option<Damage>) {
        self.load_or_default(STATS_FILE)
    }

    /// Saves the statistics atomically to `stats.json` (with `schema` = [`SCHEMA_VERSION`]).
    pub fn save_stats(&self, stats: &Stats) -> Result<(), StoreError> {
        write_json(
            &self.dir.join(STATS_FILE),
            &Stats {
                schema: SCHEMA_VERSION,
                entries: stats.entries.clone(),
            },
        )
    }

    /// Removes temporary files left by a crash mid-write (in the data folder and in `games/`),
    /// returning how many were removed. [`Store::open`] does this already; failures are ignored.
    pub fn clean_temp_files(&self) -> usize {
        fs::remove_temp_files(&self.dir) + fs::remove_temp_files(&self.games_dir())
    }

    fn game_path(&self, id: &str) -> Result<PathBuf, StoreError> {
        if id::is_valid(id) {
            Ok(self.games_dir().join(format!("{id}{EXTENSION}")))
        } else {
            Err(StoreError::InvalidId { id: id.to_string() })
        }
    }

    fn load_or_default<T: DeserializeOwned + Default>(&self, name: &str) -> (T, Option<Damage>) {
        match fs::read(&self.dir.join(name)) {
            Ok(bytes) => match damage::decode(&bytes) {
                Ok(value) => (value, None),
                Err(damage) => (T::default(), Some(damage)),
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => (T::default(), None),
            Err(e) => (T::default(), Some(Damage::unreadable(&e))),
        }
    }
}

/// Decodes a game file and checks what serde cannot: the cursor lies within the moves. The file
/// name gives the id.
fn decode_game(id: &str, bytes: &[u8]) -> Result<GameRecord, Damage> {
    let mut game: GameRecord = damage::decode(bytes)?;
    if game.cursor > game.moves.len() {
        return Err(Damage::new(
            DamageKind::WrongShape,
            format!(
                "wrong shape: cursor {} is past the {} saved moves",
                game.cursor,
                game.moves.len()
            ),
        ));
    }
    if game.id != id {
        game.id = id.to_string();
    }
    Ok(game)
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Write {
        path: path.to_path_buf(),
        message: format!("cannot encode: {e}"),
    })?;
    bytes.push(b'\n');
    fs::write(path, &bytes)
}

/// Whether a file name is a write in progress (never a saved game).
fn is_temp_name(name: &str) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return atomic::is_temp_name(name);
    #[cfg(target_arch = "wasm32")]
    return name.starts_with('.');
}

/// Waits a moment between two tries; the browser's page cannot sleep, so there it tries again
/// at once.
fn pause(d: Duration) {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(d);
    #[cfg(target_arch = "wasm32")]
    let _ = d;
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn game(store: &Store, now: u64) -> GameRecord {
        let mode = ModeRecord {
            opponent: Opponent::Computer,
            level: Some(2),
            human_side: Some("black".into()),
            layout: None,
        };
        GameRecord::new(store.new_id(now), "draughts", mode, now)
    }

    #[test]
    fn new_ids_are_unique_safe_and_sortable() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(folder.path().to_path_buf()).unwrap();
        let a = store.new_id(1_796_000_000);
        let b = store.new_id(1_796_000_000);
        let later = store.new_id(1_796_000_001);
        assert_ne!(a, b);
        assert!(a < later && b < later);
        assert_eq!(a.len(), "20261201-142233-7f3a".len());
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit() || c == b'-'), "{a}");
    }

    #[test]
    fn new_id_skips_ids_already_on_disk() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(folder.path().to_path_buf()).unwrap();
        let now = 1_796_000_000;
        for taken in ["0000", "0001"] {
            fs::write(
                store
                    .games_dir()
                    .join(format!("{}-{taken}.json", id::timestamp(now))),
                b"{}",
            )
            .unwrap();
        }
        let mut suffixes = 0u16..;
        let fresh = store.new_id_from(now, || suffixes.next().unwrap());
        assert_eq!(fresh, format!("{}-0002", id::timestamp(now)));
    }

    #[test]
    fn save_refuses_bad_ids_and_cursors() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(folder.path().to_path_buf()).unwrap();
        let mut bad = game(&store, 10);
        bad.id = "../escape".into();
        assert_eq!(
            store.save_game(&bad),
            Err(StoreError::InvalidId {
                id: "../escape".into()
            })
        );
        let mut past = game(&store, 10);
        past.cursor = 1;
        assert!(matches!(
            store.save_game(&past),
            Err(StoreError::InvalidRecord { .. })
        ));
        assert!(store.list_games().is_empty());
    }

    #[test]
    fn the_file_name_is_the_id() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(folder.path().to_path_buf()).unwrap();
        let saved = game(&store, 10);
        store.save_game(&saved).unwrap();
        let old = store.games_dir().join(format!("{}.json", saved.id));
        fs::rename(old, store.games_dir().join("renamed.json")).unwrap();
        assert_eq!(store.load_game("renamed").unwrap().id, "renamed");
    }

    #[test]
    fn retry_gives_up_after_the_attempts() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(folder.path().to_path_buf()).unwrap();
        let saved = game(&store, 10);
        // A folder where the file should be: every rename fails, as root too.
        fs::create_dir(store.games_dir().join(format!("{}.json", saved.id))).unwrap();
        fs::write(
            store
                .games_dir()
                .join(format!("{}.json", saved.id))
                .join("keep"),
            b"x",
        )
        .unwrap();
        let started = std::time::Instant::now();
        assert!(matches!(
            store.save_game_with_retry(&saved, 3),
            Err(StoreError::Write { .. })
        ));
        assert!(started.elapsed() >= Duration::from_millis(60));
        let left: Vec<_> = fs::read_dir(store.games_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            [OsString::from(format!("{}.json", saved.id))],
            "no temporary file is left behind"
        );
    }
}
