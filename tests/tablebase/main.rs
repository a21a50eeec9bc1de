//! Endgame tablebases: the built tables against an independent solver (`agreement`), `tb
//! verify` on 4-piece tables (`consistency`), and `tb probe` lines and errors from the binary
//! (`scenarios`), and the engine searching with them (`search`). One test binary keeps the
//! release build's link steps few.

mod agreement;
use buffgreen_testkit::reference as common;
mod consistency;
mod hardening;
mod home;
mod labels;
mod losing;
mod resume;
use buffgreen_testkit::protocol as protocol_support;
mod scenarios;
mod search;
mod shards;
mod solver;

use std::path::PathBuf;
use std::sync::Mutex;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::{build, BuildOptions, DEFAULT_MEMORY, DEFAULT_SAVE_EVERY};

/// Builds (or reuses, the build is resumable) the tables of up to `pieces` pieces for `rules`
/// in a directory of the test target, and returns it.
pub fn tables(pieces: u32, rules: &Rules) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "tb-{pieces}-{}{}-{}{}",
        u8::from(rules.backward_capture),
        u8::from(rules.long_kings),
        rules.draw_half_moves,
        if rules.losing { "-losing" } else { "" }
    ));
    let opts = BuildOptions {
        dir: dir.clone(),
        pieces,
        rules: *rules,
        threads: 2,
        compress: false,
        share: None,
        memory: DEFAULT_MEMORY,
        save_every: DEFAULT_SAVE_EVERY,
    };
    // One build at a time: tests share directories.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _guard = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    build(&opts, &mut |_| {}).unwrap_or_else(|e| panic!("build {dir:?}: {e}"));
    dir
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
