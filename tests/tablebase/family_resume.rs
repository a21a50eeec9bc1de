//! Family slices (Russian, Pool) saved after every level, stopped after a save and resumed:
//! the build goes on from the save and writes the bytes of a build that was never stopped.
//! A 7.2.7 slice is not saved (its layers read one another): a stopped build solves it again.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use buffgreen::board::{Rules, Variant};
use buffgreen::tablebase::build::resume;
use buffgreen::tablebase::build::{build, BuildOptions, Event, DEFAULT_SAVE_EVERY};
use buffgreen::tablebase::{counting, Material};
use buffgreen_testkit::tables::options;

use crate::{files_where, fresh, resumed_after, stopped_after_a_save, tables};

/// The level after which the build is stopped.
const STOP_AT: u32 = 5;

fn exact(variant: Variant) -> Rules {
    Rules {
        draw_half_moves: 0,
        ..variant.rules()
    }
}

fn opts(dir: &Path, rules: Rules, save_every: Duration) -> BuildOptions {
    BuildOptions {
        threads: 2,
        save_every,
        ..options(dir, 4, rules)
    }
}

/// Every slice file of `dir` by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_where(dir, |p| p.extension().is_some_and(|x| x == "bgtb"))
}

fn slice(name: &str) -> Material {
    Material::slices(4)
        .into_iter()
        .find(|m| m.to_string() == name)
        .expect("a slice of the build")
}

/// Builds the 4-piece tables of `rules` into a fresh `dir` saving after every level, stops
/// the build (as a killed process stops) right after the save of level [`STOP_AT`] of
/// `material`, finishes it without saving, and checks that it went on from the save and
/// wrote the files of the tables built without a stop. Returns the slices saved before the
/// stop.
fn stopped_and_resumed(name: &str, rules: Rules, material: Material) -> Vec<Material> {
    let dir = fresh(name);
    let saved = stopped_after_a_save(&opts(&dir, rules, Duration::ZERO), |m, level| {
        m == material && level == STOP_AT
    });
    assert_eq!(saved.last(), Some(&material));
    assert_eq!(
        resume::levels_saved(&dir, material, &rules).expect("readable"),
        Some(STOP_AT)
    );

    let mut events = Vec::new();
    build(&opts(&dir, rules, DEFAULT_SAVE_EVERY), &mut |e| {
        events.push(e)
    })
    .expect("builds");
    // Only the levels after the save are run on the resumed slice.
    resumed_after(&events, material, STOP_AT);
    let refused = events
        .iter()
        .any(|e| matches!(e, Event::ResumeRefused { .. }));
    assert!(!refused);
    assert!(!resume::path_of(&dir, material).exists());
    assert_eq!(files(&dir), files(&tables(4, &rules)));
    saved
}

#[test]
fn a_russian_slice_under_a_material_rule_resumes_to_the_same_bytes() {
    let rules = exact(Variant::Russian);
    // Two kings against two: 7.2.6, a floor on every position.
    let material = slice("b0m2k-w0m2k");
    let saved = stopped_and_resumed("tb-family-resume-russian", rules, material);
    // A 7.2.7 slice was built before it, and none of its layers was saved.
    let order = Material::slices(4);
    assert!(order
        .iter()
        .take_while(|&&m| m != material)
        .any(|&m| counting::layered(m, &rules)));
    assert!(saved.iter().all(|&m| !counting::layered(m, &rules)));
}

#[test]
fn a_pool_slice_resumes_to_the_same_bytes() {
    let rules = exact(Variant::Pool);
    // Three kings against one: the 13-move rule in plies.
    stopped_and_resumed("tb-family-resume-pool", rules, slice("b0m1k-w0m3k"));
}
