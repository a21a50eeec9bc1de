//! The readers of outside files (issue 40, "Must show"): PDN games, openings decks, suite
//! files, book files and Hub lines, each fed random text and damaged copies of good input.
//! Every one must end (the case count bounds the run), never panic, and answer with games or
//! positions that are sound, or with errors that are one printable line naming their place.

use buffgreen::board::{notation, Game, Position, Rules};
use buffgreen::book::format::{decode, encode, read_from, Entry};
use buffgreen::book::{child_key, key, BookRules};
use buffgreen::openings::parse_deck;
use buffgreen_tourney::pdn::{self, GameHeader, Replay};
use buffgreen_tourney::suite::parse_suite;
use proptest::prelude::*;

/// Characters PDN is made of, and those that broke the old reader.
const PDN_CHARS: &str = "[]{}()\";%$!?*.-x/:0123456789 \t\nBWKEventResultFEN12x";

/// A finished English game in PDN as the match runner writes it.
fn written_game() -> String {
    let mut g = Game::new(Position::startpos(), 0, Rules::ENGLISH);
    for m in [
        "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14",
    ] {
        g.play_str(m).expect("legal");
    }
    let header = GameHeader {
        event: "e \"q\" \\",
        date: "2026.11.26",
        round: 1,
        white: "W",
        black: "B",
        result: "*",
        time_control: "nodes=1".into(),
        termination: "adjudicated".into(),
        opening: "11-15",
    };
    pdn::write_game(&header, &g)
}

/// `text` with `edits` applied: (position, what) insert a character, delete one, or replace
/// one.
fn damaged(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, kind, c) in edits {
        let at = at % (chars.len() + 1);
        match kind % 3 {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn pdn_text(max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = PDN_CHARS.chars().collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    let chars: Vec<char> = PDN_CHARS.chars().collect();
    proptest::collection::vec(
        (any::<usize>(), any::<u8>(), proptest::sample::select(chars)),
        1..6,
    )
}

/// The checks on what the PDN reader answers for `text`.
fn check_pdn(text: &str) {
    let (games, errors) = pdn::read_games("f.pdn", text);
    let lines = text.split('\n').count();
    let mut numbers: Vec<usize> = games.iter().map(|g| g.number).collect();
    numbers.extend(errors.iter().map(|e| e.game));
    numbers.sort_unstable();
    let before = numbers.len();
    numbers.dedup();
    assert_eq!(
        numbers.len(),
        before,
        "a game both read and refused: {text:?}"
    );
    for e in &errors {
        let message = e.to_string();
        assert!(
            !message.chars().any(char::is_control),
            "{text:?}: {message:?}"
        );
        assert!(e.line >= 1 && e.line <= lines, "{text:?}: {message}");
        assert!(e.column >= 1, "{text:?}: {message}");
    }
    for g in &games {
        assert_eq!(g.moves.len(), g.move_places.len());
        // Replaying and checking never panics either.
        if let Err(e) = g.check() {
            assert!(!e.to_string().chars().any(char::is_control), "{e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn pdn_random_text_ends_with_games_or_placed_errors(text in pdn_text(200)) {
        check_pdn(&text);
    }

    #[test]
    fn pdn_damaged_games_end_with_games_or_placed_errors(e in edits(), copies in 1usize..4) {
        let text = damaged(&written_game().repeat(copies), &e);
        check_pdn(&text);
    }

    #[test]
    fn pdn_random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check_pdn(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn openings_decks_are_read_or_refused_by_line(e in edits(), rules in 0usize..4) {
        let rules = Rules::ALL[rules];
        let good = "11-15 23-19 8-11\nB:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n9-13\t# note\n";
        let text = damaged(good, &e);
        match parse_deck(&text, "deck.txt", &rules) {
            Ok(deck) => {
                for o in deck {
                    assert!(!o.label.contains('\n'));
                }
            }
            Err(err) => {
                let m = err.to_string();
                assert!(m.starts_with("deck.txt"), "{m}");
                assert!(!m.chars().any(char::is_control), "{text:?}: {m:?}");
            }
        }
    }

    #[test]
    fn suite_files_are_read_or_refused_by_line(e in edits()) {
        let good = "# tactics\nB:W14,22,30:B9 ; bm 9x25 ; id short\nW:W18:B14 ; bm 18x9 ; rules english\n";
        let text = damaged(good, &e);
        match parse_suite("s.txt", &text, Rules::default()) {
            Ok(entries) => {
                for en in entries {
                    // A line without bm or am is a position to search (issue 58 item 10);
                    // what a line names is legal there.
                    let legal = Game::new(en.position, 0, en.rules).legal_moves();
                    assert!(!legal.is_empty());
                    assert!(en.best.iter().chain(&en.avoid).all(|m| legal.contains(m)));
                }
            }
            Err(errors) => {
                for m in errors {
                    assert!(m.starts_with("s.txt:"), "{m}");
                    assert!(!m.chars().any(char::is_control), "{text:?}: {m:?}");
                }
            }
        }
    }

    #[test]
    fn book_files_are_read_whole_or_refused(
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        cut in any::<usize>(),
        junk in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        let rules = Rules::ENGLISH;
        let pos = Position::startpos();
        let entries: Vec<Entry> = ["11-15", "9-14"]
            .iter()
            .zip([12i16, -3])
            .map(|(m, score)| {
                let mv = notation::parse_move(&pos, &rules, m).expect("legal");
                Entry { key: key(&pos), child: child_key(&pos, mv), score }
            })
            .collect();
        let good = encode(BookRules::of(&rules), &entries);
        let mut bytes = good.clone();
        for (at, x) in flips {
            let at = at % bytes.len();
            bytes[at] ^= x;
        }
        bytes.truncate(cut % (bytes.len() + 1));
        if cut % 3 == 0 {
            bytes.extend_from_slice(&junk);
        }
        let whole = decode("b.book", &bytes);
        let streamed = read_from("b.book", bytes.as_slice(), bytes.len() as u64);
        match &whole {
            Ok((r, e)) => {
                prop_assert_eq!(encode(*r, e), bytes.clone());
                prop_assert_eq!(streamed, whole.clone());
            }
            Err(err) => {
                prop_assert!(streamed.is_err());
                prop_assert!(err.to_string().starts_with("b.book: "), "{}", err);
            }
        }
    }

    #[test]
    fn random_junk_is_no_book(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
        let err = decode("b.book", &bytes).expect_err("junk");
        let streamed = read_from("b.book", bytes.as_slice(), bytes.len() as u64).expect_err("junk");
        prop_assert_eq!(err, streamed);
    }

    #[test]
    fn hub_lines_parse_or_give_one_printable_error(
        line in "[a-z=\" 0-9.:WBxK-]{0,60}",
        word in proptest::sample::select(vec![
            "hub", "init", "new-game", "ponder-hit", "stop", "ping", "quit", "set-param",
            "pos", "level", "go", "",
        ]),
    ) {
        let text = format!("{word} {line}");
        if let Err(e) = buffgreen::hub::command::parse(&text) {
            let m = e.to_string();
            prop_assert!(!m.chars().any(char::is_control), "{:?}: {:?}", text, m);
        }
    }
}

#[test]
fn a_written_game_reads_back_and_checks() {
    let text = written_game();
    let (games, errors) = pdn::read_games("f.pdn", &text);
    assert_eq!(errors, []);
    assert_eq!(games[0].tag("Event"), Some("e \"q\" \\"));
    assert_eq!(games[0].check().expect("sound").moves().len(), 8);
}
