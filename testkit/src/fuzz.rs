//! The checks behind the fuzz targets in `fuzz/`, shared with `tests/protocol/fuzz_regressions.rs` so
//! that every input a fuzzer ever found is replayed through exactly the same checks by plain
//! `cargo test`. Each `check_*` function takes raw fuzzer bytes and panics (an assertion) on
//! anything wrong; a crash of the library shows up the same way.
//!
//! The fuzz targets depend on this crate; see `fuzz/README.md`.

use buffgreen::board::notation::{self, NotationError};
use buffgreen::board::{fen, generate_moves, Game, MoveList, Position, Rules};
use buffgreen::engine::{GoRequest, StartPosition};
use buffgreen::protocol::output::Captured;
use buffgreen::protocol::{self, Command, Flow, Output, Session};
use buffgreen::search::Limits;
use buffgreen::types::{Color, Move, Square};

/// Positions the move parser is tried against: the start, a king loop whose short form is
/// ambiguous, flying kings with long captures both ways, a man that crowns mid-capture, and a
/// finished game.
pub const MOVE_FENS: [&str; 5] = [
    "B:W21-32:B1-12",
    "W:W26:B14,15,22,23",
    "B:WK1,18,19,26,27:BK32,5,9,14,15",
    "B:W7,15,16,24,K30:B11,12,20,K21",
    "B:W18:B",
];

// ---------------------------------------------------------------------------------------------
// FEN parser

/// FEN target: parsing never panics; a parsed position writes a canonical FEN that parses back
/// to the same position and is a fixed point of write-after-parse.
pub fn check_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match fen::parse(text) {
        Err(e) => {
            // Error messages are built from the input: they must format, and be one line.
            let msg = e.to_string();
            assert!(
                !msg.chars().any(char::is_control),
                "control character in FEN error {msg:?}"
            );
        }
        Ok(pos) => {
            assert_position_sound(&pos);
            let canonical = fen::write(&pos);
            let again = fen::parse(&canonical)
                .unwrap_or_else(|e| panic!("canonical FEN {canonical:?} refused: {e}"));
            assert_eq!(again, pos, "parse(write(p)) != p for {text:?}");
            assert_eq!(fen::write(&again), canonical);
            let wrapped = format!("[FEN \"{canonical}\"]");
            assert_eq!(fen::parse(&wrapped).ok(), Some(pos), "{wrapped:?}");
        }
    }
}

/// A position is sound when it can be rebuilt through the checked constructor.
pub fn assert_position_sound(pos: &Position) {
    let rebuilt = Position::new(
        pos.side_to_move(),
        pos.pieces(Color::Black),
        pos.pieces(Color::White),
        pos.all_kings(),
    )
    .unwrap_or_else(|e| panic!("unsound position {pos:?}: {e}"));
    assert_eq!(&rebuilt, pos);
}

// ---------------------------------------------------------------------------------------------
// Move parser

/// Move target. The first byte picks the rule set (its low two bits, an index into
/// [`Rules::ALL`]) and the position (the rest, modulo the length of [`MOVE_FENS`]); the other
/// bytes are the move text, or `FEN|move` to use that FEN instead when it parses. A parsed
/// move must be legal, have the ends the text names, and its long form must parse back to it;
/// a refusal must be consistent with the legal moves (see [`check_move_in`]).
pub fn check_move(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = &Rules::ALL[usize::from(pick & 3)];
    let fixed = MOVE_FENS[usize::from(pick >> 2) % MOVE_FENS.len()];
    let (pos, mv_text) = match text.split_once('|') {
        Some((f, m)) if fen::parse(f).is_ok() => (fen::parse(f), m),
        _ => (fen::parse(fixed), text),
    };
    let pos = pos.unwrap_or_else(|e| panic!("bad fixed FEN {fixed}: {e}"));
    check_move_in(&pos, rules, mv_text);
}

