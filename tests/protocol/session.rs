//! Scripted sessions against the built binary: handshake, options, position and `d`, perft
//! divide, and the errors that must leave the state unchanged.

use buffgreen_testkit::protocol as protocol_support;

use buffgreen::board::Rules;
use protocol_support::{assert_legal_bestmove, lines, Engine, START_DIAGRAM};

#[test]
fn handshake() {
    let mut e = Engine::start();
    e.send("uci");
    let got = e.recv_until(|l| l == "uciok");
    let want = lines(&[
        &format!("id name buffgreen {}", env!("CARGO_PKG_VERSION")),
        "id author the buffgreen developers",
        "option name Variant type combo default buffgreen var buffgreen var english var pool var russian var brazilian",
        "option name BackwardCapture type check default true",
        "option name LongKings type check default true",
        "option name DrawHalfMoves type spin default 80 min 0 max 1000",
        "option name Losing type check default false",
        "option name Hash type spin default 64 min 1 max 4096",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name MultiPV type spin default 1 min 1 max 32",
        "option name MoveOverhead type spin default 10 min 0 max 5000",
        &format!(
            "option name Exploration type spin default {} min 0 max 1000",
            (buffgreen::search::SearchConfig::default().exploration * 100.0).round()
        ),
        &format!(
            "option name LearnedExploration type spin default {} min 0 max 1000",
            (buffgreen::search::SearchConfig::default().learned_exploration * 100.0).round()
        ),
        "option name PlainUct type check default false",
        &format!(
            "option name EvalCut type spin default {} min 0 max 1000",
            buffgreen::search::SearchConfig::default().eval_cut
        ),
        &format!(
            "option name MinimaxWeight type spin default {} min 0 max 100",
            (buffgreen::search::SearchConfig::default().minimax_weight * 100.0).round()
        ),
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2000 min 800 max 2000",
        "option name TablebasePath type string default <empty>",
        "option name TablebasePieces type spin default 7 min 0 max 7",
        "option name TablebaseCache type spin default 32 min 0 max 65536",
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name Ponder type check default false",
        "option name Notation type combo default numeric var numeric var algebraic",
        "option name Clear Hash type button",
        "uciok",
    ]);
    assert_eq!(got, want);
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    let all = e.quit_ok();
    assert_eq!(
        all.len(),
        want.len() + 1,
        "nothing else was printed: {all:#?}"
    );
}

/// What `d` prints at the start position: the diagram, then the game's state.
fn start_display() -> Vec<String> {
    let mut want = lines(&START_DIAGRAM);
    want.extend(
        [
            "Clock: 0",
            "Result: ongoing",
            "Turn: black",
            "Captures: none",
            "Moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16",
        ]
        .map(String::from),
    );
    want
}

#[test]
fn display_start_position_exactly() {
    let mut e = Engine::start();
    assert_eq!(e.display(), start_display());
}

#[test]
fn display_after_moves() {
    let mut e = Engine::start();
    assert!(e.ask("position startpos moves 11-15 24-20 8-11").is_empty());
    assert_eq!(
        e.display(),
        lines(&[
            "   +-----------------+",
            " 8 |   b   b   b   b |",
            " 7 | b   b   b   .   |",
            " 6 |   b   b   b   b |",
            " 5 | .   .   b   .   |",
            " 4 |   .   .   .   w |",
            " 3 | w   w   w   .   |",
            " 2 |   w   w   w   w |",
            " 1 | w   w   w   w   |",
            "   +-----------------+",
            "     a b c d e f g h",
            "Fen: W:W20,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15",
            "Clock: 3",
            "Result: ongoing",
            "Turn: white",
            "Captures: none",
            "Moves: 20-16 21-17 22-17 22-18 23-18 23-19 27-24 28-24",
        ])
    );
    // Every FEN form the parser accepts, with kings and a finished game.
    let d = e.display_of("position fen [FEN \"w:bk1-3:w30.\"]");
    assert_eq!(
        d[11..14],
        lines(&["Fen: W:W30:BK1,K2,K3", "Clock: 0", "Result: ongoing"])
    );
    let d = e.display_of("position fen B:W18:B");
    assert_eq!(
        d[11..14],
        lines(&["Fen: B:W18:B", "Clock: 0", "Result: white wins (no move)"])
    );
}

