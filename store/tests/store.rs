//! The saved-games store on a real folder: round trips, ordering, every kind of damage, leftover
//! temporary files, failed writes, settings fallbacks and the choice of data folder.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use takhte_store::{
    ClockRecord, DamageKind, GameRecord, ListedGame, ModeRecord, Opponent, ResultRecord, Settings,
    StatOutcome, Stats, Store, StoreError, SCHEMA_VERSION,
};
use tempfile::TempDir;

fn open() -> (TempDir, Store) {
    let folder = tempfile::tempdir().unwrap();
    let store = Store::open(folder.path().to_path_buf()).unwrap();
    (folder, store)
}

fn computer() -> ModeRecord {
    ModeRecord {
        opponent: Opponent::Computer,
        level: Some(4),
        human_side: Some("white".into()),
        layout: None,
    }
}

/// A game with every field filled in, last saved at `updated`.
fn full_game(store: &Store, kind: &str, updated: u64) -> GameRecord {
    let mut game = GameRecord::new(store.new_id(updated), kind, computer(), updated - 60);
    game.start_position = Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into());
    game.seed = 0xdead_beef_cafe;
    game.start_rolls = vec![(3, 5), (6, 6)];
    game.moves = vec![
        "e2e4".into(),
        "3:b2c4".into(),
        "1:-".into(),
        "c3xc5xe5".into(),
        "e2^".into(),
    ];
    game.cursor = 3;
    game.clock = Some(ClockRecord {
        base_ms: 300_000,
        increment_ms: 2_000,
        white_ms: 281_500,
        black_ms: 299_000,
        running: true,
    });
    game.result = Some(ResultRecord {
        winner: Some("black".into()),
        reason: "time".into(),
    });
    game.updated_unix = updated;
    game
}

fn game_file(store: &Store, id: &str) -> PathBuf {
    store.games_dir().join(format!("{id}.json"))
}

fn ids(list: &[ListedGame]) -> Vec<&str> {
    list.iter().map(|g| g.id.as_str()).collect()
}

#[test]
fn a_game_saves_and_loads_back_the_same() {
    let (_folder, store) = open();
    let game = full_game(&store, "dice-chess", 1_796_000_000);
    store.save_game(&game).unwrap();
    assert_eq!(store.load_game(&game.id).unwrap(), game);

    let text = fs::read_to_string(game_file(&store, &game.id)).unwrap();
    assert!(
        text.starts_with("{\n  \"schema\": 1,\n  \"id\": "),
        "pretty JSON, schema first:\n{text}"
    );
    assert!(text.contains("\"opponent\": \"computer\""), "{text}");
    assert!(text.ends_with("}\n"));

    // Saving again replaces the file; the schema written is always the current one.
    let mut later = game.clone();
    later.cursor = 5;
    later.schema = 0;
    later.updated_unix += 10;
    store.save_game(&later).unwrap();
    assert_eq!(
        store.load_game(&game.id).unwrap(),
        GameRecord {
            schema: SCHEMA_VERSION,
            ..later
        }
    );
    assert_eq!(store.list_games().len(), 1);
}

#[test]
fn every_kind_and_mode_round_trips() {
    let (_folder, store) = open();
    let pass = ModeRecord {
        opponent: Opponent::PassAndPlay,
        level: None,
        human_side: None,
        layout: Some("face-to-face".into()),
    };
    for (n, kind) in ["chess", "dice-chess", "draughts", "mine-chess"]
        .into_iter()
        .enumerate()
    {
        for mode in [computer(), pass.clone()] {
            let mut game =
                GameRecord::new(store.new_id(1000 + n as u64), kind, mode, 1000 + n as u64);
            game.moves = (0..n).map(|i| format!("m{i}")).collect();
            game.cursor = n / 2;
            store.save_game(&game).unwrap();
            assert_eq!(store.load_game(&game.id).unwrap(), game);
        }
    }
    assert_eq!(store.list_games().len(), 8);
    assert!(store.list_games().iter().all(|g| g.entry.is_ok()));
}

