//! The engine with tables: `TablebasePath` accepted or refused with exact lines (through the
//! binary), the move at a tabled root checked against the table, `tbhits`, and a search just
//! above the tabled size that finds a forced conversion into a tabled win.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use buffgreen::board::{fen, generate_moves, has_captures, next_clock, MoveList, Position, Rules};
use buffgreen::engine::{Engine, GoRequest, StartPosition};
use buffgreen::search::{Limits, Score, SearchEvent};
use buffgreen::tablebase::{format, Tablebase, Value};
use buffgreen::types::Move;

use crate::protocol_support::Engine as Process;
use crate::tables;

fn text(dir: &Path) -> &str {
    dir.to_str().expect("utf-8 path")
}

/// Positions of `pieces` pieces (both sides having one, no man on its crowning row), drawn
/// from a fixed pseudo-random sequence, side to move alternating.
fn positions(pieces: usize, seed: u64) -> impl Iterator<Item = Position> {
    let mut state = seed;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    std::iter::from_fn(move || loop {
        let mut squares: Vec<u64> = Vec::new();
        while squares.len() < pieces {
            let s = next() % 32 + 1;
            if !squares.contains(&s) {
                squares.push(s);
            }
        }
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for (k, &s) in squares.iter().enumerate() {
            let king = next() % 2 == 0;
            let is_white = k == 0 || (k > 1 && next() % 2 == 0);
            // Black men crown on 29-32, White men on 1-4.
            if !king && ((is_white && s <= 4) || (!is_white && s >= 29)) {
                continue;
            }
            let p = if king { format!("K{s}") } else { s.to_string() };
            if is_white {
                white.push(p)
            } else {
                black.push(p)
            }
        }
        if white.is_empty() || black.is_empty() || white.len() + black.len() != pieces {
            continue;
        }
        let side = if next() % 2 == 0 { "W" } else { "B" };
        let f = format!("{side}:W{}:B{}", white.join(","), black.join(","));
        if let Ok(pos) = fen::parse(&f) {
            return Some(pos);
        }
    })
}

/// The move the engine plays at `pos` (clock 0) with `go nodes <nodes>` and tables at `dir`,
/// and the score of its last `info` line.
fn play(dir: &Path, pos: &Position, nodes: u64) -> (Option<Move>, Option<Score>, Option<u64>) {
    let mut e = Engine::new();
    e.set_option("TablebasePath", Some(text(dir)))
        .expect("tables open");
    e.set_position(&StartPosition::Fen(fen::write(pos)), &[])
        .expect("position");
    let (tx, rx) = mpsc::channel();
    let (itx, irx) = mpsc::channel();
    e.go(
        GoRequest {
            limits: Limits::nodes(nodes),
            searchmoves: vec![],
        },
        Box::new(move |ev| {
            if let SearchEvent::Info(i) = ev {
                let _ = itx.send((i.score, i.tbhits));
            }
        }),
        Box::new(move |o| {
            let _ = tx.send(o.best);
        }),
    )
    .expect("go");
    e.wait();
    let best = rx.recv().expect("an answer");
    let last = irx.try_iter().last();
    (best, last.map(|l| l.0), last.and_then(|l| l.1))
}

/// The table's value, for the side to move there, of the position after `mv` at `pos`
/// (clock 0), at the clock after the move.
fn after(tb: &Tablebase, pos: &Position, mv: Move) -> Value {
    let mut next = *pos;
    next.play_unchecked(mv);
    tb.probe_at(&next, next_clock(mv, 0)).expect("covered")
}

fn moves(pos: &Position, rules: &Rules) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    list.iter().copied().collect()
}