#[test]
fn go_perft_divide_exactly() {
    let mut e = Engine::start();
    let want = lines(&[
        "9-13: 48",
        "9-14: 40",
        "10-14: 40",
        "10-15: 40",
        "11-15: 40",
        "11-16: 47",
        "12-16: 47",
        "",
        "Nodes searched: 302",
    ]);
    assert_eq!(e.perft("go perft 3"), want);
    // Under the current position and rules: a backward capture is forced by default, and
    // impossible in English rules.
    e.ask("position fen W:W18,30:B1,23");
    assert_eq!(
        e.perft("go perft 1"),
        lines(&["18x27: 1", "", "Nodes searched: 1"])
    );
    assert!(e
        .ask("setoption name BackwardCapture value false")
        .is_empty());
    assert_eq!(
        e.perft("go perft 1"),
        lines(&[
            "18-14: 1",
            "18-15: 1",
            "30-25: 1",
            "30-26: 1",
            "",
            "Nodes searched: 4"
        ])
    );
    // Depth 2 after a move, with Threads changed: same counts.
    e.ask("setoption name Threads value 2");
    e.ask("setoption name BackwardCapture value true");
    e.ask("position startpos moves 9-13");
    let d = e.perft("go perft 2");
    assert_eq!(d.last().unwrap(), "Nodes searched: 48");
    assert_eq!(d.len(), 7 + 2);
}

#[test]
fn algebraic_notation_in_and_out() {
    let mut e = Engine::start();
    // Input: algebraic moves name the same moves as numbers (d6-c5 is 10-14), in either case,
    // with or without the option; numbers and letters are not mixed within one move.
    assert!(e
        .ask("position startpos moves F6-E5 c3-d4 e5xC3")
        .is_empty());
    let numeric_fen = "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22";
    assert_eq!(e.display()[11], format!("Fen: {numeric_fen}"));
    assert!(e.ask("position startpos moves 10-14 d4-c5").len() == 1);
    assert_eq!(
        e.ask("position startpos moves 10-c5"),
        lines(&[
            "info string error: move 1 '10-c5': bad move '10-c5': it mixes square numbers \
                 and algebraic squares; write it in one form, like 10-14 or d6-c5"
        ])
    );
    // FEN piece lists take algebraic squares (kings with K); ranges stay numeric.
    assert_eq!(
        e.display_of("position fen W:Wa3,c3,Kd2:Bb8,Kh8")[11],
        "Fen: W:W21,22,K26:B1,K4"
    );
    assert_eq!(
        e.ask("position fen W:Wa3-c3:B1"),
        lines(&[
            "info string error: bad FEN: range a3-c3: a range takes square numbers, like 1-12"
        ])
    );
    assert_eq!(
        e.ask("position fen W:Wa4:B1"),
        lines(&[
            "info string error: bad FEN: 'a4' is a light square: pieces stand on the dark \
                 squares (a1, b2, ..., h8)"
        ])
    );
    assert_eq!(e.display()[11], "Fen: W:W21,22,K26:B1,K4", "state kept");
    // Output: divide, `d`'s captures, bestmove and pv follow the option.
    assert!(e.ask("setoption name Notation value Algebraic").is_empty());
    assert_eq!(
        e.perft("go perft 1"),
        lines(&[
            "a3-b4: 1",
            "c3-b4: 1",
            "c3-d4: 1",
            "d2-h6: 1",
            "d2-g5: 1",
            "d2-f4: 1",
            "d2-e3: 1",
            "d2-c1: 1",
            "d2-e1: 1",
            "",
            "Nodes searched: 9"
        ])
    );
    e.ask("position fen W:W18,30:B1,23");
    assert_eq!(e.display()[15], "Captures: d4xf2");
    e.ask("position fen B:W18:B14");
    let out = e.go("go nodes 100");
    assert_eq!(out.last().unwrap(), "bestmove c5xe3");
    assert!(out.iter().any(|l| l.ends_with(" pv c5xe3")), "{out:?}");
    assert_eq!(
        e.ask("setoption name Notation value short"),
        lines(&[
            "info string error: option Notation: bad value 'short': expected one of \
                 numeric, algebraic"
        ])
    );
    e.ask("setoption name notation value NUMERIC");
    e.send("go nodes 100");
    assert_eq!(e.until_bestmove().last().unwrap(), "bestmove 14x23");
}

