//! One type over the four games, for code that does not care which game it runs (the CLI, the
//! session, tests).

use std::fmt;

use super::{
    chess, dice, draughts, mine, perft, Line, MoveError, Outcome, PositionError, Rules, Side,
};

/// Which of the four games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Chess (FIDE).
    Chess,
    /// Dice chess: a king and fifteen pawns, a die decides how a pawn moves.
    DiceChess,
    /// Turkish draughts (Dama).
    Draughts,
    /// Minesweeper chess on 8×10 with hidden mines.
    MineChess,
}

impl GameKind {
    /// The four games in menu order.
    pub const ALL: [GameKind; 4] = [
        GameKind::Chess,
        GameKind::DiceChess,
        GameKind::Draughts,
        GameKind::MineChess,
    ];

    /// The machine name: `chess`, `dice-chess`, `draughts`, `mine-chess`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::DiceChess => "dice-chess",
            GameKind::Draughts => "draughts",
            GameKind::MineChess => "mine-chess",
        }
    }

    /// Reads a machine name.
    ///
    /// ```
    /// use takhte_rules::GameKind;
    /// assert_eq!(GameKind::parse("mine-chess"), Some(GameKind::MineChess));
    /// assert_eq!(GameKind::parse("go"), None);
    /// ```
    pub fn parse(text: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == text)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move of any of the four games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A chess move.
    Chess(chess::Move),
    /// A dice-chess turn.
    Dice(dice::Move),
    /// A draughts move with its path.
    Draughts(draughts::Move),
    /// A minesweeper-chess move or sapper action.
    Mine(mine::Move),
}

/// A game of any kind: a [`Line`] (position plus repetition history) of one of the four games.
///
/// ```
/// use takhte_rules::{AnyGame, GameKind};
/// let mut game = AnyGame::start(GameKind::Chess, 0);
/// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     game.play_text(m).unwrap();
/// }
/// assert_eq!(game.outcome().unwrap().to_string(), "black-wins checkmate");
/// ```
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Chess.
    Chess(Line<chess::Position>),
    /// Dice chess.
    Dice(Line<dice::Position>),
    /// Turkish draughts.
    Draughts(Line<draughts::Position>),
    /// Minesweeper chess.
    Mine(Line<mine::Position>),
}

macro_rules! each {
    ($game:expr, $line:ident => $body:expr) => {
        match $game {
            AnyGame::Chess($line) => $body,
            AnyGame::Dice($line) => $body,
            AnyGame::Draughts($line) => $body,
            AnyGame::Mine($line) => $body,
        }
    };
}

fn wrong_game(kind: GameKind) -> MoveError {
    MoveError::Malformed(format!("not a move of {kind}"))
}

impl AnyGame {
    /// The start position of `kind`. `seed` lays the mines of minesweeper chess; dice chess
    /// starts with White to move (the start roll is the session's, see
    /// [`crate::dice::start_roll`]).
    pub fn start(kind: GameKind, seed: u64) -> AnyGame {
        match kind {
            GameKind::Chess => AnyGame::Chess(Line::new(chess::Position::start())),
            GameKind::DiceChess => AnyGame::Dice(Line::new(dice::Position::start(Side::White))),
            GameKind::Draughts => AnyGame::Draughts(Line::new(draughts::Position::start())),
            GameKind::MineChess => AnyGame::Mine(Line::new(mine::Position::start(seed))),
        }
    }

