//! Command-line tools built on the library: perft, bench, the test-position suite and the
//! training positions of the evaluation fit.

pub mod bench;
pub mod perft;
pub mod suite;
pub mod texel;
