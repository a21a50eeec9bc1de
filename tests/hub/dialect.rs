//! The Hub dialect (`buffgreen hub`, and a session that opens with `hub`), without Python: a
//! recorded pydraughts session replayed line by line, every error class, and the commands a
//! GUI sends during a search. Which move the search picks is never asserted; legality,
//! formats and counts are.

use buffgreen_testkit::protocol as protocol_support;

use buffgreen::board::{generate_moves, MoveList, Position, Rules, Variant};
use buffgreen::engine::{option_table, OptionKind};
use buffgreen::hub::notation::{Encoding, Numbering};
use buffgreen::hub::Session;
use buffgreen::protocol::Output;
use protocol_support::Engine;

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
const SESSION: &str = include_str!("../data/hub/pydraughts-session.txt");
const BUSY: &str = "error message=\"a search is running: only ping, stop, ponder-hit and quit \
                    are accepted until its done\"";

/// How pydraughts writes English positions and moves.
fn english() -> Numbering {
    Numbering::new(Encoding::Pydraughts, Variant::English)
}

fn legal(pos: &Position, rules: &Rules) -> Vec<buffgreen::types::Move> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    list.to_vec()
}

/// The position a `pos` line sets (pydraughts encoding, English rules).
fn position_of(line: &str) -> Position {
    let Ok(Some((_, args))) = buffgreen::hub::command::tokenize(line) else {
        panic!("bad pos line {line:?}");
    };
    let value = |name: &str| args.iter().find(|a| a.name == name)?.value.clone();
    let mut pos = english()
        .parse_pos(&value("pos").unwrap_or(START.into()))
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    for m in value("moves").unwrap_or_default().split_whitespace() {
        let mv = english()
            .parse_move(m, &legal(&pos, &Rules::ENGLISH))
            .expect("recorded move");
        pos.play_unchecked(mv);
    }
    pos
}

/// Checks an `info` line (`info depth=D mean-depth=M score=S nodes=N time=T nps=R
/// [pv="..."]`) and that its pv is a legal line from `pos`.
fn check_info(line: &str, pos: &Position) {
    let Ok(Some((cmd, args))) = buffgreen::hub::command::tokenize(line) else {
        panic!("bad info line {line:?}");
    };
    assert_eq!(cmd, "info", "{line:?}");
    let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
    let fields = ["depth", "mean-depth", "score", "nodes", "time", "nps"];
    assert_eq!(&names[..6], fields, "{line:?}");
    for a in &args[..6] {
        let v = a.value.as_deref().unwrap_or("");
        assert!(
            v.parse::<f64>().is_ok(),
            "{} is not a number in {line:?}",
            a.name
        );
    }
    for a in &args[..2] {
        assert!(
            a.value.as_deref().unwrap_or("").parse::<u32>().is_ok(),
            "{line:?}"
        );
    }
    if let Some(pv) = args.get(6) {
        assert_eq!(pv.name, "pv", "{line:?}");
        assert!(args.len() == 7, "{line:?}");
        let mut p = *pos;
        for m in pv.value.as_deref().unwrap_or("").split_whitespace() {
            let mv = english()
                .parse_move(m, &legal(&p, &Rules::ENGLISH))
                .unwrap_or_else(|e| panic!("pv move {m} in {line:?}: {e}"));
            assert_eq!(english().write_move(mv), m);
            p.play_unchecked(mv);
        }
    }
}

