//! `takhte screenshot`: draws a scene of the app with the software renderer into a PNG, without
//! a display.

use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

use slint::platform::software_renderer::{
    MinimalSoftwareWindow, PremultipliedRgbaColor, RepaintBufferType,
};
use slint::platform::{Platform, WindowAdapter};
use slint::{ComponentHandle, PhysicalSize, PlatformError};

use crate::ai::Standard;
use crate::game::{Autosaver, Controller, Layout, NewGame, Opponent, ScriptedRandomness};
use crate::i18n::Lang;
use crate::rules::{GameKind, Side, Square};
use crate::store::Store;

use super::{App, BoardProps, HomeProps, RulesProps, SavedProps, Screen, ShareProps, TakhteApp};

/// A scene's setup.
type SceneFn = fn(&TakhteApp) -> Result<(), String>;

/// The scenes of the app's own screens, each with what sets it up.
const TABLE: [(&str, SceneFn); 22] = [
    ("home", |app| open(app, Screen::Home)),
    ("leave-app", leave_app),
    ("new-game", new_game),
    ("chess", chess),
    ("more-menu", more_menu),
    ("confirm-resign", confirm_resign),
    ("draw-offer", draw_offer),
    ("promotion", promotion),
    ("dice-chess", dice_chess),
    ("draughts", draughts),
    ("mine-chess", mine_chess),
    ("game-over", game_over),
    ("review", review),
    ("settings", |app| open(app, Screen::Settings)),
    ("rules", rules),
    ("stats", stats),
    ("saved-games", |app| open(app, Screen::Saved)),
    ("saved-details", |app| saved_dialog(app, true)),
    ("saved-delete", |app| saved_dialog(app, false)),
    ("share", share),
    ("import", |app| import(app, true)),
    ("import-error", |app| import(app, false)),
];

/// The scenes `takhte screenshot` knows (and the online ones, [`super::demo::SCENES`]): every
/// screen, and every dialog over one.
pub const SCENES: [&str; TABLE.len()] = {
    let mut names = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        names[i] = TABLE[i].0;
        i += 1;
    }
    names
};

struct ShotPlatform {
    window: Rc<MinimalSoftwareWindow>,
    start: Instant,
}

impl Platform for ShotPlatform {
    fn create_window_adapter(&self) -> Result<Rc<dyn WindowAdapter>, PlatformError> {
        Ok(self.window.clone())
    }
    fn duration_since_start(&self) -> Duration {
        // Time runs fast so that animations have finished when the picture is taken.
        self.start.elapsed() * 1000
    }
}

/// Installs the headless software-rendering platform (once per process) and returns its window.
pub fn headless_window() -> Result<Rc<MinimalSoftwareWindow>, String> {
    thread_local! {
        static WINDOW: std::cell::RefCell<Option<Rc<MinimalSoftwareWindow>>> = const { std::cell::RefCell::new(None) };
    }
    WINDOW.with(|w| {
        if let Some(win) = w.borrow().as_ref() {
            return Ok(Rc::clone(win));
        }
        let window = MinimalSoftwareWindow::new(RepaintBufferType::NewBuffer);
        slint::platform::set_platform(Box::new(ShotPlatform {
            window: Rc::clone(&window),
            start: Instant::now(),
        }))
        .map_err(|e| format!("cannot set up the headless renderer: {e}"))?;
        *w.borrow_mut() = Some(Rc::clone(&window));
        Ok(window)
    })
}

fn scripted_game(app: &TakhteApp, game: NewGame, rolls: Vec<u8>, moves: &[&str]) {
    let mut s = app.state.borrow_mut();
    let mut c = match Controller::new(
        game,
        Arc::new(Standard),
        Box::new(ScriptedRandomness::new(rolls, vec![7])),
    ) {
        Ok(c) => c,
        Err(_) => return,
    };
    for m in moves {
        if let Err(_e) = c.session().game().parse_move(m) {
            continue;
        }
        if let Ok(mv) = c.session().game().parse_move(m) {
            crate::game::autoplay::enter(&mut c, &mv);
        }
    }
    s.controller = Some(c);
    drop(s);
    app.state.borrow_mut().open(Screen::Game);
}

fn tap(app: &TakhteApp, name: &str, ranks: u8) {
    if let Some(sq) = Square::parse(name, ranks) {
        app.state.borrow_mut().tap(sq);
    }
}

