//! A position together with the history that threefold repetition needs.

use super::{EndReason, MoveError, Outcome, Rules};

/// A position and the repetition keys of the positions that led to it since the last
/// irreversible move. Positions do not own history; a `Line` adds just enough of it for the
/// rules to decide threefold repetition. (The session keeps the full move list.)
///
/// ```
/// use takhte_rules::{chess::Position, Line, Rules, EndReason};
/// let mut line = Line::new(Position::start());
/// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
///     let mv = line.position().parse_move(m).unwrap();
///     line.play(&mv).unwrap();
/// }
/// assert_eq!(line.outcome().unwrap().reason, EndReason::Repetition);
/// ```
#[derive(Clone, Debug)]
pub struct Line<G: Rules> {
    position: G,
    keys: Vec<u64>,
}

impl<G: Rules> Line<G> {
    /// A line that starts at `position` with no history before it.
    pub fn new(position: G) -> Line<G> {
        let keys = vec![position.repetition_key()];
        Line { position, keys }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// Plays a legal move; refuses it (and changes nothing) when it is illegal or the game is over.
    pub fn play(&mut self, mv: &G::Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let irreversible = self.position.is_irreversible(mv);
        self.position.play(mv)?;
        if irreversible {
            self.keys.clear();
        }
        self.keys.push(self.position.repetition_key());
        Ok(())
    }

    /// Legal moves, empty once the game is over (repetition included).
    pub fn legal_moves(&self) -> Vec<G::Move> {
        if self.repetition() {
            Vec::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// The repetition keys ([`Rules::repetition_key`]) of the positions since the last
    /// irreversible move, oldest first, the current position last. The computer player reads them
    /// to steer clear of (or towards) a threefold repetition.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How many times the current position has occurred in this line (1 the first time).
    pub fn occurrences(&self) -> usize {
        match self.keys.last() {
            Some(&k) => self.keys.iter().filter(|&&x| x == k).count(),
            None => 0,
        }
    }

    fn repetition(&self) -> bool {
        G::repetition_draws() && self.occurrences() >= 3
    }

    /// The outcome: the position's own, or a draw by threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().or_else(|| {
            if self.repetition() {
                Some(Outcome::draw(EndReason::Repetition))
            } else {
                None
            }
        })
    }
}
