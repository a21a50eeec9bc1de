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

/// The arguments of a match of the fake engine (first) against `spec` (second).
fn against(spec: &str, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["match", "--nodes", "1", "--quiet", "--random-plies", "0"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(["--engine".into(), format!("cmd='{FAKE} ok' name=A")]);
    v.extend(["--engine".into(), spec.to_string()]);
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// The error of output `option` `path` onto input `input` `file`.
fn same(option: &str, path: &str, input: &str, file: &str) -> String {
    format!("{option} {path} and {input} {file} are one file: the output would destroy the input")
}

/// Runs `cmd` and checks that it was refused with exactly `error: <want>`, exit 2 and nothing
/// on stdout.
#[track_caller]
fn refused(cmd: &mut Command, want: &str) {
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(2), &b""[..]),
        "{want}: {err}"
    );
    assert_eq!(err, format!("error: {want}\n"));
}

/// Issue 58 item 5: outputs were appended to whatever they named that was not named on the
/// command line as an input: an engine's program found on PATH or in its `dir=`, the script
/// an interpreter runs, its `BookFile`, a table under `--tb`, a file of another kind. Each is
/// refused with one error, exit 2, and nothing written.
#[test]
fn outputs_refuse_what_the_engines_read_the_tables_and_files_of_another_kind() {
    let dir = scratch("unnamed");
    let bin = dir.join("bin");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(tables.join("english")).unwrap();
    let program = bin.join("myengine");
    std::fs::copy(FAKE, &program).unwrap();
    let book = dir.join("my.book");
    std::fs::write(&book, "BOOK").unwrap();
    let table = tables.join("english/kk.tb");
    std::fs::write(&table, "TABLE").unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let pdn = dir.join("games.pdn");
    std::fs::write(&pdn, "[Event \"old\"]\n1. 9-13 *\n").unwrap();
    let path = format!("{}:{}", s(&bin), std::env::var("PATH").unwrap_or_default());
    let (p, b, t, n, g, tb) = (
        s(&program),
        s(&book),
        s(&table),
        s(&notes),
        s(&pdn),
        s(&tables),
    );
    let d = s(&dir);
    let cases: Vec<(String, Vec<&str>, String)> = vec![
        // The program as the system finds it on PATH.
        (
            "cmd='myengine ok' name=B".into(),
            vec!["--pdn", &p],
            format!("--pdn {p} and --engine {p} are one file: the output would destroy the input"),
        ),
        // A program relative to the engine's own folder.
        (
            format!("cmd='./bin/myengine ok' dir={d} name=B"),
            vec!["--json", &p],
            format!(
                "--json {p} and --engine {d}/./bin/myengine are one file: the output would \
                 destroy the input"
            ),
        ),
        // The script an interpreter runs.
        (
            format!("cmd='bash {p} ok' name=B"),
            vec!["--debug-log", &p],
            format!(
                "--debug-log {p} and --engine {p} are one file: the output would destroy the \
                 input"
            ),
        ),
        (
            format!("cmd='{p} ok' name=B option.BookFile={b}"),
            vec!["--pdn", &b],
            format!(
                "--pdn {b} and --engine option.BookFile {b} are one file: the output would \
                 destroy the input"
            ),
        ),
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--tb", &tb, "--json", &t],
            format!("--json {t} is inside --tb {tb}: the output would destroy its files"),
        ),
        (
            format!("cmd='{p} ok' name=B option.TablebasePath={tb}"),
            vec!["--pdn", &t],
            format!(
                "--pdn {t} is inside --engine option.TablebasePath {tb}: the output would \
                 destroy its files"
            ),
        ),
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--pdn", &n],
            format!("--pdn {n} exists and is not a PDN file: give a new file"),
        ),
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--json", &g],
            format!(
                "--json {g} exists and is not a JSON Lines file of buffgreen match: give a new \
                 file"
            ),
        ),
    ];
    let inputs = || -> Vec<Vec<u8>> {
        [&program, &book, &table, &notes, &pdn]
            .iter()
            .map(|f| std::fs::read(f).unwrap())
            .collect()
    };
    let before = inputs();
    for (spec, extra, want) in cases {
        refused(
            Command::new(BIN)
                .env("PATH", &path)
                .args(against(&spec, &extra)),
            &want,
        );
    }
    assert_eq!(inputs(), before, "an input was written");
    // A PDN of ours is appended to, and so is the JSON Lines file it wrote.
    let json = dir.join("games.json");
    for _ in 0..2 {
        let out = Command::new(BIN)
            .env("PATH", &path)
            .args(against(
                "cmd='myengine ok' name=B",
                &["--games", "2", "--pdn", &g, "--json", &s(&json)],
            ))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 5);
    let lines = std::fs::read_to_string(&json).unwrap();
    assert_eq!(lines.lines().count(), 6);
}

