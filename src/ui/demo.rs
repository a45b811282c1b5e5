//! The online scenes of `takhte screenshot`: the online screens filled with a made-up server's
//! answers (no network), so that they can be drawn and looked at.

use std::time::Duration;
use web_time::Instant;

use slint::ComponentHandle;

use crate::i18n::Lang;
use crate::net::client::{ClientEvent, ConnState};
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

use super::{OnlineProps, Screen, ShareProps, TakhteApp};
use takhte_online::session::Pending;
use takhte_online::transport::Nowhere;

/// The online scenes.
pub const SCENES: [&str; 15] = [
    "online-home",
    "online-create",
    "online-creating",
    "online-lobby",
    "online-waiting",
    "online-game",
    "online-claim",
    "online-confirm-abort",
    "online-live-list",
    "spectate",
    "spectate-back",
    "quick-seeking",
    "player-page",
    "leaderboard",
    "rated-result",
];

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
    let [me, friend, third, fourth] = names(lang);
    let mut s = app.state.borrow_mut();
    s.settings.server = Some(SERVER.into());
    s.settings.player_name = me.into();
    s.online.connect(SERVER, Box::new(Nowhere));
    s.handle_net(ClientEvent::Conn(ConnState::Connected));
    let now = crate::store::now_unix();
    match scene {
        "online-home" => {
            s.online.set_games(vec![
                OnlineGame {
                    code: "K7M3QX".into(),
                    server: SERVER.into(),
                    kind: "chess".into(),
                    side: "white".into(),
                    opponent: Some(friend.into()),
                    your_turn: true,
                    updated_unix: now,
                },
                OnlineGame {
                    code: "P4TZ8H".into(),
                    server: SERVER.into(),
                    kind: "draughts".into(),
                    side: "black".into(),
                    opponent: Some(third.into()),
                    your_turn: false,
                    updated_unix: now,
                },
            ]);
            s.refresh_online();
            s.open(Screen::Online);
        }
        "online-creating" => {
            drop(s);
            set_scene(app, "online-create", lang)?;
            let mut s = app.state.borrow_mut();
            // The server stopped answering: the create waits, and says why.
            s.handle_net(ClientEvent::Conn(ConnState::Reconnecting {
                attempt: 3,
                error: "connection refused".into(),
            }));
            s.online_create();
        }
        "online-claim" | "online-confirm-abort" => {
            drop(s);
            set_scene(app, "online-game", lang)?;
            let mut s = app.state.borrow_mut();
            let code = "K7M3QX".to_string();
            let ply = s.online.mirror(&code).map_or(0, |m| m.moves.len() as u32);
            if scene == "online-claim" {
                // Gone long enough to claim; the audience suggests meanwhile.
                if let Some(m) = s.online.mirror_mut(&code) {
                    m.set_presence(Side::White, false, Instant::now() - Duration::from_secs(75));
                }
                s.handle_net(ClientEvent::Msg(ServerMsg::Suggestions {
                    code: code.clone(),
                    ply,
                    crowd: Crowd {
                        tally: vec![
                            Tally {
                                mv: "b8c6".into(),
                                count: 6,
                            },
                            Tally {
                                mv: "g8f6".into(),
                                count: 2,
                            },
                        ],
                        voters: 8,
                    },
                }));
            } else if let Some(ui) = s.ui() {
                ui.global::<crate::ui::BoardProps>().set_confirm_abort(true);
            }
            s.refresh_game();
        }
        "online-create" => {
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
        }
        "online-lobby" => {
            let t = crate::net::CLAIM_AFTER_MS;
            let _ = t;
            s.handle_net(ClientEvent::Msg(ServerMsg::Lobby {
                games: vec![
                    LobbyEntry {
                        code: "H2N5RA".into(),
                        kind: GameKind::DiceChess,
                        clock: None,
                        creator: friend.into(),
                        creator_id: None,
                        free_seat: Side::Black,
                        created_ms: 3,
                    },
                    LobbyEntry {
                        code: "W8QX3M".into(),
                        kind: GameKind::Chess,
                        clock: Some(ClockSpec {
                            base_ms: 300_000,
                            increment_ms: 0,
                        }),
                        creator: third.into(),
                        creator_id: None,
                        free_seat: Side::White,
                        created_ms: 2,
                    },
                    LobbyEntry {
                        code: "Z6DKE9".into(),
                        kind: GameKind::MineChess,
                        clock: Some(ClockSpec {
                            base_ms: 600_000,
                            increment_ms: 5_000,
                        }),
                        creator: fourth.into(),
                        creator_id: None,
                        free_seat: Side::Black,
                        created_ms: 1,
                    },
                ],
            }));
            s.refresh_online();
            s.open(Screen::OnlineLobby);
        }
        "online-waiting" => {
            // As on a phone, which has a share menu ("Send invite…").
            app.window.global::<ShareProps>().set_can_send(true);
            s.online.expect(Pending::Create("demo".into()));
            let mut st = state(
                "K7M3QX",
                GameKind::Chess,
                &[],
                Some(Side::White),
                [seat(Some(me), true), seat(None, false)],
                Some(ClockSpec {
                    base_ms: 180_000,
                    increment_ms: 2_000,
                }),
            );
            st.request = Some("demo".into());
            s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
            s.refresh_online();
        }
        "online-game" => {
            s.online.expect(Pending::Open("K7M3QX".into()));
            let mut st = state(
                "K7M3QX",
                GameKind::Chess,
                &["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"],
                Some(Side::Black),
                [seat(Some(friend), true), seat(Some(me), true)],
                Some(ClockSpec {
                    base_ms: 300_000,
                    increment_ms: 0,
                }),
            );
            // An audience game: the player to move sees the spectators' suggestions.
            st.audience = true;
            s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
            // The opponent dropped out a little while ago.
            let code = "K7M3QX".to_string();
            if let Some(m) = s.online.mirror_mut(&code) {
                m.set_presence(Side::White, false, Instant::now() - Duration::from_secs(17));
            }
            s.refresh_game();
        }
        "online-live-list" => {
            s.handle_net(ClientEvent::Msg(ServerMsg::LiveGames {
                games: vec![
                    LiveEntry {
                        code: "K7M3QX".into(),
                        kind: GameKind::Chess,
                        clock: Some(ClockSpec {
                            base_ms: 300_000,
                            increment_ms: 0,
                        }),
                        players: [friend.into(), third.into()],
                        plies: 23,
                        spectators: 11,
                    },
                    LiveEntry {
                        code: "H2N5RA".into(),
                        kind: GameKind::DiceChess,
                        clock: None,
                        players: [fourth.into(), me.into()],
                        plies: 8,
                        spectators: 4,
                    },
                    LiveEntry {
                        code: "Z6DKE9".into(),
                        kind: GameKind::MineChess,
                        clock: None,
                        players: [third.into(), friend.into()],
                        plies: 41,
                        spectators: 0,
                    },
                ],
            }));
            s.refresh_online();
            s.open(Screen::OnlineLive);
        }
        "spectate" => {
            s.online.expect(Pending::Watch("K7M3QX".into()));
            let mut st = state(
                "K7M3QX",
                GameKind::Chess,
                &["e2e4", "e7e5", "f1c4", "b8c6"],
                None,
                [seat(Some(friend), true), seat(Some(third), true)],
                Some(ClockSpec {
                    base_ms: 300_000,
                    increment_ms: 0,
                }),
            );
            st.spectators = 11;
            st.suggestions = Some(Crowd {
                tally: vec![
                    Tally {
                        mv: "d1h5".into(),
                        count: 5,
                    },
                    Tally {
                        mv: "g1f3".into(),
                        count: 4,
                    },
                    Tally {
                        mv: "d2d3".into(),
                        count: 2,
                    },
                ],
                voters: 11,
            });
            st.your_suggestion = Some("g1f3".into());
            st.audience = true;
            s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
            s.refresh_game();
        }
        "spectate-back" => {
            // A spectator stepped back through the game: the status says how to come back.
            drop(s);
            set_scene(app, "spectate", lang)?;
            let mut s = app.state.borrow_mut();
            if let Some(c) = s.controller.as_mut() {
                c.review_step(-2);
            }
            s.refresh_game();
        }
        "quick-seeking" => {
            drop(s);
            set_scene(app, "online-home", lang)?;
            let mut s = app.state.borrow_mut();
            // Waiting a little while, held back for having left rated games.
            s.quick_seek(0);
            let choice = PoolChoice::common()[0];
            s.handle_net(ClientEvent::Msg(ServerMsg::Seeking {
                choice,
                held_ms: 40_000,
            }));
            s.refresh_online();
        }
        "player-page" => {
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
            s.handle_net(ClientEvent::Msg(ServerMsg::Player {
                page: PlayerPage {
                    id: OPPONENT_ID.into(),
                    name: friend.into(),
                    kinds: vec![
                        KindRecord {
                            kind: GameKind::Chess,
                            rating: Rating {
                                rating: 1687,
                                deviation: 64,
                            },
                            played: 128,
                            wins: 71,
                            draws: 12,
                            losses: 45,
                        },
                        KindRecord {
                            kind: GameKind::Draughts,
                            rating: Rating {
                                rating: 1524,
                                deviation: 190,
                            },
                            played: 3,
                            wins: 2,
                            draws: 0,
                            losses: 1,
                        },
                    ],
                    recent: vec![
                        recent("K7M3QX", GameKind::Chess, me, "win", true),
                        recent("P4TZ8H", GameKind::Draughts, third, "loss", true),
                        recent("W2RD7N", GameKind::Chess, fourth, "draw", false),
                    ],
                },
            }));
            s.refresh_online();
        }
        "leaderboard" => {
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
        }
        "rated-result" => {
            welcome(&mut s, me);
            s.online.expect(Pending::Open("K7M3QX".into()));
            let rated_seat = |name, rating, deviation| SeatView {
                player: Some(OPPONENT_ID.into()),
                rating: Some(Rating { rating, deviation }),
                ..seat(Some(name), true)
            };
            let mut st = state(
                "K7M3QX",
                GameKind::Chess,
                &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"],
                Some(Side::White),
                [rated_seat(me, 1603, 70), rated_seat(friend, 1500, 350)],
                Some(ClockSpec {
                    base_ms: 180_000,
                    increment_ms: 2_000,
                }),
            );
            st.rated = true;
            st.end = Some(EndState {
                ratings: Some([
                    RatingChange {
                        before: 1603,
                        after: 1611,
                        provisional: false,
                    },
                    RatingChange {
                        before: 1500,
                        after: 1391,
                        provisional: true,
                    },
                ]),
                ..EndState::new(Some(Side::White), "checkmate".into())
            });
            s.handle_net(ClientEvent::Msg(ServerMsg::State { state: st }));
            // The end as it came: the result sheet open.
            s.result_closed = false;
            s.refresh_game();
            s.refresh_online();
        }
        other => return Err(format!("unknown online scene '{other}'")),
    }
    Ok(())
}
