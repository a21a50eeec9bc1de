//! Hostile and careless input that once crashed or deafened the engine: a line far beyond any
//! command (memory), long `go perft` and `bench` runs (`isready`, `stop`, `quit` answered
//! while they run), a `go` that gives only the opponent a clock; and the commands GUIs expect
//! (`eval`, `debug`, `Clear Hash`, `d` with the side to move and pending captures).
//!
//! "Answered at once" is checked as "answered before a generous bound" ([`PROMPT`]): a deaf
//! engine never answers, so the bound only has to be finite to tell the two apart.

use buffgreen_testkit::protocol as protocol_support;

use std::process::Command;
use std::time::{Duration, Instant};

use buffgreen::board::Rules;
use protocol_support::{
    assert_legal_bestmove, count_prefix, lines, quit_counting, Engine, START_FEN,
};

/// How long an answer that must come "at once" may take on a slow, busy machine.
const PROMPT: Duration = Duration::from_secs(5);

/// The next line within [`PROMPT`].
fn prompt(e: &mut Engine) -> String {
    let start = Instant::now();
    let line = e.recv();
    assert!(
        start.elapsed() < PROMPT,
        "{line:?} took {:?}",
        start.elapsed()
    );
    line
}

#[test]
fn a_100_mib_line_under_a_400_mib_address_space_is_refused_and_the_engine_goes_on() {
    // `ulimit -v` caps the engine's whole address space at 400 MiB: storing the line, let
    // alone a copy per token, would abort it.
    let mut e = Engine::spawn(Command::new("sh").args([
        "-c",
        "ulimit -v 409600 && exec \"$0\"",
        env!("CARGO_BIN_EXE_buffgreen"),
    ]));
    e.send_raw(b"position startpos moves");
    let chunk = " a".repeat(1 << 19); // 1 MiB
    for _ in 0..100 {
        e.send_raw(chunk.as_bytes());
    }
    e.send_raw(b"\nisready\nposition startpos moves 11-15\nd\nquit\n");
    let (got, status) = e.finish();
    assert!(status.success(), "{status:?}: {got:#?}");
    assert_eq!(
        got[..2],
        lines(&[
            "info string error: line too long: more than 1048576 bytes; ignored",
            "readyok"
        ])
    );
    assert!(got.contains(
        &"Fen: W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15".to_string()
    ));
    assert_eq!(got.len(), 2 + 17, "{got:#?}");
}

/// A new engine running `line` (a long perft or bench), which answers `isready` at once.
fn start_long(line: &str) -> Engine {
    let mut e = Engine::start();
    e.send(line);
    e.send("isready");
    assert_eq!(prompt(&mut e), "readyok", "{line}");
    e
}

/// Stops the running `what` (perft or bench): its lines up to the one starting with `last`,
/// the first saying that the counts are partial.
fn stop_partial(e: &mut Engine, what: &str, last: &str) -> Vec<String> {
    e.send("stop");
    let out = e.recv_until(|l| l.starts_with(last));
    assert_eq!(
        out[0],
        format!("info string {what} stopped: the counts below are partial")
    );
    out
}

#[test]
fn go_perft_30_answers_isready_and_stops_without_a_bestmove() {
    let mut e = start_long("go perft 30");
    // A `go` during the perft waits for it, as behind any finite work (issue 40 item 7).
    e.send("go nodes 5");
    let out = stop_partial(&mut e, "perft", "Nodes searched: ");
    let moves: Vec<&str> = out[1..8]
        .iter()
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        moves,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    let total: u64 = out[1..8]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(out[8], "");
    assert_eq!(out[9], format!("Nodes searched: {total}"));
    assert_eq!(out.len(), 10);
    // Then the waiting search ran; the perft itself printed no bestmove.
    let after = e.until_bestmove();
    assert!(after.last().unwrap().starts_with("bestmove "), "{after:#?}");
    quit_counting(e, 1, 0);
}

#[test]
fn quit_ends_a_long_perft_and_a_long_bench_at_once() {
    for line in ["go perft 30", "bench 18446744073709551615"] {
        let mut e = Engine::start();
        e.send(line);
        assert!(e.sync().is_empty(), "{line}");
        let start = Instant::now();
        let all = e.quit_ok();
        assert!(start.elapsed() < PROMPT, "{line}: {:?}", start.elapsed());
        assert_eq!(count_prefix(&all, "bestmove"), 0, "{all:?}");
    }
}

