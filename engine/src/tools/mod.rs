//! Command-line tools built on the library: perft and bench, and the check that keeps a
//! command's outputs off its inputs.

pub mod bench;
pub mod files;
pub mod perft;
