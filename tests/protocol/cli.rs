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

/// The exit statuses docs/match.md ("Exit status") lists for every subcommand, README,
/// docs/book.md, docs/tablebase.md and protocol.md repeat: each documented status of each
/// subcommand, from the binary. `match --sprt`'s 3 and 4 are in tests/tourney/output.rs
/// (`sprt_exit_statuses_and_state_in_json`), Ctrl-C's 130 in tests/tourney/robust.rs; this
/// test checks that the table lists no other status.
#[test]
fn each_documented_exit_status() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("exit-statuses");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).display().to_string();
    let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");
    let (tables, solved, unsolved, broken, bad_pdn) = (
        p("tb2"),
        p("solved.txt"),
        p("unsolved.txt"),
        p("broken.txt"),
        p("bad.pdn"),
    );
    std::fs::write(&solved, "B:W14,22,30:B9 ; bm 9x25 ; id forced\n").unwrap();
    // The shot of tests/data/suites/tactics.txt's bg.shot.03 named as a move to avoid.
    std::fs::write(&unsolved, "W:W6,14,23:BK32 ; am 6-2 ; id shot\n").unwrap();
    std::fs::write(&broken, "B:W14,22,30:B9 ; bm 1-99\n").unwrap();
    std::fs::write(&bad_pdn, "[Event \"x\"]\n1. 9-99 *\n").unwrap();
    let built = run(&[
        "tb",
        "build",
        "--pieces",
        "2",
        "--english",
        "--dir",
        &tables,
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let (a, b) = (
        format!("cmd='{fake} ok' name=A"),
        format!("cmd='{fake} ok' name=B"),
    );
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    // `tb probe` and `tb status` of the English tables just built.
    let probe = |fen| vec!["tb", "probe", "--english", "--dir", &tables, "--fen", fen];
    let status = |pieces| {
        vec![
            "tb",
            "status",
            "--pieces",
            pieces,
            "--english",
            "--dir",
            &tables,
        ]
    };
    let cases: Vec<(i32, Vec<&str>)> = vec![
        (0, vec!["perft", "1"]),
        (2, vec!["perft", "1", "--fen", "bad"]),
        (0, vec!["bench", "--nodes", "100"]),
        (2, vec!["bench", "--fen", "bad"]),
        (0, vec!["book", "probe"]),
        (1, vec!["book", "probe", "--fen", "W:WK4:BK7"]),
        (2, vec!["book", "probe", "--fen", "bad"]),
        (0, probe("W:WK4:BK7")),
        (1, probe("W:WK4:BK7,K16")),
        (2, probe("bad")),
        (0, status("2")),
        (1, status("3")),
        (0, vec!["tb", "verify", "--english", "--dir", &tables]),
        (0, vec!["suite", "--nodes", "50", &solved]),
        (1, vec!["suite", "--nodes", "5000", &unsolved]),
        (2, vec!["suite", "--nodes", "50", &broken]),
        (
            0,
            vec![
                "match",
                "--nodes",
                "1",
                "--quiet",
                "--random-plies",
                "0",
                "--games",
                "2",
                "--engine",
                &a,
                "--engine",
                &b,
            ],
        ),
        (1, vec!["match", "--verify-pdn", &bad_pdn]),
        (
            2,
            vec![
                "match",
                "--games",
                "2",
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                &b,
            ],
        ),
        (2, vec!["play", "--engine", "name=x"]),
        (2, vec!["gui", "--port", &port]),
        (2, vec!["no-such-subcommand"]),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (want, args) in &cases {
        let o = Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(*want), "{args:?}: {}", stderr(&o));
        seen.insert(*want);
    }
    drop(busy);
    // The protocol and the Hub dialect: 0 at `quit` and at the end of input.
    for (args, input) in [
        (vec![], "quit\n"),
        (vec![], "isready\n"),
        (vec!["hub"], "quit\n"),
    ] {
        let o = buffgreen_testkit::process::piped(
            Command::new(env!("CARGO_BIN_EXE_buffgreen")).args(&args),
            input,
        );
        assert_eq!(o.status.code(), Some(0), "{args:?} {input:?}");
    }
    // `play`: 0 for a game played to `quit`.
    let pdn = p("game.pdn");
    let o = buffgreen_testkit::process::piped(
        Command::new(env!("CARGO_BIN_EXE_buffgreen")).args([
            "play",
            "--engine-side",
            "none",
            "--pdn",
            &pdn,
        ]),
        "11-15\nquit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The table lists exactly these statuses and the ones tested elsewhere (above).
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/match.md")).unwrap();
    let table = doc.split("## Exit status").nth(1).unwrap();
    let listed: std::collections::BTreeSet<i32> = table
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect();
    seen.extend([3, 4, 130]);
    assert_eq!(listed, seen);
    let intro: String = table
        .lines()
        .take_while(|l| !l.starts_with('|'))
        .collect::<Vec<_>>()
        .join(" ");
    for word in [
        "`match`", "`suite`", "`book`", "`tb`", "`perft`", "`bench`", "`play`", "`gui`",
    ] {
        assert!(intro.contains(word), "{word}: {intro}");
    }
}
