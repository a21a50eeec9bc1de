//! Scripted sessions around `go`: answers during a search, exactly one `bestmove` per `go`,
//! end of input, `quit`, pondering, `info` lines. Which move the search picks is never
//! asserted (the search may change); legality, formats and counts are.

use buffgreen_testkit::protocol as protocol_support;

use buffgreen::board::{fen, notation, Rules};
use protocol_support::{
    assert_legal_bestmove, count_prefix, last_info_line, quit_counting, quit_with_bestmoves,
    replies, Engine, START_FEN,
};

const BUSY: &str = "info string error: a search is already running; send stop first";

/// Checks an `info` line's grammar: `info depth D seldepth S multipv K score (cp X|mate N)
/// [wdl W D L] nodes N nps N time MS [pv m...]`, with the pv a legal line from `fen_text`.
fn check_info(line: &str, fen_text: &str) {
    let t: Vec<&str> = line.split(' ').collect();
    let int = |i: usize| -> i64 {
        t.get(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("number expected at {i} in {line:?}"))
    };
    assert_eq!(t[0], "info", "{line:?}");
    let mut i = 1;
    for key in ["depth", "seldepth", "multipv"] {
        assert_eq!(t[i], key, "{line:?}");
        assert!(int(i + 1) >= 0);
        i += 2;
    }
    assert!(int(6) >= 1, "multipv counts from 1: {line:?}");
    assert_eq!(t[i], "score", "{line:?}");
    assert!(t[i + 1] == "cp" || t[i + 1] == "mate", "{line:?}");
    int(i + 2);
    i += 3;
    if t[i] == "wdl" {
        let sum: i64 = (1..=3).map(|k| int(i + k)).sum();
        assert_eq!(sum, 1000, "wdl is per mille: {line:?}");
        i += 4;
    }
    for key in ["nodes", "nps", "time"] {
        assert_eq!(t[i], key, "{line:?}");
        assert!(int(i + 1) >= 0);
        i += 2;
    }
    if i < t.len() {
        assert_eq!(t[i], "pv", "{line:?}");
        assert!(i + 1 < t.len(), "empty pv: {line:?}");
        let rules = Rules::default();
        let mut pos = fen::parse(fen_text).unwrap();
        for m in &t[i + 1..] {
            let mv = notation::parse_move(&pos, &rules, m)
                .unwrap_or_else(|e| panic!("pv move {m} illegal in {line:?}: {e}"));
            assert_eq!(&mv.to_string(), m);
            pos.play_unchecked(mv);
        }
    }
}

/// The move of the `bestmove` line ending `lines`, checked legal in the start position.
fn legal_at_start(lines: &[String]) -> String {
    assert_legal_bestmove(lines.last().unwrap(), START_FEN, &Rules::default())
}

#[test]
fn timed_search_reports_info_and_one_legal_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves 11-15");
    let out = e.go("go movetime 100");
    let after = "W:W21-32:B1-10,12,15";
    assert_legal_bestmove(out.last().unwrap(), after, &Rules::default());
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(!infos.is_empty(), "at least one info line: {out:#?}");
    for l in &infos {
        if !l.starts_with("info string") {
            check_info(l, after);
        }
    }
    assert_eq!(
        out.len(),
        infos.len() + 1,
        "only info lines before bestmove: {out:#?}"
    );
    let last = infos
        .iter()
        .rev()
        .find(|l| !l.starts_with("info string"))
        .expect("a final info line");
    assert!(last.contains(" pv "), "final info has a pv: {last}");
}

#[test]
fn isready_and_stop_are_answered_during_go_infinite() {
    let mut e = Engine::start();
    e.send("go infinite");
    for _ in 0..3 {
        let before = e.sync();
        assert_eq!(count_prefix(&before, "bestmove"), 0, "{before:#?}");
    }
    assert!(e.ask("d").len() > 10, "d works during a search");
    let out = e.stop();
    legal_at_start(&out);
    quit_counting(e, 1, 0);
}

#[test]
fn bare_go_searches_until_stop_and_a_foreign_clock_moves_at_once() {
    let mut e = Engine::start();
    e.send("go");
    assert_eq!(count_prefix(&e.sync(), "bestmove"), 0);
    let out = e.stop();
    legal_at_start(&out);
    // A clock for the other side only makes the mover's clock zero: it moves at once,
    // without a `stop` (a GUI that mixed up the colours must not hang).
    let out = e.go("go wtime 1000 winc 10");
    assert_eq!(
        count_prefix(&out, "info string no btime for the side to move (black)"),
        1,
        "{out:#?}"
    );
    legal_at_start(&out);
    quit_with_bestmoves(e, 2);
}

