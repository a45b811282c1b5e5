//! Search speed of the top level of the three alpha-beta games: nodes per second of
//! fixed-depth searches on a set of positions, with the nodes and the move each search found.
//! Chess: the perft suite and two middlegames (`SEARCH_DEPTH`, default 8); draughts: the start
//! and seven positions of self-play games (`DRAUGHTS_DEPTH`, default 12); minesweeper chess:
//! positions after a few plies on four mine layouts (`MINE_DEPTH`, default 7). Each game's evaluation is the one its
//! level 6 uses. Dice chess: its expectimax search, which level 6 runs to three turns, from six
//! positions after a few pawn moves (`DICE_DEPTH`, default 3). Run with `cargo bench -p takhte-ai --bench search_speed`, or through
//! `scripts/speed-before-after.sh search`, which also measures an older commit in the same run.
//!
//! A fixed depth (not a time) makes runs comparable: the same tree is searched as long as the
//! move generator produces the same moves in the same order, so the node counts say whether a
//! change altered the search, and the times say what it costs.
//!
//! Lines that end in a comment beginning `base:` are the ones whose API changed since the
//! commit the script compares with: in the older tree's copy of this file the script puts the
//! rest of that comment in the line's place (nothing: the line goes).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use takhte_ai::chess::{ChessGame, Pos};
use takhte_ai::dice::board::DiceBoard;
use takhte_ai::dice::expectimax::decide;
use takhte_ai::draughts::{DraughtsGame, Pos as DraughtsPos};
use takhte_ai::game::SearchGame;
use takhte_ai::mine::MineGame;
use takhte_ai::play::draughts_move;
use takhte_ai::search::{search, Found, Limits};
use takhte_ai::tt::Tt;
use takhte_rules::{chess, AnyGame, AnyMove, GameKind, Rules, Side};

/// Two middlegames besides the perft suite.
const MIDDLEGAMES: [&str; 2] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
];

/// Draughts positions from the self-play games of `ai/tuning/draughts-check.txt.gz`: openings,
/// middlegames and endgames with kings.
const DRAUGHTS: [&str; 7] = [
    "8/b2bbbb1/bbbb2bb/1bbb1b1b/ww2w1w1/1www1w1w/w1wwwwww/8 w",
    "8/bbbbbbbb/1bbb2bb/b3bb2/1w1w3w/w1w1wwww/wwwwwww1/8 b",
    "8/b5bb/1bb1bb1b/w4bb1/1ww2w1w/w3ww1w/1www1www/8 b",
    "8/bbbbbbbb/bbb3b1/8/3b1b2/www1w3/www2w1w/8 w",
    "8/7B/1w1bb1b1/5b2/2w1w3/2ww4/8/8 b",
    "3W4/b2b4/b2b3b/b4b2/8/w1w5/8/1B6 w",
    "8/8/1b5b/B7/8/2w2w2/2wwww1w/8 b",
];

/// The chess positions: the six of the rules' perft data (`name | FEN | counts`), then the
/// middlegames.
fn chess_positions() -> Vec<&'static str> {
    include_str!("../../rules/tests/data/chess_perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .chain(MIDDLEGAMES)
        .collect()
}

/// A minesweeper chess position: the mines of `seed`, then 8 + 2 × `seed` plies, each chosen
/// from the legal moves in text order by a fixed formula (the same in every version of the move
/// generator), skipping moves that end the game.
fn mine_position(seed: u64) -> AnyGame {
    let mut game = AnyGame::start(GameKind::MineChess, seed);
    for ply in 0..8 + 2 * seed as usize {
        let moves = game.moves_text(None);
        if moves.is_empty() {
            break;
        }
        let mut pick = (seed as usize * 31 + ply * 17) % moves.len();
        for _ in 0..moves.len() {
            let mut next = game.clone();
            if next.play_text(&moves[pick]).is_ok() && next.outcome().is_none() {
                game = next;
                break;
            }
            pick = (pick + 1) % moves.len();
        }
    }
    game
}

/// The depth from the environment variable `name`, else `default`.
fn depth(name: &str, default: i32) -> i32 {
    std::env::var(name)
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(default)
}

/// Sums of one game's searches.
struct Section {
    nodes: u64,
    secs: f64,
}

impl Section {
    fn start(game: &str, depth: i32) -> Section {
        println!("== {game}, depth {depth}");
        println!(
            "{:<4} {:>10} {:>9} {:>8}  move",
            "pos", "nodes", "ms", "knps"
        );
        Section {
            nodes: 0,
            secs: 0.0,
        }
    }

    /// Runs `search` (which returns the nodes and the move) and prints its line.
    fn run(&mut self, i: usize, search: impl FnOnce() -> (u64, String)) {
        let start = Instant::now();
        let (nodes, best) = search();
        let secs = start.elapsed().as_secs_f64();
        self.nodes += nodes;
        self.secs += secs;
        println!(
            "{:<4} {:>10} {:>9.0} {:>8.0}  {}",
            i + 1,
            nodes,
            secs * 1e3,
            nodes as f64 / secs / 1e3,
            best
        );
    }

