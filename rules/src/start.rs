//! How a game starts: the kind, a set-up position or the standard one, the seed of the mines
//! and the dice start rolls — everything needed to rebuild its first position. The app's
//! sessions and the server's games both start from one.

use crate::{dice, AnyGame, GameKind, Line, PositionError, Side};

/// How a game started: everything needed to rebuild its first position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// Which game.
    pub kind: GameKind,
    /// A custom start position text, or `None` for the game's standard start.
    pub position: Option<String>,
    /// The seed that lays the mines of minesweeper chess (unused by the other games).
    pub seed: u64,
    /// Dice chess: the start-roll pairs (White's value, Black's value), ties included; the first
    /// untied pair decides who begins. Empty for the other games.
    pub start_rolls: Vec<(u8, u8)>,
}

impl GameStart {
    /// The standard start of `kind`.
    pub fn standard(kind: GameKind, seed: u64, start_rolls: Vec<(u8, u8)>) -> GameStart {
        GameStart {
            kind,
            position: None,
            seed,
            start_rolls,
        }
    }

    /// The first position, with an empty history.
    pub fn first_position(&self) -> Result<AnyGame, StartError> {
        if let Some(text) = &self.position {
            return AnyGame::from_text(self.kind, text).map_err(StartError::Position);
        }
        if self.kind == GameKind::DiceChess {
            let first = if self.start_rolls.is_empty() {
                Side::White
            } else {
                dice::start_roll(&self.start_rolls)
                    .map_err(|e| StartError::StartRoll(e.to_string()))?
            };
            return Ok(AnyGame::Dice(Line::new(dice::Position::start(first))));
        }
        Ok(AnyGame::start(self.kind, self.seed))
    }
}

/// Why a start does not give a first position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The start position text is malformed.
    Position(PositionError),
    /// The dice start rolls do not decide who begins.
    StartRoll(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Position(e) => write!(f, "{e}"),
            StartError::StartRoll(e) => write!(f, "start roll: {e}"),
        }
    }
}

impl std::error::Error for StartError {}