#[test]
fn at_a_tabled_root_the_engine_keeps_the_result() {
    let rules = Rules::default();
    let dir = tables(4, &rules);
    let tb = Tablebase::open(&dir, &rules).expect("open");
    let (mut wins, mut draws) = (0, 0);
    for pos in positions(4, 7).take(400) {
        let value = tb.probe_at(&pos, 0).expect("covered");
        let legal = moves(&pos, &rules);
        if legal.len() < 2 || (value != Value::Draw && !matches!(value, Value::Win(_))) {
            continue;
        }
        // Only positions where a wrong move exists test anything.
        let keeps = |v: Value| match value {
            Value::Draw => v == Value::Draw,
            _ => matches!(v, Value::Loss(_)),
        };
        if legal.iter().all(|&m| keeps(after(&tb, &pos, m))) {
            continue;
        }
        let (best, score, hits) = play(&dir, &pos, 300);
        let best = best.unwrap_or_else(|| panic!("{}: no move", fen::write(&pos)));
        let v = after(&tb, &pos, best);
        assert!(keeps(v), "{}: {best} gives {v} ({value})", fen::write(&pos));
        assert!(hits.is_some_and(|h| h > 0), "{hits:?}");
        match value {
            Value::Win(d) => {
                // The fastest conversion: the move's cost is the root's distance.
                let cost = if next_clock(best, 0) == 0 {
                    1
                } else {
                    match v {
                        Value::Loss(d2) => d2 + 1,
                        _ => unreachable!(),
                    }
                };
                assert_eq!(cost, d, "{}: {best}", fen::write(&pos));
                // Taking the last piece (or blocking the rest) is a mate the search sees.
                let want = if v == Value::Loss(0) {
                    Score::Mate(1)
                } else {
                    Score::Cp(20_000 - d as i32)
                };
                assert_eq!(score, Some(want), "{}", fen::write(&pos));
                wins += 1;
            }
            _ => {
                assert_eq!(score, Some(Score::Cp(0)), "{}", fen::write(&pos));
                draws += 1;
            }
        }
    }
    // The sample must hold both kinds, or the test tests nothing.
    assert!(wins >= 10 && draws >= 5, "{wins} wins, {draws} draws");
}

/// Whether the side to move at `pos` (clock `clock`) forces, within `plies`, a position the
/// tables say it wins: an independent AND-OR search over the move generator.
fn forces_tabled_win(
    tb: &Tablebase,
    pos: &Position,
    rules: &Rules,
    clock: u32,
    plies: u32,
) -> bool {
    let wins_after = |mv: Move| {
        let mut next = *pos;
        next.play_unchecked(mv);
        let c = next_clock(mv, clock);
        if tb.covers(&next) || moves(&next, rules).is_empty() {
            return matches!(tb.probe_at(&next, c), Ok(Value::Loss(_)));
        }
        plies >= 2
            && moves(&next, rules).into_iter().all(|reply| {
                let mut then = next;
                then.play_unchecked(reply);
                let c2 = next_clock(reply, c);
                if tb.covers(&then) {
                    return matches!(tb.probe_at(&then, c2), Ok(Value::Win(_)));
                }
                forces_tabled_win(tb, &then, rules, c2, plies - 2)
            })
    };
    plies >= 1 && moves(pos, rules).into_iter().any(wins_after)
}

#[test]
fn just_above_the_tables_the_search_finds_the_conversion() {
    let rules = Rules::default();
    let dir = tables(4, &rules);
    let tb = Tablebase::open(&dir, &rules).expect("open");
    let mut checked = 0;
    for pos in positions(5, 11).take(3000) {
        // No capture now: the conversion is a few plies away, and some moves miss it.
        if has_captures(&pos, &rules) || !forces_tabled_win(&tb, &pos, &rules, 0, 3) {
            continue;
        }
        let legal = moves(&pos, &rules);
        let winning: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = pos;
                next.play_unchecked(m);
                let c = next_clock(m, 0);
                moves(&next, &rules).is_empty()
                    || moves(&next, &rules).into_iter().all(|r| {
                        let mut then = next;
                        then.play_unchecked(r);
                        let c2 = next_clock(r, c);
                        if tb.covers(&then) {
                            matches!(tb.probe_at(&then, c2), Ok(Value::Win(_)))
                        } else {
                            forces_tabled_win(&tb, &then, &rules, c2, 1)
                        }
                    })
            })
            .collect();
        if winning.len() == legal.len() {
            continue;
        }
        let (best, score, hits) = play(&dir, &pos, 5_000);
        let best = best.expect("a move");
        assert!(
            winning.contains(&best),
            "{}: played {best}, winning {winning:?}",
            fen::write(&pos)
        );
        assert!(
            matches!(score, Some(Score::Cp(cp)) if cp > 19_000),
            "{}: {score:?}",
            fen::write(&pos)
        );
        assert!(hits.is_some_and(|h| h > 0));
        checked += 1;
        if checked == 5 {
            break;
        }
    }
    assert_eq!(checked, 5, "too few positions with a forced conversion");
}

/// The first table file of `dir`, by name (the one `TablebasePath` reports first).
fn first_file(dir: &Path) -> std::path::PathBuf {
    format::scan(dir).expect("scan")[0].0.clone()
}