#[test]
fn exactly_one_bestmove_per_go() {
    let mut e = Engine::start();
    // Several finite searches in a row.
    for go in [
        "go nodes 1",
        "go nodes 20",
        "go movetime 10",
        "go btime 200 wtime 200 binc 0",
    ] {
        let out = e.go(go);
        legal_at_start(&out);
    }
    // stop twice, and a new go while searching is refused. The running search may print
    // its own lines (`info string reused ...`, periodic `info`) at any moment, so only the
    // replies to the commands are compared.
    e.send("go infinite");
    assert_eq!(replies(e.ask("go nodes 1")), [BUSY]);
    assert_eq!(replies(e.ask("go perft 1")), [BUSY]);
    assert_eq!(replies(e.ask("bench 1")), [BUSY]);
    e.send("stop");
    e.stop();
    // stop and ponderhit without a search do nothing.
    assert!(e.ask("stop").is_empty());
    assert!(e.ask("ponderhit").is_empty());
    e.go("go nodes 1");
    quit_counting(e, 6, 3);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::start();
    for _ in 0..3 {
        assert_eq!(
            e.go("go nodes 30 searchmoves 11-15")
                .last()
                .unwrap()
                .split(' ')
                .nth(1),
            Some("11-15")
        );
    }
    let out = e.go("go nodes 30 searchmoves 9-13 12-16");
    let mv = legal_at_start(&out);
    assert!(mv == "9-13" || mv == "12-16", "{mv}");
}

#[test]
fn finished_game_gives_bestmove_none() {
    let mut e = Engine::start();
    e.send("position fen B:W18:B");
    assert_eq!(e.go("go nodes 10").last().unwrap(), "bestmove none");
    // Drawn by the clock.
    e.send("setoption name DrawHalfMoves value 2");
    e.send("position fen B:WK32:BK1 moves 1-5 32-27");
    assert_eq!(e.go("go movetime 10").last().unwrap(), "bestmove none");
    // An infinite search holds even that answer until stop: it is still running after any
    // number of round trips, so a new go is refused.
    e.send("go infinite");
    for _ in 0..20 {
        assert_eq!(count_prefix(&e.sync(), "bestmove"), 0);
    }
    assert_eq!(e.ask("go nodes 1"), [BUSY]);
    assert_eq!(e.stop().last().unwrap(), "bestmove none");
    quit_with_bestmoves(e, 3);
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves 11-15 23-19");
    e.send("go ponder movetime 50");
    assert_eq!(count_prefix(&e.sync(), "bestmove"), 0, "pondering waits");
    e.send("ponderhit");
    let out = e.until_bestmove();
    let fen_after = "B:W19,21,22,24-32:B1-10,12,15";
    assert_legal_bestmove(out.last().unwrap(), fen_after, &Rules::default());
    e.send("go ponder wtime 10000 btime 10000");
    assert_eq!(count_prefix(&e.sync(), "bestmove"), 0);
    let out = e.stop();
    assert_legal_bestmove(out.last().unwrap(), fen_after, &Rules::default());
    quit_with_bestmoves(e, 2);
}

#[test]
fn position_during_search_ends_it_first() {
    let mut e = Engine::start();
    // Unbounded: stopped, its bestmove printed, then the new position applies.
    e.send("go infinite");
    e.send("position startpos moves 10-14");
    let out = e.until_bestmove();
    legal_at_start(&out);
    assert_eq!(
        e.fen(),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,14"
    );
    // Finite: waited for.
    e.send("go nodes 10");
    e.send("position startpos");
    let out = e.until_bestmove();
    assert_legal_bestmove(
        out.last().unwrap(),
        "W:W21-32:B1-9,11,12,14",
        &Rules::default(),
    );
    assert!(e.fen().starts_with("B:"));
    // A refused position leaves the search alone.
    e.send("go infinite");
    assert_eq!(
        replies(e.ask("position fen nonsense")),
        ["info string error: bad FEN: bad turn 'n': expected B or W"]
    );
    e.send("setoption name Hash value 8");
    e.until_bestmove();
    quit_with_bestmoves(e, 3);
}

#[test]
fn quit_during_search_prints_bestmove_and_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.sync();
    let all = e.quit_ok();
    assert_eq!(count_prefix(&all, "bestmove"), 1, "{all:#?}");
    assert!(all.last().unwrap().starts_with("bestmove"));
}

fn piped(script: &str) -> (Vec<String>, std::process::ExitStatus) {
    let mut e = Engine::start();
    e.send_raw(script.as_bytes());
    e.close_input();
    e.finish()
}

#[test]
fn piped_input_ending_right_after_go() {
    let (all, status) = piped("position startpos\ngo movetime 200\n");
    assert!(status.success());
    assert!(count_prefix(&all, "info ") >= 1, "{all:#?}");
    assert_eq!(count_prefix(&all, "bestmove"), 1, "{all:#?}");
    legal_at_start(&all);
    // No newline after the last command.
    let (all, status) = piped("position startpos moves 9-13\ngo nodes 5");
    assert!(status.success());
    assert_legal_bestmove(
        all.last().unwrap(),
        "W:W21-32:B1-8,10-13",
        &Rules::default(),
    );
    // Two positions and searches in one pipe: the second position waits for the first search.
    let (all, status) = piped("go movetime 20\nposition startpos moves 12-16\ngo movetime 20\n");
    assert!(status.success());
    assert_eq!(count_prefix(&all, "bestmove"), 2, "{all:#?}");
    assert_legal_bestmove(all.last().unwrap(), "W:W21-32:B1-11,16", &Rules::default());
}

