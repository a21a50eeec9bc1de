//! Every position of up to three pieces, under all four rule settings, with the draw rule at
//! 80 and off: the built tables give exactly the independent solver's result and distance.
//! Likewise under losing rules, English and Buff and Green.

use buffgreen::board::Rules;
use buffgreen::tablebase::{Tablebase, Value};

use crate::common::rules_name;
use crate::solver::{all_boards, Graph, Solved};
use crate::tables;

fn expected(s: Solved) -> Value {
    match s.sign {
        1 => Value::Win(s.d),
        -1 => Value::Loss(s.d),
        _ => Value::Draw,
    }
}

fn check(graph: &Graph, solved: &[Solved], rules: &Rules) {
    let dir = tables(3, rules);
    let tb = Tablebase::open(&dir, rules).expect("tables open");
    let mut wins = 0;
    for (board, s) in graph.boards.iter().zip(solved) {
        let pos = board.position();
        let got = tb.probe(&pos).expect("covered");
        assert_eq!(
            got,
            expected(*s),
            "{pos:?} under {} DrawHalfMoves={} Losing={}",
            rules_name(rules),
            rules.draw_half_moves,
            rules.losing
        );
        wins += usize::from(s.sign == 1);
    }
    // The comparison is not vacuous.
    assert!(wins > graph.boards.len() / 4, "{wins} wins");
}

#[test]
fn three_pieces_agree_with_the_independent_solver() {
    agree(&Rules::ALL);
}

#[test]
fn three_pieces_of_losing_checkers_agree_with_the_independent_solver() {
    agree(&[Rules::ENGLISH, Rules::BUFF_AND_GREEN].map(|r| Rules { losing: true, ..r }));
}

/// The tables of up to three pieces under each of `settings`, with the draw rule at 80 and
/// off, against the independent solver.
fn agree(settings: &[Rules]) {
    let boards = all_boards();
    assert_eq!(boards.len(), 2 * (3_488 + 196_032));
    // Two rule settings at a time: each graph holds a few hundred MB.
    for pair in settings.chunks(2) {
        std::thread::scope(|s| {
            for &rules in pair {
                let boards = boards.clone();
                s.spawn(move || {
                    let graph = Graph::new(boards, &rules);
                    check(&graph, &graph.solve_with_clock(80), &rules);
                    let no_rule = Rules {
                        draw_half_moves: 0,
                        ..rules
                    };
                    check(&graph, &graph.solve_without_rule(), &no_rule);
                });
            }
        });
    }
}
