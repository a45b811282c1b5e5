//! The online scenes of `takhte screenshot`: the online screens filled with a made-up server's
//! answers (no network), so that they can be drawn and looked at.

use std::time::Duration;
use web_time::Instant;

use slint::ComponentHandle;

use crate::i18n::Lang;
use std::cell::RefMut;

use crate::net::client::{ClientEvent, ConnState, Fatal, TlsProblem};
use crate::net::protocol::EndState;
use crate::net::protocol::{
    ClockSpec, ClockState, Crowd, GameState, LiveEntry, LobbyEntry, PlyView, SeatView, ServerMsg,
    Tally,
};
use crate::net::public::public_text;
use crate::net::rating::{
    KindRecord, LeaderRow, PlayerPage, PoolChoice, Rating, RatingChange, RecentGame,
};
use crate::rules::{AnyGame, GameKind, Side};
use crate::store::OnlineGame;

use super::{AppState, OnlineProps, Screen, ShareProps, TakhteApp};
use takhte_online::session::Pending;
use takhte_online::transport::Nowhere;

/// A scene's setup: fills the app (in `lang`) with the server's made-up answers.
type SceneFn = fn(&TakhteApp, Lang) -> Result<(), String>;

/// The online scenes, each with what sets it up.
const TABLE: [(&str, SceneFn); 26] = [
    ("online-intro", online_intro),
    ("online-home", online_home),
    ("online-invite", online_invite),
    ("online-create", online_create),
    ("online-creating", online_creating),
    ("online-lobby", online_lobby),
    ("online-waiting", online_waiting),
    ("online-game", online_game),
    ("online-claim", online_claim),
    ("online-claimed", online_claimed),
    ("online-confirm-abort", online_confirm_abort),
    ("online-live-list", online_live_list),
    ("online-offline", online_offline),
    ("online-tls-wrong-name", |a, l| {
        tls_refused(a, l, TlsProblem::WrongName)
    }),
    ("online-tls-expired", |a, l| {
        tls_refused(a, l, TlsProblem::Expired)
    }),
    ("online-tls-self-signed", |a, l| {
        tls_refused(a, l, TlsProblem::SelfSigned)
    }),
    ("online-tls-unknown", |a, l| {
        tls_refused(a, l, TlsProblem::UnknownAuthority)
    }),
    ("online-tls-not-tls", |a, l| {
        tls_refused(a, l, TlsProblem::NotTls)
    }),
    ("online-tls-needs-tls", |a, l| {
        tls_refused(a, l, TlsProblem::NeedsTls)
    }),
    ("spectate", spectate),
    ("spectate-back", spectate_back),
    ("quick-seeking", quick_seeking),
    ("player-page", player_page),
    ("leaderboard", leaderboard),
    ("rated-result", rated_result),
    ("rated-loss", rated_loss),
];

/// The online scenes.
pub const SCENES: [&str; TABLE.len()] = {
    let mut names = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        names[i] = TABLE[i].0;
        i += 1;
    }
    names
};

const SERVER: &str = "192.168.1.20:7878";
/// The made-up public id of the opponent.
const OPPONENT_ID: &str = "5b7970710dee8eea";

/// The server's welcome (the player's public id).
fn welcome(s: &mut super::AppState, me: &str) {
    s.handle_net(ClientEvent::Msg(ServerMsg::Welcome {
        protocol: crate::net::protocol::PROTOCOL_VERSION,
        name: me.into(),
        claim_after_ms: 60_000,
        player: "ffffffffffffffff".into(),
    }));
}

fn names(lang: Lang) -> [&'static str; 4] {
    match lang {
        // The opponent in the other script, with a long name: a name must not turn a sentence
        // around, nor be cut where there is room for it.
        // A name may mix scripts itself.
        Lang::Fa => ["مریم", "Bob Alexander-Whitfield", "نگار", "Cyrus کوروش ۲"],
        Lang::En => ["Sara", "مریم سادات حسینی‌نژاد", "Negar", "کوروش Cyrus 2"],
    }
}

fn seat(name: Option<&str>, online: bool) -> SeatView {
    SeatView {
        name: name.map(String::from),
        online,
        away_ms: 0,
        player: None,
        rating: None,
    }
}

