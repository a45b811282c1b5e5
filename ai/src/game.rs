//! What the alpha-beta search needs from a game: [`SearchGame`].
//!
//! Chess, minesweeper chess and Turkish draughts implement it (see `chess`,
//! `mine`, `draughts`); the search in `search` is written once over it.
//! Scores are centipawn-like integers from the point of view of the side to move.

/// Scores at or beyond this are wins (positive) or losses (negative) by force.
pub const MATE: i32 = 30_000;
/// Any score of at least this size is a forced win or loss (`MATE - ply`).
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than every score.
pub const INF: i32 = 31_000;

/// A move whose landing may lose the moving piece (a fogged square of minesweeper chess).
pub struct Risk<P> {
    /// The chance, in thousandths, that the piece is lost.
    pub permille: i32,
    /// The position after the move when the piece is lost.
    pub lost: P,
}

/// How quiescence search treats a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// The side to move may "stand pat" on the static evaluation; the listed moves (captures,
    /// promotions) are tried to improve on it.
    StandPat,
    /// Every listed move must be considered and none may be skipped (chess: in check;
    /// draughts: a compulsory capture). An empty list means the game is over.
    Forced,
}

/// A game as the alpha-beta search sees it.
pub trait SearchGame {
    /// A position (cheap to copy).
    type Pos: Clone;
    /// A move.
    type Mv: Copy + PartialEq + std::fmt::Debug;

    /// The number of slots of the history table ([`SearchGame::history_index`] is below it).
    const HISTORY_SIZE: usize;

    /// The Zobrist key of a position.
    fn key(&self, pos: &Self::Pos) -> u64;

    /// Every move to search, into `out` (cleared first).
    fn generate(&self, pos: &Self::Pos, out: &mut Vec<Self::Mv>);

    /// The moves for quiescence search, into `out` (cleared first), and how to treat them.
    fn quiescence_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Mv>) -> Quiet;

    /// The position after `mv` (for a risky move: the position when the piece survives).
    fn play(&self, pos: &Self::Pos, mv: Self::Mv) -> Self::Pos;

    /// When `mv` may lose its piece: the chance and the position after the loss.
    fn risk(&self, _pos: &Self::Pos, _mv: Self::Mv) -> Option<Risk<Self::Pos>> {
        None
    }

    /// Whether the side to move is in check (extends the search; never for draughts).
    fn in_check(&self, pos: &Self::Pos) -> bool;

    /// The static evaluation for the side to move.
    fn evaluate(&self, pos: &Self::Pos) -> i32;

    /// The score when the game is already decided in this position before any move (a draw by
    /// rule: 0; a loss or win by rule: `±(MATE - ply)`), or `None` while it goes on.
    fn decided(&self, pos: &Self::Pos, ply: i32) -> Option<i32>;

    /// The score when the side to move has no move (checkmate, stalemate, draughts' loss).
    fn no_moves(&self, pos: &Self::Pos, ply: i32) -> i32;

    /// Whether `mv` is a quiet move (no capture or promotion): quiet moves get killers and
    /// history, may be reduced and pruned.
    fn is_quiet(&self, pos: &Self::Pos, mv: Self::Mv) -> bool;

    /// An ordering score for a capture or promotion (higher first), e.g. MVV-LVA.
    fn capture_order(&self, pos: &Self::Pos, mv: Self::Mv) -> i32;

    /// Whether the static exchange on `mv` wins at least `threshold` (default: always).
    fn see_at_least(&self, _pos: &Self::Pos, _mv: Self::Mv, _threshold: i32) -> bool {
        true
    }

    /// The most material `mv` can win at once (for delta pruning in quiescence).
    fn gain(&self, pos: &Self::Pos, mv: Self::Mv) -> i32;

    /// The move packed into a non-zero 32-bit number (transposition table, killers).
    fn pack(&self, mv: Self::Mv) -> u32;

    /// The history-table slot of `mv`.
    fn history_index(&self, mv: Self::Mv) -> usize;

    /// The position with the turn passed, when a null move is sound enough here (never in
    /// zugzwang-prone positions).
    fn null_move(&self, _pos: &Self::Pos) -> Option<Self::Pos> {
        None
    }

    /// What a draw costs the side the search plays for, in the evaluation's units, when the
    /// contempt refinement is on ([`crate::search::Features::contempt`]): a side that stands
    /// better then plays on instead of repeating. 0 (the default): a draw is worth nothing.
    fn contempt(&self) -> i32 {
        0
    }

    /// How many plies back the position may repeat (the half-move clock in chess).
    fn reversible_plies(&self, _pos: &Self::Pos) -> usize {
        usize::MAX
    }

    /// Whether `pos` (reached `ply` plies into the search) already occurred in the game before
    /// the search began. Only asked near the root.
    fn repeats_game(&self, _pos: &Self::Pos, _ply: i32) -> bool {
        false
    }
}
