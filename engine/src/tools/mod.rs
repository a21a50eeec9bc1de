//! Command-line tools built on the library: perft and bench.

pub mod bench;
pub mod perft;
