//! The PDN reader and its callers (`match --verify-pdn`, `--merge`, `--resume`), issue 40
//! items 1 and 5: malformed PDN is one error per game with its place, never a hang; the
//! result of a game is checked wherever a game is read; tags are written with PDN escapes and
//! read back as written. The binary runs the fake engine of tests/data/engines/fake.sh.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use buffgreen::board::{Position, Rules};
use buffgreen_tourney::pdn::{self, Replay};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

/// Far longer than any of these runs takes; only a hang reaches it.
const HANG: Duration = Duration::from_secs(60);

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pdn-reading-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `buffgreen` with `args`; fails the test (killing it) if it has not ended within
/// [`HANG`].
fn run(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "buffgreen {args:?} hung; stderr so far: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Exit code, stdout and stderr of `match --verify-pdn` on a file holding `text`.
fn verify(dir: &Path, text: &str) -> (i32, String, String) {
    let path = dir.join("s.pdn");
    std::fs::write(&path, text).unwrap();
    let out = run(&["match", "--verify-pdn", path.to_str().unwrap()]);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_stray_bracket_or_a_nested_comment_is_an_error_not_a_hang() {
    let dir = scratch("stray");
    let p = dir.join("s.pdn").display().to_string();
    let cases = [
        // The repro.
        (
            "[Event \"x\"]\n[Result \"*\"]\n1. 11-15 23-19 } *\n",
            "3:16: PDN game 1: stray '}' (a comment ends at its first '}': comments do not nest)",
        ),
        (
            "[Event \"x\"]\n1. 11-15 ] *\n",
            "2:10: PDN game 1: stray ']'",
        ),
        (
            "[Event \"x\"]\n1. 11-15 ) *\n",
            "2:10: PDN game 1: stray ')'",
        ),
        (
            "[Event \"x\"]\n{ a { b } c }\n1. 11-15 *\n",
            "2:13: PDN game 1: stray '}' (a comment ends at its first '}': comments do not nest)",
        ),
        // A JSON file given by mistake.
        (
            "{\"a\": {\"b\": [1, 2]}}\n",
            "1:20: PDN game 1: stray '}' (a comment ends at its first '}': comments do not nest)",
        ),
        (
            "[Event \"x\"]\n1. 11-15 (23-19 (22-18 *\n",
            "2:17: PDN game 1: variation '(' not closed",
        ),
        (
            "[Event \"x]\n1. 11-15 *\n",
            "1:8: PDN game 1: tag value not closed on its line",
        ),
        (
            "[Event \"x\"]\n1. 11-15 {never closed *\n",
            "2:10: PDN game 1: comment '{' not closed",
        ),
        (
            &format!("[Event \"x\"]\n1. 11-15 {}*\n", "(".repeat(100_000)),
            "2:74: PDN game 1: variations nested deeper than 64",
        ),
    ];
    for (text, want) in cases {
        let (code, out, err) = verify(&dir, text);
        assert_eq!((code, out.as_str()), (1, ""), "{text}");
        assert_eq!(err, format!("error: {p}:{want}\n"), "{text}");
    }
}

#[test]
fn every_malformed_game_is_reported_once_and_a_file_without_games_is_an_error() {
    let dir = scratch("each");
    let p = dir.join("s.pdn").display().to_string();
    let text = "[Event \"a\"]\n[GameType \"21\"]\n[Result \"2-0\"]\n1. 11-15 23-19 1-1\n\n\
                [Event \"b\"\n[Result \"*\"]\n1. 11-15 *\n\n\
                [Event \"c\"]\n[GameType \"21\"]\n1. 11-15 32-27 *\n\n\
                [Event \"d\"]\n[GameType \"21\"]\n1. 11-15 23-19 *\n\n\
                [Event \"e\"]\n1. 11-15 ] ] ] *\n";
    let (code, out, err) = verify(&dir, text);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "error: {p}:4:16: PDN game 1: Result tag 2-0 but the movetext ends 1-1\n\
             error: {p}:6:11: PDN game 2: expected ']' closing the tag, found '\\n[Result \"*\"'\n\
             error: {p}:12:10: PDN game 3: ply 2: 32-27: illegal move '32-27'; legal moves: \
             21-17 22-17 22-18 23-18 23-19 24-19 24-20\n\
             error: {p}:19:10: PDN game 5: stray ']'\n"
        )
    );
    for empty in ["", "\n\n", "{just a comment}\n", "; a line comment\n"] {
        let (code, out, err) = verify(&dir, empty);
        assert_eq!((code, out.as_str()), (1, ""), "{empty:?}");
        assert_eq!(err, format!("error: {p}: no PDN game in the file\n"));
    }
}

