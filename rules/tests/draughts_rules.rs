//! Turkish draughts rules (RULES.md §3).
//!
//! The scenarios live in `tests/data/draughts_*.txt` (one line per check, expected results worked
//! out by hand from the rules); this file is their runner, plus the checks that do not fit a line:
//! repetition through `Line`, texts that must never panic, and invariants over random playouts
//! cross-checked against a small, slow reference generator written here from the rules.

use std::collections::BTreeSet;

use takhte_rules::draughts::{Move, Piece, Position};
use takhte_rules::perft::perft;
use takhte_rules::{EndReason, GameResult, Line, MoveError, Outcome, Rules, Side, Square};

// ---------------------------------------------------------------------------------------------
// The data-file runner.

/// One check: `POSITION | CHECK` from a data file.
struct Case {
    place: String,
    position: String,
    check: String,
}

fn cases(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, check) = line
            .split_once(" | ")
            .unwrap_or_else(|| panic!("{file}:{}: no ' | ' in {line:?}", i + 1));
        out.push(Case {
            place: format!("{file}:{}", i + 1),
            position: position.to_string(),
            check: check.to_string(),
        });
    }
    assert!(!out.is_empty(), "{file} has no cases");
    out
}

fn read(case: &Case) -> Position {
    Position::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.place))
}

fn sq(name: &str) -> Square {
    Square::parse(name, 8).unwrap_or_else(|| panic!("bad square {name}"))
}

/// `M => REST` split in two.
fn arrow<'a>(case: &Case, rest: &'a str) -> (&'a str, &'a str) {
    rest.split_once(" => ")
        .unwrap_or_else(|| panic!("{}: expected 'M => ...'", case.place))
}

/// A `Move` built straight from a move text, bypassing `parse_move` (captured squares are junk
/// for a capture: the position must refuse it anyway).
fn raw_move(text: &str) -> Move {
    let sep = if text.contains('x') { 'x' } else { '-' };
    let path: Vec<Square> = text.split(sep).map(sq).collect();
    let captured = if sep == 'x' {
        vec![path[0]; path.len() - 1]
    } else {
        Vec::new()
    };
    Move { path, captured }
}

fn legal(case: &Case, pos: &Position, text: &str) -> Move {
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{}: {text}: {e}", case.place));
    assert!(
        pos.is_legal(&mv),
        "{}: {text} parsed but is not legal",
        case.place
    );
    assert_eq!(pos.move_to_text(&mv), text, "{}", case.place);
    mv
}