/// Sets up `scene` in `app`.
pub fn set_scene(app: &TakhteApp, scene: &str) -> Result<(), String> {
    if let Some((_, set)) = TABLE.iter().find(|(name, _)| *name == scene) {
        return set(app);
    }
    if super::demo::SCENES.contains(&scene) {
        let lang = app.state.borrow().i18n.lang();
        return super::demo::set_scene(app, scene, lang);
    }
    Err(format!(
        "unknown scene '{scene}' (one of: {}, {})",
        SCENES.join(", "),
        super::demo::SCENES.join(", ")
    ))
}

/// Opens `screen`.
fn open(app: &TakhteApp, screen: Screen) -> Result<(), String> {
    app.state.borrow_mut().open(screen);
    Ok(())
}

/// A pass-and-play game of `kind` with the board fixed.
fn pass_and_play(kind: GameKind) -> NewGame {
    NewGame {
        kind,
        opponent: Opponent::PassAndPlay,
        layout: Layout::Fixed,
        time_control: None,
        position: None,
    }
}

fn leave_app(app: &TakhteApp) -> Result<(), String> {
    app.state.borrow_mut().open(Screen::Home);
    app.window.global::<App>().set_confirm_exit(true);
    Ok(())
}

fn new_game(app: &TakhteApp) -> Result<(), String> {
    app.window
        .global::<HomeProps>()
        .invoke_choose_game("chess".into());
    Ok(())
}

fn chess(app: &TakhteApp) -> Result<(), String> {
    let mut g = pass_and_play(GameKind::Chess);
    g.time_control = Some(crate::game::TimeControl::new(10, 5));
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6",
    ];
    scripted_game(app, g, vec![], &moves);
    if let Some(c) = app.state.borrow_mut().controller.as_mut() {
        c.pause();
    }
    tap(app, "f3", 8);
    Ok(())
}

fn more_menu(app: &TakhteApp) -> Result<(), String> {
    chess(app)?;
    app.window.global::<BoardProps>().set_more_open(true);
    Ok(())
}

fn confirm_resign(app: &TakhteApp) -> Result<(), String> {
    chess(app)?;
    app.window.global::<BoardProps>().set_confirm_resign(true);
    Ok(())
}

fn draw_offer(app: &TakhteApp) -> Result<(), String> {
    let mut g = pass_and_play(GameKind::Chess);
    g.time_control = Some(crate::game::TimeControl::new(5, 3));
    scripted_game(app, g, vec![], &["d2d4", "d7d5", "c2c4"]);
    if let Some(c) = app.state.borrow_mut().controller.as_mut() {
        c.offer_draw();
    }
    Ok(())
}

fn promotion(app: &TakhteApp) -> Result<(), String> {
    let mut g = pass_and_play(GameKind::Chess);
    g.position = Some("4k3/P7/8/8/8/8/6p1/4K3 w - - 0 1".into());
    scripted_game(app, g, vec![], &[]);
    tap(app, "a7", 8);
    tap(app, "a8", 8);
    Ok(())
}

fn dice_chess(app: &TakhteApp) -> Result<(), String> {
    scripted_game(
        app,
        pass_and_play(GameKind::DiceChess),
        vec![5, 2, 3, 6, 4],
        &[],
    );
    let mut s = app.state.borrow_mut();
    if let Some(c) = s.controller.as_mut() {
        c.roll();
    }
    s.refresh_game();
    Ok(())
}

fn draughts(app: &TakhteApp) -> Result<(), String> {
    let mut g = pass_and_play(GameKind::Draughts);
    g.position = Some("8/1bbb1bb1/2b1b3/3b4/3w1w2/2w5/ww4ww/8 w".into());
    scripted_game(app, g, vec![], &[]);
    tap(app, "d4", 8);
    tap(app, "d6", 8);
    Ok(())
}

fn mine_chess(app: &TakhteApp) -> Result<(), String> {
    let mut g = pass_and_play(GameKind::MineChess);
    g.position =
        Some("rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq b4,f4,e6,h7 -".into());
    scripted_game(app, g, vec![], &["e2e4", "e9e7", "g1f3", "b9b7", "b1c3"]);
    Ok(())
}

fn game_over(app: &TakhteApp) -> Result<(), String> {
    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    scripted_game(app, pass_and_play(GameKind::Chess), vec![], &moves);
    Ok(())
}

fn review(app: &TakhteApp) -> Result<(), String> {
    game_over(app)?;
    if let Some(c) = app.state.borrow_mut().controller.as_mut() {
        c.review_to(2);
    }
    app.state.borrow_mut().refresh_game();
    Ok(())
}

fn rules(app: &TakhteApp) -> Result<(), String> {
    app.window.global::<RulesProps>().set_rules_tab(3);
    app.state.borrow_mut().open(Screen::Rules);
    Ok(())
}

