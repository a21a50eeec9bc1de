//! `buffgreen match` as cutechess-cli users drive it, with the real engine at tiny node
//! limits: score adjudication (`--resign`, `--draw`), tablebase adjudication (`--tb`), the
//! engine I/O log (`--debug-log`), `--resume`, gauntlet and round-robin tournaments, the
//! pentanomial error bar and the warning for `--concurrency` above the cores.

use buffgreen_testkit::{assert_contains, assert_starts};
use std::path::{Path, PathBuf};

use buffgreen::board::{fen, Game, Rules};
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen_tourney::pdn::{self, PdnGame, Replay};
use buffgreen_tourney::stats::{fmt_err, Record};

use crate::match_support;
use match_support::{assert_refused, match_of, run, BIN};

fn temp(name: &str) -> PathBuf {
    match_support::temp("adjud", name)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A wrapper around the engine that reports `score cp <cp>` for every search (its moves are
/// the engine's own).
fn scoring_engine(dir: &Path, name: &str, cp: i32) -> String {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(
        &path,
        format!("#!/bin/sh\n{BIN} | sed -u -e 's/score [a-z]* [-0-9]*/score cp {cp}/'\n"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("cmd={} name={name}", path.display())
}

/// A quiet match at 20 nodes of `games` games between two [`scoring_engine`]s (name,
/// score) under the adjudication words of `rule`, written to `dir/file`: its table and games.
fn scored_games(
    dir: &Path,
    file: &str,
    engines: [(&str, i32); 2],
    games: usize,
    rule: &str,
) -> (String, Vec<PdnGame>) {
    let pdn_path = dir.join(file);
    let mut args = vec!["match".to_string()];
    for (name, cp) in engines {
        args.push("--engine".into());
        args.push(scoring_engine(dir, name, cp));
    }
    let extra = format!("--nodes 20 --games {games} --quiet {rule}");
    args.extend(extra.split_whitespace().map(str::to_string));
    args.extend(["--pdn".to_string(), pdn_path.display().to_string()]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    (out, games_of(&pdn_path))
}

fn games_of(path: &Path) -> Vec<PdnGame> {
    pdn::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Plies the engines played in a game (after its opening).
fn engine_plies(g: &PdnGame) -> usize {
    let opening = g.tag("Opening").unwrap_or("").split_whitespace().count();
    // Every game carries a FEN tag; an opening played as moves starts from the start position.
    let fen_start = *g.replay().unwrap().start() != buffgreen::board::Position::startpos();
    g.moves.len() - if fen_start { 0 } else { opening }
}

/// The side to move after the opening (the first engine to move).
fn first_mover(g: &PdnGame) -> String {
    let replay = g.replay().unwrap();
    let mut game = Game::new(*replay.start(), 0, *replay.rules());
    for m in replay.moves().take(g.moves.len() - engine_plies(g)) {
        game.play(m);
    }
    match game.position().side_to_move() {
        buffgreen::types::Color::Black => "Black".into(),
        buffgreen::types::Color::White => "White".into(),
    }
}

#[test]
fn resign_by_score_one_and_two_sided() {
    let dir = temp("resign");
    let (out, games) = scored_games(
        &dir,
        "one.pdn",
        [("neg1", -500), ("neg2", -500)],
        4,
        "--resign movecount=3 score=400",
    );
    assert_eq!(games.len(), 4);
    for g in &games {
        // Both sides see -500: the first to move resigns after its third move (5 plies).
        let loser = first_mover(g);
        assert_eq!(engine_plies(g), 5);
        assert_eq!(
            g.tag("Termination").unwrap(),
            format!("adjudication: {loser} resigns by score")
        );
        let want = if loser == "Black" { "2-0" } else { "0-2" };
        assert_eq!(g.tag("Result"), Some(want));
    }
    assert!(out.contains("Terminations: adjudication 4\n"), "{out}");

    // Two-sided: the winner must agree for as many moves of its own.
    let (_, games) = scored_games(
        &dir,
        "two.pdn",
        [("pos", 500), ("neg", -500)],
        2,
        "--resign movecount=3 score=400 twosided=true",
    );
    for g in games {
        let neg_colour = if g.tag("Black") == Some("neg") {
            "Black"
        } else {
            "White"
        };
        // neg first: N P N P N P N (its 4th move, once pos has 3); pos first: 6 plies.
        let want = if first_mover(&g) == neg_colour { 7 } else { 6 };
        assert_eq!(engine_plies(&g), want);
        assert_eq!(
            g.tag("Termination").unwrap(),
            format!("adjudication: {neg_colour} resigns by score")
        );
    }
    // Bad parameters: one clear error, exit 2.
    assert_refused(
        &match_of(
            &["buffgreen", "buffgreen"],
            "--nodes 1 --resign movecount=0 score=400",
        ),
        "error: bad --resign: movecount=N with N at least 1 is required\n",
    );
}

#[test]
fn draw_by_score_counts_from_the_move_number_and_resets_on_captures() {
    let dir = temp("draw");
    let (out, games) = scored_games(
        &dir,
        "d.pdn",
        [("z1", 0), ("z2", 0)],
        4,
        "--draw movenumber=15 movecount=3 score=10",
    );
    let mut drawn = 0;
    for g in games {
        // Where the rule says the game ends: the first engine ply at which at least 15 full
        // moves were played and the last 6 engine plies restarted no clock.
        let game = g.replay().unwrap();
        let opening = g.moves.len() - engine_plies(&g);
        let mut replay = Game::new(*game.start(), 0, *game.rules());
        let mut run_len = 0;
        let mut end = None;
        for (i, m) in game.moves().enumerate() {
            replay.play(m);
            if i < opening {
                continue;
            }
            run_len = if replay.clock() == 0 { 0 } else { run_len + 1 };
            // Plies in the game now (the opening's included), in full moves.
            let full_moves = replay.moves().len() / 2;
            if full_moves >= 15 && run_len >= 6 {
                end = Some(i + 1);
                break;
            }
        }
        match end {
            Some(plies) => {
                assert_eq!(g.moves.len(), plies);
                assert_eq!(g.tag("Termination"), Some("adjudication: draw by score"));
                assert_eq!(g.tag("Result"), Some("1-1"));
                drawn += 1;
            }
            None => assert!(g.tag("Termination").unwrap().starts_with("normal")),
        }
    }
    // Seeded games at a node limit: the same every time.
    assert_eq!(drawn, 4);
    assert_contains(&out, "Terminations: adjudication 4\n");
}

#[test]
fn tablebase_ends_games_with_the_tables_result() {
    let dir = temp("tb");
    let tb = dir.join("tb3");
    let (code, out, err) = run(&strings(&[
        "tb",
        "build",
        "--pieces",
        "3",
        "--dir",
        &tb.display().to_string(),
    ]));
    assert_eq!(code, 0, "{out}{err}");
    // A tabled start (ended before a move) and 4-piece starts that reach 3 pieces.
    let deck = dir.join("deck.txt");
    std::fs::write(
        &deck,
        "W:WK10,K20:BK1\nB:W18,K30:B14,K3\nW:W22,K30:B5,K9\nB:WK27,K29:B6,K2\n",
    )
    .unwrap();
    let pdn_path = dir.join("tb.pdn");
    let (code, out, err) = run(&match_of(
        &["a", "b"],
        &format!(
            "--nodes 20 --quiet --openings {} --tb {} --pdn {}",
            deck.display(),
            tb.display(),
            pdn_path.display()
        ),
    ));
    assert_eq!(code, 0, "{out}{err}");
    let table = Tablebase::open(&tb, &Rules::BUFF_AND_GREEN).unwrap();
    let games = games_of(&pdn_path);
    assert_eq!(games.len(), 8);
    let mut by_table = 0;
    for g in &games {
        let game = g.replay().unwrap();
        let term = g.tag("Termination").unwrap();
        let pos = game.position();
        // No earlier position of the game was tabled: it ended at the first.
        let mut before = Game::new(*game.start(), 0, *game.rules());
        for m in game.moves() {
            assert!(
                !table.covers(before.position()),
                "{}",
                fen::write(before.position())
            );
            before.play(m);
        }
        if term == "adjudication: tablebase" {
            by_table += 1;
            // The first tabled position of the game, at the game's clock, gave the result.
            assert!(table.covers(pos));
            let stm = pos.side_to_move();
            let want = match table
                .game_value(pos, game.clock(), game.draws())
                .unwrap()
                .unwrap()
            {
                Value::Win(_) if stm == buffgreen::types::Color::White => "2-0",
                Value::Loss(_) if stm == buffgreen::types::Color::Black => "2-0",
                Value::Draw => "1-1",
                _ => "0-2",
            };
            assert_eq!(g.tag("Result"), Some(want), "{:?}", g.tags);
        } else {
            // Only a game that ended by the rules on reaching the tables is not adjudicated.
            assert!(term.starts_with("normal"), "{term}");
        }
    }
    assert_eq!(by_table, 8);
    // The tabled start ends at once with White (to move) winning.
    let first = &games[0];
    assert_eq!(first.tag("FEN"), Some("W:WK10,K20:BK1"));
    assert_eq!(first.moves.len(), 0);
    assert_eq!(first.tag("Result"), Some("2-0"));
    // Tables of other rules: one clear error before any game.
    assert_refused(
        &match_of(
            &["buffgreen", "buffgreen"],
            &format!("--nodes 20 --english --tb {}", tb.display()),
        ),
        &format!(
            "error: --tb {0}: {0}/b0m1k-w0m1k.bgtb: built for BackwardCapture=true \
             LongKings=true DrawHalfMoves=80, not BackwardCapture=false LongKings=false \
             DrawHalfMoves=80\n",
            tb.display()
        ),
    );
}

/// Tables of up to `pieces` pieces for `rules`, built once for the tests that share them.
fn shared_tables(pieces: u32, rules: &Rules) -> PathBuf {
    buffgreen_testkit::tables::shared(Path::new(env!("CARGO_TARGET_TMPDIR")), pieces, rules)
}

#[test]
fn the_referee_reads_family_tables_at_the_games_count_not_its_clock() {
    use buffgreen::board::{DrawCount, Variant};
    use buffgreen::types::Color;
    use buffgreen_tourney::referee::{table_outcome, Outcome};

    // Russian: a king and a man against a lone king stand under 7.2.8 (10 plies). Four quiet
    // moves and a crowning that is not White's first king: the count carries on to 5 while
    // the crowning restarts the clock.
    let russian = Rules {
        draw_half_moves: 0,
        ..Variant::Russian.rules()
    };
    let tb = Tablebase::open(&shared_tables(3, &russian), &russian).unwrap();
    let mut game = Game::new(fen::parse("W:W5,K9:BK28").unwrap(), 0, russian);
    for m in ["9-13", "28-32", "13-9", "32-28", "5-1"] {
        game.play_str(m).unwrap();
    }
    let pos = *game.position();
    assert_eq!(fen::write(&pos), "B:WK1,K9:BK28");
    assert_eq!((game.clock(), game.draws().count()), (0, 5));
    // Lost for Black while at most 4 plies are counted: at the clock's 0, not at the count.
    assert_eq!(tb.probe_at(&pos, 0).unwrap(), Value::Loss(123));
    assert_eq!(tb.probe_at(&pos, 5).unwrap(), Value::Draw);
    assert_eq!(table_outcome(&tb, &game).unwrap(), Some(Outcome::Draw));
    // From the same position with nothing counted the loss stands.
    let fresh = Game::new(pos, 0, russian);
    assert_eq!(
        table_outcome(&tb, &fresh).unwrap(),
        Some(Outcome::Win(Color::White))
    );

    // Pool: three kings in their corner win in nine moves while they have made at most four;
    // a game set up at clock 20 with nothing counted is still a win, where the clock would
    // read it as a draw.
    let pool = Rules {
        draw_half_moves: 0,
        ..Variant::Pool.rules()
    };
    let tb = Tablebase::open(&shared_tables(4, &pool), &pool).unwrap();
    let cornered = fen::parse("W:WK1,K2,K3:BK32").unwrap();
    assert_eq!(tb.probe_at(&cornered, 20).unwrap(), Value::Draw);
    let game = Game::new(cornered, 20, pool);
    assert_eq!(game.draws(), DrawCount::default());
    assert_eq!(
        table_outcome(&tb, &game).unwrap(),
        Some(Outcome::Win(Color::White))
    );
}

#[test]
fn debug_log_has_every_line_both_ways_with_times_and_engines() {
    let dir = temp("log");
    let log = dir.join("io.log");
    let pdn_path = dir.join("g.pdn");
    let (code, out, err) = run(&match_of(
        &["alpha", "beta"],
        &format!(
            "--nodes 10 --games 2 --quiet --debug-log {} --pdn {}",
            log.display(),
            pdn_path.display()
        ),
    ));
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    // The match's first line, then `<ms> <dir><name>(<pid>): <line>`.
    assert!(text.starts_with("0.000 # buffgreen match "), "{text}");
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let parse = |l: &str| -> (f64, char, String, String) {
        let (ms, rest) = l.split_once(' ').unwrap();
        let dir = rest.chars().next().unwrap();
        let (who, line) = rest[1..].split_once(": ").unwrap();
        assert!(who.ends_with(')') && who.contains('('), "{l}");
        let name = who.split('(').next().unwrap().to_string();
        assert_eq!(ms.split('.').nth(1).map(str::len), Some(3), "{l}");
        (ms.parse().unwrap(), dir, name, line.to_string())
    };
    let entries: Vec<_> = lines.iter().map(|l| parse(l)).collect();
    let count = |dir: char, name: &str, f: &dyn Fn(&str) -> bool| {
        entries
            .iter()
            .filter(|e| e.1 == dir && e.2 == name && f(&e.3))
            .count()
    };
    let games = games_of(&pdn_path);
    let plies: usize = games.iter().map(engine_plies).sum();
    for name in ["alpha", "beta"] {
        assert_eq!(count('>', name, &|l| l == "uci"), 1);
        assert_eq!(count('<', name, &|l| l == "uciok"), 1);
        assert_eq!(count('>', name, &|l| l == "ucinewgame"), 2);
        assert!(count('<', name, &|l| l.starts_with("info depth")) > 0);
    }
    // Every move asked was answered, and both appear in the log.
    let asked =
        count('>', "alpha", &|l| l == "go nodes 10") + count('>', "beta", &|l| l == "go nodes 10");
    let answered = count('<', "alpha", &|l| l.starts_with("bestmove"))
        + count('<', "beta", &|l| l.starts_with("bestmove"));
    assert_eq!(asked, plies);
    assert_eq!(answered, plies);
    assert!(entries.iter().all(|e| e.0 >= 0.0));
}

/// Runs a 2-engine self-play match of 12 games at 20 nodes with `extra` arguments.
fn selfplay(extra: &[String]) -> (i32, String, String) {
    let mut args = match_of(&["a", "b"], "--nodes 20 --games 12 --seed 7 --quiet");
    args.extend(extra.iter().cloned());
    run(&args)
}

/// The table without its first line (which holds the time taken).
fn table_body(out: &str) -> String {
    out.lines().skip(1).collect::<Vec<_>>().join("\n")
}

#[test]
fn resume_plays_only_the_missing_games_and_counts_all() {
    let dir = temp("resume");
    let whole = dir.join("whole.pdn");
    let (code, full, err) = selfplay(&["--pdn".into(), whole.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&whole).unwrap();
    // An interrupted run: the first 5 games are in its PDN.
    let cut = text.match_indices("[Event ").nth(5).unwrap().0;
    let part = dir.join("part.pdn");
    std::fs::write(&part, &text[..cut]).unwrap();
    let log = dir.join("io.log");
    let (code, out, err) = selfplay(&[
        "--pdn".into(),
        part.display().to_string(),
        "--resume".into(),
        "--debug-log".into(),
        log.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Games: 12 of 12 in "), "{out}");
    assert_eq!(table_body(&out), table_body(&full));
    // Only the 7 missing games were played (two engines each), and the PDN now holds the
    // whole run, game for game.
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.ends_with(": ucinewgame")).count(),
        14
    );
    let a = games_of(&whole);
    let b = games_of(&part);
    assert_eq!(b.len(), 12);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.tag("Round"), y.tag("Round"));
        assert_eq!(x.moves, y.moves);
        assert_eq!(x.tag("Result"), y.tag("Result"));
    }
    // Resuming a finished run plays nothing more.
    let (code, again, _) = selfplay(&[
        "--pdn".into(),
        part.display().to_string(),
        "--resume".into(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(table_body(&again), table_body(&full));
    assert_eq!(games_of(&part).len(), 12);
    // Another schedule (other engine names) is refused, not mixed in.
    assert_refused(
        &match_of(
            &["x", "y"],
            &format!(
                "--nodes 20 --games 12 --seed 7 --quiet --resume --pdn {}",
                part.display()
            ),
        ),
        &format!(
            "error: {}:1:1: PDN game 1: round 1 has a (Black) against b (White), the schedule x \
             against y; resume with the arguments of the interrupted run\n",
            part.display()
        ),
    );
}

#[test]
fn gauntlet_and_round_robin_tables_per_pair_and_overall() {
    let dir = temp("gauntlet");
    for (kind, pairs) in [("gauntlet", 2), ("round-robin", 3)] {
        let pdn_path = dir.join(format!("{kind}.pdn"));
        let (code, out, err) = run(&match_of(
            &["a", "b", "c"],
            &format!(
                "--tournament {kind} --nodes 10 --games 2 --quiet --pdn {}",
                pdn_path.display()
            ),
        ));
        assert_eq!(code, 0, "{err}");
        let games = games_of(&pdn_path);
        assert_eq!(games.len(), 2 * pairs);
        assert_starts(&out, &format!("Games: {0} of {0} in ", 2 * pairs));
        let mut per: std::collections::BTreeMap<(String, String), Record> = Default::default();
        for g in &games {
            let (b, w) = (g.tag("Black").unwrap(), g.tag("White").unwrap());
            if kind == "gauntlet" {
                assert!(b == "a" || w == "a", "{b} {w}");
            }
            let (first, second) = if b < w { (b, w) } else { (w, b) };
            let first_won = match g.tag("Result").unwrap() {
                "1-1" => 0.5,
                "2-0" if w == first => 1.0,
                "0-2" if b == first => 1.0,
                _ => 0.0,
            };
            per.entry((first.into(), second.into()))
                .or_default()
                .add_game(first_won);
        }
        assert_eq!(per.len(), pairs);
        for ((x, y), r) in &per {
            let line = format!(
                "{x} vs {y}: +{} ={} -{} ({:.1}%) Elo ",
                r.wins,
                r.draws,
                r.losses,
                100.0 * r.score()
            );
            assert!(out.contains(&line), "{line}\n{out}");
        }
        assert_eq!(out.contains("b vs c:"), kind == "round-robin");
        // The overall rows: every engine once.
        for name in ["a", "b", "c"] {
            assert_eq!(
                out.lines()
                    .filter(|l| l.split_whitespace().nth(1) == Some(name))
                    .count(),
                1,
                "{out}"
            );
        }
    }
}

#[test]
fn pentanomial_error_bar_in_the_table_and_concurrency_warning() {
    let dir = temp("penta");
    let pdn_path = dir.join("p.pdn");
    let (code, out, err) = selfplay(&[
        "--pdn".into(),
        pdn_path.display().to_string(),
        "--concurrency".into(),
        "64".into(),
    ]);
    assert_eq!(code, 0, "{err}");
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(
        err.contains(&format!(
            "warning: --concurrency 64 exceeds the {cores} cores of this machine: engines \
             share CPU and time controls are not kept\n"
        )),
        "{err}"
    );
    // The error bar of engine a from its game pairs (rounds 2k+1, 2k+2 share an opening).
    let games = games_of(&pdn_path);
    let mut by_round: Vec<(usize, f64)> = games
        .iter()
        .map(|g| {
            let a_white = g.tag("White") == Some("a");
            let points = match g.tag("Result").unwrap() {
                "1-1" => 0.5,
                "2-0" => f64::from(u8::from(a_white)),
                _ => f64::from(u8::from(!a_white)),
            };
            (g.tag("Round").unwrap().parse().unwrap(), points)
        })
        .collect();
    by_round.sort_by_key(|x| x.0);
    let mut r = Record::default();
    for pair in by_round.chunks(2) {
        r.add_game(pair[0].1);
        r.add_game(pair[1].1);
        r.add_pair(pair[0].1 + pair[1].1);
    }
    let row = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("a"))
        .unwrap();
    let err_col = row.split_whitespace().nth(9).unwrap();
    assert_eq!(err_col, fmt_err(r.elo_pairs().1), "{out}");
    // With the trinomial model the bar is the per-game one.
    let (_, tri, _) = selfplay(&[
        "--sprt".into(),
        "elo0=0".into(),
        "elo1=0.01".into(),
        "model=trinomial".into(),
    ]);
    let row = tri
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("a"))
        .unwrap();
    assert_eq!(
        row.split_whitespace().nth(9).unwrap(),
        fmt_err(r.elo().1),
        "{tri}"
    );
}
