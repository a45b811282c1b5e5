//! A game session: its start, the moves played, a cursor for undo, redo and review, the clocks
//! and the result.

use takhte_rules::{
    AnyGame, AnyMove, EndReason, GameKind, GameResult, MoveError, Outcome, PositionError, Side,
};

use super::clock::Clock;

pub use takhte_rules::GameStart;

/// The reasons the rules end a game for.
const RULES_REASONS: [EndReason; 11] = [
    EndReason::Checkmate,
    EndReason::Stalemate,
    EndReason::Repetition,
    EndReason::FiftyMoves,
    EndReason::InsufficientMaterial,
    EndReason::NoPieces,
    EndReason::NoMoves,
    EndReason::LoneMan,
    EndReason::OnePieceEach,
    EndReason::OnlyKings,
    EndReason::MineExposedKing,
];

/// How a game ended: by the rules, or by the players or the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The rules ended it (checkmate, stalemate, repetition, …).
    Rules(Outcome),
    /// The given side resigned.
    Resigned(Side),
    /// Both players agreed to a draw.
    Agreed,
    /// The given side's time ran out; `draw` when the opponent could not possibly mate.
    Time {
        /// The side whose flag fell.
        loser: Side,
        /// True when the opponent cannot mate by any series of legal moves.
        draw: bool,
    },
    /// Online: the given side left the game and the opponent claimed the win.
    Abandoned(Side),
    /// Online: the game was called off before each side had moved (no result).
    Aborted,
}

impl GameEnd {
    /// Who won, or a draw; `None` for a game called off before each side had moved, which
    /// has no result (it is not a draw, and no statistics count it).
    pub fn result(&self) -> Option<GameResult> {
        Some(match *self {
            GameEnd::Rules(o) => o.result,
            GameEnd::Resigned(side) => GameResult::Win(side.opponent()),
            GameEnd::Agreed => GameResult::Draw,
            GameEnd::Time { draw: true, .. } => GameResult::Draw,
            GameEnd::Time { loser, .. } => GameResult::Win(loser.opponent()),
            GameEnd::Abandoned(side) => GameResult::Win(side.opponent()),
            GameEnd::Aborted => return None,
        })
    }

    /// The machine word for the reason: the rules' reasons, or `resignation`, `agreement`,
    /// `time`, `time-insufficient-material`, `abandoned`, `aborted`.
    pub fn reason(&self) -> &'static str {
        match self {
            GameEnd::Rules(o) => o.reason.as_str(),
            GameEnd::Resigned(_) => "resignation",
            GameEnd::Agreed => "agreement",
            GameEnd::Time { draw: false, .. } => "time",
            GameEnd::Time { draw: true, .. } => "time-insufficient-material",
            GameEnd::Abandoned(_) => "abandoned",
            GameEnd::Aborted => "aborted",
        }
    }

    /// Every reason word a game can end with: the rules' and those of the players and the
    /// clock (for the texts that say them).
    pub fn all_words() -> Vec<&'static str> {
        let mut words: Vec<&'static str> = RULES_REASONS.iter().map(|r| r.as_str()).collect();
        words.extend([
            "resignation",
            "agreement",
            "time",
            "time-insufficient-material",
            "abandoned",
            "aborted",
        ]);
        words
    }

    /// Rebuilds an end from its result and reason word (as saved).
    pub fn from_parts(result: GameResult, reason: &str) -> Option<GameEnd> {
        let rules_reason = RULES_REASONS.into_iter().find(|r| r.as_str() == reason);
        if let Some(r) = rules_reason {
            return Some(GameEnd::Rules(Outcome { result, reason: r }));
        }
        match (reason, result) {
            ("resignation", GameResult::Win(w)) => Some(GameEnd::Resigned(w.opponent())),
            ("agreement", GameResult::Draw) => Some(GameEnd::Agreed),
            ("time", GameResult::Win(w)) => Some(GameEnd::Time {
                loser: w.opponent(),
                draw: false,
            }),
            ("time-insufficient-material", GameResult::Draw) => None,
            ("abandoned", GameResult::Win(w)) => Some(GameEnd::Abandoned(w.opponent())),
            ("aborted", GameResult::Draw) => Some(GameEnd::Aborted),
            _ => None,
        }
    }
}

