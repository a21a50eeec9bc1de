//! The referee against fake engines (tests/data/engines/fake.sh): a fixed legal game is
//! played to its end by the rules; illegal moves, crashes, hangs, silence, stray replies and
//! slow moves lose with the reason in the PDN Termination tag; SPRT stops a lopsided match.

use buffgreen_testkit::{assert_contains, assert_starts};
use buffgreen_tourney::{self as tourney, pdn, MatchArgs};
use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    m: MatchArgs,
}

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

fn engine(mode: &str, name: &str) -> String {
    format!("cmd='{FAKE} {mode}' name={name}")
}

/// Runs a match of `a` against `b` with `extra` arguments; returns the summary and the games.
fn run(a: &str, b: &str, extra: &[&str]) -> (tourney::Summary, Vec<pdn::PdnGame>) {
    let dir = std::env::temp_dir().join(format!(
        "bg-arena-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pdn");
    let mut argv = vec![
        "match".to_string(),
        "--engine".into(),
        a.into(),
        "--engine".into(),
        b.into(),
        "--pdn".into(),
        path.to_string_lossy().into_owned(),
        "--quiet".into(),
        // The fake engine knows one game from the standard start: no opening deck.
        "--random-plies".into(),
        "0".into(),
    ];
    argv.extend(extra.iter().map(|s| s.to_string()));
    let args = Cli::try_parse_from(argv).unwrap().m;
    let summary = tourney::play(&args).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let games = pdn::parse(&text).unwrap();
    assert_eq!(games.len(), summary.games);
    // Every game in the file replays move by move.
    tourney::verify_pdn(path.to_str().unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (summary, games)
}

fn tags(g: &pdn::PdnGame) -> (String, String, String, String) {
    (
        g.tag("Black").unwrap().to_string(),
        g.tag("White").unwrap().to_string(),
        g.tag("Result").unwrap().to_string(),
        g.tag("Termination").unwrap().to_string(),
    )
}

fn t(b: &str, w: &str, r: &str, term: &str) -> (String, String, String, String) {
    (b.into(), w.into(), r.into(), term.into())
}

/// The only game of a match of the fake engines `[black, white]` (mode, name) with the
/// arguments `args` (split at spaces) and `--games 1`.
fn one_game([black, white]: [(&str, &str); 2], args: &str) -> pdn::PdnGame {
    let (_, mut games) = run(
        &engine(black.0, black.1),
        &engine(white.0, white.1),
        &words(&format!("{args} --games 1")),
    );
    assert_eq!(games.len(), 1);
    games.remove(0)
}

/// [`one_game`], lost on time by the side `loser` (`Black` or `White`).
fn lost_on_time(engines: [(&str, &str); 2], args: &str, loser: &str) -> pdn::PdnGame {
    let g = one_game(engines, args);
    let (_, _, r, term) = tags(&g);
    assert_eq!(r, if loser == "Black" { "2-0" } else { "0-2" });
    assert_starts(
        &term,
        &format!("time forfeit: {loser} exceeded its time by "),
    );
    g
}

/// A match of the fake engine in `mode` (named `bad`) against a good one, at 1 node, two
/// games: `bad` loses both, with the Termination `why` (`COLOUR` standing for its colour).
fn loses_both_colours(mode: &str, why: &str) -> (tourney::Summary, Vec<pdn::PdnGame>) {
    let (s, games) = run(
        &engine(mode, "bad"),
        &engine("ok", "good"),
        &["--nodes", "1"],
    );
    assert_eq!(
        games.iter().map(tags).collect::<Vec<_>>(),
        vec![
            t("bad", "good", "2-0", &why.replace("COLOUR", "Black")),
            t("good", "bad", "0-2", &why.replace("COLOUR", "White")),
        ]
    );
    (s, games)
}

#[test]
fn fixed_game_ends_by_the_rules_with_both_colours() {
    let (s, games) = run(&engine("ok", "A"), &engine("ok", "B"), &["--nodes", "1"]);
    assert_eq!(s.games, 2);
    assert_eq!(
        games.iter().map(tags).collect::<Vec<_>>(),
        vec![
            t("A", "B", "2-0", "normal: Black has no legal move"),
            t("B", "A", "2-0", "normal: Black has no legal move"),
        ]
    );
    for g in &games {
        assert_eq!(g.moves.len(), 36);
        assert_eq!(g.moves[..3], ["9-13", "23-18", "12-16"]);
        assert_eq!(g.tag("GameType"), Some("32,B,8,8,N1,0"));
        assert_eq!(g.tag("TimeControl"), Some("nodes=1"));
        assert_eq!(g.tag("PlyCount"), Some("36"));
        assert_eq!(
            g.tag("FEN"),
            Some("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        );
    }
    let (_, tally) = s.pairings[0];
    assert_eq!(
        (tally.wins, tally.draws, tally.losses, tally.pairs),
        (1, 0, 1, [0, 0, 1, 0, 0])
    );
    assert!(s.table.contains("Terminations: normal 2\n"), "{}", s.table);
}

#[test]
fn each_engine_may_have_its_own_limit() {
    let (s, games) = run(
        &format!("{} nodes=7", engine("ok", "A")),
        &format!("{} tc=5+0.1", engine("ok", "B")),
        &[],
    );
    assert_eq!(s.games, 2);
    assert_eq!(
        games[0].tag("TimeControl"),
        Some("Black nodes=7, White 5+0.1")
    );
    assert_eq!(
        games[1].tag("TimeControl"),
        Some("Black 5+0.1, White nodes=7")
    );
    assert_contains(&s.table, "; limit A nodes=7, B 5+0.1; ");
    assert_eq!(games[0].moves.len(), 36);
}

/// One game (`--games 1`) of two fake engines (mode, name) with the arguments of the row: its
/// Black, White, Result and Termination tags, and its length in plies where the row gives one.
#[test]
fn one_game_ends_by_adjudication_an_illegal_move_or_silence() {
    let no_reply = "--nodes 1 --reply-timeout 300";
    let rows = [
        (
            ("ok", "A"),
            ("ok", "B"),
            "--nodes 1 --adjudicate-draw-after 10",
            Some(10),
        ),
        (("illegal 3", "bad"), ("ok", "good"), "--nodes 1", Some(6)),
        (("hang", "bad"), ("ok", "good"), no_reply, None),
        (("ok", "good"), ("noready", "bad"), no_reply, None),
    ];
    let want = [
        t("A", "B", "1-1", "adjudication: draw after 10 plies"),
        t("bad", "good", "2-0", "illegal move: Black sent '1-5'"),
        t("bad", "good", "2-0", "no reply: Black sent no bestmove"),
        t("good", "bad", "0-2", "no reply: White sent no readyok"),
    ];
    for ((black, white, args, plies), want) in rows.into_iter().zip(want) {
        let g = one_game([black, white], args);
        let row = format!("{black:?} against {white:?}, {args}");
        assert_eq!(tags(&g), want, "{row}");
        if let Some(plies) = plies {
            assert_eq!(g.moves.len(), plies, "{row}");
        }
    }
}

#[test]
fn illegal_move_loses() {
    let (_, games) = loses_both_colours("illegal", "illegal move: COLOUR sent '1-5'");
    assert_eq!(games[0].moves.len(), 0);
    assert_eq!(games[1].moves, ["9-13"]);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (s, _) = loses_both_colours("crash", "crash: COLOUR's engine exited");
    assert!(s.table.contains("Faults of bad: crash 2\n"), "{}", s.table);
}

#[test]
fn a_stray_bestmove_is_a_protocol_violation() {
    let g = one_game([("double", "bad"), ("ok", "good")], "--nodes 1");
    assert_eq!(
        tags(&g),
        t(
            "bad",
            "good",
            "2-0",
            "protocol violation: Black sent 'bestmove 9-13' unasked"
        )
    );
    assert_eq!(g.moves, ["9-13", "23-18"]);
}

#[test]
fn clocks_are_charged_and_a_slow_engine_flags() {
    // 1 s for the game, 0.4 s a move: the third move at the latest oversteps the clock.
    let g = lost_on_time([("ok", "fast"), ("slow=0.4", "slow")], "--tc 1", "White");
    let (b, w, _, _) = tags(&g);
    assert_eq!((b.as_str(), w.as_str()), ("fast", "slow"));
    let white_moves = g.moves.len() / 2;
    assert!((1..=2).contains(&white_moves), "{:?}", g.moves);
    assert_eq!(g.tag("TimeControl"), Some("1"));
}

#[test]
fn movetime_overrun_and_silence_under_a_clock_lose_on_time() {
    let g = lost_on_time(
        [("slow=0.3", "slow"), ("ok", "fast")],
        "--movetime 50",
        "Black",
    );
    assert_eq!(g.tag("TimeControl"), Some("movetime=0.05"));
    // Silence under a clock.
    lost_on_time([("ok", "fast"), ("hang", "bad")], "--tc 0.3+0.1", "White");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let (s, _) = run(
        &engine("ok", "good"),
        &engine("illegal", "bad"),
        &words("--nodes 1 --games 200 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"),
    );
    let (decision, llr) = s.decision.unwrap();
    assert_eq!(decision, tourney::sprt::Decision::H1);
    assert!(llr >= 2.944);
    // Every pair is won; the 12th won pair is the first to pass the upper bound.
    assert_eq!(s.games, 24, "{}", s.table);
    assert_eq!(s.scheduled, 200);
    assert!(s
        .table
        .contains("SPRT (pentanomial GSPRT elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR "));
    assert!(s.table.contains(" H1 accepted\n"), "{}", s.table);
}

#[test]
fn round_robin_of_three() {
    let (s, games) = run(
        &engine("ok", "A"),
        &engine("ok", "B"),
        &[
            "--engine",
            &engine("illegal", "C"),
            "--nodes",
            "1",
            "--games",
            "2",
        ],
    );
    assert_eq!(s.games, 6);
    assert_eq!(games.len(), 6);
    let c_losses: u32 = s
        .pairings
        .iter()
        .map(|((i, j), t)| match (i, j) {
            (_, 2) => t.wins,
            _ => 0,
        })
        .sum();
    assert_eq!(c_losses, 4);
    assert!(
        s.table
            .contains("A vs C: +2 =0 -0 (100.0%) Elo +inf ±inf\n"),
        "{}",
        s.table
    );
}

/// Arguments written as one string, split at spaces.
fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}
