//! The ending solver against the tables: a position of one piece more than the tables it
//! probes, when the solver proves its value, must have the value the deeper table gives it;
//! and the suite files' lines are checked (and re-proven with the tables they were made with
//! when `BUFFGREEN_ENDING_TABLES` names them).

use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::board::{fen, generate_moves, notation, MoveList, Position, Rules};
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen_lab::ending::{Outcome, Solver};

/// Plain tables of up to `pieces` pieces in the test target (a build is resumable: the files
/// of an earlier run are kept).
fn tables(pieces: u32, rules: &Rules) -> PathBuf {
    buffgreen_testkit::tables::shared(Path::new(env!("CARGO_TARGET_TMPDIR")), pieces, rules)
}

/// A random legal position of `pieces` pieces, both sides with one, from `rng`.
fn random_position(rng: &mut Xoshiro256PlusPlus, pieces: usize) -> Position {
    loop {
        let mut squares: Vec<u32> = (1..=32).collect();
        let mut sides = [Vec::new(), Vec::new()];
        for i in 0..pieces {
            let sq = squares.swap_remove(rng.gen_range(0..squares.len()));
            let king = if rng.gen_bool(0.4) { "K" } else { "" };
            sides[usize::from(i % 2 == 1 || (i > 1 && rng.gen_bool(0.5)))]
                .push(format!("{king}{sq}"));
        }
        let side = if rng.gen_bool(0.5) { "W" } else { "B" };
        let text = format!("{side}:W{}:B{}", sides[0].join(","), sides[1].join(","));
        if let Ok(pos) = fen::parse(&text) {
            return pos;
        }
    }
}

fn outcome(v: Value) -> Outcome {
    match v {
        Value::Win(_) => Outcome::Win,
        Value::Draw => Outcome::Draw,
        Value::Loss(_) => Outcome::Loss,
    }
}

/// Every value the solver proves with the 3-piece tables is the 4-piece table's, for both
/// rule settings; the count proven is pinned so that a weaker or a broken search shows.
#[test]
fn proven_values_match_deeper_tables() {
    for (rules, want) in [
        (Rules::ENGLISH, [34, 3, 75]),
        (Rules::BUFF_AND_GREEN, [57, 11, 96]),
    ] {
        let shallow = Tablebase::open(&tables(3, &rules), &rules).expect("3-piece tables");
        let deep = Tablebase::open(&tables(4, &rules), &rules).expect("4-piece tables");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(39);
        let mut solver = Solver::new(rules, Some(&shallow), 1 << 20);
        let mut proven = [0usize; 3];
        for _ in 0..200 {
            let pos = random_position(&mut rng, 4);
            let truth = outcome(deep.probe(&pos).expect("probe"));
            if let Some(v) = solver.value(&pos, 0, 20_000) {
                assert_eq!(v, truth, "{} under {rules}", fen::write(&pos));
                proven[v as usize] += 1;
            }
        }
        assert_eq!(proven, want, "proven (loss, draw, win) under {rules}");
    }
}

/// The fields of a suite line.
struct Line {
    pos: Position,
    rules: Rules,
    /// The moves that keep the result (a line whose moves are all decided).
    bm: Vec<String>,
    /// The moves proven to change it (a line with undecided moves).
    am: Vec<String>,
    result: Outcome,
}

