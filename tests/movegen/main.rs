//! The move generator on random positions: against an independent reference generator
//! (`crosscheck`) and against the rules' invariants (`properties`). One test binary for both
//! keeps the release build's link steps few.

use buffgreen_testkit::reference as common;
mod crosscheck;
mod properties;
