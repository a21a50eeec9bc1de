//! Buff and Green checkers engine: rules core, UCT search and a UCI-like protocol.
//!
//! Layout: [`types`] holds squares, bitboards and moves; [`board`] the rules (positions, move
//! generation, FEN, notation, game state); [`tools`] perft and bench.

#![warn(missing_docs)]

pub mod board;
pub mod tools;
pub mod types;
