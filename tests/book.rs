//! The opening book through the protocol: `OwnBook`, `BookFile` and its refusals, the
//! `info string book` line, and when a `go` plays from the book and when it searches.

use std::path::{Path, PathBuf};
use std::process::Command;

use buffgreen::board::{notation, Position, Rules};
use buffgreen::book::format::{encode, Entry};
use buffgreen::book::{child_key, key, BookRules};
use buffgreen_testkit::process::outcome;
use buffgreen_testkit::protocol::Engine;

/// A scratch directory of this test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bg-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A book for `rules` with these moves of the start position and their scores.
fn book_bytes(rules: &Rules, moves: &[(&str, i16)]) -> Vec<u8> {
    let pos = Position::startpos();
    let entries: Vec<Entry> = moves
        .iter()
        .map(|&(text, score)| {
            let mv = notation::parse_move(&pos, rules, text).expect("legal");
            Entry {
                key: key(&pos),
                child: child_key(&pos, mv),
                score,
            }
        })
        .collect();
    encode(BookRules::of(rules), &entries)
}

/// The test book: two moves within the margin and one far below.
const MOVES: [(&str, i16); 3] = [("11-15", 12), ("9-13", 5), ("10-14", -30)];

fn write_book(name: &str) -> String {
    let path = dir(name).join("test.book");
    std::fs::write(&path, book_bytes(&Rules::default(), &MOVES)).expect("write");
    path.display().to_string()
}

/// An engine with `OwnBook` on (whatever its default).
fn start() -> Engine {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e
}

/// What a `go` answers with book move `mv` of score `cp` drawn from `choices` moves.
fn booked(mv: &str, cp: i32, choices: usize) -> Vec<String> {
    vec![
        format!("info string book {mv} score cp {cp} choices {choices}"),
        format!("bestmove {mv}"),
    ]
}

/// An engine given the test's own `book` (whose move is 11-15), then each `(path, why)`:
/// `BookFile` set to the path gets the error `why`, and the book in use before is still played.
fn refused_keep_the_book(book: &str, cases: &[(&Path, &str)]) {
    let mut e = start();
    e.send(&format!("setoption name BookFile value {book}"));
    for (path, why) in cases {
        let path = path.display();
        assert_eq!(
            e.ask(&format!("setoption name BookFile value {path}")),
            vec![format!("info string error: BookFile: {path}: {why}")]
        );
        e.send("position startpos");
        assert_eq!(e.go("go nodes 1000"), booked("11-15", 12, 2), "{path}");
    }
}

#[test]
fn a_book_move_is_announced_and_played_without_a_search() {
    let book = write_book("announce");
    let mut e = start();
    assert_eq!(
        e.ask(&format!("setoption name BookFile value {book}")),
        Vec::<String>::new()
    );
    e.send("position startpos");
    assert_eq!(e.go("go nodes 1000"), booked("11-15", 12, 2));
    // Another seed may draw the other move within the margin, never the one far below.
    let mut seen = Vec::new();
    for seed in 0..40 {
        e.send(&format!("setoption name Seed value {seed}"));
        let first = e.go("go movetime 50");
        // A fixed seed repeats the move.
        assert_eq!(e.go("go movetime 50"), first, "seed {seed}");
        assert_eq!(first.len(), 2, "{first:?}");
        if !seen.contains(&first[1]) {
            seen.push(first[1].clone());
        }
    }
    seen.sort();
    assert_eq!(seen, vec!["bestmove 11-15", "bestmove 9-13"]);
}

#[test]
fn own_book_off_and_analysis_search() {
    let book = write_book("off");
    let mut e = start();
    e.send(&format!("setoption name BookFile value {book}"));
    e.send("position startpos");
    let searched = |lines: &[String]| {
        lines.iter().any(|l| l.starts_with("info depth"))
            && !lines.iter().any(|l| l.starts_with("info string book"))
    };
    for line in ["go nodes 300 searchmoves 9-13 11-15", "go depth 1"] {
        let got = e.go(line);
        assert!(searched(&got), "{line}: {got:?}");
    }
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(50));
    let got = e.stop();
    assert!(searched(&got), "infinite: {got:?}");
    e.send("setoption name MultiPV value 2");
    let got = e.go("go nodes 300");
    assert!(searched(&got), "MultiPV: {got:?}");
    e.send("setoption name MultiPV value 1");
    e.send("setoption name UCI_LimitStrength value true");
    let got = e.go("go nodes 300");
    assert!(searched(&got), "limited: {got:?}");
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name OwnBook value false");
    let got = e.go("go nodes 300");
    assert!(searched(&got), "OwnBook false: {got:?}");
    e.send("setoption name OwnBook value true");
    let got = e.go("go nodes 300");
    assert_eq!(got[0], "info string book 11-15 score cp 12 choices 2");
}

