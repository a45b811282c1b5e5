//! Every screenshot scene — every screen, and every dialog over one — in both languages, at
//! the four sizes of a phone, a tall phone, a tablet and a tablet in landscape, with long and
//! mixed-script names: drawn (not blank), and
//! - no text is cut: no line wider than its box (elided or clipped), no wrapped lines taller
//!   than theirs, no button, chip or switch label wider than its widget;
//! - nothing runs past an edge of the window: left and right never (nothing scrolls sideways),
//!   top and bottom only inside a list that scrolls;
//! - no two texts are drawn over each other.
//!
//! What a dialog or another layer covers is hidden, and not checked. Set TAKHTE_SHOTS to a
//! folder to keep the pictures.

use i_slint_backend_testing::{AccessibleRole, ElementHandle, ElementQuery};
use slint::ComponentHandle;
use takhte::i18n::Lang;
use takhte::ui::screenshot::{render, with_scene, write_png, SCENES, SIZES};
use takhte::ui::App;

/// An element's box: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect(f32, f32, f32, f32);

impl Rect {
    fn of(e: &ElementHandle) -> Rect {
        let (p, s) = (e.absolute_position(), e.size());
        Rect(p.x, p.y, p.x + s.width, p.y + s.height)
    }
    fn empty(&self) -> bool {
        self.2 - self.0 < 1.0 || self.3 - self.1 < 1.0
    }
    /// Whether the two overlap by more than a pixel both ways.
    fn overlaps(&self, o: &Rect) -> bool {
        self.0.max(o.0) + 1.0 < self.2.min(o.2) && self.1.max(o.1) + 1.0 < self.3.min(o.3)
    }
    fn contains(&self, o: &Rect) -> bool {
        self.0 <= o.0 + 0.5 && self.1 <= o.1 + 0.5 && self.2 + 0.5 >= o.2 && self.3 + 0.5 >= o.3
    }
}

/// One element as the checks see it.
struct Seen {
    label: String,
    role: Option<AccessibleRole>,
    description: String,
    rect: Rect,
    /// Its place in drawing order.
    order: usize,
    /// Its test hook (accessible-id).
    id: String,
    /// Whether it is a list that scrolls (a Flickable).
    list: bool,
}

fn seen(e: &ElementHandle) -> Seen {
    Seen {
        label: e.accessible_label().unwrap_or_default().to_string(),
        role: e.accessible_role(),
        description: e.accessible_description().unwrap_or_default().to_string(),
        rect: Rect::of(e),
        order: 0,
        id: String::new(),
        list: false,
    }
}

/// What is wrong with the window's layout now, one line each.
fn problems_in(app: &takhte::ui::TakhteApp, width: f32, height: f32) -> Vec<String> {
    // In drawing order: what comes later is drawn over what came before.
    let all: Vec<Seen> = ElementQuery::from_root(&app.window)
        .match_descendants()
        .find_all()
        .iter()
        .map(|e| {
            let mut s = seen(e);
            s.label = e.accessible_label().unwrap_or_default().to_string();
            (
                s,
                e.accessible_id().unwrap_or_default().to_string(),
                e.type_name(),
            )
        })
        .enumerate()
        .map(|(i, (s, id, ty))| (i, s, id, ty))
        .map(|(i, mut s, id, ty)| {
            s.order = i;
            s.id = id;
            s.list = ty.as_deref() == Some("Flickable");
            s
        })
        .collect();
    // The layers over the screen (dialogs, cards, the suggestions over the moves), and the
    // lists that scroll.
    let layers: Vec<&Seen> = all
        .iter()
        .filter(|s| s.id == "layer" || s.id == "suggestions")
        .collect();
    let lists: Vec<&Seen> = all.iter().filter(|s| s.list).collect();
    let mut shown: Vec<Seen> = Vec::new();
    for s in &all {
        if s.rect.empty() || s.role.is_none() {
            continue;
        }
        // Hidden under a layer drawn after it.
        if layers
            .iter()
            .any(|l| l.order > s.order && l.rect.overlaps(&s.rect))
        {
            continue;
        }
        // In a list, partly scrolled out of sight: only the part in sight counts (a list
        // scrolls up and down, never sideways).
        let mut r = s.rect;
        for l in lists.iter().filter(|l| l.order < s.order) {
            if l.rect.overlaps(&r) && !l.rect.contains(&r) {
                r.1 = r.1.max(l.rect.1);
                r.3 = r.3.min(l.rect.3);
            }
        }
        shown.push(Seen {
            rect: r,
            label: s.label.clone(),
            role: s.role,
            description: s.description.clone(),
            order: s.order,
            id: s.id.clone(),
            list: false,
        });
    }
    let mut problems = Vec::new();
    for s in &shown {
        let name = if s.label.is_empty() {
            format!("{:?}", s.role)
        } else {
            format!("'{}'", s.label)
        };
        match s.description.as_str() {
            "cut" => problems.push(format!("{name} is cut")),
            "overflow" => problems.push(format!("{name} does not fit its widget")),
            _ => {}
        }
        let r = s.rect;
        if r.0 < -0.5 || r.2 > width + 0.5 {
            problems.push(format!(
                "{name} runs off the side (x {:.0} to {:.0})",
                r.0, r.2
            ));
        }
        if r.1 < -0.5 || r.3 > height + 0.5 {
            problems.push(format!(
                "{name} runs off the top or bottom (y {:.0} to {:.0})",
                r.1, r.3
            ));
        }
    }
    let texts: Vec<&Seen> = shown
        .iter()
        .filter(|s| s.role == Some(AccessibleRole::Text) && !s.label.trim().is_empty())
        .collect();
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            // A text inside another's box is that element's own (a field's value, a badge's
            // words); two boxes that cross are two texts drawn over each other.
            if a.rect.overlaps(&b.rect) && !a.rect.contains(&b.rect) && !b.rect.contains(&a.rect) {
                problems.push(format!(
                    "'{}' and '{}' are drawn over each other",
                    a.label, b.label
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

#[test]
fn every_scene_fits_in_both_languages_at_every_size() {
    let keep = std::env::var_os("TAKHTE_SHOTS").map(std::path::PathBuf::from);
    let mut problems = Vec::new();
    let all = SCENES.iter().chain(takhte::ui::demo::SCENES.iter());
    let mut checked = 0;
    for scene in all {
        for lang in [Lang::En, Lang::Fa] {
            for (w, h) in SIZES {
                let (found, colours) = with_scene(scene, lang, w, h, |app, window| {
                    app.window.global::<App>().set_check_layout(true);
                    let pixels = render(window, app, w, h);
                    if let Some(dir) = &keep {
                        let _ = std::fs::create_dir_all(dir);
                        let out = dir.join(format!("{scene}-{}-{w}x{h}.png", lang.code()));
                        let _ = write_png(&out, w, h, &pixels);
                    }
                    let colours: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
                    (problems_in(app, w as f32, h as f32), colours.len())
                })
                .unwrap();
                checked += 1;
                assert!(colours > 50, "{scene} {lang:?} {w}x{h} looks blank");
                for p in found {
                    problems.push(format!("{scene} {} {w}x{h}: {p}", lang.code()));
                }
            }
        }
    }
    assert!(checked >= 32 * 8, "{checked} pictures checked");
    assert!(
        problems.is_empty(),
        "{} layout problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