fn state(
    code: &str,
    kind: GameKind,
    moves: &[&str],
    you: Option<Side>,
    seats: [SeatView; 2],
    clock: Option<ClockSpec>,
) -> GameState {
    let mut game = AnyGame::start(kind, 7);
    let start = public_text(&game);
    let mut plies = Vec::new();
    for m in moves {
        if game.play_text(m).is_err() {
            break;
        }
        plies.push(PlyView {
            mv: m.to_string(),
            position: public_text(&game),
        });
    }
    let to_move = game.side_to_move();
    GameState {
        code: code.into(),
        request: None,
        seq: 1 + plies.len() as u64,
        kind,
        clock,
        public: false,
        seats,
        you,
        start,
        start_rolls: Vec::new(),
        plies,
        rolled: None,
        clocks: clock.map(|c| ClockState {
            white_ms: c.base_ms - 41_000,
            black_ms: c.base_ms - 63_000,
            running: Some(to_move),
        }),
        draw_offer: None,
        draw_offered_at: [None, None],
        rematch_offer: None,
        rematch: None,
        end: None,
        spectators_allowed: true,
        audience: false,
        rated: false,
        spectators: 0,
        suggestions: None,
        your_suggestion: None,
        crowd: Vec::new(),
    }
}

/// Sets up an online scene in `app` (in `lang`).
pub fn set_scene(app: &TakhteApp, scene: &str, lang: Lang) -> Result<(), String> {
    let (_, set) = TABLE
        .iter()
        .find(|(name, _)| *name == scene)
        .ok_or_else(|| format!("unknown online scene '{scene}'"))?;
    set(app, lang)
}

/// The app connected to the made-up server as the scene's player: the state to fill in.
fn connected(app: &TakhteApp, lang: Lang) -> RefMut<'_, AppState> {
    let [me, ..] = names(lang);
    let mut s = app.state.borrow_mut();
    s.settings.server = Some(SERVER.into());
    s.settings.player_name = me.into();
    s.online.connect(SERVER, Box::new(Nowhere));
    s.handle_net(ClientEvent::Conn(ConnState::Connected));
    s
}

/// A clock of `minutes` + `seconds` a move.
fn clock(minutes: u64, seconds: u64) -> Option<ClockSpec> {
    Some(ClockSpec {
        base_ms: minutes * 60_000,
        increment_ms: seconds * 1000,
    })
}

/// The first visit: no server set and no name yet.
fn online_intro(app: &TakhteApp, _lang: Lang) -> Result<(), String> {
    let mut s = app.state.borrow_mut();
    s.settings.server = None;
    s.settings.player_name.clear();
    s.open_online();
    Ok(())
}

fn online_home(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [_, friend, third, _] = names(lang);
    let mut s = connected(app, lang);
    let now = crate::store::now_unix();
    let game = |code: &str, kind: &str, side: &str, opponent: &str, your_turn| OnlineGame {
        code: code.into(),
        server: SERVER.into(),
        kind: kind.into(),
        side: side.into(),
        opponent: Some(opponent.into()),
        your_turn,
        updated_unix: now,
    };
    s.online.set_games(vec![
        game("K7M3QX", "chess", "white", friend, true),
        game("P4TZ8H", "draughts", "black", third, false),
    ]);
    s.refresh_online();
    s.open(Screen::Online);
    Ok(())
}

/// Opened by an invite link before the player has a name: the card says who invites to which
/// game, with which clock and colour.
fn online_invite(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [_, friend, ..] = names(lang);
    let mut s = connected(app, lang);
    s.settings.player_name.clear();
    s.pending_invite = Some("K7M3QX".into());
    s.open(Screen::Online);
    s.handle_net(ClientEvent::Msg(ServerMsg::Invitation {
        game: LobbyEntry {
            code: "K7M3QX".into(),
            kind: GameKind::DiceChess,
            clock: clock(5, 3),
            creator: friend.into(),
            creator_id: None,
            free_seat: Side::Black,
            created_ms: 1,
        },
        rated: true,
    }));
    s.refresh_online();
    Ok(())
}

