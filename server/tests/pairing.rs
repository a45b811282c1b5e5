//! Quick pairing and ratings on a real server (SQLite, loopback): players waiting in pools are
//! paired by nearest rating with a gap that widens, nobody twice, nobody with themselves, a
//! cancelled or gone player never; rated games change ratings as Glicko-2 says, within the
//! fair-play limits; the player page and the leaderboard.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use common::*;
use takhte_online::bot::{self, BotRole};
use takhte_protocol::rating::PoolChoice;
use takhte_protocol::{token, ClientMsg, ClockSpec, EndState, GameState, ServerMsg};
use takhte_rules::{GameKind, Side};

fn pool(kind: GameKind, minutes: u64, inc: u64) -> PoolChoice {
    PoolChoice {
        kind,
        clock: ClockSpec {
            base_ms: minutes * 60_000,
            increment_ms: inc * 1000,
        },
    }
}

fn blitz() -> PoolChoice {
    pool(GameKind::Chess, 3, 2)
}

/// Writes a player's standing in a kind straight into the server's SQLite file (as if they
/// had played): `rating` with `deviation`.
fn set_rating(db: &Path, token: &str, kind: GameKind, rating: f64, deviation: f64) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let hash = takhte_server::token_hash(token);
    conn.execute(
        "INSERT INTO standings (token_hash, kind, rating, deviation, volatility, rated_games, \
         played) VALUES (?1, ?2, ?3, ?4, 0.06, 20, 20) ON CONFLICT (token_hash, kind) DO UPDATE \
         SET rating = ?3, deviation = ?4",
        rusqlite::params![hash, kind.name(), rating, deviation],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO players (token_hash, id, name) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        rusqlite::params![hash, takhte_server::player_id(&hash), format!("p{rating}")],
    )
    .unwrap();
}

/// A connection that enters `choice` and is told it waits.
fn seeker(addr: &str, name: &str, token: &str, choice: PoolChoice) -> Raw {
    let mut r = Raw::hello_as(addr, name, token);
    seek(&mut r, choice);
    r
}

fn seek(r: &mut Raw, choice: PoolChoice) -> u64 {
    r.send(&ClientMsg::Seek { choice });
    match r.until(|m| matches!(m, ServerMsg::Seeking { .. } | ServerMsg::Error { .. })) {
        ServerMsg::Seeking { choice: c, held_ms } => {
            assert_eq!(c, choice);
            held_ms
        }
        other => panic!("seek refused: {other:?}"),
    }
}

/// Waits up to `within` for a pairing: the game's code and its state.
fn paired(r: &mut Raw, within: Duration) -> Option<(String, GameState)> {
    let end = Instant::now() + within;
    let mut code = None;
    while Instant::now() < end {
        match r.next(end.saturating_duration_since(Instant::now())) {
            Next::Msg(ServerMsg::Paired { code: c }) => {
                assert!(code.is_none(), "told of a pairing twice");
                code = Some(c);
            }
            Next::Msg(ServerMsg::State { state }) if code.as_deref() == Some(&state.code) => {
                return Some((state.code.clone(), state));
            }
            Next::Msg(_) => {}
            Next::Closed | Next::Silent => break,
        }
    }
    assert!(code.is_none(), "paired but no state came");
    None
}

/// Nothing but silence about pairings for `d`.
fn not_paired(r: &mut Raw, d: Duration) {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if let Next::Msg(m) = r.next(end.saturating_duration_since(Instant::now())) {
            assert!(
                !matches!(m, ServerMsg::Paired { .. } | ServerMsg::State { .. }),
                "paired when it must not be: {m:?}"
            );
        }
    }
}

