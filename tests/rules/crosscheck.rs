//! The fast bitboard generator against the slow reference generator of `buffgreen_testkit::reference` (testkit/), written
//! independently from protocol.md's "Rules": same long-form move set, same successor position, same
//! crowning, same captured set, on thousands of seeded random positions under all four switch
//! settings, and equal perft counts.

use std::collections::BTreeMap;

use crate::common::{random_board, random_crowning_board, rules_name, RefBoard};
use buffgreen::board::{
    count_moves, fen, generate_moves, has_captures, has_moves, MoveList, Position, Rules,
};
use buffgreen::tools::perft::{divide, perft};
use buffgreen::types::{Bitboard, Square};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What one move does, in a form both generators can give.
#[derive(Debug, PartialEq, Eq)]
struct Effect {
    after: String,
    crowns: bool,
    captured: Bitboard,
}

fn squares(ns: &[u8]) -> Bitboard {
    ns.iter()
        .map(|&n| Square::new(n as i64).expect("1..=32"))
        .collect()
}

/// Compares both generators on `board` under `rules`; panics with the position, the rules and
/// the differing moves.
fn compare(board: &RefBoard, rules: &Rules) {
    let pos = board.position();
    let fen_text = fen::write(&pos);
    let mut list = MoveList::new();
    generate_moves(&pos, rules, &mut list);
    let mut ours = BTreeMap::new();
    for &mv in list.iter() {
        let mut next = pos;
        next.play_unchecked(mv);
        let effect = Effect {
            after: fen::write(&next),
            crowns: mv.crowns(),
            captured: mv.captured(),
        };
        let text = mv.to_string();
        assert!(
            ours.insert(text.clone(), effect).is_none(),
            "{fen_text} under {}: move {text} generated twice",
            rules_name(rules)
        );
    }
    let theirs: BTreeMap<String, Effect> = board
        .moves(rules)
        .into_iter()
        .map(|m| {
            let effect = Effect {
                after: fen::write(&m.after.position()),
                crowns: m.crowns,
                captured: squares(&m.captured),
            };
            (m.notation(), effect)
        })
        .collect();
    if ours != theirs {
        let only_ours: Vec<&String> = ours.keys().filter(|k| !theirs.contains_key(*k)).collect();
        let only_ref: Vec<&String> = theirs.keys().filter(|k| !ours.contains_key(*k)).collect();
        let differ: Vec<String> = ours
            .iter()
            .filter_map(|(k, a)| {
                let b = theirs.get(k)?;
                (a != b).then(|| format!("{k}: generator {a:?}, reference {b:?}"))
            })
            .collect();
        panic!(
            "{fen_text} under {}:\n only generator: {only_ours:?}\n only reference: {only_ref:?}\n \
             differing effects: {differ:#?}",
            rules_name(rules)
        );
    }
    let any_capture = theirs.values().any(|e| e.captured.any());
    assert_eq!(count_moves(&pos, rules), list.len() as u64, "{fen_text}");
    assert_eq!(has_moves(&pos, rules), !list.is_empty(), "{fen_text}");
    assert_eq!(has_captures(&pos, rules), any_capture, "{fen_text}");
}

/// Compares under all four switch settings; returns how many comparisons were made.
fn compare_all(board: &RefBoard) -> usize {
    for rules in Rules::ALL {
        compare(board, &rules);
    }
    4
}

const DENSITIES: [f64; 6] = [0.08, 0.15, 0.25, 0.4, 0.6, 0.85];
const KING_SHARES: [f64; 5] = [0.0, 0.15, 0.5, 0.85, 1.0];

#[test]
fn random_placements_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xB0FF_0001);
    let mut compared = 0;
    for i in 0..10_000 {
        let density = DENSITIES[i % DENSITIES.len()];
        let kings = KING_SHARES[(i / DENSITIES.len()) % KING_SHARES.len()];
        let board = random_board(&mut rng, density, kings);
        compared += compare_all(&board);
    }
    assert_eq!(compared, 40_000);
}