/// Checks `done move=<m> [ponder=<p>]` with `<m>` legal in `pos`, both in Hub notation.
fn check_done(line: &str, pos: &Position, rules: &Rules) -> buffgreen::types::Move {
    let t: Vec<&str> = line.split(' ').collect();
    assert!(t.len() == 2 || t.len() == 3, "{line:?}");
    assert_eq!(t[0], "done");
    let m = t[1].strip_prefix("move=").expect("move=");
    let mv = english()
        .parse_move(m, &legal(pos, rules))
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(english().write_move(mv), m);
    if let Some(p) = t.get(2) {
        let p = p.strip_prefix("ponder=").expect("ponder=");
        let mut after = *pos;
        after.play_unchecked(mv);
        english()
            .parse_move(p, &legal(&after, rules))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    mv
}

/// The `param` line the handshake must give for each engine option (except the two rules
/// switches, which `variant` replaces), written here independently of the engine's code.
fn option_params() -> Vec<String> {
    option_table()
        .iter()
        .filter(|o| o.name != "BackwardCapture" && o.name != "LongKings")
        .filter_map(|o| match o.kind {
            OptionKind::Check { default } => {
                Some(format!("param name={} value={default} type=bool", o.name))
            }
            OptionKind::Spin { default, min, max } => Some(format!(
                "param name={} value={default} type=int min={min} max={max}",
                o.name
            )),
            // An empty value is quoted.
            OptionKind::String { default: "" } => {
                Some(format!("param name={} value=\"\" type=string", o.name))
            }
            OptionKind::String { default } => {
                Some(format!("param name={} value={default} type=string", o.name))
            }
            // Hub has no button type, and its notation is fixed (no `Notation` combo).
            OptionKind::Button | OptionKind::Combo { .. } => None,
        })
        .collect()
}

/// Replaces the recorded engine-option `param` lines by [`option_params`], so the recording
/// pins the Hub lines and the option table may grow without re-recording.
fn with_current_options(expected: Vec<String>) -> Vec<String> {
    let is_option = |l: &String| {
        l.starts_with("param ")
            && !l.starts_with("param name=variant ")
            && !l.starts_with("param name=pos-encoding ")
    };
    let Some(first) = expected.iter().position(is_option) else {
        return expected;
    };
    let mut v: Vec<String> = expected[..first].to_vec();
    v.extend(option_params());
    v.extend(expected.into_iter().skip(first).filter(|l| !is_option(l)));
    v
}

/// Sends `ping` and returns every line before `pong`.
fn sync(e: &mut Engine) -> Vec<String> {
    e.send("ping");
    let mut v = e.recv_until(|l| l == "pong");
    v.pop();
    v
}

fn hub_engine() -> Engine {
    let mut e = Engine::start_with(&["hub"]);
    e.send("hub");
    e.recv_until(|l| l == "wait");
    e
}

#[test]
fn recorded_pydraughts_session_replays_line_by_line() {
    let version = env!("CARGO_PKG_VERSION");
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in SESSION.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            steps.push((cmd.to_string(), Vec::new()));
        } else if let Some(reply) = line.strip_prefix("< ") {
            let step = steps.last_mut().expect("a reply follows a command");
            step.1.push(reply.replace("{version}", version));
        } else {
            assert!(line.starts_with('#') || line.is_empty(), "{line:?}");
        }
    }
    assert_eq!(steps.len(), 32);
    let mut e = Engine::start_with(&["hub"]);
    let mut pos = Position::startpos();
    let mut searches = 0;
    for (cmd, expected) in steps {
        e.send(&cmd);
        if cmd.starts_with("pos ") {
            pos = position_of(&cmd);
        }
        if cmd == "quit" {
            let seen = e.transcript.len();
            let (all, status) = e.finish();
            assert!(all.len() == seen && status.success(), "{all:?} {status:?}");
            assert_eq!(searches, 8);
            return;
        }
        if cmd.starts_with("go ") {
            searches += 1;
            let got = e.recv_until(|l| l.starts_with("done"));
            let (done, infos) = got.split_last().expect("done");
            assert!(!infos.is_empty(), "an info line before done: {got:?}");
            for l in infos {
                check_info(l, &pos);
            }
            check_done(done, &pos, &Rules::ENGLISH);
            assert!(expected.last().is_some_and(|l| l.starts_with("done ")));
        } else if expected.is_empty() {
            // Nothing is answered: the next line is the pong of a ping sent now.
            assert_eq!(sync(&mut e), Vec::<String>::new(), "after {cmd:?}");
        } else {
            let last = expected.last().cloned().unwrap_or_default();
            let got = e.recv_until(|l| l == last);
            assert_eq!(got, with_current_options(expected), "reply to {cmd:?}");
        }
    }
    panic!("the recording ends with quit");
}

