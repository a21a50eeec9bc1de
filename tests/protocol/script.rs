//! The script contract (issue 58 items 1 and 3): lines take effect in order, as if each waited
//! for the one before; a finite search runs to its limit whether or not the input has ended; at
//! the end of input the engine finishes what runs and waits, then exits 0; `quit` waits for what
//! was sent before it; `isready`, `stop` and `quit` are answered however many commands wait; an
//! engine whose output is gone exits.
//!
//! Nothing here measures time: every wait is for an expected line or exit, under the testkit's
//! generous timeout, which only turns a hang into a failure.

use buffgreen_testkit::protocol as protocol_support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use protocol_support::{count_prefix, Engine, TIMEOUT};

/// Test positions of a script, Buff and Green rules, each searched by a `nodes` limit.
const POSITIONS: [&str; 4] = [
    "B:W21-32:B1-12",
    "W:W18,21-32:B1-11,15",
    "B:W19,22,24-32:B1-10,12,14",
    "B:W18,20,21,23,25-32:B1-8,10,11,13,16",
];

/// The iterations of each `go nodes` of the script.
const NODES: u64 = 3000;

/// The depth of the script's `go depth`.
const DEPTH: u64 = 5;

/// A script as a user would pipe it in: a fixed seed, then per position `position fen` and
/// `go nodes`, then one `go depth`.
fn script() -> Vec<String> {
    let mut lines = vec!["setoption name Seed value 7".to_string()];
    for fen in POSITIONS {
        lines.push(format!("position fen {fen}"));
        lines.push(format!("go nodes {NODES}"));
    }
    lines.push(format!("position fen {}", POSITIONS[1]));
    lines.push(format!("go depth {DEPTH}"));
    lines
}

/// Everything `script` prints when piped in whole with its input closed at once (as
/// `buffgreen < file` does), and the exit status.
fn piped(script: &[String]) -> (Vec<String>, std::process::ExitStatus) {
    let mut e = Engine::start();
    let text: String = script.iter().map(|l| format!("{l}\n")).collect();
    e.send_raw(text.as_bytes());
    e.close_input();
    e.finish()
}

/// The value after `key` in an `info` line.
fn field(line: &str, key: &str) -> u64 {
    let t: Vec<&str> = line.split(' ').collect();
    let i = t
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("no {key} in {line:?}"));
    t[i + 1]
        .parse()
        .unwrap_or_else(|_| panic!("{key} is no number in {line:?}"))
}

/// Per search: its last `info` line before the `bestmove` with the timing fields (`nps`,
/// `time`) taken out, and the `bestmove` line. What a search with a fixed seed and a `nodes`
/// or `depth` limit prints there does not depend on timing.
fn searches(lines: &[String]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut last_info = None;
    for l in lines {
        if l.starts_with("info depth") {
            let t: Vec<&str> = l.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < t.len() {
                if t[i] == "nps" || t[i] == "time" {
                    i += 2;
                } else {
                    kept.push(t[i]);
                    i += 1;
                }
            }
            last_info = Some(kept.join(" "));
        } else if l.starts_with("bestmove") {
            let info = last_info
                .take()
                .unwrap_or_else(|| panic!("no info before {l}"));
            found.push((info, l.clone()));
        }
    }
    found
}

#[test]
fn a_piped_file_of_positions_gets_full_searches() {
    let script = script();
    let (all, status) = piped(&script);
    assert!(status.success(), "{status:?}: {all:#?}");
    assert_eq!(count_prefix(&all, "info string error"), 0, "{all:#?}");
    let got = searches(&all);
    assert_eq!(got.len(), POSITIONS.len() + 1, "{all:#?}");
    for (info, _) in &got[..POSITIONS.len()] {
        assert_eq!(field(info, "nodes"), NODES, "{info}");
    }
    let (info, _) = &got[POSITIONS.len()];
    assert!(field(info, "depth") >= DEPTH, "{info}");
    // The same lines sent one at a time, each search waited for, print the same searches:
    // same seed and limits, same moves and node counts.
    let mut e = Engine::start();
    for line in &script {
        if line.starts_with("go") {
            e.go(line);
        } else {
            e.send(line);
        }
    }
    let one_by_one = searches(&e.quit_ok());
    assert_eq!(got, one_by_one);
}

#[test]
fn a_piped_perft_counts_in_full() {
    // The figure of the project's own perft table: the start position, 6 plies, default rules.
    let table =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt"))
            .expect("tests/data/perft.txt");
    let want: u64 = table
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            (f.len() == 4 && f[0] == "default" && f[1] == "B:W21-32:B1-12" && f[2] == "6")
                .then(|| f[3].parse().expect("a count"))
        })
        .expect("the default start position's perft 6 in tests/data/perft.txt");
    let (all, status) = piped(&["position startpos".to_string(), "go perft 6".to_string()]);
    assert!(status.success(), "{status:?}");
    assert_eq!(
        all.last().unwrap(),
        &format!("Nodes searched: {want}"),
        "{all:#?}"
    );
    let sum: u64 = all
        .iter()
        .filter_map(|l| l.split_once(": ").filter(|(m, _)| m.contains('-')))
        .map(|(_, n)| n.parse::<u64>().expect("a count"))
        .sum();
    assert_eq!(sum, want, "{all:#?}");
    assert_eq!(count_prefix(&all, "info string"), 0, "{all:#?}");
}

