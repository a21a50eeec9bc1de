//! Endgame tablebases: the built tables against an independent solver (`agreement`), `tb
//! verify` on 4-piece tables (`consistency`), and `tb probe` lines and errors from the binary
//! (`scenarios`), and the engine searching with them (`search`). One test binary keeps the
//! release build's link steps few.

mod agreement;
use buffgreen_testkit::reference as common;
mod consistency;
mod family_resume;
mod hardening;
mod home;
mod labels;
mod losing;
mod pool;
mod resume;
use buffgreen_testkit::protocol as protocol_support;
mod scenarios;
mod search;
mod shards;
mod solver;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use buffgreen::board::Rules;

/// Builds (or reuses, the build is resumable) the tables of up to `pieces` pieces for `rules`
/// in a directory of the test target, and returns it.
pub fn tables(pieces: u32, rules: &Rules) -> PathBuf {
    buffgreen_testkit::tables::shared(Path::new(env!("CARGO_TARGET_TMPDIR")), pieces, rules)
}

/// `setoption name TablebasePath value <dir>` to the engine process `e`, which must take it
/// without a word.
pub fn name_tables(e: &mut protocol_support::Engine, dir: &std::path::Path) {
    let line = format!(
        "setoption name TablebasePath value {}",
        dir.to_str().expect("utf-8 path")
    );
    assert_eq!(e.ask(&line), Vec::<String>::new(), "{line}");
}

/// An empty directory `name` of the test target (emptied when it exists).
pub fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

/// The files of `dir` whose path `keep` accepts, by name, with their bytes.
pub fn files_where(dir: &Path, keep: impl Fn(&Path) -> bool) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| keep(p))
        .map(|path| {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .to_string();
            (name, std::fs::read(&path).expect("readable"))
        })
        .collect()
}
