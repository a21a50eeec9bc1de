//! The malformed-lines corpus (tests/data/malformed-lines.txt), fed in one session: every line
//! gets exactly one error line, and afterwards the engine's state is what it was.

use buffgreen_testkit::protocol as protocol_support;

use buffgreen::board::Rules;
use protocol_support::{assert_legal_bestmove, count_prefix, Engine};

const ERROR: &str = "info string error: ";

fn corpus() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/malformed-lines.txt"
    );
    let text = std::fs::read_to_string(path).expect("read the corpus");
    text.lines().map(String::from).collect()
}

/// A state that differs from every default: moved pieces, a forced capture, English kings.
fn prepare(e: &mut Engine) -> Vec<String> {
    assert!(e.ask("setoption name LongKings value false").is_empty());
    e.display_of("position startpos moves 11-15 22-18")
}

#[test]
fn every_malformed_line_gets_one_error_and_changes_nothing() {
    let lines = corpus();
    assert!(lines.len() >= 200, "corpus has {} lines", lines.len());
    assert!(
        lines.iter().all(|l| !l.trim().is_empty()),
        "no blank lines in the corpus"
    );
    let mut e = Engine::start();
    let before = prepare(&mut e);
    // One write for the whole corpus, each line followed by isready so every answer can be
    // matched to its line.
    let mut script = String::new();
    for l in &lines {
        script.push_str(l);
        script.push_str("\nisready\n");
    }
    e.send_raw(script.as_bytes());
    for l in &lines {
        let mut got = e.recv_until(|x| x == "readyok");
        got.pop();
        assert_eq!(got.len(), 1, "{l:?} gave {got:#?}");
        assert!(got[0].starts_with(ERROR), "{l:?} gave {got:?}");
        assert!(
            !got[0].contains("already running"),
            "{l:?} started a search earlier"
        );
    }
    assert_eq!(e.display(), before, "state intact after the corpus");
    // English kings still in force, and the forced capture is the only move.
    let out = e.go("go nodes 1");
    let rules = Rules {
        long_kings: false,
        ..Rules::default()
    };
    let fen = "B:W18,21,23-32:B1-10,12,15";
    assert_eq!(
        assert_legal_bestmove(out.last().unwrap(), fen, &rules),
        "15x22"
    );
    let all = e.quit_ok();
    assert_eq!(count_prefix(&all, "bestmove"), 1);
    assert_eq!(count_prefix(&all, ERROR), lines.len());
}

#[test]
fn raw_bytes_blank_lines_and_huge_lines() {
    let mut e = Engine::start();
    let before = prepare(&mut e);
    // Blank and whitespace-only lines are ignored.
    e.send_raw(b"\n   \n\t\r\n\r\n");
    assert!(e.sync().is_empty());
    // CRLF line endings are fine.
    e.send_raw(b"isready\r\n");
    assert_eq!(e.recv(), "readyok");
    // Not UTF-8, control characters, a NUL: one error each, printed on one line.
    let cases: &[&[u8]] = &[
        b"\xff\xfe\n",
        b"go \xc3\x28\n",
        b"position startpos moves 11-15\x00\n",
        b"\x1b[31mred\n",
        b"uci\x0bx\n",
    ];
    for bytes in cases {
        e.send_raw(bytes);
        let got = e.sync();
        assert_eq!(got.len(), 1, "{bytes:?}: {got:?}");
        assert!(got[0].starts_with(ERROR), "{bytes:?}: {got:?}");
        assert!(!got[0].chars().any(char::is_control), "{got:?}");
    }
    // A huge line and a huge move: one bounded error line each.
    let huge = "x".repeat(200_000);
    for line in [
        huge.clone(),
        format!("position startpos moves {huge}"),
        format!("setoption name {huge} value 1"),
        format!("position fen B:W{}:B1", "21,".repeat(20_000)),
    ] {
        let got = e.ask(&line);
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with(ERROR), "{}", &got[0][..60]);
        assert!(got[0].len() < 2100, "error lines are bounded");
    }
    assert_eq!(e.display(), before);
}