#[test]
fn a_bad_book_file_is_refused_and_the_previous_book_kept() {
    let book = write_book("refused");
    let d = dir("refused");
    let missing = d.join("missing.book");
    let foreign = d.join("foreign.book");
    std::fs::write(&foreign, b"not a book at all").expect("write");
    let english = d.join("english.book");
    std::fs::write(&english, book_bytes(&Rules::ENGLISH, &MOVES[..1])).expect("write");
    let good = std::fs::read(&book).expect("read");
    let truncated = d.join("truncated.book");
    std::fs::write(&truncated, &good[..good.len() - 3]).expect("write");
    let corrupt = d.join("corrupt.book");
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    std::fs::write(&corrupt, &bad).expect("write");

    refused_keep_the_book(
        &book,
        &[
            (&missing, "No such file or directory (os error 2)"),
            (&foreign, "not a buffgreen book file"),
            (
                &english,
                "built for BackwardCapture=false LongKings=false, \
                 not BackwardCapture=true LongKings=true",
            ),
            (&truncated, "truncated or padded: 71 bytes, expected 74"),
            (&corrupt, "checksum mismatch (corrupt file)"),
        ],
    );
}

#[test]
fn switching_the_rules_switches_the_book() {
    let d = dir("rules");
    let english = d.join("english.book");
    std::fs::write(&english, book_bytes(&Rules::ENGLISH, &[("9-14", 7)])).expect("write");
    let mut e = start();
    e.send("setoption name BackwardCapture value false");
    e.send("setoption name LongKings value false");
    assert_eq!(
        e.ask(&format!(
            "setoption name BookFile value {}",
            english.display()
        )),
        Vec::<String>::new()
    );
    e.send("position startpos");
    assert_eq!(e.go("go nodes 1000"), booked("9-14", 7, 1));
    // Under Buff and Green rules the English file does not apply: the built-in book does
    // (or a search, where it has no move).
    e.send("setoption name BackwardCapture value true");
    e.send("setoption name LongKings value true");
    let got = e.go("go nodes 1000");
    assert!(!got.iter().any(|l| l.contains("book 9-14")), "{got:?}");
}

/// Issue 40 item 4: a FIFO given as `BookFile` blocked the input thread for ever (the open
/// waits for a writer), and a large file that is not a book was read whole before its header
/// was looked at. Both are refused at once; the previous book stays.
#[test]
fn a_book_file_that_is_not_a_regular_file_or_not_a_book_is_refused_at_once() {
    let book = write_book("fifo");
    let d = dir("fifo");
    let fifo = d.join("pipe.book");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // 1.5 GiB of zeros (a sparse file: no disk used) after a good header claiming 3 entries.
    let big = d.join("big.book");
    let good = std::fs::read(&book).expect("read");
    std::fs::write(&big, &good[..32]).expect("write");
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .expect("open");
    f.set_len(3 << 29).expect("sparse length");
    drop(f);
    let foreign = d.join("foreign-big.book");
    let f = std::fs::File::create(&foreign).expect("create");
    f.set_len(3 << 29).expect("sparse length");
    drop(f);
    refused_keep_the_book(
        &book,
        &[
            (&fifo, "not a regular file"),
            (&d, "not a regular file"),
            (&big, "truncated or padded: 1610612736 bytes, expected 74"),
            (&foreign, "not a buffgreen book file"),
        ],
    );
}

/// `buffgreen book` with `args`: exit code, stdout, stderr.
fn book_cli(args: &[&str]) -> (i32, String, String) {
    outcome(
        Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .arg("book")
            .args(args),
    )
}

/// Issue 40 item 10: `book probe` printed nothing for a position not in the book (exit 0),
/// `book build` out of budget wrote an empty book (exit 0), and errors exited 1 where `tb`
/// exits 2.
#[test]
fn book_probe_says_not_in_the_book_and_build_refuses_a_budget_without_a_book() {
    assert_eq!(
        book_cli(&["probe", "--fen", "W:W18:B14"]),
        (1, String::new(), "not in the book: W:W18:B14\n".to_string())
    );
    let (code, out, _) = book_cli(&["probe"]);
    assert_eq!((code, out.lines().next()), (0, Some("9-13 -13")));
    assert_eq!(
        book_cli(&["probe", "--fen", "X"]).0,
        2,
        "a bad FEN is an error"
    );
    let d = dir("budget");
    let deck = d.join("deck.txt");
    std::fs::write(&deck, "11-15 23-19\n9-14 22-17\n").expect("write");
    let out = d.join("out.book");
    let (deck, out) = (deck.display().to_string(), out.display().to_string());
    assert_eq!(
        book_cli(&["build", "--roots", &deck, "--out", &out, "--positions", "3"]),
        (
            2,
            String::new(),
            "error: --positions 3 is spent on searching the 3 root positions before any is \
             expanded: give more than 3\n"
                .to_string()
        )
    );
    assert!(!std::path::Path::new(&out).exists());
    let missing = d.join("missing.book").display().to_string();
    assert_eq!(book_cli(&["probe", "--book", &missing]).0, 2);
}