    fn end(self, depth: i32) {
        println!(
            "all  {:>10} {:>9.0} {:>8.0}  (depth {depth})",
            self.nodes,
            self.secs * 1e3,
            self.nodes as f64 / self.secs / 1e3
        );
    }
}

/// The search of `root` to `depth` with the table `tt` (never cancelled): what it found.
fn fixed_depth<G: SearchGame>(game: &G, root: &G::Pos, depth: i32, tt: &mut Tt) -> Found<G::Mv> {
    let cancel = AtomicBool::new(false);
    search(game, root, &Limits::depth(depth), tt, &cancel, &mut |_| {}).expect("a move")
}

fn main() {
    let d = depth("SEARCH_DEPTH", 8);
    let mut section = Section::start("chess", d);
    for (i, fen) in chess_positions().into_iter().enumerate() {
        let board = *chess::Position::from_text(fen).expect("valid FEN").board();
        let game = ChessGame {
            history: Vec::new(),
            eval: &takhte_ai::chess::eval::TUNED_NET_EVAL, // base:
        };
        let mut tt = Tt::with_megabytes(32);
        section.run(i, || {
            let f = fixed_depth(&game, &Pos::new(board), d, &mut tt);
            (f.nodes, f.best.uci())
        });
    }
    section.end(d);

    let d = depth("DRAUGHTS_DEPTH", 12);
    let mut section = Section::start("draughts", d);
    let starts = std::iter::once(AnyGame::start(GameKind::Draughts, 0)).chain(
        DRAUGHTS
            .iter()
            .map(|t| AnyGame::from_text(GameKind::Draughts, t).expect("valid position")),
    );
    for (i, any) in starts.enumerate() {
        let AnyGame::Draughts(line) = &any else {
            unreachable!("a draughts game")
        };
        let game = DraughtsGame::new(Vec::new(), false); // base: let game = DraughtsGame { history: Vec::new() };
        let root = DraughtsPos::new(line.position().clone());
        let mut tt = Tt::with_megabytes(32);
        section.run(i, || {
            let f = fixed_depth(&game, &root, d, &mut tt);
            let m = draughts_move(line.position(), f.best).expect("a legal move");
            (f.nodes, any.move_to_text(&AnyMove::Draughts(m)))
        });
    }
    section.end(d);

    let d = depth("MINE_DEPTH", 7);
    let mut section = Section::start("minesweeper chess (hand-written evaluation)", d);
    for (i, seed) in [1, 2, 3, 4].into_iter().enumerate() {
        let any = mine_position(seed);
        let AnyGame::Mine(line) = &any else {
            unreachable!("a minesweeper chess game")
        };
        let (mut game, root) = MineGame::new(&line.position().visible()); // base: let (game, root) = MineGame::new(&line.position().visible());
        game.eval = &takhte_ai::chess::eval::HAND_EVAL; // base:
        let mut tt = Tt::with_megabytes(32);
        section.run(i, || {
            let f = fixed_depth(&game, &root, d, &mut tt);
            (f.nodes, any.move_to_text(&AnyMove::Mine(f.best)))
        });
    }
    section.end(d);

    let d = depth("DICE_DEPTH", 3);
    let mut section = Section::start("dice chess (expectimax, turns)", d);
    for (i, seed) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
        let (b, rolled) = dice_position(seed);
        let mut tt = Tt::with_megabytes(32);
        let limits = Limits::depth(d);
        let cancel = AtomicBool::new(false);
        section.run(i, || {
            let found =
                decide(&b, rolled, &limits, &mut tt, &cancel, &|_| false).expect("a choice");
            (found.nodes, format!("{:?}", found.choice))
        });
    }
    section.end(d);
}

/// A dice chess position: from the start, 4 × `seed` pawn moves, the face and the move of each
/// chosen by a fixed formula (a face without moves passes); the searches of odd seeds start
/// before the roll, of even seeds after rolling the face `seed % 6 + 1`.
fn dice_position(seed: u64) -> (DiceBoard, Option<u8>) {
    let mut b = DiceBoard::from_position(&takhte_rules::dice::Position::start(Side::White));
    let mut moves = Vec::new();
    for ply in 0..4 * seed as usize {
        let face = (seed as usize * 5 + ply * 7) % 6 + 1;
        moves.clear();
        b.pawn_moves(face as u8, &mut moves);
        b = if moves.is_empty() {
            b.pass()
        } else {
            b.play(moves[(seed as usize * 31 + ply * 17) % moves.len()])
        };
    }
    (b, seed.is_multiple_of(2).then_some((seed % 6 + 1) as u8))
}