/// White plays e4, Black e5, and `loser` resigns: the end both are told.
fn two_moves_then_resign(
    w: &mut Raw,
    b: &mut Raw,
    code: &str,
    loser: Side,
) -> (EndState, EndState) {
    w.send(&ClientMsg::Move {
        code: code.into(),
        ply: 0,
        mv: "e2e4".into(),
    });
    b.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: takhte_protocol::GameEvent::Moved { .. },
                ..
            }
        )
    });
    b.send(&ClientMsg::Move {
        code: code.into(),
        ply: 1,
        mv: "e7e5".into(),
    });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: takhte_protocol::GameEvent::Moved { ply: 1, .. },
                ..
            }
        )
    });
    let r = if loser == Side::White {
        &mut *w
    } else {
        &mut *b
    };
    r.send(&ClientMsg::Resign { code: code.into() });
    (ended(w), ended(b))
}

/// The two connections of a pairing sorted White first.
fn by_colour<'a>(a: &'a mut Raw, sa: &GameState, b: &'a mut Raw) -> (&'a mut Raw, &'a mut Raw) {
    if sa.you == Some(Side::White) {
        (a, b)
    } else {
        (b, a)
    }
}

#[test]
fn two_players_are_paired_into_a_rated_game_and_see_their_ratings_move() {
    let server = Server::scratch(&[]);
    let (ta, tb) = (token::generate(), token::generate());
    let mut a = seeker(&server.addr, "Ava", &ta, blitz());
    let t0 = Instant::now();
    let mut b = seeker(&server.addr, "Bahram", &tb, blitz());
    let (code, sa) = paired(&mut a, Duration::from_secs(10)).expect("a is paired");
    let (code_b, sb) = paired(&mut b, Duration::from_secs(10)).expect("b is paired");
    let waited = t0.elapsed();
    assert_eq!(code, code_b);
    assert!(waited < Duration::from_secs(3), "paired after {waited:?}");
    // One game, rated, with the pool's clock, the two on opposite sides, each seat with its
    // player's id and provisional 1500.
    assert!(sa.rated && sb.rated);
    assert_eq!(sa.clock, Some(blitz().clock));
    assert_eq!(sa.kind, GameKind::Chess);
    assert_ne!(sa.you, sb.you);
    assert!(sa.you.is_some() && sb.you.is_some());
    for seat in &sa.seats {
        let r = seat.rating.expect("a rated seat shows its rating");
        assert_eq!(r.rating, 1500);
        assert!(r.provisional());
        assert_eq!(seat.player.as_ref().map(String::len), Some(16));
    }
    let white_is_a = sa.you == Some(Side::White);
    let (w, bl) = by_colour(&mut a, &sa, &mut b);
    // White wins: two new players, 1500 ± 350 each (worked by hand in the server's rating
    // tests): 1662 and 1338, both still provisional.
    let (ew, eb) = two_moves_then_resign(w, bl, &code, Side::Black);
    assert_eq!(ew, eb);
    let [cw, cb] = ew.ratings.expect("a rated game says the rating changes");
    assert_eq!((cw.before, cw.after), (1500, 1662));
    assert_eq!((cb.before, cb.after), (1500, 1338));
    assert!(cw.provisional && cb.provisional);
    assert_eq!(ew.unrated, None);
    // The page of the winner, asked by the loser: the rating, one win, the game.
    let winner_id = sa.seats[0].player.clone().unwrap();
    let loser = if white_is_a { &mut b } else { &mut a };
    let page = page_of(loser, &winner_id);
    assert_eq!(page.id, winner_id);
    assert_eq!(page.name, if white_is_a { "Ava" } else { "Bahram" });
    let chess = page
        .kinds
        .iter()
        .find(|k| k.kind == GameKind::Chess)
        .unwrap();
    assert_eq!(
        (chess.played, chess.wins, chess.draws, chess.losses),
        (1, 1, 0, 0)
    );
    assert_eq!(chess.rating.rating, 1662);
    assert_eq!(page.recent.len(), 1);
    assert_eq!(page.recent[0].code, code);
    assert_eq!(page.recent[0].result, "win");
    assert!(page.recent[0].rated);
    // Two provisional players: nobody on the leaderboard, nobody's place.
    let (_, rows, you) = board_of(loser, GameKind::Chess);
    assert!(
        rows.is_empty(),
        "provisional players on the leaderboard: {rows:?}"
    );
    assert_eq!(you, None);
    // An id nobody has.
    loser.send(&ClientMsg::Player {
        id: "0123456789abcdef".into(),
    });
    assert_eq!(loser.error().0, takhte_protocol::ErrorCode::UnknownPlayer);
}

