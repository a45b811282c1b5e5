//! Types every game shares: sides, outcomes, errors and the [`Rules`] trait.

use std::fmt;

/// One of the two players. White sits at the bottom (rank 1) and, except in dice chess where the
/// start roll decides, moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player at the bottom of the board (rank 1).
    White,
    /// The player at the top of the board.
    Black,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The position-text letter: `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// Parses the position-text letter `w` or `b`.
    pub fn from_letter(text: &str) -> Option<Side> {
        match text {
            "w" => Some(Side::White),
            "b" => Some(Side::Black),
            _ => None,
        }
    }
}

/// Why a game ended, as far as the rules decide it (resignation, agreement and time are the
/// session's business). The text form is the one the CLI prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move (dice chess: also an empty roll in check).
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The same position occurred for the third time with the same side to move.
    Repetition,
    /// Chess: fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
    /// Chess and minesweeper chess: neither side can ever mate.
    InsufficientMaterial,
    /// Draughts: the side to move has no pieces left.
    NoPieces,
    /// Draughts: the side to move cannot move.
    NoMoves,
    /// Draughts: a single man against two or more pieces.
    LoneMan,
    /// Draughts: each side is down to one piece.
    OnePieceEach,
    /// Dice chess: only the two kings are left.
    OnlyKings,
    /// Minesweeper chess: a mine destroyed the moving piece and left its own king in check.
    MineExposedKing,
}

impl EndReason {
    /// The machine word for the reason, e.g. `fifty-moves`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::FiftyMoves => "fifty-moves",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::NoPieces => "no-pieces",
            EndReason::NoMoves => "no-moves",
            EndReason::LoneMan => "lone-man",
            EndReason::OnePieceEach => "one-piece-each",
            EndReason::OnlyKings => "only-kings",
            EndReason::MineExposedKing => "mine-exposed-king",
        }
    }
}

/// Who won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The given side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

/// The end of a game: the result and the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// The rule that ended the game.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner` by `reason`.
    pub fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Win(winner),
            reason,
        }
    }

    /// A draw by `reason`.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

impl fmt::Display for Outcome {
    /// `white-wins REASON`, `black-wins REASON` or `draw REASON`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = match self.result {
            GameResult::Win(Side::White) => "white-wins",
            GameResult::Win(Side::Black) => "black-wins",
            GameResult::Draw => "draw",
        };
        write!(f, "{} {}", head, self.reason.as_str())
    }
}

/// A position text that could not be read. The message names the field (and the square, where
/// there is one) that is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// What is wrong, in one line of English for developers and testers.
    pub message: String,
}

impl PositionError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> PositionError {
        PositionError {
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}", self.message)
    }
}

impl std::error::Error for PositionError {}

/// A move that could not be read or that is not legal in the position. The position is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    Malformed(String),
    /// The move is well-formed but not legal here; the text says why when it can.
    Illegal(String),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => write!(f, "malformed move: {m}"),
            MoveError::Illegal(m) => write!(f, "illegal move: {m}"),
            MoveError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// What every game offers. A position knows the board, the side to move and whatever the rules
/// need to decide the next move; it does not own its history (see [`crate::Line`]).
pub trait Rules: Clone + fmt::Debug + Sized {
    /// A move (for dice chess: a whole turn, die face included).
    type Move: Clone + fmt::Debug + PartialEq + Eq + std::hash::Hash;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Every legal move. Empty when the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Whether `mv` is legal here; agrees with [`Rules::legal_moves`].
    fn is_legal(&self, mv: &Self::Move) -> bool;

    /// Plays a legal move. An illegal move returns an error and leaves the position untouched.
    fn play(&mut self, mv: &Self::Move) -> Result<(), MoveError>;

    /// The end of the game as far as this position alone decides it (repetition needs the
    /// history: see [`crate::Line::outcome`]). `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The position text of RULES.md.
    fn to_text(&self) -> String;

    /// Reads a position text; the error names the field and square that are wrong.
    fn from_text(text: &str) -> Result<Self, PositionError>;

    /// The machine form of a move (UCI for chess, `c3xc5xe5` for draughts, `3:b2c4` for dice chess).
    fn move_to_text(&self, mv: &Self::Move) -> String;

    /// Reads a move in machine form and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// A key equal for positions that count as the same for threefold repetition.
    fn repetition_key(&self) -> u64;

    /// Whether playing `mv` here can never be undone by later moves (a capture, a pawn move, a
    /// mine going off...): positions before it can never repeat after it. Used to shorten the
    /// repetition scan; `false` is always a safe answer.
    fn is_irreversible(&self, mv: &Self::Move) -> bool;

    /// Whether threefold repetition ends this game (every game here except dice chess).
    fn repetition_draws() -> bool {
        true
    }
}

/// FNV-1a, 64 bits: a small stable hash for repetition keys (the same on every platform and
/// every run, unlike `std`'s randomly keyed hasher).
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
