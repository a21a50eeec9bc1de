//! The lab's alpha-beta sparring partner: it finds a shot, proves wins against the tables,
//! plays by the draw rule, and is deterministic under a node limit.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use buffgreen::board::{fen, Rules};
use buffgreen::search::tables::Endgame;
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen_lab::alphabeta::{Budget, Searcher, MATE, PROVEN};

fn depth(d: u32) -> Budget {
    Budget {
        depth: Some(d),
        ..Budget::default()
    }
}

/// The best move and the last iteration's score of `text` under `rules` within `budget`.
fn best(
    text: &str,
    rules: Rules,
    clock: u32,
    budget: Budget,
    tables: Option<Endgame>,
) -> (String, i32, u64) {
    let pos = fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut s = Searcher::new(rules, 4, tables);
    let mut score = 0;
    let (mv, nodes) = s.search(
        &pos,
        clock,
        budget,
        Arc::new(AtomicBool::new(false)),
        |it| score = it.score,
    );
    (mv.map_or("none".into(), |m| m.to_string()), score, nodes)
}

/// English rules, White to move: 26-23 gives a man and the triple jump back wins three.
#[test]
fn it_finds_a_shot() {
    let (mv, score, _) = best(
        "W:W20,26,29,31,32:B6,11,18,19",
        Rules::ENGLISH,
        0,
        depth(4),
        None,
    );
    assert_eq!(mv, "26-23");
    assert!(score > 200, "{score}");
}

/// A lone king against three kings is lost; the side with three finds the win and the
/// score says it is proven, well inside the draw rule.
#[test]
fn it_proves_a_won_king_ending_and_the_draw_rule_ends_it() {
    let rules = Rules::ENGLISH;
    let text = "W:WK1,K6,K10:BK28";
    let (_, score, _) = best(text, rules, 0, depth(30), None);
    assert!(score > MATE - 100, "{score}");
    // With two plies left before the draw rule, no win can be forced: a draw.
    let (_, score, _) = best(text, rules, 78, depth(12), None);
    assert_eq!(score, 0);
}

/// A side without a move has no best move.
#[test]
fn a_side_without_a_move_has_none() {
    let (mv, _, nodes) = best("B:W18:B", Rules::ENGLISH, 0, depth(3), None);
    assert_eq!((mv.as_str(), nodes), ("none", 0));
}

/// The same position and node limit give the same move and node count.
#[test]
fn a_node_limit_is_deterministic() {
    let budget = Budget {
        nodes: Some(50_000),
        ..Budget::default()
    };
    let start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    for rules in [Rules::ENGLISH, Rules::BUFF_AND_GREEN] {
        let a = best(start, rules, 0, budget, None);
        let b = best(start, rules, 0, budget, None);
        assert_eq!(a, b);
        assert!(a.2 >= 50_000 && a.2 < 50_000 + 1024 + 1, "{a:?}");
    }
}

/// With 3-piece tables the searcher's proven scores agree with the tables on every tabled
/// 3-piece position of a sample, at the root's children (the root itself is searched).
#[test]
fn tabled_scores_agree_with_the_tables() {
    let rules = Rules::ENGLISH;
    let dir = buffgreen_testkit::tables::shared(Path::new(env!("CARGO_TARGET_TMPDIR")), 3, &rules);
    let tb = Arc::new(Tablebase::open(&dir, &rules).expect("tables"));
    let cases = [
        "W:WK1,K6:BK28",
        "B:WK1,K6:BK28",
        "W:W27:B5",
        "B:W27:B5",
        "W:WK14:B5,K32",
        "B:W30,K14:BK3",
    ];
    for text in cases {
        let pos = fen::parse(text).expect("fen");
        let want = tb.probe_at(&pos, 0).expect("probe");
        let tables = Endgame::new(tb.clone(), 3);
        let (_, score, _) = best(text, rules, 0, depth(6), tables);
        let got = match score {
            s if s >= PROVEN => "win",
            s if s <= -PROVEN => "loss",
            0 => "draw",
            _ => "open",
        };
        let want = match want {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        };
        assert_eq!(got, want, "{text}: {score}");
    }
}
