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
            .set_size(slint::LogicalSize::new(400.0, 1100.0));
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
        "Checkmate"
    );

    // A move out of turn by taps does nothing: B's board stays as it is.
    tap(&b, "a7");
    tap(&b, "a6");
    assert_eq!(moves(&b).len(), 7);
}

/// The games of the player `token` that have not ended, as the server lists them.
fn games_on_server(addr: &str, token: &str) -> Vec<String> {
    use takhte::net::client::{Client, ClientConfig, ClientEvent};
    use takhte::net::protocol::{ClientMsg, ServerMsg};
    let c = Client::start(ClientConfig {
        address: addr.to_string(),
        token: token.to_string(),
        name: "check".into(),
        wake: None,
        tap: None,
        extra_roots: Vec::new(),
    });
    c.send(ClientMsg::MyGames);
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        // The first list comes after the welcome (the client asks for it too): the answer
        // to ours is the last one.
        if let Some(ClientEvent::Msg(ServerMsg::MyGames { games })) =
            c.recv_timeout(Duration::from_millis(500))
        {
            return games.into_iter().map(|g| g.code).collect();
        }
    }
    panic!("no list of games from {addr}");
}

#[test]
fn a_create_while_the_server_cannot_be_reached_waits_can_be_called_off_and_is_made_once() {
    let dir = tempfile::tempdir().unwrap();
    // A free port, with no server on it yet.
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    i_slint_backend_testing::init_no_event_loop();
    let a = TakhteApp::new(Some(dir.path().join("a"))).unwrap();
    a.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    a.state.borrow_mut().settings.server = Some(addr.clone());
    a.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 1100.0));
    a.window.show().unwrap();
    press(&a, "Play online with a friend");
    press(&a, "Create a game");
    // Three taps while nothing answers (two of them already on their way when the button
    // went): one create waits, and says why.
    let online = || a.window.global::<OnlineProps>();
    press(&a, "Create");
    online().invoke_online_create();
    online().invoke_online_create();
    until(&[&a], "the unreachable server said", || {
        online().get_create_status().starts_with("Cannot reach")
    });
    assert!(online().get_creating());
    assert!(
        ElementHandle::find_by_accessible_label(&a.window, "Create")
            .filter(|h| h.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::Button))
            .all(|h| h.accessible_enabled() == Some(false)),
        "no second create while one waits"
    );
    // Called off, and asked again once.
    press(&a, "Cancel");
    assert!(!online().get_creating());
    press(&a, "Create");
    assert!(online().get_creating());

    // The server comes: exactly one game is made, and the waiting room shows it.
    let _server = takhte_server::spawn_server(
        &addr,
        &dir.path().join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    until(&[&a], "the waiting room", || screen(&a) == "online-waiting");
    let code = online().get_online_code().to_string();
    let token = a.state.borrow().online.token().to_string();
    // Let the app settle what it still has to send.
    for _ in 0..20 {
        a.state.borrow_mut().net_tick();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(games_on_server(&addr, &token), vec![code]);
}

/// Two apps in a new chess game through a fresh server: `a` created it (White), `b` joined.
fn two_apps_in_a_game(dir: &std::path::Path) -> (TakhteApp, TakhteApp) {
    let addr = takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap();
    i_slint_backend_testing::init_no_event_loop();
    let a = TakhteApp::new(Some(dir.join("a"))).unwrap();
    let b = TakhteApp::new(Some(dir.join("b"))).unwrap();
    for app in [&a, &b] {
        app.state.borrow_mut().set_language(takhte::i18n::Lang::En);
        app.state.borrow_mut().settings.server = Some(addr.clone());
        app.window
            .window()
            .set_size(slint::LogicalSize::new(400.0, 1100.0));
        app.window.show().unwrap();
    }
    press(&a, "Play online with a friend");
    a.window.global::<OnlineProps>().set_oc_colour(0);
    press(&a, "Create a game");
    press(&a, "Create");
    until(&[&a], "the waiting room", || screen(&a) == "online-waiting");
    let code = a
        .window
        .global::<OnlineProps>()
        .get_online_code()
        .to_string();
    b.state.borrow_mut().online_join(&code);
    until(&[&a, &b], "both boards", || {
        screen(&a) == "game" && screen(&b) == "game"
    });
    (a, b)
}

/// Abort asks first, and an aborted game has no result: not a draw, and not counted.
#[test]
fn abort_asks_first_and_an_aborted_game_has_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_apps_in_a_game(dir.path());
    press(&a, "More");
    press(&a, "Abort the game");
    // Asked, not done.
    find(&a, "Abort this game?");
    for _ in 0..10 {
        a.state.borrow_mut().net_tick();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!a.window.global::<BoardProps>().get_game_over());
    press_last_button(&a, "Abort the game");
    until(&[&a, &b], "the end", || {
        a.window.global::<BoardProps>().get_game_over()
            && b.window.global::<BoardProps>().get_game_over()
    });
    for app in [&a, &b] {
        let board = app.window.global::<BoardProps>();
        assert_eq!(board.get_result_title(), "Game aborted");
        assert_eq!(
            board.get_result_reason(),
            "Called off before each side had moved: no result"
        );
        assert!(
            !board.get_status().contains("Draw"),
            "{}",
            board.get_status()
        );
    }
    // Nobody's statistics count it.
    for who in ["a", "b"] {
        let store = takhte::store::Store::open(dir.path().join(who)).unwrap();
        assert!(
            store.load_stats().0.entries.is_empty(),
            "{who}'s statistics"
        );
    }
}

