//! Placeholder until the dice chess module lands (same public shape).
use super::{MoveError, Outcome, PositionError, Rules, Side, Square};
/// Placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position { side: Side }
/// Placeholder.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move { King { from: Square, to: Square }, Pawn { face: u8, from: Square, to: Square }, Pass { face: u8 } }
impl Position {
    /// Placeholder.
    pub fn start(first: Side) -> Position { Position { side: first } }
    /// Placeholder.
    pub fn king_moves(&self) -> Vec<Move> { Vec::new() }
    /// Placeholder.
    pub fn pawn_moves(&self, _face: u8) -> Vec<Move> { Vec::new() }
}
impl Rules for Position {
    type Move = Move;
    fn side_to_move(&self) -> Side { self.side }
    fn legal_moves(&self) -> Vec<Move> { Vec::new() }
    fn is_legal(&self, _mv: &Move) -> bool { false }
    fn play(&mut self, _mv: &Move) -> Result<(), MoveError> { Err(MoveError::GameOver) }
    fn outcome(&self) -> Option<Outcome> { None }
    fn to_text(&self) -> String { String::new() }
    fn from_text(_text: &str) -> Result<Self, PositionError> { Err(PositionError::new("stub")) }
    fn move_to_text(&self, _mv: &Move) -> String { String::new() }
    fn parse_move(&self, _text: &str) -> Result<Move, MoveError> { Err(MoveError::GameOver) }
    fn repetition_key(&self) -> u64 { 0 }
    fn is_irreversible(&self, _mv: &Move) -> bool { false }
    fn repetition_draws() -> bool { false }
}
