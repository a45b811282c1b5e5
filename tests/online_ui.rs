//! Two app instances play a short chess game against each other through a real game server on
//! loopback, by real taps: one creates a game, the other types its invite code and joins, and
//! they play the scholar's mate. Slint's testing backend, no display.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

mod common;

use common::*;
use i_slint_backend_testing::ElementHandle;
use slint::ComponentHandle;
use takhte::ui::{BoardProps, OnlineBoardProps, OnlineProps, TakhteApp};

/// Lets both apps take in what the network brought until `done` (or fails after 15 s).
fn until(apps: &[&TakhteApp], what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        for a in apps {
            a.state.borrow_mut().net_tick();
        }
        if done() {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn two_apps_play_through_a_server_by_taps() {
    let dir = tempfile::tempdir().unwrap();
    let addr = takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.path().join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    std::env::set_var("TAKHTE_SERVER", &addr);
    i_slint_backend_testing::init_no_event_loop();
    let a = TakhteApp::new(Some(dir.path().join("a"))).unwrap();
    let b = TakhteApp::new(Some(dir.path().join("b"))).unwrap();
    for app in [&a, &b] {
        app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
        app.window
            .window()
            .set_size(slint::LogicalSize::new(400.0, 800.0));
        app.window.show().unwrap();
    }

    // A creates a private chess game as White.
    press(&a, "Play online with a friend");
    assert_eq!(screen(&a), "online");
    a.window.global::<OnlineProps>().set_oc_colour(0);
    press(&a, "Create a game");
    assert_eq!(screen(&a), "online-create");
    press(&a, "Create");
    until(&[&a], "the waiting room", || screen(&a) == "online-waiting");
    let code = a
        .window
        .global::<OnlineProps>()
        .get_online_code()
        .to_string();
    assert_eq!(code.len(), 6);
    assert_eq!(
        find_id(&a, "invite-code")
            .accessible_value()
            .unwrap()
            .as_str(),
        code
    );
    assert!(a
        .window
        .global::<OnlineProps>()
        .get_online_conn_text()
        .starts_with("Connected"));

    // The invite: "Copy link" says it copied; on a phone, "Send invite…" hands the message
    // (game, link, code) to its share menu, in the app's language.
    assert!(
        ElementHandle::find_by_accessible_label(&a.window, "Send invite…")
            .next()
            .is_none(),
        "no share menu on the desktop"
    );
    let sent: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
    let into = Rc::clone(&sent);
    a.set_system_share(move |title, text| {
        into.borrow_mut()
            .push((title.to_string(), text.to_string()));
        true
    });
    press(&a, "Copy link");
    assert!(a
        .window
        .global::<OnlineProps>()
        .get_invite_note()
        .starts_with("Copied"));
    press(&a, "Send invite…");
    let link = format!("http://{addr}/join/{code}");
    assert_eq!(
        sent.borrow().last().cloned(),
        Some((
            "Invite a friend".to_string(),
            format!("Play Chess with me on Takhte: {link} (invite code {code})")
        ))
    );
    a.state.borrow_mut().set_language(takhte::i18n::Lang::Fa);
    press(&a, "ارسال دعوت…");
    assert_eq!(
        sent.borrow().last().cloned(),
        Some((
            "دعوت از دوست".to_string(),
            // The link and the code are left-to-right isolates inside the Persian sentence.
            format!(
                "بیا در برنامه‌ی تخته با هم شطرنج بازی کنیم: \u{2068}{link}\u{2069} (کد دعوت: \u{2068}{code}\u{2069})"
            )
        ))
    );
    a.state.borrow_mut().set_language(takhte::i18n::Lang::En);

    // B types the code (in lower case, with a space) and joins.
    press(&b, "Play online with a friend");
    let field = ElementHandle::find_by_accessible_label(&b.window, "Join with a code or link")
        .find(|h| h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::TextInput))
        .expect("the code field");
    field.set_accessible_value(format!("{} {}", &code[..3], &code[3..]).to_lowercase());
    press(&b, "Join");
    until(&[&a, &b], "both boards", || {
        screen(&a) == "game" && screen(&b) == "game"
    });
    assert!(a.window.global::<OnlineBoardProps>().get_online());
    assert!(a
        .window
        .global::<OnlineBoardProps>()
        .get_opponent_line()
        .contains("is here"));

    // The scholar's mate, tap by tap.
    let game = [
        (&a, "e2", "e4"),
        (&b, "e7", "e5"),
        (&a, "f1", "c4"),
        (&b, "b8", "c6"),
        (&a, "d1", "h5"),
        (&b, "g8", "f6"),
        (&a, "h5", "f7"),
    ];
    for (i, (who, from, to)) in game.iter().enumerate() {
        tap(who, from);
        tap(who, to);
        until(&[&a, &b], &format!("move {}", i + 1), || {
            moves(&a).len() == i + 1 && moves(&b).len() == i + 1
        });
    }
    assert_eq!(
        moves(&b),
        ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    );
    until(&[&a, &b], "the result", || {
        a.window.global::<BoardProps>().get_game_over()
            && b.window.global::<BoardProps>().get_game_over()
    });
    assert_eq!(
        a.window.global::<BoardProps>().get_result_title(),
        "You win"
    );
    assert_eq!(
        b.window.global::<BoardProps>().get_result_title(),
        "You lose"
    );
    assert_eq!(
        a.window.global::<BoardProps>().get_result_reason(),
        "checkmate"
    );

    // A move out of turn by taps does nothing: B's board stays as it is.
    tap(&b, "a7");
    tap(&b, "a6");
    assert_eq!(moves(&b).len(), 7);
}
