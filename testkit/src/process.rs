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

/// Whether `python3` is missing, in which case the test that needs it says so (`SKIPPED:`
/// and `why`) and returns: the only reason a Python-driven test may skip.
pub fn python3_missing(why: &str) -> bool {
    let missing = Command::new("python3").arg("--version").output().is_err();
    if missing {
        eprintln!("SKIPPED: python3 is not installed, so {why}");
    }
    missing
}

/// Runs a script whose last line of output is `OK` when every check passed, and returns its
/// stdout; fails the test with both outputs otherwise. `what` names it in the message.
pub fn script_ok(cmd: &mut Command, what: &str) -> String {
    let run = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success() && out.lines().last() == Some("OK"),
        "{what} failed:\n{out}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}
