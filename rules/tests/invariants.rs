//! Invariants over seeded random playouts of every game: no panic, the position text
//! round-trips, `legal_moves` agrees with `is_legal`, move texts round-trip, an illegal move
//! leaves the position untouched, and every playout ends in an outcome or at the ply cap.
//! Also: garbage position and move texts are refused with an error, never a panic.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use takhte_rules::{chess, dice, draughts, mine, Line, Rules, Side};

fn playouts<G: Rules + PartialEq>(
    name: &str,
    start: impl Fn(u64) -> G,
    games: u64,
    cap: usize,
) -> (usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut ended, mut plies) = (0, 0);
    for g in 0..games {
        let mut line = Line::new(start(g));
        for _ in 0..cap {
            let pos = line.position().clone();
            let text = pos.to_text();
            let back = G::from_text(&text)
                .unwrap_or_else(|e| panic!("{name}: {text} does not read back: {e}"));
            assert_eq!(back.to_text(), text, "{name}: text round trip");
            assert!(back == pos, "{name}: position round trip of {text}");
            let moves = line.legal_moves();
            for m in &moves {
                assert!(
                    pos.is_legal(m),
                    "{name}: listed move {m:?} not legal in {text}"
                );
                let t = pos.move_to_text(m);
                assert_eq!(
                    pos.parse_move(&t).as_ref(),
                    Ok(m),
                    "{name}: move text {t} in {text}"
                );
            }
            if line.outcome().is_some() {
                ended += 1;
                break;
            }
            assert!(
                !moves.is_empty(),
                "{name}: no moves but no outcome in {text}"
            );
            let mv = moves[rng.gen_range(0..moves.len())].clone();
            line.play(&mv)
                .unwrap_or_else(|e| panic!("{name}: {mv:?} refused in {text}: {e}"));
            plies += 1;
        }
    }
    (ended, plies)
}

#[test]
fn chess_playouts() {
    let (ended, plies) = playouts("chess", |_| chess::Position::start(), 300, 600);
    assert!(
        ended > 200 && plies > 10_000,
        "{ended} ended, {plies} plies"
    );
}

#[test]
fn mine_chess_playouts() {
    let (ended, plies) = playouts("mine-chess", mine::Position::start, 300, 600);
    assert!(
        ended > 100 && plies > 10_000,
        "{ended} ended, {plies} plies"
    );
}

#[test]
fn draughts_playouts() {
    let (ended, plies) = playouts("draughts", |_| draughts::Position::start(), 1000, 300);
    assert!(
        ended > 500 && plies > 10_000,
        "{ended} ended, {plies} plies"
    );
}

#[test]
fn dice_chess_playouts() {
    let (_ended, plies) = playouts(
        "dice-chess",
        |g| dice::Position::start(if g % 2 == 0 { Side::White } else { Side::Black }),
        1000,
        300,
    );
    assert!(plies > 10_000, "{plies} plies");
}

#[test]
fn illegal_moves_leave_the_position_untouched() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut pos = mine::Position::start(3);
    for _ in 0..60 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let before = pos;
        let bogus = mine::Move::Sapper(takhte_rules::Square(rng.gen_range(0..80)));
        if !pos.is_legal(&bogus) {
            assert!(pos.play(&bogus).is_err());
            assert_eq!(pos, before);
        }
        pos.play(&moves[rng.gen_range(0..moves.len())]).unwrap();
    }
    let mut c = chess::Position::start();
    let before = c;
    let bad = chess::Move {
        from: takhte_rules::Square(12),
        to: takhte_rules::Square(36),
        promotion: None,
    };
    assert!(c.play(&bad).is_err());
    assert_eq!(c, before);
}

fn garbage(rng: &mut ChaCha8Rng, seeds: &[&str]) -> String {
    let alphabet: Vec<char> = "pnbrqkPNBRQKwWbB12345678910/ -,^:x.e3a9h10€ب\t"
        .chars()
        .collect();
    let mut s: Vec<char> = seeds[rng.gen_range(0..seeds.len())].chars().collect();
    for _ in 0..rng.gen_range(1..6) {
        let op = rng.gen_range(0..3);
        let at = if s.is_empty() {
            0
        } else {
            rng.gen_range(0..=s.len())
        };
        match op {
            0 if at < s.len() => {
                s.remove(at);
            }
            1 => s.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
            _ if at < s.len() => s[at] = alphabet[rng.gen_range(0..alphabet.len())],
            _ => {}
        }
    }
    s.into_iter().collect()
}

#[test]
fn garbage_texts_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let seeds = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d5,e6,a4,h7 -",
        "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w",
        "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w",
        "",
    ];
    for _ in 0..20_000 {
        let t = garbage(&mut rng, &seeds);
        let _ = chess::Position::from_text(&t).map(|p| p.legal_moves());
        let _ = mine::Position::from_text(&t).map(|p| p.legal_moves());
        let _ = draughts::Position::from_text(&t).map(|p| p.legal_moves());
        let _ = dice::Position::from_text(&t).map(|p| p.legal_moves());
    }
    let move_seeds = [
        "e2e4", "e7e8q", "e9e10q", "e2^", "3:b2c4", "1:-", "c3-c4", "c3xc5xe5", "O-O", "Nf3", "",
    ];
    let c = chess::Position::start();
    let m = mine::Position::start(1);
    let d = draughts::Position::start();
    let k = dice::Position::start(Side::White);
    for _ in 0..20_000 {
        let t = garbage(&mut rng, &move_seeds);
        let _ = c.parse_move(&t);
        let _ = c.parse_san(&t);
        let _ = m.parse_move(&t);
        let _ = d.parse_move(&t);
        let _ = k.parse_move(&t);
    }
}
