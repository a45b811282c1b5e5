//! Takhte (تخته, "board"): chess, dice chess, Turkish draughts and minesweeper chess.
//!
//! `rules` is the pure game logic, `ai` the computer opponents, `game` the sessions and the
//! controller, `store` the saved games, `i18n` the languages, `ui` the Slint app, `cli` the
//! developer and tester command line.

#![warn(missing_docs)]

pub mod android;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod i18n;
pub mod sound;
pub mod ui;
pub mod web;

pub use takhte_ai as ai;
pub use takhte_game as game;
pub use takhte_rules as rules;
pub use takhte_store as store;

/// Online play as the app sees it: the protocol's parts and the online library's.
pub mod net {
    #[cfg(not(target_arch = "wasm32"))]
    pub use takhte_online::{bot, client};
    pub use takhte_online::{mirror, SERVER_ENV};

    /// The connection's types under the native client's name, in the browser (which has the
    /// page's WebSocket instead of the native client).
    #[cfg(target_arch = "wasm32")]
    pub mod client {
        pub use takhte_online::address::{ServerAddress, DEFAULT_PORT};
        pub use takhte_online::transport::{ClientEvent, ConnState, Fatal, TlsProblem};
    }
    pub use takhte_protocol::messages as protocol;
    pub use takhte_protocol::{
        code, public, rating, recovery, token, CLAIM_AFTER_MS, LAG_ALLOWANCE_MS,
    };
}

/// The Android entry point: the same app as `main.rs`, on Slint's Android backend, with the
/// data in the app's internal folder and the game saved when Android pauses or stops the app.
#[cfg(all(target_os = "android", feature = "android-backend"))]
#[no_mangle]
fn android_main(app: slint::android::AndroidApp) {
    use std::cell::RefCell;
    use std::rc::Rc;
    let data = android::data_dir(app.internal_data_path());
    // The JavaVM and the activity, valid while android_main runs (Slint keeps `app`).
    let (vm, activity) = (app.vm_as_ptr(), app.activity_as_ptr());
    // Opened from an invite link (takhte://join/CODE): join that game once the app is up.
    let link = android::invite_link(android::launch_intent_data(vm, activity).as_deref());
    let state: Rc<RefCell<Option<Rc<RefCell<ui::AppState>>>>> = Rc::new(RefCell::new(None));
    let hook = Rc::clone(&state);
    let listener = move |event: &slint::android::android_activity::PollEvent| {
        use slint::android::android_activity::{MainEvent, PollEvent};
        let lifecycle = match event {
            PollEvent::Main(MainEvent::Pause) => Some(android::Lifecycle::Pause),
            PollEvent::Main(MainEvent::SaveState { .. }) => Some(android::Lifecycle::SaveState),
            PollEvent::Main(MainEvent::Stop) => Some(android::Lifecycle::Stop),
            PollEvent::Main(MainEvent::Resume { .. }) => Some(android::Lifecycle::Resume),
            _ => None,
        };
        if let (Some(l), Some(s)) = (lifecycle, hook.borrow().as_ref()) {
            if let Ok(mut s) = s.try_borrow_mut() {
                android::on_lifecycle(&mut s, l);
            }
        }
    };
    if slint::android::init_with_event_listener(app, listener).is_err() {
        return;
    }
    let Ok(takhte) = ui::TakhteApp::new(Some(data)) else {
        return;
    };
    *state.borrow_mut() = Some(Rc::clone(&takhte.state));
    // "Send…" in the share sheet and the invite screen: Android's share menu.
    let (vm, activity) = (vm as usize, activity as usize);
    takhte.set_system_share(move |title, text| {
        android::send_text(vm as *mut _, activity as *mut _, title, text)
    });
    // A file saved here would land in the app's private folder, out of the user's reach: the
    // share menu (to Files, Drive, a messenger) saves instead.
    takhte.set_can_save_file(false);
    if let Some(link) = link {
        takhte.open_link(&link);
    }
    let _ = takhte.run();
}