fn stats(app: &TakhteApp) -> Result<(), String> {
    let mut s = app.state.borrow_mut();
    use crate::store::StatOutcome::{Draw, Loss, Win};
    for (kind, mode, level, outcome) in [
        ("chess", "computer", Some(3), Win),
        ("chess", "computer", Some(3), Loss),
        ("chess", "computer", Some(6), Loss),
        ("dice-chess", "pass-and-play", None, Draw),
        ("draughts", "online", None, Win),
        ("mine-chess", "computer", Some(1), Win),
    ] {
        s.stats.record(kind, mode, level, outcome);
    }
    s.refresh_stats();
    s.open(Screen::Stats);
    Ok(())
}

/// The saved games with a damaged game's details (`details`) or a delete to confirm.
fn saved_dialog(app: &TakhteApp, details: bool) -> Result<(), String> {
    app.state.borrow_mut().open(Screen::Saved);
    let saved_ui = app.window.global::<SavedProps>();
    if details {
        saved_ui.set_details_id("20261130-090000-lost".into());
    } else {
        saved_ui.set_confirm_delete("20261201-120000-demo".into());
    }
    Ok(())
}

fn share(app: &TakhteApp) -> Result<(), String> {
    let moves = [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3",
        "e7e5", "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8",
    ];
    scripted_game(app, pass_and_play(GameKind::Chess), vec![], &moves);
    app.state.borrow_mut().share();
    // As on a phone, which has a share menu ("Send…") and no folder of its own to save into.
    app.window.global::<ShareProps>().set_can_send(true);
    app.window.global::<ShareProps>().set_can_save_file(false);
    Ok(())
}

/// A game's text read in: a good one (with its players' names, long, in both scripts, one of
/// them mixing the two), or one with an illegal move.
fn import(app: &TakhteApp, good: bool) -> Result<(), String> {
    app.state.borrow_mut().open_import();
    let g = app.window.global::<ShareProps>();
    g.set_import_text(if good {
        "[Event \"Club night\"]\n[White \"Alexander-Whitfield, Bob\"]\n[Black \"مریم سادات Hosseini-Nejad\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6".into()
    } else {
        "[Event \"Club night\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Ke2".into()
    });
    app.state.borrow_mut().import_game();
    Ok(())
}

fn fill_store(dir: &Path) {
    let Ok(store) = Store::open(dir.to_path_buf()) else {
        return;
    };
    let games: [(GameKind, &[&str]); 3] = [
        (GameKind::Chess, &["e2e4", "c7c5", "g1f3", "d7d6"]),
        (GameKind::Draughts, &["c3-c4", "a6-a5"]),
        (GameKind::MineChess, &["e2e4", "e9e7"]),
    ];
    for (i, (kind, moves)) in games.iter().enumerate() {
        let mut game = NewGame::pass_and_play(*kind);
        if i == 0 {
            game = NewGame::against_computer(*kind, 3, Side::White);
        }
        let Ok(mut c) = Controller::new(
            game,
            Arc::new(Standard),
            Box::new(ScriptedRandomness::new(vec![1], vec![7])),
        ) else {
            continue;
        };
        for m in moves.iter() {
            let _ = c
                .session()
                .game()
                .parse_move(m)
                .map(|mv| crate::game::autoplay::enter(&mut c, &mv));
        }
        let saver = Autosaver::named(
            store.clone(),
            format!("2026120{}-1200{}0-demo", i + 1, i),
            1_795_996_800 + i as u64 * 3600,
        );
        let _ = saver.save(&mut c);
    }
    let mut bad = std::fs::File::create(store.games_dir().join("20261130-090000-lost.json")).ok();
    if let Some(f) = bad.as_mut() {
        use std::io::Write;
        let _ =
            f.write_all(b"{\"schema\": 1, \"id\": \"20261130-090000-lost\", \"kind\": \"chess\"");
    }
}

/// The four sizes every scene is checked at: phone, tall phone, tablet, tablet in landscape.
pub const SIZES: [(u32, u32); 4] = [(360, 640), (412, 915), (800, 1280), (1280, 800)];

