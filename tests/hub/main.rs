//! The Hub dialect (`buffgreen hub`): its commands and replies (`dialect`), and pydraughts
//! itself as the client (`pydraughts`), and pydraughts as the referee of the 8x8 family's
//! moves (`variants`).

mod dialect;
mod pydraughts;
mod variants;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The python of pydraughts' venv (scripts/install-pydraughts-hub.sh), installed once for
/// the tests of this binary, which run in parallel and would otherwise race to create it.
fn pydraughts_python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            buffgreen_testkit::process::venv_python(
                Path::new(env!("CARGO_MANIFEST_DIR")),
                "scripts/install-pydraughts-hub.sh",
            )
        })
        .clone()
}
