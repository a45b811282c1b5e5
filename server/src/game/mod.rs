//! A game as the server keeps it: the record stored after every change (the truth), the live
//! copy rebuilt from it (a cache), and [`Live::apply`], which turns a player's request into
//! events or a refusal. Nothing here touches sockets or the database.
//!
//! The server is the authority: it checks every move with the rules of `takhte-rules`, rolls
//! the die of dice chess, lays the mines of minesweeper chess (from a seed that never leaves
//! it) and keeps the clocks in wall-clock milliseconds, so that any instance can take a game
//! over from its record and the clocks go on correctly.
//!
//! - `record`: the stored record and the words of a request (who, what, when).
//! - `live`: the game in memory and how a request changes it.

mod live;
mod record;

pub use live::*;
pub use record::*;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use takhte_protocol::{ClockSpec, ColourChoice, ErrorCode, GameEvent, GameSettings};
    use takhte_rules::{GameKind, Side};

    fn actor(n: u8) -> Actor {
        Actor {
            token_hash: format!("hash{n}"),
            name: format!("player {n}"),
        }
    }

    fn started(kind: GameKind, clock: Option<ClockSpec>) -> (Live, rand_chacha::ChaCha8Rng) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let settings = GameSettings {
            kind,
            clock,
            colour: ColourChoice::White,
            public: false,
            position: None,
            spectators: false,
            audience: false,
            rated: false,
        };
        let mut g = Live::create("ABCDEF".into(), settings, &actor(1), 0, &mut rng).unwrap();
        g.apply(&actor(2), Command::Join, &Context::at(0), &mut rng)
            .unwrap();
        (g, rng)
    }

    #[test]
    fn refusals_leave_the_game_as_it_was() {
        let (mut g, mut rng) = started(GameKind::Chess, None);
        let before = g.rec.clone();
        let cases = [
            (
                actor(2),
                Command::Move {
                    ply: 0,
                    mv: "e7e5".into(),
                },
                ErrorCode::NotYourTurn,
            ),
            (
                actor(1),
                Command::Move {
                    ply: 1,
                    mv: "e2e4".into(),
                },
                ErrorCode::WrongPly,
            ),
            (
                actor(1),
                Command::Move {
                    ply: 0,
                    mv: "e2e5".into(),
                },
                ErrorCode::IllegalMove,
            ),
            (
                actor(1),
                Command::Move {
                    ply: 0,
                    mv: "zz".into(),
                },
                ErrorCode::IllegalMove,
            ),
            (
                actor(3),
                Command::Move {
                    ply: 0,
                    mv: "e2e4".into(),
                },
                ErrorCode::NotAPlayer,
            ),
            (actor(1), Command::Roll { ply: 0 }, ErrorCode::CannotRoll),
            (actor(1), Command::AnswerDraw(true), ErrorCode::NoDrawOffer),
            (actor(1), Command::ClaimWin, ErrorCode::CannotClaim),
            (actor(3), Command::Join, ErrorCode::GameFull),
        ];
        for (who, cmd, code) in cases {
            let err = g
                .apply(&who, cmd.clone(), &Context::at(10), &mut rng)
                .unwrap_err();
            assert_eq!(err.code, code, "{cmd:?}");
            assert_eq!(g.rec, before, "{cmd:?} changed the game");
        }
    }

    #[test]
    fn a_move_sent_twice_is_played_once() {
        let (mut g, mut rng) = started(GameKind::Chess, None);
        let (ev, _) = g
            .apply(
                &actor(1),
                Command::Move {
                    ply: 0,
                    mv: "e2e4".into(),
                },
                &Context::at(5),
                &mut rng,
            )
            .unwrap();
        assert_eq!(ev.len(), 1);
        let (ev, _) = g
            .apply(
                &actor(1),
                Command::Move {
                    ply: 0,
                    mv: "e2e4".into(),
                },
                &Context::at(6),
                &mut rng,
            )
            .unwrap();
        assert!(ev.is_empty());
        assert_eq!(g.rec.moves, ["e2e4"]);
    }

    #[test]
    fn dice_faces_come_from_the_server() {
        let (mut g, mut rng) = started(GameKind::DiceChess, None);
        let first = g.game().side_to_move();
        let who = if first == Side::White {
            actor(1)
        } else {
            actor(2)
        };
        // A pawn move without a roll, with a made-up face.
        let pawn = if first == Side::White {
            "1:a2a3"
        } else {
            "1:a7a6"
        };
        let err = g
            .apply(
                &who,
                Command::Move {
                    ply: 0,
                    mv: pawn.into(),
                },
                &Context::at(1),
                &mut rng,
            )
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::ForgedDie);
        let (ev, _) = g
            .apply(&who, Command::Roll { ply: 0 }, &Context::at(1), &mut rng)
            .unwrap();
        let GameEvent::Rolled { face, .. } = ev[0] else {
            panic!("{ev:?}")
        };
        let wrong = if face == 1 { 2 } else { 1 };
        let forged = format!("{wrong}:{}", &pawn[2..]);
        let err = g
            .apply(
                &who,
                Command::Move { ply: 0, mv: forged },
                &Context::at(2),
                &mut rng,
            )
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::ForgedDie);
        // Asked again (a resend after a lost connection): no second roll.
        let (ev, _) = g
            .apply(&who, Command::Roll { ply: 0 }, &Context::at(2), &mut rng)
            .unwrap();
        assert!(ev.is_empty());
        assert_eq!(g.rec.rolled, Some(face));
    }

    #[test]
    fn clocks_charge_the_mover_and_flags_fall() {
        let spec = ClockSpec {
            base_ms: 10_000,
            increment_ms: 1_000,
        };
        let (mut g, mut rng) = started(GameKind::Chess, Some(spec));
        g.apply(
            &actor(1),
            Command::Move {
                ply: 0,
                mv: "e2e4".into(),
            },
            &Context::at(1_000),
            &mut rng,
        )
        .unwrap();
        // Black's clock runs from 1 000 ms; 4 000 ms later (300 of them allowed for lag).
        g.apply(
            &actor(2),
            Command::Move {
                ply: 1,
                mv: "e7e5".into(),
            },
            &Context::at(5_000),
            &mut rng,
        )
        .unwrap();
        let c = g.rec.clock.unwrap();
        assert_eq!(c.remaining[1], 10_000 - 3_700 + 1_000);
        assert_eq!(c.running, Some(0));
        // White's flag: 10 000 (no increment for the move made before the clocks ran) + the
        // allowance.
        assert_eq!(c.remaining[0], 10_000);
        assert!(g.check_time(5_000 + 10_299).is_empty());
        let ev = g.check_time(5_000 + 10_300);
        assert!(
            matches!(&ev[0], GameEvent::Ended { end, .. } if end.reason == "time" && end.winner == Some(Side::Black))
        );
    }
}