#[test]
fn tablebase_path_is_accepted_or_refused_with_one_line() {
    let rules = Rules::default();
    let dir = tables(3, &rules);
    let english = tables(
        3,
        &Rules {
            backward_capture: false,
            long_kings: false,
            ..rules
        },
    );
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let empty = tmp.join("tb-search-empty");
    let _ = std::fs::remove_dir_all(&empty);
    std::fs::create_dir_all(&empty).expect("mkdir");
    let short = crate::scenarios::copy_of(&dir, "tb-search-short");
    let victim = first_file(&short);
    let len = std::fs::metadata(&victim).expect("meta").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&victim)
        .and_then(|f| f.set_len(len - 1))
        .expect("truncate");
    let foreign = crate::scenarios::copy_of(&dir, "tb-search-foreign");
    let alien = first_file(&foreign);
    std::fs::write(&alien, b"not a table at all, just text").expect("write");

    let mut e = Process::start();
    let set = |e: &mut Process, d: &str| e.ask(&format!("setoption name TablebasePath value {d}"));
    assert_eq!(
        set(&mut e, "/no/such/dir"),
        ["info string error: TablebasePath: tablebase directory /no/such/dir does not exist"]
    );
    assert_eq!(
        set(&mut e, text(&empty)),
        [format!(
            "info string error: TablebasePath: no tablebase files in {}",
            text(&empty)
        )]
    );
    assert_eq!(
        set(&mut e, text(&english)),
        [format!(
            "info string error: TablebasePath: {}: built for BackwardCapture=false LongKings=false \
             DrawHalfMoves=80, not BackwardCapture=true LongKings=true DrawHalfMoves=80",
            first_file(&english).display()
        )]
    );
    assert_eq!(
        set(&mut e, text(&short)),
        [format!(
            "info string error: TablebasePath: {}: truncated or padded: {} bytes, expected {len}",
            victim.display(),
            len - 1
        )]
    );
    assert_eq!(
        set(&mut e, text(&foreign)),
        [format!(
            "info string error: TablebasePath: {}: not a buffgreen tablebase file",
            alien.display()
        )]
    );
    // Nothing was taken: a search reports no probes.
    let kk = "position fen W:WK4:BK7,K16";
    e.send(kk);
    let lines = e.go("go nodes 50");
    assert!(lines.iter().all(|l| !l.contains(" tbhits ")), "{lines:?}");
    // Good tables: no line; the search probes them.
    assert_eq!(set(&mut e, text(&dir)), Vec::<String>::new());
    let lines = e.go("go nodes 50");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info ") && l.contains(" tbhits ")),
        "{lines:?}"
    );
    // A refused path keeps the tables there were.
    assert_eq!(set(&mut e, "/no/such/dir").len(), 1);
    // Other rules: one line, and the engine plays on without tables; back to the rules of
    // the tables, they are used again.
    assert_eq!(
        e.ask("setoption name LongKings value false"),
        [format!(
            "info string error: TablebasePath: {}: built for BackwardCapture=true LongKings=true \
             DrawHalfMoves=80, not BackwardCapture=true LongKings=false DrawHalfMoves=80; \
             playing without tables",
            first_file(&dir).display()
        )]
    );
    e.send(kk);
    let lines = e.go("go nodes 50");
    assert!(lines.iter().all(|l| !l.contains(" tbhits ")), "{lines:?}");
    assert_eq!(
        e.ask("setoption name LongKings value true"),
        Vec::<String>::new()
    );
    e.send(kk);
    let lines = e.go("go nodes 50");
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    assert_eq!(
        e.ask("setoption name TablebasePath value <empty>"),
        Vec::<String>::new()
    );
    let lines = e.go("go nodes 50");
    assert!(lines.iter().all(|l| !l.contains(" tbhits ")), "{lines:?}");
    e.quit_ok();
}

#[test]
fn a_corrupt_slice_refuses_the_tables_when_they_are_opened() {
    let rules = Rules::default();
    let dir = crate::scenarios::copy_of(&tables(3, &rules), "tb-search-corrupt");
    // Same length, one entry changed: only the checksum can tell, and the engine checks every
    // slice when it opens the tables, never during a search.
    let slice = dir.join("b0m1k-w0m2k.bgtb");
    let mut bytes = std::fs::read(&slice).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&slice, bytes).expect("write");
    let mut e = Process::start();
    assert_eq!(
        e.ask(&format!(
            "setoption name TablebasePath value {}",
            text(&dir)
        )),
        vec![format!(
            "info string error: TablebasePath: {}: checksum mismatch (corrupt file)",
            text(&slice)
        )]
    );
    // The engine plays on without tables.
    e.send("position fen W:WK4:BK7,K16");
    let lines = e.go("go nodes 200");
    assert_legal(&lines, "W:WK4:BK7,K16", &rules);
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" tbhits ") && !l.starts_with("info string")),
        "{lines:?}"
    );
    e.quit_ok();
}