#[test]
fn the_nearest_rating_first_and_the_gap_widens_with_waiting() {
    let server = Server::scratch(&[]);
    let t: Vec<String> = (0..4).map(|_| token::generate()).collect();
    set_rating(&server.db, &t[0], GameKind::Chess, 1500.0, 60.0);
    set_rating(&server.db, &t[1], GameKind::Chess, 1700.0, 60.0);
    set_rating(&server.db, &t[2], GameKind::Chess, 1560.0, 60.0);
    set_rating(&server.db, &t[3], GameKind::Chess, 1900.0, 60.0);
    // 1500 and 1700 wait: 200 apart, beyond the gap of a fresh wait (100).
    let mut a = seeker(&server.addr, "a", &t[0], blitz());
    let mut b = seeker(&server.addr, "b", &t[1], blitz());
    // 1560 comes: 60 from 1500, paired at once with them, not with 1700.
    let mut c = seeker(&server.addr, "c", &t[2], blitz());
    let (code_a, _) = paired(&mut a, Duration::from_secs(5)).expect("1500 paired");
    let (code_c, _) = paired(&mut c, Duration::from_secs(5)).expect("1560 paired");
    assert_eq!(code_a, code_c);
    // 1900 comes: 200 from 1700. Not at once; once both have waited long enough for a gap of
    // 200 (the newcomer's 5 s of widening), yes.
    let since = Instant::now();
    let mut d = seeker(&server.addr, "d", &t[3], blitz());
    not_paired(&mut b, Duration::from_secs(3));
    let (code_b, _) = paired(&mut b, Duration::from_secs(10)).expect("1700 paired in the end");
    let waited = since.elapsed();
    let (code_d, _) = paired(&mut d, Duration::from_secs(5)).expect("1900 paired");
    assert_eq!(code_b, code_d);
    assert!(
        waited >= Duration::from_millis(4_500) && waited < Duration::from_secs(9),
        "a 200 gap accepted after {waited:?}"
    );
}

#[test]
fn a_cancelled_or_gone_player_is_never_paired_and_one_pool_at_a_time() {
    let server = Server::scratch(&[]);
    // Cancelled.
    let mut a = seeker(&server.addr, "a", &token::generate(), blitz());
    a.send(&ClientMsg::CancelSeek);
    a.until(|m| matches!(m, ServerMsg::SeekEnded));
    // Gone (the app closed).
    let gone = seeker(&server.addr, "gone", &token::generate(), blitz());
    drop(gone);
    std::thread::sleep(Duration::from_millis(300));
    // Moved to another pool.
    let mut m = seeker(&server.addr, "m", &token::generate(), blitz());
    seek(&mut m, pool(GameKind::Draughts, 5, 3));
    // The same player on two connections: the second takes the seek, the first is told it
    // ended; a player is never paired with themselves.
    let ts = token::generate();
    let mut s1 = seeker(&server.addr, "s", &ts, blitz());
    let mut s2 = seeker(&server.addr, "s", &ts, blitz());
    s1.until(|m| matches!(m, ServerMsg::SeekEnded));
    // Only the newcomer and s are in the blitz pool: they are paired, nobody else.
    let mut n = seeker(&server.addr, "n", &token::generate(), blitz());
    let (code_n, sn) = paired(&mut n, Duration::from_secs(5)).expect("the newcomer is paired");
    let (code_s, _) = paired(&mut s2, Duration::from_secs(5)).expect("s is paired");
    assert_eq!(code_n, code_s);
    assert_eq!(
        sn.seats.iter().flatten_names(),
        vec!["n".to_string(), "s".to_string()]
    );
    not_paired(&mut a, Duration::from_millis(1500));
    not_paired(&mut s1, Duration::from_millis(100));
    // Nobody else in the blitz pool now: a latecomer waits; the player who moved to draughts
    // is paired with a draughts player.
    let mut late = seeker(&server.addr, "late", &token::generate(), blitz());
    let mut d = seeker(
        &server.addr,
        "d",
        &token::generate(),
        pool(GameKind::Draughts, 5, 3),
    );
    let (code_m, sm) = paired(&mut m, Duration::from_secs(5)).expect("m paired in draughts");
    let (code_d, _) = paired(&mut d, Duration::from_secs(5)).expect("d paired");
    assert_eq!(code_m, code_d);
    assert_eq!(sm.kind, GameKind::Draughts);
    not_paired(&mut late, Duration::from_millis(1500));
    // A clock out of range is refused with its reason.
    late.send(&ClientMsg::Seek {
        choice: PoolChoice {
            kind: GameKind::Chess,
            clock: ClockSpec {
                base_ms: 1000,
                increment_ms: 0,
            },
        },
    });
    let (e, message) = late.error();
    assert_eq!(e, takhte_protocol::ErrorCode::BadSettings);
    assert!(message.contains("clock"), "{message}");
}

