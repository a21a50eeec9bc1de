//! Every position of the reference data made by the original Buff and Green rules code: the
//! legal move set, every successor FEN, clock and status must be exactly the reference's.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};

use buffgreen::board::notation::{parse_move, Notation};
use buffgreen::board::{fen, generate_moves, next_clock, result_of, GameResult, MoveList, Rules};
use buffgreen::types::Color;

/// Every record of the reference data with the rules it was made under.
fn records() -> Vec<(serde_json::Value, Rules)> {
    let file = std::fs::File::open(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference-positions.jsonl.gz"
    ))
    .expect("reference data present");
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    reader
        .lines()
        .map(|line| {
            let line = line.expect("readable line");
            let rec: serde_json::Value = serde_json::from_str(&line).expect("json");
            let rules = Rules {
                backward_capture: rec["backward"].as_bool().expect("backward"),
                long_kings: rec["long"].as_bool().expect("long"),
                ..Rules::default()
            };
            (rec, rules)
        })
        .collect()
}

#[test]
fn reference_positions_match_exactly() {
    let mut positions = 0;
    let mut successors = 0;
    for (rec, rules) in records() {
        let fen_text = rec["fen"].as_str().expect("fen");
        let clock = rec["clock"].as_u64().expect("clock") as u32;
        let pos = fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
        assert_eq!(fen::write(&pos), fen_text, "canonical FEN");
        let mut list = MoveList::new();
        generate_moves(&pos, &rules, &mut list);
        let ours: BTreeMap<String, _> = list.iter().map(|m| (m.to_string(), *m)).collect();
        assert_eq!(
            ours.len(),
            list.len(),
            "{fen_text}: duplicate moves {list:?}"
        );
        let theirs = rec["moves"].as_object().expect("moves");
        let a: Vec<&String> = ours.keys().collect();
        let b: Vec<&String> = theirs
            .keys()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(a, b, "move set of {fen_text} under {rules:?}");
        for (text, mv) in &ours {
            let expect = &theirs[text];
            let mut next = pos;
            next.play_unchecked(*mv);
            let next_clock = next_clock(*mv, clock);
            assert_eq!(
                fen::write(&next),
                expect["fen"].as_str().unwrap(),
                "{fen_text} {text}"
            );
            assert_eq!(
                next_clock as u64,
                expect["clock"].as_u64().unwrap(),
                "{fen_text} {text}"
            );
            let status = match result_of(&next, next_clock, &rules) {
                GameResult::Ongoing => "ongoing",
                GameResult::Draw => "draw",
                GameResult::Win(Color::Black) => "B wins",
                GameResult::Win(Color::White) => "W wins",
            };
            assert_eq!(
                status,
                expect["status"].as_str().unwrap(),
                "{fen_text} {text}"
            );
            successors += 1;
        }
        positions += 1;
    }
    assert_eq!(positions, 2329);
    assert_eq!(successors, 11507);
}

/// Every legal move of every reference position, written with algebraic squares (and in upper
/// case) and parsed back, is the same move; the position written as an algebraic FEN reads
/// back as the same position.
#[test]
fn reference_moves_round_trip_through_algebraic_notation() {
    let mut moves = 0;
    for (rec, rules) in records() {
        let fen_text = rec["fen"].as_str().expect("fen");
        let pos = fen::parse(fen_text).expect("fen");
        let algebraic_fen = algebraic(fen_text);
        assert_eq!(fen::parse(&algebraic_fen), Ok(pos), "{algebraic_fen}");
        let mut list = MoveList::new();
        generate_moves(&pos, &rules, &mut list);
        for m in list.iter() {
            let text = Notation::Algebraic.write(m);
            assert_eq!(parse_move(&pos, &rules, &text), Ok(*m), "{fen_text} {text}");
            let upper = text.to_uppercase();
            assert_eq!(
                parse_move(&pos, &rules, &upper),
                Ok(*m),
                "{fen_text} {upper}"
            );
            assert_eq!(Notation::Numeric.write(m), m.to_string());
            moves += 1;
        }
    }
    assert_eq!(moves, 11507);
}

/// A canonical numeric FEN with every square number replaced by its algebraic name.
fn algebraic(fen_text: &str) -> String {
    let mut out = String::new();
    let mut number = String::new();
    for c in fen_text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        if !number.is_empty() {
            let n: i64 = number.parse().expect("number");
            out.push_str(
                &buffgreen::types::Square::new(n)
                    .expect("square")
                    .algebraic(),
            );
            number.clear();
        }
        out.push(c);
    }
    out.trim_end().to_string()
}
