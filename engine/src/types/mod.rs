//! Basic value types shared by every other module: squares, bitboards, colours and moves.
//!
//! Layout: `square` numbers the squares, `bitboard` holds sets of them, `color` the two
//! sides, `moves` the moves.

mod bitboard;
mod color;
mod moves;
mod square;

pub use bitboard::{Bitboard, Direction};
pub use color::Color;
pub use moves::{Move, MAX_PATH};
pub use square::{Square, SquareError};
