//! What the online screens say in the situations the testers found wrong, set up with the
//! demo scenes (the server's answers made up, no network): the presence after a claimed win,
//! the invite card, the colour of a rating's change, the intro of a first visit.

use slint::ComponentHandle;
use takhte::i18n::Lang;
use takhte::ui::screenshot::with_scene;
use takhte::ui::{OnlineBoardProps, OnlineProps, RatedProps};

/// Without the isolates that keep a name's direction.
fn plain(s: &str) -> String {
    s.chars()
        .filter(|c| !('\u{2066}'..='\u{2069}').contains(c))
        .collect()
}

#[test]
fn what_the_online_screens_say() {
    // A win claimed over an opponent who left: they are not "here".
    let line = with_scene("online-claimed", Lang::En, 412, 915, |app, _| {
        app.window
            .global::<OnlineBoardProps>()
            .get_opponent_line()
            .to_string()
    })
    .unwrap();
    assert_eq!(plain(&line), "مریم سادات حسینی‌نژاد has left");
    let line = with_scene("online-claimed", Lang::Fa, 412, 915, |app, _| {
        app.window
            .global::<OnlineBoardProps>()
            .get_opponent_line()
            .to_string()
    })
    .unwrap();
    assert_eq!(plain(&line), "Bob Alexander-Whitfield بازی را ترک کرده است");

    // The invite card: who invites, the game, its clock, rated, the player's colour.
    let (title, details) = with_scene("online-invite", Lang::En, 412, 915, |app, _| {
        let o = app.window.global::<OnlineProps>();
        (
            o.get_invite_title().to_string(),
            o.get_invite_details().to_string(),
        )
    })
    .unwrap();
    assert_eq!(plain(&title), "مریم سادات حسینی‌نژاد invites you to a game");
    assert_eq!(plain(&details), "Dice chess, 5+3, rated: you play Black");
    let (title, details) = with_scene("online-invite", Lang::Fa, 412, 915, |app, _| {
        let o = app.window.global::<OnlineProps>();
        (
            o.get_invite_title().to_string(),
            o.get_invite_details().to_string(),
        )
    })
    .unwrap();
    assert_eq!(
        plain(&title),
        "Bob Alexander-Whitfield شما را به یک بازی دعوت کرده است"
    );
    assert_eq!(
        plain(&details),
        "شطرنج تاسی، ۵+۳، بازی با ریتینگ: شما با سیاه بازی می‌کنید"
    );

    // A rating that went down is not drawn as good news; one that went up is.
    for (scene, trend, line) in [
        ("rated-result", 1, "Your rating: 1603 → 1611 (+8)"),
        ("rated-loss", -1, "Your rating: 1603 → 1595 (−8)"),
    ] {
        let (t, l) = with_scene(scene, Lang::En, 412, 915, |app, _| {
            let r = app.window.global::<RatedProps>();
            (r.get_rating_trend(), r.get_rating_line().to_string())
        })
        .unwrap();
        assert_eq!((t, plain(&l).as_str()), (trend, line), "{scene}");
    }

    // A first visit: no red line, no developer's command; what online play is.
    let error = with_scene("online-intro", Lang::En, 412, 915, |app, _| {
        app.window
            .global::<OnlineProps>()
            .get_online_error()
            .to_string()
    })
    .unwrap();
    assert_eq!(
        error, "",
        "nothing is wrong before the person has done anything"
    );
}
