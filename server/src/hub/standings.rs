//! What a finished game leaves behind: each player's standing in its kind (games, results,
//! colours), the rating change of a rated game (Glicko-2, in the game's end as both players
//! and the spectators see it), the fair-play counts; and what is read back from them: a
//! player's page and the leaderboard.
//!
//! The writes go in the same transaction as the game's end, so a game counts exactly once.
//! They add to what is stored (a rating moves by its change), so that two games of one player
//! ending at once on two instances both count.

use takhte_protocol::rating::{
    KindRecord, LeaderRow, PlayerPage, RatingChange, RecentGame, PROVISIONAL_DEVIATION,
};
use takhte_protocol::{EndState, ErrorCode, GameEvent};
use takhte_rules::{GameKind, Side};

use super::Hub;
use crate::game::{GameRecord, Live, Refusal};
use crate::rating::{after_game, Glicko};
use crate::store::{Standing, StandingChange, StoreError, Write};

/// Rated games against the same opponent that count for the rating, each day.
pub const RATED_PER_DAY_PER_OPPONENT: u32 = 3;
/// The leaderboard's length.
pub const LEADERBOARD: usize = 50;
/// Recent games on a player's page.
pub const RECENT_GAMES: usize = 20;

/// The day of a time (days since the Unix epoch, UTC).
pub fn day_of(ms: u64) -> i64 {
    (ms / 86_400_000) as i64
}

/// Two players in the order the store keeps a pair in.
fn pair<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// White's score of an end (1, ½, 0).
fn white_score(end: &EndState) -> f64 {
    match end.winner {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    }
}

impl Hub {
    /// A player's rating in a kind (a new player's when none is stored).
    pub(super) async fn rating_of(
        &self,
        token_hash: &str,
        kind: GameKind,
    ) -> Result<Glicko, StoreError> {
        Ok(self
            .store
            .standings(token_hash)
            .await?
            .into_iter()
            .find(|(k, _)| k == kind.name())
            .map(|(_, s)| s.glicko)
            .unwrap_or_default())
    }

    /// Puts each seated player's rating into a rated game's seats (as the game begins).
    pub(super) async fn seat_ratings(&self, rec: &mut GameRecord) -> Result<(), StoreError> {
        if !rec.settings.rated {
            return Ok(());
        }
        let kind = rec.kind();
        for seat in rec.seats.iter_mut().flatten() {
            if seat.rating.is_none() {
                seat.rating = Some(self.rating_of(&seat.token_hash, kind).await?.shown());
            }
        }
        Ok(())
    }

    /// When `events` end the game `next`: what the end adds to the players' standings (the
    /// writes), and in a rated game the rating changes, put into the end (in `next` and in
    /// the event) so that everyone is told them with it.
    pub(super) async fn settle_end(
        &self,
        next: &mut Live,
        events: &mut [GameEvent],
    ) -> Result<Vec<Write>, StoreError> {
        let Some(end) = next.rec.end.clone() else {
            return Ok(Vec::new());
        };
        if !events.iter().any(|e| matches!(e, GameEvent::Ended { .. })) {
            return Ok(Vec::new());
        }
        let [Some(white), Some(black)] = next.rec.seats.clone() else {
            return Ok(Vec::new());
        };
        let rec = &next.rec;
        let kind = rec.kind();
        let mut end = end;
        let mut writes = Vec::new();
        if end.reason == "aborted" {
            // No result: nothing counts.
            if rec.settings.rated {
                end.unrated = Some("aborted".into());
            }
        } else {
            let score = white_score(&end);
            let mut rated = [None, None];
            if rec.settings.rated {
                let (a, b) = pair(&white.token_hash, &black.token_hash);
                let today = day_of(rec.updated_ms.max(rec.created_ms));
                if self.store.rated_pairs(a, b, today).await? >= RATED_PER_DAY_PER_OPPONENT {
                    end.unrated = Some("same-opponent".into());
                } else {
                    let before = [
                        self.rating_of(&white.token_hash, kind).await?,
                        self.rating_of(&black.token_hash, kind).await?,
                    ];
                    let after = after_game(before[0], before[1], score);
                    let change = |i: usize| RatingChange {
                        before: before[i].shown().rating,
                        after: after[i].shown().rating,
                        provisional: after[i].shown().provisional(),
                    };
                    end.ratings = Some([change(0), change(1)]);
                    for i in 0..2 {
                        rated[i] = Some((
                            after[i].rating - before[i].rating,
                            after[i].deviation,
                            after[i].volatility,
                        ));
                    }
                    writes.push(Write::RatedPair {
                        a: a.to_string(),
                        b: b.to_string(),
                        day: today,
                    });
                    if end.reason == "abandoned" {
                        if let Some(loser) = end.winner.map(Side::opponent) {
                            let seat = if loser == Side::White { &white } else { &black };
                            writes.push(Write::Abandoned {
                                token_hash: seat.token_hash.clone(),
                                at_ms: rec.updated_ms,
                            });
                        }
                    }
                }
            }
            for (i, seat) in [&white, &black].into_iter().enumerate() {
                // Their name, for their page and the leaderboard.
                writes.push(Write::Player {
                    token_hash: seat.token_hash.clone(),
                    id: crate::player_id(&seat.token_hash),
                    name: seat.name.clone(),
                });
                let mine = if i == 0 { score } else { 1.0 - score };
                let result = if mine > 0.75 {
                    [1, 0, 0]
                } else if mine > 0.25 {
                    [0, 1, 0]
                } else {
                    [0, 0, 1]
                };
                writes.push(Write::Standing(StandingChange {
                    token_hash: seat.token_hash.clone(),
                    kind: kind.name().to_string(),
                    rated: rated[i],
                    result,
                    colour: if i == 0 { [1, 0] } else { [0, 1] },
                }));
            }
        }
        next.rec.end = Some(end.clone());
        for e in events.iter_mut() {
            if let GameEvent::Ended { end: e_end, .. } = e {
                *e_end = end.clone();
            }
        }
        Ok(writes)
    }

