//! Dice chess rules (RULES.md §2): hand-derived perft counts and rule scenarios from
//! `tests/data/dice_*.txt`, the start roll, move text, and invariants over seeded random playouts
//! checked against a naive reference move generator written here from the rules.

use std::collections::{BTreeSet, HashSet};

use takhte_rules::dice::{
    face_name, first_player, start_roll, Move, PieceKind, Position, StartRollError,
};
use takhte_rules::perft::perft;
use takhte_rules::{EndReason, GameResult, MoveError, Outcome, Rules, Side, Square};

// ---------------------------------------------------------------------------------------------
// Helpers

fn sq(name: &str) -> Square {
    Square::parse(name, 8).unwrap_or_else(|| panic!("bad square {name:?} in a test"))
}

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Reads a move in record form, independently of the crate's parser.
fn mv(text: &str) -> Move {
    match text.split_once(':') {
        None => Move::King {
            from: sq(&text[..2]),
            to: sq(&text[2..]),
        },
        Some((face, "-")) => Move::Pass {
            face: face.parse().unwrap(),
        },
        Some((face, squares)) => Move::Pawn {
            face: face.parse().unwrap(),
            from: sq(&squares[..2]),
            to: sq(&squares[2..]),
        },
    }
}

/// The plain from–to form of a move, `-` for a pass.
fn plain(m: &Move) -> String {
    match m {
        Move::King { from, to } | Move::Pawn { from, to, .. } => format!("{from}{to}"),
        Move::Pass { .. } => "-".to_string(),
    }
}

/// A word list to a sorted set, `none` meaning the empty set.
fn word_set<'a>(words: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
    words.filter(|w| *w != "none").map(str::to_string).collect()
}

// ---------------------------------------------------------------------------------------------
// Data-file runner

/// Runs one data file; returns the failures as `file:line: message`.
fn run_file(name: &str, data: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let mut position: Option<Position> = None;
    let mut scenario = String::new();
    for (i, raw) in data.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{name}:{} [{scenario}] `{line}`", i + 1);
        if let Some(title) = line.strip_prefix("==") {
            scenario = title.trim().to_string();
            position = None;
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let result = run_command(cmd, rest, &mut position);
        if let Err(message) = result {
            failures.push(format!("{at}: {message}"));
        }
    }
    failures
}

