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
