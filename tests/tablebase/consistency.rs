//! `tb verify` on the 4-piece tables: every entry agrees with its successors.

use std::process::Command;

use buffgreen::board::Rules;
use buffgreen_testkit::process::succeed;

use crate::tables;

/// The line `tb verify` prints on the tables of up to `pieces` pieces under `rules`, without
/// the time taken.
pub fn verify_line(pieces: u32, rules: &Rules) -> String {
    verify_line_of(&tables(pieces, rules))
}

/// The line `tb verify` prints on `dir`, without the time taken.
pub fn verify_line_of(dir: &std::path::Path) -> String {
    let out = succeed(
        Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .args(["tb", "verify", "--threads", "2", "--dir"])
            .arg(dir),
        "tb verify",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The line ends with the time taken.
    text.rsplit_once(", ")
        .map_or(text.clone(), |(line, _)| line.to_string())
}

#[test]
fn four_piece_tables_pass_verify() {
    assert_eq!(
        verify_line(4, &Rules::BUFF_AND_GREEN),
        "ok: 23 slices, 6408836 positions consistent (BackwardCapture=true LongKings=true DrawHalfMoves=80)"
    );
    assert_eq!(
        verify_line(4, &Rules::ENGLISH),
        "ok: 23 slices, 6408836 positions consistent (BackwardCapture=false LongKings=false DrawHalfMoves=80)"
    );
}

/// `tb verify --from` checks the slices from the one named to the end of the order and says
/// how many it left alone; a name that is no slice, or a slice the directory lacks, is one
/// error and checks nothing.
#[test]
fn verify_resumes_from_a_slice() {
    let dir = tables(4, &Rules::BUFF_AND_GREEN);
    let run = |from: &str| {
        Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .args(["tb", "verify", "--threads", "2", "--from", from, "--dir"])
            .arg(&dir)
            .output()
            .expect("tb verify runs")
    };
    // The slice named from the other side to move is the same file.
    let out = run("b2m0k-w0m2k");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (line, _time) = stdout.rsplit_once(", ").expect("a timed line");
    assert_eq!(
        line,
        "ok: 8 slices, 3286116 positions consistent (BackwardCapture=true LongKings=true \
         DrawHalfMoves=80) from b0m2k-w2m0k (15 before it not checked)"
    );
    let checked: Vec<String> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| l.split_once(':').expect("slice: consistent").0.to_string())
        .collect();
    assert_eq!(
        checked,
        [
            "b0m2k-w2m0k",
            "b1m0k-w1m2k",
            "b1m1k-w1m1k",
            "b0m1k-w3m0k",
            "b1m0k-w2m1k",
            "b1m1k-w2m0k",
            "b1m0k-w3m0k",
            "b2m0k-w2m0k"
        ]
    );
    // The first slice of the order checks them all, as without --from.
    let out = run("b0m1k-w0m1k");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("ok: 23 slices, 6408836 positions consistent (BackwardCapture=true LongKings=true DrawHalfMoves=80), "),
        "{stdout}"
    );
    for (from, error) in [
        (
            "b0m5k-w0m1k",
            format!(
                "error: no slice b0m5k-w0m1k in {} (--from takes a file stem such as b1m2k-w1m2k)",
                dir.display()
            ),
        ),
        (
            "b1m2k",
            "error: invalid value 'b1m2k' for '--from <SLICE>': \"b1m2k\" is not a slice name such as b1m2k-w1m2k".to_string(),
        ),
    ] {
        let out = run(from);
        assert_eq!(out.status.code(), Some(2), "{from}");
        assert!(out.stdout.is_empty(), "{from}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().next(), Some(error.as_str()), "{from}");
    }
}
