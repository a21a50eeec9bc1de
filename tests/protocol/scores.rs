//! Scores a GUI can trust: `wdl` agrees with `score` in every line of a whole game, a dead
//! draw looks like one, a forced move is searched and scored, `MultiPV` lines are sorted by
//! their scores, and `go mate` / `go depth` stop where they say.

use buffgreen_testkit::protocol as protocol_support;

use buffgreen::board::Rules;
use protocol_support::{assert_legal_bestmove, Engine};

/// The `score` of an `info depth` line as a number that orders scores: a mate in `n` is above
/// every centi-men score (sooner is higher), a mate against below them.
fn score_order(line: &str) -> i64 {
    let t: Vec<&str> = line.split(' ').collect();
    let i = t.iter().position(|w| *w == "score").expect("score");
    let v: i64 = t[i + 2].parse().expect("score value");
    match t[i + 1] {
        "cp" => v,
        "mate" if v > 0 => 1_000_000 - v,
        "mate" => -1_000_000 - v,
        other => panic!("score {other} in {line:?}"),
    }
}

/// `(kind, value, [w, d, l])` of an `info depth` line.
fn score_and_wdl(line: &str) -> (String, i64, [i64; 3]) {
    let t: Vec<&str> = line.split(' ').collect();
    let i = t.iter().position(|w| *w == "score").expect("score");
    let j = t
        .iter()
        .position(|w| *w == "wdl")
        .unwrap_or_else(|| panic!("no wdl: {line:?}"));
    let n = |k: usize| -> i64 { t[k].parse().unwrap() };
    (
        t[i + 1].to_string(),
        n(i + 2),
        [n(j + 1), n(j + 2), n(j + 3)],
    )
}

fn field(line: &str, name: &str) -> i64 {
    let t: Vec<&str> = line.split(' ').collect();
    let i = t.iter().position(|w| *w == name).expect(name);
    t[i + 1].parse().unwrap()
}

#[test]
fn wdl_agrees_with_the_score_in_every_line_of_a_whole_game() {
    let mut e = Engine::start();
    assert!(e.ask("setoption name MultiPV value 2").is_empty());
    let mut moves: Vec<String> = Vec::new();
    let mut checked = 0;
    for _ in 0..400 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let out = e.go("go nodes 400");
        for l in out.iter().filter(|l| l.starts_with("info depth")) {
            let (kind, v, [w, d, l_]) = score_and_wdl(l);
            assert_eq!(w + d + l_, 1000, "{l}");
            match kind.as_str() {
                "cp" => assert_eq!((w - l_).signum(), v.signum(), "{l}"),
                _ if v > 0 => assert_eq!([w, d, l_], [1000, 0, 0], "{l}"),
                _ => assert_eq!([w, d, l_], [0, 0, 1000], "{l}"),
            }
            checked += 1;
        }
        let last = out.last().unwrap();
        match last.split(' ').nth(1) {
            Some("none") => break,
            Some(m) => moves.push(m.to_string()),
            None => panic!("{last:?}"),
        }
    }
    assert_eq!(
        e.ask("d")[13..14]
            .iter()
            .filter(|l| *l != "Result: ongoing")
            .count(),
        1,
        "the game was played to its end"
    );
    assert!(checked >= moves.len(), "{checked} lines");
}

#[test]
fn king_against_king_is_reported_as_a_draw() {
    let mut e = Engine::start();
    e.ask("setoption name BackwardCapture value false");
    e.ask("setoption name LongKings value false");
    e.ask("position fen W:WK10:BK23");
    let out = e.go("go nodes 200000");
    let last = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    let (kind, cp, [_, draw, _]) = score_and_wdl(last);
    assert_eq!(kind, "cp", "{last}");
    assert!(cp.abs() <= 50, "{last}");
    assert!(draw >= 900, "{last}");
}

#[test]
fn a_forced_move_is_searched_and_scored() {
    let mut e = Engine::start();
    // Black must take: 15x22 is the only legal move.
    e.ask("position startpos moves 11-15 22-18");
    let out = e.go("go nodes 100000");
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(field(&out[0], "nodes"), 1000, "{out:?}");
    assert!(out[0].contains(" score cp "), "{out:?}");
    assert!(out[1].starts_with("bestmove 15x22"), "{out:?}");
    // Under go infinite it is searched like any other move, until stop.
    e.send("go infinite");
    let first = e.recv_until(|l| l.starts_with("info depth"));
    let out = e.stop();
    let last = out
        .iter()
        .chain(first.iter())
        .filter(|l| l.starts_with("info depth"))
        .map(|l| field(l, "nodes"))
        .max()
        .unwrap();
    assert!(last > 1000, "{first:?} {out:?}");
}

#[test]
fn multipv_lines_are_sorted_by_their_scores_and_line_1_is_played() {
    let mut e = Engine::start();
    e.ask("setoption name MultiPV value 5");
    for moves in ["", "11-15 23-19 8-11 22-17", "11-15 24-20 8-11 28-24"] {
        e.send(&format!("position startpos moves {moves}"));
        let out = e.go("go nodes 20000");
        let info: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        for group in info.chunks(5) {
            let ranks: Vec<i64> = group.iter().map(|l| field(l, "multipv")).collect();
            assert_eq!(ranks, [1, 2, 3, 4, 5], "{group:?}");
            for pair in group.windows(2) {
                assert!(
                    score_order(pair[0]) >= score_order(pair[1]),
                    "{moves}: {pair:?}"
                );
            }
        }
        let first = info[info.len() - 5];
        let pv1 = first
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(
            out.last().unwrap().split(' ').nth(1),
            Some(pv1),
            "bestmove is line 1: {out:?}"
        );
    }
}

#[test]
fn go_mate_stops_at_the_proven_mate() {
    let mut e = Engine::start();
    // Black to move wins in two of its moves.
    e.ask("position fen B:W32:B19,K23");
    let out = e.go("go mate 2");
    let last = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last.contains(" score mate 2 "), "{out:?}");
    assert_legal_bestmove(out.last().unwrap(), "B:W32:B19,K23", &Rules::default());
    assert_eq!(out.last().unwrap().split(' ').nth(1), Some("19-24"));
}

#[test]
fn go_depth_stops_at_the_average_depth() {
    let mut e = Engine::start();
    let out = e.go("go depth 4");
    let last = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(field(last, "depth") >= 4, "{out:?}");
    assert_legal_bestmove(
        out.last().unwrap(),
        protocol_support::START_FEN,
        &Rules::default(),
    );
}
