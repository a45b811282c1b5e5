//! Every screenshot scene, in both languages, at the four sizes of a phone, a tall phone, a
//! tablet and a tablet in landscape: drawn (not blank), and no button, chip or switch has a
//! label wider than itself (which would break a word in the middle). Set TAKHTE_SHOTS to a
//! folder to keep the pictures.

use i_slint_backend_testing::ElementQuery;
use slint::ComponentHandle;
use takhte::i18n::Lang;
use takhte::ui::screenshot::{render, with_scene, write_png, SCENES, SIZES};
use takhte::ui::App;

#[test]
fn every_scene_fits_in_both_languages_at_every_size() {
    let keep = std::env::var_os("TAKHTE_SHOTS").map(std::path::PathBuf::from);
    let mut problems = Vec::new();
    let all = SCENES.iter().chain(takhte::ui::demo::SCENES.iter());
    for scene in all {
        for lang in [Lang::En, Lang::Fa] {
            for (w, h) in SIZES {
                let (overflow, colours) = with_scene(scene, lang, w, h, |app, window| {
                    app.window.global::<App>().set_check_layout(true);
                    let pixels = render(window, app, w, h);
                    if let Some(dir) = &keep {
                        let _ = std::fs::create_dir_all(dir);
                        let out = dir.join(format!("{scene}-{}-{w}x{h}.png", lang.code()));
                        let _ = write_png(&out, w, h, &pixels);
                    }
                    let colours: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
                    let width = w as f32;
                    let mut overflow: Vec<String> = ElementQuery::from_root(&app.window)
                        .match_descendants()
                        .match_predicate(|e| {
                            e.accessible_description().as_deref() == Some("overflow")
                        })
                        .find_all()
                        .into_iter()
                        .map(|e| {
                            format!(
                                "'{}' ({:.0} px wide)",
                                e.accessible_label().unwrap_or_default(),
                                e.size().width
                            )
                        })
                        .collect();
                    // Buttons and chips inside the window (not run off a card or the screen).
                    // Board squares and the moves line scroll or sit inside the board.
                    for e in ElementQuery::from_root(&app.window)
                        .match_descendants()
                        .match_accessible_role(i_slint_backend_testing::AccessibleRole::Button)
                        .find_all()
                    {
                        let (p, s) = (e.absolute_position(), e.size());
                        if s.width < 1.0 || s.height < 1.0 {
                            continue;
                        }
                        if p.x < -0.5 || p.x + s.width > width + 0.5 {
                            overflow.push(format!(
                                "'{}' runs off the window (x {:.0} to {:.0})",
                                e.accessible_label().unwrap_or_default(),
                                p.x,
                                p.x + s.width
                            ));
                        }
                    }
                    overflow.sort();
                    overflow.dedup();
                    (overflow, colours.len())
                })
                .unwrap();
                assert!(colours > 50, "{scene} {lang:?} {w}x{h} looks blank");
                for o in overflow {
                    problems.push(format!("{scene} {} {w}x{h}: {o}", lang.code()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "labels that do not fit:\n{}",
        problems.join("\n")
    );
}