fn run_command(cmd: &str, rest: &str, position: &mut Option<Position>) -> Result<(), String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match cmd {
        "start" => {
            let side = Side::from_letter(rest).ok_or("start needs w or b")?;
            *position = Some(Position::start(side));
            return Ok(());
        }
        "position" => {
            let p = Position::from_text(rest).map_err(|e| format!("from_text failed: {e}"))?;
            if p.to_text() != rest {
                return Err(format!("to_text gives {:?}", p.to_text()));
            }
            *position = Some(p);
            return Ok(());
        }
        "bad-position" => {
            let (want, text) = rest.split_once('|').ok_or("bad-position needs '|'")?;
            return match Position::from_text(text.trim()) {
                Ok(p) => Err(format!("accepted as {}", p.to_text())),
                Err(e) if e.message.contains(want.trim()) => Ok(()),
                Err(e) => Err(format!("error {:?} lacks {:?}", e.message, want.trim())),
            };
        }
        _ => {}
    }
    let p = position.as_mut().ok_or("no position set")?;
    match cmd {
        "perft" => {
            let depth: u32 = words[0].parse().map_err(|_| "depth")?;
            let want: u64 = words[1].parse().map_err(|_| "count")?;
            let got = perft(p, depth);
            if got != want {
                return Err(format!("perft {depth}: expected {want}, got {got}"));
            }
        }
        "king" => {
            let got: BTreeSet<String> = p
                .king_moves()
                .iter()
                .map(|m| m.to().unwrap().to_string())
                .collect();
            expect_set(word_set(words.into_iter()), got)?;
        }
        "targets" => {
            let face: u8 = words[0].parse().map_err(|_| "face")?;
            let from = sq(words[1]);
            let got: BTreeSet<String> = p
                .pawn_moves(face)
                .iter()
                .filter(|m| m.from() == Some(from))
                .map(|m| m.to().unwrap().to_string())
                .collect();
            expect_set(word_set(words[2..].iter().copied()), got)?;
        }
        "face" => {
            let face: u8 = words[0].parse().map_err(|_| "face")?;
            let got: BTreeSet<String> = p.pawn_moves(face).iter().map(plain).collect();
            expect_set(word_set(words[1..].iter().copied()), got)?;
        }
        "roll" => {
            let face: u8 = words[0].parse().map_err(|_| "face")?;
            let got: BTreeSet<String> = p.roll_options(face).iter().map(plain).collect();
            expect_set(word_set(words[1..].iter().copied()), got)?;
        }
        "count" => {
            let want: usize = rest.parse().map_err(|_| "count")?;
            let got = p.legal_moves().len();
            if got != want {
                return Err(format!(
                    "expected {want} turn options, got {got}: {:?}",
                    texts(p)
                ));
            }
        }
        "has" => {
            let m = mv(rest);
            if !p.legal_moves().contains(&m) {
                return Err("not among legal_moves".into());
            }
            if !p.is_legal(&m) {
                return Err("is_legal says no".into());
            }
            if p.parse_move(rest) != Ok(m) {
                return Err(format!("parse_move gives {:?}", p.parse_move(rest)));
            }
        }
        "lacks" => {
            let m = mv(rest);
            if p.legal_moves().contains(&m) || p.is_legal(&m) {
                return Err("the move is legal".into());
            }
        }
        "illegal" => {
            let (text, want) = rest.split_once('|').ok_or("illegal needs '|'")?;
            let (text, want) = (text.trim(), want.trim());
            match p.parse_move(text) {
                Err(MoveError::Illegal(reason)) if reason.contains(want) => {}
                other => {
                    return Err(format!(
                        "parse_move gives {other:?}, wanted Illegal containing {want:?}"
                    ))
                }
            }
            refused_untouched(p, &mv(text))?;
        }
        "malformed" => match p.parse_move(rest) {
            Err(MoveError::Malformed(_)) => {}
            other => return Err(format!("parse_move gives {other:?}")),
        },
        "gameover" => {
            if p.parse_move(rest) != Err(MoveError::GameOver) {
                return Err(format!("parse_move gives {:?}", p.parse_move(rest)));
            }
            let before = p.clone();
            let got = p.play(&mv(rest));
            if got != Err(MoveError::GameOver) || *p != before {
                return Err(format!("play gives {got:?}"));
            }
        }
        "play" => {
            let m = p.parse_move(rest).map_err(|e| format!("parse_move: {e}"))?;
            p.play(&m).map_err(|e| format!("play: {e}"))?;
        }
        "check" => {
            let side = match words[0] {
                "white" => Side::White,
                "black" => Side::Black,
                _ => return Err("check white|black".into()),
            };
            let want = words[1] == "yes";
            if p.in_check(side) != want {
                return Err(format!("in_check is {}", !want));
            }
        }
        "outcome" => {
            let got = p.outcome().map_or("none".to_string(), |o| o.to_string());
            if got != rest {
                return Err(format!("outcome is {got}"));
            }
        }
        "text" => {
            if p.to_text() != rest {
                return Err(format!("to_text is {:?}", p.to_text()));
            }
        }
        other => return Err(format!("unknown command {other}")),
    }
    Ok(())
}

fn expect_set(want: BTreeSet<String>, got: BTreeSet<String>) -> Result<(), String> {
    if want == got {
        Ok(())
    } else {
        let missing: Vec<_> = want.difference(&got).collect();
        let extra: Vec<_> = got.difference(&want).collect();
        Err(format!("missing {missing:?}, unexpected {extra:?}"))
    }
}

fn texts(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| p.move_to_text(m)).collect()
}