/// py-draughts writes English checkers as GameType 23 "American checkers" without a FEN, on
/// a board where White (21-32) moves first.
#[test]
fn a_py_draughts_game_is_read_with_white_first() {
    let dir = scratch("pydraughts");
    let text = "[Event \"py\"]\n[GameType \"23\"]\n[Variant \"American checkers\"]\n\
                [Result \"*\"]\n1. 22-18 11-15 2. 18x11 8x15 *\n";
    let (code, out, err) = verify(&dir, text);
    assert_eq!((code, err.as_str()), (0, ""));
    let p = dir.join("s.pdn").display().to_string();
    assert_eq!(out, format!("{p}: 1 games, 4 plies, all legal\n"));
    let g = &pdn::parse(text).unwrap()[0];
    assert_eq!(g.game_rules().unwrap(), Rules::ENGLISH);
    assert_eq!(
        g.start().unwrap(),
        Position::startpos().with_side_to_move(buffgreen::types::Color::White)
    );
}

/// A match of two fake engines (2 games, one pair) writing `pdn`; `extra` arguments added.
fn play(pdn: &Path, names: [&str; 2], extra: &[&str]) -> Output {
    let mut args: Vec<String> = ["match", "--nodes", "1", "--random-plies", "0", "--quiet"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for name in names {
        args.push("--engine".into());
        args.push(format!("cmd='{FAKE} ok' name={name}"));
    }
    args.extend(["--pdn".to_string(), pdn.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

/// Plays the two games of [`play`] with `extra` arguments, which must succeed, into `g.pdn`
/// in a fresh directory `name`; returns the file's path and text.
fn played(name: &str, names: [&str; 2], extra: &[&str]) -> (PathBuf, String) {
    let pdn = scratch(name).join("g.pdn");
    let out = play(&pdn, names, &[&["--games", "2"][..], extra].concat());
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&pdn).unwrap();
    (pdn, text)
}

/// The file `pdn` holds `text`; `why` says what a difference would mean.
#[track_caller]
fn assert_holds(pdn: &Path, text: &str, why: &str) {
    assert_eq!(std::fs::read_to_string(pdn).unwrap(), text, "{why}");
}

/// The line and column (both from 1) of byte `at` of `text`.
fn place(text: &str, at: usize) -> (usize, usize) {
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |nl| nl + 1) + 1;
    (line, column)
}

#[test]
fn merge_and_resume_check_the_result_tag_against_the_movetext() {
    let (pdn, good) = played("result", ["A", "B"], &[]);
    // Game 2's movetext now ends in a draw while its tag keeps the win.
    let last = good.rfind(" 2-0\n").unwrap();
    let bad = format!("{} 1-1\n{}", &good[..last], &good[last + 5..]);
    std::fs::write(&pdn, &bad).unwrap();
    // The marker stands after the space at `last`.
    let (line, column) = place(&bad, last + 1);
    let p = pdn.display();
    let want = format!(
        "error: {p}:{line}:{column}: PDN game 2: Result tag 2-0 but the movetext ends 1-1\n"
    );
    let merged = run(&["match", "--merge", pdn.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&merged.stderr), want);
    let resumed = play(&pdn, ["A", "B"], &["--games", "2", "--resume"]);
    assert_eq!(resumed.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&resumed.stderr), want);
    assert_holds(&pdn, &bad, "the PDN changed");
}

#[test]
fn a_time_control_that_is_no_duration_is_an_error_not_a_panic() {
    let (pdn, good) = played("tc", ["A", "B"], &[]);
    let at = good.find("[TimeControl").unwrap();
    let (line, _) = place(&good, at);
    let p = pdn.display();
    for value in [
        "movetime=inf",
        "movetime=1e300",
        "movetime=-1",
        "nodes=x",
        "40/1e300",
    ] {
        let text = good.replacen("\"nodes=1\"", &format!("\"{value}\""), 1);
        std::fs::write(&pdn, text).unwrap();
        let merged = run(&["match", "--merge", pdn.to_str().unwrap()]);
        assert_eq!(merged.status.code(), Some(2), "{value}");
        assert_eq!(
            String::from_utf8_lossy(&merged.stderr),
            format!(
                "error: {p}:{line}:1: PDN game 1: TimeControl '{value}' is not nodes=N, \
                 movetime=S (above 0, at most a day) or a time control\n"
            ),
            "{value}"
        );
    }
}

/// Issue 40 item 5: the writer cleaned `"` and `\` out of tags and the resume compared the
/// raw arguments, so a resume played the whole run again.
#[test]
fn resume_recognises_its_games_with_quotes_and_backslashes_in_the_tags() {
    let names = ["'A\"1\\'", "'B\\\"2'"];
    let event = ["--event", "the \"big\" one \\ 2026"];
    let (pdn, written) = played("escapes", names, &event);
    assert!(
        written.starts_with("[Event \"the \\\"big\\\" one \\\\ 2026\"]\n"),
        "{written}"
    );
    // A"1\ and B\"2, escaped.
    assert!(written.contains(" \"A\\\"1\\\\\"]\n"), "{written}");
    assert!(written.contains(" \"B\\\\\\\"2\"]\n"), "{written}");
    let games = pdn::parse(&written).unwrap();
    assert_eq!(games[0].tag("Event"), Some("the \"big\" one \\ 2026"));
    let again = play(
        &pdn,
        names,
        &[&["--games", "2", "--resume"][..], &event[..]].concat(),
    );
    assert_eq!(again.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&again.stdout).starts_with("Games: 2 of 2"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    assert_holds(&pdn, &written, "games played again");
}

/// Places were found by counting from the start of the file for every token: a 7 MB PDN of
/// 10,000 games ran for over 8 minutes in `--verify-pdn`. Places are now found in one pass.
#[test]
fn a_large_file_is_read_in_one_pass() {
    let (one, text) = played("large", ["A", "B"], &[]);
    let text = text.repeat(5000);
    let big = one.with_file_name("big.pdn");
    std::fs::write(&big, &text).unwrap();
    let out = run(&["match", "--verify-pdn", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}: 10000 games, 360000 plies, all legal\n", big.display())
    );
    // The last game's error is placed on its line.
    let bad = text.replacen(" 2-0\n", " ] 2-0\n", 1);
    std::fs::write(&big, &bad).unwrap();
    let out = run(&["match", "--verify-pdn", big.to_str().unwrap()]);
    let at = bad.find(" ] 2-0").unwrap() + 1;
    let (line, column) = place(&bad, at);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {}:{line}:{column}: PDN game 1: stray ']'\n",
            big.display()
        )
    );
}

