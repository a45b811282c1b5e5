//! The plain view of a game that the UI draws: no Slint, no human text (status messages are
//! translation keys with arguments).

use takhte_rules::{GameKind, Side};

/// Marks on a square, as bits of a `u32`.
pub mod mark {
    /// The selected piece.
    pub const SELECTED: u32 = 1;
    /// A square the selected piece may move to (or land on next, in a draughts capture).
    pub const TARGET: u32 = 1 << 1;
    /// A legal target that captures.
    pub const CAPTURE_TARGET: u32 = 1 << 2;
    /// The origin of the last move.
    pub const LAST_FROM: u32 = 1 << 3;
    /// The landing square of the last move.
    pub const LAST_TO: u32 = 1 << 4;
    /// A king in check.
    pub const CHECK: u32 = 1 << 5;
    /// A square of the capture path being entered or of the last capture (draughts).
    pub const PATH: u32 = 1 << 6;
    /// A piece taken on the path (draughts).
    pub const PATH_CAPTURED: u32 = 1 << 7;
    /// Under fog (minesweeper chess).
    pub const FOG: u32 = 1 << 8;
    /// A revealed mine.
    pub const MINE: u32 = 1 << 9;
    /// The square the selected pawn's sapper action would sweep.
    pub const SAPPER_TARGET: u32 = 1 << 10;
    /// A pawn that can use the rolled face (dice chess).
    pub const USABLE: u32 = 1 << 11;
    /// The hint's origin and landing squares.
    pub const HINT: u32 = 1 << 12;
    /// Where a mine just destroyed a piece (the UI flashes it).
    pub const EXPLOSION: u32 = 1 << 13;
}

/// The shape to draw for a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Glyph {
    /// Chess or dice-chess pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// Chess or dice-chess king.
    King,
    /// Draughts man.
    Man,
    /// Draughts king (crowned).
    DamaKing,
}

impl Glyph {
    /// A short stable name (`pawn`, `man`, `dama-king`…), used for image file names.
    pub fn name(self) -> &'static str {
        match self {
            Glyph::Pawn => "pawn",
            Glyph::Knight => "knight",
            Glyph::Bishop => "bishop",
            Glyph::Rook => "rook",
            Glyph::Queen => "queen",
            Glyph::King => "king",
            Glyph::Man => "man",
            Glyph::DamaKing => "dama-king",
        }
    }
}

/// A piece as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceView {
    /// Its owner.
    pub side: Side,
    /// Its shape.
    pub glyph: Glyph,
}

/// One square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareView {
    /// The piece on it.
    pub piece: Option<PieceView>,
    /// Bits of [`mark`].
    pub marks: u32,
    /// The Minesweeper number (1–8) of a revealed square; 0 shows nothing.
    pub number: u8,
}

/// A status line: a translation key and its arguments (values are machine words or numbers
/// that the UI formats and translates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The Fluent message id, e.g. `status-your-turn`.
    pub key: &'static str,
    /// Named arguments.
    pub args: Vec<(&'static str, String)>,
}

impl Status {
    /// A status without arguments.
    pub fn new(key: &'static str) -> Status {
        Status {
            key,
            args: Vec::new(),
        }
    }

    /// Adds an argument.
    pub fn arg(mut self, name: &'static str, value: impl Into<String>) -> Status {
        self.args.push((name, value.into()));
        self
    }
}

/// The die of dice chess.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DieView {
    /// The rolled face waiting for a pawn move, if any.
    pub face: Option<u8>,
    /// The face shown last (after the move it stays visible until the next roll).
    pub last_face: Option<u8>,
    /// Whether the roll button is offered.
    pub can_roll: bool,
    /// The start-roll pairs (White, Black), shown at the start of the game.
    pub start_rolls: Vec<(u8, u8)>,
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// Milliseconds left.
    pub remaining_ms: u64,
    /// Whether it is running.
    pub running: bool,
}

/// One entry of the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move in the game's notation with letters (SAN for chess).
    pub text: String,
    /// The move with figurines and signs (see `annotate::Ply::figurine`).
    pub figurine: String,
    /// Which side played it.
    pub side: Side,
    /// The move's number as the move list shows it: a move is White's turn and Black's after
    /// it (a game that Black began starts with "1. … move").
    pub number: usize,
    /// Whether the cursor stands right after this move.
    pub current: bool,
    /// Whether the move is taken back (after the cursor: redo plays it again).
    pub undone: bool,
}