#[test]
fn settings_and_stats_round_trip() {
    let (_folder, store) = open();
    assert_eq!(
        store.load_settings(),
        (Settings::default(), None),
        "nothing saved yet: the defaults"
    );
    assert_eq!(store.load_stats(), (Stats::default(), None));

    let settings = Settings {
        language: Some("fa".into()),
        theme: "walnut".into(),
        sound: false,
        show_legal_moves: false,
        coordinates: false,
        animation_speed: "slow".into(),
        pass_and_play_rotation: "face-to-face".into(),
        ..Settings::default()
    };
    store.save_settings(&settings).unwrap();
    assert_eq!(store.load_settings(), (settings, None));

    let mut stats = Stats::default();
    stats.record("chess", "computer", Some(3), StatOutcome::Win);
    stats.record("chess", "computer", Some(3), StatOutcome::Loss);
    stats.record("mine-chess", "pass-and-play", None, StatOutcome::Draw);
    store.save_stats(&stats).unwrap();
    let (loaded, damage) = store.load_stats();
    assert_eq!(damage, None);
    assert_eq!(loaded, stats);
    let chess = loaded.get("chess", "computer", Some(3)).unwrap();
    assert_eq!((chess.wins, chess.draws, chess.losses), (1, 0, 1));
    assert!(
        store.dir().join("settings.json").is_file() && store.dir().join("stats.json").is_file()
    );
}

#[test]
fn the_list_is_newest_first_and_delete_removes_a_game() {
    let (_folder, store) = open();
    let old = full_game(&store, "chess", 1_000_100);
    let newest = full_game(&store, "draughts", 1_000_300);
    let middle = full_game(&store, "mine-chess", 1_000_200);
    for game in [&old, &newest, &middle] {
        store.save_game(game).unwrap();
    }
    // A damaged file sorts by its modification time, here between `middle` and `newest`.
    let damaged = game_file(&store, "damaged");
    fs::write(&damaged, b"{").unwrap();
    let mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_250);
    fs::File::options()
        .write(true)
        .open(&damaged)
        .unwrap()
        .set_modified(mtime)
        .unwrap();

    let list = store.list_games();
    assert_eq!(
        ids(&list),
        [
            newest.id.as_str(),
            "damaged",
            middle.id.as_str(),
            old.id.as_str()
        ]
    );
    assert_eq!(list[0].file, format!("{}.json", newest.id));
    assert_eq!(list[0].entry.as_ref().unwrap(), &newest);
    assert_eq!(list[1].modified_unix, 1_000_250);

    store.delete_game(&middle.id).unwrap();
    assert_eq!(
        store.load_game(&middle.id),
        Err(StoreError::NotFound {
            id: middle.id.clone()
        })
    );
    assert_eq!(
        store.delete_game(&middle.id),
        Err(StoreError::NotFound {
            id: middle.id.clone()
        })
    );
    assert_eq!(
        ids(&store.list_games()),
        [newest.id.as_str(), "damaged", old.id.as_str()]
    );
    assert!(matches!(
        store.delete_game("../settings"),
        Err(StoreError::InvalidId { .. })
    ));
}

/// Writes a good game as JSON, lets `change` spoil it, and returns the bytes.
fn spoiled(game: &GameRecord, change: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let mut value = serde_json::to_value(game).unwrap();
    change(&mut value);
    serde_json::to_vec_pretty(&value).unwrap()
}