/// A player's page, asked on `r`.
fn page_of(r: &mut Raw, id: &str) -> takhte_protocol::rating::PlayerPage {
    r.send(&ClientMsg::Player { id: id.to_string() });
    match r.until(|m| matches!(m, ServerMsg::Player { .. })) {
        ServerMsg::Player { page } => page,
        _ => unreachable!(),
    }
}

/// A leaderboard, asked on `r`: (kind, rows, your place).
fn board_of(
    r: &mut Raw,
    kind: GameKind,
) -> (
    GameKind,
    Vec<takhte_protocol::rating::LeaderRow>,
    Option<takhte_protocol::rating::LeaderRow>,
) {
    r.send(&ClientMsg::Leaderboard { kind });
    match r.until(|m| matches!(m, ServerMsg::Leaderboard { .. })) {
        ServerMsg::Leaderboard { kind, rows, you } => (kind, rows, you),
        _ => unreachable!(),
    }
}

/// Names of the seated players, sorted.
trait Names {
    fn flatten_names(self) -> Vec<String>;
}

impl<'a, I: Iterator<Item = &'a takhte_protocol::SeatView>> Names for I {
    fn flatten_names(self) -> Vec<String> {
        let mut v: Vec<String> = self.filter_map(|s| s.name.clone()).collect();
        v.sort();
        v
    }
}

#[test]
fn many_players_in_four_pools_are_each_paired_once_with_someone_near() {
    let server = Server::scratch(&["--max-conns-per-ip", "1000"]);
    let pools = [
        blitz(),
        pool(GameKind::Chess, 10, 5),
        pool(GameKind::Draughts, 5, 3),
        pool(GameKind::DiceChess, 3, 2),
    ];
    let mut rng_state = 7u64;
    let mut next = move || {
        rng_state = rng_state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng_state >> 33) as u32
    };
    // 48 players, 12 per pool, ratings 1200–1800 (established, so the gap matters).
    let mut players = Vec::new();
    for i in 0..48 {
        let t = token::generate();
        let choice = pools[i % 4];
        let rating = 1200.0 + f64::from(next() % 600);
        set_rating(&server.db, &t, choice.kind, rating, 60.0);
        players.push((t, choice, rating));
    }
    let mut conns: Vec<Raw> = players
        .iter()
        .enumerate()
        .map(|(i, (t, c, _))| seeker(&server.addr, &format!("p{i}"), t, *c))
        .collect();
    // Everyone is paired within the widest gap's time (600 apart at most: 25 s of waiting).
    let mut games: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, r) in conns.iter_mut().enumerate() {
        let (code, st) =
            paired(r, Duration::from_secs(40)).unwrap_or_else(|| panic!("p{i} not paired"));
        assert_eq!(st.kind, players[i].1.kind);
        assert_eq!(st.clock, Some(players[i].1.clock));
        games.entry(code).or_default().push(i);
    }
    assert_eq!(games.len(), 24, "24 games for 48 players");
    let mut seen = HashSet::new();
    for (code, who) in &games {
        assert_eq!(who.len(), 2, "{code}: {who:?}");
        let (i, j) = (who[0], who[1]);
        assert_ne!(players[i].0, players[j].0);
        assert_eq!(players[i].1, players[j].1, "paired across pools");
        assert!(seen.insert(i) && seen.insert(j), "someone paired twice");
        let st = stored(&server.db, code);
        assert!(st.settings.rated);
    }
    // Nobody is told of a second pairing afterwards.
    for r in conns.iter_mut().take(8) {
        not_paired(r, Duration::from_millis(200));
    }
    // And the database agrees: each player sits at exactly one game, the one they were told
    // of (a second pairing not told to the connection would show here).
    let conn = rusqlite::Connection::open(&server.db).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let mut st = conn
        .prepare("SELECT code, white_hash, black_hash FROM games")
        .unwrap();
    let rows: Vec<(String, String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 24, "games in the database: {rows:?}");
    for (i, (t, _, _)) in players.iter().enumerate() {
        let hash = takhte_server::token_hash(t);
        let theirs: Vec<&String> = rows
            .iter()
            .filter(|(_, w, b)| *w == hash || *b == hash)
            .map(|(code, ..)| code)
            .collect();
        assert_eq!(theirs.len(), 1, "p{i} sits at {theirs:?}");
        assert!(games[theirs[0]].contains(&i), "p{i} was told another game");
    }
}

