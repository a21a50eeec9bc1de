//! The runner's memory stays bounded where it once grew with its input (issue 23, item 1):
//! an engine line without a newline (300 MB once made the runner hold 845 MiB) and a schedule
//! of 10^8 games (3 GiB allocated before the first game). The measure is the peak resident
//! memory of the runner as a child of this test (`getrusage(RUSAGE_CHILDREN)`, the largest
//! child waited for). Its own binary, with one test, so that no other child counts.
#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::Command;

use buffgreen_testkit::{assert_contains, assert_starts};
use nix::sys::resource::{getrusage, UsageWho};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

/// The bound on the runner's peak memory: far below what holding either input would take,
/// far above what the runner needs.
const PEAK_KIB: i64 = 100 * 1024;

/// The largest peak resident memory of the children waited for so far, in KiB.
fn children_peak_kib() -> i64 {
    getrusage(UsageWho::RUSAGE_CHILDREN).unwrap().max_rss()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bg-memory-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `buffgreen match` of two engines with `extra`; exit status and stdout.
fn run(a: &str, b: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["match", "--engine", a, "--engine", b, "--nodes", "1"])
        .args(["--random-plies", "0", "--quiet"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn an_endless_line_and_a_huge_schedule_keep_the_runner_small() {
    // 1. An engine that sends 300 MB without a newline before its first reply.
    let dir = temp("line");
    let engine = dir.join("long.sh");
    std::fs::write(
        &engine,
        format!("#!/bin/sh\nhead -c 300000000 /dev/zero | tr '\\0' x\nexec {FAKE} ok\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, out) = run(
        &format!("cmd={} name=long", engine.display()),
        &format!("cmd='{FAKE} ok' name=ok"),
        // No limit on how long the 300 MB take to arrive: this test measures memory only.
        &["--games", "2", "--reply-timeout", "3600000"],
    );
    assert_eq!(code, 0, "{out}");
    assert_starts(&out, "Games: 2 of 2 in ");
    assert!(!out.contains("Faults of"), "{out}");
    let peak = children_peak_kib();
    assert!(
        peak < PEAK_KIB,
        "an endless line: the runner peaked at {peak} KiB"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // 2. 10^8 games under an SPRT that the first pairs decide (every game won by `ok`).
    let (code, out) = run(
        &format!("cmd='{FAKE} ok' name=ok"),
        &format!("cmd='{FAKE} illegal' name=bad"),
        &["--games", "100000000", "--sprt", "elo0=0", "elo1=10"],
    );
    assert_eq!(code, 0, "{out}");
    // Every pair is won; the 12th won pair is the first past the upper bound (as in
    // tests/tourney/faults.rs).
    assert_starts(&out, "Games: 24 of 100000000 in ");
    assert_contains(&out, " H1 accepted\n");
    let peak = children_peak_kib();
    assert!(
        peak < PEAK_KIB,
        "10^8 games: the runner peaked at {peak} KiB"
    );
}
