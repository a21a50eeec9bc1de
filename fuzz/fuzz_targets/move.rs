//! Fuzz target `move`: see `check_move` in `testkit/src/fuzz.rs`, the same checks
//! `cargo test` replays on every input ever found (`tests/protocol/fuzz_regressions.rs`).
#![no_main]

use buffgreen_testkit::fuzz as harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check_move(data));
