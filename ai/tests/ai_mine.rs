//! The minesweeper-chess AI: exact mine probabilities on hand-computed cases, the same move
//! whatever the hidden mines when the visible state is the same, mates in one and two.

use std::sync::atomic::AtomicBool;

use takhte_ai::mine::odds::mine_odds;
use takhte_ai::{think, Answer, Request};
use takhte_rules::bitboard::{bit, squares, Bitboard};
use takhte_rules::mine::{Move, Position, FOG_ZONE};
use takhte_rules::{AnyGame, AnyMove, Line, Rules, Square};

fn sq(name: &str) -> usize {
    Square::parse(name, 10).unwrap().index()
}

fn odds(text: &str) -> [f64; 80] {
    mine_odds(&Position::from_text(text).unwrap().visible()).p
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

const KINGS: &str = "4k3/8/8/8/8/8/8/8/8/4K3 w -";

#[test]
fn start_position_odds_are_the_plain_share() {
    let p = mine_odds(&Position::start(9).visible()).p;
    for s in squares(FOG_ZONE) {
        assert!(close(p[s], 4.0 / 32.0));
    }
    assert_eq!(p[sq("e2")], 0.0);
}

#[test]
fn one_mine_next_to_a_one() {
    // One mine left; a4 shows 1: it lies on a5, b4 or b5.
    let p = odds(&format!("{KINGS} b4 a4"));
    for s in ["a5", "b4", "b5"] {
        assert!(close(p[sq(s)], 1.0 / 3.0), "{s}: {}", p[sq(s)]);
    }
    assert_eq!(p[sq("h7")], 0.0);
    assert_eq!(p[sq("a4")], 0.0);
    // a4 shows 0: the mine is on one of the 28 squares not next to it.
    let p = odds(&format!("{KINGS} h7 a4"));
    assert_eq!(p[sq("b5")], 0.0);
    assert!(close(p[sq("h7")], 1.0 / 28.0));
    assert!(close(p[sq("d6")], 1.0 / 28.0));
}

#[test]
fn overlapping_numbers() {
    // One mine; a4 and b5 revealed, c5 revealed showing 0: b4 is clear, so the mine is on a5.
    let p = odds(&format!("{KINGS} a5 a4,b5,c5"));
    assert!(close(p[sq("a5")], 1.0));
    assert_eq!(p[sq("b4")], 0.0);
    // Two mines; a4 and c4 both show 1. Either one mine on b4 or b5 (touching both) and the
    // other on one of the 24 squares touching neither: 2 × 24 placements; or a5 with one of
    // c5, d4, d5: 3 placements. 51 in all.
    let p = odds(&format!("{KINGS} b4,h7 a4,c4"));
    let expect = [
        ("b4", 24.0),
        ("b5", 24.0),
        ("a5", 3.0),
        ("c5", 1.0),
        ("d4", 1.0),
        ("d5", 1.0),
        ("h7", 2.0),
        ("e6", 2.0),
    ];
    for (s, n) in expect {
        assert!(
            close(p[sq(s)], n / 51.0),
            "{s}: {} vs {}",
            p[sq(s)],
            n / 51.0
        );
    }
    let total: f64 = p.iter().sum();
    assert!(close(total, 2.0), "{total}");
}

#[test]
fn a_shown_mine_is_certain() {
    let p = odds(&format!("{KINGS} e5,h7 d4,e4,f4,d5,e5,f5"));
    assert_eq!(p[sq("e5")], 1.0);
    let total: f64 = p.iter().sum();
    assert!(close(total, 2.0), "{total}");
}

/// Every placement of the hidden mines that shows the same as `pos`.
fn same_looking(pos: &Position) -> Vec<Bitboard> {
    let v = pos.visible();
    let fog: Vec<usize> = squares(v.fog()).collect();
    let hidden = v.mines_left as usize - v.known_mines.count_ones() as usize;
    let text = pos.to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let mut out = Vec::new();
    let mut pick = vec![0usize; hidden];
    fn rec(
        i: usize,
        start: usize,
        fog: &[usize],
        pick: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]),
    ) {
        if i == pick.len() {
            f(pick);
            return;
        }
        for j in start..fog.len() {
            pick[i] = fog[j];
            rec(i + 1, j + 1, fog, pick, f);
        }
    }
    rec(0, 0, &fog, &mut pick, &mut |chosen| {
        let mines = chosen.iter().fold(v.known_mines, |m, &s| m | bit(s));
        let list: Vec<String> = squares(mines)
            .map(|s| Square(s as u8).to_string())
            .collect();
        let mines_text = if list.is_empty() {
            "-".to_string()
        } else {
            list.join(",")
        };
        let t = format!(
            "{} {} {} {} {}",
            fields[0], fields[1], fields[2], mines_text, fields[4]
        );
        if let Ok(p) = Position::from_text(&t) {
            if p.visible() == v {
                out.push(mines);
            }
        }
    });
    out
}

