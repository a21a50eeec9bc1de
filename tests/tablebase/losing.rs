//! Tables of losing checkers (`--losing`): named endings with their exact values, the draw
//! clock, `tb verify` on a small build, tables refused for the other rules, and the engine
//! playing the tabled win.

use std::sync::mpsc;

use buffgreen::board::{fen, next_clock, Rules};
use buffgreen::engine::{Engine, GoRequest, StartPosition};
use buffgreen::search::{Limits, Score, SearchEvent};
use buffgreen::tablebase::build::build;
use buffgreen::tablebase::{Tablebase, TbError, Value};

use buffgreen_testkit::tables::options;

use crate::consistency::verify_line;
use crate::tables;

const ENGLISH: Rules = Rules {
    losing: true,
    ..Rules::ENGLISH
};
const BUFF_AND_GREEN: Rules = Rules {
    losing: true,
    ..Rules::BUFF_AND_GREEN
};

fn value(tb: &Tablebase, f: &str, clock: u32) -> Value {
    let pos = fen::parse(f).unwrap_or_else(|e| panic!("{f}: {e}"));
    tb.probe_at(&pos, clock)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
}

#[test]
fn named_losing_endings_have_exact_values() {
    for rules in [ENGLISH, BUFF_AND_GREEN] {
        let tb = Tablebase::open(&tables(3, &rules), &rules).expect("open");
        // A side to move without pieces has no move, and wins, at every clock.
        assert_eq!(value(&tb, "B:WK5:B", 0), Value::Win(0));
        assert_eq!(value(&tb, "W:W:BK5,K9", 80), Value::Win(0));
        // Black's man on 28 is blocked by White's on 32: Black has no move and wins ...
        assert_eq!(value(&tb, "B:W32:B28", 0), Value::Win(0));
        assert_eq!(value(&tb, "B:W32:B28", 80), Value::Win(0));
    }
    let en = Tablebase::open(&tables(3, &ENGLISH), &ENGLISH).expect("open");
    // White to move in the blocked position above must play 32-27, and Black's crowning 28-32
    // converts into an ending Black wins: loss in 2 (with flying kings, a win in 2 instead).
    assert_eq!(value(&en, "W:W32:B28", 0), Value::Loss(2));
    // Two short kings against one: Black forces its own lone-king win (the first losing entry
    // of docs/results/ found it as `score mate 9` after 83,009 iterations).
    assert_eq!(value(&en, "B:WK2:BK15,K29", 0), Value::Win(14));
    assert_eq!(value(&en, "W:WK2:BK15,K29", 0), Value::Loss(3));
    // The draw clock still draws: a win in 14 holds while 14 <= 80 - clock.
    assert_eq!(value(&en, "B:WK2:BK15,K29", 66), Value::Win(14));
    assert_eq!(value(&en, "B:WK2:BK15,K29", 67), Value::Draw);
    assert_eq!(value(&en, "W:WK2:BK15,K29", 77), Value::Loss(3));
    assert_eq!(value(&en, "W:WK2:BK15,K29", 78), Value::Draw);
    // Held from both corners, short kings do not get there.
    assert_eq!(value(&en, "W:WK17:BK4,K5", 0), Value::Draw);
    assert_eq!(value(&en, "B:WK17:BK4,K5", 0), Value::Win(18));
    // The same position under normal rules is another table altogether.
    let normal = Tablebase::open(&tables(3, &Rules::ENGLISH), &Rules::ENGLISH).expect("open");
    assert_eq!(value(&normal, "B:W32:B28", 0), Value::Loss(0));
}

#[test]
fn losing_tables_are_refused_for_normal_rules_and_back() {
    let losing = tables(3, &ENGLISH);
    let normal = tables(3, &Rules::ENGLISH);
    let other = |dir: &std::path::Path, rules: &Rules| match Tablebase::open(dir, rules) {
        Err(e @ TbError::OtherRules { .. }) => e.to_string(),
        other => panic!("{other:?}"),
    };
    assert!(other(&losing, &Rules::ENGLISH).ends_with(
        ": built for BackwardCapture=false LongKings=false DrawHalfMoves=80 Losing=true, \
         not BackwardCapture=false LongKings=false DrawHalfMoves=80"
    ));
    assert!(other(&normal, &ENGLISH).ends_with(
        ": built for BackwardCapture=false LongKings=false DrawHalfMoves=80, \
         not BackwardCapture=false LongKings=false DrawHalfMoves=80 Losing=true"
    ));
    // Nor does a build add losing slices to a directory of normal ones (refused before it
    // writes anything).
    let opts = options(&normal, 3, ENGLISH);
    match build(&opts, &mut |_| {}) {
        Err(TbError::OtherRules { wanted, .. }) => assert_eq!(
            wanted,
            "BackwardCapture=false LongKings=false DrawHalfMoves=80 Losing=true"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn small_losing_tables_pass_verify() {
    for (rules, line) in [
        (
            ENGLISH,
            "ok: 9 slices, 199520 positions consistent \
             (BackwardCapture=false LongKings=false DrawHalfMoves=80 Losing=true)",
        ),
        (
            BUFF_AND_GREEN,
            "ok: 9 slices, 199520 positions consistent \
             (BackwardCapture=true LongKings=true DrawHalfMoves=80 Losing=true)",
        ),
    ] {
        assert_eq!(verify_line(3, &rules), line);
    }
}

#[test]
fn the_engine_plays_the_tabled_losing_win() {
    let dir = tables(3, &ENGLISH);
    let tb = Tablebase::open(&dir, &ENGLISH).expect("open");
    let root = "B:WK2:BK15,K29";
    let mut e = Engine::new();
    for (name, value) in [
        ("BackwardCapture", "false"),
        ("LongKings", "false"),
        ("Losing", "true"),
        ("TablebasePath", dir.to_str().expect("utf-8 path")),
    ] {
        e.set_option(name, Some(value))
            .unwrap_or_else(|err| panic!("{name}: {err}"));
    }
    e.set_position(&StartPosition::Fen(root.to_string()), &[])
        .expect("position");
    let (tx, rx) = mpsc::channel();
    let (itx, irx) = mpsc::channel();
    e.go(
        GoRequest {
            limits: Limits::nodes(300),
            searchmoves: vec![],
        },
        Box::new(move |ev| {
            if let SearchEvent::Info(i) = ev {
                let _ = itx.send(i.score);
            }
        }),
        Box::new(move |o| {
            let _ = tx.send(o.best);
        }),
    )
    .expect("go");
    e.wait();
    let best = rx.recv().expect("an answer").expect("a move");
    // The move of the fastest conversion: the opponent is lost in 13 after it (no capture).
    let mut next = fen::parse(root).expect("fen");
    next.play_unchecked(best);
    assert_eq!(next_clock(best, 0), 1, "{best}");
    assert_eq!(tb.probe_at(&next, 1).expect("covered"), Value::Loss(13));
    assert_eq!(irx.try_iter().last(), Some(Score::Cp(20_000 - 14)));
}
