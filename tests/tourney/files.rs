//! No output of `buffgreen match` or `book build` destroys an input or another output, and a
//! match stopped by an output error still prints its table (issue 40 items 2 and 6). The
//! binary runs the fake engine of tests/data/engines/fake.sh.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match-files-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The arguments of a match of two fake engines that know one game (2 games a pair).
fn match_args(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["match", "--nodes", "1", "--quiet"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for name in ["A", "B"] {
        v.push("--engine".into());
        v.push(format!("cmd='{FAKE} ok' name={name}"));
    }
    if !extra.contains(&"--openings") {
        v.extend(["--random-plies".to_string(), "0".to_string()]);
    }
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run(args: &[String]) -> (i32, String, String) {
    let out: Output = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn an_output_on_an_input_or_on_another_output_is_refused_and_nothing_is_touched() {
    let dir = scratch("same");
    let pdn = dir.join("r.pdn");
    let (code, _, err) = run(&match_args(&["--games", "4", "--pdn", &s(&pdn)]));
    assert_eq!(code, 0, "{err}");
    let games = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 4);
    let deck = dir.join("deck.txt");
    std::fs::write(&deck, "11-15\n").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&deck, &link).unwrap();
    let new = dir.join("new.out");
    let dotted = dir.join("sub/../new.out");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let (p, d, l, n, dn) = (s(&pdn), s(&deck), s(&link), s(&new), s(&dotted));
    let cases: Vec<(Vec<&str>, String)> = vec![
        // The repros: the log cut the PDN's 4 games to 1, the log or the JSON
        // destroyed the deck, the JSON went into the PDN.
        (
            vec!["--pdn", &p, "--debug-log", &p],
            format!("--pdn {p} and --debug-log {p} are one file: both outputs would write it"),
        ),
        (
            vec!["--openings", &d, "--debug-log", &d],
            format!(
                "--debug-log {d} and --openings {d} are one file: the output would destroy \
                 the input"
            ),
        ),
        (
            vec!["--openings", &d, "--json", &l],
            format!(
                "--json {l} and --openings {d} are one file: the output would destroy the input"
            ),
        ),
        (
            vec!["--pdn", &n, "--json", &dn],
            format!("--pdn {n} and --json {dn} are one file: both outputs would write it"),
        ),
        (
            vec!["--debug-log", FAKE],
            format!(
                "--debug-log {FAKE} and --engine {FAKE} are one file: the output would destroy \
                 the input"
            ),
        ),
    ];
    for (extra, want) in cases {
        let (code, out, err) = run(&match_args(&extra));
        assert_eq!((code, out.as_str()), (2, ""), "{extra:?}");
        assert_eq!(err, format!("error: {want}\n"), "{extra:?}");
    }
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), games);
    assert_eq!(std::fs::read_to_string(&deck).unwrap(), "11-15\n");
    assert!(!new.exists());

    // book build --roots deck --out deck overwrote the deck.
    let (code, out, err) = run(&[
        "book".into(),
        "build".into(),
        "--roots".into(),
        d.clone(),
        "--out".into(),
        l.clone(),
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "error: --out {l} and --roots {d} are one file: the output would destroy the input\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&deck).unwrap(), "11-15\n");
}

#[test]
fn the_debug_log_appends_to_a_log_refuses_other_files_and_fails_before_the_first_game() {
    let dir = scratch("log");
    let log = dir.join("io.log");
    for _ in 0..2 {
        let (code, _, err) = run(&match_args(&["--games", "2", "--debug-log", &s(&log)]));
        assert_eq!(code, 0, "{err}");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("0.000 # buffgreen match "))
            .count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.ends_with(": ucinewgame")).count(),
        8
    );
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (code, out, err) = run(&match_args(&["--debug-log", &s(&notes)]));
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "error: --debug-log {} exists and is not a debug log: give a new file\n",
            s(&notes)
        )
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // An output that cannot be written is an error before the first game.
    let pdn = dir.join("g.pdn");
    let (code, out, err) = run(&match_args(&[
        "--debug-log",
        "/dev/full",
        "--pdn",
        &s(&pdn),
    ]));
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: /dev/full: No space left on device (os error 28)\n"
    );
    assert!(!pdn.exists(), "a game was played");
}

/// Issue 40 item 6: a match whose disk filled stopped with the error alone. A file size limit
/// (`prlimit --fsize`, the signal it raises ignored as a full disk gives none) lets the PDN
/// take two games.
#[test]
fn a_match_stopped_by_a_full_disk_prints_the_table_of_its_games() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        eprintln!("skipped: prlimit (util-linux) is missing");
        return;
    }
    let dir = scratch("full");
    let pdn = dir.join("g.pdn");
    let (code, _, err) = run(&match_args(&["--games", "2", "--pdn", &s(&pdn)]));
    assert_eq!(code, 0, "{err}");
    let two = std::fs::metadata(&pdn).unwrap().len();
    std::fs::remove_file(&pdn).unwrap();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("trap '' XFSZ; exec prlimit --fsize=\"$0\" \"$@\"")
        .arg((two + 10).to_string())
        .arg(BIN)
        .args(match_args(&[
            "--games",
            "6",
            "--concurrency",
            "1",
            "--pdn",
            &s(&pdn),
        ]));
    let out = cmd.output().unwrap();
    let (table, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{table}{err}");
    // After the warnings that the fake engine repeats its game.
    assert!(
        err.ends_with(&format!(
            "\nerror: {}: File too large (os error 27)\n",
            s(&pdn)
        )),
        "{err}"
    );
    assert!(table.starts_with("Games: 3 of 6 in "), "{table}");
    assert!(
        table.contains("\nStopped by an error: the table counts the 3 games finished\n"),
        "{table}"
    );
}
