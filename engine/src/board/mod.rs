//! The rules of the game: positions, move generation, game state, FEN and move notation.
//!
//! Layout: `rules` holds the rule switches, the draw rule and the losing variant (the rules
//! crate's, with the table naming each rule set) and says which rule engines must change
//! together when a rule changes; `position`
//! where the pieces stand; `movegen` the legal moves, with `family` the captures of the 8x8
//! family (Pool, Russian, Brazilian); [`count`] perft's view of the same rules
//! on raw bitboards; `game` a game in progress, with `draws` the 8x8 family's draw counters;
//! [`fen`] and [`notation`] read and write positions and moves; [`zobrist`] the positions' keys.

pub mod count;
mod draws;
mod family;
pub mod fen;
mod game;
mod movegen;
pub mod notation;
mod position;
mod rules;
pub mod zobrist;

pub use draws::{lone_on_diagonal, material_limit, pool_limit, repeated, DrawCount, FamilyDraw};
pub use family::{count_moves, generate_moves};
pub use game::{next_clock, result_of, Game, GameResult, PlayError};
pub use movegen::{capture_blockers, capture_squares, has_captures, has_moves, MoveList};
pub use notation::Notation;
pub use position::{Piece, Position, PositionError};
pub use rules::{option, Crowning, DrawRules, HubBoard, Rules, Variant, WeightSet};

#[cfg(test)]
pub(crate) use draws::tests::{king_move, wander};
#[cfg(test)]
pub(crate) use movegen::capture_tests::random_positions;
pub use movegen::pick_quiet;
