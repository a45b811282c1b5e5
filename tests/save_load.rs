//! Saved games: a save always loads back to the same game, at every ply of random games of every
//! kind; damaged files are listed with their reason; a crash in the middle of autoplay loses
//! nothing but the move being made.

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use takhte::ai::Standard;
use takhte::game::autoplay::random_ply;
use takhte::game::{
    from_record, to_record, Controller, NewGame, ScriptedRandomness, TimeControl, View,
};
use takhte::rules::GameKind;
use takhte::store::{GameRecord, Store};

/// The parts of a view that a save must preserve (not the transient status notices).
fn essence(v: &View) -> String {
    format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        v.squares,
        v.side_to_move,
        v.die
            .as_ref()
            .map(|d| (d.face, d.can_roll, d.start_rolls.clone())),
        v.captured,
        v.lost_to_mines,
        v.moves,
        v.mines_left,
        v.result,
        v.clocks,
    )
}

fn reload(c: &Controller, now: Instant) -> Controller {
    let rec = to_record(c, "g", 1, 2, now);
    let json = serde_json::to_string(&rec).unwrap();
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, rec);
    from_record(
        &back,
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![0])),
    )
    .unwrap()
}

#[test]
fn every_ply_of_random_games_loads_back_the_same() {
    for kind in GameKind::ALL {
        for seed in 0..3u64 {
            let mut game = NewGame::pass_and_play(kind);
            if kind == GameKind::Chess {
                game.time_control = Some(TimeControl::new(5, 3));
            }
            let mut c = Controller::new(
                game,
                Arc::new(Standard),
                Box::new(ScriptedRandomness::from_seed(seed)),
            )
            .unwrap();
            let now = Instant::now();
            c.set_clock_source(Box::new(move || now));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for ply in 0..150 {
                let mut loaded = reload(&c, now);
                loaded.set_clock_source(Box::new(move || now));
                loaded.resume();
                assert_eq!(
                    essence(&loaded.view()),
                    essence(&c.view()),
                    "{kind} seed {seed} ply {ply}"
                );
                assert_eq!(
                    loaded.session().game().to_text(),
                    c.session().game().to_text()
                );
                if !random_ply(&mut c, &mut rng) {
                    break;
                }
            }
        }
    }
}

#[test]
fn undo_position_and_review_cursor_survive_a_save() {
    let mut c = Controller::new(
        NewGame::pass_and_play(GameKind::Chess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::from_seed(1)),
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..10 {
        random_ply(&mut c, &mut rng);
    }
    c.undo();
    c.undo();
    let loaded = reload(&c, Instant::now());
    assert_eq!(loaded.session().cursor(), 8);
    assert_eq!(loaded.session().moves().len(), 10);
    assert!(loaded.view().buttons.redo);
}

#[test]
fn a_rolled_die_survives_a_save() {
    let mut c = Controller::new(
        NewGame::pass_and_play(GameKind::DiceChess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![5, 2, 4], vec![0])),
    )
    .unwrap();
    c.roll();
    assert_eq!(c.rolled(), Some(4));
    let loaded = reload(&c, Instant::now());
    assert_eq!(loaded.rolled(), Some(4));
    assert_eq!(loaded.view().die.unwrap().face, Some(4));
}

#[test]
fn a_move_list_that_no_longer_replays_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().to_path_buf()).unwrap();
    let c = Controller::new(
        NewGame::pass_and_play(GameKind::Chess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![0])),
    )
    .unwrap();
    let mut rec = to_record(&c, "broken", 1, 1, Instant::now());
    rec.moves = vec!["e2e4".into(), "e7e5".into(), "e4e5".into()];
    store.save_game(&rec).unwrap();
    let mut good = to_record(&c, "good", 1, 2, Instant::now());
    good.moves = vec!["d2d4".into()];
    store.save_game(&good).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_takhte"))
        .args(["saves", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("good.json chess 1 ok"), "{text}");
    assert!(
        text.contains("broken.json chess 3 damaged: move 3 'e4e5' no longer replays"),
        "{text}"
    );
    let err = from_record(
        &rec,
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![0])),
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("move 3"));
}

