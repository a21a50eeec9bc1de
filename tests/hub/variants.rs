//! pydraughts 0.6.7 (installed as for `pydraughts.rs`) as the independent referee of the 8x8
//! family: perft from the start and from king positions, and the move lists of positions from
//! random games, under Russian and Brazilian rules (pydraughts has no Pool). Moves are
//! compared as distinct start, end and captured set, as both count them
//! (lab/variants_pydraughts.py).

use std::path::Path;
use std::process::Command;

use buffgreen::board::{fen, generate_moves, MoveList, Position, Rules, Variant};
use buffgreen::tools::perft::perft;
use buffgreen_testkit::process::{piped, python3_missing};

use crate::pydraughts_python;

/// Positions with kings, for perft under both rule sets (depth 3).
const KING_FENS: &[&str] = &[
    "W:WK10,K27,18,22:BK5,K19,23,6",
    "B:WK3,18,22,26,30:B6,9,K27",
    "W:W18,19,20,21,22:B2,7,9,12,14",
];

/// The moves of `pos` as the script writes them: `from-to:captured` (captured sorted).
fn listed(pos: &Position, rules: &Rules) -> Vec<String> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .map(|m| {
            let mut taken: Vec<u32> = m
                .captured()
                .into_iter()
                .map(|s| s.to_string().parse().expect("a square number"))
                .collect();
            taken.sort_unstable();
            let taken: Vec<String> = taken.iter().map(u32::to_string).collect();
            format!("{}-{}:{}", m.from(), m.to(), taken.join(","))
        })
        .collect();
    out.sort();
    out
}

/// Positions of random games under `rules` (a fixed seed), both sides to move.
fn random_positions(rules: &Rules, games: usize) -> Vec<Position> {
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut pos = Position::start(rules);
        for _ in 0..120 {
            generate_moves(&pos, rules, &mut list);
            if list.is_empty() {
                break;
            }
            out.push(pos);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.play_unchecked(list[(seed % list.len() as u64) as usize]);
        }
    }
    out
}

#[test]
fn pydraughts_agrees_on_russian_and_brazilian_moves_and_perft() {
    if python3_missing("pydraughts cannot referee the 8x8 family") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = pydraughts_python();
    let mut input = String::new();
    let mut want = Vec::new();
    for variant in [Variant::Russian, Variant::Brazilian] {
        let rules = variant.rules();
        let mut cases: Vec<(Position, u32)> = vec![(Position::start(&rules), 4)];
        cases.extend(KING_FENS.iter().map(|f| (fen::parse(f).expect("fen"), 3)));
        cases.extend(random_positions(&rules, 12).into_iter().map(|p| (p, 1)));
        for (pos, depth) in cases {
            input.push_str(&format!("{} {} {depth}\n", variant.key(), fen::write(&pos)));
            let mut line = vec![perft(&pos, &rules, depth).to_string()];
            line.extend(listed(&pos, &rules));
            want.push((variant, fen::write(&pos), line.join(" ")));
        }
    }
    let out = piped(
        Command::new(python).arg(root.join("lab/variants_pydraughts.py")),
        &input,
    );
    let got = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(
        got.len(),
        want.len(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for ((variant, fen, want), got) in want.iter().zip(&got) {
        assert_eq!(got, want, "{variant:?} {fen}");
    }
    assert!(want.len() > 1000, "{}", want.len());
}