/// The 3-piece Buff and Green tables compressed in a fresh directory `name`, with every
/// compressed byte of the slice `b0m1k-w0m2k` changed, its header and block table intact:
/// opening reads no block, so the folder is taken at once, and each block read fails its
/// checksum. Returns the directory, the slice's file and its good bytes.
fn corrupt_compressed_slice(name: &str) -> (PathBuf, PathBuf, Vec<u8>) {
    let dir = crate::scenarios::copy_of(&tables(3, &Rules::default()), name);
    buffgreen_testkit::process::succeed(
        std::process::Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .args(["tb", "compress", "--dir"])
            .arg(&dir),
        "tb compress",
    );
    let slice = dir.join("b0m1k-w0m2k.bgtb");
    let good = std::fs::read(&slice).expect("read");
    let header = format::read_header(&slice).expect("header");
    let blocks_start = format::HEADER_LEN + header.blocks() as usize * 16;
    let mut bad = good.clone();
    for b in &mut bad[blocks_start..] {
        *b ^= 0x55;
    }
    std::fs::write(&slice, &bad).expect("write");
    (dir, slice, good)
}

#[test]
fn a_corrupt_compressed_block_is_said_at_the_search_that_reads_it() {
    let rules = Rules::default();
    let (dir, slice, _) = corrupt_compressed_slice("tb-search-corrupt-block");
    let mut e = Process::start();
    crate::name_tables(&mut e, &dir);
    e.send("position fen W:WK4:BK7,K16");
    let lines = e.go("go nodes 200");
    assert_legal(&lines, "W:WK4:BK7,K16", &rules);
    let said: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(
        said,
        [&format!(
            "info string error: TablebasePath: {}: block 3 is corrupt (checksum or size \
             mismatch); its positions are searched without tables",
            text(&slice)
        )]
    );
    // Said once: the next search reads the same blocks and says nothing.
    let lines = e.go("go nodes 200");
    assert_legal(&lines, "W:WK4:BK7,K16", &rules);
    assert!(
        lines.iter().all(|l| !l.starts_with("info string error")),
        "{lines:?}"
    );
    e.quit_ok();
}

#[test]
fn a_block_found_corrupt_stays_refused_until_the_tables_are_opened_again() {
    let rules = Rules::default();
    let (dir, slice, good) = corrupt_compressed_slice("tb-corrupt-block-memo");
    let tb = Tablebase::open(&dir, &rules).expect("opens: no block is read");
    let pos = fen::parse("W:WK4:BK7,K16").expect("fen");
    let refused = format!(
        "{}: block 3 is corrupt (checksum or size mismatch)",
        text(&slice)
    );
    assert_eq!(
        tb.probe(&pos).map_err(|e| e.to_string()),
        Err(refused.clone())
    );
    // The file mended in place: the open tables do not read the block again (a damaged block
    // would otherwise be read and checked at every probe of it) ...
    std::fs::write(&slice, &good).expect("write");
    assert_eq!(tb.probe(&pos).map_err(|e| e.to_string()), Err(refused));
    // ... and tables opened again read it.
    let again = Tablebase::open(&dir, &rules).expect("opens");
    assert!(again.probe(&pos).is_ok());
}

#[test]
fn a_set_being_built_covers_only_the_slices_it_has() {
    let rules = Rules::ENGLISH;
    let dir = crate::scenarios::copy_of(&tables(4, &rules), "tb-partial");
    // Every 4-piece slice gone but one, as in a build that has reached it.
    for m in buffgreen::tablebase::Material::slices(4) {
        if m.pieces() == 4 && m.to_string() != "b0m2k-w0m2k" {
            std::fs::remove_file(format::path_of(&dir, m)).expect("remove");
        }
    }
    let tb = Tablebase::open(&dir, &rules).expect("opens");
    assert_eq!(tb.max_pieces(), 4);
    let pos = |f: &str| fen::parse(f).expect("fen");
    // Two kings each: present, either side to move; a 3-piece position: complete.
    for f in ["B:WK4,K8:BK20,K29", "W:WK4,K8:BK20,K29", "B:WK4:BK20,K29"] {
        assert!(tb.covers(&pos(f)), "{f}");
        assert!(tb.probe(&pos(f)).is_ok(), "{f}");
    }
    // A king and a man each: its slice is not there.
    let missing = pos("B:WK4,8:BK20,24");
    assert!(!tb.covers(&missing));
    assert_eq!(
        tb.probe(&missing).expect_err("not covered").to_string(),
        "position not covered by the tables: B:WK4,8:BK20,24"
    );
}

fn assert_legal(lines: &[String], fen_text: &str, rules: &Rules) {
    let last = lines.last().expect("a bestmove line");
    crate::protocol_support::assert_legal_bestmove(last, fen_text, rules);
}