#[test]
fn bots_pair_through_the_client_and_play_rated_games_to_the_end() {
    let server = Server::scratch(&[]);
    let choice = pool(GameKind::DiceChess, 3, 2);
    let mut handles = Vec::new();
    for i in 0..4 {
        let mut c = bot_config(&server.addr, &format!("bot{i}"), 1, BotRole::Seek(choice));
        c.movetime_ms = 5;
        handles.push(std::thread::spawn(move || bot::play(c)));
    }
    let reports: Vec<_> = handles
        .into_iter()
        .map(|h| h.join().unwrap().expect("a paired bot plays to the end"))
        .collect();
    let mut codes: HashMap<&str, usize> = HashMap::new();
    for r in &reports {
        *codes.entry(r.code.as_str()).or_default() += 1;
        let end = r.end.as_ref().unwrap();
        if end.reason != "aborted" {
            let [w, b] = end.ratings.expect("rated");
            assert!(w.before == 1500 && b.before == 1500);
            match end.winner {
                Some(Side::White) => assert!(w.after > 1500 && b.after < 1500),
                Some(Side::Black) => assert!(w.after < 1500 && b.after > 1500),
                None => assert!(w.after == 1500 && b.after == 1500),
            }
        }
    }
    assert_eq!(codes.len(), 2);
    assert!(codes.values().all(|&n| n == 2));
}