fn suite_lines(path: &Path) -> Vec<(String, Line)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut lines = Vec::new();
    for raw in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = raw.split(" ; ").collect();
        let maybe = |name: &str| {
            fields
                .iter()
                .find_map(|f| f.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        };
        let field = |name: &str| maybe(name).unwrap_or_else(|| panic!("no {name} in {raw}"));
        let pos = fen::parse(fields[0]).unwrap_or_else(|e| panic!("{raw}: {e}"));
        let rules = match field("rules") {
            "english" => Rules::ENGLISH,
            "default" => Rules::BUFF_AND_GREEN,
            r => panic!("rules {r} in {raw}"),
        };
        let result = Outcome::from_name(field("result")).expect("result");
        let pieces: u32 = field("pieces").parse().expect("pieces");
        assert_eq!(pieces, pos.occupied().count(), "{raw}");
        let moves = |name: &str| -> Vec<String> {
            maybe(name).map_or(Vec::new(), |v| v.split(' ').map(str::to_string).collect())
        };
        let (bm, am) = (moves("bm"), moves("am"));
        assert!(bm.is_empty() != am.is_empty(), "bm or am, not both: {raw}");
        for m in bm.iter().chain(&am) {
            notation::parse_move(&pos, &rules, m).unwrap_or_else(|e| panic!("{raw}: {m}: {e}"));
        }
        let mut list = MoveList::new();
        generate_moves(&pos, &rules, &mut list);
        assert!(bm.len() < list.len(), "every move keeps the result: {raw}");
        assert!(
            am.len() < list.len(),
            "every move changes the result: {raw}"
        );
        assert!((7..=12).contains(&pieces), "{raw}");
        lines.push((
            field("id").to_string(),
            Line {
                pos,
                rules,
                bm,
                am,
                result,
            },
        ));
    }
    lines
}

fn suite_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/suites");
    ["endings-english.txt", "endings-bg.txt"]
        .iter()
        .map(|f| dir.join(f))
        .collect()
}

/// Every line reads: a legal position of 7 to 12 pieces, legal `bm` moves, not all of them.
#[test]
fn suite_lines_are_well_formed() {
    for f in suite_files() {
        let lines = suite_lines(&f);
        assert!(!lines.is_empty(), "{f:?}");
    }
}

/// The first lines of each suite, and its first `am` lines, proven again with the tables they
/// were made with: `BUFFGREEN_ENDING_TABLES_ENGLISH` and `BUFFGREEN_ENDING_TABLES_BG` name them.
#[test]
#[ignore = "needs the tables the suites were made with (see the doc comment)"]
fn suite_lines_prove_again() {
    for (f, var) in suite_files().into_iter().zip([
        "BUFFGREEN_ENDING_TABLES_ENGLISH",
        "BUFFGREEN_ENDING_TABLES_BG",
    ]) {
        let dir = std::env::var(var).unwrap_or_else(|_| panic!("{var} is not set"));
        let lines = suite_lines(&f);
        let tb = Tablebase::open(Path::new(&dir), &lines[0].1.rules).expect("tables");
        let mut solver = Solver::new(lines[0].1.rules, Some(&tb), 1 << 22);
        let mut exact = 0;
        let am_lines = lines.iter().filter(|(_, l)| !l.am.is_empty()).take(20);
        for (id, line) in lines.iter().take(20).chain(am_lines) {
            let Some(proof) = solver.prove_root(&line.pos, 400_000, 300_000) else {
                continue;
            };
            assert_eq!(proof.outcome, line.result, "{id}");
            let names = |ms: &[buffgreen::types::Move]| -> Vec<String> {
                ms.iter().map(ToString::to_string).collect()
            };
            let (keep, lose, open) = (names(&proof.keep), names(&proof.lose), names(&proof.open));
            // A fresh solver has not the answers the suite's run had gathered, so a move may
            // stay undecided; no verdict may contradict the line.
            assert!(
                keep.iter().all(|m| !line.am.contains(m)),
                "{id}: keep {keep:?}"
            );
            if line.bm.is_empty() {
                assert!(
                    line.am.iter().all(|m| lose.contains(m) || open.contains(m)),
                    "{id}"
                );
                continue;
            }
            assert!(
                keep.iter().all(|m| line.bm.contains(m)),
                "{id}: keep {keep:?}"
            );
            assert!(
                lose.iter().all(|m| !line.bm.contains(m)),
                "{id}: lose {lose:?}"
            );
            assert!(
                line.bm.iter().all(|m| keep.contains(m) || open.contains(m)),
                "{id}"
            );
            exact += usize::from(keep == line.bm && open.is_empty());
        }
        println!(
            "{f:?}: {exact} of the first {} lines proven again in full",
            lines.len().min(20)
        );
        assert!(
            exact * 2 >= lines.len().min(20),
            "{f:?}: {exact} proven again in full"
        );
    }
}
