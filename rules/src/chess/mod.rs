//! Chess, by the FIDE Laws: FEN in and out, SAN in and out, UCI moves.
//!
//! ```
//! use takhte_rules::{chess::Position, Rules};
//! let mut pos = Position::start();
//! let mv = pos.parse_san("Nf3").unwrap();
//! assert_eq!(pos.move_to_text(&mv), "g1f3");
//! pos.play(&mv).unwrap();
//! assert_eq!(pos.legal_moves().len(), 20);
//! ```

pub mod board;
pub mod fen;
pub mod san;

pub use board::{Board, Kind, Move, MoveList, Piece, Variant};

use super::{EndReason, MoveError, Outcome, PositionError, Rules, Side, Square};

/// The rules of standard chess for [`Board`]: en passant, promotion with choice.
pub const CHESS: Variant = Variant {
    en_passant: true,
    promotion_choice: true,
};

/// The FEN of the initial position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position: the board, side to move, castling rights, en-passant square and the two
/// move counters of FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
}

impl Position {
    /// The initial position.
    pub fn start() -> Position {
        Position {
            board: Board::start(8, CHESS),
        }
    }

    /// The engine board underneath.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.board.in_check(self.board.side_to_move())
    }

    /// The SAN of a legal move: `Nf3`, `exd5`, `O-O`, `e8=Q+`, `Qh4#`.
    pub fn san(&self, mv: &Move) -> String {
        san::to_san(&self.board, *mv)
    }

    /// Reads a move in SAN (check marks and `!?` annotations optional; `0-0` accepted) and checks
    /// that it is legal and unambiguous.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        san::parse_san(&self.board, text)
    }

    /// Reads a move in UCI form (`e2e4`, `e7e8q`) and checks that it is legal.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        parse_uci(&self.board, text)
    }

    /// Perft with bulk counting: leaves of the legal-move tree, ignoring draws by rule (as every
    /// published perft table does).
    pub fn perft(&self, depth: u32) -> u64 {
        self.board.perft(depth)
    }
}

/// Reads a UCI move on any chess board and checks it against the legal moves.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, MoveError> {
    let ranks = board.ranks();
    let malformed = || MoveError::Malformed(format!("'{text}' is not a move like e2e4 or e7e8q"));
    if !text.is_ascii() || text.len() < 4 {
        return Err(malformed());
    }
    // Split at the second letter: the from-square is a letter and digits up to it.
    let bytes = text.as_bytes();
    let second = (1..bytes.len())
        .find(|&i| bytes[i].is_ascii_alphabetic())
        .ok_or_else(malformed)?;
    let from = Square::parse(&text[..second], ranks).ok_or_else(malformed)?;
    let rest = &text[second..];
    let (to_text, promo) = match rest.chars().last() {
        Some(c) if c.is_ascii_alphabetic() && rest.len() > 1 => (&rest[..rest.len() - 1], Some(c)),
        _ => (rest, None),
    };
    let to = Square::parse(to_text, ranks).ok_or_else(malformed)?;
    let promotion = match promo {
        None => None,
        Some(c) => match Kind::from_letter(c) {
            Some(k) if c.is_ascii_lowercase() && k != Kind::Pawn && k != Kind::King => Some(k),
            _ => {
                return Err(MoveError::Malformed(format!(
                    "'{text}': unknown promotion piece '{c}'"
                )))
            }
        },
    };
    let mut list = MoveList::new();
    board.generate(&mut list);
    let mv = Move {
        from,
        to,
        promotion,
    };
    if list.as_slice().contains(&mv) {
        return Ok(mv);
    }
    // Explain the most common mistakes.
    let same_squares: Vec<&Move> = list
        .as_slice()
        .iter()
        .filter(|m| m.from == from && m.to == to)
        .collect();
    if !same_squares.is_empty() {
        return Err(MoveError::Illegal(if promotion.is_none() {
            format!("{text}: a pawn reaching the last rank must name its promotion piece")
        } else {
            format!("{text}: that promotion is not allowed here")
        }));
    }
    let reason = match board.piece_at(from) {
        None => format!("{text}: there is no piece on {from}"),
        Some(p) if p.side != board.side_to_move() => {
            format!("{text}: the piece on {from} is not yours")
        }
        Some(_) if board.in_check(board.side_to_move()) => {
            format!("{text}: it does not answer the check")
        }
        Some(_) => format!("{text}: that piece cannot move there"),
    };
    Err(MoveError::Illegal(reason))
}

