//! Buff and Green checkers engine: rules core, UCT search and a UCI-like protocol.
//!
//! Layout: [`types`] holds squares, bitboards and moves; [`board`] the rules (positions, move
//! generation, FEN, notation, game state); [`search`] the UCT search; [`engine`] the facade the
//! protocol drives; [`protocol`] command parsing and output; [`hub`] the Hub protocol
//! (pydraughts, lidraughts-bot); [`tourney`] the match runner; [`tablebase`] endgame tables
//! (build, probe, verify); [`book`] the opening book (build, probe); [`tools`] perft and bench; [`cli`] the command-line flags the
//! subcommands share.

#![warn(missing_docs)]

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod hub;
pub mod protocol;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod tourney;
pub mod types;