/// A declined draw offer is told to the one who offered, and the offer waits for the next
/// move, saying so, as the server would refuse it.
#[test]
fn a_declined_draw_offer_is_told_and_the_next_waits_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_apps_in_a_game(dir.path());
    // Each side moves once, then White offers.
    for (who, from, to, n) in [(&a, "e2", "e4", 1), (&b, "e7", "e5", 2)] {
        tap(who, from);
        tap(who, to);
        until(&[&a, &b], "a move", || {
            moves(&a).len() == n && moves(&b).len() == n
        });
    }
    fn board(app: &TakhteApp) -> BoardProps<'_> {
        app.window.global::<BoardProps>()
    }
    assert!(board(&a).get_can_offer_draw());
    press(&a, "Offer draw");
    until(&[&a, &b], "the offer", || board(&b).get_can_answer_draw());
    press(&b, "Decline");
    until(&[&a, &b], "the answer", || {
        board(&a).get_status() == "Your draw offer was declined"
    });
    // Not again before the next move: disabled, and it says when.
    assert!(!board(&a).get_can_offer_draw());
    assert!(board(&a).get_offer_draw_later());
    find(&a, "Offer a draw after the next move");
    // White moves, Black moves: White may offer again.
    for (who, from, to, n) in [(&a, "g1", "f3", 3), (&b, "b8", "c6", 4)] {
        tap(who, from);
        tap(who, to);
        until(&[&a, &b], "a move", || {
            moves(&a).len() == n && moves(&b).len() == n
        });
    }
    assert!(board(&a).get_can_offer_draw());
    assert!(!board(&a).get_offer_draw_later());
}

/// Whether the connection is encrypted is shown (a lock) or said ("not encrypted"), and each
/// reason an encrypted connection was not made is said, in both languages.
#[test]
fn the_connection_says_whether_it_is_encrypted_and_why_not() {
    use takhte::net::client::{ClientEvent, ConnState, Fatal, TlsProblem};
    let dir = tempfile::tempdir().unwrap();
    i_slint_backend_testing::init_no_event_loop();
    let a = TakhteApp::new(Some(dir.path().join("a"))).unwrap();
    a.window
        .window()
        .set_size(slint::LogicalSize::new(400.0, 1100.0));
    a.window.show().unwrap();
    let online = || a.window.global::<OnlineProps>();
    let set = |server: &str, state: ConnState| {
        let mut s = a.state.borrow_mut();
        s.settings.server = Some(server.into());
        s.online
            .connect(server, Box::new(takhte_online::transport::Nowhere));
        s.handle_net(ClientEvent::Conn(state));
        s.refresh_online();
    };
    press(&a, "Play online with a friend");
    for (lang, lock, plain) in [
        (
            takhte::i18n::Lang::En,
            "Encrypted connection",
            "(not encrypted)",
        ),
        (
            takhte::i18n::Lang::Fa,
            "اتصال امن (رمزگذاری‌شده)",
            "(رمزگذاری‌نشده)",
        ),
    ] {
        a.state.borrow_mut().set_language(lang);
        // A name: encrypted, a lock beside it.
        set("chess.example.org", ConnState::Connected);
        assert!(online().get_online_secure());
        assert!(!online().get_online_conn_text().contains(plain));
        assert!(
            ElementHandle::find_by_accessible_label(&a.window, lock).any(|h| h.size().width > 1.0),
            "{lang:?}: the lock"
        );
        // The home network: plain, and said so.
        set("192.168.1.20:7878", ConnState::Connected);
        assert!(!online().get_online_secure());
        assert!(
            online().get_online_conn_text().ends_with(plain),
            "{}",
            online().get_online_conn_text()
        );
        assert!(
            ElementHandle::find_by_accessible_label(&a.window, lock).all(|h| h.size().width < 1.0)
        );
        // Each reason, its own sentence, with the server in it.
        let mut said = std::collections::BTreeSet::new();
        for p in [
            TlsProblem::WrongName,
            TlsProblem::Expired,
            TlsProblem::SelfSigned,
            TlsProblem::UnknownAuthority,
            TlsProblem::NotTls,
            TlsProblem::NeedsTls,
            TlsProblem::Other("handshake failure".into()),
        ] {
            set(
                "chess.example.org",
                ConnState::Failed(Fatal::Tls(p.clone())),
            );
            let text = online().get_online_conn_text().to_string();
            assert!(text.contains("chess.example.org"), "{lang:?} {p:?}: {text}");
            assert_eq!(
                online().get_online_conn(),
                2,
                "{p:?}: shown as not connected"
            );
            said.insert(text);
        }
        assert_eq!(
            said.len(),
            7,
            "{lang:?}: each reason its own words: {said:?}"
        );
    }
    // In English, the words a person can act on.
    a.state.borrow_mut().set_language(takhte::i18n::Lang::En);
    for (p, words) in [
        (TlsProblem::WrongName, "not valid for this address"),
        (TlsProblem::Expired, "has expired"),
        (TlsProblem::SelfSigned, "signed its own"),
        (
            TlsProblem::UnknownAuthority,
            "authority this app does not know",
        ),
        (TlsProblem::NotTls, "does not speak the encrypted protocol"),
        (TlsProblem::NeedsTls, "write wss://"),
    ] {
        set(
            "chess.example.org",
            ConnState::Failed(Fatal::Tls(p.clone())),
        );
        assert!(
            online().get_online_conn_text().contains(words),
            "{p:?}: {}",
            online().get_online_conn_text()
        );
    }
}