#[test]
fn each_kind_of_damage_is_listed_with_its_reason_and_can_be_deleted() {
    let (_folder, store) = open();
    let good_a = full_game(&store, "chess", 2_000_000);
    let good_b = full_game(&store, "draughts", 2_000_001);
    store.save_game(&good_a).unwrap();
    store.save_game(&good_b).unwrap();
    let good_json = fs::read(game_file(&store, &good_a.id)).unwrap();

    let cases: Vec<(&str, Vec<u8>, DamageKind, &str)> = vec![
        ("empty", Vec::new(), DamageKind::Empty, "empty file"),
        (
            "truncated",
            good_json[..good_json.len() / 2].to_vec(),
            DamageKind::Truncated,
            "truncated: the JSON ends early",
        ),
        (
            "binary",
            vec![0x89, b'P', b'N', b'G', 0x00, 0xff, 0xfe, 0x13],
            DamageKind::NotJson,
            "not JSON (expected value at line 1 column 1)",
        ),
        (
            "newer",
            spoiled(&good_a, |v| v["schema"] = 7.into()),
            DamageKind::NewerSchema(7),
            "saved by a newer version (schema 7); this version reads schema 1",
        ),
        (
            "missing",
            spoiled(&good_a, |v| {
                v.as_object_mut().unwrap().remove("moves");
            }),
            DamageKind::WrongShape,
            "wrong shape: missing field `moves`",
        ),
        (
            "wrongtype",
            spoiled(&good_a, |v| v["seed"] = "lots".into()),
            DamageKind::WrongShape,
            "wrong shape: invalid type: string \"lots\", expected u64",
        ),
        (
            "cursor",
            spoiled(&good_a, |v| v["cursor"] = 99.into()),
            DamageKind::WrongShape,
            "cursor 99 is past the 5 saved moves",
        ),
    ];
    for (id, bytes, _, _) in &cases {
        fs::write(game_file(&store, id), bytes).unwrap();
    }

    let list = store.list_games();
    assert_eq!(list.len(), cases.len() + 2);
    for good in [&good_a, &good_b] {
        let listed = list.iter().find(|g| g.id == good.id).unwrap();
        assert_eq!(
            listed.entry.as_ref(),
            Ok(good),
            "a good file beside damaged ones still loads"
        );
        assert_eq!(store.load_game(&good.id).as_ref(), Ok(good));
    }
    for (id, _, kind, reason) in &cases {
        let listed = list.iter().find(|g| g.id == *id).unwrap();
        let damage = listed.entry.as_ref().unwrap_err();
        assert_eq!(damage.kind, *kind, "{id}: {}", damage.reason);
        assert!(
            damage.reason.contains(reason),
            "{id}: {:?} should contain {reason:?}",
            damage.reason
        );
        match store.load_game(id) {
            Err(StoreError::Damaged {
                id: damaged_id,
                damage: loaded,
            }) => {
                assert_eq!(&damaged_id, id);
                assert_eq!(&loaded, damage);
            }
            other => panic!("{id}: expected Damaged, got {other:?}"),
        }
    }
    // serde's position survives in the reasons for broken JSON and wrong shapes.
    for id in ["truncated", "wrongtype"] {
        let damage = list
            .iter()
            .find(|g| g.id == id)
            .unwrap()
            .entry
            .as_ref()
            .unwrap_err();
        assert!(
            damage.reason.contains(" line ") && damage.reason.contains(" column "),
            "{}",
            damage.reason
        );
    }

    for (id, _, _, _) in &cases {
        store.delete_game(id).unwrap();
        assert!(!game_file(&store, id).exists());
    }
    let mut left = ids(&store.list_games())
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    left.sort();
    let mut expected = vec![good_a.id.clone(), good_b.id.clone()];
    expected.sort();
    assert_eq!(left, expected);
}

#[test]
fn leftover_temporary_files_are_ignored_and_cleaned_on_open() {
    let (folder, store) = open();
    let game = full_game(&store, "chess", 3_000_000);
    store.save_game(&game).unwrap();
    // What a crash mid-write leaves: a half-written temporary file beside the real one.
    let leftovers = [
        store.games_dir().join(format!(".{}.json.tmp-0-7", game.id)),
        store.games_dir().join(".other.json.tmp-0-8"),
        store.dir().join(".settings.json.tmp-0-9"),
    ];
    for path in &leftovers {
        fs::write(path, b"{\"schema\": 1, \"id\"").unwrap();
    }
    fs::write(store.games_dir().join("notes.txt"), b"not a game").unwrap();

    assert_eq!(ids(&store.list_games()), [game.id.as_str()]);
    assert_eq!(store.load_settings(), (Settings::default(), None));

    let reopened = Store::open(folder.path().to_path_buf()).unwrap();
    for path in &leftovers {
        assert!(!path.exists(), "{} should be cleaned", path.display());
    }
    assert_eq!(reopened.load_game(&game.id).unwrap(), game);
    assert!(
        store.games_dir().join("notes.txt").exists(),
        "only our temporary files are removed"
    );
    assert_eq!(reopened.clean_temp_files(), 0);
}

/// Sets a folder's permission bits back when dropped, even if the test fails half-way.
struct RestoreMode(PathBuf);

impl Drop for RestoreMode {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o755));
        }
    }
}