#[test]
fn killing_autoplay_midway_leaves_only_whole_files() {
    let dir = tempfile::tempdir().unwrap();
    for (i, kind) in ["chess", "dice-chess", "draughts", "mine-chess"]
        .iter()
        .enumerate()
    {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_takhte"))
            .args([
                "autoplay",
                kind,
                "--plies",
                "100000",
                "--seed",
                &i.to_string(),
                "--dir",
            ])
            .arg(dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill it once its file exists (it saves after every ply), at a moment that varies.
        let games = dir.path().join("games");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::time::Instant::now() < deadline
            && std::fs::read_dir(&games)
                .map(|d| {
                    d.filter_map(Result::ok)
                        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                        .count()
                })
                .unwrap_or(0)
                <= i
        {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(50 + 40 * i as u64));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_takhte"))
        .args(["saves", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines.iter().all(|l| l.ends_with(" ok")), "{text}");
    // Leftover temporary files are cleaned when the store opens.
    let store = Store::open(dir.path().to_path_buf()).unwrap();
    let names: Vec<String> = std::fs::read_dir(store.games_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".json") && !n.starts_with('.')),
        "{names:?}"
    );
}

#[test]
fn a_failed_write_is_reported_retried_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().to_path_buf()).unwrap();
    let saver = takhte::game::Autosaver::new(store.clone(), 100);
    let mut c = Controller::new(
        NewGame::pass_and_play(GameKind::Chess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![0])),
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    random_ply(&mut c, &mut rng);
    saver.save_if_changed(&mut c).unwrap();
    // Make the games folder unusable (a plain file where the folder was): works as root too.
    let games = store.games_dir();
    std::fs::rename(&games, dir.path().join("moved")).unwrap();
    std::fs::write(&games, b"not a folder").unwrap();
    random_ply(&mut c, &mut rng);
    assert!(saver.save_if_changed(&mut c).is_err());
    assert!(c.view().save_failed);
    assert_eq!(c.session().moves().len(), 2, "the game in memory is kept");
    // The folder comes back: the next change retries and succeeds.
    std::fs::remove_file(&games).unwrap();
    std::fs::rename(dir.path().join("moved"), &games).unwrap();
    random_ply(&mut c, &mut rng);
    saver.save_if_changed(&mut c).unwrap();
    assert!(!c.view().save_failed);
    let back = store.load_game(saver.id()).unwrap();
    assert_eq!(back.moves.len(), 3);
}

#[test]
fn statistics_count_results_per_kind_mode_and_level() {
    let mut stats = takhte::store::Stats::default();
    let mut c = Controller::new(
        NewGame::pass_and_play(GameKind::Chess),
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(vec![1], vec![0])),
    )
    .unwrap();
    assert!(!takhte::game::record_result(&mut stats, &c));
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let (a, b) = m.split_at(2);
        c.tap(takhte::rules::Square::parse(a, 8).unwrap());
        c.tap(takhte::rules::Square::parse(b, 8).unwrap());
    }
    assert!(takhte::game::record_result(&mut stats, &c));
    let e = stats.get("chess", "pass-and-play", None).unwrap();
    assert_eq!((e.wins, e.draws, e.losses), (0, 0, 1));
}

#[test]
fn the_android_data_folder_is_the_internal_path_unless_overridden() {
    use takhte::store::Store;
    let internal = std::path::PathBuf::from("/data/user/0/org.takhte.app/files");
    assert_eq!(
        Store::default_dir_from(None, Some(internal.clone())),
        internal
    );
    assert_eq!(
        Store::default_dir_from(Some("/tmp/elsewhere".into()), Some(internal)),
        std::path::PathBuf::from("/tmp/elsewhere")
    );
}
