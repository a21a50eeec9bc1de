//! Helpers shared by the match runner's integration tests that drive the binary.

use std::path::PathBuf;
use std::process::Command;

/// The engine and runner binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

/// A fresh, empty directory for one test.
pub fn temp(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bg-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary with `args`; exit code, stdout, stderr.
pub fn run(args: &[String]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `match`, one `--engine "cmd=<BIN> name=<n>"` per name, then the words of `extra` (split at
/// whitespace: paths in them must have none).
pub fn match_of(names: &[&str], extra: &str) -> Vec<String> {
    let mut v = vec!["match".to_string()];
    for n in names {
        v.push("--engine".into());
        v.push(format!("cmd={BIN} name={n}"));
    }
    v.extend(extra.split_whitespace().map(str::to_string));
    v
}

/// Runs `args` and checks that they are refused before anything is played: exit 2, nothing on
/// stdout, exactly `message` on stderr.
pub fn assert_refused(args: &[String], message: &str) {
    let (code, out, err) = run(args);
    assert_eq!((code, out.as_str(), err.as_str()), (2, "", message));
}
