//! Property tests of the protocol's command parser and line handler: the part of the fuzzing
//! that CI runs (the fuzzers themselves live in `fuzz/` and are run by hand). Random sessions go
//! through the same checks as the `protocol` fuzz target (`testkit/src/fuzz.rs`).

use buffgreen_testkit::fuzz as fuzz_harness;

use buffgreen::protocol::command::GO_KEYWORDS;
use buffgreen::protocol::{self, CommandError};
use proptest::prelude::*;

use fuzz_harness::check_protocol;

/// Words a command line is built from: every command and keyword (with [`vocab`]'s `go`
/// keywords), option names and values, moves, FENs, numbers in and out of range, and junk.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "d",
    "bench",
    "quit",
    "Hash",
    "threads",
    "BackwardCapture",
    "LongKings",
    "DrawHalfMoves",
    "MultiPV",
    "Seed",
    "Ponder",
    "MoveOverhead",
    "Exploration",
    "LearnedExploration",
    "PlainUct",
    "true",
    "FALSE",
    "11-15",
    "23-19",
    "9-14",
    "22-17",
    "8-11",
    "15x24",
    "26x26",
    "26x17x10x19x26",
    "1-5",
    "B:W21-32:B1-12",
    "W:W26:B14,15,22,23",
    "B:W18:B",
    "B:WK1,18,19,26,27:BK32,5,9,14,15",
    "B:W33:B1",
    "0",
    "1",
    "2",
    "3",
    "10",
    "80",
    "-5",
    "100000",
    "18446744073709551616",
    "x",
    "\u{0}",
    "é",
];

/// [`WORDS`] and every keyword of `go`.
fn vocab() -> Vec<&'static str> {
    [WORDS, GO_KEYWORDS].concat()
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vocab()), 0..8).prop_map(|w| w.join(" "))
}

/// An error message is one printable line of bounded length whatever the input.
fn assert_message_sound(e: &CommandError) {
    let m = e.to_string();
    assert!(!m.chars().any(char::is_control), "{m:?}");
    assert!(m.chars().count() <= 400, "{m:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Err(e) = protocol::parse(&String::from_utf8_lossy(&bytes)) {
            assert_message_sound(&e);
        }
    }

    #[test]
    fn long_tokens_are_shortened_in_errors(word in "[a-z]{1,300}", n in 0usize..3) {
        let text = match n {
            0 => word.clone(),
            1 => format!("go nodes {word}"),
            _ => format!("position {word}"),
        };
        if let Err(e) = protocol::parse(&text) {
            assert_message_sound(&e);
        }
    }

    #[test]
    fn whitespace_between_tokens_does_not_matter(
        words in prop::collection::vec(prop::sample::select(vocab()), 1..8),
        gaps in prop::collection::vec(prop::sample::select(&[" ", "  ", "\t", " \t "][..]), 8),
        lead in prop::sample::select(&["", " ", "\t"][..]),
        tail in prop::sample::select(&["", " ", "\r", "\t\r\n"][..]),
    ) {
        // The NUL "word" is not whitespace; leave lines with it to the other properties.
        prop_assume!(!words.contains(&"\u{0}"));
        let plain = words.join(" ");
        // The value of a `setoption` is kept as sent (protocol.md): from its `value` keyword
        // on, the line is spaced as the plain one.
        let value_at = (words[0] == "setoption")
            .then(|| words.iter().position(|w| *w == "value"))
            .flatten();
        let mut spaced = lead.to_string();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                let kept = value_at.is_some_and(|v| i > v);
                spaced.push_str(if kept { " " } else { gaps[i % gaps.len()] });
            }
            spaced.push_str(w);
        }
        if value_at.is_none() {
            spaced.push_str(tail);
        }
        prop_assert_eq!(protocol::parse(&spaced), protocol::parse(&plain));
    }
}

proptest! {
    // Each case runs a whole session with searches: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_sessions_keep_a_legal_game_and_well_formed_replies(
        lines in prop::collection::vec(line(), 1..16),
    ) {
        check_protocol(lines.join("\n").as_bytes());
    }
}