#[test]
fn a_long_bench_answers_isready_and_stop_with_partial_figures() {
    let mut e = start_long("bench 18446744073709551615");
    let out = stop_partial(&mut e, "bench", "Nodes/second: ");
    assert_eq!(out.len(), 3, "{out:?}");
    // Partial: the first position may not even have finished.
    assert!(out[1]
        .strip_prefix("Nodes searched: ")
        .is_some_and(|n| n.parse::<u64>().is_ok()));
    assert!(out[2]
        .strip_prefix("Nodes/second: ")
        .is_some_and(|n| n.parse::<u64>().is_ok()));
}

#[test]
fn a_clock_for_the_opponent_only_moves_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go wtime 1000 winc 0");
    assert_eq!(
        prompt(&mut e),
        "info string no btime for the side to move (black): its clock counts as 0, moving at once"
    );
    let start = Instant::now();
    let out = e.until_bestmove();
    assert!(start.elapsed() < PROMPT, "{:?}", start.elapsed());
    assert_legal_bestmove(out.last().unwrap(), START_FEN, &Rules::default());
    // White to move, Black's clock only: the same.
    e.send("position startpos moves 11-15");
    e.send("go btime 5000 binc 100 movestogo 3");
    assert_eq!(
        prompt(&mut e),
        "info string no wtime for the side to move (white): its clock counts as 0, moving at once"
    );
    let out = e.until_bestmove();
    assert_eq!(count_prefix(&out, "bestmove"), 1);
}

#[test]
fn d_shows_the_side_to_move_and_the_captures_that_must_be_played() {
    let mut e = Engine::start();
    let d = e.display_of("position startpos moves 11-15 22-18");
    assert_eq!(
        d[11..],
        lines(&[
            "Fen: B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
            "Clock: 2",
            "Result: ongoing",
            "Turn: black",
            "Captures: 15x22",
            "Moves: 15x22",
        ])
    );
    // A choice of captures (one loop, two directions), listed in divide order.
    let d = e.display_of("position fen W:W26:B14,15,22,23");
    assert_eq!(
        d[14..16],
        lines(&["Turn: white", "Captures: 26x17x10x19x26 26x19x10x17x26"])
    );
}

#[test]
fn eval_shows_the_terms_of_the_static_evaluation() {
    let mut e = Engine::start();
    assert_eq!(
        e.ask("eval"),
        lines(&[
            "Squares: 0",
            "Mobility: 0",
            "Tempo: 5",
            "Knowledge: 0",
            "Divisor: 1",
            "Static: 5",
            "Quiescent: 5",
            "Score: cp 7",
        ])
    );
    // King against king under English rules: a dead draw, scaled down by the divisor.
    assert!(e.ask("setoption name LongKings value false").is_empty());
    assert!(e.ask("position fen W:WK10:BK23").is_empty());
    let got = e.ask("eval");
    assert_eq!(got[4], "Divisor: 8", "{got:?}");
}

#[test]
fn debug_on_adds_notes_and_debug_off_removes_them() {
    let mut e = Engine::start();
    e.send("debug on");
    let d = e.ask("d");
    assert_eq!(d[0], "info string debug: command Display");
    assert_eq!(d[d.len() - 1], "info string debug: command IsReady");
    let out = e.go("go nodes 1");
    assert_eq!(
        out[0],
        "info string debug: command Go(GoRequest { limits: Limits { movetime: None, \
         nodes: Some(1), infinite: false, btime: None, wtime: None, binc: None, winc: None, \
         movestogo: None, ponder: false, searchmoves: [], depth: None, mate: None }, \
         searchmoves: [] })"
    );
    assert!(out[1].starts_with("info string debug: no time limit; limits Limits {"));
    e.send("debug off");
    e.send("isready");
    assert_eq!(e.recv(), "info string debug: command Debug(false)");
    assert_eq!(e.recv(), "readyok");
    assert!(e.ask("d").iter().all(|l| !l.starts_with("info")));
}

#[test]
fn clear_hash_makes_the_search_forget_its_tree() {
    let mut e = Engine::start();
    e.go("go nodes 200");
    let again = e.go("go nodes 200");
    assert!(
        again[0].starts_with("info string reused "),
        "the same position reuses its tree: {again:?}"
    );
    assert!(e.ask("setoption name Clear Hash").is_empty());
    let fresh = e.go("go nodes 200");
    assert_eq!(count_prefix(&fresh, "info string"), 0, "{fresh:?}");
    assert_eq!(
        e.ask("setoption name Clear Hash value 1"),
        lines(&["info string error: option Clear Hash is a button: it takes no value"])
    );
}