#[test]
fn fair_play_three_rated_games_a_day_per_opponent_and_leavers_wait_longer() {
    let server = Server::scratch(&["--claim-after-ms", "500"]);
    let (ta, tb) = (token::generate(), token::generate());
    let mut a = Raw::hello_as(&server.addr, "a", &ta);
    let mut b = Raw::hello_as(&server.addr, "b", &tb);
    let mut ratings_seen = Vec::new();
    for game in 0..4 {
        // Level again, so that the two are paired at once.
        if game > 0 {
            set_rating(&server.db, &ta, GameKind::Chess, 1500.0, 200.0);
            set_rating(&server.db, &tb, GameKind::Chess, 1500.0, 200.0);
        }
        seek(&mut a, blitz());
        seek(&mut b, blitz());
        let (code, sa) = paired(&mut a, Duration::from_secs(5)).expect("paired");
        paired(&mut b, Duration::from_secs(5)).expect("paired");
        let (w, bl) = by_colour(&mut a, &sa, &mut b);
        let (end, _) = two_moves_then_resign(w, bl, &code, Side::Black);
        if game < 3 {
            assert!(end.ratings.is_some(), "game {game} counts");
            ratings_seen.push(end.ratings.unwrap());
        } else {
            assert_eq!(end.ratings, None, "a fourth game today does not count");
            assert_eq!(end.unrated.as_deref(), Some("same-opponent"));
        }
    }
    // Colours fair over the history: after an odd number of games, nobody has had White
    // twice more than Black.
    let conn = rusqlite::Connection::open(&server.db).unwrap();
    for t in [&ta, &tb] {
        let (w, bl): (i64, i64) = conn
            .query_row(
                "SELECT whites, blacks FROM standings WHERE token_hash = ?1 AND kind = 'chess'",
                [takhte_server::token_hash(t)],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(w + bl, 4);
        assert!((w - bl).abs() <= 2 && w >= 1 && bl >= 1, "colours {w}/{bl}");
    }
    // A player who leaves a rated game (the other claims the win) waits longer next time.
    let (tc, td) = (token::generate(), token::generate());
    let mut c = seeker(&server.addr, "c", &tc, blitz());
    let mut d = seeker(&server.addr, "d", &td, blitz());
    let (code, sc) = paired(&mut c, Duration::from_secs(5)).expect("paired");
    paired(&mut d, Duration::from_secs(5)).expect("paired");
    let (w, bl) = by_colour(&mut c, &sc, &mut d);
    w.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 0,
        mv: "e2e4".into(),
    });
    bl.until(|m| matches!(m, ServerMsg::Event { .. }));
    bl.send(&ClientMsg::Move {
        code: code.clone(),
        ply: 1,
        mv: "e7e5".into(),
    });
    w.until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: takhte_protocol::GameEvent::Moved { ply: 1, .. },
                ..
            }
        )
    });
    // Black leaves; White claims once the wait is over.
    let black_token = if sc.you == Some(Side::White) {
        td.clone()
    } else {
        tc.clone()
    };
    let (white, black) = if sc.you == Some(Side::White) {
        (c, d)
    } else {
        (d, c)
    };
    let mut white = white;
    drop(black);
    std::thread::sleep(Duration::from_millis(1500));
    white.send(&ClientMsg::ClaimWin { code: code.clone() });
    let end = ended(&mut white);
    assert_eq!(end.reason, "abandoned");
    assert!(end.ratings.is_some());
    let mut back = Raw::hello_as(&server.addr, "leaver", &black_token);
    let held = seek(&mut back, blitz());
    assert_eq!(held, 20_000, "one game left: 20 s more");
    // Held: not paired with a newcomer meanwhile.
    let mut e = seeker(&server.addr, "e", &token::generate(), blitz());
    not_paired(&mut e, Duration::from_secs(2));
    not_paired(&mut back, Duration::from_millis(100));
}

