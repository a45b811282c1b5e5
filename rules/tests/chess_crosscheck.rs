//! Cross-checks the chess rules against shakmaty, an independent move generator: for more than
//! 10,000 positions reached by seeded random playouts, the legal move sets, the SAN of every move,
//! the FEN, the tactical moves alone (captures and queen promotions) and checkmate/stalemate
//! agree.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use takhte_rules::chess::{Board, Kind, Move, MoveList, Position};
use takhte_rules::{mine, Rules};

const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn shak(fen: &str) -> Chess {
    let f: Fen = fen.parse().expect("shakmaty parses our FEN");
    f.into_position(CastlingMode::Standard)
        .expect("shakmaty accepts our position")
}

/// The board's tactical moves ([`Board::generate_tactical`]).
fn tactical_moves(b: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    b.generate_tactical(&mut list);
    list.as_slice().to_vec()
}

/// The board's legal moves that capture or promote to a queen, in the generator's order.
fn filtered(b: &Board) -> Vec<Move> {
    b.legal_moves()
        .into_iter()
        .filter(|&m| b.is_capture(m) || m.promotion == Some(Kind::Queen))
        .collect()
}

/// On the 8×10 board of minesweeper chess (mines aside), the tactical moves are the full list's
/// captures and queen promotions, in its order, along seeded random playouts.
#[test]
fn tactical_moves_on_the_ten_rank_board() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    for _game in 0..60 {
        let mut b = *mine::Position::start(0).board();
        for _ply in 0..300 {
            let all = b.legal_moves();
            assert_eq!(tactical_moves(&b), filtered(&b), "{b:?}");
            checked += 1;
            if all.is_empty() {
                break;
            }
            b.apply(all[rng.gen_range(0..all.len())]);
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn legal_moves_san_and_fen_agree_with_shakmaty() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut checked = 0usize;
    let mut game = 0;
    while checked < 12_000 {
        let start = STARTS[game % STARTS.len()];
        game += 1;
        let mut ours = Position::from_text(start).unwrap();
        let mut theirs = shak(start);
        for _ply in 0..200 {
            let fen = ours.to_text();
            assert_eq!(
                fen,
                Fen::from_position(&theirs, EnPassantMode::Always).to_string(),
                "FEN after playout"
            );
            let mut a: Vec<String> = ours
                .legal_moves()
                .iter()
                .map(|m| ours.move_to_text(m))
                .collect();
            let mut b: Vec<String> = theirs
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "legal moves differ in {fen}");
            // The tactical moves alone: shakmaty's captures and queen promotions.
            let mut tactical: Vec<String> = tactical_moves(ours.board())
                .iter()
                .map(|m| m.uci())
                .collect();
            assert_eq!(
                tactical,
                filtered(ours.board())
                    .iter()
                    .map(|m| m.uci())
                    .collect::<Vec<_>>(),
                "tactical moves in {fen}: not the full list's own order"
            );
            let mut want: Vec<String> = theirs
                .legal_moves()
                .iter()
                .filter(|m| m.is_capture() || m.promotion() == Some(shakmaty::Role::Queen))
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            tactical.sort();
            want.sort();
            assert_eq!(tactical, want, "tactical moves differ in {fen}");
            for m in theirs.legal_moves() {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                let mv = ours.parse_move(&uci).unwrap();
                let san = SanPlus::from_move(theirs.clone(), m).to_string();
                assert_eq!(ours.san(&mv), san, "SAN of {uci} in {fen}");
                assert_eq!(ours.parse_san(&san), Ok(mv), "reading {san} in {fen}");
            }
            assert_eq!(
                theirs.is_checkmate(),
                a.is_empty() && ours.in_check(),
                "{fen}"
            );
            assert_eq!(
                theirs.is_stalemate(),
                a.is_empty() && !ours.in_check(),
                "{fen}"
            );
            checked += 1;
            if a.is_empty() {
                break;
            }
            let pick = rng.gen_range(0..a.len());
            let mv = ours.parse_move(&a[pick]).unwrap();
            ours.play(&mv).unwrap();
            let m = theirs
                .legal_moves()
                .into_iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == a[pick])
                .unwrap();
            theirs.play_unchecked(m);
        }
    }
    assert!(checked >= 10_000);
}
