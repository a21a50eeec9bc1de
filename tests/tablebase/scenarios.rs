//! `buffgreen tb probe` and `tb verify` run as a user runs them: exact lines for named endings,
//! and one clear error (exit 2) for each kind of bad input.

use std::path::{Path, PathBuf};
use std::process::Command;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::{build, BuildOptions, BuildReport};
use buffgreen::tablebase::{format, Material};

use buffgreen_testkit::process::outcome;
use buffgreen_testkit::tables::options;

use crate::tables;

/// Runs the binary; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    outcome(Command::new(env!("CARGO_BIN_EXE_buffgreen")).args(args))
}

fn probe(dir: &Path, fen: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = dir.to_str().expect("utf-8 path");
    let mut args = vec!["tb", "probe", "--dir", dir, "--fen", fen];
    args.extend_from_slice(extra);
    run(&args)
}

/// The single stdout line of a successful probe.
fn line(dir: &Path, fen: &str, extra: &[&str]) -> String {
    sole_line(dir, fen, extra, true)
}

/// The single stderr line of a refused probe (exit 2, nothing on stdout).
fn error(dir: &Path, fen: &str, extra: &[&str]) -> String {
    sole_line(dir, fen, extra, false)
}

/// The one line a probe writes: on stdout with exit 0 when `ok`, else on stderr with exit 2;
/// the other stream stays empty.
fn sole_line(dir: &Path, fen: &str, extra: &[&str], ok: bool) -> String {
    let (code, out, err) = probe(dir, fen, extra);
    let (want, text, other) = if ok { (0, out, err) } else { (2, err, out) };
    assert_eq!(code, want, "{fen}: {other}");
    assert!(other.is_empty(), "{fen}: {other}");
    assert_eq!(text.lines().count(), 1, "{text}");
    text.trim_end().to_string()
}

/// A fresh copy of a table directory to damage.
pub fn copy_of(dir: &Path, name: &str) -> PathBuf {
    let to = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to).expect("mkdir");
    for entry in std::fs::read_dir(dir).expect("readable") {
        let p = entry.expect("entry").path();
        std::fs::copy(&p, to.join(p.file_name().expect("name"))).expect("copy");
    }
    to
}

#[test]
fn named_endings_print_exact_lines() {
    let bg = tables(3, &Rules::BUFF_AND_GREEN);
    let en = tables(3, &Rules::ENGLISH);
    // Two flying kings cannot beat one that holds the long diagonal 29-4 ...
    assert_eq!(line(&bg, "W:WK4:BK7,K16", &[]), "draw");
    // ... while short kings can.
    assert_eq!(line(&en, "W:WK4:BK7,K16", &["--english"]), "loss 6");
    // English king and man against king: a win.
    assert_eq!(line(&en, "B:WK29:BK1,10", &["--english"]), "win 9");
    // A win in 6 holds while 6 <= 80 - clock, and is a draw after.
    assert_eq!(line(&bg, "B:WK4:BK10,K14", &[]), "win 6");
    assert_eq!(line(&bg, "B:WK4:BK10,K14", &["--clock", "74"]), "win 6");
    assert_eq!(line(&bg, "B:WK4:BK10,K14", &["--clock", "75"]), "draw");
    // Without the draw rule it stays a win at any clock.
    let free = tables(
        3,
        &Rules {
            draw_half_moves: 0,
            ..Rules::BUFF_AND_GREEN
        },
    );
    assert_eq!(
        line(
            &free,
            "B:WK4:BK10,K14",
            &["--draw-half-moves", "0", "--clock", "500"]
        ),
        "win 6"
    );
    // Black's man on 25 is blocked by White's men on 29 and 30: no move, lost at any clock.
    assert_eq!(line(&bg, "B:W29,30:B25", &[]), "loss 0");
    assert_eq!(line(&bg, "B:W29,30:B25", &["--clock", "80"]), "loss 0");
}

#[test]
fn bad_input_gets_one_clear_error() {
    let bg = tables(3, &Rules::BUFF_AND_GREEN);
    assert_eq!(
        error(&bg, "B:W29,30:B25,x", &[]),
        "error: bad FEN: bad FEN at column 13: expected a square number, found 'x'"
    );
    // Not in the tables: a negative answer (exit 1), as `book probe` says of the book.
    let (code, out, err) = probe(&bg, "B:W29,30:B25,26", &[]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "", "not in the tables: B:W29,30:B25,26\n")
    );
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-tables");
    assert_eq!(
        error(&missing, "B:WK4:BK10,K14", &[]),
        format!(
            "error: tablebase directory {} does not exist",
            missing.display()
        )
    );
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    assert_eq!(
        error(&empty, "B:WK4:BK10,K14", &[]),
        format!("error: no tablebase files in {}", empty.display())
    );
    let first = bg.join("b0m1k-w0m1k.bgtb");
    assert_eq!(
        error(&bg, "B:WK4:BK10,K14", &["--english"]),
        format!(
            "error: {}: built for BackwardCapture=true LongKings=true DrawHalfMoves=80, \
             not BackwardCapture=false LongKings=false DrawHalfMoves=80",
            first.display()
        )
    );
    assert_eq!(
        error(&bg, "B:WK4:BK10,K14", &["--draw-half-moves", "60"]),
        format!(
            "error: {}: built for BackwardCapture=true LongKings=true DrawHalfMoves=80, \
             not BackwardCapture=true LongKings=true DrawHalfMoves=60",
            first.display()
        )
    );

    // One flipped entry byte: the checksum refuses the slice, never a wrong value.
    let corrupt = copy_of(&bg, "tb-corrupt");
    let slice = corrupt.join("b0m1k-w0m2k.bgtb");
    let mut bytes = std::fs::read(&slice).expect("readable");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&slice, &bytes).expect("writable");
    assert_eq!(
        error(&corrupt, "B:WK4:BK10,K14", &[]),
        format!(
            "error: {}: checksum mismatch (corrupt file)",
            slice.display()
        )
    );
    // Cut short.
    std::fs::write(&slice, &bytes[..1000]).expect("writable");
    assert_eq!(
        error(&corrupt, "B:WK4:BK10,K14", &[]),
        format!(
            "error: {}: truncated or padded: 1000 bytes, expected {}",
            slice.display(),
            bytes.len()
        )
    );
    // Not a table at all.
    std::fs::write(&slice, b"PK\x03\x04 some other file").expect("writable");
    assert_eq!(
        error(&corrupt, "B:WK4:BK10,K14", &[]),
        format!("error: {}: not a buffgreen tablebase file", slice.display())
    );
}