#[test]
fn losing_option_results_perft_and_search() {
    let mut e = Engine::start();
    assert!(e.ask("setoption name Losing value true").is_empty());
    // The moves do not change.
    assert_eq!(
        e.perft("go perft 4").last().unwrap(),
        "Nodes searched: 1469"
    );
    // Blocked or without pieces, the side to move wins.
    e.ask("position fen B:W32:B28");
    assert_eq!(
        e.display()[12..14],
        lines(&["Clock: 0", "Result: black wins (no move)"])
    );
    e.send("go nodes 100");
    assert_eq!(e.until_bestmove().last().unwrap(), "bestmove none");
    // The search gives its last man away: 14-18 forces 23x14, and Black has nothing left.
    e.ask("position fen B:W23:B14");
    let out = e.go("go nodes 1000");
    assert_eq!(out.last().unwrap(), "bestmove 14-18 ponder 23x14");
    assert!(
        out.iter()
            .any(|l| l.contains(" score mate 1 wdl 1000 0 0 ")),
        "{out:?}"
    );
    // Its only move loses at once: reported as mate -1.
    e.ask("position fen W:W18:B14");
    let out = e.go("go nodes 100");
    assert_eq!(out.last().unwrap(), "bestmove 18x9");
    assert!(out.iter().any(|l| l.contains(" score mate -1 ")), "{out:?}");
    // Switched back, the same position is lost for the side without a move again.
    e.ask("setoption name Losing value false");
    e.ask("position fen B:W32:B28");
    assert_eq!(e.display()[13], "Result: white wins (no move)");
}