/// What can go wrong when building or replaying a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The start position text is malformed.
    Position(PositionError),
    /// The dice start roll is invalid.
    StartRoll(String),
    /// Move number `index` (from 1) does not replay.
    Replay {
        /// The move number, from 1.
        index: usize,
        /// The move text.
        text: String,
        /// Why it was refused.
        error: MoveError,
    },
    /// A move was refused now.
    Move(MoveError),
    /// The game has ended.
    Over,
    /// An online game's position did not fit (the server and this client disagree).
    Remote(String),
}

impl From<takhte_rules::StartError> for SessionError {
    fn from(e: takhte_rules::StartError) -> SessionError {
        match e {
            takhte_rules::StartError::Position(p) => SessionError::Position(p),
            takhte_rules::StartError::StartRoll(r) => SessionError::StartRoll(r),
        }
    }
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Position(e) => write!(f, "{e}"),
            SessionError::StartRoll(e) => write!(f, "start roll: {e}"),
            SessionError::Replay { index, text, error } => {
                write!(f, "move {index} '{text}' no longer replays: {error}")
            }
            SessionError::Move(e) => write!(f, "{e}"),
            SessionError::Over => write!(f, "the game is over"),
            SessionError::Remote(e) => write!(f, "online game out of step: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

/// A game: its start, the moves played (machine notation, dice faces included), a cursor, the
/// clocks and how it ended. The position at the cursor is derived by replaying.
///
/// An online game is a session of *snapshots* ([`Session::from_snapshots`]): the positions
/// after every move come from the server, which alone knows the hidden mines of minesweeper
/// chess, so they are kept rather than replayed.
#[derive(Clone, Debug)]
pub struct Session {
    start: GameStart,
    moves: Vec<String>,
    cursor: usize,
    game: AnyGame,
    end: Option<GameEnd>,
    /// Snapshot mode: the position before the first move and after each move (empty when the
    /// session replays its moves).
    snapshots: Vec<AnyGame>,
    /// The chess clock, if the game has one.
    pub clock: Option<Clock>,
    /// The players' names, White's and Black's, where the game has them (a game read from a
    /// shared text); the app names the sides otherwise.
    pub names: [Option<String>; 2],
}

impl Session {
    /// A new game from `start`.
    pub fn new(start: GameStart) -> Result<Session, SessionError> {
        let game = start.first_position()?;
        Ok(Session {
            start,
            moves: Vec::new(),
            cursor: 0,
            game,
            end: None,
            snapshots: Vec::new(),
            clock: None,
            names: [None, None],
        })
    }

    /// An online game: `snapshots[0]` is the first position and `snapshots[i]` the position
    /// after `moves[i - 1]`, as the server sent them. The cursor stands after the last move.
    pub fn from_snapshots(
        start: GameStart,
        moves: Vec<String>,
        snapshots: Vec<AnyGame>,
    ) -> Result<Session, SessionError> {
        if snapshots.len() != moves.len() + 1 {
            return Err(SessionError::Remote(format!(
                "{} positions for {} moves",
                snapshots.len(),
                moves.len()
            )));
        }
        let game = snapshots[moves.len()].clone();
        Ok(Session {
            cursor: moves.len(),
            start,
            moves,
            game,
            end: None,
            snapshots,
            clock: None,
            names: [None, None],
        })
    }

    /// Whether this session keeps the server's positions (an online game).
    pub fn is_snapshots(&self) -> bool {
        !self.snapshots.is_empty()
    }

    /// Snapshot mode: appends a move the server played and the position after it. The cursor
    /// follows when it stood at the last move (a player reviewing stays where they are).
    pub fn push_snapshot(&mut self, text: String, after: AnyGame) {
        let follow = self.cursor == self.moves.len();
        self.moves.push(text);
        self.snapshots.push(after);
        if follow {
            self.cursor = self.moves.len();
            self.game = self.snapshots[self.cursor].clone();
        }
    }

    /// The positions of a snapshot session (empty otherwise).
    pub fn snapshots(&self) -> &[AnyGame] {
        &self.snapshots
    }

    /// Sets how the game ended, as the server decided it, without dropping any move.
    pub fn set_end(&mut self, end: Option<GameEnd>) {
        self.end = end;
    }

    /// Rebuilds a saved game: replays `moves`, puts the cursor at `cursor` and restores a
    /// non-rules end (resignation, agreement, time). A move that does not replay is an error.
    pub fn restore(
        start: GameStart,
        moves: Vec<String>,
        cursor: usize,
        end: Option<GameEnd>,
    ) -> Result<Session, SessionError> {
        let mut s = Session::new(start)?;
        // Replay every move once to validate the whole list.
        let mut game = s.game.clone();
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| SessionError::Replay {
                index: i + 1,
                text: text.clone(),
                error,
            })?;
        }
        s.moves = moves;
        s.cursor = cursor.min(s.moves.len());
        s.game = s.replay(s.cursor);
        s.end = match end {
            Some(GameEnd::Rules(_)) | None => None,
            other => other,
        };
        Ok(s)
    }

