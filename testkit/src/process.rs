//! Running a command that must succeed.

use std::process::{Command, Output};

/// Runs `cmd` to its end and returns its output; fails the test, showing its stderr, when it
/// cannot start or exits with anything but 0. `what` names it in the message.
pub fn succeed(cmd: &mut Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