/// The result sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultView {
    /// The winner, or `None` for a draw (or an aborted game).
    pub winner: Option<Side>,
    /// The game was called off before each side had moved: no result, not a draw.
    pub aborted: bool,
    /// The reason word (`checkmate`, `resignation`, `time`, …).
    pub reason: &'static str,
}

/// Which buttons are active.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Undo.
    pub undo: bool,
    /// Redo.
    pub redo: bool,
    /// Hint.
    pub hint: bool,
    /// Resign.
    pub resign: bool,
    /// Offer a draw.
    pub offer_draw: bool,
    /// Whether draws are offered in this game at all: between two people (on one device or
    /// online), never to the computer.
    pub draw_offers: bool,
    /// Online: offering a draw is not possible yet (one offer a move): offer after the next
    /// move.
    pub offer_draw_later: bool,
    /// Accept or decline the opponent's offer.
    pub answer_draw: bool,
    /// Roll the die (dice chess).
    pub roll: bool,
    /// Sapper action of the selected pawn (minesweeper chess).
    pub sapper: bool,
}

/// An arrow on the board: a move the spectators suggest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrowView {
    /// Where the move starts.
    pub from: takhte_rules::Square,
    /// Where it ends.
    pub to: takhte_rules::Square,
    /// How many suggest it.
    pub count: u32,
    /// The most chosen move (drawn stronger).
    pub strong: bool,
    /// Drawn faintly (for the player to move in an audience game).
    pub faint: bool,
    /// This spectator's own suggestion.
    pub own: bool,
}

/// The line under the board about the spectators' suggestions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrowdLine {
    /// The suggestions for the move now (or, in review, for the move from this position).
    Suggested {
        /// Each move (in the game's notation) and how many chose it, most first.
        items: Vec<(String, u32)>,
        /// The spectators who suggested a move.
        voters: u32,
    },
    /// The move just played, compared with what the spectators had suggested.
    Played {
        /// The move, in the game's notation.
        mv: String,
        /// How many had suggested it.
        matched: u32,
        /// The spectators who suggested a move.
        voters: u32,
    },
}

/// Everything the board screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Which game.
    pub kind: GameKind,
    /// Number of ranks (8 or 10).
    pub ranks: u8,
    /// Squares by index `rank * 8 + file`.
    pub squares: Vec<SquareView>,
    /// Whether the board is drawn with Black at the bottom.
    pub flipped: bool,
    /// The side to move.
    pub side_to_move: Side,
    /// The status line.
    pub status: Status,
    /// The die (dice chess).
    pub die: Option<DieView>,
    /// Clocks, White then Black.
    pub clocks: Option<[ClockView; 2]>,
    /// Pieces each side has captured: `captured[0]` taken by White.
    pub captured: [Vec<PieceView>; 2],
    /// Pieces each side lost to mines: `lost_to_mines[0]` are White's.
    pub lost_to_mines: [Vec<PieceView>; 2],
    /// The move list.
    pub moves: Vec<MoveEntry>,
    /// Mines left on the board (minesweeper chess).
    pub mines_left: Option<u32>,
    /// Active buttons.
    pub buttons: Buttons,
    /// A pawn waiting for its promotion piece: (from, to) square indices.
    pub promotion: Option<(u8, u8)>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Whether the game is being reviewed (cursor before the last move of a finished game).
    pub review: bool,
    /// Whether the computer is thinking.
    pub thinking: bool,
    /// A pending draw offer by this side.
    pub draw_offer: Option<Side>,
    /// Whether the last save failed (it is retried after the next move).
    pub save_failed: bool,
    /// The squares of the move that led to this position (origin, landings), for animation.
    pub last_path: Vec<takhte_rules::Square>,
    /// The spectators' suggestions as arrows (online).
    pub arrows: Vec<ArrowView>,
    /// The line about the suggestions (online).
    pub crowd: Option<CrowdLine>,
    /// Whether this device watches (a spectator).
    pub watching: bool,
}
