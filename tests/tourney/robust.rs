//! `buffgreen match` never loses or fakes results (issue 23, item 1): each repro of the issue
//! as an assertion, against the fake engine (tests/data/engines/fake.sh) run as a subprocess.
//! The two repros about memory (a line without end, a huge schedule) are in
//! tests/match_memory.rs, which measures the runner's peak memory.

use buffgreen_testkit::assert_contains;
use buffgreen_testkit::process::outcome;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use buffgreen_tourney::pdn;

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
    outcome(&mut command(modes, extra))
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
            "error: --pdn {d} and --openings {d} are one file: the output would destroy the \
             input\n"
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
    // SIGKILL to the group is delivered at once, but a busy machine may take a moment to
    // schedule the sleep's exit: wait for it, bounded, rather than race it.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while running(started[0]) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !running(started[0]),
        "the wrapper's sleep {} survived",
        started[0]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A quiet self-match of the real engine at 30 nodes, drawn after 40 plies, with `options`
/// for both engines and the arguments `extra`: exit code, stdout, stderr.
fn self_match(options: &str, extra: &[&str]) -> (i32, String, String) {
    outcome(
        Command::new(BIN)
            .args(["match", "--engine", &format!("cmd={BIN} name=a {options}")])
            .args(["--engine", &format!("cmd={BIN} name=b {options}")])
            .args(["--nodes", "30", "--adjudicate-draw-after", "40", "--quiet"])
            .args(extra),
    )
}

/// [`self_match`] of 6 games of one opening, in losing checkers: its leaves are random
/// playouts, so the engine's seed varies its games (under rules with a learned network the
/// search is the same whatever the seed, and the games of one opening and colour repeat).
fn one_opening(options: &str) -> (i32, String, String) {
    let dir = temp(&format!("seed{}", options.len()));
    let deck = dir.join("one.tsv");
    std::fs::write(&deck, "10-14 22-18 11-16\n").unwrap();
    let r = self_match(
        options,
        &[
            "--games",
            "6",
            "--losing",
            "--openings",
            deck.to_str().unwrap(),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
    r
}

#[test]
fn repeated_games_are_flagged_and_seeds_vary_per_game() {
    // A fixed Seed for both: every game is the first one again, and the runner says so.
    let (code, out, err) = one_opening("option.Seed=1");
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
    let (code, out, err) = one_opening("");
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(!out.contains("Repeated games"), "{out}");
}

/// The rounds of a PDN's games, in file order.
fn rounds(games: &[pdn::PdnGame]) -> Vec<usize> {
    games
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect()
}

#[test]
fn ctrl_c_prints_the_table_and_resume_completes_the_schedule() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let dir = temp("sigint");
    let path = dir.join("games.pdn");
    let gate = dir.join("gate");
    let log = dir.join("io.log");
    // A plays two games freely and then thinks until the gate file exists: the match cannot
    // finish a third game before Ctrl-C, so exactly two games are done.
    let run_of = |extra: &[&str]| {
        let mut c = Command::new(BIN);
        c.args(["match", "--engine"])
            .arg(format!("cmd='{FAKE} gate={} 2' name=A", gate.display()))
            .args(["--engine", &format!("cmd='{FAKE} ok' name=B")])
            .args(["--nodes", "1", "--random-plies", "0", "--games", "8"])
            .args(["--concurrency", "1", "--quiet", "--pdn"])
            .arg(&path)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    };
    let child = run_of(&[]).spawn().unwrap();
    // Wait (without a time limit on the result) until two games are in the PDN.
    while std::fs::read_to_string(&path).map_or(0, |t| t.matches("[Event ").count()) < 2 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{table}");
    assert!(table.starts_with("Games: 2 of 8 in "), "{table}");
    // One pair: A won with one colour and lost with the other (the fixed game).
    assert_contains(&table, "\nPairs for A (LL LD DD/WL DW WW): 0 0 1 0 0\n");
    assert_contains(
        &table,
        "\nInterrupted: the table counts the 2 games finished\n",
    );
    let first = std::fs::read_to_string(&path).unwrap();
    assert_eq!(rounds(&games_in(&path)), [1, 2]);

    // The same command with --resume plays the six games left, not the two finished.
    std::fs::write(&gate, "").unwrap();
    let out = run_of(&["--resume", "--debug-log", log.to_str().unwrap()])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(table.starts_with("Games: 8 of 8 in "), "{table}");
    assert_contains(&table, "\nPairs for A (LL LD DD/WL DW WW): 0 0 4 0 0\n");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(&first),
        "the finished games were rewritten"
    );
    assert_eq!(rounds(&games_in(&path)), (1..=8).collect::<Vec<_>>());
    // Two engines start each game it played: six games.
    let started = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        started
            .lines()
            .filter(|l| l.ends_with(": ucinewgame"))
            .count(),
        12
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_openings_gives_varied_games_the_same_seed_repeats() {
    // The repro: with no openings, 8 of 8 games of a self-match were one game. Losing
    // checkers, whose playouts make the seed matter (see `one_opening`).
    let dir = temp("noopen");
    let mut played = Vec::new();
    for run in ["1", "2"] {
        let path = dir.join(format!("{run}.pdn"));
        let (code, table, err) = self_match(
            "",
            &[
                "--games",
                "8",
                "--losing",
                "--seed",
                "5",
                "--pdn",
                path.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{table}");
        // No warning of a repeated game, and the table counts none.
        assert_eq!(err, "");
        assert!(!table.contains("Repeated games"), "{table}");
        played.push(games_in(&path));
    }
    let moves: Vec<&Vec<String>> = played[0].iter().map(|g| &g.moves).collect();
    let distinct: std::collections::HashSet<_> = moves.iter().collect();
    assert_eq!(distinct.len(), 8);
    // Each opening twice, colours reversed, then the next opening of the deck.
    let openings: Vec<&str> = played[0]
        .iter()
        .map(|g| g.tag("Opening").unwrap())
        .collect();
    for pair in openings.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    let distinct: std::collections::HashSet<_> = openings.iter().collect();
    assert_eq!(distinct.len(), 4);
    // Same --seed, same games.
    let again: Vec<&Vec<String>> = played[1].iter().map(|g| &g.moves).collect();
    assert_eq!(moves, again);
    std::fs::remove_dir_all(&dir).unwrap();
}
