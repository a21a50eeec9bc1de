//! The command line: `perft`, `bench`, `match`, `--help`, `--version`.

use buffgreen_testkit::assert_ends;
use buffgreen_testkit::protocol as protocol_support;

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_buffgreen"))
        .args(args)
        .output()
        .expect("run buffgreen")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_start_position_divide_exactly() {
    let o = run(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "9-13: 48\n9-14: 40\n10-14: 40\n10-15: 40\n11-15: 40\n11-16: 47\n12-16: 47\n\n\
         Nodes searched: 302\n"
    );
    assert!(stderr(&o).starts_with("Time: "), "time and rate on stderr");
    // The thread count changes nothing but speed.
    let one = run(&["perft", "3", "--threads", "1"]);
    assert_eq!(stdout(&one), stdout(&o));
}

#[test]
fn perft_rule_switches_and_fen() {
    for (line, divide) in [
        (
            "perft 1 --fen W:W18,30:B1,23",
            "18x27: 1\n\nNodes searched: 1\n",
        ),
        (
            "perft 1 --fen W:W18,30:B1,23 --backward-capture false",
            "18-14: 1\n18-15: 1\n30-25: 1\n30-26: 1\n\nNodes searched: 4\n",
        ),
        (
            "perft 1 --fen B:W32:BK1 --long-kings false",
            "1-5: 1\n1-6: 1\n\nNodes searched: 2\n",
        ),
    ] {
        let args: Vec<&str> = line.split(' ').collect();
        assert_eq!(stdout(&run(&args)), divide, "{line}");
    }
    // English rules: the published count.
    let args = "perft 5 --backward-capture false --long-kings false";
    let o = run(&args.split(' ').collect::<Vec<_>>());
    assert_ends(&stdout(&o), "\n\nNodes searched: 7361\n");
}

#[test]
fn perft_bad_arguments_fail_cleanly() {
    let o = run(&["perft", "2", "--fen", "B:W33:B1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(stderr(&o), "error: bad FEN: square 33 is not in 1..=32\n");
    for args in [
        &["perft", "0"][..],
        &["perft", "x"],
        &["perft"],
        &["perft", "2", "--long-kings", "maybe"],
        &["perft", "2", "--threads", "0"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bench_prints_a_reproducible_signature() {
    let args = [
        "bench",
        "--nodes",
        "20",
        "--seed",
        "3",
        "--hash",
        "8",
        "--threads",
        "1",
    ];
    let a = run(&args);
    assert!(a.status.success());
    let text = stdout(&a);
    let lines: Vec<&str> = text.lines().collect();
    protocol_support::bench_nodes(&lines);
    let b = run(&args);
    assert_eq!(stdout(&b).lines().next(), Some(lines[0]));
    assert_eq!(run(&["bench", "--nodes", "0"]).status.code(), Some(2));
}

#[test]
fn bench_searches_the_positions_given() {
    let fen = "B:W21-32:B1-12";
    let one = run(&["bench", "--nodes", "300", "--hash", "8", "--fen", fen]);
    assert!(one.status.success());
    assert_eq!(stdout(&one).lines().next(), Some("Nodes searched: 300"));
    let two = run(&[
        "bench", "--nodes", "300", "--hash", "8", "--fen", fen, "--fen", fen,
    ]);
    assert_eq!(stdout(&two).lines().next(), Some("Nodes searched: 600"));
    let bad = run(&["bench", "--fen", "B:W21-32:B1-33"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--fen 'B:W21-32:B1-33'"),
        "{bad:?}"
    );
}

#[test]
fn help_and_version() {
    let v = run(&["--version"]);
    assert!(v.status.success());
    assert_eq!(
        stdout(&v),
        format!("buffgreen {}\n", env!("CARGO_PKG_VERSION"))
    );
    let h = stdout(&run(&["--help"]));
    for word in ["perft", "bench", "match", "Usage: buffgreen"] {
        assert!(h.contains(word), "--help mentions {word}: {h}");
    }
    assert!(run(&["match", "--help"]).status.success());
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}
