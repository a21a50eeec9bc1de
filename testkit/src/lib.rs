//! Test helpers of `buffgreen`, shared by its integration tests, fuzz targets and measuring
//! lab programs.
//!
//! Layout:
//! - [`reference`](mod@reference): a slow, independent reference move generator and random position makers.
//! - [`fuzz`]: the checks behind the fuzz targets, replayed by `tests/protocol/fuzz_regressions.rs`.
//! - [`protocol`]: drives the built engine binary through pipes.
//! - [`process`]: runs a command that must succeed.
//! - [`clock`]: this thread's CPU time.
//! - [`tables`]: build options for tests, and small endgame tables built once and shared.

pub mod clock;
pub mod fuzz;
pub mod process;
pub mod protocol;
pub mod reference;
pub mod tables;

/// `text` starts with `prefix`; the failure shows the whole text.
#[track_caller]
pub fn assert_starts(text: &str, prefix: &str) {
    assert!(
        text.starts_with(prefix),
        "want a start of {prefix:?} in:\n{text}"
    );
}

/// `text` ends with `suffix`; the failure shows the whole text.
#[track_caller]
pub fn assert_ends(text: &str, suffix: &str) {
    assert!(
        text.ends_with(suffix),
        "want an end of {suffix:?} in:\n{text}"
    );
}

/// `text` contains `part`; the failure shows the whole text.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "want {part:?} in:\n{text}");
}
