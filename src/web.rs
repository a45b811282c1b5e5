//! The browser version's side of the app: the page's entry point, the server the page came
//! from, and the link it was opened with (`/join/CODE` seats the player in that game,
//! `/watch/CODE` opens it to watch). Everything else is the same app as on a device: the same
//! screens, with the browser's storage (`takhte_store`), WebSocket (`takhte_online::web`) and
//! a computer player that searches in a Web Worker (`web/worker.js` with the `takhte-worker`
//! WebAssembly; on the page's thread only if the worker cannot run).

#[cfg(target_arch = "wasm32")]
pub use page::*;

/// What the page was opened with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageLink {
    /// `/join/CODE`: join (or come back to) that game.
    Join(String),
    /// `/watch/CODE`: watch that game.
    Watch(String),
}

/// Reads a page path: `/join/CODE` or `/watch/CODE` (any case; the code checked later by the
/// session, which says what is wrong with it).
pub fn page_link(path: &str) -> Option<PageLink> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let mut parts = path.trim_matches('/').splitn(2, '/');
    match (parts.next(), parts.next()) {
        (Some("join"), Some(code)) if !code.is_empty() => Some(PageLink::Join(code.into())),
        (Some("watch"), Some(code)) if !code.is_empty() => Some(PageLink::Watch(code.into())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_links() {
        assert_eq!(
            page_link("/join/K7M3QX"),
            Some(PageLink::Join("K7M3QX".into()))
        );
        assert_eq!(
            page_link("/watch/k7m3qx?x=1"),
            Some(PageLink::Watch("k7m3qx".into()))
        );
        assert_eq!(page_link("/"), None);
        assert_eq!(page_link("/join/"), None);
        assert_eq!(page_link("/other/K7M3QX"), None);
    }
}

#[cfg(target_arch = "wasm32")]
mod page {
    use std::path::PathBuf;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{page_link, PageLink};

    /// The folder name the browser's storage keeps the app's records under.
    const DATA_DIR: &str = "takhte";

    /// The server the page came from (its origin: `https://host` gives an encrypted connection).
    pub fn page_server() -> Option<String> {
        let origin = web_sys::window()?.location().origin().ok()?;
        (!origin.is_empty() && origin != "null").then_some(origin)
    }

    thread_local! {
        static APP: std::cell::RefCell<Option<std::rc::Rc<crate::ui::TakhteApp>>> =
            const { std::cell::RefCell::new(None) };
    }

    /// The test hook of the browser tests (`window.takhte.probe()` on the page): the screen
    /// shown, the moves of the game on the board, whether the computer is thinking, and the
    /// connection, as JSON. The tests act only through real input (clicks on the canvas).
    #[wasm_bindgen]
    pub fn probe() -> String {
        use slint::ComponentHandle;
        APP.with(|a| {
            let a = a.borrow();
            let Some(app) = a.as_ref() else {
                return "{}".to_string();
            };
            let screen = app.window.global::<crate::ui::App>().get_screen();
            let Ok(s) = app.state.try_borrow() else {
                return "{\"busy\":true}".to_string();
            };
            let view = s.controller.as_ref().map(|c| c.view());
            let (moves, thinking, over, legal) = match s.controller.as_ref() {
                Some(c) => (
                    c.session().moves().to_vec(),
                    c.thinking(),
                    c.session().is_over(),
                    c.session().game().moves_text(None),
                ),
                None => (Vec::new(), false, false, Vec::new()),
            };
            let arrows = view.as_ref().map_or(0, |v| v.arrows.len());
            let spectators = s.online.current_mirror().map_or(0, |m| m.spectators);
            let save_failed = view.as_ref().is_some_and(|v| v.save_failed);
            serde_json::json!({
                "screen": screen.name().to_string(),
                "moves": moves,
                "thinking": thinking,
                "over": over,
                "legal": legal,
                // The WebAssembly memory of the tab (pages of 64 KiB).
                "wasm_bytes": core::arch::wasm32::memory_size(0) * 65_536,
                "arrows": arrows,
                "spectators": spectators,
                "save_failed": save_failed,
                "online": s.online.current(),
                "connected": matches!(s.online.conn(), takhte_online::transport::ConnState::Connected),
            })
            .to_string()
        })
    }

    /// Where the first (or, with `last`, the last: a dialog's, above the screen) element on
    /// screen with the accessible `label` is, in CSS pixels of the canvas (`{"x","y","w","h"}`),
    /// or `null`: the browser tests click there.
    #[wasm_bindgen]
    pub fn locate(label: &str, last: bool) -> String {
        APP.with(|a| {
            let a = a.borrow();
            let Some(app) = a.as_ref() else {
                return "null".to_string();
            };
            let found = i_slint_backend_testing::ElementHandle::find_by_accessible_label(
                &app.window,
                label,
            )
            .filter(|h| h.size().width > 1.0)
            .reduce(|first, h| if last { h } else { first })
            .map(|h| {
                let (p, z) = (h.absolute_position(), h.size());
                serde_json::json!({"x": p.x, "y": p.y, "w": z.width, "h": z.height}).to_string()
            });
            found.unwrap_or_else(|| "null".to_string())
        })
    }

    /// Keeps the app's window the size of the page (a phone's screen, a resized browser
    /// window, a rotated tablet).
    fn follow_page_size(app: &std::rc::Rc<crate::ui::TakhteApp>) {
        fn fit(app: &crate::ui::TakhteApp) {
            use slint::ComponentHandle;
            let Some(w) = web_sys::window() else { return };
            let (Some(width), Some(height)) = (
                w.inner_width().ok().and_then(|v| v.as_f64()),
                w.inner_height().ok().and_then(|v| v.as_f64()),
            ) else {
                return;
            };
            app.window
                .window()
                .set_size(slint::LogicalSize::new(width as f32, height as f32));
        }
        fit(app);
        let weak = std::rc::Rc::downgrade(app);
        let on_resize = Closure::<dyn FnMut()>::new(move || {
            if let Some(app) = weak.upgrade() {
                fit(&app);
            }
        });
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref());
        }
        // The listener lives as long as the page.
        on_resize.forget();
    }

    /// Marks the page as the app comes up, for the tests and the measurements: the body's
    /// `data-takhte-frame` gets the page's clock (ms) at the first frame drawn, and the loading
    /// words go.
    fn mark_frames(app: &crate::ui::TakhteApp) {
        use slint::ComponentHandle;
        let mut seen = false;
        let _ = app.window.window().set_rendering_notifier(move |state, _| {
            if seen || !matches!(state, slint::RenderingState::AfterRendering) {
                return;
            }
            seen = true;
            let Some(w) = web_sys::window() else { return };
            let now = w.performance().map(|p| p.now()).unwrap_or(0.0);
            if let Some(d) = w.document() {
                if let Some(body) = d.body() {
                    let _ = body.set_attribute("data-takhte-frame", &format!("{now:.0}"));
                }
                if let Some(l) = d.get_element_by_id("loading") {
                    let _ = l.set_attribute("style", "display:none");
                }
            }
        });
    }

    #[wasm_bindgen]
    extern "C" {
        /// The page's side of the worker (index.html): posts `[id, request]` to it.
        #[wasm_bindgen(js_namespace = window, js_name = takhteThink, catch)]
        fn post_to_worker(id: u32, request: &str) -> Result<(), JsValue>;
    }

    /// The request out at the worker: its number, its text, and where its answer goes.
    type Out = (u32, String, Box<dyn FnOnce(String)>);

    thread_local! {
        static THINKING: std::cell::RefCell<Option<Out>> = const { std::cell::RefCell::new(None) };
        static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    /// The worker's answer to request `id` (called by the page). An answer to a request
    /// replaced since is dropped; `fallback` (the worker could not load) makes the page
    /// search itself, so the game goes on.
    #[wasm_bindgen]
    pub fn thought(id: u32, answer: String) {
        let Some((_, request, reply)) =
            THINKING.with(|t| t.borrow_mut().take_if(|(out, _, _)| *out == id))
        else {
            return;
        };
        if answer == "fallback" {
            reply(takhte_ai::wire::answer_request(&request));
        } else {
            reply(answer);
        }
    }

    /// Sends the computer's searches to the page's worker when the page has one (index.html
    /// defines `window.takhteThink`); otherwise they stay on the page's thread.
    fn offload_to_worker() {
        let has_worker = web_sys::window().is_some_and(|w| {
            js_sys::Reflect::has(&w, &JsValue::from_str("takhteThink")).unwrap_or(false)
        });
        if !has_worker {
            log("takhte: no worker: the computer thinks on the page's thread");
            return;
        }
        takhte_game::offload_searches(Some(std::rc::Rc::new(
            |request: String, reply: Box<dyn FnOnce(String)>| {
                let id = NEXT_ID.with(|n| {
                    n.set(n.get().wrapping_add(1));
                    n.get()
                });
                match post_to_worker(id, &request) {
                    Ok(()) => THINKING.with(|t| *t.borrow_mut() = Some((id, request, reply))),
                    Err(_) => reply(takhte_ai::wire::answer_request(&request)),
                }
            },
        )));
    }

    thread_local! {
        /// Whether the page's history has the entry pushed for a screen past home.
        static PUSHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The page follows the app: its title and language (`lang`, `dir`) are the app's, the
    /// body's `data-screen` names the screen shown, and a screen past home has an entry in the
    /// page's history, so the browser's (or Android's) back button steps back in the app
    /// ([`follow_back_button`]) instead of leaving it.
    pub fn page_follows(screen: &str, lang: &str, rtl: bool, title: &str) {
        let Some(d) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if d.title() != title {
            d.set_title(title);
        }
        if let Some(html) = d.document_element() {
            let _ = html.set_attribute("lang", lang);
            let _ = html.set_attribute("dir", if rtl { "rtl" } else { "ltr" });
        }
        if let Some(body) = d.body() {
            let _ = body.set_attribute("data-screen", screen);
        }
        // Installing names the app in its language.
        if let Some(link) = d.get_element_by_id("manifest") {
            let _ = link.set_attribute("href", &format!("/manifest.{lang}.webmanifest"));
        }
        if screen != "home" && !PUSHED.with(|p| p.get()) {
            let pushed = web_sys::window()
                .and_then(|w| w.history().ok())
                .is_some_and(|h| h.push_state(&JsValue::from(1), "").is_ok());
            PUSHED.with(|p| p.set(pushed));
        }
    }

    /// The page's back (`popstate`: the entry [`page_follows`] pushed was left) is the app's
    /// back button: one screen back, and a new entry if that screen is not home.
    fn follow_back_button(app: &std::rc::Rc<crate::ui::TakhteApp>) {
        let weak = std::rc::Rc::downgrade(app);
        let on_back = Closure::<dyn FnMut()>::new(move || {
            PUSHED.with(|p| p.set(false));
            if let Some(app) = weak.upgrade() {
                use slint::ComponentHandle;
                app.window.global::<crate::ui::App>().invoke_back_pressed();
            }
        });
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("popstate", on_back.as_ref().unchecked_ref());
        }
        on_back.forget();
    }

    fn log(text: &str) {
        web_sys::console::error_1(&JsValue::from_str(text));
    }

    /// A named point on the page's timeline (`performance.mark`), for the measurements.
    fn mark(name: &str) {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            let _ = p.mark(name);
        }
    }

    /// The page's entry point: the app in the page's canvas, opened on the page's link.
    #[wasm_bindgen(start)]
    pub fn start() -> Result<(), JsValue> {
        mark("takhte-start");
        std::panic::set_hook(Box::new(|info| log(&format!("takhte: {info}"))));
        let app = match crate::ui::TakhteApp::new(Some(PathBuf::from(DATA_DIR))) {
            Ok(app) => app,
            Err(e) => {
                // The page shows that the app could not open (index.html).
                log(&format!("takhte: cannot start: {e}"));
                return Err(JsValue::from_str(&e.to_string()));
            }
        };
        mark("takhte-built");
        offload_to_worker();
        mark_frames(&app);
        // A file "saved" from the page would go nowhere the player can find: copying and the
        // share text remain.
        app.set_can_save_file(false);
        // The whole address of the page, so that the link's server is the one used (a server
        // typed in before on this browser does not take the invite elsewhere).
        let location = web_sys::window().map(|w| w.location());
        let path = location
            .as_ref()
            .and_then(|l| l.pathname().ok())
            .unwrap_or_default();
        let href = location
            .as_ref()
            .and_then(|l| l.href().ok())
            .unwrap_or_default();
        match page_link(&path) {
            Some(PageLink::Join(_)) => app.open_invite(&href),
            Some(PageLink::Watch(_)) => app.open_watch(&href),
            None => {}
        }
        let app = std::rc::Rc::new(app);
        follow_page_size(&app);
        follow_back_button(&app);
        // The browser's event loop runs on after `run` returns: the app stays, here.
        APP.with(|a| *a.borrow_mut() = Some(std::rc::Rc::clone(&app)));
        if let Err(e) = app.run() {
            log(&format!("takhte: {e}"));
            return Err(JsValue::from_str(&e.to_string()));
        }
        Ok(())
    }
}