#[test]
fn established_players_on_the_leaderboard_and_your_place() {
    let server = Server::scratch(&[]);
    let t: Vec<String> = (0..5).map(|_| token::generate()).collect();
    // Three established, one provisional (high deviation) with the best rating.
    set_rating(&server.db, &t[0], GameKind::Draughts, 1800.0, 60.0);
    set_rating(&server.db, &t[1], GameKind::Draughts, 1650.0, 80.0);
    set_rating(&server.db, &t[2], GameKind::Draughts, 1400.0, 100.0);
    set_rating(&server.db, &t[3], GameKind::Draughts, 2400.0, 300.0);
    let mut r = Raw::hello_as(&server.addr, "x", &t[1]);
    let (kind, rows, you) = board_of(&mut r, GameKind::Draughts);
    assert_eq!(kind, GameKind::Draughts);
    let ratings: Vec<i32> = rows.iter().map(|r| r.rating).collect();
    assert_eq!(ratings, vec![1800, 1650, 1400]);
    assert_eq!(
        rows.iter().map(|r| r.place).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let you = you.expect("an established player has a place");
    assert_eq!((you.place, you.rating), (2, 1650));
    assert_eq!(you.id, rows[1].id);
    // A provisional player has none; another kind's board is empty.
    let mut p = Raw::hello_as(&server.addr, "p", &t[3]);
    let (_, _, you) = board_of(&mut p, GameKind::Draughts);
    assert_eq!(you, None);
    let (_, rows, _) = board_of(&mut p, GameKind::MineChess);
    assert!(rows.is_empty());
}

#[test]
fn an_invite_game_ticked_rated_counts_and_an_aborted_one_does_not() {
    let server = Server::scratch(&[]);
    let mut s = settings(GameKind::Chess, Some(blitz().clock));
    s.rated = true;
    let (mut w, mut b, code) = table(&server.addr, s.clone());
    let (ew, _) = two_moves_then_resign(&mut w, &mut b, &code, Side::White);
    let [cw, cb] = ew.ratings.expect("a rated invite game changes ratings");
    assert_eq!((cw.after, cb.after), (1338, 1662));
    // Aborted before Black moved: rated, but nothing counts, and it says why.
    let (mut w2, mut b2, code2) = table(&server.addr, s);
    w2.send(&ClientMsg::Move {
        code: code2.clone(),
        ply: 0,
        mv: "d2d4".into(),
    });
    b2.until(|m| matches!(m, ServerMsg::Event { .. }));
    b2.send(&ClientMsg::Abort {
        code: code2.clone(),
    });
    let end = ended(&mut w2);
    assert_eq!(end.reason, "aborted");
    assert_eq!(end.ratings, None);
    assert_eq!(end.unrated.as_deref(), Some("aborted"));
    // An unrated game says nothing of ratings.
    let (mut w3, mut b3, code3) = table(&server.addr, settings(GameKind::Chess, None));
    let (e3, _) = two_moves_then_resign(&mut w3, &mut b3, &code3, Side::White);
    assert_eq!((e3.ratings, e3.unrated), (None, None));
}

/// The games stored in a cluster's database that seat `token`.
fn games_of_pg(db: &str, token: &str) -> Vec<String> {
    let hash = takhte_server::token_hash(token);
    records_pg(db)
        .into_iter()
        .filter(|r| r.seat_of(&hash).is_some())
        .map(|r| r.code)
        .collect()
}

#[test]
fn in_a_cluster_players_waiting_on_different_instances_are_paired_once() {
    let services = common::services::Services::shared();
    let db = services.database();
    let name = cluster_name();
    let one = instance(&db, &services.redis, &name, &[]);
    let two = instance(&db, &services.redis, &name, &[]);
    // One on each instance: paired with each other.
    let (ta, tb) = (token::generate(), token::generate());
    let mut a = seeker(&one.addr, "a", &ta, blitz());
    let mut b = seeker(&two.addr, "b", &tb, blitz());
    let (ca, sa) = paired(&mut a, Duration::from_secs(10)).expect("a paired across instances");
    let (cb, _) = paired(&mut b, Duration::from_secs(10)).expect("b paired across instances");
    assert_eq!(ca, cb);
    // Played to the end across the two instances: the ratings change, in PostgreSQL too.
    let (w, bl) = by_colour(&mut a, &sa, &mut b);
    let (ew, eb) = two_moves_then_resign(w, bl, &ca, Side::Black);
    assert_eq!(ew, eb);
    let [cw, cbl] = ew.ratings.expect("rated");
    assert_eq!((cw.after, cbl.after), (1662, 1338));
    let page = page_of(&mut a, sa.seats[0].player.as_deref().unwrap());
    assert_eq!(page.kinds[0].rating.rating, 1662);
    assert_eq!(page.recent[0].code, ca);
    // Twenty more, alternating instances, all at once, both instances pairing every quarter
    // second: each is paired exactly once, into ten games.
    let tokens: Vec<String> = (0..20).map(|_| token::generate()).collect();
    let mut conns: Vec<Raw> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let addr = if i % 2 == 0 { &one.addr } else { &two.addr };
            seeker(addr, &format!("p{i}"), t, pool(GameKind::Draughts, 5, 3))
        })
        .collect();
    let mut games: HashMap<String, usize> = HashMap::new();
    for (i, r) in conns.iter_mut().enumerate() {
        let (code, _) = paired(r, Duration::from_secs(15)).unwrap_or_else(|| panic!("p{i}"));
        *games.entry(code).or_default() += 1;
    }
    assert_eq!(games.len(), 10);
    assert!(games.values().all(|&n| n == 2));
    for r in conns.iter_mut().take(6) {
        not_paired(r, Duration::from_millis(300));
    }
    for t in &tokens {
        let mine = games_of_pg(&db, t);
        assert_eq!(
            mine.len(),
            1,
            "one game per player in the database: {mine:?}"
        );
    }
}