/// `suite --json` replaces its file: only a suite's earlier results, never what the engine
/// reads or a file of another kind.
#[test]
fn suite_json_refuses_the_engine_and_files_of_another_kind() {
    let dir = scratch("suite-json");
    let suite = dir.join("s.txt");
    std::fs::write(&suite, "B:W14,22,30:B9 ; bm 9x25\n").unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (su, n) = (s(&suite), s(&notes));
    let run_suite = |extra: &[&str]| {
        let mut v: Vec<String> = ["suite", "--nodes", "50"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.push(su.clone());
        run(&v)
    };
    let spec = format!("cmd='bash {FAKE} ok'");
    for (extra, want) in [
        (
            vec!["--engine", &spec, "--json", FAKE],
            format!(
                "--json {FAKE} and --engine {FAKE} are one file: the output would destroy the \
                 input"
            ),
        ),
        (
            vec!["--json", &n],
            format!("--json {n} exists and is not a JSON file of buffgreen suite: give a new file"),
        ),
    ] {
        let (code, out, err) = run_suite(&extra);
        assert_eq!((code, out.as_str()), (2, ""), "{extra:?}");
        assert_eq!(err, format!("error: {want}\n"), "{extra:?}");
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // Its own results are replaced.
    let json = s(&dir.join("r.json"));
    for _ in 0..2 {
        let (code, _, err) = run_suite(&["--json", &json]);
        assert_eq!(code, 0, "{err}");
    }
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["total"], 1);
}

/// Issue 58 item 5, the inputs no option names: an output that is a hard link to an engine's
/// program, its script, its `BookFile` or a table slice (made outside the tables folder), and
/// an output inside the default tables folder, which an engine without `TablebasePath` reads.
/// Each is refused with one error, exit 2, nothing written; `play --pdn` is checked the same.
#[test]
fn outputs_refuse_hard_links_to_inputs_and_the_default_tables_folder() {
    let dir = scratch("links");
    let program = dir.join("myengine");
    std::fs::copy(FAKE, &program).unwrap();
    let book = dir.join("my.book");
    std::fs::write(&book, "BOOK").unwrap();
    let tables = dir.join("tables");
    std::fs::create_dir_all(tables.join("english-d80")).unwrap();
    let slice = tables.join("english-d80/kk.tb");
    std::fs::write(&slice, "TABLE").unwrap();
    let home = dir.join("home-tables");
    std::fs::create_dir_all(&home).unwrap();
    let link = |from: &Path, name: &str| {
        let to = dir.join(name);
        std::fs::hard_link(from, &to).unwrap();
        s(&to)
    };
    let (p, b, t, h) = (s(&program), s(&book), s(&tables), s(&home));
    let (lp, lb, ls) = (
        link(&program, "program.pdn"),
        link(&book, "book.json"),
        link(&slice, "slice.pdn"),
    );
    let in_home = s(&home.join("games.pdn"));
    let sl = s(&slice);
    let cases: Vec<(String, Vec<&str>, String)> = vec![
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--pdn", &lp],
            same("--pdn", &lp, "--engine", &p),
        ),
        (
            format!("cmd='bash {p} ok' name=B"),
            vec!["--debug-log", &lp],
            same("--debug-log", &lp, "--engine", &p),
        ),
        (
            format!("cmd='{p} ok' name=B option.BookFile={b}"),
            vec!["--json", &lb],
            same("--json", &lb, "--engine option.BookFile", &b),
        ),
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--tb", &t, "--pdn", &ls],
            same("--pdn", &ls, &format!("{sl} (in --tb"), &format!("{t})")),
        ),
        (
            format!("cmd='{p} ok' name=B option.TablebasePath={t}"),
            vec!["--pdn", &ls],
            same(
                "--pdn",
                &ls,
                &format!("{sl} (in --engine option.TablebasePath"),
                &format!("{t})"),
            ),
        ),
        (
            format!("cmd='{p} ok' name=B"),
            vec!["--pdn", &in_home],
            format!(
                "--pdn {in_home} is inside the default tables folder {h}: the output would \
                 destroy its files"
            ),
        ),
    ];
    let inputs = || -> Vec<Vec<u8>> {
        [&program, &book, &slice]
            .iter()
            .map(|f| std::fs::read(f).unwrap())
            .collect()
    };
    let before = inputs();
    let home_env = buffgreen::tablebase::home::TABLES_ENV;
    for (spec, extra, want) in cases {
        refused(
            Command::new(BIN)
                .env(home_env, &home)
                .args(against(&spec, &extra)),
            &want,
        );
    }
    assert!(!home.join("games.pdn").exists());
    // `play --pdn`: the same checks, before the game starts.
    for (engine, pdn, want) in [
        (
            format!("cmd='{p} ok'"),
            lp.clone(),
            same("--pdn", &lp, "--engine", &p),
        ),
        (
            format!("cmd='{p} ok'"),
            in_home.clone(),
            format!(
                "--pdn {in_home} is inside the default tables folder {h}: the output would \
                 destroy its files"
            ),
        ),
        (
            format!("cmd='{p} ok'"),
            b.clone(),
            format!("--pdn {b} exists and is not a PDN file: give a new file"),
        ),
    ] {
        refused(
            Command::new(BIN)
                .env(home_env, &home)
                .args(["play", "--engine", &engine, "--pdn", &pdn]),
            &want,
        );
    }
    assert_eq!(inputs(), before, "an input was written");
}
