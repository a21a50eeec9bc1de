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

#[test]
fn draw_adjudication() {
    let (s, games) = run(
        &engine("ok", "A"),
        &engine("ok", "B"),
        &words("--nodes 1 --games 1 --adjudicate-draw-after 10"),
    );
    assert_eq!(s.games, 1);
    assert_eq!(
        tags(&games[0]),
        t("A", "B", "1-1", "adjudication: draw after 10 plies")
    );
    assert_eq!(games[0].moves.len(), 10);
}

#[test]
fn illegal_move_loses() {
    let (_, games) = run(
        &engine("illegal", "bad"),
        &engine("ok", "good"),
        &["--nodes", "1"],
    );
    assert_eq!(
        games.iter().map(tags).collect::<Vec<_>>(),
        vec![
            t("bad", "good", "2-0", "illegal move: Black sent '1-5'"),
            t("good", "bad", "0-2", "illegal move: White sent '1-5'"),
        ]
    );
    assert_eq!(games[0].moves.len(), 0);
    assert_eq!(games[1].moves, ["9-13"]);
}

#[test]
fn illegal_move_later_in_the_game() {
    let (_, games) = run(
        &engine("illegal 3", "bad"),
        &engine("ok", "good"),
        &["--nodes", "1", "--games", "1"],
    );
    assert_eq!(
        tags(&games[0]),
        t("bad", "good", "2-0", "illegal move: Black sent '1-5'")
    );
    assert_eq!(games[0].moves.len(), 6);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (s, games) = run(
        &engine("crash", "bad"),
        &engine("ok", "good"),
        &["--nodes", "1"],
    );
    assert_eq!(
        games.iter().map(tags).collect::<Vec<_>>(),
        vec![
            t("bad", "good", "2-0", "crash: Black's engine exited"),
            t("good", "bad", "0-2", "crash: White's engine exited"),
        ]
    );
    assert!(s.table.contains("Faults of bad: crash 2\n"), "{}", s.table);
}

#[test]
fn silent_engines_lose_by_no_reply() {
    let (_, games) = run(
        &engine("hang", "bad"),
        &engine("ok", "good"),
        &["--nodes", "1", "--games", "1", "--reply-timeout", "300"],
    );
    assert_eq!(
        tags(&games[0]),
        t("bad", "good", "2-0", "no reply: Black sent no bestmove")
    );
    let (_, games) = run(
        &engine("ok", "good"),
        &engine("noready", "bad"),
        &["--nodes", "1", "--games", "1", "--reply-timeout", "300"],
    );
    assert_eq!(
        tags(&games[0]),
        t("good", "bad", "0-2", "no reply: White sent no readyok")
    );
}

#[test]
fn a_stray_bestmove_is_a_protocol_violation() {
    let (_, games) = run(
        &engine("double", "bad"),
        &engine("ok", "good"),
        &["--nodes", "1", "--games", "1"],
    );
    assert_eq!(
        tags(&games[0]),
        t(
            "bad",
            "good",
            "2-0",
            "protocol violation: Black sent 'bestmove 9-13' unasked"
        )
    );
    assert_eq!(games[0].moves, ["9-13", "23-18"]);
}

#[test]
fn clocks_are_charged_and_a_slow_engine_flags() {
    // 1 s for the game, 0.4 s a move: the third move at the latest oversteps the clock.
    let (_, games) = run(
        &engine("ok", "fast"),
        &engine("slow=0.4", "slow"),
        &["--tc", "1", "--games", "1"],
    );
    let (b, w, r, term) = tags(&games[0]);
    assert_eq!(
        (b.as_str(), w.as_str(), r.as_str()),
        ("fast", "slow", "0-2")
    );
    assert_starts(&term, "time forfeit: White exceeded its time by ");
    let white_moves = games[0].moves.len() / 2;
    assert!((1..=2).contains(&white_moves), "{:?}", games[0].moves);
    assert_eq!(games[0].tag("TimeControl"), Some("1"));
}

#[test]
fn movetime_overrun_and_silence_under_a_clock_lose_on_time() {
    let (_, games) = run(
        &engine("slow=0.3", "slow"),
        &engine("ok", "fast"),
        &["--movetime", "50", "--games", "1"],
    );
    let (_, _, r, term) = tags(&games[0]);
    assert_eq!(r, "2-0");
    assert_starts(&term, "time forfeit: Black exceeded its time by ");
    assert_eq!(games[0].tag("TimeControl"), Some("movetime=0.05"));
    let (_, games) = run(
        &engine("ok", "fast"),
        &engine("hang", "bad"),
        &["--tc", "0.3+0.1", "--games", "1"],
    );
    let (_, _, r, term) = tags(&games[0]);
    assert_eq!(r, "0-2");
    assert_starts(&term, "time forfeit: White exceeded its time by ");
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