#[test]
fn in_a_cluster_players_of_a_killed_instance_are_paired_after_coming_back() {
    let services = common::services::Services::shared();
    let db = services.database();
    let name = cluster_name();
    let mut doomed = instance(&db, &services.redis, &name, &[]);
    let other = instance(&db, &services.redis, &name, &[]);
    let (ta, tb) = (token::generate(), token::generate());
    let a = seeker(&doomed.addr, "a", &ta, blitz());
    doomed.kill9();
    drop(a);
    // Its seek is left in the database, no longer kept alive: a player waiting on the other
    // instance is not paired with someone who is gone.
    std::thread::sleep(Duration::from_millis(3_500));
    let mut b = seeker(&other.addr, "b", &tb, blitz());
    not_paired(&mut b, Duration::from_secs(2));
    // The player comes back (through the other instance) and waits again: paired, once.
    let mut a = seeker(&other.addr, "a", &ta, blitz());
    let (ca, _) = paired(&mut a, Duration::from_secs(10)).expect("a paired after coming back");
    let (cb, _) = paired(&mut b, Duration::from_secs(10)).expect("b paired");
    assert_eq!(ca, cb);
    not_paired(&mut a, Duration::from_millis(1_000));
    assert_eq!(games_of_pg(&db, &ta), vec![ca.clone()]);
    assert_eq!(games_of_pg(&db, &tb), vec![ca]);
}

#[test]
fn in_a_cluster_a_pairing_made_while_the_player_was_away_is_told_when_they_come_back() {
    let services = common::services::Services::shared();
    let db = services.database();
    let name = cluster_name();
    let mut doomed = instance(&db, &services.redis, &name, &[]);
    let other = instance(&db, &services.redis, &name, &[]);
    let (ta, tb) = (token::generate(), token::generate());
    // a waits on the instance about to die; b comes on the other one at once, before a's
    // seek goes stale: the pairing may be made while a's connection is gone.
    let a = seeker(&doomed.addr, "a", &ta, blitz());
    doomed.kill9();
    drop(a);
    let mut b = seeker(&other.addr, "b", &tb, blitz());
    let (cb, _) = paired(&mut b, Duration::from_secs(5)).expect("b paired with a's live seek");
    // a comes back and asks again: told of that game, not given a second one.
    let mut a = Raw::hello_as(&other.addr, "a", &ta);
    a.send(&ClientMsg::Seek { choice: blitz() });
    let (ca, st) = paired(&mut a, Duration::from_secs(5)).expect("a told of the pairing");
    assert_eq!(ca, cb);
    assert!(st.you.is_some());
    assert_eq!(games_of_pg(&db, &ta), vec![cb]);
}

#[test]
fn a_lobby_entry_names_its_creator_s_page() {
    let server = Server::scratch(&[]);
    let mut s = settings(GameKind::Draughts, None);
    s.public = true;
    let mut creator = Raw::hello(&server.addr, "Creator");
    let st = creator.state_of(&ClientMsg::Create {
        settings: s,
        request: None,
    });
    let id = st.seats.iter().find_map(|x| x.player.clone()).unwrap();
    let mut other = Raw::hello(&server.addr, "Other");
    other.send(&ClientMsg::Lobby);
    let ServerMsg::Lobby { games } = other.until(|m| matches!(m, ServerMsg::Lobby { .. })) else {
        unreachable!()
    };
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].creator_id.as_deref(), Some(id.as_str()));
    let page = page_of(&mut other, &id);
    assert_eq!(page.name, "Creator");
    assert!(page.kinds.is_empty() && page.recent.is_empty());
}