impl Rules for Position {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.board.side_to_move()
    }

    /// Every legal move. Draws by rule (fifty moves, material, repetition) do not empty the list,
    /// as in every chess tool; `outcome()` reports them, and [`crate::Line`] refuses moves
    /// after them.
    fn legal_moves(&self) -> Vec<Move> {
        self.board.legal_moves()
    }

    fn is_legal(&self, mv: &Move) -> bool {
        self.board.is_legal(*mv)
    }

    fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if !self.board.is_legal(*mv) {
            return Err(parse_uci(&self.board, &mv.uci())
                .err()
                .unwrap_or(MoveError::Illegal(mv.uci())));
        }
        self.board.apply(*mv);
        Ok(())
    }

    /// Checkmate, stalemate, insufficient material, then the fifty-move rule (a mate on the
    /// hundredth half-move counts as mate).
    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.board.generate(&mut list);
        let side = self.board.side_to_move();
        if list.is_empty() {
            return Some(if self.board.in_check(side) {
                Outcome::win(side.opponent(), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if self.board.insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if self.board.halfmove_clock() >= 100 {
            return Some(Outcome::draw(EndReason::FiftyMoves));
        }
        None
    }

    fn to_text(&self) -> String {
        let b = &self.board;
        format!(
            "{} {} {} {} {} {}",
            fen::write_pieces(b),
            b.side_to_move().letter(),
            fen::write_castling(b.castling()),
            b.ep_square()
                .map(|s| s.to_string())
                .unwrap_or_else(|| "-".into()),
            b.halfmove_clock(),
            b.fullmove_number()
        )
    }

    /// Reads FEN. The move counters may be left out (they default to `0 1`).
    fn from_text(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(PositionError::new(format!(
                "FEN needs 6 fields (board, side, castling, en passant, half-move clock, move number), found {}",
                fields.len()
            )));
        }
        let mut board = Board::empty(8, CHESS);
        fen::read_pieces(&mut board, fields[0])?;
        board.set_side_to_move(fen::read_side(fields[1])?);
        fen::read_castling(&mut board, fields[2])?;
        let side = board.side_to_move();
        if fields[3] != "-" {
            let ep = Square::parse(fields[3], 8).ok_or_else(|| {
                PositionError::new(format!("en passant: '{}' is not a square", fields[3]))
            })?;
            let (ep_rank, pawn_rank) = if side == Side::White { (5, 4) } else { (2, 3) };
            let pawn = Square::new(ep.file(), pawn_rank);
            let behind = Square::new(ep.file(), if side == Side::White { 6 } else { 1 });
            if ep.rank() != ep_rank
                || board.piece_at(ep).is_some()
                || board.piece_at(behind).is_some()
                || board.piece_at(pawn)
                    != Some(Piece {
                        kind: Kind::Pawn,
                        side: side.opponent(),
                    })
            {
                return Err(PositionError::new(format!(
                    "en passant: {ep} is not the square a {} pawn just passed over",
                    if side == Side::White {
                        "black"
                    } else {
                        "white"
                    }
                )));
            }
            board.set_ep_square(Some(ep));
        }
        let number = |i: usize, name: &str, default: u32| -> Result<u32, PositionError> {
            match fields.get(i) {
                None => Ok(default),
                Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => t
                    .parse::<u32>()
                    .map_err(|_| PositionError::new(format!("{name}: '{t}' is too large"))),
                Some(t) => Err(PositionError::new(format!("{name}: '{t}' is not a number"))),
            }
        };
        let half = number(4, "half-move clock", 0)?;
        let full = number(5, "move number", 1)?;
        if full == 0 {
            return Err(PositionError::new("move number: must be at least 1"));
        }
        board.set_counters(half, full);
        fen::check_kings(&board)?;
        Ok(Position { board })
    }

    fn move_to_text(&self, mv: &Move) -> String {
        mv.uci()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_uci(&self.board, text)
    }

    fn repetition_key(&self) -> u64 {
        self.board.repetition_key()
    }

    fn is_irreversible(&self, mv: &Move) -> bool {
        let b = &self.board;
        b.is_capture(*mv)
            || b.piece_at(mv.from).map(|p| p.kind == Kind::Pawn).unwrap_or(false)
            || b.is_castling(*mv)
            // Losing a castling right also changes the position for good.
            || (b.castling() != 0 && {
                let mut after = *b;
                after.apply(*mv);
                after.castling() != b.castling()
            })
    }
}
