//! Baseline players for matches: `random` plays any legal move; `greedy` takes the most
//! material it can at once (ties and quiet positions: any move), without looking further.
//! Both are seeded. In minesweeper chess they see only what a player sees, like the AI.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use takhte_rules::bitboard::bit;
use takhte_rules::chess::{Board, Kind, MoveList};
use takhte_rules::mine::{Move as MineMove, RANKS as MINE_RANKS};
use takhte_rules::{AnyGame, AnyMove, Rules, Side, Square};

use super::chess::gain;
use super::Answer;

/// Which baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// Any legal move, uniformly.
    Random,
    /// The move that wins the most material at once.
    Greedy,
}

fn mine_moves(board: &Board) -> Vec<MineMove> {
    let mut list = MoveList::new();
    board.generate(&mut list);
    let mut out: Vec<MineMove> = list
        .as_slice()
        .iter()
        .map(|&m| MineMove::Piece(m))
        .collect();
    let side = board.side_to_move();
    if !board.in_check(side) {
        let occ = board.occupied();
        for s in takhte_rules::bitboard::squares(board.pieces(side, Kind::Pawn)) {
            let from = Square(s as u8);
            let front = from.offset(0, if side == Side::White { 1 } else { -1 }, MINE_RANKS);
            if front.is_some_and(|f| occ & bit(f.index()) == 0) {
                out.push(MineMove::Sapper(from));
            }
        }
    }
    out
}

fn pick<T: Clone>(
    rng: &mut ChaCha8Rng,
    items: &[T],
    score: impl Fn(&T) -> i32,
    greedy: bool,
) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    if !greedy {
        return Some(items[rng.gen_range(0..items.len())].clone());
    }
    let best = items.iter().map(&score).max()?;
    let top: Vec<&T> = items.iter().filter(|m| score(m) == best).collect();
    Some(top[rng.gen_range(0..top.len())].clone())
}

/// The baseline's answer (dice chess: `rolled` as in [`super::Request`]).
pub fn answer(kind: Baseline, game: &AnyGame, rolled: Option<u8>, seed: u64) -> Option<Answer> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let greedy = kind == Baseline::Greedy;
    match game {
        AnyGame::Chess(line) => {
            let b = *line.position().board();
            let moves = line.legal_moves();
            pick(&mut rng, &moves, |&m| gain(&b, m), greedy)
                .map(|m| Answer::Move(AnyMove::Chess(m)))
        }
        AnyGame::Mine(line) => {
            let b = line.position().visible().board;
            let moves = mine_moves(&b);
            pick(
                &mut rng,
                &moves,
                |m| match m {
                    MineMove::Piece(p) => gain(&b, *p),
                    MineMove::Sapper(_) => -1,
                },
                greedy,
            )
            .map(|m| Answer::Move(AnyMove::Mine(m)))
        }
        AnyGame::Draughts(line) => {
            let moves = line.legal_moves();
            let pos = line.position();
            let them = pos.side_to_move().opponent();
            pick(
                &mut rng,
                &moves,
                |m| {
                    let kings = m
                        .captured
                        .iter()
                        .filter(|s| pos.king_bits(them) & (1 << s.index()) != 0)
                        .count();
                    (m.captured.len() * 100 + kings * 200) as i32
                },
                greedy,
            )
            .map(|m| Answer::Move(AnyMove::Draughts(m)))
        }
        AnyGame::Dice(line) => {
            let pos = line.position();
            if pos.outcome().is_some() {
                return None;
            }
            if greedy {
                return Some(match super::dice::simple_choice(pos, rolled, seed) {
                    None => Answer::Roll,
                    Some(m) => Answer::Move(AnyMove::Dice(m)),
                });
            }
            match rolled {
                None => {
                    let kings = pos.king_moves();
                    let n = kings.len() + pos.can_roll() as usize;
                    if n == 0 {
                        return None;
                    }
                    let i = rng.gen_range(0..n);
                    Some(match kings.get(i) {
                        Some(m) => Answer::Move(AnyMove::Dice(m.clone())),
                        None => Answer::Roll,
                    })
                }
                Some(face) => {
                    let options = pos.roll_options(face);
                    pick(&mut rng, &options, |_| 0, false).map(|m| Answer::Move(AnyMove::Dice(m)))
                }
            }
        }
    }
}
