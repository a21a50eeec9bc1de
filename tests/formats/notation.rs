//! Move notation: the long form out and in, the short form of a capture, and exact errors.

use crate::common::arb_board;
use buffgreen::board::notation::{parse_move, parse_squares};
use buffgreen::board::{fen, generate_moves, MoveList, Position, Rules};
use proptest::prelude::*;

const LOOP: &str = "W:W26:B14,15,22,23";

fn pos(text: &str) -> Position {
    fen::parse(text).expect("valid FEN")
}

/// The long form of the move `text` names, or the error message.
fn parse(fen_text: &str, text: &str) -> Result<String, String> {
    parse_move(&pos(fen_text), &Rules::default(), text)
        .map(|m| m.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn long_form_is_accepted() {
    let start = "B:W21-32:B1-12";
    assert_eq!(parse(start, "11-15"), Ok("11-15".into()));
    assert_eq!(parse(LOOP, "26x19x10x17x26"), Ok("26x19x10x17x26".into()));
    assert_eq!(parse(LOOP, "26x17x10x19x26"), Ok("26x17x10x19x26".into()));
    assert_eq!(parse("B:W18,27:B14", "14x23x32"), Ok("14x23x32".into()));
    // Flying king moves are quiet moves of any length.
    assert_eq!(parse("B:W32:BK10", "10-28"), Ok("10-28".into()));
    // Surrounding whitespace and a capital X are fine.
    assert_eq!(parse(start, "  11-15 \t"), Ok("11-15".into()));
    assert_eq!(parse("B:W18,27:B14", "14X23X32"), Ok("14x23x32".into()));
}

#[test]
fn the_move_found_is_the_generated_move() {
    let p = pos(LOOP);
    let mv = parse_move(&p, &Rules::default(), "26x19x10x17x26").expect("legal");
    let mut list = MoveList::new();
    generate_moves(&p, &Rules::default(), &mut list);
    assert!(list.iter().any(|m| *m == mv));
    assert_eq!(mv.from().number(), 26);
    assert_eq!(mv.to().number(), 26);
    assert_eq!(
        mv.path().map(|s| s.number()).collect::<Vec<_>>(),
        [19, 10, 17, 26]
    );
    assert_eq!(mv.captured().count(), 4);
}

#[test]
fn short_capture_is_accepted_when_unique() {
    assert_eq!(parse("B:W18,27:B14", "14x32"), Ok("14x23x32".into()));
    let five = "B:WK7,K9,K15,17,K22:BK18";
    assert_eq!(parse(five, "18x22"), Ok("18x25x11x2x13x22".into()));
    assert_eq!(parse(five, "18x13"), Ok("18x11x2x13".into()));
    assert_eq!(parse(five, "18x5"), Ok("18x5".into()));
    // Under English rules the man stops on 10 by either route: `26x10` names two moves.
    let english = parse_move(&pos(LOOP), &Rules::ENGLISH, "26x10").map_err(|e| e.to_string());
    assert_eq!(
        english,
        Err("ambiguous move '26x10' matches 26x17x10 26x19x10; give every landing square".into())
    );
}

#[test]
fn ambiguous_short_capture_lists_both_candidates() {
    assert_eq!(
        parse(LOOP, "26x26"),
        Err(
            "ambiguous move '26x26' matches 26x17x10x19x26 26x19x10x17x26; give every landing \
             square"
                .into()
        )
    );
}

#[test]
fn illegal_move_lists_the_legal_moves() {
    let start = "B:W21-32:B1-12";
    let legal = "legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16";
    assert_eq!(
        parse(start, "11-17"),
        Err(format!("illegal move '11-17'; {legal}"))
    );
    // A partial path is neither the long form nor the short form.
    assert_eq!(
        parse(LOOP, "26x19x26"),
        Err("illegal move '26x19x26'; legal moves: 26x17x10x19x26 26x19x10x17x26".into())
    );
    // Stopping early is illegal.
    assert_eq!(
        parse("B:W18,27:B14", "14x23"),
        Err("illegal move '14x23'; legal moves: 14x23x32".into())
    );
    // The short form is for captures only: a two-step quiet move does not exist.
    assert_eq!(
        parse(start, "9-18"),
        Err(format!("illegal move '9-18'; {legal}"))
    );
    // No legal move at all.
    assert_eq!(
        parse("B:W32:B28", "28-32"),
        Err("illegal move '28-32'; legal moves: none".into())
    );
}

#[test]
fn separator_does_not_change_the_move() {
    // Quiet moves and captures never coexist, so the separator carries no information; it is
    // accepted either way and the move comes back in the proper long form.
    assert_eq!(parse("B:W21-32:B1-12", "11x15"), Ok("11-15".into()));
    assert_eq!(parse("B:W18,27:B14", "14-23-32"), Ok("14x23x32".into()));
    assert_eq!(parse("B:W18,27:B14", "14-32"), Ok("14x23x32".into()));
    // lidraughts' `:` (Russian and Brazilian games), with numbers or algebraic squares.
    assert_eq!(parse("B:W18,27:B14", "14:23:32"), Ok("14x23x32".into()));
    assert_eq!(parse("B:W18,27:B14", "c5:e3:g1"), Ok("14x23x32".into()));
    assert_eq!(parse("B:W21-32:B1-12", "b6:c5"), Ok("9-14".into()));
}

#[test]
fn syntax_errors_are_exact() {
    let start = "B:W21-32:B1-12";
    let syntax = |t: &str| {
        format!(
            "bad move syntax '{t}': expected squares joined by '-', 'x' or ':', like 11-15, 9x18x27 or d6-c5"
        )
    };
    for t in [
        "", "11", "11-", "-15", "11--15", "11-15x", "a-b", "e9-d4", "11 -15", "11-+15",
    ] {
        assert_eq!(parse(start, t), Err(syntax(t.trim())), "{t:?}");
    }
    assert_eq!(
        parse(start, "11-15\u{0}"),
        Err(syntax("11-15\\u{0}")),
        "control characters are escaped"
    );
    let long = "1-".repeat(40) + "1";
    assert_eq!(parse(start, &long), Err(syntax(&long[..64])));
    assert_eq!(
        parse(start, "11-33"),
        Err("bad move '11-33': square 33 is not in 1..=32".into())
    );
    assert_eq!(
        parse(start, "0x9"),
        Err("bad move '0x9': square 0 is not in 1..=32".into())
    );
    assert_eq!(
        parse(start, "99999999999999999999-1"),
        Err(
            "bad move '99999999999999999999-1': '99999999999999999999' is not a square number"
                .into()
        )
    );
}

#[test]
fn parse_squares_reads_every_square() {
    let nums =
        |t: &str| parse_squares(t).map(|v| v.iter().map(|s| s.number()).collect::<Vec<u8>>());
    assert_eq!(nums("9x18x27"), Ok(vec![9, 18, 27]));
    assert_eq!(nums("11-15"), Ok(vec![11, 15]));
    assert_eq!(nums("26x19x10x17x26"), Ok(vec![26, 19, 10, 17, 26]));
    assert!(nums("11").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let text = String::from_utf8_lossy(&bytes);
        let p = Position::startpos();
        for r in Rules::ALL {
            if let Err(e) = parse_move(&p, &r, &text) {
                prop_assert!(!e.to_string().chars().any(char::is_control), "{:?}", e.to_string());
            }
        }
        let _ = parse_squares(&text);
    }

    #[test]
    fn random_move_like_text_never_panics(
        board in arb_board(),
        text in "[0-9xX\\- ]{0,24}",
    ) {
        let p = board.position();
        for r in Rules::ALL {
            match parse_move(&p, &r, &text) {
                // Whatever is found is a legal move.
                Ok(mv) => {
                    let mut list = MoveList::new();
                    generate_moves(&p, &r, &mut list);
                    prop_assert!(list.iter().any(|m| *m == mv));
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn every_legal_move_reads_back_from_its_long_form(board in arb_board()) {
        let p = board.position();
        for r in Rules::ALL {
            let mut list = MoveList::new();
            generate_moves(&p, &r, &mut list);
            for mv in list.iter() {
                prop_assert_eq!(parse_move(&p, &r, &mv.to_string()), Ok(*mv));
            }
        }
    }
}
