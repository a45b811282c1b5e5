//! Ratings as the server sends them: Glicko-2 per game kind (the rating, its deviation and
//! volatility), whether a rating is still provisional, the change a rated game made, a
//! player's page, the leaderboard, and the choices of quick pairing.

use serde::{Deserialize, Serialize};
use takhte_rules::GameKind;

use crate::messages::{forms, ClockSpec};

/// A new player's rating (Glicko-2's start).
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation: high, as nothing is known yet.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// A rating is provisional (shown as "1500?") while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A rating as shown: Glicko-2's rating and deviation, rounded (the server keeps them, and
/// the volatility, exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (1500 is a new player's).
    pub rating: i32,
    /// The rating deviation: how uncertain the rating is.
    pub deviation: i32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING as i32,
            deviation: START_DEVIATION as i32,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (shown as "1500?": too few games to trust it).
    ///
    /// ```
    /// use takhte_protocol::rating::Rating;
    /// assert!(Rating::default().provisional());
    /// assert!(!Rating { rating: 1620, deviation: 60 }.provisional());
    /// ```
    pub fn provisional(&self) -> bool {
        self.deviation as f64 > PROVISIONAL_DEVIATION
    }
}

/// What a rated game did to one player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The rating before the game (shown, a whole number).
    pub before: i32,
    /// After.
    pub after: i32,
    /// Whether the rating after the game is still provisional.
    pub provisional: bool,
}

/// One of the quick pairing pools: a game and a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PoolChoice {
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control (quick pairing always has one).
    pub clock: ClockSpec,
}

impl PoolChoice {
    /// The pool's key: `chess:180+2` (seconds and increment seconds).
    pub fn key(&self) -> String {
        format!(
            "{}:{}+{}",
            self.kind.name(),
            self.clock.base_ms / 1000,
            self.clock.increment_ms / 1000
        )
    }

    /// The pool of a key ([`PoolChoice::key`]); `None` for anything else.
    ///
    /// ```
    /// use takhte_protocol::rating::PoolChoice;
    /// let c = PoolChoice::parse("draughts:300+3").unwrap();
    /// assert_eq!(c.key(), "draughts:300+3");
    /// assert_eq!(PoolChoice::parse("chess:3+2+1"), None);
    /// ```
    pub fn parse(key: &str) -> Option<PoolChoice> {
        let (kind, clock) = key.split_once(':')?;
        let (base, inc) = clock.split_once('+')?;
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 6 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(base) || !digits(inc) {
            return None;
        }
        Some(PoolChoice {
            kind: GameKind::parse(kind)?,
            clock: ClockSpec {
                base_ms: base.parse::<u64>().ok()? * 1000,
                increment_ms: inc.parse::<u64>().ok()? * 1000,
            },
        })
    }

    /// The pools the app offers with one tap: chess 3+2, 5+3 and 10+5; Turkish draughts 5+3;
    /// dice chess 3+2; minesweeper chess 5+3.
    pub fn common() -> Vec<PoolChoice> {
        let c = |kind, minutes: u64, inc: u64| PoolChoice {
            kind,
            clock: ClockSpec {
                base_ms: minutes * 60_000,
                increment_ms: inc * 1000,
            },
        };
        vec![
            c(GameKind::Chess, 3, 2),
            c(GameKind::Chess, 5, 3),
            c(GameKind::Chess, 10, 5),
            c(GameKind::Draughts, 5, 3),
            c(GameKind::DiceChess, 3, 2),
            c(GameKind::MineChess, 5, 3),
        ]
    }
}

/// A player's rating in one game, as a page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindRecord {
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The rating.
    pub rating: Rating,
    /// Online games played to an end (rated or not; aborted games are not counted).
    pub played: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// One of a player's recent online games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentGame {
    /// Its code (it opens in review).
    pub code: String,
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The opponent's name.
    pub opponent: String,
    /// The player's result: `win`, `draw` or `loss`.
    pub result: String,
    /// Whether the game was rated.
    pub rated: bool,
    /// When it ended (milliseconds since the Unix epoch).
    pub ended_ms: u64,
}

/// A player's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPage {
    /// The player's public id.
    pub id: String,
    /// The name they last played under.
    pub name: String,
    /// Each game they have played online.
    pub kinds: Vec<KindRecord>,
    /// Their recent online games (newest first) that the asker may look at.
    pub recent: Vec<RecentGame>,
}

/// A row of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderRow {
    /// The place (1 is the top).
    pub place: u32,
    /// The player's public id.
    pub id: String,
    /// Their name.
    pub name: String,
    /// Their rating (shown, a whole number).
    pub rating: i32,
    /// Rated games played.
    pub played: u32,
}