    /// A player's page: their ratings and results in each kind, and their recent games that
    /// `asker` may look at (their own, or games open to spectators).
    pub async fn player_page(&self, id: &str, asker: &str) -> Result<PlayerPage, Refusal> {
        let refusal = |e: StoreError| super::store_refusal(e);
        let player = self
            .store
            .player_by_id(id)
            .await
            .map_err(refusal)?
            .ok_or(Refusal {
                code: ErrorCode::UnknownPlayer,
                message: "no player has this id".into(),
            })?;
        let kinds = self
            .store
            .standings(&player.token_hash)
            .await
            .map_err(refusal)?
            .into_iter()
            .filter_map(|(k, s)| Some(kind_record(GameKind::parse(&k)?, &s)))
            .collect();
        let games = self
            .store
            .ended_games_of(&player.token_hash, RECENT_GAMES * 2)
            .await
            .map_err(refusal)?;
        let recent = games
            .iter()
            .filter(|g| g.settings.spectators || g.seat_of(asker).is_some())
            .filter_map(|g| recent_game(g, &player.token_hash))
            .take(RECENT_GAMES)
            .collect();
        Ok(PlayerPage {
            id: player.id,
            name: player.name,
            kinds,
            recent,
        })
    }

    /// The leaderboard of a kind (its best established players) and the asker's place.
    pub async fn leaderboard(
        &self,
        kind: GameKind,
        asker: &str,
    ) -> Result<(Vec<LeaderRow>, Option<LeaderRow>), Refusal> {
        let refusal = |e: StoreError| super::store_refusal(e);
        let rows: Vec<LeaderRow> = self
            .store
            .leaderboard(kind.name(), PROVISIONAL_DEVIATION, LEADERBOARD)
            .await
            .map_err(refusal)?
            .into_iter()
            .enumerate()
            .map(|(i, (p, s))| LeaderRow {
                place: i as u32 + 1,
                id: p.id,
                name: p.name,
                rating: s.glicko.shown().rating,
                played: s.rated_games,
            })
            .collect();
        let mine = self
            .store
            .standings(asker)
            .await
            .map_err(refusal)?
            .into_iter()
            .find(|(k, _)| k == kind.name())
            .map(|(_, s)| s);
        let you = match mine {
            Some(s) if !s.glicko.shown().provisional() && s.rated_games > 0 => {
                let above = self
                    .store
                    .rated_above(kind.name(), PROVISIONAL_DEVIATION, s.glicko.rating)
                    .await
                    .map_err(refusal)?;
                let name = self
                    .store
                    .player(asker)
                    .await
                    .map_err(refusal)?
                    .map(|p| p.name)
                    .unwrap_or_default();
                Some(LeaderRow {
                    place: above + 1,
                    id: crate::player_id(asker),
                    name,
                    rating: s.glicko.shown().rating,
                    played: s.rated_games,
                })
            }
            _ => None,
        };
        Ok((rows, you))
    }
}

fn kind_record(kind: GameKind, s: &Standing) -> KindRecord {
    KindRecord {
        kind,
        rating: s.glicko.shown(),
        played: s.played,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
    }
}

fn recent_game(g: &GameRecord, token_hash: &str) -> Option<RecentGame> {
    let me = g.seat_of(token_hash)?;
    let end = g.end.as_ref()?;
    if end.reason == "aborted" {
        return None;
    }
    let opponent = g.seats[me.opponent().index()].as_ref()?.name.clone();
    let result = match end.winner {
        Some(w) if w == me => "win",
        Some(_) => "loss",
        None => "draw",
    };
    Some(RecentGame {
        code: g.code.clone(),
        kind: g.kind(),
        opponent,
        result: result.into(),
        rated: g.settings.rated && end.ratings.is_some(),
        ended_ms: g.updated_ms,
    })
}