/// Issue 58 item 6: a PDN with a byte that is not UTF-8 was refused whole. Old PDN files are
/// Latin-1, as PGN's standard has it: such a line is read as Latin-1, the rest as UTF-8, and
/// `--merge` names the players as written.
#[test]
fn a_latin1_pdn_is_read() {
    let (pdn, text) = played("latin1", ["A", "B"], &[]);
    // The first game's players in Latin-1 (one byte each for é and ü), a comment in Latin-1,
    // and the second game left in UTF-8 with its own é.
    let mut bytes = Vec::new();
    let mut game = 0;
    for line in text.split_inclusive('\n') {
        game += usize::from(line.starts_with("[Event "));
        match (game, line) {
            (1, "[White \"B\"]\n") => bytes.extend(b"[White \"Jos\xe9\"]\n"),
            (1, "[Black \"A\"]\n") => bytes.extend(b"[Black \"M\xfcller\"]\n{Partie \xe0 Paris}\n"),
            (2, "[White \"A\"]\n") => bytes.extend("[White \"M\u{fc}ller\"]\n".as_bytes()),
            (2, "[Black \"B\"]\n") => bytes.extend("[Black \"Jos\u{e9}\"]\n".as_bytes()),
            _ => bytes.extend(line.as_bytes()),
        }
    }
    assert!(std::str::from_utf8(&bytes).is_err());
    std::fs::write(&pdn, &bytes).unwrap();
    let out = run(&["match", "--verify-pdn", pdn.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}: 2 games, 72 plies, all legal\n", pdn.display())
    );
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["match", "--merge", pdn.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains(" M\u{fc}ller "), "{table}");
    assert!(table.contains(" Jos\u{e9} "), "{table}");
}
