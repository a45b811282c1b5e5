//! Pure game logic for the four games of Takhte.
//!
//! Nothing here touches files, clocks, threads or a global random generator: a die face or a mine
//! seed is always an input. Every game implements [`Rules`]; [`AnyGame`] dispatches over the four
//! of them, and [`Line`] adds the history a position does not own (for threefold repetition).
//!
//! ```
//! use takhte_rules::{AnyGame, GameKind};
//! let mut game = AnyGame::start(GameKind::Chess, 0);
//! game.play_text("e2e4").unwrap();
//! assert_eq!(game.to_text(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! ```

#![deny(missing_docs)]

pub mod any;
pub mod bitboard;
pub mod chess;
pub mod common;
pub mod dice;
pub mod draughts;
pub mod line;
pub mod mine;
pub mod perft;
pub mod square;
pub mod start;

pub use any::{AnyGame, AnyMove, GameKind};
pub use common::{EndReason, GameResult, MoveError, Outcome, PositionError, Rules, Side};
pub use line::Line;
pub use square::Square;
pub use start::{GameStart, StartError};