    /// Reads a position text of `kind`.
    pub fn from_text(kind: GameKind, text: &str) -> Result<AnyGame, PositionError> {
        Ok(match kind {
            GameKind::Chess => AnyGame::Chess(Line::new(chess::Position::from_text(text)?)),
            GameKind::DiceChess => AnyGame::Dice(Line::new(dice::Position::from_text(text)?)),
            GameKind::Draughts => {
                AnyGame::Draughts(Line::new(draughts::Position::from_text(text)?))
            }
            GameKind::MineChess => AnyGame::Mine(Line::new(mine::Position::from_text(text)?)),
        })
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Chess(_) => GameKind::Chess,
            AnyGame::Dice(_) => GameKind::DiceChess,
            AnyGame::Draughts(_) => GameKind::Draughts,
            AnyGame::Mine(_) => GameKind::MineChess,
        }
    }

    /// The position text.
    pub fn to_text(&self) -> String {
        each!(self, l => l.position().to_text())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        each!(self, l => l.position().side_to_move())
    }

    /// The outcome, threefold repetition included; `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, l => l.outcome())
    }

    /// The legal moves of the position (for dice chess: every turn option, as perft counts them).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Chess(l) => l.legal_moves().into_iter().map(AnyMove::Chess).collect(),
            AnyGame::Dice(l) => l.legal_moves().into_iter().map(AnyMove::Dice).collect(),
            AnyGame::Draughts(l) => l.legal_moves().into_iter().map(AnyMove::Draughts).collect(),
            AnyGame::Mine(l) => l.legal_moves().into_iter().map(AnyMove::Mine).collect(),
        }
    }

    /// The machine text of a move of this game.
    pub fn move_to_text(&self, mv: &AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Chess(l), AnyMove::Chess(m)) => l.position().move_to_text(m),
            (AnyGame::Dice(l), AnyMove::Dice(m)) => l.position().move_to_text(m),
            (AnyGame::Draughts(l), AnyMove::Draughts(m)) => l.position().move_to_text(m),
            (AnyGame::Mine(l), AnyMove::Mine(m)) => l.position().move_to_text(m),
            _ => String::from("?"),
        }
    }

    /// Reads a move in the game's machine notation and checks that it is legal now.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        Ok(match self {
            AnyGame::Chess(l) => AnyMove::Chess(l.position().parse_move(text)?),
            AnyGame::Dice(l) => AnyMove::Dice(l.position().parse_move(text)?),
            AnyGame::Draughts(l) => AnyMove::Draughts(l.position().parse_move(text)?),
            AnyGame::Mine(l) => AnyMove::Mine(l.position().parse_move(text)?),
        })
    }

    /// Plays a legal move; an illegal move (or one after the end) changes nothing.
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), MoveError> {
        let kind = self.kind();
        match (self, mv) {
            (AnyGame::Chess(l), AnyMove::Chess(m)) => l.play(m),
            (AnyGame::Dice(l), AnyMove::Dice(m)) => l.play(m),
            (AnyGame::Draughts(l), AnyMove::Draughts(m)) => l.play(m),
            (AnyGame::Mine(l), AnyMove::Mine(m)) => l.play(m),
            _ => Err(wrong_game(kind)),
        }
    }

    /// Reads and plays a move.
    pub fn play_text(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.parse_move(text)?;
        self.play(&mv)
    }

    /// The moves the CLI's `moves` command prints, sorted: every legal move in machine form;
    /// for dice chess the king's moves, or with `die` that face's pawn moves in plain from–to
    /// form (`b2c4`), or `N:-` when the face gives none (nothing for a face other than 1–6).
    /// As with [`Rules::legal_moves`], a chess draw by rule still lists its moves.
    pub fn moves_text(&self, die: Option<u8>) -> Vec<String> {
        let mut out: Vec<String> = match (self, die) {
            (AnyGame::Dice(l), _) if l.outcome().is_some() => Vec::new(),
            // A die has faces 1 to 6: no move for another.
            (AnyGame::Dice(_), Some(face)) if !(1..=6).contains(&face) => Vec::new(),
            (AnyGame::Dice(l), None) => l
                .position()
                .king_moves()
                .iter()
                .map(|m| l.position().move_to_text(m))
                .collect(),
            (AnyGame::Dice(l), Some(face)) => {
                let pos = l.position();
                let pawns: Vec<String> = pos
                    .pawn_moves(face)
                    .iter()
                    .filter_map(|m| match m {
                        dice::Move::Pawn { from, to, .. } => Some(format!("{from}{to}")),
                        _ => None,
                    })
                    .collect();
                let can_roll = pos
                    .legal_moves()
                    .iter()
                    .any(|m| !matches!(m, dice::Move::King { .. }));
                if pawns.is_empty() && can_roll {
                    vec![format!("{face}:-")]
                } else {
                    pawns
                }
            }
            (AnyGame::Chess(l), _) => l
                .position()
                .legal_moves()
                .iter()
                .map(|m| l.position().move_to_text(m))
                .collect(),
            (AnyGame::Draughts(l), _) => l
                .position()
                .legal_moves()
                .iter()
                .map(|m| l.position().move_to_text(m))
                .collect(),
            (AnyGame::Mine(l), _) => l
                .position()
                .legal_moves()
                .iter()
                .map(|m| l.position().move_to_text(m))
                .collect(),
        };
        out.sort();
        out
    }

    /// Perft from the current position. Chess counts as every published table does (draws by
    /// rule ignored); dice chess branches over king moves and each face's pawn moves or pass;
    /// the mines of minesweeper chess act as in play.
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyGame::Chess(l) => l.position().perft(depth),
            AnyGame::Dice(l) => perft::perft(l.position(), depth),
            AnyGame::Draughts(l) => l.position().perft(depth),
            AnyGame::Mine(l) => perft::perft(l.position(), depth),
        }
    }
}
