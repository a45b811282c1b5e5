//! Public positions: what every client may see of a position, as text, and back.
//!
//! For chess, dice chess and draughts that is the position text of RULES.md. For minesweeper
//! chess it is the text of [`mine::Visible`]: the board with the revealed mines only, the
//! numbers and the counter; a hidden mine never appears in it. A client rebuilds a game it can
//! draw and reason on from it ([`game_from_public`]).
//!
//! ```
//! use takhte_protocol::public::{game_from_public, public_text};
//! use takhte_rules::{AnyGame, GameKind};
//! let mut game = AnyGame::start(GameKind::MineChess, 7);
//! game.play_text("e2e4").unwrap();
//! let text = public_text(&game);
//! let mirror = game_from_public(GameKind::MineChess, &text).unwrap();
//! assert_eq!(public_text(&mirror), text);
//! ```

use takhte_rules::mine::{self, Visible};
use takhte_rules::{AnyGame, GameKind, Line, PositionError};

/// The public text of the position of `game`.
pub fn public_text(game: &AnyGame) -> String {
    match game {
        AnyGame::Mine(l) => l.position().visible().to_text(),
        other => other.to_text(),
    }
}

/// A game of `kind` that shows exactly what the public text says: the position itself for
/// chess, dice chess and draughts; for minesweeper chess a stand-in position whose visible part
/// is the text's (see [`mine::Position::stand_in`]). It has no history (repetitions are the
/// server's to count).
pub fn game_from_public(kind: GameKind, text: &str) -> Result<AnyGame, PositionError> {
    match kind {
        GameKind::MineChess => {
            let visible = Visible::from_text(text)?;
            Ok(AnyGame::Mine(Line::new(mine::Position::stand_in(
                &visible,
            )?)))
        }
        other => AnyGame::from_text(other, text),
    }
}
