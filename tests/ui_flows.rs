//! The app's behaviour as a player meets it, by taps: destructive actions ask first, a game
//! off screen stops its clocks, a finished game is reviewed rather than continued, and the last
//! new game's choices are offered again. Slint's testing backend, no display.

mod common;

use common::*;
use slint::{ComponentHandle, Model};
use takhte::ui::{BoardProps, HomeProps, NewGameProps, SavedProps, ShareProps, TakhteApp};

/// An app in English on a 400 × 800 window, with its data in a scratch folder.
fn fresh_app() -> (tempfile::TempDir, TakhteApp) {
    i_slint_backend_testing::init_no_event_loop();
    let dir = tempfile::tempdir().unwrap();
    let app = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    app.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 800.0));
    app.window.show().unwrap();
    (dir, app)
}

#[test]
fn a_player_meets_the_app() {
    let (dir, app) = fresh_app();

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
    assert_eq!(
        view(&app).clocks.unwrap()[1].remaining_ms,
        left,
        "no time used off screen"
    );
    app.state.borrow_mut().open("game");
    assert!(
        view(&app).clocks.unwrap()[1].running,
        "back on screen, the clock runs again"
    );

    // Resign asks first: "keep playing" keeps it, the second time it is over.
    press(&app, "More");
    press(&app, "Resign");
    assert!(view(&app).result.is_none(), "one tap does not resign");
    press(&app, "Keep playing");
    assert!(view(&app).result.is_none());
    press(&app, "More");
    press(&app, "Resign");
    press_last_button(&app, "Resign");
    assert!(view(&app).result.is_some(), "resigned after saying so");
    press(&app, "Home");

    // The finished game is not offered to continue; the saved list offers it for review.
    assert!(!app.window.global::<HomeProps>().get_has_continue());
    press(&app, "Saved games");
    let saved = app.window.global::<SavedProps>().get_saved();
    let first = saved.row_data(0).unwrap();
    assert!(first.finished);
    find(&app, "Review");

    // Delete asks first.
    let before = saved.row_count();
    press(&app, "Delete");
    assert_eq!(
        app.window.global::<SavedProps>().get_confirm_delete(),
        first.id,
        "asked which game"
    );
    press(&app, "Keep it");
    assert_eq!(
        app.window.global::<SavedProps>().get_saved().row_count(),
        before
    );
    press(&app, "Delete");
    press_last_button(&app, "Delete");
    assert_eq!(
        app.window.global::<SavedProps>().get_saved().row_count(),
        before - 1
    );
    app.state.borrow_mut().open("home");

    // The last new game's choices come back: against the computer, level 5, Black, 10+0.
    press(&app, "Turkish draughts");
    press(&app, "Against the computer");
    app.window.global::<NewGameProps>().set_ng_level(5);
    app.window.global::<NewGameProps>().set_ng_white(false);
    app.window.global::<NewGameProps>().set_ng_time(3);
    press(&app, "Start");
    assert_eq!(screen(&app), "game");
    app.state.borrow_mut().open("home");
    let again = TakhteApp::new(Some(dir.path().to_path_buf())).unwrap();
    again
        .window
        .global::<HomeProps>()
        .invoke_choose_game("chess".into());
    let g = again.window.global::<NewGameProps>();
    assert!(g.get_ng_computer());
    assert_eq!(g.get_ng_level(), 5);
    assert!(!g.get_ng_white());
    assert_eq!(g.get_ng_time(), 3);
}