fn answer(pos: Position, level: u8) -> Option<Answer> {
    let req = Request {
        game: AnyGame::Mine(Line::new(pos)),
        level,
        seed: 5,
        rolled: None,
        movetime_ms: 2000,
    };
    think(&req, &AtomicBool::new(false))
}

fn with_mines(pos: &Position, mines: Bitboard) -> Position {
    let text = pos.to_text();
    let f: Vec<&str> = text.split(' ').collect();
    let list: Vec<String> = squares(mines)
        .map(|s| Square(s as u8).to_string())
        .collect();
    Position::from_text(&format!(
        "{} {} {} {} {}",
        f[0],
        f[1],
        f[2],
        list.join(","),
        f[4]
    ))
    .unwrap()
}

#[test]
fn hidden_mines_do_not_change_the_move() {
    // The start (nothing revealed) and a few plies in, with numbers showing.
    let mut pos = Position::start(3);
    let mut positions = vec![pos];
    for m in ["e2e4", "e9e7", "d2d4", "d9d7"] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(&mv).unwrap();
        if pos.outcome().is_none() && pos.mines_left() == 4 {
            positions.push(pos);
        }
    }
    let mut tried = 0;
    for p in positions {
        let layouts = same_looking(&p);
        assert!(layouts.contains(&p.mines()), "{}", p.to_text());
        if layouts.len() < 2 {
            continue;
        }
        tried += 1;
        let others = [
            layouts[0],
            layouts[layouts.len() / 2],
            layouts[layouts.len() - 1],
        ];
        for level in [2, 3] {
            let first = answer(with_mines(&p, others[0]), level);
            assert!(first.is_some());
            for &m in &others[1..] {
                assert_eq!(
                    answer(with_mines(&p, m), level),
                    first,
                    "level {level}, {}",
                    p.to_text()
                );
            }
        }
    }
    assert!(tried >= 2);
}

fn best(text: &str, level: u8) -> Move {
    match answer(Position::from_text(text).unwrap(), level) {
        Some(Answer::Move(AnyMove::Mine(m))) => m,
        other => panic!("no move for {text}: {other:?}"),
    }
}

fn mated(p: &Position) -> bool {
    p.legal_moves().is_empty() && p.in_check()
}

#[test]
fn finds_mate_in_one_and_two_beside_the_fog() {
    // Mate in one: Rh10#, the rook passing over fogged squares (only the landing counts).
    let text = "k7/8/1K6/8/8/8/8/8/8/7R w - a4,b5 -";
    let mv = best(text, 4);
    let mut p = Position::from_text(text).unwrap();
    p.play(&mv).unwrap();
    assert!(mated(&p), "{:?}", mv);
    // Mate in two: Kb8, Kb10 (forced), Rh10#.
    let text = "k7/8/2K5/8/8/8/8/8/8/7R w - a4,b5 -";
    let mv = best(text, 5);
    let mut p = Position::from_text(text).unwrap();
    p.play(&mv).unwrap();
    for reply in p.legal_moves() {
        let mut q = p;
        q.play(&reply).unwrap();
        let mate = best(&q.to_text(), 4);
        let mut r = q;
        r.play(&mate).unwrap();
        assert!(
            mated(&r),
            "after {:?} {:?}: {:?} is no mate",
            mv,
            reply,
            mate
        );
    }
}

#[test]
fn a_known_mine_is_not_stepped_on() {
    // The knight on d4 could go to f5, which shows a mine: it goes elsewhere.
    let text = "4k3/8/8/8/8/8/3N4/8/8/4K3 w - f5,h7 d4,e4,f4,d5,e5,f5,c6,d6,e6";
    match best(text, 3) {
        Move::Piece(m) => assert_ne!(m.to.to_string(), "f5"),
        Move::Sapper(_) => {}
    }
}

/// The search's score of `text` at depth 3, with the contempt refinement on or off.
fn score_with_contempt(text: &str, contempt: bool) -> i32 {
    use takhte_ai::mine::MineGame;
    use takhte_ai::search::{search, Features, Limits};
    let pos = Position::from_text(text).unwrap();
    let (game, root) = MineGame::new(&pos.visible());
    let limits = Limits {
        features: Features {
            contempt,
            ..Features::ALL
        },
        ..Limits::depth(3)
    };
    let mut tt = takhte_ai::tt::Tt::with_megabytes(1);
    search(
        &game,
        &root,
        &limits,
        &mut tt,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("a move")
    .score
}

#[test]
fn with_contempt_a_draw_is_worth_less_than_nothing_to_the_searching_side() {
    // King and light-squared bishop each: every move keeps the material a draw by the rules.
    // For either side to move the draw scores 0 without contempt and minus the contempt with
    // it (the side the search plays for is always the one to move at the root).
    for text in [
        "k7/8/2b5/8/8/8/8/8/6B1/4K3 w - - -",
        "k7/8/2b5/8/8/8/8/8/6B1/4K3 b - - -",
    ] {
        assert_eq!(score_with_contempt(text, false), 0, "{text}");
        assert_eq!(
            score_with_contempt(text, true),
            -takhte_ai::mine::CONTEMPT,
            "{text}"
        );
    }
}
