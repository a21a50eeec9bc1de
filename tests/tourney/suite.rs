//! The tactical suite (tests/data/suites/tactics.txt) re-proved by exhaustive search with the
//! library's move generator, never by asking the engine: for each line, the `bm` moves are
//! exactly the winning moves (`shot`) or exactly the non-losing moves (`avoid`) within the
//! stated depth, and the answer is the same two plies deeper.

use std::collections::BTreeSet;

use buffgreen::board::{
    fen, generate_moves, next_clock, result_of, GameResult, MoveList, Position, Rules,
};

/// A value proven within a depth, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Value {
    Loss,
    Open,
    Win,
}

fn negate(v: Value) -> Value {
    match v {
        Value::Win => Value::Loss,
        Value::Loss => Value::Win,
        Value::Open => Value::Open,
    }
}

/// Exhaustive search to `depth` plies: Win/Loss only when forced, a draw by the rules is Open.
fn solve(pos: &Position, clock: u32, rules: &Rules, depth: u32) -> Value {
    match result_of(pos, clock, rules) {
        GameResult::Win(c) if c == pos.side_to_move() => return Value::Win,
        GameResult::Win(_) => return Value::Loss,
        GameResult::Draw => return Value::Open,
        GameResult::Ongoing => {}
    }
    if depth == 0 {
        return Value::Open;
    }
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    let mut best = Value::Loss;
    for &mv in list.iter() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let v = negate(solve(&child, next_clock(mv, clock), rules, depth - 1));
        if v == Value::Win {
            return v;
        }
        best = best.max(v);
    }
    best
}

/// Every root move with its proven value.
fn root_values(pos: &Position, rules: &Rules, depth: u32) -> Vec<(String, Value)> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    list.iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (
                mv.to_string(),
                negate(solve(&child, next_clock(mv, 0), rules, depth - 1)),
            )
        })
        .collect()
}

struct Line {
    fen: String,
    bm: BTreeSet<String>,
    id: String,
    rules: String,
    kind: String,
    depth: u32,
}

fn parse(line: &str) -> Line {
    let mut fields = line.split(';').map(str::trim);
    let fen = fields.next().unwrap().to_string();
    let mut l = Line {
        fen,
        bm: BTreeSet::new(),
        id: String::new(),
        rules: "default".into(),
        kind: String::new(),
        depth: 0,
    };
    for f in fields {
        let (k, v) = f.split_once(' ').unwrap();
        match k {
            "bm" => l.bm = v.split_whitespace().map(str::to_string).collect(),
            "id" => l.id = v.to_string(),
            "rules" => l.rules = v.to_string(),
            "type" => l.kind = v.to_string(),
            "depth" => l.depth = v.parse().unwrap(),
            _ => panic!("unknown field {k}"),
        }
    }
    l
}

#[test]
fn every_suite_answer_is_proven() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/suites/tactics.txt"
    ))
    .unwrap();
    let lines: Vec<Line> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(parse)
        .collect();
    assert_eq!(lines.len(), 20);
    let mut ids = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for l in &lines {
        assert!(ids.insert(l.id.clone()), "duplicate id {}", l.id);
        kinds.insert((l.rules.clone(), l.kind.clone()));
        let rules = match l.rules.as_str() {
            "default" => Rules::BUFF_AND_GREEN,
            "english" => Rules::ENGLISH,
            r => panic!("{}: rules {r}", l.id),
        };
        let pos = fen::parse(&l.fen).unwrap();
        let values = root_values(&pos, &rules, l.depth);
        assert!(values.len() >= 3, "{}: only {} moves", l.id, values.len());
        let with = |v: Value| -> BTreeSet<String> {
            values
                .iter()
                .filter(|x| x.1 == v)
                .map(|x| x.0.clone())
                .collect()
        };
        match l.kind.as_str() {
            "shot" => assert_eq!(with(Value::Win), l.bm, "{}", l.id),
            "avoid" => {
                assert!(with(Value::Win).is_empty(), "{}", l.id);
                assert_eq!(with(Value::Open), l.bm, "{}", l.id);
                assert_eq!(
                    with(Value::Loss).len(),
                    values.len() - l.bm.len(),
                    "{}",
                    l.id
                );
            }
            k => panic!("{}: type {k}", l.id),
        }
        assert!(
            l.bm.len() < values.len(),
            "{}: every move is an answer",
            l.id
        );
        // The same answer two plies deeper: no other move wins (or holds) a little later.
        assert_eq!(root_values(&pos, &rules, l.depth + 2), values, "{}", l.id);
    }
    // Both rule sets, both kinds.
    assert_eq!(kinds.len(), 4);
}

/// The extra perft table that scripts/perft.sh checks agrees with the library (the main
/// table, tests/data/perft.txt, is checked by tests/rules/perft.rs).
#[test]
fn perft_table_matches_the_library() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft-variants.txt"
    ))
    .unwrap();
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let rules = match f[0] {
            "default" => Rules::BUFF_AND_GREEN,
            "english" => Rules::ENGLISH,
            "short-kings" => Rules {
                long_kings: false,
                ..Rules::BUFF_AND_GREEN
            },
            "forward-men" => Rules {
                backward_capture: false,
                ..Rules::BUFF_AND_GREEN
            },
            r => panic!("rules {r}"),
        };
        let pos = if f[1] == "startpos" {
            Position::startpos()
        } else {
            fen::parse(f[1]).unwrap()
        };
        let depth: u32 = f[2].parse().unwrap();
        let nodes: u64 = f[3].parse().unwrap();
        assert_eq!(
            buffgreen::tools::perft::perft(&pos, &rules, depth),
            nodes,
            "{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 16);
}