#[test]
fn verify_reports_every_bad_slice_and_goes_on() {
    let rules = Rules::BUFF_AND_GREEN;
    let bg = tables(3, &rules);
    let bad = copy_of(&bg, "tb-inconsistent");
    // Rewrite two slices with one entry changed and a valid checksum: only verify sees them,
    // and it names every slice that disagrees, not the first one only.
    for m in [
        Material {
            bm: 0,
            bk: 1,
            wm: 0,
            wk: 2,
        },
        Material {
            bm: 1,
            bk: 0,
            wm: 1,
            wk: 0,
        },
    ] {
        let mut data = format::read(&bad, m, &rules).expect("readable").data;
        data[0] = if data[0] == 0 { 1 } else { 0 };
        format::write(&bad, m, &rules, &data).expect("writable");
    }
    let slices = Material::slices(3).len();
    let (code, out, err) = run(&["tb", "verify", "--dir", bad.to_str().expect("utf-8")]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    // The 2-piece entry changed makes the 3-piece slices that reach it disagree too.
    let named: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("error: inconsistent entry in "))
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(
        named,
        [
            "b1m0k-w1m0k",
            "b0m1k-w0m2k",
            "b0m1k-w1m1k",
            "b1m0k-w1m1k",
            "b1m0k-w2m0k"
        ],
        "{err}"
    );
    assert_eq!(
        err.lines().last(),
        Some(
            format!(
                "error: 5 of {slices} slices failed (5 inconsistent), {} consistent",
                slices - 5
            )
            .as_str()
        )
    );
    assert_eq!(err.lines().count(), slices + 1, "one line a slice: {err}");
    // A slice that cannot be read: it and the slices that read it are not checked, the
    // others are, and the exit status says the tables could not be read.
    let gone = copy_of(&bg, "tb-unreadable");
    let m = Material {
        bm: 0,
        bk: 1,
        wm: 0,
        wk: 1,
    };
    std::fs::remove_file(format::path_of(&gone, m)).expect("removable");
    let (code, out, err) = run(&["tb", "verify", "--dir", gone.to_str().expect("utf-8")]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    let readers = Material::slices(3)
        .into_iter()
        .filter(|&s| s != m && buffgreen::tablebase::build::plan::zeroing_targets(s).contains(&m))
        .count();
    assert_eq!(errors.len(), readers + 1, "{err}");
    assert!(
        errors[0]
            .ends_with(" not checked: missing table b0m1k-w0m1k (build the smaller slices first)"),
        "{err}"
    );
    assert_eq!(
        errors[readers],
        format!(
            "error: {readers} of {} slices failed (0 inconsistent), {} consistent",
            slices - 1,
            slices - 1 - readers
        )
    );
}

#[test]
fn build_keeps_good_slices_and_rebuilds_damaged_ones() {
    let bg = tables(3, &Rules::BUFF_AND_GREEN);
    let dir = copy_of(&bg, "tb-resume");
    let flipped = dir.join("b0m1k-w0m2k.bgtb");
    let mut bytes = std::fs::read(&flipped).expect("readable");
    bytes[100] ^= 1;
    std::fs::write(&flipped, &bytes).expect("writable");
    std::fs::write(dir.join("b1m0k-w1m0k.bgtb"), &bytes[..20]).expect("writable");
    std::fs::remove_file(dir.join("b0m1k-w1m1k.bgtb")).expect("removable");
    let opts = options(&dir, 3, Rules::BUFF_AND_GREEN);
    let report = build(&opts, &mut |_| {}).expect("builds");
    assert_eq!(
        report,
        BuildReport {
            built: 3,
            kept: 6,
            bytes: 200_096,
            peak_memory: report.peak_memory,
        }
    );
    for entry in std::fs::read_dir(&bg).expect("readable") {
        let p = entry.expect("entry").path();
        let name = p.file_name().expect("name");
        assert_eq!(
            std::fs::read(&p).expect("readable"),
            std::fs::read(dir.join(name)).expect("rebuilt"),
            "{name:?}"
        );
    }
    // Other rules into the same directory: refused, nothing written.
    let english = BuildOptions {
        rules: Rules::ENGLISH,
        ..opts
    };
    let err = build(&english, &mut |_| {}).expect_err("other rules refused");
    assert!(
        err.to_string().contains("built for BackwardCapture=true"),
        "{err}"
    );
}
