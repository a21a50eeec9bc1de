//! Buff and Green checkers engine: rules core, UCT search and a UCI-like protocol.
//!
//! Layout: [`types`] holds squares, bitboards and moves; [`board`] the rules (positions, move
//! generation, FEN, notation, game state); [`eval`] the static evaluation; [`search`] the UCT search; [`engine`] the facade the
//! protocol drives; [`protocol`] command parsing and output; [`hub`] the Hub protocol
//! (pydraughts, lidraughts-bot); [`openings`] the opening decks; [`tablebase`] endgame tables
//! (build, probe, verify); [`book`] the opening book (build, probe); [`tools`] perft and bench;
//! [`cli`] the command-line flags the subcommands share. The match runner is its own crate
//! (`buffgreen-tourney`), which drives engines as processes.

#![warn(missing_docs)]

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod hub;
pub mod openings;
pub mod protocol;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod types;
