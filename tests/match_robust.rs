//! `buffgreen match` never loses or fakes results (issue 23, item 1): each repro of the issue
//! as an assertion, against the fake engine (tests/data/engines/fake.sh) run as a subprocess.

use buffgreen_testkit::assert_contains;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use buffgreen::tourney::pdn;

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

/// A fresh directory for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bg-robust-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `buffgreen match` between two fake engines (`modes`) that know one game from the start.
fn command(modes: [&str; 2], extra: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.arg("match");
    for (mode, name) in modes.iter().zip(["A", "B"]) {
        c.args(["--engine", &format!("cmd='{FAKE} {mode}' name={name}")]);
    }
    c.args(["--nodes", "1"]);
    if !extra.contains(&"--random-plies") && !extra.contains(&"--openings") {
        c.args(["--random-plies", "0"]);
    }
    c.args(extra);
    c
}

/// Runs it; exit code, stdout, stderr.
fn run(modes: [&str; 2], extra: &[&str]) -> (i32, String, String) {
    let out = command(modes, extra).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn games_in(path: &Path) -> Vec<pdn::PdnGame> {
    pdn::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn pdn_is_appended_and_never_the_openings_file() {
    let dir = temp("append");
    let path = dir.join("games.pdn");
    let p = path.to_str().unwrap();
    for _ in 0..2 {
        let (code, _, err) = run(["ok", "ok"], &["--games", "2", "--quiet", "--pdn", p]);
        assert_eq!(code, 0, "{err}");
    }
    // The second run added its two games after the first run's two.
    assert_eq!(games_in(&path).len(), 4);

    // `--pdn deck --openings deck` is refused before anything is written.
    let deck = dir.join("deck.txt");
    std::fs::write(&deck, "9-13 23-18 12-16\n").unwrap();
    let d = deck.to_str().unwrap();
    let (code, out, err) = run(["ok", "ok"], &["--pdn", d, "--openings", d]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "error: --pdn {d} is the openings file: the games would be written into the deck\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(&deck).unwrap(),
        "9-13 23-18 12-16\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn closed_stdout_or_stderr_loses_no_game() {
    let dir = temp("pipes");
    // A match whose stdout or stderr is closed early (`match ... | head -c0`), with `games`
    // games: its exit status and output; every game is played and written all the same.
    let played = |name: &str, games: &str, close_stdout: bool, quiet: &[&str]| {
        let path = dir.join(name);
        let mut args = vec!["--games", games, "--pdn", path.to_str().unwrap()];
        args.extend(quiet);
        let mut child = command(["ok", "ok"], &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if close_stdout {
            drop(child.stdout.take());
        } else {
            drop(child.stderr.take());
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(games_in(&path).len().to_string(), games);
        out
    };
    // Stdout closed before the table is printed.
    let out = played("out.pdn", "4", true, &["--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    // Progress on a closed stderr: the table is still printed.
    let out = played("err.pdn", "6", false, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Games: 6 of 6 in "));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_openings_longer_than_any_game_are_refused() {
    let (code, out, err) = run(["ok", "ok"], &["--random-plies", "160"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: --random-plies 160: 1000 random lines all ended the game before 160 moves; \
         give fewer plies\n"
    );
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A quiet match of the script `first` (named `name`) against the fake engine.
fn script_match(first: &Path, name: &str, extra: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args([
            "match",
            "--engine",
            &format!("cmd={} name={name}", first.display()),
        ])
        .args(["--engine", &format!("cmd='{FAKE} ok' name=other")])
        .args(["--nodes", "1", "--random-plies", "0", "--quiet"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn an_engine_that_cannot_be_restarted_forfeits_and_the_match_finishes() {
    let dir = temp("restart");
    // Runs once: removes itself, then crashes when asked to move.
    let once = dir.join("once.sh");
    script(&once, &format!("rm -f \"$0\"\nexec {FAKE} crash\n"));
    let path = dir.join("games.pdn");
    let out = script_match(
        &once,
        "gone",
        &["--games", "4", "--pdn", path.to_str().unwrap()],
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(table.starts_with("Games: 4 of 4 in "), "{table}");
    assert_contains(&table, "Faults of gone: crash 1, start failure 3\n");
    let games = games_in(&path);
    let terms: Vec<_> = games
        .iter()
        .map(|g| g.tag("Termination").unwrap())
        .collect();
    assert_eq!(terms[0], "crash: Black's engine exited");
    for t in &terms[1..] {
        assert!(t.starts_with("start failure: "), "{t}");
        assert!(t.contains("'s engine: cannot start engine 'gone'"), "{t}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// True while process `pid` runs (a zombie waiting for a reaper counts as ended).
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|s| !s.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn processes_a_wrapper_starts_end_with_the_match() {
    let dir = temp("group");
    let wrapper = dir.join("wrapper.sh");
    let pids = dir.join("pids");
    script(
        &wrapper,
        &format!(
            "sleep 300 &\necho $! >> {}\nexec {FAKE} ok\n",
            pids.display()
        ),
    );
    let out = script_match(&wrapper, "w", &["--games", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let started = std::fs::read_to_string(&pids).unwrap();
    let started: Vec<&str> = started.lines().collect();
    assert_eq!(started.len(), 1);
    assert!(
        !running(started[0]),
        "the wrapper's sleep {} survived",
        started[0]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A self-match of the real engine: 6 games of one opening at 30 nodes (`options` for both).
fn self_match(options: &str) -> (i32, String, String) {
    let dir = temp(&format!("seed{}", options.len()));
    let deck = dir.join("one.tsv");
    std::fs::write(&deck, "10-14 22-18 11-16\n").unwrap();
    let out = Command::new(BIN)
        .args(["match", "--engine", &format!("cmd={BIN} name=a {options}")])
        .args(["--engine", &format!("cmd={BIN} name=b {options}")])
        .args([
            "--nodes",
            "30",
            "--games",
            "6",
            "--adjudicate-draw-after",
            "40",
        ])
        .args(["--quiet", "--openings", deck.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn repeated_games_are_flagged_and_seeds_vary_per_game() {
    // A fixed Seed for both: every game is the first one again, and the runner says so.
    let (code, out, err) = self_match("option.Seed=1");
    assert_eq!(code, 0, "{err}");
    let want: String = (2..=6)
        .map(|g| {
            format!(
                "warning: game {g} repeats game 1 move for move: it is not an independent result\n"
            )
        })
        .collect();
    assert_eq!(err, want);
    assert!(out.contains("\nRepeated games: 5 (a game played move for move before counts again)\n"));
    // No Seed given: each game gets seeds of its own, and the six games differ.
    let (code, out, err) = self_match("");
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(!out.contains("Repeated games"), "{out}");
}

#[test]
fn ctrl_c_prints_the_table_of_the_finished_games() {
    let dir = temp("sigint");
    let path = dir.join("games.pdn");
    let child = command(
        ["ok", "ok"],
        &[
            "--games",
            "1000",
            "--quiet",
            "--pdn",
            path.to_str().unwrap(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Wait (without a time limit on the result) until two games are in the PDN.
    while std::fs::read_to_string(&path).map_or(0, |t| t.matches("[Event ").count()) < 2 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{table}");
    let done = games_in(&path).len();
    assert!(done < 1000);
    assert!(
        table.starts_with(&format!("Games: {done} of 1000 in ")),
        "{done} games in the PDN\n{table}"
    );
    assert!(table.contains(&format!(
        "\nInterrupted: the table counts the {done} games finished\n"
    )));
    std::fs::remove_dir_all(&dir).unwrap();
}
