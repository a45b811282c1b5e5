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

/// What tells one element from another: its type, test hook, label and box.
type Key = (String, String, String, [i32; 4]);

fn key(e: &ElementHandle) -> Key {
    let r = Rect::of(e);
    (
        e.type_name().unwrap_or_default().to_string(),
        e.accessible_id().unwrap_or_default().to_string(),
        e.accessible_label().unwrap_or_default().to_string(),
        [r.0, r.1, r.2, r.3].map(|v| (v * 4.0).round() as i32),
    )
}

/// The elements inside `e` (its descendants), by key.
fn inside(e: &ElementHandle) -> std::collections::HashSet<Key> {
    e.query_descendants().find_all().iter().map(key).collect()
}

/// The components that clip what they hold to their box (besides the lists, which scroll).
const CLIPPERS: [&str; 2] = ["MovesTable", "TextBox"];

/// What is wrong with the window's layout now, one line each.
fn problems_in(app: &takhte::ui::TakhteApp, width: f32, height: f32) -> Vec<String> {
    // In drawing order: what comes later is drawn over what came before.
    let handles = ElementQuery::from_root(&app.window)
        .match_descendants()
        .find_all();
    let all: Vec<Seen> = handles
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut s = seen(e);
            s.order = i;
            s.id = e.accessible_id().unwrap_or_default().to_string();
            s.list = e.type_name().as_deref() == Some("Flickable");
            s
        })
        .collect();
    let keys: Vec<Key> = handles.iter().map(key).collect();
    // The layers over the screen (dialogs, cards, the suggestions over the moves), the lists
    // that scroll with what they hold, and the other clipping boxes with what they hold.
    let layers: Vec<&Seen> = all
        .iter()
        .filter(|s| s.id == "layer" || s.id == "suggestions")
        .collect();
    let lists: Vec<(&Seen, std::collections::HashSet<Key>)> = all
        .iter()
        .zip(&handles)
        .filter(|(s, _)| s.list)
        .map(|(s, e)| (s, inside(e)))
        .collect();
    let clippers: Vec<(&Seen, std::collections::HashSet<Key>)> = all
        .iter()
        .zip(&handles)
        .filter(|(_, e)| {
            e.type_name()
                .is_some_and(|t| CLIPPERS.contains(&t.as_str()))
        })
        .map(|(s, e)| (s, inside(e)))
        .collect();
    let mut problems = Vec::new();
    let mut shown: Vec<(usize, Seen)> = Vec::new();
    for (i, s) in all.iter().enumerate() {
        if s.rect.empty() || s.role.is_none() {
            continue;
        }
        let name = name_of(s);
        // In a list, partly scrolled out of sight: only the part in sight counts (a list
        // scrolls up and down, never sideways).
        let mut r = s.rect;
        for (l, held) in &lists {
            if held.contains(&keys[i]) && !l.rect.contains(&r) {
                r.1 = r.1.max(l.rect.1);
                r.3 = r.3.min(l.rect.3);
            }
        }
        if r.3 - r.1 < 1.0 {
            continue; // scrolled out of sight
        }
        // Under a layer drawn after it: wholly (the part in the window), it is hidden; partly,
        // it is cut by the layer.
        let seen_part = Rect(r.0.max(0.0), r.1.max(0.0), r.2.min(width), r.3.min(height));
        let over: Vec<&&Seen> = layers
            .iter()
            .filter(|l| l.order > s.order && l.rect.overlaps(&seen_part))
            .collect();
        if over.iter().any(|l| l.rect.contains(&seen_part)) {
            continue;
        }
        if !over.is_empty() && s.role == Some(AccessibleRole::Text) && !s.label.trim().is_empty() {
            problems.push(format!("{name} is partly under a layer"));
            continue;
        }
        // In a box that clips (and is not a list): what runs past it is cut.
        if clippers
            .iter()
            .any(|(c, held)| held.contains(&keys[i]) && !c.rect.contains(&r))
            && s.role == Some(AccessibleRole::Text)
        {
            problems.push(format!("{name} is clipped by the box it is in"));
        }
        shown.push((
            i,
            Seen {
                rect: r,
                label: s.label.clone(),
                role: s.role,
                description: s.description.clone(),
                order: s.order,
                id: s.id.clone(),
                list: false,
            },
        ));
    }
    for (_, s) in &shown {
        let name = name_of(s);
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
    let texts: Vec<&(usize, Seen)> = shown
        .iter()
        .filter(|(_, s)| s.role == Some(AccessibleRole::Text) && !s.label.trim().is_empty())
        .collect();
    for (n, (i, a)) in texts.iter().enumerate() {
        for (j, b) in &texts[n + 1..] {
            if !a.rect.overlaps(&b.rect) {
                continue;
            }
            // One element seen twice (a component and the element it is made of).
            if a.rect == b.rect && a.label == b.label {
                continue;
            }
            // A text inside another's box is that element's own (a field's value, a badge's
            // words) only if it is held by it; any other pair of texts that overlap is drawn
            // one over the other.
            let own = (a.rect.contains(&b.rect) && inside(&handles[*i]).contains(&keys[*j]))
                || (b.rect.contains(&a.rect) && inside(&handles[*j]).contains(&keys[*i]));
            if !own {
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

fn name_of(s: &Seen) -> String {
    if s.label.is_empty() {
        format!("{:?}", s.role)
    } else {
        format!("'{}'", s.label)
    }
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
    // Every scene the binary knows, in both languages, at every size.
    assert_eq!(
        checked,
        (SCENES.len() + takhte::ui::demo::SCENES.len()) * 2 * SIZES.len(),
        "pictures checked"
    );
    assert!(SCENES.len() + takhte::ui::demo::SCENES.len() >= 48);
    assert!(
        problems.is_empty(),
        "{} layout problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
