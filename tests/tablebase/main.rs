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
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use buffgreen::board::Rules;
use buffgreen::tablebase::build::{build, BuildOptions, Event};
use buffgreen::tablebase::Material;

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

/// Every file of `dir` by name, with its bytes.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_where(dir, |_| true)
}

/// Builds with `opts` (which should save after every level) and stops the build, as a killed
/// process stops, right after the first save for which `stop(slice, level)` holds. Returns
/// the slices saved, the stopped one last; the stopped slice has its save and no file.
pub fn stopped_after_a_save(
    opts: &BuildOptions,
    mut stop: impl FnMut(Material, u32) -> bool,
) -> Vec<Material> {
    let mut saved = Vec::new();
    let run = catch_unwind(AssertUnwindSafe(|| {
        build(opts, &mut |e| {
            if let Event::Saved {
                material, level, ..
            } = e
            {
                saved.push(material);
                if stop(material, level) {
                    panic!("stopped after a save");
                }
            }
        })
    }));
    assert!(run.is_err(), "the build was stopped");
    let material = *saved.last().expect("a slice with enough levels");
    assert!(buffgreen::tablebase::build::resume::path_of(&opts.dir, material).exists());
    assert!(!buffgreen::tablebase::format::path_of(&opts.dir, material).exists());
    saved
}

/// Checks the `events` of a build that went on from a save: only `material` resumed, at
/// `level`, and only the levels after it were run on that slice. Returns the passes run on it.
pub fn resumed_after(events: &[Event], material: Material, level: u32) -> Vec<String> {
    let resumed: Vec<(Material, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Resumed { material, level } => Some((*material, *level)),
            _ => None,
        })
        .collect();
    assert_eq!(resumed, [(material, level)]);
    let passes: Vec<String> = events
        .iter()
        .skip_while(|e| !matches!(e, Event::Resumed { .. }))
        .take_while(|e| !matches!(e, Event::Done { .. }))
        .filter_map(|e| match e {
            Event::Progress { pass, .. } => Some(pass.clone()),
            _ => None,
        })
        .collect();
    assert!(
        passes.iter().all(|p| {
            p.strip_prefix("level ")
                .and_then(|k| k.parse::<u32>().ok())
                .is_some_and(|k| k > level)
        }),
        "{passes:?}"
    );
    passes
}
