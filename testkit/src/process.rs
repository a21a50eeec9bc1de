//! Running a command that must succeed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

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

/// Runs `cmd` with `input` on its standard input (then closed) and returns its output (stdout
/// captured, stderr inherited).
pub fn piped(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start: {e}"));
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input.as_bytes())
        .expect("the input written");
    child.wait_with_output().expect("the output")
}

/// Runs `cmd` to its end: its exit code (-1 when killed by a signal), stdout and stderr.
pub fn outcome(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot start: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the venv installer `script` (a path from the repository's `root`, one of
/// scripts/install-*.sh) and returns the venv's python, which it prints last.
pub fn venv_python(root: &std::path::Path, script: &str) -> std::path::PathBuf {
    let install = succeed(
        &mut Command::new(root.join(script)),
        &format!("installing ({script})"),
    );
    let stdout = String::from_utf8_lossy(&install.stdout);
    root.join(stdout.lines().last().expect("the venv's python"))
}
