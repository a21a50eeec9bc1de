//! Test helpers of `buffgreen`, shared by its integration tests, fuzz targets and measuring
//! examples.
//!
//! - [`reference`]: a slow, independent reference move generator and random position makers.
//! - [`fuzz`]: the checks behind the fuzz targets, replayed by `tests/fuzz_regressions.rs`.
//! - [`protocol`]: drives the built `buffgreen` binary through pipes.
//! - [`process`]: runs a command that must succeed.
//! - [`clock`]: this thread's CPU time.

pub mod clock;
pub mod fuzz;
pub mod process;
pub mod protocol;
pub mod reference;