/// `play` refuses `m` and leaves the position as it was.
fn refused_untouched(p: &mut Position, m: &Move) -> Result<(), String> {
    let before = p.clone();
    match p.play(m) {
        Err(MoveError::Illegal(_)) if *p == before => Ok(()),
        Err(MoveError::Illegal(_)) => Err("play changed the position".into()),
        other => Err(format!("play gives {other:?}")),
    }
}

#[test]
fn perft_counts_derived_by_hand() {
    let failures = run_file("dice_perft.txt", include_str!("data/dice_perft.txt"));
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn rule_scenarios() {
    let failures = run_file(
        "dice_scenarios.txt",
        include_str!("data/dice_scenarios.txt"),
    );
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Start roll, names, move text

#[test]
fn start_roll_higher_starts_and_ties_roll_again() {
    assert_eq!(first_player(6, 1), Some(Side::White));
    assert_eq!(first_player(2, 3), Some(Side::Black));
    for v in 1..=6 {
        assert_eq!(first_player(v, v), None);
    }
    assert_eq!(first_player(0, 3), None);
    assert_eq!(first_player(3, 7), None);

    assert_eq!(start_roll(&[(4, 2)]), Ok(Side::White));
    assert_eq!(start_roll(&[(5, 5), (1, 1), (1, 2)]), Ok(Side::Black));
    assert_eq!(start_roll(&[(5, 5), (6, 2), (1, 2)]), Ok(Side::White));
    assert_eq!(start_roll(&[]), Err(StartRollError::AllTied { pairs: 0 }));
    assert_eq!(
        start_roll(&[(3, 3), (6, 6)]),
        Err(StartRollError::AllTied { pairs: 2 })
    );
    assert_eq!(
        start_roll(&[(0, 3)]),
        Err(StartRollError::OutOfRange { pair: 0, value: 0 })
    );
    assert_eq!(
        start_roll(&[(2, 2), (3, 7)]),
        Err(StartRollError::OutOfRange { pair: 1, value: 7 })
    );
    assert_eq!(
        start_roll(&[(2, 1), (3, 9)]),
        Err(StartRollError::OutOfRange { pair: 1, value: 9 })
    );
    assert!(!StartRollError::AllTied { pairs: 2 }.to_string().is_empty());
}

#[test]
fn face_names() {
    let names: Vec<_> = (1..=6).map(face_name).collect();
    assert_eq!(
        names,
        [
            "pawn-like",
            "rook-like",
            "knight-like",
            "bishop-like",
            "king-like",
            "queen-like"
        ]
    );
    assert_eq!(face_name(0), "");
    assert_eq!(face_name(7), "");
}

#[test]
fn move_text_forms() {
    let p = Position::start(Side::White);
    let pawn = Move::Pawn {
        face: 3,
        from: sq("b2"),
        to: sq("c4"),
    };
    assert_eq!(p.move_to_text(&pawn), "3:b2c4");
    assert_eq!(pawn.plain_text(), "b2c4");
    assert_eq!(p.move_to_text(&Move::Pass { face: 1 }), "1:-");
    assert_eq!(Move::Pass { face: 1 }.plain_text(), "-");
    let king = Move::King {
        from: sq("d1"),
        to: sq("e2"),
    };
    assert_eq!(p.move_to_text(&king), "d1e2");
    assert_eq!(king.face(), None);
    assert_eq!(pawn.face(), Some(3));
    assert_eq!(p.parse_move("3:b2c4"), Ok(pawn.clone()));
    assert_eq!(p.parse_move(" 3:b2c4 "), Ok(pawn.clone()));
    assert_eq!(p.parse_pawn_move(3, "b2c4"), Ok(pawn));
    assert!(matches!(
        p.parse_pawn_move(7, "b2c4"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        p.parse_pawn_move(1, "-"),
        Err(MoveError::Illegal(_))
    ));
}

#[test]
fn piece_accessor() {
    let p = Position::start(Side::White);
    let d1 = p.piece_at(sq("d1")).unwrap();
    assert_eq!(
        (d1.side, d1.kind, d1.letter()),
        (Side::White, PieceKind::King, 'K')
    );
    let h7 = p.piece_at(sq("h7")).unwrap();
    assert_eq!(
        (h7.side, h7.kind, h7.letter()),
        (Side::Black, PieceKind::Pawn, 'p')
    );
    assert_eq!(p.piece_at(sq("e4")), None);
    assert_eq!(p.piece_at(Square(64)), None);
    assert_eq!(p.king_square(Side::Black), sq("e8"));
    assert_eq!(p.pawn_squares(Side::White).len(), 15);
    assert!(p.has_pawns(Side::Black));
    assert!(p.can_roll());
}

#[test]
fn rules_trait_details() {
    assert!(!Position::repetition_draws());
    let p = pos("7k/8/8/2p5/3P4/8/8/K7 w");
    assert!(p.is_irreversible(&mv("1:d4c5")));
    assert!(!p.is_irreversible(&mv("1:d4d5")));
    assert!(!p.is_irreversible(&mv("a1a2")));
    assert!(!p.is_irreversible(&Move::Pass { face: 1 }));
    let q = pos("7k/8/8/8/8/8/1p6/K7 w");
    assert!(q.is_irreversible(&mv("a1b2")));
    assert_eq!(
        p.repetition_key(),
        pos("7k/8/8/2p5/3P4/8/8/K7 w").repetition_key()
    );
    assert_ne!(
        p.repetition_key(),
        pos("7k/8/8/2p5/3P4/8/8/K7 b").repetition_key()
    );
}

#[test]
fn moves_with_squares_off_the_board_are_refused_without_panic() {
    let mut p = Position::start(Side::White);
    let before = p.clone();
    let odd = [
        Move::King {
            from: Square(3),
            to: Square(200),
        },
        Move::King {
            from: Square(255),
            to: Square(3),
        },
        Move::Pawn {
            face: 2,
            from: Square(8),
            to: Square(70),
        },
        Move::Pawn {
            face: 3,
            from: Square(99),
            to: Square(16),
        },
        Move::Pawn {
            face: 0,
            from: Square(8),
            to: Square(16),
        },
        Move::Pawn {
            face: 9,
            from: Square(8),
            to: Square(16),
        },
        Move::Pass { face: 0 },
        Move::Pass { face: 7 },
    ];
    for m in &odd {
        assert!(!p.is_legal(m), "{m:?}");
        assert!(matches!(p.play(m), Err(MoveError::Illegal(_))), "{m:?}");
        assert_eq!(p, before);
        assert!(!p.is_irreversible(m), "{m:?}");
    }
}

#[test]
fn position_text_never_panics_on_odd_input() {
    let odd = [
        "",
        " ",
        "w",
        "/ w",
        "8/8/8/8/8/8/8/8/8 w",
        "99/8/8/8/8/8/8/8 w",
        "k7/8/8/8/8/8/8/K7 w w",
        "k7/8/8/8/8/8/8/K7\tw",
        "k٣/8/8/8/8/8/8/K7 w",
        "k7/8/8/8/8/8/8/K0 w",
        "kkkkkkkk/8/8/8/8/8/8/K7 w",
        "k7/8/8/8/8/8/8/K7 ",
        "k7//8/8/8/8/8/K7 w",
        "ppppkppp/pppppppp/8/8/8/8/PPPPPPPP/PPPKPPPP w",
    ];
    for t in odd {
        if let Ok(p) = Position::from_text(t) {
            assert_eq!(Position::from_text(&p.to_text()), Ok(p));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Naive reference generator, written from RULES.md §2 with a plain board and no bitboards.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Pawn(Side),
    King(Side),
}

type Board = [Cell; 64];

fn board_of(p: &Position) -> Board {
    let mut b = [Cell::Empty; 64];
    for (i, cell) in b.iter_mut().enumerate() {
        if let Some(piece) = p.piece_at(Square(i as u8)) {
            *cell = match piece.kind {
                PieceKind::King => Cell::King(piece.side),
                PieceKind::Pawn => Cell::Pawn(piece.side),
            };
        }
    }
    b
}

fn fr(i: usize) -> (i32, i32) {
    ((i % 8) as i32, (i / 8) as i32)
}

fn fwd(side: Side) -> i32 {
    if side == Side::White {
        1
    } else {
        -1
    }
}

/// Whether `by` attacks square `t`: a pawn of `by` diagonally behind it (from `by`'s view), or
/// `by`'s king next to it.
fn ref_attacked(b: &Board, t: usize, by: Side) -> bool {
    let (tf, tr) = fr(t);
    (0..64).any(|s| {
        let (sf, sr) = fr(s);
        match b[s] {
            Cell::Pawn(o) if o == by => sr + fwd(by) == tr && (sf - tf).abs() == 1,
            Cell::King(o) if o == by => s != t && (sf - tf).abs() <= 1 && (sr - tr).abs() <= 1,
            _ => false,
        }
    })
}

fn ref_king(b: &Board, side: Side) -> usize {
    (0..64).find(|&i| b[i] == Cell::King(side)).unwrap()
}

fn ref_shape(b: &Board, side: Side, face: u8, from: usize, to: usize) -> bool {
    let opp = side.opponent();
    match b[to] {
        Cell::King(_) => return false,
        Cell::Pawn(o) if o == side => return false,
        _ => {}
    }
    let (ff, fr_) = fr(from);
    let (tf, tr) = fr(to);
    let (df, dr) = (tf - ff, tr - fr_);
    let (adf, adr) = (df.abs(), dr.abs());
    let line = |ok: bool| {
        let n = adf.max(adr);
        ok && (1..=4).contains(&n)
            && (1..n).all(|k| {
                b[((fr_ + dr.signum() * k) * 8 + ff + df.signum() * k) as usize] == Cell::Empty
            })
    };
    match face {
        1 => {
            (df == 0 && dr == fwd(side) && b[to] == Cell::Empty)
                || (adf == 1 && dr == fwd(side) && b[to] == Cell::Pawn(opp))
        }
        2 => line(df == 0 || dr == 0),
        3 => (adf == 1 && adr == 2) || (adf == 2 && adr == 1),
        4 => line(adf == adr),
        5 => adf.max(adr) == 1,
        6 => line(df == 0 || dr == 0 || adf == adr),
        _ => false,
    }
}

fn ref_pawn_moves(b: &Board, side: Side, face: u8) -> Vec<Move> {
    let opp = side.opponent();
    let mut out = Vec::new();
    for from in 0..64 {
        if b[from] != Cell::Pawn(side) {
            continue;
        }
        for to in 0..64 {
            if !ref_shape(b, side, face, from, to) {
                continue;
            }
            let mut after = *b;
            after[from] = Cell::Empty;
            after[to] = Cell::Pawn(side);
            if ref_attacked(&after, ref_king(&after, side), opp) {
                continue;
            }
            if face == 3 && ref_attacked(&after, ref_king(&after, opp), side) {
                continue;
            }
            out.push(Move::Pawn {
                face,
                from: Square(from as u8),
                to: Square(to as u8),
            });
        }
    }
    out
}

fn ref_king_moves(b: &Board, side: Side) -> Vec<Move> {
    let opp = side.opponent();
    let from = ref_king(b, side);
    let (ff, fr_) = fr(from);
    let mut out = Vec::new();
    for to in 0..64 {
        let (tf, tr) = fr(to);
        if to == from || (tf - ff).abs() > 1 || (tr - fr_).abs() > 1 {
            continue;
        }
        if matches!(b[to], Cell::King(_)) || b[to] == Cell::Pawn(side) {
            continue;
        }
        let mut after = *b;
        after[from] = Cell::Empty;
        after[to] = Cell::King(side);
        if !ref_attacked(&after, to, opp) {
            out.push(Move::King {
                from: Square(from as u8),
                to: Square(to as u8),
            });
        }
    }
    out
}

/// The turn options and the outcome, straight from RULES.md §2.
fn reference(p: &Position) -> (BTreeSet<String>, Option<Outcome>) {
    let b = board_of(p);
    let side = p.side_to_move();
    let opp = side.opponent();
    let pawns = |s: Side| b.contains(&Cell::Pawn(s));
    let in_check = |s: Side| ref_attacked(&b, ref_king(&b, s), s.opponent());
    if in_check(opp) {
        return (
            BTreeSet::new(),
            Some(Outcome::win(side, EndReason::Checkmate)),
        );
    }
    if !pawns(Side::White) && !pawns(Side::Black) {
        return (BTreeSet::new(), Some(Outcome::draw(EndReason::OnlyKings)));
    }
    let mut options: Vec<Move> = ref_king_moves(&b, side);
    let mut any_pawn_move = false;
    if pawns(side) {
        for face in 1..=6 {
            let m = ref_pawn_moves(&b, side, face);
            any_pawn_move |= !m.is_empty();
            if m.is_empty() {
                options.push(Move::Pass { face });
            }
            options.extend(m);
        }
    }
    if !any_pawn_move && !options.iter().any(|m| matches!(m, Move::King { .. })) {
        let o = if in_check(side) {
            Outcome::win(opp, EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        };
        return (BTreeSet::new(), Some(o));
    }
    (options.iter().map(|m| m.to_string()).collect(), None)
}

// ---------------------------------------------------------------------------------------------
// Random playouts

/// SplitMix64: a small deterministic generator for the playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How thoroughly to check one position.
#[derive(Clone, Copy)]
struct Depth {
    /// Compare with the naive reference generator and round-trip every option's text.
    reference: bool,
    /// Ask `is_legal` about every well-formed move (king, pawn with any face, pass).
    exhaustive: bool,
}

/// Every well-formed move: king and pawn moves between any two squares, passes for every face.
fn every_move() -> Vec<Move> {
    let mut all = Vec::new();
    for from in (0..64u8).map(Square) {
        for to in (0..64u8).map(Square) {
            all.push(Move::King { from, to });
            all.extend((1..=6).map(|face| Move::Pawn { face, from, to }));
        }
    }
    all.extend((1..=6).map(|face| Move::Pass { face }));
    all
}

/// Checks the invariants of one position; returns its turn options.
fn check_invariants(p: &Position, depth: Depth, every: &[Move], rng: &mut Rng) -> Vec<Move> {
    let text = p.to_text();
    assert_eq!(Position::from_text(&text).as_ref(), Ok(p), "{text}");
    let moves = p.legal_moves();
    let outcome = p.outcome();
    assert_eq!(moves.is_empty(), outcome.is_some(), "{text}");
    let distinct: HashSet<&Move> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "duplicate options in {text}");
    for m in &moves {
        assert!(p.is_legal(m), "{text}: {m:?} listed but not is_legal");
    }
    if depth.reference {
        let (ref_moves, ref_outcome) = reference(p);
        let listed: BTreeSet<String> = moves.iter().map(|m| p.move_to_text(m)).collect();
        assert_eq!(
            listed, ref_moves,
            "{text}: options differ from the reference"
        );
        assert_eq!(outcome, ref_outcome, "{text}");
        for m in &moves {
            assert_eq!(p.parse_move(&p.move_to_text(m)).as_ref(), Ok(m), "{text}");
        }
    }
    if depth.exhaustive {
        for m in every {
            let listed = distinct.contains(m);
            assert_eq!(
                p.is_legal(m),
                listed,
                "{text}: is_legal({m}) disagrees with legal_moves"
            );
        }
    }
    // A few moves that are not options: play refuses them and changes nothing.
    for _ in 0..2 {
        let m = &every[rng.below(every.len())];
        if !distinct.contains(m) {
            let mut q = p.clone();
            let err = q.play(m).unwrap_err();
            assert!(
                matches!(err, MoveError::Illegal(_) | MoveError::GameOver),
                "{text} {m}: {err:?}"
            );
            assert_eq!(&q, p);
        }
    }
    if outcome.is_none() {
        for face in 1..=6 {
            let roll = p.roll_options(face);
            if p.has_pawns(p.side_to_move()) {
                let pawn_moves = p.pawn_moves(face);
                if pawn_moves.is_empty() {
                    assert_eq!(roll, vec![Move::Pass { face }]);
                } else {
                    assert_eq!(roll, pawn_moves);
                }
            } else {
                assert!(roll.is_empty());
            }
        }
    }
    moves
}

#[test]
fn random_playouts_keep_every_invariant() {
    const GAMES: usize = 2000;
    const PLY_CAP: usize = 400;
    let mut rng = Rng(0x7a6b_7465_6469_6365);
    let (mut ended, mut capped) = (0, 0);
    let mut reasons = std::collections::BTreeMap::new();
    let every = every_move();
    let mut total_plies = 0;
    for game in 0..GAMES {
        let first = if rng.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        let mut p = Position::start(first);
        // Even games pick uniformly among all turn options; odd games play like people: roll
        // (random face) three times in four when they can, otherwise move the king.
        let like_people = game % 2 == 1;
        let mut ply = 0;
        loop {
            let depth = Depth {
                reference: game % 25 == 0 || ply % 50 == 0,
                exhaustive: game % 200 == 0 && ply % 2 == 0,
            };
            let moves = check_invariants(&p, depth, &every, &mut rng);
            if let Some(o) = p.outcome() {
                ended += 1;
                *reasons.entry(o.to_string()).or_insert(0) += 1;
                break;
            }
            if ply == PLY_CAP {
                capped += 1;
                break;
            }
            let m = if like_people {
                let kings = p.king_moves();
                if p.can_roll() && (kings.is_empty() || rng.below(4) != 0) {
                    let options = p.roll_options(1 + rng.below(6) as u8);
                    options[rng.below(options.len())].clone()
                } else {
                    kings[rng.below(kings.len())].clone()
                }
            } else {
                moves[rng.below(moves.len())].clone()
            };
            assert!(moves.contains(&m));
            let text = p.move_to_text(&m);
            assert_eq!(p.parse_move(&text).as_ref(), Ok(&m));
            let mover = p.side_to_move();
            let pawns_before = p.pawn_count(Side::White) + p.pawn_count(Side::Black);
            let irreversible = p.is_irreversible(&m);
            p.play(&m)
                .unwrap_or_else(|e| panic!("{}: {text}: {e}", p.to_text()));
            let pawns_after = p.pawn_count(Side::White) + p.pawn_count(Side::Black);
            assert_eq!(irreversible, pawns_after < pawns_before, "{text}");
            assert_eq!(p.side_to_move(), mover.opponent());
            if !matches!(m, Move::Pass { .. }) {
                assert!(
                    !p.in_check(mover),
                    "{text} left the mover in check: {}",
                    p.to_text()
                );
            } else if p.in_check(mover) {
                assert_eq!(
                    p.outcome(),
                    Some(Outcome::win(mover.opponent(), EndReason::Checkmate))
                );
            }
            if let Move::Pawn { face: 3, .. } = m {
                assert!(!p.in_check(p.side_to_move()), "{text} gave check");
            }
            ply += 1;
            total_plies += 1;
        }
    }
    assert_eq!(ended + capped, GAMES);
    println!("{total_plies} plies");
    println!("{ended} games ended ({reasons:?}), {capped} reached the cap of {PLY_CAP} plies");
    assert!(ended > 0);
}

#[test]
fn outcome_results_are_consistent() {
    // A finished game: the winner is the side to move only after an empty roll in check.
    let p = pos("4k3/8/8/8/7P/4p3/3p4/2P1K3 b");
    assert_eq!(
        p.outcome().map(|o| o.result),
        Some(GameResult::Win(Side::Black))
    );
    assert!(p.king_moves().is_empty());
    assert!(p.pawn_moves(1).is_empty());
    assert!(!p.can_roll());
}

#[test]
fn a_face_that_is_not_on_a_die_has_no_moves() {
    let g = takhte_rules::AnyGame::start(takhte_rules::GameKind::DiceChess, 0);
    assert!(!g.moves_text(Some(3)).is_empty());
    for face in [0, 7, 255] {
        assert_eq!(
            g.moves_text(Some(face)),
            Vec::<String>::new(),
            "face {face}"
        );
    }
}
