//! The match PDN read back by both Python draughts libraries: scripts/pdn_interop.sh installs
//! pydraughts 0.6.7 and py-draughts 1.10.1 (pinned, each in its own venv under target/, from
//! PyPI), plays Buff and Green, English and FEN-start matches with `buffgreen match --pdn
//! --json`, and has each library read every game move by move (scripts/pdn_interop.py compares
//! them with the JSON records).
//!
//! Skipped, with a message, only when `python3` is missing. A failing install (no PyPI) fails.

use buffgreen_testkit::assert_contains;
use std::path::Path;
use std::process::Command;

use buffgreen_testkit::process::{python3_missing, script_ok};

#[test]
fn pydraughts_and_py_draughts_read_every_game_move_by_move() {
    if python3_missing("the PDN readers cannot run") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdn-interop");
    let mut run = Command::new(root.join("scripts/pdn_interop.sh"));
    run.arg(env!("CARGO_BIN_EXE_buffgreen")).arg(&out_dir);
    let out = script_ok(&mut run, "PDN interop");
    // Three matches, each checked by both libraries.
    assert_eq!(out.matches("pydraughts: ").count(), 3, "{out}");
    assert_eq!(out.matches("py-draughts: ").count(), 3, "{out}");
    assert_contains(&out, "pydraughts: 12 games read move by move");
    assert_contains(&out, "py-draughts: 2 games read move by move");
}