#[test]
fn men_next_to_their_crowning_rows_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xB0FF_0002);
    let mut compared = 0;
    // Kinds of crowning the sample must exercise, counted under the default rules.
    let (mut quiet, mut in_capture, mut deferred) = (0, 0, 0);
    for _ in 0..5000 {
        let board = random_crowning_board(&mut rng);
        compared += compare_all(&board);
        for m in board.moves(&Rules::default()).iter().filter(|m| m.crowns) {
            let last = *m.path.last().expect("non-empty path");
            match (
                m.captured.is_empty(),
                crate::common::row_of(last) == crate::common::far_row(board.side),
            ) {
                (true, _) => quiet += 1,
                (false, true) => in_capture += 1,
                (false, false) => deferred += 1,
            }
        }
    }
    assert_eq!(compared, 20_000);
    assert!(
        quiet > 200 && in_capture > 1000 && deferred > 300,
        "crownings: {quiet} quiet, {in_capture} ending on the far row, {deferred} deferred"
    );
}

#[test]
fn positions_from_random_games_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xB0FF_0003);
    let mut compared = 0;
    for rules in Rules::ALL {
        for _ in 0..50 {
            let mut board = RefBoard::from_position(&Position::startpos());
            for _ply in 0..200 {
                compare(&board, &rules);
                compared += 1;
                let moves = board.moves(&rules);
                if moves.is_empty() {
                    break;
                }
                board = moves[rng.gen_range(0..moves.len())].after;
            }
        }
    }
    // The games depend on the seed and the reference generator only.
    assert_eq!(compared, 11_722, "positions compared");
}

fn ref_perft(board: &RefBoard, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .moves(rules)
        .iter()
        .map(|m| ref_perft(&m.after, rules, depth - 1))
        .sum()
}

#[test]
fn perft_agrees_with_reference_generator() {
    let positions = [
        "B:W21-32:B1-12",
        // Kings of both kinds in the open, men about to crown.
        "W:WK3,9,K18,23,26:B6,K14,16,K22,27",
        "B:WK1,K4,K29,K32:BK10,K11,K22,K23",
    ];
    for text in positions {
        let pos = fen::parse(text).expect("valid FEN");
        let board = RefBoard::from_position(&pos);
        for rules in Rules::ALL {
            assert_eq!(
                perft(&pos, &rules, 5),
                ref_perft(&board, &rules, 5),
                "{text} under {}",
                rules_name(&rules)
            );
        }
    }
}

#[test]
fn divide_agrees_with_reference_generator() {
    let pos = Position::startpos();
    let board = RefBoard::from_position(&pos);
    for rules in Rules::ALL {
        let mut ours: Vec<(String, u64)> = divide(&pos, &rules, 6, 2)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        let mut theirs: Vec<(String, u64)> = board
            .moves(&rules)
            .iter()
            .map(|m| (m.notation(), ref_perft(&m.after, &rules, 5)))
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{}", rules_name(&rules));
    }
}

/// The reference generator itself against the data made by the original Buff and Green code,
/// so that agreement with it means agreement with the rules, not a shared mistake.
#[test]
fn reference_generator_matches_reference_data() {
    use std::io::{BufRead, BufReader};
    let file = std::fs::File::open(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference-positions.jsonl.gz"
    ))
    .expect("reference data present");
    let mut checked = 0;
    for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
        let rec: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
        let text = rec["fen"].as_str().expect("fen");
        let rules = Rules {
            backward_capture: rec["backward"].as_bool().expect("backward"),
            long_kings: rec["long"].as_bool().expect("long"),
            ..Rules::default()
        };
        let board = RefBoard::from_position(&fen::parse(text).expect("valid FEN"));
        let ours: BTreeMap<String, String> = board
            .moves(&rules)
            .iter()
            .map(|m| (m.notation(), fen::write(&m.after.position())))
            .collect();
        let theirs: BTreeMap<String, String> = rec["moves"]
            .as_object()
            .expect("moves")
            .iter()
            .map(|(k, v)| (k.clone(), v["fen"].as_str().expect("fen").to_string()))
            .collect();
        assert_eq!(ours, theirs, "{text} under {}", rules_name(&rules));
        checked += 1;
    }
    assert_eq!(checked, 2329);
}
