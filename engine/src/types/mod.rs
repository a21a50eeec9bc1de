//! Basic value types shared by every other module: squares, bitboards, colours and moves.

mod bitboard;
mod color;
mod moves;
mod square;

pub use bitboard::{Bitboard, Direction};
pub use color::Color;
pub use moves::{Move, MAX_PATH};
pub use square::{Square, SquareError};
