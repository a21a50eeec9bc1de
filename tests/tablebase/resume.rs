//! A build stopped in the middle of a slice goes on from its last save and writes the bytes
//! of a build that was never stopped; a save that does not fit its slice is refused, and the
//! slice starts over.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::resume;
use buffgreen::tablebase::build::{build, BuildOptions, Event, DEFAULT_SAVE_EVERY};
use buffgreen::tablebase::Material;
use buffgreen_testkit::tables::options;

use crate::{files, fresh, resumed_after, stopped_after_a_save};

/// The level after which the build is stopped: a slice with that many levels and more.
const STOP_AT: u32 = 5;

fn opts(dir: &Path, save_every: Duration) -> BuildOptions {
    BuildOptions {
        threads: 2,
        compress: true,
        save_every,
        ..options(dir, 4, Rules::ENGLISH)
    }
}

/// Builds into `dir` saving after every level, and stops the build (as a killed process
/// stops) right after the first save of level [`STOP_AT`]: returns the slice it was building.
fn stopped_build(dir: &Path) -> Material {
    stopped_build_from(dir, 0)
}

/// [`stopped_build`], stopping on a slice at `from` or later in the build's order.
fn stopped_build_from(dir: &Path, from: usize) -> Material {
    let order = Material::slices(4);
    let saved = stopped_after_a_save(&opts(dir, Duration::ZERO), |material, level| {
        level == STOP_AT && order.iter().position(|&m| m == material) >= Some(from)
    });
    *saved.last().expect("a stopped slice")
}

/// Finishes the build in `dir` without saving: the events it reports.
fn finish(dir: &Path) -> Vec<Event> {
    let mut events = Vec::new();
    build(&opts(dir, DEFAULT_SAVE_EVERY), &mut |e| events.push(e)).expect("builds");
    events
}

/// What the events say of refused saves.
fn refusals(events: Vec<Event>) -> Vec<String> {
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::ResumeRefused { why } => Some(why),
            _ => None,
        })
        .collect()
}

/// The uninterrupted build's files (built once for the tests, which run at once).
fn reference() -> &'static BTreeMap<String, Vec<u8>> {
    static FILES: OnceLock<BTreeMap<String, Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = fresh("tb-resume-reference");
        finish(&dir);
        files(&dir)
    })
}

#[test]
fn a_build_stopped_after_a_save_goes_on_from_it_and_writes_the_same_bytes() {
    let dir = fresh("tb-resume-stopped");
    let material = stopped_build(&dir);
    let events = finish(&dir);
    // The slices below are not read again: only the levels after the save are run.
    assert!(!resumed_after(&events, material, STOP_AT).is_empty());
    assert_eq!(&files(&dir), reference());
}

#[test]
fn a_save_that_does_not_fit_its_slice_is_refused_and_the_slice_starts_over() {
    let dir = fresh("tb-resume-refused");
    let material = stopped_build(&dir);
    let path = resume::path_of(&dir, material);
    // The last byte of the last chunk flipped.
    let mut bytes = std::fs::read(&path).expect("readable");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).expect("writable");
    let refused = refusals(finish(&dir));
    // Two halves, an array each of entries and of counts, a chunk each.
    let chunks = 2 * material.halves().len();
    assert_eq!(
        refused,
        [format!(
            "{}: cannot resume from it: chunk {} is corrupt",
            path.display(),
            chunks - 1
        )]
    );
    assert!(!path.exists());
    assert_eq!(&files(&dir), reference());

    // A save under the name of another slice.
    let dir = fresh("tb-resume-other");
    let material = stopped_build(&dir);
    let other = Material::slices(4)
        .into_iter()
        .find(|&m| m != material && !buffgreen::tablebase::format::path_of(&dir, m).exists())
        .expect("a slice not built yet");
    let moved = resume::path_of(&dir, other);
    std::fs::rename(resume::path_of(&dir, material), &moved).expect("rename");
    let refused = refusals(finish(&dir));
    assert_eq!(
        refused,
        [format!(
            "{}: cannot resume from it: saved for another slice or other rules",
            moved.display()
        )]
    );
    assert_eq!(&files(&dir), reference());
}

/// `tb status` of the 4-piece English build in `dir`: exit code and stdout lines.
fn status(dir: &Path) -> (Option<i32>, Vec<String>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_buffgreen"))
        .args(["tb", "status", "--pieces", "4", "--english", "--dir"])
        .arg(dir)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    (out.status.code(), text.lines().map(String::from).collect())
}

#[test]
fn status_tells_built_saved_unusable_and_missing_slices_apart() {
    let dir = fresh("tb-resume-status");
    let material = stopped_build_from(&dir, 3);
    let order = Material::slices(4);
    let stopped = order
        .iter()
        .position(|&m| m == material)
        .expect("in the build");
    let plan = buffgreen::tablebase::build::plan::levels(4);
    let positions = |ms: &[Material]| -> u64 {
        ms.iter()
            .map(|&m| buffgreen::tablebase::build::plan::positions(m))
            .sum()
    };
    let (code, lines) = status(&dir);
    assert_eq!(code, Some(1));
    assert_eq!(lines.len(), plan.len() + 1);
    for (line, (level, m)) in lines.iter().zip(&plan) {
        let i = order.iter().position(|x| x == m).expect("in the build");
        let state = match i.cmp(&stopped) {
            std::cmp::Ordering::Less => "built".to_string(),
            std::cmp::Ordering::Equal => format!("saved after {STOP_AT} levels"),
            std::cmp::Ordering::Greater => "missing".to_string(),
        };
        assert_eq!(line, &format!("{level} {m} {state}"));
    }
    let (done, total) = (positions(&order[..stopped]), positions(&order));
    assert_eq!(
        lines[plan.len()],
        format!(
            "built {stopped} of {} slices, {done} of {total} positions ({:.1}%), \
             BackwardCapture=false LongKings=false DrawHalfMoves=80",
            order.len(),
            100.0 * done as f64 / total as f64
        )
    );

    // A slice file cut short (a copy that stopped) cannot be used.
    let next = order[stopped + 1];
    let path = buffgreen::tablebase::format::path_of(&dir, next);
    std::fs::write(&path, b"BGTB").expect("writable");
    let (_, lines) = status(&dir);
    let line = lines
        .iter()
        .find(|l| l.split(' ').nth(1) == Some(&next.to_string()))
        .expect("listed");
    let level = plan.iter().find(|p| p.1 == next).expect("planned").0;
    assert_eq!(
        line,
        &format!(
            "{level} {next} unusable: {}: not a buffgreen tablebase file",
            path.display()
        )
    );
    std::fs::remove_file(&path).expect("removable");

    // A file where the directory should be is an error, not a build not started.
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"x").expect("writable");
    assert_eq!(status(&file), (Some(2), vec![]));

    finish(&dir);
    std::fs::remove_file(&file).expect("removable");
    let (code, lines) = status(&dir);
    assert_eq!(code, Some(0));
    assert!(
        lines[plan.len()].starts_with(&format!(
            "built {n} of {n} slices, {total} of {total} positions (100.0%), ",
            n = order.len()
        )),
        "{lines:?}"
    );
}