fn online_create(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let mut s = connected(app, lang);
    if let Some(ui) = s.ui() {
        let online_ui = ui.global::<OnlineProps>();
        online_ui.set_oc_kind("mine-chess".into());
        online_ui.set_oc_time(2);
        online_ui.set_oc_colour(2);
        online_ui.set_oc_public(true);
        // An audience game: its switch and its note are shown too.
        online_ui.set_oc_spectators(true);
        online_ui.set_oc_audience(true);
    }
    s.open(Screen::OnlineCreate);
    Ok(())
}

fn online_creating(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_create(app, lang)?;
    let mut s = app.state.borrow_mut();
    // The server stopped answering: the create waits, and says why.
    s.handle_net(ClientEvent::Conn(ConnState::Reconnecting {
        attempt: 3,
        error: "connection refused".into(),
    }));
    s.online_create();
    Ok(())
}

fn online_lobby(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [_, friend, third, fourth] = names(lang);
    let mut s = connected(app, lang);
    let entry = |code: &str, kind, clock, creator: &str, free_seat, created_ms| LobbyEntry {
        code: code.into(),
        kind,
        clock,
        creator: creator.into(),
        creator_id: None,
        free_seat,
        created_ms,
    };
    s.handle_net(ClientEvent::Msg(ServerMsg::Lobby {
        games: vec![
            entry("H2N5RA", GameKind::DiceChess, None, friend, Side::Black, 3),
            entry(
                "W8QX3M",
                GameKind::Chess,
                clock(5, 0),
                third,
                Side::White,
                2,
            ),
            entry(
                "Z6DKE9",
                GameKind::MineChess,
                clock(10, 5),
                fourth,
                Side::Black,
                1,
            ),
        ],
    }));
    s.refresh_online();
    s.open(Screen::OnlineLobby);
    Ok(())
}

fn online_waiting(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [me, ..] = names(lang);
    let mut s = connected(app, lang);
    // As on a phone, which has a share menu ("Send invite…").
    app.window.global::<ShareProps>().set_can_send(true);
    s.online.expect(Pending::Create("demo".into()));
    let mut st = state(
        "K7M3QX",
        GameKind::Chess,
        &[],
        Some(Side::White),
        [seat(Some(me), true), seat(None, false)],
        clock(3, 2),
    );
    st.request = Some("demo".into());
    s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
    s.refresh_online();
    Ok(())
}

fn online_game(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [me, friend, ..] = names(lang);
    let mut s = connected(app, lang);
    s.online.expect(Pending::Open("K7M3QX".into()));
    let mut st = state(
        "K7M3QX",
        GameKind::Chess,
        &["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"],
        Some(Side::Black),
        [seat(Some(friend), true), seat(Some(me), true)],
        clock(5, 0),
    );
    // An audience game: the player to move sees the spectators' suggestions.
    st.audience = true;
    s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
    // The opponent dropped out a little while ago.
    if let Some(m) = s.online.mirror_mut("K7M3QX") {
        m.set_presence(Side::White, false, Instant::now() - Duration::from_secs(17));
    }
    s.refresh_game();
    Ok(())
}

fn online_claim(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_game(app, lang)?;
    let mut s = app.state.borrow_mut();
    let code = "K7M3QX".to_string();
    let ply = s.online.mirror(&code).map_or(0, |m| m.moves.len() as u32);
    // Gone long enough to claim; the audience suggests meanwhile.
    if let Some(m) = s.online.mirror_mut(&code) {
        m.set_presence(Side::White, false, Instant::now() - Duration::from_secs(75));
    }
    let tally = |mv: &str, count| Tally {
        mv: mv.into(),
        count,
    };
    s.handle_net(ClientEvent::Msg(ServerMsg::Suggestions {
        code,
        ply,
        crowd: Crowd {
            tally: vec![tally("b8c6", 6), tally("g8f6", 2)],
            voters: 8,
        },
    }));
    s.refresh_game();
    Ok(())
}

