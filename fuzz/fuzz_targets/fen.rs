//! Fuzz target `fen`: see `check_fen` in `tests/fuzz_harness/mod.rs`, the same checks
//! `cargo test` replays on every input ever found (`tests/fuzz_regressions.rs`).
#![no_main]

#[path = "../../tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check_fen(data));