/// The move parser's contract for one position and rule set.
pub fn check_move_in(pos: &Position, rules: &Rules, text: &str) {
    let mut legal = MoveList::new();
    generate_moves(pos, rules, &mut legal);
    match notation::parse_move(pos, rules, text) {
        Ok(mv) => {
            assert!(
                legal.contains(&mv),
                "{text:?} gave {mv}, not legal in {pos:?} under {rules:?}"
            );
            assert!(
                pos.play_checked(mv, rules).is_some(),
                "{mv} refused by play_checked"
            );
            let squares = notation::parse_squares(text)
                .unwrap_or_else(|e| panic!("{text:?} parsed as a move but not as squares: {e}"));
            assert_eq!(squares.first(), Some(&mv.from()), "{text:?} -> {mv}");
            assert_eq!(squares.last(), Some(&mv.to()), "{text:?} -> {mv}");
            let long = mv.to_string();
            assert_eq!(
                notation::parse_move(pos, rules, &long),
                Ok(mv),
                "long form {long} does not name {mv}"
            );
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(
                !msg.chars().any(char::is_control),
                "control character in move error {msg:?}"
            );
            match e {
                NotationError::Illegal { legal: listed, .. } => {
                    let mut all: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
                    let mut listed = listed;
                    all.sort();
                    listed.sort();
                    assert_eq!(listed, all, "{text:?}: legal list differs");
                    // The text must not be the long form of a legal move.
                    let t = text.trim();
                    assert!(
                        legal.iter().all(|m| m.to_string() != t),
                        "{text:?} refused but it is legal"
                    );
                }
                NotationError::Ambiguous { candidates, .. } => {
                    assert!(candidates.len() >= 2, "{text:?}: {candidates:?}");
                    for c in &candidates {
                        assert!(
                            legal.iter().any(|m| &m.to_string() == c),
                            "{text:?}: candidate {c} is not legal"
                        );
                    }
                }
                NotationError::Mixed(_) => {
                    let t = text.trim();
                    assert!(
                        t.bytes().any(|b| b.is_ascii_digit())
                            && t.bytes().any(|b| b.is_ascii_alphabetic()),
                        "{text:?} refused as mixed"
                    );
                }
                NotationError::Syntax(_) | NotationError::Square { .. } => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Protocol line handler

/// Caps that keep one fuzz input fast and deterministic. Every accepted `go` becomes
/// `go nodes 1` (its `searchmoves`, `depth` and `mate` kept; `movetime`, clocks, `infinite` and `ponder` dropped)
/// and is waited for before the next line, so no search runs unboundedly and no reply depends
/// on thread timing. `go perft` is capped at depth 3, `bench` at 1 iteration per position,
/// `Hash` at 16 MiB and `Threads` at 2 (values that do not parse as integers are passed on
/// untouched, so the option errors are still exercised).
pub fn tame(cmd: Command) -> Command {
    match cmd {
        Command::Go(req) => Command::Go(GoRequest {
            limits: Limits {
                nodes: Some(1),
                depth: req.limits.depth,
                mate: req.limits.mate,
                ..Limits::default()
            },
            searchmoves: req.searchmoves,
        }),
        Command::Perft { depth } => Command::Perft {
            depth: depth.min(3),
        },
        Command::Bench { .. } => Command::Bench { nodes: Some(1) },
        Command::SetOption {
            name,
            value: Some(v),
        } => {
            let cap = if name.eq_ignore_ascii_case("hash") {
                Some(16)
            } else if name.eq_ignore_ascii_case("threads") {
                Some(2)
            } else {
                None
            };
            let value = match (cap, v.trim().parse::<i64>()) {
                (Some(cap), Ok(n)) if n > cap => cap.to_string(),
                _ => v,
            };
            Command::SetOption {
                name,
                value: Some(value),
            }
        }
        other => other,
    }
}

/// Protocol target: the input is split into lines, fed to one session (started with
/// `Hash` 1 MiB) in order, each parsed command passed through [`tame`]. After every line: the game is still a legal game under
/// the rules in force, every new reply line is well formed, a refused line answered exactly
/// one error line and changed nothing, and each command's reply has the right shape (`go`:
/// info lines then one legal bestmove; `d`: a diagram and the exact game state; ...).
pub fn check_protocol(data: &[u8]) {
    let (out, captured) = Output::memory();
    let mut session = Session::new(out);
    // The smallest tree, so that a search costs microseconds, not the milliseconds of setting
    // up the default 64 MiB (an input may still ask for up to 16 MiB, see [`tame`]).
    assert_eq!(
        session.handle_line(b"setoption name Hash value 1"),
        Flow::Continue
    );
    assert!(captured.take_lines().is_empty());
    for line in data.split(|&b| b == b'\n') {
        if step(&mut session, &captured, line) == Flow::Quit {
            break;
        }
    }
    session.finish();
    let rest = captured.take_lines();
    assert!(rest.is_empty(), "output after the last command: {rest:?}");
}

/// Feeds one line and checks everything about it and its replies.
fn step(session: &mut Session, captured: &Captured, line: &[u8]) -> Flow {
    let game_before = session.engine().game().clone();
    let settings_before = session.engine().settings().clone();
    let text = String::from_utf8_lossy(line);
    let parsed = protocol::parse(&text);
    let flow = match parsed.clone() {
        Ok(Some(cmd)) => {
            let cmd = tame(cmd);
            let flow = session.execute(cmd);
            // Deterministic replies: wait for the (one-node) search before the next line.
            session.settle();
            flow
        }
        _ => session.handle_line(line),
    };
    let all = captured.take_lines();
    for l in &all {
        if let Err(why) = reply_form(l) {
            panic!("malformed reply {l:?} to {text:?}: {why}");
        }
    }
    // `debug on` adds notes to any command; the checks below are about the replies proper.
    let new: Vec<String> = all
        .into_iter()
        .filter(|l| !l.starts_with("info string debug: "))
        .collect();
    let new = &new[..];
    let game = session.engine().game().clone();
    // The game is the one source of the rules: its moves must replay under them.
    assert_game_sound(&game, game.rules());
    let refused = new.len() == 1 && new[0].starts_with("info string error: ");
    let unchanged = game == game_before && session.engine().settings() == &settings_before;
    if refused {
        assert!(unchanged, "refused {text:?} but the state changed");
    }
    match parsed {
        Ok(None) => assert!(new.is_empty(), "reply to an empty line: {new:?}"),
        Err(_) => assert!(refused, "bad line {text:?} answered {new:?}"),
        Ok(Some(cmd)) => check_command_reply(&cmd, new, &game_before, &game, refused, unchanged),
    }
    flow
}

/// The reply to one accepted-or-refused command, and which commands may change the state.
fn check_command_reply(
    cmd: &Command,
    new: &[String],
    before: &Game,
    game: &Game,
    refused: bool,
    unchanged: bool,
) {
    let silent_or_refused = new.is_empty() || refused;
    match cmd {
        Command::Uci => {
            assert!(new.len() >= 3, "{new:?}");
            assert!(new[0].starts_with("id name buffgreen "), "{new:?}");
            assert!(new[1].starts_with("id author "), "{new:?}");
            assert_eq!(new[new.len() - 1], "uciok");
            assert!(new[2..new.len() - 1]
                .iter()
                .all(|l| l.starts_with("option name ")));
            assert!(unchanged);
        }
        Command::IsReady => {
            assert_eq!(new, ["readyok"]);
            assert!(unchanged);
        }
        Command::Display => {
            check_display(new, game);
            assert!(unchanged);
        }
        Command::Stop | Command::PonderHit | Command::Quit => {
            assert!(new.is_empty(), "{new:?}");
            assert!(unchanged);
        }
        Command::UciNewGame => {
            assert!(new.is_empty(), "{new:?}");
            assert_eq!(game, &Game::new(Position::startpos(), 0, *game.rules()));
        }
        Command::Position { start, moves } => {
            assert!(silent_or_refused, "{new:?}");
            if !refused {
                let start_pos = match start {
                    StartPosition::StartPos => Position::startpos(),
                    StartPosition::Fen(f) => fen::parse(f)
                        .unwrap_or_else(|e| panic!("accepted FEN {f:?} does not parse: {e}")),
                };
                assert_eq!(game.start(), &start_pos);
                assert_eq!(game.moves().len(), moves.len());
            }
        }
        Command::SetOption { .. } => {
            let notice = new.len() == 1
                && new[0].starts_with("info string rules changed: ")
                && new[0].ends_with("the game is back at its start position");
            assert!(silent_or_refused || notice, "{new:?}");
            if notice {
                assert_eq!(game.moves().len(), 0);
                assert_eq!(game.start(), before.start());
            }
        }
        Command::Go(req) => {
            assert!(unchanged);
            if !refused {
                check_search_reply(new, before, &req.searchmoves);
            }
        }
        Command::Perft { depth } => {
            assert!(unchanged);
            if !refused {
                check_divide(new, game, (*depth).min(3));
            }
        }
        Command::Bench { .. } => {
            assert!(unchanged);
            if !refused {
                assert_eq!(new.len(), 2, "{new:?}");
                assert!(new[0].starts_with("Nodes searched: "));
                assert!(new[1].starts_with("Nodes/second: "));
            }
        }
        Command::Eval => {
            let labels = [
                "Squares: ",
                "Mobility: ",
                "Tempo: ",
                "Knowledge: ",
                "Divisor: ",
                "Static: ",
                "Quiescent: ",
                "Score: cp ",
            ];
            assert_eq!(new.len(), labels.len(), "{new:?}");
            for (l, label) in new.iter().zip(labels) {
                assert!(l.starts_with(label), "{new:?}");
            }
            assert!(unchanged);
        }
        Command::Debug(_) => {
            assert!(new.is_empty(), "{new:?}");
            assert!(unchanged);
        }
    }
}

/// A game is sound when its position is, its rules are the engine's, and its moves replay
/// legally from its start to its position and clock.
pub fn assert_game_sound(game: &Game, rules: &Rules) {
    assert_eq!(game.rules(), rules, "game rules differ from the engine's");
    assert_position_sound(game.position());
    let mut replay = Game::new(*game.start(), game.start_clock(), *rules);
    for (i, mv) in game.moves().enumerate() {
        assert!(
            replay.play(mv),
            "move {} ({mv}) of the game is not legal",
            i + 1
        );
    }
    assert_eq!(replay.position(), game.position());
    assert_eq!(replay.clock(), game.clock());
}

/// `go` (tamed, waited for): info lines and notes, then exactly one bestmove, which is legal
/// (and among `searchmoves` when given), or `none` exactly when there is no legal move.
fn check_search_reply(new: &[String], game: &Game, searchmoves: &[String]) {
    let Some((last, before)) = new.split_last() else {
        panic!("go answered nothing");
    };
    let legal = game.legal_moves();
    for l in before {
        assert!(l.starts_with("info "), "{l:?} before bestmove");
        assert!(
            !l.starts_with("info string error"),
            "search reported an error: {l:?}"
        );
        if let Some(pv) = l
            .split(" pv ")
            .nth(1)
            .filter(|_| l.starts_with("info depth"))
        {
            let mut g = game.clone();
            for m in pv.split(' ') {
                assert!(g.play_str(m).is_ok(), "pv move {m} illegal in {l:?}");
            }
        }
    }
    let allowed: Vec<Move> = if searchmoves.is_empty() {
        legal.iter().copied().collect()
    } else {
        searchmoves
            .iter()
            .filter_map(|t| notation::parse_move(game.position(), game.rules(), t).ok())
            .filter(|m| legal.contains(m))
            .collect()
    };
    let words: Vec<&str> = last.split(' ').collect();
    match words.as_slice() {
        ["bestmove", "none"] => assert!(allowed.is_empty(), "bestmove none with moves left"),
        ["bestmove", best, rest @ ..] => {
            let mut g = game.clone();
            let mv = g
                .play_str(best)
                .unwrap_or_else(|e| panic!("illegal bestmove {best}: {e}"));
            assert!(allowed.contains(&mv), "bestmove {best} not allowed");
            match rest {
                [] => {}
                ["ponder", p] => assert!(g.play_str(p).is_ok(), "illegal ponder move {p}"),
                _ => panic!("bad bestmove line {last:?}"),
            }
        }
        _ => panic!("go did not end with bestmove: {new:?}"),
    }
}

/// `go perft`: one line per legal move in divide order, an empty line, the total.
fn check_divide(new: &[String], game: &Game, depth: u32) {
    let mut legal = MoveList::new();
    generate_moves(game.position(), game.rules(), &mut legal);
    assert_eq!(new.len(), legal.len() + 2, "{new:?}");
    let mut total = 0u64;
    for l in &new[..legal.len()] {
        let (m, n) = l.split_once(": ").unwrap_or_else(|| panic!("{l:?}"));
        let mv = notation::parse_move(game.position(), game.rules(), m)
            .unwrap_or_else(|e| panic!("divide move {m}: {e}"));
        assert_eq!(mv.to_string(), m);
        let n: u64 = n.parse().unwrap_or_else(|_| panic!("{l:?}"));
        assert!(depth > 1 || n == 1, "{l:?} at depth 1");
        total += n;
    }
    assert_eq!(new[legal.len()], "");
    assert_eq!(new[legal.len() + 1], format!("Nodes searched: {total}"));
}

/// `d`: the diagram shows the position, then the exact FEN, clock, result, side to move and
/// the captures that must be played.
fn check_display(new: &[String], game: &Game) {
    assert_eq!(new.len(), 17, "{new:?}");
    let frame = "   +-----------------+";
    assert_eq!(new[0], frame);
    assert_eq!(new[9], frame);
    assert_eq!(new[10], "     a b c d e f g h");
    let pos = game.position();
    for row in 0..8u8 {
        let mut want = format!(" {} |", 8 - row);
        for file in 0..8u8 {
            let c = if (row + file) % 2 == 1 {
                let sq = Square::from_index(row * 4 + file / 2);
                match pos.piece_at(sq) {
                    None => '.',
                    Some((c, p)) => {
                        let k = p == buffgreen::board::Piece::King;
                        match (c, k) {
                            (Color::Black, false) => 'b',
                            (Color::Black, true) => 'B',
                            (Color::White, false) => 'w',
                            (Color::White, true) => 'W',
                        }
                    }
                }
            } else {
                ' '
            };
            want.push(' ');
            want.push(c);
        }
        want.push_str(" |");
        assert_eq!(new[1 + row as usize], want);
    }
    assert_eq!(new[11], format!("Fen: {}", fen::write(pos)));
    assert_eq!(new[12], format!("Clock: {}", game.clock()));
    let reason = match game.result() {
        buffgreen::board::GameResult::Ongoing => String::new(),
        buffgreen::board::GameResult::Draw => {
            format!(" ({} half-moves)", game.rules().draw_half_moves)
        }
        _ => " (no move)".to_string(),
    };
    assert_eq!(
        new[13],
        format!("Result: {}{reason}", game.result().describe())
    );
    let turn = match pos.side_to_move() {
        Color::Black => "black",
        Color::White => "white",
    };
    assert_eq!(new[14], format!("Turn: {turn}"));
    let mut legal = MoveList::new();
    generate_moves(pos, game.rules(), &mut legal);
    let captures: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
    let ongoing = game.result() == buffgreen::board::GameResult::Ongoing;
    // The captures that must be played: none listed once the game is over.
    let pending: &[Move] = if ongoing { &captures } else { &[] };
    check_move_list(&new[15], "Captures: ", pending, game, new);
    // Every legal move, each once, in the engine's own long form.
    let moves = game.legal_moves();
    check_move_list(&new[16], "Moves: ", &moves, game, new);
}

/// A `d` line `<name> none` or `<name> <move> ...` lists exactly `want`.
fn check_move_list(line: &str, name: &str, want: &[Move], game: &Game, all: &[String]) {
    match line.strip_prefix(name) {
        Some("none") => assert!(want.is_empty(), "{all:?}"),
        Some(list) => {
            let listed: Vec<&str> = list.split(' ').collect();
            assert_eq!(listed.len(), want.len(), "{all:?}");
            for m in listed {
                let mv = notation::parse_move(game.position(), game.rules(), m)
                    .unwrap_or_else(|e| panic!("listed move {m}: {e}"));
                assert!(want.contains(&mv), "{m} is not in {name}");
            }
        }
        None => panic!("no {name}line: {all:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Reply grammar

/// Checks that `line` is one of the reply forms protocol.md defines (any of them: which one is
/// expected where is checked per command). `Err` says what is wrong.
pub fn reply_form(line: &str) -> Result<(), String> {
    if line.chars().any(char::is_control) {
        return Err("control character".into());
    }
    let w: Vec<&str> = line.split(' ').collect();
    match w.as_slice() {
        [""] | ["uciok"] | ["readyok"] => Ok(()),
        ["id", "name", "buffgreen", v] => nonempty(v),
        ["id", "author", rest @ ..] => nonempty(&rest.join(" ")),
        ["option", "name", name @ .., "type", "button"] => nonempty(&name.join(" ")),
        ["option", "name", n, "type", "check", "default", d] => {
            nonempty(n)?;
            one_of(d, &["true", "false"])
        }
        ["option", "name", n, "type", "spin", "default", d, "min", lo, "max", hi] => {
            nonempty(n)?;
            let (d, lo, hi) = (int(d)?, int(lo)?, int(hi)?);
            if lo <= d && d <= hi {
                Ok(())
            } else {
                Err("spin default outside min..max".into())
            }
        }
        ["option", "name", n, "type", "combo", "default", d, vars @ ..] => {
            nonempty(n)?;
            // `var <v>` pairs, the default among them.
            let values: Vec<&str> = vars
                .chunks(2)
                .filter_map(|p| match p {
                    ["var", v] => Some(*v),
                    _ => None,
                })
                .collect();
            if values.len() * 2 != vars.len() || !values.contains(d) {
                return Err("combo without its default among var values".into());
            }
            Ok(())
        }
        ["option", "name", n, "type", "string", "default", d @ ..] => {
            nonempty(n)?;
            nonempty(&d.join(" "))
        }
        ["info", "string", rest @ ..] => nonempty(&rest.join(" ")),
        ["info", "depth", ..] => info_form(&w),
        ["bestmove", "none"] => Ok(()),
        ["bestmove", m] => move_form(m),
        ["bestmove", m, "ponder", p] => move_form(m).and(move_form(p)),
        ["Nodes", "searched:", n] | ["Nodes/second:", n] | ["Clock:", n] => nat(n).map(drop),
        ["Fen:", f] => {
            let p = fen::parse(f).map_err(|e| e.to_string())?;
            if &fen::write(&p) == f {
                Ok(())
            } else {
                Err("FEN not canonical".into())
            }
        }
        ["Turn:", t] => one_of(t, &["black", "white"]),
        ["Captures:" | "Moves:", "none"] => Ok(()),
        ["Captures:" | "Moves:", moves @ ..] if !moves.is_empty() => {
            moves.iter().try_for_each(|m| move_form(m))
        }
        ["Squares:" | "Mobility:" | "Tempo:" | "Knowledge:" | "Static:" | "Quiescent:", n] => {
            int(n).map(drop)
        }
        ["Divisor:", n] => nat(n).map(drop),
        ["Score:", "cp", n] => int(n).map(drop),
        ["Result:", "ongoing"] | ["Result:", "black" | "white", "wins", "(no", "move)"] => Ok(()),
        ["Result:", "draw", n, "half-moves)"] => match n.strip_prefix('(') {
            Some(n) => nat(n).map(drop),
            None => Err("a draw without its reason".into()),
        },
        [m, n] if m.ends_with(':') => {
            move_form(&m[..m.len() - 1])?;
            nat(n).map(drop)
        }
        _ if diagram_form(line) => Ok(()),
        _ => Err("not a reply form".into()),
    }
}

fn nonempty(s: &str) -> Result<(), String> {
    if s.trim().is_empty() {
        Err("empty field".into())
    } else {
        Ok(())
    }
}

fn one_of(s: &str, allowed: &[&str]) -> Result<(), String> {
    if allowed.contains(&s) {
        Ok(())
    } else {
        Err(format!("'{s}' is not one of {allowed:?}"))
    }
}

fn nat(s: &str) -> Result<u64, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return Err(format!("'{s}' is not a plain natural number"));
    }
    s.parse().map_err(|_| format!("'{s}' out of range"))
}

fn int(s: &str) -> Result<i64, String> {
    match s.strip_prefix('-') {
        Some(n) => nat(n).map(|v| -(v as i64)),
        None => nat(s).map(|v| v as i64),
    }
}

/// A move in long form: squares 1-32 joined by `-` (two squares) or `x` (two or more).
pub fn move_form(m: &str) -> Result<(), String> {
    let sep = if m.contains('x') { 'x' } else { '-' };
    let parts: Vec<&str> = m.split(sep).collect();
    // Square numbers, or algebraic squares under `Notation algebraic`.
    let ok = parts.len() >= 2
        && (sep == 'x' || parts.len() == 2)
        && (parts
            .iter()
            .all(|p| nat(p).is_ok_and(|n| (1..=32).contains(&n)))
            || parts
                .iter()
                .all(|p| buffgreen::types::Square::from_algebraic(p).is_ok()));
    if ok {
        Ok(())
    } else {
        Err(format!("'{m}' is not a long-form move"))
    }
}

/// `info depth D seldepth S multipv K score cp X|mate N [wdl W D L] nodes N nps N time MS
/// [pv m ...]`, fields in this order.
fn info_form(w: &[&str]) -> Result<(), String> {
    /// `name <natural>` at word `i`; moves `i` past it.
    fn field(w: &[&str], name: &str, i: &mut usize) -> Result<(), String> {
        if w.get(*i) != Some(&name) {
            return Err(format!("expected '{name}' at word {}", *i));
        }
        nat(w.get(*i + 1).copied().unwrap_or(""))?;
        *i += 2;
        Ok(())
    }
    let mut i = 1;
    for name in ["depth", "seldepth", "multipv"] {
        field(w, name, &mut i)?;
    }
    match (w.get(i), w.get(i + 1), w.get(i + 2)) {
        (Some(&"score"), Some(&("cp" | "mate")), Some(v)) => {
            int(v)?;
            i += 3;
        }
        _ => return Err("bad score".into()),
    }
    if w.get(i) == Some(&"wdl") {
        let mut sum = 0;
        for k in 1..=3 {
            sum += nat(w.get(i + k).copied().unwrap_or(""))?;
        }
        if sum != 1000 {
            return Err("wdl does not sum to 1000".into());
        }
        i += 4;
    }
    for name in ["nodes", "nps"] {
        field(w, name, &mut i)?;
    }
    // Only with endgame tables.
    if w.get(i) == Some(&"tbhits") {
        field(w, "tbhits", &mut i)?;
    }
    field(w, "time", &mut i)?;
    match w.get(i) {
        None => Ok(()),
        Some(&"pv") if i + 1 < w.len() => w[i + 1..].iter().try_for_each(|m| move_form(m)),
        Some(t) => Err(format!("unexpected '{t}'")),
    }
}

/// A line of the `d` diagram.
fn diagram_form(line: &str) -> bool {
    if line == "   +-----------------+" || line == "     a b c d e f g h" {
        return true;
    }
    let b = line.as_bytes();
    if b.len() != 22 || b[0] != b' ' || !(b'1'..=b'8').contains(&b[1]) || &b[2..4] != b" |" {
        return false;
    }
    if &b[20..] != b" |" {
        return false;
    }
    let row = usize::from(b'8' - b[1]);
    (0..8).all(|file| {
        let c = b[5 + 2 * file];
        b[4 + 2 * file] == b' '
            && if (row + file) % 2 == 1 {
                b".bBwW".contains(&c)
            } else {
                c == b' '
            }
    })
}
