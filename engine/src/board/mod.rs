//! The rules of the game: positions, move generation, game state, FEN and move notation.

pub mod count;
pub mod fen;
mod game;
mod movegen;
pub mod notation;
mod position;
mod rules;
pub mod zobrist;

pub use game::{next_clock, result_of, Game, GameResult, PlayError};
pub use movegen::{
    capture_blockers, capture_squares, count_moves, generate_moves, has_captures, has_moves,
    MoveList,
};
pub use notation::Notation;
pub use position::{Piece, Position, PositionError};
pub use rules::Rules;

#[cfg(test)]
pub(crate) use movegen::capture_tests::random_positions;
pub use movegen::pick_quiet;