#[test]
fn end_of_input_stops_unbounded_searches() {
    for script in [
        "go infinite\n",
        "go ponder\n",
        "go ponder movetime 100\n",
        "go\n",
    ] {
        let (all, status) = piped(script);
        assert!(status.success(), "{script}");
        assert_eq!(count_prefix(&all, "bestmove"), 1, "{script}: {all:#?}");
        legal_at_start(&all);
    }
    let (all, status) = piped("uci\nisready\n");
    assert!(status.success());
    assert_eq!(all.last().unwrap(), "readyok");
}

#[test]
fn bench_command_prints_its_two_lines() {
    let mut e = Engine::start();
    // Bench runs on the search thread: its reply ends with the rate line.
    e.send("bench 5");
    let out = e.recv_until(|l| l.starts_with("Nodes/second: "));
    protocol_support::bench_nodes(&out);
    // The node count is a signature: the same settings give the same count.
    e.send("bench 5");
    let again = e.recv_until(|l| l.starts_with("Nodes/second: "));
    assert_eq!(again[0], out[0]);
}

/// Issue 40 item 7: the input is read while a search with a finite limit runs. A `position`,
/// `setoption` or `ucinewgame` sent during `go movetime 60000` waits for that search (it runs
/// right after its bestmove) without holding up the input: `isready` is answered before the
/// bestmove. With `Threads 256` too.
#[test]
fn commands_wait_for_a_finite_search_and_isready_does_not() {
    for (setup, cmd) in [
        ("", "position startpos moves 11-15"),
        ("", "setoption name MultiPV value 2"),
        ("", "ucinewgame"),
        (
            "setoption name Threads value 256",
            "position startpos moves 11-15",
        ),
    ] {
        let mut e = Engine::start();
        if !setup.is_empty() {
            assert!(e.ask(setup).is_empty());
        }
        e.send("go movetime 60000");
        e.send(cmd);
        e.send("isready");
        let before = e.recv_until(|l| l == "readyok" || l.starts_with("bestmove"));
        assert_eq!(before.last().unwrap(), "readyok", "{cmd}: {before:#?}");
        let out = e.stop();
        // The search was of the position before the command.
        legal_at_start(&out);
        if cmd.starts_with("position") {
            assert_eq!(
                e.fen(),
                "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
            );
        }
        let all = e.quit_ok();
        assert_eq!(count_prefix(&all, "bestmove"), 1, "{cmd}: {all:#?}");
        assert_eq!(
            count_prefix(&all, "info string error"),
            0,
            "{cmd}: {all:#?}"
        );
    }
}

/// Issue 40 item 7: a finite `go` that arrives during a finite search runs after it, in a pipe
/// (`printf 'position startpos\ngo movetime 200\ngo movetime 200\n' | buffgreen`) and with the
/// input open; each answers its own position.
#[test]
fn a_finite_go_during_a_finite_search_runs_after_it() {
    let (all, status) = piped("position startpos\ngo movetime 200\ngo movetime 200\n");
    assert!(status.success());
    assert_eq!(count_prefix(&all, "bestmove"), 2, "{all:#?}");
    assert_eq!(count_prefix(&all, "info string error"), 0, "{all:#?}");
    let mut e = Engine::start();
    e.send("go movetime 100");
    e.send("position startpos moves 9-13");
    let first = e.go("go nodes 50");
    legal_at_start(&first);
    let second = e.until_bestmove();
    assert_legal_bestmove(
        second.last().unwrap(),
        "W:W21-32:B1-8,10-13",
        &Rules::default(),
    );
    let (all, _) = e.quit();
    assert_eq!(count_prefix(&all, "info string error"), 0, "{all:#?}");
}

/// Issue 58 item 1: the end of input no longer ends a finite search: it runs to its limit
/// (`tests/protocol/script.rs` has the rest of the script contract).
#[test]
fn end_of_input_lets_a_node_limit_run_to_its_end() {
    let (all, status) = piped("go nodes 20000\n");
    assert!(status.success());
    assert_eq!(count_prefix(&all, "bestmove"), 1, "{all:#?}");
    assert!(last_info_line(&all).contains(" nodes 20000 "), "{all:#?}");
    legal_at_start(&all);
}

/// Issue 58 item 2: the search tree's memory is taken without being written, so `Hash 4096`
/// costs nothing at `isready` or at the first `go`: the engine's resident memory stays far
/// below the size asked for until a search grows the tree into it.
#[cfg(target_os = "linux")]
#[test]
fn a_large_hash_is_not_written_at_set_up() {
    let resident_kib = |e: &Engine| -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/<pid>/status")
    };
    let mut e = Engine::start();
    e.send("setoption name Hash value 4096");
    e.sync();
    assert!(resident_kib(&e) < 512 << 10, "{} KiB", resident_kib(&e));
    // A short search touches only the part of the tree it grows into.
    e.go("go nodes 20000");
    assert!(resident_kib(&e) < 512 << 10, "{} KiB", resident_kib(&e));
    e.quit_ok();
}