/// Runs one case; `max_perft` is the deepest perft to run.
fn run(case: &Case, max_perft: u32) {
    let (kind, rest) = case
        .check
        .split_once(' ')
        .unwrap_or((case.check.as_str(), ""));
    let at = &case.place;
    match kind {
        "moves" => {
            let pos = read(case);
            let moves = pos.legal_moves();
            let got: Vec<String> = moves.iter().map(|m| pos.move_to_text(m)).collect();
            let set: BTreeSet<String> = got.iter().cloned().collect();
            assert_eq!(set.len(), got.len(), "{at}: duplicate moves in {got:?}");
            let want: BTreeSet<String> = rest.split_whitespace().map(str::to_string).collect();
            assert_eq!(set, want, "{at}: legal moves of {}", case.position);
            for m in &want {
                legal(case, &pos, m);
            }
        }
        "captures" => {
            let pos = read(case);
            let (m, squares) = arrow(case, rest);
            let mv = legal(case, &pos, m);
            let got: Vec<String> = mv.captured.iter().map(|s| s.to_string()).collect();
            let want: Vec<&str> = squares.split_whitespace().collect();
            assert_eq!(got, want, "{at}: captured squares of {m}");
        }
        "play" => {
            let pos = read(case);
            let (m, after) = arrow(case, rest);
            let mv = legal(case, &pos, m);
            let mut next = pos.clone();
            next.play(&mv)
                .unwrap_or_else(|e| panic!("{at}: play {m}: {e}"));
            assert_eq!(next.to_text(), after, "{at}: after {m}");
            assert_eq!(Position::from_text(after).unwrap(), next, "{at}");
        }
        "illegal" => {
            let pos = read(case);
            let (m, why) = arrow(case, rest);
            match pos.parse_move(m) {
                Err(MoveError::Illegal(reason)) => {
                    assert!(
                        reason.contains(why),
                        "{at}: {m}: reason {reason:?} does not say {why:?}"
                    )
                }
                other => panic!("{at}: {m}: expected Illegal, got {other:?}"),
            }
            let mut copy = pos.clone();
            let mv = raw_move(m);
            assert!(!pos.is_legal(&mv), "{at}: {m} is_legal");
            assert!(
                matches!(copy.play(&mv), Err(MoveError::Illegal(_))),
                "{at}: play {m}"
            );
            assert_eq!(copy, pos, "{at}: a refused move changed the position");
        }
        "irreversible" | "reversible" => {
            let pos = read(case);
            let mv = legal(case, &pos, rest);
            assert_eq!(
                pos.is_irreversible(&mv),
                kind == "irreversible",
                "{at}: {rest}"
            );
        }
        "outcome" => {
            let pos = read(case);
            let got = pos
                .outcome()
                .map(|o| o.to_string())
                .unwrap_or_else(|| "none".to_string());
            assert_eq!(got, rest, "{at}: outcome of {}", case.position);
            if pos.outcome().is_some() {
                assert!(pos.legal_moves().is_empty(), "{at}: moves after the end");
                assert_eq!(pos.move_count(), 0, "{at}");
            } else {
                assert!(
                    !pos.legal_moves().is_empty(),
                    "{at}: no moves but no outcome"
                );
            }
        }
        "gameover" => {
            let pos = read(case);
            assert_eq!(
                pos.parse_move(rest),
                Err(MoveError::GameOver),
                "{at}: {rest}"
            );
            let mut copy = pos.clone();
            assert_eq!(copy.play(&raw_move(rest)), Err(MoveError::GameOver), "{at}");
            assert_eq!(copy, pos, "{at}");
        }
        "text" => {
            let pos = read(case);
            assert_eq!(pos.to_text(), case.position, "{at}: round trip");
        }
        "error" => match Position::from_text(&case.position) {
            Err(e) => assert!(
                e.message.contains(rest),
                "{at}: error {:?} does not say {rest:?}",
                e.message
            ),
            Ok(p) => panic!("{at}: {:?} read as {p:?}", case.position),
        },
        "malformed" => {
            let pos = read(case);
            assert!(
                matches!(pos.parse_move(rest), Err(MoveError::Malformed(_))),
                "{at}: {rest:?}"
            );
        }
        "perft" => {
            let pos = read(case);
            let mut it = rest
                .split_whitespace()
                .map(|n| n.parse::<u64>().expect("number"));
            let (depth, leaves) = (it.next().unwrap() as u32, it.next().unwrap());
            if depth <= max_perft {
                assert_eq!(perft(&pos, depth), leaves, "{at}: perft {depth}");
                assert_eq!(pos.perft(depth), leaves, "{at}: fast perft {depth}");
            }
        }
        _ => panic!("{at}: unknown check {kind:?}"),
    }
}

#[test]
fn move_scenarios() {
    for c in cases("draughts_moves.txt") {
        run(&c, 0);
    }
}

#[test]
fn end_scenarios() {
    for c in cases("draughts_end.txt") {
        run(&c, 0);
    }
}

#[test]
fn text_scenarios() {
    for c in cases("draughts_text.txt") {
        run(&c, 0);
    }
}

#[test]
fn perft_from_start() {
    for c in cases("draughts_perft.txt") {
        run(&c, 6);
    }
}

#[test]
#[ignore = "about ten million leaves; run with --ignored"]
fn perft_from_start_deep() {
    for c in cases("draughts_perft.txt") {
        run(&c, 7);
    }
}

// ---------------------------------------------------------------------------------------------
// Threefold repetition through `Line`.

