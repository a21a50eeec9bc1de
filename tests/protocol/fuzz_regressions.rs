//! Replays through plain `cargo test` the checks of the fuzz targets (`fuzz/`): every input a
//! fuzzer found (`tests/data/fuzz-regressions/<target>/`), the fuzzers' seed inputs
//! (`fuzz/seeds/<target>/`), and the malformed-line corpus as one protocol session. Also checks
//! that the harness's reply grammar rejects what it must, so a passing run means something.

use buffgreen_testkit::fuzz as fuzz_harness;

use std::path::{Path, PathBuf};

use fuzz_harness::{check_fen, check_move, check_protocol, reply_form};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file of `dir`, sorted; an absent directory has none.
fn inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect()
}

/// Runs `check` on every regression and seed input of `target`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dirs = [
        root().join("tests/data/fuzz-regressions").join(target),
        root().join("fuzz/seeds").join(target),
    ];
    let mut n = 0;
    for dir in &dirs {
        for (path, bytes) in inputs(dir) {
            eprintln!("{}", path.display());
            check(&bytes);
            n += 1;
        }
    }
    n
}

#[test]
fn fen_inputs() {
    assert!(replay("fen", check_fen) >= 10);
}

#[test]
fn move_inputs() {
    assert!(replay("move", check_move) >= 10);
}

#[test]
fn protocol_inputs() {
    assert!(replay("protocol", check_protocol) >= 5);
}

#[test]
fn malformed_corpus_as_one_session() {
    let mut session = std::fs::read(root().join("tests/data/malformed-lines.txt")).unwrap();
    session.extend_from_slice(b"\nposition startpos moves 11-15\nd\ngo nodes 5\ngo perft 2\nd\n");
    check_protocol(&session);
}

#[test]
fn reply_grammar_accepts_every_form() {
    for line in [
        "",
        "uciok",
        "readyok",
        "id name buffgreen 0.1.0",
        "id author the buffgreen developers",
        "option name Hash type spin default 64 min 1 max 4096",
        "option name Ponder type check default false",
        "info string error: unknown command 'x'",
        "info depth 6 seldepth 19 multipv 1 score cp -12 wdl 402 271 327 nodes 5 nps 4 time 1 \
         pv 8-11 22x15",
        "info depth 1 seldepth 1 multipv 1 score mate 3 nodes 1 nps 0 time 0",
        "bestmove none",
        "bestmove 11-15",
        "bestmove 26x17x10x19x26 ponder 1-28",
        "9-13: 48",
        "Nodes searched: 302",
        "Nodes/second: 0",
        "Fen: B:W21,22:B1,K2",
        "Clock: 0",
        "Result: white wins (no move)",
        "Result: draw (80 half-moves)",
        "Moves: 9-13 26x17x10x19x26",
        "Moves: none",
        "   +-----------------+",
        " 8 |   b   b   b   b |",
        " 1 | W   .   .   w   |",
        "     a b c d e f g h",
    ] {
        assert_eq!(reply_form(line), Ok(()), "{line:?}");
    }
}

#[test]
fn reply_grammar_rejects_malformed_lines() {
    for line in [
        " readyok",
        "readyok ",
        "uciok\r",
        "id name other 1",
        "option name Hash type spin default 0 min 1 max 4096",
        "option name X type check default maybe",
        "info string ",
        "info depth 6 seldepth 19 score cp 1 nodes 1 nps 1 time 1",
        "info depth 6 seldepth 19 multipv 1 score cp 1 wdl 1 2 3 nodes 1 nps 1 time 1",
        "info depth 6 seldepth 19 multipv 1 score cp 1 nodes 1 nps 1 time 1 pv",
        "info depth 6 seldepth 19 multipv 1 score cp 1 nodes 1 nps 1 time 1 pv 0-4",
        "info depth 6 seldepth 19 multipv 1 score cp 1 nps 1 nodes 1 time 1",
        "info nodes 1",
        "bestmove",
        "bestmove 0000",
        "bestmove 11-15-19",
        "bestmove 11-15 ponder",
        "bestmove 11x33",
        "9-13: -1",
        "9-13: 01",
        "Nodes searched: x",
        "Fen: B:W22,21:B1",
        "Fen: B:W21:B32",
        "Result: lost",
        "Result: white wins",
        "Result: draw (80)",
        "Moves: ",
        " 8 | b   b   b   b   |",
        " 8 |   b   b   b   x |",
        " 9 |   b   b   b   b |",
        "hello",
    ] {
        assert!(reply_form(line).is_err(), "{line:?} accepted");
    }
}