#[test]
fn quit_waits_for_the_commands_sent_before_it() {
    // A search that ends only by `stop` runs first, so the commands after it surely wait,
    // whatever the machine's pace; `stop` ends it, and `quit` comes after the waiting ones.
    let mut e = Engine::start();
    e.send("go nodes 18446744073709551615");
    e.sync();
    for line in [
        "go nodes 2000",
        "go perft 5",
        "go nodes 2000",
        "stop",
        "quit",
        "go nodes 5",
    ] {
        e.send(line);
    }
    // Input left open: `quit` ends the session, not the end of input.
    let (all, status) = e.finish_open();
    assert!(status.success(), "{status:?}");
    let got = searches(&all);
    assert_eq!(got.len(), 3, "the go after quit never runs: {all:#?}");
    for (info, _) in &got[1..] {
        assert_eq!(field(info, "nodes"), 2000, "{info}");
    }
    assert!(
        all.contains(&"Nodes searched: 7482".to_string()),
        "{all:#?}"
    );
}

#[test]
fn the_end_of_input_stops_only_searches_that_would_never_end() {
    let (all, status) = piped(&[
        "go nodes 2000".to_string(),
        "go infinite".to_string(),
        "d".to_string(),
    ]);
    assert!(status.success(), "{status:?}");
    assert_eq!(count_prefix(&all, "bestmove"), 2, "{all:#?}");
    assert_eq!(count_prefix(&all, "Fen: "), 1, "{all:#?}");
    let got = searches(&all);
    assert_eq!(field(&got[0].0, "nodes"), 2000, "{all:#?}");
    // A lone `quit` ends a search with a finite limit at once: nothing waits before it.
    let mut e = Engine::start();
    e.send("go nodes 18446744073709551615");
    e.send("quit");
    let (all, status) = e.finish_open();
    assert!(status.success(), "{status:?}");
    assert_eq!(count_prefix(&all, "bestmove"), 1, "{all:#?}");
}

/// Sends `go nodes 18446744073709551615` (a search that ends only by `stop`) followed by
/// `waiting` commands, and checks that `isready` is still answered before anything of them.
fn deep_search_with_waiting(waiting: &[String]) -> Engine {
    let mut e = Engine::start();
    e.send("go nodes 18446744073709551615");
    for line in waiting {
        e.send(line);
    }
    e.send("isready");
    let before = e.recv_until(|l| l == "readyok");
    assert_eq!(count_prefix(&before, "bestmove"), 0, "{before:#?}");
    assert_eq!(count_prefix(&before, "Fen: "), 0, "{before:#?}");
    e
}

#[test]
fn a_hundred_waiting_commands_leave_isready_stop_and_quit_answered() {
    let mut waiting = Vec::new();
    for _ in 0..50 {
        waiting.push("position startpos moves 11-15".to_string());
        waiting.push("d".to_string());
    }
    let mut endless = waiting.clone();
    endless.push("go nodes 18446744073709551615".to_string());
    let mut e = deep_search_with_waiting(&endless);
    // `stop` ends the running search only: the waiting commands then run, in order.
    e.send("stop");
    let first = e.until_bestmove();
    assert_eq!(count_prefix(&first, "Fen: "), 0, "{first:#?}");
    let mut diagrams = 0;
    while diagrams < 50 {
        if e.recv().starts_with("Fen: W:") {
            diagrams += 1;
        }
    }
    // The last waiting command, a second endless search, started right after the last
    // diagram; the next `stop` ends it.
    e.send("isready");
    e.recv_until(|l| l == "readyok");
    e.send("stop");
    e.until_bestmove();
    let (all, status) = e.quit();
    assert!(status.success(), "{status:?}");
    assert_eq!(count_prefix(&all, "bestmove"), 2, "{all:#?}");
    // `quit` behind 100 waiting commands runs after them, once `stop` has ended the search.
    let mut e = deep_search_with_waiting(&waiting);
    e.send("stop");
    e.send("quit");
    let (all, status) = e.finish_open();
    assert!(status.success(), "{status:?}");
    assert_eq!(count_prefix(&all, "Fen: W:"), 50, "{all:#?}");
    assert_eq!(count_prefix(&all, "bestmove"), 1, "{all:#?}");
}

#[test]
fn the_end_of_input_behind_a_hundred_waiting_searches_runs_them_all() {
    let mut script = vec!["go nodes 5000".to_string()];
    for i in 0..100 {
        script.push(format!("go nodes {}", 50 + i));
    }
    let (all, status) = piped(&script);
    assert!(status.success(), "{status:?}");
    let got = searches(&all);
    assert_eq!(got.len(), 101, "{all:#?}");
    assert_eq!(field(&got[0].0, "nodes"), 5000);
    for (i, (info, _)) in got[1..].iter().enumerate() {
        assert_eq!(field(info, "nodes"), 50 + i as u64, "{info}");
    }
}

#[test]
fn an_engine_whose_output_is_gone_exits() {
    for search in ["go nodes 18446744073709551615", "go infinite"] {
        let mut child = Command::new(protocol_support::binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start buffgreen");
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{search}").expect("write");
        stdin.flush().expect("flush");
        // One line read, then the reader goes away; the input stays open.
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("a line");
        assert!(line.starts_with("info "), "{line:?}");
        drop(out);
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{search}: the engine searched on with nobody reading");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(2), "{search}");
        drop(stdin);
    }
}