#[test]
fn a_game_is_shared_and_opened_again() {
    let (dir, app) = fresh_app();
    let g = app.window.global::<ShareProps>();

    press(&app, "Chess");
    press(&app, "Two players on this device");
    press(&app, "Start");
    for sq in ["e2", "e4", "e7", "e5", "g1", "f3"] {
        tap(&app, sq);
    }
    press(&app, "More");
    press(&app, "Share game");
    assert!(g.get_share_open());
    let text = g.get_share_text().to_string();
    assert!(text.contains("[White \"?\"]"), "{text}");
    assert!(text.contains("1. e4 e5 2. Nf3 *"), "{text}");

    // Copy puts it on the clipboard; Save writes it to a file in the data folder.
    press(&app, "Copy");
    assert!(g.get_share_note().contains("Copied"));
    press(&app, "Save as file");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("exports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), text);
    assert!(g
        .get_share_note()
        .contains(&*files[0].display().to_string()));
    // On a phone, "Send…" hands the same text to its share menu; when that cannot open,
    // the sheet says so. The desktop has no such button.
    assert!(
        i_slint_backend_testing::ElementHandle::find_by_accessible_label(&app.window, "Send…")
            .next()
            .is_none(),
        "no share menu on the desktop"
    );
    let sent: std::rc::Rc<std::cell::RefCell<Vec<(String, String)>>> = Default::default();
    let into = std::rc::Rc::clone(&sent);
    app.set_system_share(move |title, text| {
        into.borrow_mut()
            .push((title.to_string(), text.to_string()));
        true
    });
    press(&app, "Send…");
    assert_eq!(*sent.borrow(), [("Share game".to_string(), text.clone())]);
    app.set_system_share(|_, _| false);
    press(&app, "Send…");
    assert!(g.get_share_note().contains("did not open"));
    press(&app, "Close");
    assert!(!g.get_share_open());

    // Pasted into "Open a game from text", it is the same game, and play goes on.
    app.state.borrow_mut().open("saved");
    press(&app, "Open a game from text");
    assert_eq!(screen(&app), "import");
    press(&app, "Paste");
    assert_eq!(
        g.get_import_text().to_string(),
        text,
        "the clipboard's text"
    );
    press(&app, "Open");
    assert_eq!(screen(&app), "game");
    assert_eq!(moves(&app), ["e2e4", "e7e5", "g1f3"]);
    assert!(!view(&app).review, "an unfinished game goes on");
    tap(&app, "b8");
    tap(&app, "c6");
    assert_eq!(
        moves(&app).last().map(String::as_str),
        Some("b8c6"),
        "Black answered"
    );

    // A text that is not a game says why and stays.
    app.state.borrow_mut().open("saved");
    press(&app, "Open a game from text");
    g.set_import_text("1. e4 e5 2. Ke3".into());
    press(&app, "Open");
    assert_eq!(screen(&app), "import");
    // The move is an isolate in the sentence; in Persian its number has Persian digits.
    assert_eq!(
        g.get_import_error().to_string(),
        "\u{2068}2. Ke3\u{2069} is not a legal move in that position."
    );
    app.state.borrow_mut().set_language(takhte::i18n::Lang::Fa);
    press(&app, "باز کردن");
    assert_eq!(
        g.get_import_error().to_string(),
        "حرکت \u{2068}۲. Ke3\u{2069} در آن وضعیت مجاز نیست."
    );
    app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    g.set_import_text("[Variant \"Crazyhouse\"]\n1. e4".into());
    press(&app, "Open");
    assert!(g.get_import_error().contains("Crazyhouse is not one of"));

    // A finished game opens for review at its end, without the result sheet.
    g.set_import_text("1. f3 e5 2. g4 Qh4# 0-1".into());
    press(&app, "Open");
    assert_eq!(screen(&app), "game");
    let v = view(&app);
    assert!(v.review && v.result.is_some());
    assert!(!app.window.global::<BoardProps>().get_show_result_sheet());
    press(&app, "Share");
    assert!(g.get_share_text().contains("2. g4 Qh4# 0-1"));
    assert!(g.get_share_text().contains("[Result \"0-1\"]"));

    // The imported games are kept with the saved games.
    app.state.borrow_mut().open("saved");
    assert!(app.window.global::<SavedProps>().get_saved().row_count() >= 2);
}

/// A saved game of chess for two players with `moves` played, last played at `updated`.
fn saved(store: &takhte::store::Store, id: &str, moves: &[&str], updated: u64) {
    let mut rec = takhte::store::GameRecord::new(
        id,
        "chess",
        takhte::store::ModeRecord {
            opponent: takhte::store::Opponent::PassAndPlay,
            level: None,
            human_side: None,
            layout: Some("none".into()),
        },
        updated,
    );
    rec.moves = moves.iter().map(|m| m.to_string()).collect();
    rec.cursor = rec.moves.len();
    store.save_game(&rec).unwrap();
}

fn saved_ids(app: &TakhteApp) -> Vec<String> {
    app.state.borrow_mut().open("saved");
    let rows = app.window.global::<SavedProps>().get_saved();
    (0..rows.row_count())
        .filter_map(|i| rows.row_data(i))
        .map(|r| r.id.to_string())
        .collect()
}

/// Looking at a saved game keeps its place in the list (only playing moves it to the top),
/// back from it goes back to the saved games, and a game read from text keeps its players'
/// names.
#[test]
fn saved_games_keep_their_place_their_names_and_the_way_back() {
    let (dir, app) = fresh_app();
    let store = takhte::store::Store::open(dir.path().to_path_buf()).unwrap();
    saved(&store, "20261201-100000-new", &["e2e4"], 1_700_000_000);
    saved(&store, "20261130-100000-old", &["d2d4"], 1_600_000_000);
    app.state.borrow_mut().refresh_all();
    let order = saved_ids(&app);
    assert_eq!(order, ["20261201-100000-new", "20261130-100000-old"]);

    // The older one looked at, and back: the same order, and back is the saved games.
    app.state.borrow_mut().resume("20261130-100000-old");
    assert_eq!(screen(&app), "game");
    press(&app, "Back");
    assert_eq!(screen(&app), "saved");
    assert_eq!(saved_ids(&app), order);
    assert_eq!(
        store.load_game("20261130-100000-old").unwrap().updated_unix,
        1_600_000_000,
        "looking is not playing"
    );
    // The system back button too.
    app.state.borrow_mut().resume("20261130-100000-old");
    app.state.borrow_mut().back_pressed();
    assert_eq!(screen(&app), "saved");

    // Played on: it goes to the top.
    app.state.borrow_mut().resume("20261130-100000-old");
    tap(&app, "d7");
    tap(&app, "d5");
    press(&app, "Back");
    assert_eq!(saved_ids(&app)[0], "20261130-100000-old");

    // A game from a text with its players' names: they name the sides, stay with the saved
    // game, and go back out with it.
    app.state.borrow_mut().open("saved");
    press(&app, "Open a game from text");
    let g = app.window.global::<ShareProps>();
    g.set_import_text("[White \"Sara Ahmadi\"]\n[Black \"مریم\"]\n\n1. e4 e5 2. Nf3 *".into());
    press(&app, "Open");
    assert_eq!(screen(&app), "game");
    let board = app.window.global::<BoardProps>();
    let names = [
        board.get_bottom().name.to_string(),
        board.get_top().name.to_string(),
    ];
    assert!(names.contains(&"Sara Ahmadi".to_string()), "{names:?}");
    assert!(names.contains(&"مریم".to_string()), "{names:?}");
    press(&app, "Back");
    assert_eq!(screen(&app), "saved");
    let id = saved_ids(&app)[0].clone();
    let rec = store.load_game(&id).unwrap();
    assert_eq!(
        rec.players,
        Some(["Sara Ahmadi".to_string(), "مریم".to_string()])
    );
    app.state.borrow_mut().resume(&id);
    press(&app, "More");
    press(&app, "Share game");
    let text = g.get_share_text().to_string();
    assert!(text.contains("[White \"Sara Ahmadi\"]"), "{text}");
    assert!(text.contains("[Black \"مریم\"]"), "{text}");
}
