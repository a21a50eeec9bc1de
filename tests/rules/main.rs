//! The rules: the move generator against the reference positions of the original rules code
//! (`reference`), an independent generator (`crosscheck`) and its own properties
//! (`properties`), published perft figures (`perft`), and named rule scenarios (`scenarios`).
//! One test binary keeps the release build's link steps few.

use buffgreen_testkit::reference as common;
mod crosscheck;
mod perft;
mod properties;
mod reference;
mod scenarios;