    fn replay(&self, upto: usize) -> AnyGame {
        if let Some(g) = self.snapshots.get(upto) {
            return g.clone();
        }
        let mut game = self
            .start
            .first_position()
            .unwrap_or_else(|_| self.game.clone());
        for text in &self.moves[..upto] {
            if game.play_text(text).is_err() {
                break;
            }
        }
        game
    }

    /// The start of the game.
    pub fn start(&self) -> &GameStart {
        &self.start
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.start.kind
    }

    /// Every move played, in machine notation (also those after the cursor, for redo).
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// How many moves are applied to the current position.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The position at the cursor, with its repetition history.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The position `ply` moves into the game (0 = the start).
    pub fn game_at(&self, ply: usize) -> AnyGame {
        self.replay(ply.min(self.moves.len()))
    }

    /// How the game stands ended at the cursor: the players' end (resignation, agreement, time)
    /// when the cursor is at the last move, or the rules' outcome of the position at the cursor.
    pub fn end(&self) -> Option<GameEnd> {
        if self.cursor == self.moves.len() {
            if let Some(e) = self.end {
                return Some(e);
            }
        }
        self.game.outcome().map(GameEnd::Rules)
    }

    /// How the game ended at the end of the move list (what a review shows as the result).
    pub fn final_end(&self) -> Option<GameEnd> {
        if self.cursor == self.moves.len() {
            return self.end();
        }
        self.end
            .or_else(|| self.replay(self.moves.len()).outcome().map(GameEnd::Rules))
    }

    /// Whether the game is over at the cursor.
    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// Whether the cursor stands before the last move (undone moves or review).
    pub fn is_behind(&self) -> bool {
        self.cursor < self.moves.len()
    }

    /// Plays a move at the cursor; moves after the cursor are dropped (a new branch).
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), SessionError> {
        if self.is_over() {
            return Err(SessionError::Over);
        }
        let text = self.game.move_to_text(mv);
        self.game.play(mv).map_err(SessionError::Move)?;
        if self.cursor < self.moves.len() {
            // A new branch after undo: the undone moves, and any end they had, are dropped.
            self.moves.truncate(self.cursor);
            self.end = None;
            if self.is_snapshots() {
                self.snapshots.truncate(self.cursor + 1);
            }
        }
        self.moves.push(text);
        self.cursor += 1;
        if self.is_snapshots() {
            self.snapshots.push(self.game.clone());
        }
        Ok(())
    }

    /// Reads and plays a move in machine notation.
    pub fn play_text(&mut self, text: &str) -> Result<(), SessionError> {
        let mv = self.game.parse_move(text).map_err(SessionError::Move)?;
        self.play(&mv)
    }

    /// Takes back `n` moves (as many as there are). Returns how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.cursor);
        if n > 0 {
            self.cursor -= n;
            self.game = self.replay(self.cursor);
        }
        n
    }

    /// Replays `n` undone moves (as many as there are). Returns how many.
    pub fn redo(&mut self, n: usize) -> usize {
        let n = n.min(self.moves.len() - self.cursor);
        if self.is_snapshots() {
            self.go_to(self.cursor + n);
            return n;
        }
        for _ in 0..n {
            let text = self.moves[self.cursor].clone();
            if self.game.play_text(&text).is_err() {
                break;
            }
            self.cursor += 1;
        }
        n
    }

    /// Moves the cursor to `ply` (review).
    pub fn go_to(&mut self, ply: usize) {
        let ply = ply.min(self.moves.len());
        if ply != self.cursor {
            self.cursor = ply;
            self.game = self.replay(ply);
        }
    }

    /// Ends the game by resignation, agreement or time, at the last move (later moves are
    /// dropped). Ignored when the game has already ended.
    pub fn finish(&mut self, end: GameEnd) {
        if self.end().is_none() {
            self.moves.truncate(self.cursor);
            if self.is_snapshots() {
                self.snapshots.truncate(self.cursor + 1);
            }
            self.end = Some(end);
        }
    }

    /// The stored non-rules end (resignation, agreement, time), for saving.
    pub fn players_end(&self) -> Option<GameEnd> {
        self.end
    }
}