/// The win claimed over the opponent who left: the result, and the opponent still gone.
fn online_claimed(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_claim(app, lang)?;
    let mut s = app.state.borrow_mut();
    let seq = s.online.mirror("K7M3QX").map_or(0, |m| m.seq) + 1;
    s.handle_net(ClientEvent::Msg(ServerMsg::Event {
        code: "K7M3QX".into(),
        seq,
        event: crate::net::protocol::GameEvent::Ended {
            end: EndState::new(Some(Side::Black), "abandoned".into()),
            clocks: None,
        },
    }));
    s.result_closed = false;
    s.refresh_game();
    s.refresh_online();
    Ok(())
}

fn online_confirm_abort(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_game(app, lang)?;
    let mut s = app.state.borrow_mut();
    if let Some(ui) = s.ui() {
        ui.global::<crate::ui::BoardProps>().set_confirm_abort(true);
    }
    s.refresh_game();
    Ok(())
}

fn online_live_list(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [me, friend, third, fourth] = names(lang);
    let mut s = connected(app, lang);
    let entry = |code: &str, kind, clock, players: [&str; 2], plies, spectators| LiveEntry {
        code: code.into(),
        kind,
        clock,
        players: players.map(String::from),
        plies,
        spectators,
    };
    s.handle_net(ClientEvent::Msg(ServerMsg::LiveGames {
        games: vec![
            entry(
                "K7M3QX",
                GameKind::Chess,
                clock(5, 0),
                [friend, third],
                23,
                11,
            ),
            entry("H2N5RA", GameKind::DiceChess, None, [fourth, me], 8, 4),
            entry("Z6DKE9", GameKind::MineChess, None, [third, friend], 41, 0),
        ],
    }));
    s.refresh_online();
    s.open(Screen::OnlineLive);
    Ok(())
}

/// The server stopped answering: the online home says so, with the server's name.
fn online_offline(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_home(app, lang)?;
    let mut s = app.state.borrow_mut();
    s.handle_net(ClientEvent::Conn(ConnState::Reconnecting {
        attempt: 4,
        error: "connection refused".into(),
    }));
    s.refresh_online();
    Ok(())
}

/// An encrypted connection refused: the online home says why and what to do, in full.
fn tls_refused(app: &TakhteApp, lang: Lang, problem: TlsProblem) -> Result<(), String> {
    online_home(app, lang)?;
    let mut s = app.state.borrow_mut();
    // A long server name, as a club's would be.
    let server = "wss://chess.tehran-chess-club.example.org";
    s.settings.server = Some(server.into());
    s.online.connect(server, Box::new(Nowhere));
    s.handle_net(ClientEvent::Conn(ConnState::Failed(Fatal::Tls(problem))));
    s.refresh_online();
    Ok(())
}

fn spectate(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [_, friend, third, _] = names(lang);
    let mut s = connected(app, lang);
    s.online.expect(Pending::Watch("K7M3QX".into()));
    let mut st = state(
        "K7M3QX",
        GameKind::Chess,
        &["e2e4", "e7e5", "f1c4", "b8c6"],
        None,
        [seat(Some(friend), true), seat(Some(third), true)],
        clock(5, 0),
    );
    let tally = |mv: &str, count| Tally {
        mv: mv.into(),
        count,
    };
    st.spectators = 11;
    st.suggestions = Some(Crowd {
        tally: vec![tally("d1h5", 5), tally("g1f3", 4), tally("d2d3", 2)],
        voters: 11,
    });
    st.your_suggestion = Some("g1f3".into());
    st.audience = true;
    s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
    s.refresh_game();
    Ok(())
}

/// A spectator stepped back through the game: the status says how to come back.
fn spectate_back(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    spectate(app, lang)?;
    let mut s = app.state.borrow_mut();
    if let Some(c) = s.controller.as_mut() {
        c.review_step(-2);
    }
    s.refresh_game();
    Ok(())
}

/// Waiting a little while, held back for having left rated games.
fn quick_seeking(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    online_home(app, lang)?;
    let mut s = app.state.borrow_mut();
    s.quick_seek(0);
    let choice = PoolChoice::common()[0];
    s.handle_net(ClientEvent::Msg(ServerMsg::Seeking {
        choice,
        held_ms: 40_000,
    }));
    s.refresh_online();
    Ok(())
}