#[test]
fn rules_options_change_the_game() {
    let mut e = Engine::start();
    // Flying king from 1, then short.
    e.ask("position fen B:W32:BK1");
    assert_eq!(e.perft("go perft 1").last().unwrap(), "Nodes searched: 7");
    assert!(e.ask("setoption name LongKings value false").is_empty());
    assert_eq!(
        e.perft("go perft 1"),
        lines(&["1-5: 1", "1-6: 1", "", "Nodes searched: 2"])
    );
    // The draw rule: four quiet king moves, then a limit of 4 draws the game; 3 cannot replay
    // the fourth move, so the game goes back to its start position and says so.
    e.ask("position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32");
    let tail = |e: &mut Engine| {
        let d = e.display();
        d[11..14].to_vec()
    };
    assert_eq!(
        tail(&mut e),
        lines(&["Fen: B:WK32:BK1", "Clock: 4", "Result: ongoing"])
    );
    assert!(e.ask("setoption name DrawHalfMoves value 4").is_empty());
    assert_eq!(
        tail(&mut e),
        lines(&["Fen: B:WK32:BK1", "Clock: 4", "Result: draw (4 half-moves)"])
    );
    assert_eq!(
        e.ask("setoption name drawhalfmoves value 3"),
        lines(&[
            "info string rules changed: move 4 (27-32) cannot be replayed: the game was \
                 already over (draw); the game is back at its start position"
        ])
    );
    assert_eq!(
        tail(&mut e),
        lines(&["Fen: B:WK32:BK1", "Clock: 0", "Result: ongoing"])
    );
    // A backward capture that the new rules forbid.
    e.ask("setoption name LongKings value true");
    e.ask("position fen W:W18,30:B1,23 moves 18x27");
    assert_eq!(
        e.ask("setoption name BackwardCapture value false"),
        lines(&[
            "info string rules changed: move 1 (18x27) cannot be replayed: it is illegal; \
                 the game is back at its start position"
        ])
    );
    assert_eq!(e.fen(), "W:W18,30:B1,23");
    // ucinewgame keeps the rules and goes to the start position.
    e.ask("ucinewgame");
    assert_eq!(
        e.fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    e.ask("position fen W:W18,30:B1,23");
    assert_eq!(e.perft("go perft 1").last().unwrap(), "Nodes searched: 4");
}

/// (name as sent, min, max) of every spin option; check options are listed separately.
const SPINS: &[(&str, i64, i64)] = &[
    ("DrawHalfMoves", 0, 1000),
    ("Hash", 1, 4096),
    ("Threads", 1, 256),
    ("Seed", 0, 2147483647),
    ("MultiPV", 1, 32),
    ("MoveOverhead", 0, 5000),
    ("Exploration", 0, 1000),
    ("LearnedExploration", 0, 1000),
    ("EvalCut", 0, 1000),
    ("MinimaxWeight", 0, 100),
    ("UCI_Elo", 800, 2000),
];

const CHECKS: &[&str] = &[
    "BackwardCapture",
    "LongKings",
    "Losing",
    "Ponder",
    "PlainUct",
    "UCI_LimitStrength",
];

#[test]
fn the_familys_draw_rules_end_a_game_set_by_its_moves() {
    let mut e = Engine::start();
    e.ask("setoption name Variant value russian");
    // The kings on 1 and 32 shuttle: after eight plies the position stands there the third
    // time with White to move.
    let shuttle = "1-5 32-28 5-1 28-32";
    let result = |e: &mut Engine| e.display()[13].clone();
    e.ask(&format!(
        "position fen W:WK1,13:BK32,20 moves {shuttle} {shuttle}"
    ));
    assert_eq!(result(&mut e), "Result: draw (repetition)");
    assert_eq!(e.display().last().unwrap(), "Moves: none");
    assert_eq!(
        e.ask(&format!(
            "position fen W:WK1,13:BK32,20 moves {shuttle} {shuttle} 1-5"
        )),
        lines(&["info string error: move 9 '1-5': the game is over (draw)"])
    );
    // A FEN carries no counters: the same position set alone goes on.
    e.ask("position fen W:WK1,13:BK32,20");
    assert_eq!(result(&mut e), "Result: ongoing");
    // Buff and Green counts no repetition.
    e.ask("setoption name Variant value buffgreen");
    e.ask(&format!(
        "position fen W:WK1,13:BK32,20 moves {shuttle} {shuttle}"
    ));
    assert_eq!(result(&mut e), "Result: ongoing");
}

#[test]
fn every_option_accepts_its_range_and_refuses_the_rest() {
    let mut e = Engine::start();
    for &(name, min, max) in SPINS {
        let lower = name.to_lowercase();
        for v in [min, max] {
            assert!(
                e.ask(&format!("setoption name {name} value {v}"))
                    .is_empty(),
                "{name} {v}"
            );
            assert!(e
                .ask(&format!("setoption name {lower} value {v}"))
                .is_empty());
        }
        let expected = |v: &str| {
            lines(&[&format!(
                "info string error: option {name}: bad value '{v}': expected an integer from {min} to {max}"
            )])
        };
        for bad in [
            (min - 1).to_string(),
            (max + 1).to_string(),
            "abc".to_string(),
            "1.5".to_string(),
            "99999999999999999999999".to_string(),
        ] {
            assert_eq!(
                e.ask(&format!("setoption name {name} value {bad}")),
                expected(&bad),
                "{name} {bad}"
            );
        }
        assert_eq!(
            e.ask(&format!("setoption name {name}")),
            lines(&[&format!("info string error: option {name} needs a value")])
        );
    }
    for &name in CHECKS {
        for v in ["true", "false", "TRUE", "False"] {
            assert!(e
                .ask(&format!("setoption name {} value {v}", name.to_uppercase()))
                .is_empty());
        }
        assert_eq!(
            e.ask(&format!("setoption name {name} value 1")),
            lines(&[&format!(
                "info string error: option {name}: bad value '1': expected true or false"
            )])
        );
    }
    assert_eq!(
        e.ask("setoption name UCI_AnalyseMode value true"),
        lines(&["info string error: unknown option 'UCI_AnalyseMode'"])
    );
    assert_eq!(
        e.ask("setoption name Hash value 3 4"),
        lines(&[
            "info string error: option Hash: bad value '3 4': expected an integer from 1 to 4096"
        ])
    );
    // The engine still plays after all that (Ponder, PlainUct and the rules were left false).
    e.ask("setoption name PlainUct value false");
    e.ask("setoption name Hash value 16");
    let out = e.go("go nodes 50");
    let rules = Rules {
        draw_half_moves: 1000,
        ..Rules::ENGLISH
    };
    assert_legal_bestmove(out.last().unwrap(), protocol_support::START_FEN, &rules);
}

#[test]
fn refused_option_changes_nothing() {
    let mut e = Engine::start();
    e.ask("position fen W:W18,30:B1,23");
    assert_eq!(
        e.ask("setoption name BackwardCapture value no"),
        lines(&[
            "info string error: option BackwardCapture: bad value 'no': expected true or false"
        ])
    );
    assert_eq!(
        e.ask("setoption name DrawHalfMoves value -1"),
        lines(&["info string error: option DrawHalfMoves: bad value '-1': expected an integer from 0 to 1000"])
    );
    // Still the default rules: the backward capture is forced.
    assert_eq!(
        e.perft("go perft 1"),
        lines(&["18x27: 1", "", "Nodes searched: 1"])
    );
}

#[test]
fn every_error_class_leaves_the_state_unchanged() {
    let mut e = Engine::start();
    e.ask("position startpos moves 11-15 22-18");
    let before = e.display();
    let cases: &[(&str, &str)] = &[
        (
            "position fen B:W21-32:B1-12:W5",
            "info string error: bad FEN: trailing characters at column 14: ':W5'",
        ),
        (
            "position fen X:W21-32:B1-12",
            "info string error: bad FEN: bad turn 'X': expected B or W",
        ),
        (
            "position fen B:W21-33:B1-12",
            "info string error: bad FEN: square 33 is not in 1..=32",
        ),
        (
            "position fen B:W1:B2",
            "info string error: bad FEN: white man on 1 stands on its own crowning row",
        ),
        (
            "position startpos moves 11-15 22-18 15-19",
            "info string error: move 3 '15-19': illegal move '15-19'; legal moves: 15x22",
        ),
        (
            "position startpos moves 11-15 22-18 15x22 25x18 9-14 18x9 5x14 bad",
            "info string error: move 8 'bad': bad move syntax 'bad': expected squares joined by \
             '-', 'x' or ':', like 11-15, 9x18x27 or d6-c5",
        ),
        (
            "position fen W:W26:B14,15,22,23 moves 26x26",
            "info string error: move 1 '26x26': ambiguous move '26x26' matches 26x17x10x19x26 \
             26x19x10x17x26; give every landing square",
        ),
        (
            "position fen B:W18:B moves 1-5",
            "info string error: move 1 '1-5': the game is over (white wins)",
        ),
        (
            "setoption name Hash value 0",
            "info string error: option Hash: bad value '0': expected an integer from 1 to 4096",
        ),
        (
            "setoption name Threads value many",
            "info string error: option Threads: bad value 'many': expected an integer from 1 to 256",
        ),
        (
            "go searchmoves 11-16",
            "info string error: searchmoves: illegal move '11-16'; legal moves: 15x22",
        ),
        ("go depth 0", "info string error: go: bad value '0' for depth: expected an integer from 1 to 4294967295"),
        ("position", "info string error: position: missing 'startpos' or 'fen'"),
        ("flip", "info string error: unknown command 'flip'"),
    ];
    for (line, want) in cases {
        assert_eq!(e.ask(line), lines(&[want]), "{line}");
        assert_eq!(e.display(), before, "after {line}");
    }
    // The long-form king loop is accepted where the short form was ambiguous.
    assert!(e
        .ask("position fen W:W26:B14,15,22,23 moves 26x17x10x19x26")
        .is_empty());
    assert_eq!(e.fen(), "B:W26:B");
}

/// The error table and the `uci`/`d` examples of protocol.md are what the engine really says.
#[test]
fn protocol_md_examples_are_true() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md");
    let errors = doc
        .split("\n## Errors\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("an Errors section");
    let mut e = Engine::start();
    let mut checked = 0;
    for row in errors.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let (Some(input), Some(reply)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let (Some(input), Some(reply)) = (
            input.strip_prefix('`').and_then(|s| s.strip_suffix('`')),
            reply
                .trim_end_matches(" |")
                .strip_prefix('`')
                .and_then(|s| s.strip_suffix('`')),
        ) else {
            continue;
        };
        if input.starts_with("go` during") || !reply.starts_with("info string error") {
            continue;
        }
        assert_eq!(e.ask(input), [reply], "protocol.md row: {row}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows checked");
    // The uci reply in the example session.
    e.send("uci");
    let uci = e.recv_until(|l| l == "uciok");
    // The version may move on without the example; option defaults (tuned ones included)
    // must be the ones documented, but for `TablebasePath`'s, a path of the machine (tests
    // run with none; tests/tablebase/home.rs checks it).
    for l in uci
        .iter()
        .filter(|l| !l.starts_with("id name") && !l.starts_with("option name TablebasePath"))
    {
        assert!(doc.contains(&format!("< {l}\n")), "protocol.md lacks {l:?}");
    }
    // The d example.
    let d = start_display();
    assert!(doc.contains(&format!("\n{}\n", d.join("\n"))));
}

/// Issue 40 item 8: a string option's value is everything after `value` (and one blank),
/// whitespace kept: a `TablebasePath` with two spaces names that path, not another.
#[test]
fn a_string_option_keeps_the_whitespace_of_its_value() {
    let mut e = Engine::start();
    assert_eq!(
        e.ask("setoption name TablebasePath value /no/such  dir "),
        ["info string error: TablebasePath: tablebase directory /no/such  dir  does not exist"]
    );
    let dir = std::env::temp_dir().join(format!("bg  tables {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let said = e.ask(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    // An empty directory is refused, by its own name (the two spaces kept).
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains(&dir.display().to_string()), "{said:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
