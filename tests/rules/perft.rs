//! Perft against the reference figures in `tests/data/perft.txt`, and divide against perft.

use buffgreen::board::{fen, Rules};
use buffgreen::tools::perft::{divide, divide_with, perft, PerftTable};

/// One line of the table.
struct Case {
    rules: Rules,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn table() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [rules, fen, depth, nodes] = fields[..] else {
            panic!("perft.txt line {}: expected 4 fields: {line}", n + 1);
        };
        let rules = match rules {
            "english" => Rules::ENGLISH,
            "default" => Rules::default(),
            other => panic!("perft.txt line {}: unknown rules '{other}'", n + 1),
        };
        cases.push(Case {
            rules,
            fen: fen.to_string(),
            depth: depth.parse().expect("depth"),
            nodes: nodes.parse().expect("node count"),
        });
    }
    cases
}

#[test]
fn table_is_complete() {
    let cases = table();
    let depths = |r: Rules| -> Vec<u32> {
        cases
            .iter()
            .filter(|c| c.rules == r)
            .map(|c| c.depth)
            .collect()
    };
    assert_eq!(depths(Rules::ENGLISH), (1..=10).collect::<Vec<u32>>());
    assert_eq!(depths(Rules::default()), (1..=7).collect::<Vec<u32>>());
}

#[test]
fn perft_matches_reference_figures() {
    for c in table() {
        let pos = fen::parse(&c.fen).expect("valid FEN");
        assert_eq!(
            perft(&pos, &c.rules, c.depth),
            c.nodes,
            "{} depth {} under {:?}",
            c.fen,
            c.depth,
            c.rules
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    for c in table().into_iter().filter(|c| c.depth <= 8) {
        let pos = fen::parse(&c.fen).expect("valid FEN");
        for threads in [1, 2, 3] {
            let parts = divide(&pos, &c.rules, c.depth, threads);
            let sum: u64 = parts.iter().map(|(_, n)| n).sum();
            assert_eq!(
                sum, c.nodes,
                "{} depth {} threads {threads}",
                c.fen, c.depth
            );
            // One entry per root move, each equal to perft of its successor.
            assert_eq!(parts.len() as u64, perft(&pos, &c.rules, 1));
            for (mv, n) in parts.iter().filter(|_| c.depth <= 6) {
                let mut next = pos;
                next.play_unchecked(*mv);
                assert_eq!(*n, perft(&next, &c.rules, c.depth - 1), "{} {mv}", c.fen);
            }
        }
    }
}

/// Threaded divide ends on positions with nothing to split: no moves at the root, or root
/// moves after which the other side has none (the queue of subtrees empties).
#[test]
fn threaded_divide_ends_when_the_moves_run_out() {
    let no_moves = fen::parse("B:W26:B").expect("valid FEN");
    let wipe_out = fen::parse("W:W26:B14,15,22,23").expect("valid FEN");
    for threads in [2, 3] {
        assert!(divide(&no_moves, &Rules::default(), 6, threads).is_empty());
        let parts = divide(&wipe_out, &Rules::default(), 6, threads);
        let counts: Vec<u64> = parts.iter().map(|(_, n)| *n).collect();
        assert_eq!(counts, [0, 0], "threads {threads}");
        let parts = divide(&wipe_out, &Rules::default(), 1, threads);
        let counts: Vec<u64> = parts.iter().map(|(_, n)| *n).collect();
        assert_eq!(counts, [1, 1], "threads {threads}");
    }
}

/// The table gives the table-free counts exactly: per root move, on one and two threads, with a
/// table small enough (1 MiB) that entries are replaced all the time, and with one table kept
/// across depths so that later calls hit entries stored by earlier ones.
#[test]
fn hashed_divide_equals_table_free_divide() {
    for rules in [Rules::ENGLISH, Rules::default()] {
        let hash = PerftTable::new(1).expect("1 MiB");
        for c in table().into_iter().filter(|c| c.rules == rules) {
            let pos = fen::parse(&c.fen).expect("valid FEN");
            let plain = divide(&pos, &c.rules, c.depth, 1);
            assert_eq!(plain.iter().map(|(_, n)| n).sum::<u64>(), c.nodes);
            for threads in [1, 2] {
                let hashed = divide_with(&pos, &c.rules, c.depth, threads, Some(&hash));
                assert_eq!(
                    hashed, plain,
                    "{} depth {} threads {threads}",
                    c.fen, c.depth
                );
            }
        }
    }
}

/// Positions with kings of both kinds under all four switch settings: the hashed count equals
/// the table-free one (deep enough for flying-king transpositions to be found in the table).
#[test]
fn hashed_perft_equals_table_free_perft_with_kings() {
    let fens = [
        "B:WK3,18,22,26,30:B6,9,K27",
        "W:WK10,K27:BK5,K19,23",
        "B:W20,24,27,28,K6:B1,3,10,K26",
    ];
    for rules in Rules::ALL {
        let hash = PerftTable::new(1).expect("1 MiB");
        for text in fens {
            let pos = fen::parse(text).expect("valid FEN");
            let want: u64 = perft(&pos, &rules, 7);
            let got: u64 = divide_with(&pos, &rules, 7, 2, Some(&hash))
                .iter()
                .map(|(_, n)| n)
                .sum();
            assert_eq!(got, want, "{text} under {rules:?}");
        }
    }
}

#[test]
fn depth_zero_is_one_leaf_and_divide_is_empty() {
    let pos = fen::parse("B:W21-32:B1-12").expect("valid FEN");
    assert_eq!(perft(&pos, &Rules::default(), 0), 1);
    assert!(divide(&pos, &Rules::default(), 0, 2).is_empty());
}