fn player_page(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [me, friend, third, fourth] = names(lang);
    let mut s = connected(app, lang);
    welcome(&mut s, me);
    s.open_player(OPPONENT_ID);
    let recent = |code: &str, kind, opponent: &str, result: &str, rated| RecentGame {
        code: code.into(),
        kind,
        opponent: opponent.into(),
        result: result.into(),
        rated,
        ended_ms: 0,
    };
    let record = |kind, rating, deviation, played, wins, draws, losses| KindRecord {
        kind,
        rating: Rating { rating, deviation },
        played,
        wins,
        draws,
        losses,
    };
    s.handle_net(ClientEvent::Msg(ServerMsg::Player {
        page: PlayerPage {
            id: OPPONENT_ID.into(),
            name: friend.into(),
            kinds: vec![
                record(GameKind::Chess, 1687, 64, 128, 71, 12, 45),
                record(GameKind::Draughts, 1524, 190, 3, 2, 0, 1),
            ],
            recent: vec![
                recent("K7M3QX", GameKind::Chess, me, "win", true),
                recent("P4TZ8H", GameKind::Draughts, third, "loss", true),
                recent("W2RD7N", GameKind::Chess, fourth, "draw", false),
            ],
        },
    }));
    s.refresh_online();
    Ok(())
}

fn leaderboard(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    let [me, friend, third, fourth] = names(lang);
    let mut s = connected(app, lang);
    welcome(&mut s, me);
    s.open_leaderboard(0);
    let names = [
        friend,
        third,
        fourth,
        "Ali",
        "Shirin Farahani",
        "Dariush",
        "Mina",
    ];
    let rows: Vec<LeaderRow> = names
        .iter()
        .enumerate()
        .map(|(i, n)| LeaderRow {
            place: i as u32 + 1,
            id: format!("{i:016x}"),
            name: n.to_string(),
            rating: 2140 - 47 * i as i32,
            played: 200 - 9 * i as u32,
        })
        .collect();
    let you = LeaderRow {
        place: 37,
        id: "ffffffffffffffff".into(),
        name: me.into(),
        rating: 1618,
        played: 41,
    };
    s.handle_net(ClientEvent::Msg(ServerMsg::Leaderboard {
        kind: GameKind::Chess,
        rows,
        you: Some(you),
    }));
    s.refresh_online();
    Ok(())
}

/// A rated game's result as `you` saw it (White won by checkmate): the ratings' change.
fn rated_end(app: &TakhteApp, lang: Lang, you: Side) -> Result<(), String> {
    let [me, friend, ..] = names(lang);
    let mut s = connected(app, lang);
    welcome(&mut s, me);
    s.online.expect(Pending::Open("K7M3QX".into()));
    let rated_seat = |name, rating, deviation| SeatView {
        player: Some(OPPONENT_ID.into()),
        rating: Some(Rating { rating, deviation }),
        ..seat(Some(name), true)
    };
    let mut seats = [rated_seat(me, 1603, 70), rated_seat(friend, 1500, 350)];
    if you == Side::Black {
        seats.swap(0, 1);
    }
    let mut st = state(
        "K7M3QX",
        GameKind::Chess,
        &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"],
        Some(you),
        seats,
        clock(3, 2),
    );
    st.rated = true;
    let change = |before, after, provisional| RatingChange {
        before,
        after,
        provisional,
    };
    let mut changes = [change(1603, 1611, false), change(1500, 1391, true)];
    if you == Side::Black {
        changes = [change(1500, 1609, true), change(1603, 1595, false)];
    }
    st.end = Some(EndState {
        ratings: Some(changes),
        ..EndState::new(Some(Side::White), "checkmate".into())
    });
    s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
    // The end as it came: the result sheet open.
    s.result_closed = false;
    s.refresh_game();
    s.refresh_online();
    Ok(())
}

fn rated_result(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    rated_end(app, lang, Side::White)
}

/// The loser's result sheet: the rating goes down, and is not drawn as good news.
fn rated_loss(app: &TakhteApp, lang: Lang) -> Result<(), String> {
    rated_end(app, lang, Side::Black)
}