fn play_all(line: &mut Line<Position>, moves: &[&str]) {
    for m in moves {
        let mv = line
            .position()
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        line.play(&mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// White king a1 and man c2, Black king h8 and man f7: no piece can reach another.
const SHUFFLE: &str = "7B/5b2/8/8/8/8/2w5/W7 w";

#[test]
fn kings_shuffling_repeat_three_times() {
    let mut line = Line::new(Position::from_text(SHUFFLE).unwrap());
    play_all(&mut line, &["a1-b1", "h8-g8", "b1-a1", "g8-h8"]);
    assert_eq!(line.occurrences(), 2);
    assert_eq!(line.outcome(), None);
    play_all(&mut line, &["a1-b1", "h8-g8", "b1-a1"]);
    assert_eq!(line.outcome(), None);
    play_all(&mut line, &["g8-h8"]);
    assert_eq!(line.occurrences(), 3);
    assert_eq!(line.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert!(line.legal_moves().is_empty());
    let mv = line.position().parse_move("a1-b1").unwrap();
    assert_eq!(line.play(&mv), Err(MoveError::GameOver));
    // The position alone does not know about the repetition.
    assert_eq!(line.position().outcome(), None);
    assert_eq!(line.position().to_text(), SHUFFLE);
}

#[test]
fn forward_man_moves_end_repetition_sideways_ones_do_not() {
    let mut line = Line::new(Position::from_text(SHUFFLE).unwrap());
    play_all(&mut line, &["a1-b1", "h8-g8", "b1-a1", "g8-h8"]);
    assert_eq!(line.occurrences(), 2);
    // Forward man moves can never be undone.
    play_all(&mut line, &["c2-c3", "f7-f6"]);
    assert_eq!(line.occurrences(), 1);
    // A sideways man move can be undone: the position repeats.
    play_all(&mut line, &["c3-b3", "h8-g8", "b3-c3", "g8-h8"]);
    assert_eq!(line.occurrences(), 2);
    play_all(&mut line, &["c3-b3", "h8-g8", "b3-c3", "g8-h8"]);
    assert_eq!(line.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn the_side_to_move_is_part_of_the_repeated_position() {
    let a = Position::from_text(SHUFFLE).unwrap();
    let b = Position::from_text(&SHUFFLE.replace(" w", " b")).unwrap();
    assert_ne!(a.repetition_key(), b.repetition_key());
    assert_eq!(
        a.repetition_key(),
        Position::from_text(SHUFFLE).unwrap().repetition_key()
    );
}

// ---------------------------------------------------------------------------------------------
// Accessors, move values and refused moves.

#[test]
fn accessors() {
    let p = Position::start();
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(p.piece_at(sq("a2")), Some(Piece::Man(Side::White)));
    assert_eq!(p.piece_at(sq("h7")), Some(Piece::Man(Side::Black)));
    assert_eq!(p.piece_at(sq("d4")), None);
    assert_eq!(p.piece_at(sq("d1")), None);
    assert_eq!(p.piece_at(Square(200)), None);
    assert_eq!(
        (
            p.count(Side::White),
            p.men_count(Side::White),
            p.king_count(Side::White)
        ),
        (16, 16, 0)
    );
    assert_eq!(p.squares_of(Side::White).len(), 16);
    assert_eq!(p.squares_of(Side::White)[0], sq("a2"));
    assert_eq!(p, Position::default());
    assert_eq!(p.to_text(), "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w");
    let k = Position::from_text("B6W/1w6/8/3wb3/8/8/1b6/W6B b").unwrap();
    assert_eq!(k.piece_at(sq("h8")), Some(Piece::King(Side::White)));
    assert_eq!(k.piece_at(sq("a8")), Some(Piece::King(Side::Black)));
    assert_eq!(
        (
            k.count(Side::Black),
            k.men_count(Side::Black),
            k.king_count(Side::Black)
        ),
        (4, 2, 2)
    );
    assert_eq!(Piece::King(Side::Black).letter(), 'B');
    assert_eq!(Piece::from_letter('w'), Some(Piece::Man(Side::White)));
    assert_eq!(Piece::from_letter('x'), None);
    assert!(Piece::King(Side::White).is_king());
    assert_eq!(Piece::Man(Side::Black).side(), Side::Black);
    let cap = Position::from_text("8/8/8/2B2b2/8/2b2b2/2w2w2/8 w").unwrap();
    assert_eq!(cap.max_capture(), 2);
    assert_eq!(Position::start().max_capture(), 0);
}

#[test]
fn move_values() {
    let mv = Move {
        path: vec![sq("c3"), sq("c5"), sq("e5")],
        captured: vec![sq("c4"), sq("d5")],
    };
    assert_eq!(mv.from(), sq("c3"));
    assert_eq!(mv.to(), sq("e5"));
    assert!(mv.is_capture());
    assert_eq!(mv.capture_count(), 2);
    assert_eq!(mv.to_string(), "c3xc5xe5");
    let s = Move::simple(sq("c3"), sq("c4"));
    assert!(!s.is_capture());
    assert_eq!(s.to_string(), "c3-c4");
    assert_eq!(Position::start().parse_move("c3-c4"), Ok(s));
}

#[test]
fn refused_moves_leave_the_position_untouched() {
    let start = Position::start();
    let bad = [
        Move {
            path: vec![],
            captured: vec![],
        },
        Move {
            path: vec![sq("c3")],
            captured: vec![],
        },
        Move {
            path: vec![Square(200), Square(201)],
            captured: vec![],
        },
        Move {
            path: vec![sq("c3"), Square(64)],
            captured: vec![],
        },
        Move::simple(sq("c3"), sq("c5")),
        Move::simple(sq("c6"), sq("c5")),
        Move {
            path: vec![sq("c3"), sq("c4")],
            captured: vec![sq("c4")],
        },
        Move {
            path: vec![sq("c3"), sq("c4"), sq("c5")],
            captured: vec![],
        },
    ];
    for mv in &bad {
        let mut p = start.clone();
        assert!(!p.is_legal(mv), "{mv:?}");
        assert!(matches!(p.play(mv), Err(MoveError::Illegal(_))), "{mv:?}");
        assert_eq!(p, start);
        let _ = p.is_irreversible(mv);
    }
    // A capture whose captured list does not match its path.
    let pos = Position::from_text("8/8/8/2B2b2/8/2b2b2/2w2w2/8 w").unwrap();
    let mut p = pos.clone();
    let wrong = Move {
        path: vec![sq("c2"), sq("c4"), sq("c6")],
        captured: vec![sq("c5"), sq("c3")],
    };
    assert_eq!(
        p.play(&wrong),
        Err(MoveError::Illegal(
            "c2xc4xc6: the captured squares do not match the path".to_string()
        ))
    );
    assert_eq!(p, pos);
    // Compulsory capture, through play.
    let mut p = pos.clone();
    assert_eq!(
        p.play(&Move::simple(sq("c2"), sq("b2"))),
        Err(MoveError::Illegal(
            "c2-b2: a capture is compulsory".to_string()
        ))
    );
    assert_eq!(p, pos);
}

#[test]
fn texts_never_panic() {
    let long = "8/".repeat(10_000);
    let positions = [
        "",
        " ",
        "w",
        "/",
        "////////",
        "8/8/8/8/8/8/8/8",
        "8/8/8/8/8/8/8/8 ",
        "8/8/8/8/8/8/8/8 w w",
        "88/8/8/8/8/8/8/8 w",
        "44/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8/8\tw",
        "٨/8/8/8/8/8/8/8 w",
        "🂡/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8/8 🂡",
        "\u{0}",
        "-1/8/8/8/8/8/8/8 w",
        long.as_str(),
        "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww w",
        "8/8/8/8/8/8/8/8/8/8 w",
        "1111111/8/8/8/8/8/8/8 w",
        "11111111/8/8/8/8/8/8/8 w",
    ];
    for t in positions {
        if let Ok(p) = Position::from_text(t) {
            assert_eq!(Position::from_text(&p.to_text()).unwrap(), p);
        }
    }
    // Leniency worth pinning down: any whitespace separates the two fields.
    assert!(Position::from_text("8/8/8/8/8/8/8/8\tw").is_ok());
    // Two digits in a row are refused, as in FEN.
    assert!(Position::from_text("11111111/8/8/8/8/8/8/8 w").is_err());
    let long_move = "a1x".repeat(1000) + "a1";
    let moves = [
        "",
        " ",
        "-",
        "x",
        "xx",
        "a1-",
        "-a1",
        "a1--a2",
        "a1xxa3",
        "a0-a1",
        "a1-a0",
        "a10-a1",
        "a1 -a2",
        " c3-c4",
        "c3-c4 ",
        "c3-c4\n",
        "é3-é4",
        "c३-c४",
        "🂡-🂡",
        "\u{0}",
        long_move.as_str(),
        "c3xc3",
        "c3xc5xc3xc5xc3",
        "h8xa1",
        "a1-h8",
    ];
    for p in [
        Position::start(),
        Position::from_text("8/8/8/5b2/6b1/2bb4/8/3W4 w").unwrap(),
    ] {
        for m in moves {
            match p.parse_move(m) {
                Err(MoveError::Malformed(_)) | Err(MoveError::Illegal(_)) => {}
                other => panic!("{m:?}: {other:?}"),
            }
        }
        for m in [" c3-c4", "c3-c4 ", "c3-c4\n", "", long_move.as_str()] {
            assert!(
                matches!(p.parse_move(m), Err(MoveError::Malformed(_))),
                "{m:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A reference move generator, written from RULES.md §3 as plainly as possible (a 64-square array,
// full recursion, no bitboards), to cross-check the fast one on many positions.

mod reference {
    use super::*;

    type Board = [Option<Piece>; 64];

    const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

    fn at(file: i32, rank: i32) -> Option<usize> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
    }

    fn man_dirs(side: Side) -> [(i32, i32); 3] {
        let f = if side == Side::White { 1 } else { -1 };
        [(0, f), (-1, 0), (1, 0)]
    }

    /// Every complete capture sequence from `sq`: (path, captured).
    #[allow(clippy::too_many_arguments)]
    fn captures(
        board: &mut Board,
        side: Side,
        king: bool,
        sq: usize,
        last: Option<(i32, i32)>,
        path: &mut Vec<usize>,
        taken: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, Vec<usize>)>,
    ) {
        let mut any = false;
        let dirs: Vec<(i32, i32)> = if king {
            DIRS.to_vec()
        } else {
            man_dirs(side).to_vec()
        };
        for (df, dr) in dirs {
            if king && last == Some((-df, -dr)) {
                continue;
            }
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            // Walk to the first piece (a man only looks at the adjacent square).
            let mut k = 1;
            let victim = loop {
                match at(f + df * k, r + dr * k) {
                    None => break None,
                    Some(s) if board[s].is_some() => break Some((s, k)),
                    Some(_) if king => k += 1,
                    Some(_) => break None,
                }
            };
            let Some((v, k)) = victim else { continue };
            if board[v].map(|p| p.side()) == Some(side) {
                continue;
            }
            let mut j = k + 1;
            while let Some(land) = at(f + df * j, r + dr * j) {
                if board[land].is_some() {
                    break;
                }
                any = true;
                let piece = board[v].take();
                path.push(land);
                taken.push(v);
                captures(board, side, king, land, Some((df, dr)), path, taken, out);
                path.pop();
                taken.pop();
                board[v] = piece;
                if !king {
                    break;
                }
                j += 1;
            }
        }
        if !any && !taken.is_empty() {
            out.push((path.clone(), taken.clone()));
        }
    }

    /// The legal moves, as texts.
    pub fn moves(pos: &Position) -> BTreeSet<String> {
        let side = pos.side_to_move();
        let mut board: Board = [None; 64];
        for (i, cell) in board.iter_mut().enumerate() {
            *cell = pos.piece_at(Square(i as u8));
        }
        let mut seqs = Vec::new();
        for s in 0..64 {
            let Some(p) = board[s] else { continue };
            if p.side() != side {
                continue;
            }
            let piece = board[s].take(); // the moving piece leaves its square
            captures(
                &mut board,
                side,
                p.is_king(),
                s,
                None,
                &mut vec![s],
                &mut Vec::new(),
                &mut seqs,
            );
            board[s] = piece;
        }
        let name = |s: usize| Square(s as u8).to_string();
        if let Some(best) = seqs.iter().map(|(_, t)| t.len()).max() {
            return seqs
                .iter()
                .filter(|(_, t)| t.len() == best)
                .map(|(p, _)| p.iter().map(|&s| name(s)).collect::<Vec<_>>().join("x"))
                .collect();
        }
        let mut out = BTreeSet::new();
        for s in 0..64 {
            let Some(p) = board[s] else { continue };
            if p.side() != side {
                continue;
            }
            let dirs: Vec<(i32, i32)> = if p.is_king() {
                DIRS.to_vec()
            } else {
                man_dirs(side).to_vec()
            };
            for (df, dr) in dirs {
                let (f, r) = ((s % 8) as i32, (s / 8) as i32);
                let mut k = 1;
                while let Some(t) = at(f + df * k, r + dr * k) {
                    if board[t].is_some() {
                        break;
                    }
                    out.insert(format!("{}-{}", name(s), name(t)));
                    if !p.is_king() {
                        break;
                    }
                    k += 1;
                }
            }
        }
        out
    }

    /// The outcome by the rules, in the order RULES.md §3 / the brief gives.
    pub fn outcome(pos: &Position) -> Option<Outcome> {
        let x = pos.side_to_move();
        let y = x.opponent();
        let (nx, ny) = (pos.count(x), pos.count(y));
        if nx == 0 {
            return Some(Outcome::win(y, EndReason::NoPieces));
        }
        if ny == 0 {
            return Some(Outcome::win(x, EndReason::NoPieces));
        }
        if nx == 1 && ny == 1 {
            return Some(Outcome::draw(EndReason::OnePieceEach));
        }
        if nx == 1 && pos.men_count(x) == 1 {
            return Some(Outcome::win(y, EndReason::LoneMan));
        }
        if ny == 1 && pos.men_count(y) == 1 {
            return Some(Outcome::win(x, EndReason::LoneMan));
        }
        if moves(pos).is_empty() {
            return Some(Outcome::win(y, EndReason::NoMoves));
        }
        None
    }
}

#[test]
fn reference_generator_agrees_with_the_hand_derived_scenarios() {
    // The reference is itself checked on the scenario files, so that a disagreement in the random
    // tests below points at the right side.
    for c in cases("draughts_moves.txt")
        .into_iter()
        .chain(cases("draughts_end.txt"))
    {
        if let Some(rest) = c.check.strip_prefix("moves") {
            let want: BTreeSet<String> = rest.split_whitespace().map(str::to_string).collect();
            assert_eq!(reference::moves(&read(&c)), want, "{}", c.place);
        }
        if let Some(rest) = c.check.strip_prefix("outcome ") {
            let got = reference::outcome(&read(&c))
                .map(|o| o.to_string())
                .unwrap_or_else(|| "none".into());
            assert_eq!(got, rest, "{}", c.place);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants over seeded random playouts.

/// xorshift64*: small, deterministic, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal-looking position: up to `max` pieces a side, kings with probability 1/3, men
/// never on their promotion rank.
fn random_position(rng: &mut Rng, max: usize) -> Position {
    let mut cells = [None; 64];
    for side in [Side::White, Side::Black] {
        let n = 1 + rng.below(max);
        for _ in 0..n {
            let s = rng.below(64);
            let king = rng.below(3) == 0;
            let promo_rank = if side == Side::White { 7 } else { 0 };
            if cells[s].is_some() || (!king && s / 8 == promo_rank) {
                continue;
            }
            cells[s] = Some(if king {
                Piece::King(side)
            } else {
                Piece::Man(side)
            });
        }
    }
    let mut text = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match cells[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text.push_str(if rng.below(2) == 0 { " w" } else { " b" });
    Position::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Every invariant one position must keep. Returns its legal moves.
fn check_position(pos: &Position, with_reference: bool) -> Vec<Move> {
    let text = pos.to_text();
    assert_eq!(
        Position::from_text(&text).as_ref(),
        Ok(pos),
        "round trip of {text}"
    );
    let moves = pos.legal_moves();
    assert_eq!(pos.move_count(), moves.len(), "{text}");
    assert_eq!(
        pos.outcome().is_some(),
        moves.is_empty(),
        "{text}: outcome {:?}",
        pos.outcome()
    );
    let texts: BTreeSet<String> = moves.iter().map(|m| pos.move_to_text(m)).collect();
    assert_eq!(texts.len(), moves.len(), "{text}: duplicate move texts");
    let longest = moves.iter().map(Move::capture_count).max().unwrap_or(0);
    assert_eq!(pos.max_capture(), longest, "{text}");
    for m in &moves {
        assert!(pos.is_legal(m), "{text}: {m:?}");
        assert_eq!(
            m.capture_count(),
            longest,
            "{text}: {m} is not a maximum capture"
        );
        assert_eq!(
            m.path.len(),
            if m.is_capture() {
                m.captured.len() + 1
            } else {
                2
            },
            "{text}: {m:?}"
        );
        assert_eq!(
            pos.piece_at(m.from()).map(|p| p.side()),
            Some(pos.side_to_move()),
            "{text}: {m}"
        );
        assert_eq!(
            pos.parse_move(&pos.move_to_text(m)).as_ref(),
            Ok(m),
            "{text}: {m}"
        );
    }
    if with_reference {
        if pos.outcome().is_none() {
            assert_eq!(
                texts,
                reference::moves(pos),
                "{text}: against the reference generator"
            );
        }
        assert_eq!(
            pos.outcome(),
            reference::outcome(pos),
            "{text}: outcome against the reference"
        );
    }
    moves
}

/// Plays random moves through a `Line` until the game ends or `cap` plies.
fn playout(rng: &mut Rng, start: Position, cap: usize, with_reference: bool) -> Option<Outcome> {
    let mut line = Line::new(start);
    for _ in 0..cap {
        let pos = line.position().clone();
        let moves = check_position(&pos, with_reference);
        if line.outcome().is_some() {
            return line.outcome();
        }
        let mv = &moves[rng.below(moves.len())];
        let mut next = pos.clone();
        next.play(mv)
            .unwrap_or_else(|e| panic!("{}: {mv}: {e}", pos.to_text()));
        // Material only ever leaves the board; the mover's piece count never changes.
        let me = pos.side_to_move();
        assert_eq!(next.count(me), pos.count(me));
        assert_eq!(
            next.count(me.opponent()),
            pos.count(me.opponent()) - mv.captured.len()
        );
        assert_eq!(next.side_to_move(), me.opponent());
        line.play(mv).unwrap();
        assert_eq!(line.position(), &next);
    }
    line.outcome()
}

#[test]
fn random_playouts_from_the_start() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut reasons = std::collections::BTreeMap::new();
    for game in 0..2000 {
        // Every 20th game is also checked move by move against the reference generator.
        let end = playout(&mut rng, Position::start(), 300, game % 20 == 0);
        *reasons
            .entry(end.map_or("capped", |o| o.reason.as_str()))
            .or_insert(0) += 1;
    }
    eprintln!("random playouts: {reasons:?}");
    let capped = reasons.get("capped").copied().unwrap_or(0);
    assert!(capped < 1000, "{capped} of 2000 games reached the ply cap");
}

#[test]
fn random_positions_against_the_reference() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for i in 0..3000 {
        let pos = random_position(&mut rng, if i % 2 == 0 { 6 } else { 14 });
        check_position(&pos, true);
        if i % 10 == 0 {
            playout(&mut rng, pos.clone(), 60, true);
        }
        if i % 50 == 0 {
            assert_eq!(pos.perft(3), perft(&pos, 3), "{}", pos.to_text());
        }
    }
}

#[test]
fn outcome_results_are_consistent() {
    // A few direct checks of the result side, beyond the text form used by the data files.
    let lone = Position::from_text("8/b6b/8/8/8/8/3w4/8 w").unwrap();
    assert_eq!(
        lone.outcome().map(|o| o.result),
        Some(GameResult::Win(Side::Black))
    );
    let draw = Position::from_text("8/B7/8/8/8/8/7W/8 w").unwrap();
    assert_eq!(draw.outcome().map(|o| o.result), Some(GameResult::Draw));
}
