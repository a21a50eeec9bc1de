//! Endgame tables for tests: the build options a test names only in part, and small tables
//! built once into a test target's folder and shared by the tests that probe them.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::{build, BuildOptions, DEFAULT_MEMORY, DEFAULT_SAVE_EVERY};

/// The options to build the tables of up to `pieces` pieces for `rules` into `dir`: one
/// thread, plain files, the whole build, the default memory and save interval. A test that
/// needs another setting says only that one (`BuildOptions { compress: true, ..options(..) }`).
pub fn options(dir: &Path, pieces: u32, rules: Rules) -> BuildOptions {
    BuildOptions {
        dir: dir.to_path_buf(),
        pieces,
        rules,
        threads: 1,
        compress: false,
        share: None,
        memory: DEFAULT_MEMORY,
        save_every: DEFAULT_SAVE_EVERY,
    }
}

/// The folder below `root` that [`shared`] builds the tables of up to `pieces` pieces for
/// `rules` in: one per rule setting, so that every test of the same tables finds them (the
/// 8x8 family's rule sets have the switches of Buff and Green, so their key is added).
pub fn folder(root: &Path, pieces: u32, rules: &Rules) -> PathBuf {
    let variant = rules.variant();
    let family = if variant.switches_name_it() {
        String::new()
    } else {
        format!("-{}", variant.key())
    };
    root.join(format!(
        "tb-{pieces}-{}{}-{}{}{family}",
        u8::from(rules.backward_capture),
        u8::from(rules.long_kings),
        rules.draw_half_moves,
        if rules.losing { "-losing" } else { "" }
    ))
}

/// Builds (or reuses: a build is resumable, and a finished one does nothing) the plain tables
/// of up to `pieces` pieces for `rules` in their [`folder`] below `root` (a test target's
/// `CARGO_TARGET_TMPDIR`), and returns that folder. Panics when the build fails: the test
/// cannot run without them.
pub fn shared(root: &Path, pieces: u32, rules: &Rules) -> PathBuf {
    let dir = folder(root, pieces, rules);
    let opts = BuildOptions {
        threads: 2,
        ..options(&dir, pieces, *rules)
    };
    // One build at a time: the tests of one binary share folders.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _guard = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    build(&opts, &mut |_| {}).unwrap_or_else(|e| panic!("build {dir:?}: {e}"));
    dir
}
