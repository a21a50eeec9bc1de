//! Command-line tools built on the library: perft, bench and the test-position suite.

pub mod bench;
pub mod perft;
pub mod suite;
