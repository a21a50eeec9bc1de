//! Test helpers of `buffgreen`, shared by its integration tests and fuzz targets.
//!
//! - [`reference`]: a slow, independent reference move generator and random position makers.
//! - [`fuzz`]: the checks behind the fuzz targets, replayed by `tests/fuzz_regressions.rs`.
//! - [`protocol`]: drives the built `buffgreen` binary through pipes.

pub mod fuzz;
pub mod protocol;
pub mod reference;
