//! `buffgreen suite` (issue 23 item 5): the five ways the shell script it replaced misled, each reproduced
//! with its exact line and now answered right, plus `--json` and the tactical suite.
//!
//! suite.sh 1: `--option BackwardCapture=false` was overridden by each line's own setoption,
//!   so English-only answers failed; 2: a bad FEN was rejected by the engine, which then
//!   searched the previous position and reported an ordinary FAIL; 3: `bm 9x25` never matched
//!   the engine's `9x18x25`; 4: it ran from the repository root, so a path relative to the
//!   caller was not found; 5: its exit status was 1 whatever the number of failures.

use buffgreen_testkit::{assert_contains, assert_ends, assert_starts};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("suite-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `name` in a fresh directory and runs `buffgreen suite` there with `args`
/// (the file is named relative to that directory).
fn suite(name: &str, text: &str, args: &[&str]) -> Output {
    let dir = scratch(name);
    std::fs::write(dir.join("s.txt"), text).unwrap();
    Command::new(BIN)
        .current_dir(&dir)
        .arg("suite")
        .args(args)
        .arg("s.txt")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A one-line suite whose capture is forced.
const SHORT: &str = "B:W14,22,30:B9 ; bm 9x25\n";

const BACKWARD: &str = "B:W11,30:B15 ; bm 15-18 15-19 ; id back\n";

#[test]
fn rule_flags_apply_to_every_line() {
    // Under Buff and Green rules the man must capture backward (15x8): the bm is not legal.
    let o = suite("rules-default", BACKWARD, &["--nodes", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert_starts(&stderr(&o), "error: s.txt:1: bm 15-18: ");
    for flags in [
        &["--english"][..],
        &["--backward-capture", "false", "--long-kings", "false"],
    ] {
        let mut args = vec!["--nodes", "100"];
        args.extend(flags);
        let o = suite("rules-english", BACKWARD, &args);
        let out = stdout(&o);
        assert_starts(&out, "ok   back           english  played 15-1");
        assert_ends(&out, " bm 15-18 15-19\nSolved: 1/1 (nodes 100)\n");
        assert_eq!(o.status.code(), Some(0));
    }
    // A line's own rules field wins over the flags.
    let o = suite(
        "rules-line",
        "B:W11,30:B15 ; bm 15x8 ; id back ; rules default\n",
        &["--english", "--nodes", "100"],
    );
    assert_eq!(
        stdout(&o),
        "ok   back           default  played 15x8       bm 15x8\nSolved: 1/1 (nodes 100)\n"
    );
}

#[test]
fn a_bad_fen_is_an_error_with_file_and_line() {
    let o = suite(
        "bad-fen",
        "# comment\n\nB:W14,22,30:B9 ; bm 9x25\nB:W33:B1 ; bm 1-5 ; id badfen\n",
        &["--nodes", "100"],
    );
    assert_eq!(o.status.code(), Some(2));
    // Nothing is searched when a line is bad.
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert_starts(&err, "error: s.txt:4: bad FEN 'B:W33:B1': ");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_short_capture_matches_the_long_one() {
    let o = suite(
        "short",
        "B:W14,22,30:B9 ; bm 9x25 ; id short\n",
        &["--nodes", "100"],
    );
    assert_eq!(
        stdout(&o),
        "ok   short          default  played 9x18x25    bm 9x18x25\nSolved: 1/1 (nodes 100)\n"
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn paths_are_relative_to_the_caller() {
    let dir = scratch("relative");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("short.txt"), "B:W14,22,30:B9 ; bm 9x25\n").unwrap();
    let o = Command::new(BIN)
        .current_dir(dir.join("sub"))
        .args(["suite", "--nodes", "10", "../short.txt"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&o),
        "ok   line 1         default  played 9x18x25    bm 9x18x25\nSolved: 1/1 (nodes 10)\n"
    );
    let o = Command::new(BIN)
        .current_dir(dir.join("sub"))
        .args(["suite", "missing.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_starts(&stderr(&o), "error: missing.txt: ");
}

#[test]
fn exit_status_says_whether_all_were_solved_and_json_has_every_line() {
    // Only captures are legal here, and bm names the other one: never solved.
    let miss = "B:W14,15:B10 ; bm MISS ; rules english\n";
    let played = suite(
        "probe",
        &miss.replace("MISS", "10x17 10x19"),
        &["--nodes", "50"],
    );
    let first = stdout(&played);
    // The move the engine plays, so that bm can name the other capture.
    let engine_move = first.split_whitespace().nth(5).unwrap().to_string();
    let other = if engine_move == "10x17" {
        "10x19"
    } else {
        "10x17"
    };
    let line = miss.replace("MISS", other);
    let text = format!("{line}{line}B:W14,22,30:B9 ; bm 9x25 ; id short\n");
    let dir = scratch("json");
    std::fs::write(dir.join("s.txt"), text).unwrap();
    let o = Command::new(BIN)
        .current_dir(&dir)
        .args(["suite", "--nodes", "50", "--json", "r.json", "s.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("Solved: 1/3 (nodes 50)\n"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(doc["solved"], 1);
    assert_eq!(doc["total"], 3);
    assert_eq!(doc["limit"], "nodes 50");
    let p = &doc["positions"];
    assert_eq!(p[0]["line"], 1);
    assert_eq!(p[0]["id"], "line 1");
    assert_eq!(p[0]["played"], engine_move.as_str());
    assert_eq!(p[0]["bm"], serde_json::json!([other]));
    assert_eq!(p[0]["solved"], false);
    assert_eq!(p[0]["nodes"], 50);
    assert_eq!(p[2]["id"], "short");
    assert_eq!(p[2]["solved"], true);
    assert_eq!(p[2]["fen"], "B:W14,22,30:B9");
    // Unsolved positions are status 1 however many (issue 40 item 10: 2 unsolved gave 2, a
    // usage error's status, and a bad file 101, Rust's panic status).
    let many = line.repeat(150);
    let o = suite("capped", &many, &["--nodes", "1"]);
    assert!(stdout(&o).ends_with("Solved: 0/150 (nodes 1)\n"));
    assert_eq!(o.status.code(), Some(1));
    // --json on a suite file would destroy it.
    let o = Command::new(BIN)
        .current_dir(&dir)
        .args(["suite", "--nodes", "50", "--json", "./s.txt", "s.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --json ./s.txt and FILE s.txt are one file: the output would destroy the input\n"
    );
}

/// `buffgreen suite` with `args` on the tactical suite.
fn tactics(args: &[&str]) -> Output {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/suites/tactics.txt");
    Command::new(BIN)
        .arg("suite")
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn the_tactical_suite_runs_every_line_under_its_rules() {
    let o = tactics(&["--nodes", "50"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "{out}");
    assert_contains(lines[0], " bg.shot.01     default  played ");
    assert!(lines[0].ends_with(" bm 29-25"), "{}", lines[0]);
    assert_contains(lines[19], " en.avoid.04    english  played ");
    let unsolved = lines.iter().filter(|l| l.starts_with("FAIL ")).count();
    assert_eq!(
        lines[20],
        format!("Solved: {}/20 (nodes 50)", 20 - unsolved)
    );
    assert_eq!(o.status.code(), Some(i32::from(unsolved > 0)));
}

#[test]
fn another_engine_program_gives_the_same_lines_as_the_search_here() {
    // The engine's defaults (Seed 0, one thread, 64 MiB) are the suite's: the same search.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/suites/tactics.txt");
    let here = Command::new(BIN)
        .args(["suite", "--nodes", "200", file])
        .output()
        .unwrap();
    let there = Command::new(BIN)
        .args([
            "suite",
            "--nodes",
            "200",
            "--engine",
            &format!("cmd={BIN}"),
            file,
        ])
        .output()
        .unwrap();
    assert_eq!(stdout(&there), stdout(&here));
    assert_eq!(stderr(&there), "");
    assert_eq!(there.status.code(), here.status.code());
    assert_eq!(stdout(&here).lines().count(), 21);
    // The spec's own limit wins; a program that cannot start is an error naming it.
    let o = suite(
        "engine",
        "B:W14,22,30:B9 ; bm 9x25 ; id short\n",
        &["--engine", &format!("cmd={BIN} nodes=5")],
    );
    assert_eq!(
        stdout(&o),
        "ok   short          default  played 9x18x25    bm 9x18x25\nSolved: 1/1 (nodes 5)\n"
    );
    let o = suite(
        "missing",
        "B:W14,22,30:B9 ; bm 9x25\n",
        &["--engine", "cmd=/nonexistent/engine"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_starts(
        &stderr(&o),
        "error: cannot start engine 'engine' (/nonexistent/engine): ",
    );
    // An engine that fails on a position: a warning with file:line, the position unsolved.
    let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");
    let o = suite(
        "crash",
        "B:W14,22,30:B9 ; bm 9x25 ; id short\n",
        &["--engine", &format!("cmd='{fake} crash'")],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "warning: s.txt:1: crash: Black's engine exited\n"
    );
    assert_eq!(
        stdout(&o),
        "FAIL short          default  played none       bm 9x18x25\nSolved: 0/1 (nodes 20000)\n"
    );
}

#[test]
fn tables_here_give_the_lines_of_an_engine_given_the_same_tables() {
    let dir = scratch("tables");
    let tb = dir.join("tb");
    let built = Command::new(BIN)
        .args("tb build --pieces 3 --threads 2 --dir".split(' '))
        .arg(&tb)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/suites/tactics.txt");
    let tb = tb.to_string_lossy();
    let here = Command::new(BIN)
        .args(["suite", "--nodes", "300", "--tables", &tb, file])
        .output()
        .unwrap();
    let there = Command::new(BIN)
        .args(["suite", "--nodes", "300", "--engine"])
        .arg(format!("cmd={BIN} option.TablebasePath={tb}"))
        .arg(file)
        .output()
        .unwrap();
    // The English lines have no tables there: said once, searched without, as the engine does.
    assert_eq!(
        stderr(&here),
        format!("warning: --tables {tb}: {tb}/b0m1k-w0m1k.bgtb: built for BackwardCapture=true LongKings=true DrawHalfMoves=80, not BackwardCapture=false LongKings=false DrawHalfMoves=80; its positions are searched without tables\n")
    );
    assert_eq!(stdout(&here), stdout(&there));
    assert_eq!(stdout(&here).lines().count(), 21);
    // A folder that is not there is one error before anything is searched.
    let o = suite("no-tables", SHORT, &["--tables", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "error: --tables nowhere: no such directory\n");
}

#[test]
fn am_moves_fail_a_position_and_every_other_move_solves_it() {
    // The one legal move avoided: a line that could never be solved is refused.
    let o = suite(
        "am-forced",
        "B:W14,22,30:B9 ; am 9x25 ; id short\n",
        &["--nodes", "100"],
    );
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "error: s.txt:1: am names every legal move\n");
    assert_eq!(o.status.code(), Some(2));
    // Two legal moves: whichever the search plays fails when avoided and solves when the
    // other one is.
    let o = suite("am-which", BACKWARD, &["--english", "--nodes", "100"]);
    let out = stdout(&o);
    let played = out
        .split_whitespace()
        .skip_while(|w| *w != "played")
        .nth(1)
        .expect("a move")
        .to_string();
    let other = if played == "15-18" { "15-19" } else { "15-18" };
    for (avoid, verdict, status) in [(&played[..], "FAIL", 1), (other, "ok  ", 0)] {
        let line = format!("B:W11,30:B15 ; am {avoid} ; id back\n");
        let o = suite("am-which", &line, &["--english", "--nodes", "100"]);
        assert_eq!(
            stdout(&o),
            format!(
                "{verdict} back           english  played {played:<10} am {avoid}\n\
                 Solved: {}/1 (nodes 100)\n",
                1 - status
            )
        );
        assert_eq!(o.status.code(), Some(status));
    }
    // Both fields: bm names the moves that solve, am those that fail.
    let o = suite(
        "am-both",
        &format!("B:W11,30:B15 ; bm {played} ; am {other} ; id back\n"),
        &["--english", "--nodes", "100"],
    );
    assert_ends(
        &stdout(&o),
        &format!(" bm {played} ; am {other}\nSolved: 1/1 (nodes 100)\n"),
    );
    // A move in both: the line is refused.
    let o = suite(
        "am-bad",
        "B:W11,30:B15 ; bm 15-18 ; am 15-18\nB:W11,30:B15 ; id none\n",
        &["--english"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "error: s.txt:1: 15-18 is in both bm and am\n");
}

/// Issue 58 item 10: a line with neither `bm` nor `am` is searched and its move, score, depth
/// and iterations printed, without a verdict (`--`), and counts for no `Solved:` figure; the
/// same figures in this process and through the protocol by `--engine` (the same seed).
#[test]
fn lines_without_bm_or_am_get_the_engines_move() {
    let text = "B:W21-32:B1-12 ; id start\n\
                W:W18,20,21,23,25-32:B1-8,10,11,13,16\n\
                B:W14,22,30:B9 ; bm 9x25 ; id forced\n";
    let here = suite("analyse", text, &["--nodes", "3000"]);
    assert_eq!(here.status.code(), Some(0), "{}", stderr(&here));
    let out = stdout(&here);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (line, id) in lines[..2].iter().zip(["start", "line 2"]) {
        assert_starts(line, &format!("--   {id:<14} default  played "));
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = words.len();
        assert!(
            words[n - 7] == "score" && ["cp", "mate"].contains(&words[n - 6]),
            "{line}"
        );
        assert_eq!(words[n - 4], "depth", "{line}");
        assert_eq!(words[n - 2..], ["nodes", "3000"], "{line}");
    }
    assert_starts(lines[2], "ok   forced ");
    assert_eq!(lines[3], "Solved: 1/1 (nodes 3000)");
    let engine = format!("cmd={BIN}");
    let there = suite(
        "analyse-engine",
        text,
        &["--nodes", "3000", "--engine", &engine],
    );
    assert_eq!(stdout(&there), out, "{}", stderr(&there));
}

/// White's two captures of one piece and two of two: Brazilian rules take the most pieces.
const MAJORITY: &str = "W:W22,23:B11,18,19";

#[test]
fn a_line_and_the_flag_name_any_rule_set_of_the_table() {
    let line = format!("{MAJORITY} ; bm 22x15x8 22x15x24 ; id most ; rules brazilian\n");
    let o = suite("rules-brazilian", &line, &["--nodes", "100"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_starts(&stdout(&o), "ok   most           brazilian played 22x15x");
    assert_ends(&stdout(&o), "Solved: 1/1 (nodes 100)\n");
    // The single capture is legal under Buff and Green, not under Brazilian rules.
    let avoid = format!("{MAJORITY} ; am 23x14 ; id most\n");
    let o = suite(
        "flag-brazilian",
        &avoid,
        &["--nodes", "100", "--variant", "brazilian"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: s.txt:1: am 23x14: illegal move '23x14'; legal moves: 22x15x8 22x15x24 23x16x7\n"
    );
    let o = suite("flag-default", &avoid, &["--nodes", "100"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
