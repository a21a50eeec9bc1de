//! The move generator on random positions: against an independent reference generator
//! (`crosscheck`) and against the rules' invariants (`properties`). One test binary for both
//! keeps the release build's link steps few.

#[path = "../common/mod.rs"]
mod common;
mod crosscheck;
mod properties;