#[test]
fn a_session_that_opens_with_hub_speaks_hub() {
    let mut e = Engine::start();
    e.send("  hub  ");
    let got = e.recv_until(|l| l == "wait");
    assert_eq!(
        got[0],
        format!(
            "id name=buffgreen version={} author=\"the buffgreen developers\"",
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(
        got[got.len() - 1 - option_params().len()..got.len() - 1],
        option_params()
    );
    // UCI commands are unknown here, so ignored.
    e.send("isready");
    e.send("uci");
    assert_eq!(sync(&mut e), Vec::<String>::new());
    e.send("init");
    assert_eq!(e.recv(), "ready");
    let (rest, status) = e.quit();
    assert!(status.success());
    assert!(rest.ends_with(&["ready".to_string()]));
}

/// Every bad line and its one error line. Afterwards the state must be what it was.
const ERRORS: [(&str, &str); 19] = [
    (
        "pos pos=Wbbb",
        "bad position 'Wbbb': expected 33 characters (side to move, then squares 1-32), got 4",
    ),
    (
        "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "bad position: side to move 'X' is not W or B",
    ),
    (
        "pos pos=Wbbbbbbbbbbbbeeeeeeee.wwwwwwwwwww",
        "bad position: square 21 is '.', expected one of w b W B e",
    ),
    (
        "pos pos=Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        "bad position: black man on 32 stands on its own crowning row",
    ),
    (
        "pos moves=\"9-14 9-14\"",
        "move 2: illegal move '9-14'; legal moves: 21-17 22-17 22-18 23-18 23-19 24-19 24-20",
    ),
    (
        "pos moves=\"9-99\"",
        "move 1: bad move '9-99': expected from-to or fromxto[xcaptured...] with squares 1-32",
    ),
    ("pos moves=\"9-14", "unterminated quoted value for 'moves'"),
    ("level =5", "an argument has no name before '='"),
    (
        "level move-time=1e999",
        "level: bad value '1e999' for move-time: expected a number of seconds up to 1000000000",
    ),
    (
        "level nodes=-3",
        "level: bad value '-3' for nodes: expected an integer from 1 to 18446744073709551615",
    ),
    (
        "level moves=x time=10",
        "level: bad value 'x' for moves: expected an integer from 0 to 4294967295",
    ),
    (
        "level depth=12",
        "level: depth limits are not supported (the search has no fixed depth); use nodes, \
         move-time or time",
    ),
    (
        "set-param name=Hash value=0",
        "option Hash: bad value '0': expected an integer from 1 to 4096",
    ),
    ("set-param name=Book value=true", "unknown option 'Book'"),
    (
        "set-param name=variant value=frisian",
        "parameter variant: bad value 'frisian': expected one of english buffgreen russian brazilian",
    ),
    (
        "set-param name=pos-encoding value=\"\"",
        "parameter pos-encoding: bad value '': expected one of pydraughts standard",
    ),
    ("set-param value=1", "set-param: missing name=<parameter>"),
    ("set-param name=Seed", "set-param: missing value=<value>"),
    (
        "set-param name=Ponder value=none",
        "option Ponder: bad value 'none': expected true or false",
    ),
];

#[test]
fn every_error_class_is_one_line_and_changes_nothing() {
    let mut e = hub_engine();
    // W:W18,30:B1,23, where the rules differ: the White man on 18 must take the Black man on
    // 23 backward under Buff and Green rules; English men cannot, so every English move is
    // quiet. A variant gone back to Buff and Green would answer the capture.
    let pos = "pos pos=Beebeeeeeeweeeebeeeeeeeeeeeeeeeew";
    e.send(pos);
    e.send("level nodes=50");
    for (line, message) in ERRORS {
        e.send(line);
        assert_eq!(
            sync(&mut e),
            [format!("error message=\"{message}\"")],
            "{line}"
        );
    }
    // Unknown commands and arguments are ignored, as the specification asks.
    e.send("flip board=1");
    e.send("level nodes=50 colour=red");
    assert_eq!(sync(&mut e), Vec::<String>::new());
    e.send("go think");
    let out = e.recv_until(|l| l.starts_with("done"));
    let position = position_of(pos);
    assert_eq!(
        buffgreen::board::fen::write(&position),
        "W:W18,30:B1,23",
        "the test's position"
    );
    let mv = check_done(out.last().unwrap(), &position, &Rules::ENGLISH);
    assert!(!mv.is_capture(), "still English, same position");
}

#[test]
fn bad_lines_leave_the_session_state_as_it_was() {
    let (out, captured) = Output::memory();
    let mut s = Session::new(out);
    s.handle_line(b"set-param name=Seed value=5");
    s.handle_line(b"pos moves=\"11-15 23-19 8-11\"");
    let game = s.engine().game().clone();
    let settings = s.engine().settings().clone();
    for (line, message) in ERRORS {
        s.handle_line(line.as_bytes());
        assert_eq!(
            captured.take_lines(),
            [format!("error message=\"{message}\"")],
            "{line}"
        );
        assert_eq!(s.engine().game(), &game, "{line}");
        assert_eq!(s.engine().settings(), &settings, "{line}");
    }
    s.handle_line(b"pos pos=\xff");
    assert_eq!(captured.take_lines().len(), 1);
    assert_eq!(s.engine().game(), &game);
}

#[test]
fn during_a_search_ping_and_stop_are_answered_and_other_commands_refused() {
    let mut e = hub_engine();
    e.send("pos");
    e.send("level infinite");
    e.send("go think");
    for line in [
        "pos",
        "level nodes=5",
        "go think",
        "set-param name=Hash value=8",
        "new-game",
        "init",
        "hub",
    ] {
        e.send(line);
        let got: Vec<String> = sync(&mut e)
            .into_iter()
            .filter(|l| !l.starts_with("info "))
            .collect();
        assert_eq!(got, [BUSY], "{line}");
    }
    e.send("ponder-hit"); // not a ponder search: nothing happens
    assert!(sync(&mut e).iter().all(|l| l.starts_with("info ")));
    e.send("stop");
    let out = e.recv_until(|l| l.starts_with("done"));
    check_done(out.last().unwrap(), &position_of("pos"), &Rules::ENGLISH);
    e.send("stop"); // no search: nothing
    assert_eq!(sync(&mut e), Vec::<String>::new(), "one done per go");
}

#[test]
fn ponder_waits_for_ponder_hit_then_keeps_its_level() {
    let mut e = hub_engine();
    e.send("pos moves=\"11-15 23-19\"");
    e.send("level nodes=200");
    e.send("go ponder");
    // Even a finished 200-node search holds its answer until ponder-hit.
    for _ in 0..3 {
        assert!(sync(&mut e).iter().all(|l| l.starts_with("info ")));
    }
    e.send("ponder-hit");
    let out = e.recv_until(|l| l.starts_with("done"));
    check_done(
        out.last().unwrap(),
        &position_of("pos moves=\"11-15 23-19\""),
        &Rules::ENGLISH,
    );
    // The level applied to that search only: a new go without level runs until stop.
    e.send("go think");
    assert!(sync(&mut e).iter().all(|l| l.starts_with("info ")));
    e.send("stop");
    e.recv_until(|l| l.starts_with("done"));
    assert_eq!(sync(&mut e), Vec::<String>::new());
}

#[test]
fn variants_and_the_standard_encoding_change_what_is_legal() {
    let mut e = hub_engine();
    // Standard reading: W:W18:B14,23. Under Buff and Green the man on 18 may also take 23
    // backward; under English only 18x9x14 is legal.
    let pos = "pos pos=Weeeeeeeeeeeeebeeeweeeebeeeeeeeee";
    e.send("set-param name=pos-encoding value=standard");
    e.send("set-param name=variant value=buffgreen");
    e.send(pos);
    e.send("level nodes=50");
    e.send("go think");
    let out = e.recv_until(|l| l.starts_with("done"));
    let p = Numbering::STANDARD.parse_pos(&pos[8..]).unwrap();
    assert_eq!(buffgreen::board::fen::write(&p), "W:W18:B14,23");
    let bg = Rules::BUFF_AND_GREEN;
    assert_eq!(legal(&p, &bg).len(), 2);
    check_done(out.last().unwrap(), &p, &bg);
    e.send("set-param name=variant value=english");
    e.send(pos);
    e.send("level nodes=50");
    e.send("go think");
    let out = e.recv_until(|l| l.starts_with("done"));
    // The only legal move (it is searched briefly, so a ponder move may follow).
    let done = out.last().unwrap();
    assert_eq!(
        done.split_whitespace().nth(1),
        Some("move=18x9x14"),
        "{done}"
    );
}

#[test]
fn russian_and_brazilian_positions_and_moves_as_pydraughts_writes_them() {
    let mut e = hub_engine();
    for variant in [Variant::Russian, Variant::Brazilian] {
        e.send(&format!("set-param name=variant value={}", variant.key()));
        // W:W18,K30:B14,K3 (literal), White to move: its only move is 18x9 taking 14, which
        // pydraughts numbers from a1 as 14x21x18.
        e.send("pos pos=WeeBeeeeeeeeeebeeeweeeeeeeeeeeWee");
        e.send("level time=1 inc=0.1");
        e.send("go think");
        let out = e.recv_until(|l| l.starts_with("done"));
        let done = out.last().expect("done");
        assert_eq!(
            done.split_whitespace().nth(1),
            Some("move=14x21x18"),
            "{out:?}"
        );
        assert!(out.iter().any(|l| l.contains(" score=")), "{out:?}");
        // The start, White first: pydraughts' 9-13 is 21-17; Black answers in the same
        // numbering, as pydraughts writes the move.
        e.send("pos moves=\"9-13\"");
        e.send("level move-time=0.05");
        e.send("go think");
        let out = e.recv_until(|l| l.starts_with("done"));
        let rules = variant.rules();
        let numbering = Numbering::new(Encoding::Pydraughts, variant);
        let mut pos = Position::start(&rules);
        pos.play_unchecked(
            numbering
                .parse_move("9-13", &legal(&pos, &rules))
                .expect("9-13"),
        );
        let done = out.last().expect("done");
        let m = done
            .split_whitespace()
            .nth(1)
            .and_then(|w| w.strip_prefix("move="))
            .unwrap_or_else(|| panic!("{done}"));
        let mv = numbering
            .parse_move(m, &legal(&pos, &rules))
            .unwrap_or_else(|err| panic!("{done}: {err}"));
        assert_eq!(numbering.write_move(mv), m);
    }
}

#[test]
fn quit_during_a_search_answers_and_exits() {
    let mut e = hub_engine();
    e.send("pos");
    e.send("level infinite");
    e.send("go analyze");
    assert!(sync(&mut e).iter().all(|l| l.starts_with("info ")));
    let (rest, status) = e.quit();
    assert!(status.success());
    assert_eq!(rest.iter().filter(|l| l.starts_with("done ")).count(), 1);
}

mod arbitrary_input {
    use buffgreen::hub::Session;
    use buffgreen::protocol::{Flow, Output};
    use proptest::collection::vec;
    use proptest::prelude::*;

    /// Lines shaped like Hub commands (known words, odd arguments, stray quotes) and lines of
    /// any characters.
    fn line() -> impl Strategy<Value = String> {
        let words = prop::sample::select(vec![
            "hub",
            "init",
            "set-param",
            "new-game",
            "pos",
            "level",
            "go",
            "ponder-hit",
            "stop",
            "ping",
            "flip",
        ]);
        let arg = "[a-z=-]{0,9}(=(\"[^\"\n]{0,40}\"?|[A-Za-z0-9.xX=-]{0,36}))?";
        prop_oneof![
            (words, vec(arg, 0..4)).prop_map(|(w, args)| format!("{w} {}", args.join(" "))),
            "[^\n]{0,80}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever comes in, the session neither panics nor writes anything but Hub replies.
        #[test]
        fn any_lines_get_hub_replies_only(lines in vec(line(), 1..10)) {
            let (out, captured) = Output::memory();
            let mut s = Session::new(out);
            s.handle_line(b"set-param name=Hash value=1");
            for l in &lines {
                if s.handle_line(l.as_bytes()) == Flow::Quit {
                    break;
                }
            }
            s.finish();
            let kinds = ["id ", "param ", "wait", "ready", "pong", "info ", "done", "error message=\""];
            for l in captured.lines() {
                prop_assert!(kinds.iter().any(|k| l.starts_with(k)), "{:?} after {:?}", l, lines);
            }
        }
    }
}