/// Sets up `scene` in `lang` at `width`×`height` logical pixels in a fresh app (a scratch data
/// folder with a few saved games), lets it settle, and hands it to `f`.
pub fn with_scene<R>(
    scene: &str,
    lang: Lang,
    width: u32,
    height: u32,
    f: impl FnOnce(&TakhteApp, &MinimalSoftwareWindow) -> R,
) -> Result<R, String> {
    if !SCENES.contains(&scene) && !super::demo::SCENES.contains(&scene) {
        return Err(format!(
            "unknown scene '{scene}' (one of: {}, {})",
            SCENES.join(", "),
            super::demo::SCENES.join(", ")
        ));
    }
    let window = headless_window()?;
    let dir = std::env::temp_dir().join(format!(
        "takhte-screenshot-{}-{scene}-{}",
        std::process::id(),
        lang.code()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    fill_store(&dir);
    let app = TakhteApp::new(Some(dir.clone())).map_err(|e| e.to_string())?;
    // A picture needs no sound: the audio device is never opened.
    app.state.borrow_mut().sounds = crate::sound::Sounds::silent();
    app.state.borrow_mut().set_language(lang);
    window.set_size(PhysicalSize::new(width, height));
    app.window.show().map_err(|e| e.to_string())?;
    set_scene(&app, scene)?;
    settle(&app);
    let r = f(&app, &window);
    let _ = app.window.hide();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(r)
}

fn settle(app: &TakhteApp) {
    for _ in 0..5 {
        slint::platform::update_timers_and_animations();
        app.state.borrow_mut().refresh_game();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Draws `scene` in `lang` at `width`×`height` logical pixels into the PNG file `out`.
pub fn screenshot(
    scene: &str,
    lang: Lang,
    width: u32,
    height: u32,
    out: &Path,
) -> Result<(), String> {
    let pixels = with_scene(scene, lang, width, height, |app, window| {
        render(window, app, width, height)
    })?;
    write_png(out, width, height, &pixels)
}

/// Renders the window into RGB bytes after letting timers and animations run.
pub fn render(window: &MinimalSoftwareWindow, app: &TakhteApp, width: u32, height: u32) -> Vec<u8> {
    for _ in 0..5 {
        slint::platform::update_timers_and_animations();
        app.state.borrow_mut().refresh_game();
        std::thread::sleep(Duration::from_millis(5));
    }
    window.request_redraw();
    slint::platform::update_timers_and_animations();
    let mut buffer = vec![PremultipliedRgbaColor::default(); (width * height) as usize];
    window.draw_if_needed(|renderer| {
        renderer.render(&mut buffer, width as usize);
    });
    // The window background is opaque, so the premultiplied colours are the colours.
    buffer
        .iter()
        .flat_map(|p| [p.red, p.green, p.blue])
        .collect()
}

/// Writes RGB pixels as a PNG file.
pub fn write_png(out: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
    let file =
        std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    Ok(())
}

/// `takhte bench-ui`: measures, headless with the software renderer, the time to build the app
/// and draw its first frame, the time to update and redraw the board after a move, and the
/// resident memory while playing. Prints one line per measure.
pub fn bench_ui(out: &mut dyn std::io::Write) -> Result<(), String> {
    let t0 = Instant::now();
    let window = headless_window()?;
    let dir = std::env::temp_dir().join(format!("takhte-bench-ui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = TakhteApp::new(Some(dir.clone())).map_err(|e| e.to_string())?;
    let (w, h) = (1024u32, 700u32);
    window.set_size(PhysicalSize::new(w, h));
    app.window.show().map_err(|e| e.to_string())?;
    let mut buffer = vec![PremultipliedRgbaColor::default(); (w * h) as usize];
    let mut draw = || {
        window.request_redraw();
        slint::platform::update_timers_and_animations();
        window.draw_if_needed(|r| {
            r.render(&mut buffer, w as usize);
        });
    };
    draw();
    let first_frame = t0.elapsed();
    app.state
        .borrow_mut()
        .start(NewGame::pass_and_play(GameKind::Chess));
    draw();
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "e1g1",
        "e8g8", "b1d2", "a7a6", "c4b3", "c8e6",
    ];
    let mut times = Vec::new();
    for m in moves {
        let (a, b) = m.split_at(2);
        let (Some(from), Some(to)) = (Square::parse(a, 8), Square::parse(b, 8)) else {
            continue;
        };
        let t = Instant::now();
        app.state.borrow_mut().tap(from);
        app.state.borrow_mut().tap(to);
        draw();
        times.push(t.elapsed());
    }
    times.sort();
    let rss_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let _ = writeln!(
        out,
        "first frame (app built, {w}x{h} drawn): {:.1} ms",
        ms(first_frame)
    );
    let _ = writeln!(out, "board update after a move (two taps, view, models, redraw): median {:.2} ms, max {:.2} ms over {} moves", ms(times[times.len() / 2]), ms(times[times.len() - 1]), times.len());
    let _ = writeln!(
        out,
        "resident memory while playing: {:.1} MB",
        rss_kb as f64 / 1024.0
    );
    Ok(())
}
