//! The rules of the game: positions, move generation, game state, FEN and move notation.

pub mod fen;
mod game;
mod movegen;
pub mod notation;
mod position;
mod rules;

pub use game::{next_clock, result_of, Game, GameResult, PlayError};
pub use movegen::{count_moves, generate_moves, has_captures, has_moves, MoveList};
pub use position::{Piece, Position, PositionError};
pub use rules::Rules;

/// Input text as repeated in an error message: at most `max_chars` characters, control
/// characters (line breaks included) replaced by `?`, so a message is always one printable
/// line whatever it quotes.
pub(crate) fn printable(text: &str, max_chars: usize) -> String {
    text.chars()
        .take(max_chars)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