fn assert_write_error(result: Result<(), StoreError>, path: &Path) {
    match result {
        Err(StoreError::Write {
            path: failed,
            message,
        }) => {
            assert_eq!(failed, path);
            assert!(!message.is_empty());
            let shown = StoreError::Write {
                path: failed,
                message,
            }
            .to_string();
            assert!(
                shown.contains("could not save") && shown.contains("try again"),
                "{shown}"
            );
        }
        other => panic!(
            "expected StoreError::Write for {}, got {other:?}",
            path.display()
        ),
    }
}

fn names_in(folder: &Path) -> Vec<OsString> {
    let mut names: Vec<OsString> = fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn a_failed_write_returns_write_error_and_keeps_the_old_file() {
    use std::os::unix::fs::PermissionsExt;

    let (folder, store) = open();
    let game = full_game(&store, "chess", 4_000_000);
    store.save_game(&game).unwrap();
    let path = game_file(&store, &game.id);
    let before = fs::read(&path).unwrap();
    let mut changed = game.clone();
    changed.cursor = 5;
    changed.updated_unix += 1;

    let games = store.games_dir();
    let restore = RestoreMode(games.clone());
    fs::set_permissions(&games, fs::Permissions::from_mode(0o555)).unwrap();
    let probe = games.join("probe");
    let is_root = fs::write(&probe, b"").is_ok();

    if !is_root {
        assert_write_error(store.save_game(&changed), &path);
        assert_write_error(store.save_game_with_retry(&changed, 3), &path);
        assert_eq!(
            fs::read(&path).unwrap(),
            before,
            "the old file is unchanged"
        );
        drop(restore);
        assert_eq!(store.load_game(&game.id).unwrap(), game);
        assert_eq!(
            names_in(&games),
            [OsString::from(format!("{}.json", game.id))],
            "no temporary file left"
        );
        // The caller kept the record: once the folder is writable again, the same save succeeds.
        store.save_game(&changed).unwrap();
        assert_eq!(store.load_game(&game.id).unwrap(), changed);
        return;
    }

    // Root ignores permission bits, so the folder above was still writable. Make writes fail in
    // ways that stop root too.
    fs::remove_file(&probe).unwrap();
    drop(restore);

    // 1. The target path is a non-empty folder: the rename over it fails.
    let blocked = full_game(&store, "draughts", 4_000_100);
    let blocked_path = game_file(&store, &blocked.id);
    fs::create_dir(&blocked_path).unwrap();
    fs::write(blocked_path.join("inside"), b"keep me").unwrap();
    assert_write_error(store.save_game(&blocked), &blocked_path);
    assert_write_error(store.save_game_with_retry(&blocked, 3), &blocked_path);
    assert_eq!(fs::read(blocked_path.join("inside")).unwrap(), b"keep me");
    assert_eq!(
        fs::read(&path).unwrap(),
        before,
        "the other game's file is unchanged"
    );
    let mut expected = vec![
        OsString::from(format!("{}.json", blocked.id)),
        OsString::from(format!("{}.json", game.id)),
    ];
    expected.sort();
    assert_eq!(names_in(&games), expected, "no temporary file left");
    assert_eq!(
        ids(&store.list_games()),
        [game.id.as_str()],
        "a folder is not listed as a game"
    );

    // 2. The games folder has become a regular file: nothing can be created under it.
    fs::remove_dir_all(&games).unwrap();
    fs::write(&games, b"not a folder").unwrap();
    assert_write_error(store.save_game(&changed), &path);
    assert!(store.list_games().is_empty());
    assert!(matches!(
        store.try_list_games(),
        Err(StoreError::Open { .. })
    ));

    // 3. A store pointed under a regular file cannot even open.
    let under_file = folder.path().join("games").join("store");
    assert!(matches!(
        Store::open(under_file),
        Err(StoreError::Open { .. })
    ));

    // The caller kept the record: once the folder is back, the same save succeeds.
    fs::remove_file(&games).unwrap();
    store.save_game(&changed).unwrap();
    assert_eq!(store.load_game(&changed.id).unwrap(), changed);
}

#[test]
fn save_with_retry_succeeds_on_a_healthy_folder() {
    let (_folder, store) = open();
    let game = full_game(&store, "mine-chess", 5_000_000);
    store.save_game_with_retry(&game, 3).unwrap();
    store.save_game_with_retry(&game, 0).unwrap();
    assert_eq!(store.load_game(&game.id).unwrap(), game);
}

#[test]
fn settings_take_defaults_for_missing_fields_and_ignore_unknown_ones() {
    let (_folder, store) = open();
    let settings_path = store.dir().join("settings.json");
    fs::write(
        &settings_path,
        br#"{"schema": 1, "language": "en", "sound": false, "board_flip": true, "extra": {"a": [1]}}"#,
    )
    .unwrap();
    let (settings, damage) = store.load_settings();
    assert_eq!(damage, None);
    assert_eq!(
        settings,
        Settings {
            language: Some("en".into()),
            sound: false,
            ..Settings::default()
        }
    );

    fs::write(&settings_path, b"{}").unwrap();
    assert_eq!(
        store.load_settings(),
        (Settings::default(), None),
        "an old file without schema still loads"
    );
}

#[test]
fn damaged_settings_and_stats_give_defaults_and_the_damage() {
    let (_folder, store) = open();
    let cases: [(&[u8], DamageKind); 4] = [
        (b"", DamageKind::Empty),
        (b"{\"theme\": \"wal", DamageKind::Truncated),
        (b"\x00\x01\x02garbage", DamageKind::NotJson),
        (b"{\"schema\": 9}", DamageKind::NewerSchema(9)),
    ];
    for (bytes, kind) in cases {
        fs::write(store.dir().join("settings.json"), bytes).unwrap();
        let (settings, damage) = store.load_settings();
        assert_eq!(settings, Settings::default());
        assert_eq!(damage.map(|d| d.kind), Some(kind));

        fs::write(store.dir().join("stats.json"), bytes).unwrap();
        let (stats, damage) = store.load_stats();
        assert_eq!(stats, Stats::default());
        assert_eq!(damage.map(|d| d.kind), Some(kind));
    }
    fs::write(store.dir().join("settings.json"), b"{\"sound\": \"loud\"}").unwrap();
    let (settings, damage) = store.load_settings();
    assert_eq!(settings, Settings::default());
    let damage = damage.unwrap();
    assert_eq!(damage.kind, DamageKind::WrongShape);
    assert!(damage.reason.contains("invalid type"), "{}", damage.reason);

    // Saving over a damaged settings file repairs it.
    store.save_settings(&Settings::default()).unwrap();
    assert_eq!(store.load_settings(), (Settings::default(), None));
}

#[test]
fn default_dir_prefers_the_variable_then_android_then_the_platform() {
    let android = PathBuf::from("/data/user/0/org.takhte/files");
    let from = Store::default_dir_from;
    assert_eq!(
        from(Some("/tmp/mine".into()), Some(android.clone())),
        PathBuf::from("/tmp/mine")
    );
    assert_eq!(
        from(Some("/tmp/mine".into()), None),
        PathBuf::from("/tmp/mine")
    );
    assert_eq!(
        from(Some("".into()), Some(android.clone())),
        android,
        "an empty variable counts as unset"
    );
    assert_eq!(from(None, Some(android.clone())), android);
    let platform = from(None, None);
    let expected = directories::ProjectDirs::from("org", "Takhte", "takhte")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("./takhte-data"));
    assert_eq!(platform, expected);
    assert!(!platform.as_os_str().is_empty());

    // And the real lookup reads TAKHTE_DATA_DIR (only this test touches that variable).
    let saved = std::env::var_os("TAKHTE_DATA_DIR");
    std::env::set_var("TAKHTE_DATA_DIR", "/tmp/takhte-from-env");
    assert_eq!(
        Store::default_dir(Some(android.clone())),
        PathBuf::from("/tmp/takhte-from-env")
    );
    std::env::set_var("TAKHTE_DATA_DIR", "");
    assert_eq!(Store::default_dir(Some(android.clone())), android);
    match saved {
        Some(value) => std::env::set_var("TAKHTE_DATA_DIR", value),
        None => std::env::remove_var("TAKHTE_DATA_DIR"),
    }
}

#[test]
fn open_creates_the_folders() {
    let folder = tempfile::tempdir().unwrap();
    let deep = folder.path().join("a").join("b");
    let store = Store::open(deep.clone()).unwrap();
    assert!(deep.join("games").is_dir());
    assert_eq!(store.dir(), deep);
    assert!(store.list_games().is_empty());
}
