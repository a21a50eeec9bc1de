//! PDN FEN: every accepted form and every refusal with its exact message (tests/data), the
//! writer's round trip, equivalent spellings of random positions, and random input.

use crate::common::{arb_board, Cell, RefBoard};
use buffgreen::board::{fen, Position};
use buffgreen::types::Color;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The `input<TAB>expected` lines of a data file, with `\t`, `\n` and `\0` in the input
/// column turned into the characters they stand for.
fn cases(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (input, expected) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("no tab in data line {l:?}"));
            let input = input
                .replace("\\t", "\t")
                .replace("\\n", "\n")
                .replace("\\0", "\0");
            (input, expected.to_string())
        })
        .collect()
}

#[test]
fn accepted_forms() {
    let cases = cases(include_str!("../data/fen-valid.txt"));
    assert!(cases.len() >= 35, "only {} cases", cases.len());
    for (input, canonical) in cases {
        let pos = fen::parse(&input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(fen::write(&pos), canonical, "{input:?}");
        // The canonical form is itself accepted and stable.
        assert_eq!(fen::parse(&canonical), Ok(pos), "{canonical}");
        assert_eq!(canonical.parse::<Position>(), Ok(pos), "{canonical}");
    }
}

#[test]
fn refused_forms() {
    let cases = cases(include_str!("../data/fen-invalid.txt"));
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    for (input, message) in cases {
        match fen::parse(&input) {
            Ok(p) => panic!("{input:?} accepted as {}", fen::write(&p)),
            Err(e) => assert_eq!(e.to_string(), message, "{input:?}"),
        }
    }
}

#[test]
fn start_position_is_canonical() {
    assert_eq!(
        fen::write(&Position::startpos()),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(fen::parse("B:W21-32:B1-12"), Ok(Position::startpos()));
}

/// Another valid spelling of `board`: random case, section order, ranges, entry order,
/// whitespace, period and wrapper.
fn scrambled(board: &RefBoard, rng: &mut impl Rng) -> String {
    let mut sections = Vec::new();
    for color in [Color::White, Color::Black] {
        // Runs of consecutive squares holding the same kind of piece of this colour.
        let mut runs: Vec<(bool, u8, u8)> = Vec::new();
        for n in 1..=32u8 {
            let king = match board.at(n) {
                Cell::Man(c) if c == color => false,
                Cell::King(c) if c == color => true,
                _ => continue,
            };
            match runs.last_mut() {
                Some((k, _, last)) if *k == king && *last + 1 == n && rng.gen_bool(0.7) => {
                    *last = n
                }
                _ => runs.push((king, n, n)),
            }
        }
        let mut entries: Vec<String> = Vec::new();
        for (king, first, last) in runs {
            let k = if !king {
                ""
            } else if rng.gen_bool(0.5) {
                "K"
            } else {
                "k"
            };
            if first == last {
                entries.push(format!("{k}{first}"));
            } else if rng.gen_bool(0.5) {
                entries.push(format!("{k}{first}-{last}"));
            } else {
                entries.extend((first..=last).map(|n| format!("{k}{n}")));
            }
        }
        entries.shuffle(rng);
        let sep = [",", ", ", " ,", " , "][rng.gen_range(0..4)];
        let letter = match (color, rng.gen_bool(0.5)) {
            (Color::White, true) => "W",
            (Color::White, false) => "w",
            (Color::Black, true) => "B",
            (Color::Black, false) => "b",
        };
        let gap = if rng.gen_bool(0.2) { " " } else { "" };
        sections.push(format!("{letter}{gap}{}", entries.join(sep)));
    }
    if rng.gen_bool(0.5) {
        sections.reverse();
    }
    let turn = match (board.side, rng.gen_bool(0.5)) {
        (Color::White, true) => "W",
        (Color::White, false) => "w",
        (Color::Black, true) => "B",
        (Color::Black, false) => "b",
    };
    let colon = [":", " : ", ":\t"][rng.gen_range(0..3)];
    let period = ["", ".", " ."][rng.gen_range(0..3)];
    let body = format!("{turn}{colon}{}{colon}{}{period}", sections[0], sections[1]);
    let text = if rng.gen_bool(0.3) {
        format!("[FEN \"{body}\"]")
    } else {
        body
    };
    let pad = ["", " ", "\n", " \t "];
    format!(
        "{}{text}{}",
        pad[rng.gen_range(0..4)],
        pad[rng.gen_range(0..4)]
    )
}

/// Every error message is one printable line.
fn assert_printable(input: &str, message: &str) {
    assert!(!message.is_empty(), "{input:?}: empty message");
    assert!(
        !message.chars().any(char::is_control),
        "{input:?}: message with control characters: {message:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn write_then_parse_round_trips(board in arb_board()) {
        let pos = board.position();
        let text = fen::write(&pos);
        prop_assert_eq!(fen::parse(&text), Ok(pos));
        let prefix = if board.side == Color::Black { "B:W" } else { "W:W" };
        prop_assert!(text.starts_with(prefix), "{}", text);
    }

    #[test]
    fn every_spelling_of_a_position_parses_to_it(board in arb_board(), seed in any::<u64>()) {
        let pos = board.position();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let text = scrambled(&board, &mut rng);
        prop_assert_eq!(fen::parse(&text), Ok(pos), "{:?}", text);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let text = String::from_utf8_lossy(&bytes);
        match fen::parse(&text) {
            Ok(pos) => prop_assert_eq!(fen::parse(&fen::write(&pos)), Ok(pos)),
            Err(e) => assert_printable(&text, &e.to_string()),
        }
    }

    #[test]
    fn random_fen_alphabet_never_panics(text in "[BWbwKk0-9,:. \\-\\[\\]\"FENx\t]{0,40}") {
        match fen::parse(&text) {
            Ok(pos) => prop_assert_eq!(fen::parse(&fen::write(&pos)), Ok(pos)),
            Err(e) => assert_printable(&text, &e.to_string()),
        }
    }

    #[test]
    fn mutated_fens_never_panic(
        board in arb_board(),
        seed in any::<u64>(),
        edits in proptest::collection::vec((any::<u8>(), any::<char>(), 0u8..3), 1..4),
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut chars: Vec<char> = scrambled(&board, &mut rng).chars().collect();
        for (at, c, kind) in edits {
            let i = at as usize % (chars.len() + 1);
            match kind {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        let text: String = chars.into_iter().collect();
        match fen::parse(&text) {
            Ok(pos) => prop_assert_eq!(fen::parse(&fen::write(&pos)), Ok(pos)),
            Err(e) => assert_printable(&text, &e.to_string()),
        }
    }
}
