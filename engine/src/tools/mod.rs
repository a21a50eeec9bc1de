//! Command-line tools built on the library: perft and bench, and the check that keeps a
//! command's outputs off its inputs.
//!
//! Layout: [`perft`] counts the move tree, [`bench`](mod@bench) is the fixed search workload, [`files`]
//! keeps a command's outputs off its inputs.

pub mod bench;
pub mod files;
pub mod perft;
