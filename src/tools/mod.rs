//! Command-line tools built on the library: perft.

pub mod perft;
