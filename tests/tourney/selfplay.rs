//! `buffgreen match` with the real engine: self-play at a tiny node limit writes a PDN that the
//! library reads back move by move; the command line, rules switches and random openings.

use std::path::Path;
use std::process::Command;

use buffgreen::board::{GameResult, Rules};
use buffgreen::types::Color;
use buffgreen_testkit::process::outcome;
use buffgreen_tourney::pdn::{self, Replay};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const DECK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/3move.tsv");

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bg-selfplay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.pdn")
}

/// Runs `buffgreen match` with two copies of the engine, the arguments `words` (split at
/// spaces) and then `files` as they are (paths may hold spaces); returns exit code, stdout,
/// stderr.
fn run_match(words: &str, files: &[&str]) -> (i32, String, String) {
    let a = format!("cmd={BIN} name=alpha option.Seed=1");
    let b = format!("cmd={BIN} name=beta option.Seed=2");
    outcome(
        Command::new(BIN)
            .args(["match", "--engine", &a, "--engine", &b])
            .args(words.split_whitespace())
            .args(files),
    )
}

/// [`run_match`] on the openings of [`DECK`] writing the PDN `path`, which must succeed:
/// stdout and stderr.
fn deck_match(words: &str, path: &Path) -> (String, String) {
    let (code, out, err) = run_match(
        words,
        &["--openings", DECK, "--pdn", path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    (out, err)
}

/// Reads a PDN file and replays each game; checks the tags every game must have and that a
/// game ended by the rules really ended that way. Returns the games.
fn check_pdn(path: &std::path::Path, rules: Rules) -> Vec<pdn::PdnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = pdn::parse(&text).unwrap();
    for (i, g) in games.iter().enumerate() {
        for tag in [
            "Event",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "GameType",
            "TimeControl",
            "Termination",
        ] {
            assert!(g.tag(tag).is_some(), "game {}: no {tag}", i + 1);
        }
        assert_eq!(g.game_rules().unwrap(), rules);
        let game = g.replay().unwrap();
        assert_eq!(game.moves().len().to_string(), g.tag("PlyCount").unwrap());
        let result = g.tag("Result").unwrap();
        assert_eq!(g.result.as_deref(), Some(result));
        let term = g.tag("Termination").unwrap();
        if term.starts_with("normal") {
            let want = match game.result() {
                GameResult::Win(Color::White) => "2-0",
                GameResult::Win(Color::Black) => "0-2",
                GameResult::Draw => "1-1",
                GameResult::Ongoing => panic!("game {} is not over", i + 1),
            };
            assert_eq!(result, want, "game {}", i + 1);
        } else {
            assert!(term.starts_with("adjudication"), "game {}: {term}", i + 1);
            assert_eq!(result, "1-1");
        }
    }
    games
}

#[test]
fn self_play_writes_a_pdn_the_library_replays() {
    let path = temp("bg");
    let (out, err) = deck_match("--nodes 3 --games 20 --concurrency 2", &path);
    assert!(out.starts_with("Games: 20 of 20 in "), "{out}");
    assert!(
        out.contains("limit nodes=3; rules BackwardCapture=true LongKings=true DrawHalfMoves=80\n")
    );
    assert!(
        out.contains("\nPairs for alpha (LL LD DD/WL DW WW): "),
        "{out}"
    );
    assert!(!out.contains("Faults of"), "{out}");
    assert!(err.contains("[20/20] alpha vs beta: "), "{err}");
    let games = check_pdn(&path, Rules::BUFF_AND_GREEN);
    assert_eq!(games.len(), 20);
    let mut rounds: Vec<usize> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort();
    assert_eq!(rounds, (1..=20).collect::<Vec<_>>());
    for g in &games {
        let round: usize = g.tag("Round").unwrap().parse().unwrap();
        // Odd rounds: alpha has Black; each opening twice, colours reversed.
        let (black, white) = if round % 2 == 1 {
            ("alpha", "beta")
        } else {
            ("beta", "alpha")
        };
        assert_eq!((g.tag("Black"), g.tag("White")), (Some(black), Some(white)));
        assert_eq!(g.tag("GameType"), Some("32,B,8,8,N1,0"));
        assert_eq!(g.tag("TimeControl"), Some("nodes=3"));
        assert_eq!(
            g.tag("FEN"),
            Some("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        );
        // The opening's three moves start the record.
        let opening = g.tag("Opening").unwrap();
        assert_eq!(g.moves[..3].join(" "), opening);
        let deck_line = (round - 1) / 2;
        let want = std::fs::read_to_string(DECK)
            .unwrap()
            .lines()
            .nth(deck_line)
            .unwrap()
            .split('\t')
            .nth(1)
            .unwrap()
            .replace("13-22", "13x22");
        assert_eq!(opening, want);
    }
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn english_rules_and_reproducible_random_openings() {
    let p1 = temp("en1");
    let p2 = temp("en2");
    for p in [&p1, &p2] {
        let (code, out, err) = run_match(
            "--english --nodes 2 --games 6 --random-plies 6 --seed 9 \
             --adjudicate-draw-after 60 --quiet",
            &["--pdn", p.to_str().unwrap()],
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("rules BackwardCapture=false LongKings=false DrawHalfMoves=80\n"));
        // Under English rules a leaf is valued by the network, not a seeded playout, so one
        // engine against itself plays an opening's two games alike: the runner says so, and
        // says nothing else.
        assert!(
            err.lines()
                .all(|l| l.starts_with("warning: game ") && l.contains(" move for move")),
            "{err}"
        );
    }
    let g1 = check_pdn(&p1, Rules::ENGLISH);
    let g2 = check_pdn(&p2, Rules::ENGLISH);
    assert_eq!(g1.len(), 6);
    // Same seed, same openings; the engines are seeded, so the same games.
    assert_eq!(
        g1.iter().map(|g| &g.moves).collect::<Vec<_>>(),
        g2.iter().map(|g| &g.moves).collect::<Vec<_>>()
    );
    assert!(g1.iter().all(|g| g.tag("GameType") == Some("21")));
    assert_eq!(g1[0].tag("Opening"), g1[1].tag("Opening"));
    assert_ne!(g1[0].tag("Opening"), g1[2].tag("Opening"));
    let (code, out, _) = run_match("--verify-pdn", &[p1.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains(": 6 games, ") && out.ends_with(" plies, all legal\n"),
        "{out}"
    );
    for p in [p1, p2] {
        std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
    }
}

#[test]
fn bad_arguments_are_refused() {
    let (code, _, err) = run_match("--games 2", &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: give one of --tc, --movetime and --nodes (or tc=, movetime=, nodes= in every --engine)\n"
    );
    let (code, _, err) = run_match("--nodes 5 --movetime 100", &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: give at most one of --tc, --movetime and --nodes\n"
    );
    let (code, _, err) = run_match("--nodes 0", &[]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: bad nodes '0': expected a number above 0\n");
    let (code, _, err) = run_match("--tc 40/", &[]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: bad time control '40/'"), "{err}");
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=/nonexistent/engine",
            "--nodes",
            "1",
            "--games",
            "1",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("error: cannot start engine 'engine' (/nonexistent/engine): "));
}

/// The random-move fake (tests/data/engines/random.sh, built on `go perft 1` of the real
/// engine) only ever plays legal moves, under both rule sets: the reference "random setting".
#[test]
fn random_fake_engine_plays_legal_games() {
    let random = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/random.sh");
    for (rules, flag) in [
        (Rules::BUFF_AND_GREEN, "--long-kings=true"),
        (Rules::ENGLISH, "--english"),
    ] {
        let path = temp(if flag == "--english" {
            "rnd-en"
        } else {
            "rnd-bg"
        });
        let out = Command::new(BIN)
            .args(["match", "--engine"])
            .arg(format!("cmd='{random} {BIN} 5' name=random"))
            .arg("--engine")
            .arg(format!("cmd={BIN} name=engine"))
            .args("--nodes 1 --games 4 --random-plies 4 --quiet".split(' '))
            .arg(flag)
            .arg("--pdn")
            .arg(&path)
            .output()
            .unwrap();
        let table = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{table}");
        assert!(!table.contains("Faults of"), "{table}");
        assert_eq!(check_pdn(&path, rules).len(), 4);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}

/// 2000 iterations a move against 1 is told apart long before 200 games.
#[test]
fn sprt_stops_strong_against_weak_early() {
    let out = Command::new(BIN)
        .args(["match", "--engine"])
        .arg(format!("cmd={BIN} name=strong nodes=2000"))
        .arg("--engine")
        .arg(format!("cmd={BIN} name=weak nodes=1"))
        .args([
            "--openings",
            DECK,
            "--games",
            "200",
            "--concurrency",
            "2",
            "--quiet",
        ])
        .args(["--sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])
        .output()
        .expect("match runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    let games: usize = table
        .strip_prefix("Games: ")
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("games count");
    assert!(games < 100, "{table}");
    assert!(
        table.contains(" H1 accepted\n") && table.contains("\n   1  strong "),
        "{table}"
    );
}

#[test]
fn losing_games_are_refereed_by_losing_results() {
    let path = temp("losing");
    let (out, _) = deck_match("--losing --nodes 3 --games 12 --quiet", &path);
    assert!(
        out.contains("rules BackwardCapture=true LongKings=true DrawHalfMoves=80 Losing=true\n"),
        "{out}"
    );
    let losing = Rules {
        losing: true,
        ..Rules::BUFF_AND_GREEN
    };
    // check_pdn replays each game under the PDN's rules (Losing=true) and checks its result.
    let games = check_pdn(&path, losing);
    assert!(games.iter().all(|g| g.tag("Rules")
        == Some("BackwardCapture=true LongKings=true DrawHalfMoves=80 Losing=true")));
    let stuck: Vec<_> = games
        .iter()
        .filter(|g| g.tag("Termination").unwrap().ends_with("(losing checkers)"))
        .collect();
    assert!(!stuck.is_empty(), "no game ended by a side without a move");
    for g in stuck {
        // "normal: Black has no legal move (losing checkers)" is a win for Black: 0-2.
        let black_stuck = g.tag("Termination").unwrap().contains("Black has");
        assert_eq!(
            g.tag("Result"),
            Some(if black_stuck { "0-2" } else { "2-0" })
        );
    }
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// The first line of `openings/russian-balanced.tsv`, the Russian deck the runner plays by
/// default: its moves from White's first, and the FEN they reach.
const RUSSIAN_FIRST: &str = "21-17 10-15 24-20";
const RUSSIAN_FIRST_FEN: &str =
    "B:W17,20,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15";

#[test]
fn a_russian_match_plays_its_deck_with_white_first_and_replays() {
    let path = temp("russian");
    let (code, out, err) = run_match(
        "--nodes 200 --games 2 --variant russian",
        &["--pdn", path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Games: 2 of 2 in "), "{out}");
    assert!(
        out.contains(
            "; limit nodes=200; rules Variant=russian BackwardCapture=true LongKings=true DrawHalfMoves=80\n"
        ),
        "{out}"
    );
    assert!(!out.contains("Faults of"), "{out}");
    assert!(!err.contains("illegal"), "{err}");
    let russian = buffgreen::board::Variant::Russian;
    let rules = russian.rules();
    let games = check_pdn(&path, rules);
    assert_eq!(games.len(), 2);
    // The deck's first line, replayed from Russian draughts' start, reaches its FEN.
    let mut opening =
        buffgreen::board::Game::new(buffgreen::board::Position::start(&rules), 0, rules);
    for mv in RUSSIAN_FIRST.split(' ') {
        opening.play_str(mv).unwrap();
    }
    assert_eq!(
        buffgreen::board::fen::write(opening.position()),
        RUSSIAN_FIRST_FEN
    );
    let plies = opening.moves().len();
    for g in &games {
        // The table's tags.
        assert_eq!(g.tag("GameType"), Some(russian.game_type()));
        assert_eq!(g.tag("Variant"), Some(russian.name()));
        assert_eq!(
            g.tag("Rules"),
            Some("Variant=russian BackwardCapture=true LongKings=true DrawHalfMoves=80")
        );
        // White moves first, from the standard pieces.
        assert_eq!(
            g.tag("FEN"),
            Some("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        );
        // The Russian deck's first opening, played in order, its moves the game's first.
        assert_eq!(g.tag("Opening"), Some(RUSSIAN_FIRST));
        assert_eq!(g.moves[..plies].join(" "), RUSSIAN_FIRST);
        let first: u8 = g.moves[0].split('-').next().unwrap().parse().unwrap();
        assert!(
            (21..=32).contains(&first),
            "White's man moves first: {}",
            g.moves[0]
        );
        assert!(g.tag("Termination").unwrap().starts_with("normal"));
    }
    // Once with each engine on each side.
    assert_eq!(games[0].tag("White"), games[1].tag("Black"));
    assert_eq!(games[0].tag("Black"), games[1].tag("White"));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// The first line of `openings/brazilian-balanced.tsv`, the Brazilian deck (the Russian deck's
/// first line too: the two decks share their first 19 lines, and the engine's unit tests tell
/// them apart).
const BRAZILIAN_FIRST: &str = "21-17 10-15 24-20";

#[test]
fn a_brazilian_match_plays_its_own_deck() {
    let path = temp("brazilian");
    let (code, out, err) = run_match(
        "--nodes 200 --games 2 --variant brazilian",
        &["--pdn", path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Games: 2 of 2 in "), "{out}");
    let brazilian = buffgreen::board::Variant::Brazilian;
    let games = check_pdn(&path, brazilian.rules());
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some(brazilian.game_type()));
        // The Brazilian deck's first opening, not a random line.
        assert_eq!(g.tag("Opening"), Some(BRAZILIAN_FIRST));
        let plies = BRAZILIAN_FIRST.split(' ').count();
        assert_eq!(g.moves[..plies].join(" "), BRAZILIAN_FIRST);
    }
    assert_eq!(games[0].tag("White"), games[1].tag("Black"));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
