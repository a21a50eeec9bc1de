//! `buffgreen play` through a pipe: exact lines.

use std::process::Command;

use buffgreen_testkit::process::piped;

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

fn play(args: &[&str], input: &str) -> (String, String) {
    let pdn =
        std::env::temp_dir().join(format!("bg-play-{}-{}.pdn", std::process::id(), args.len()));
    let _ = std::fs::remove_file(&pdn);
    let out = piped(
        Command::new(BIN)
            .arg("play")
            .args(args)
            .arg("--pdn")
            .arg(&pdn),
        input,
    );
    assert!(out.status.success());
    let saved = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    (String::from_utf8(out.stdout).unwrap(), saved)
}

#[test]
fn two_people_at_one_keyboard_in_both_notations_with_undo_and_flip() {
    let (out, pdn) = play(
        &["--engine-side", "none", "--english"],
        "11-15\nc3-d4\n15x22\n9-99\nundo\nflip\n15x22\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    // The board after 11-15 c3-d4 (22-18), from White's side with the empty squares' numbers.
    let after_two = [
        "     a  b  c  d  e  f  g  h     squares",
        " 8 |    b     b     b     b |        1     2     3     4",
        " 7 | b     b     b     b    |     5     6     7     8",
        " 6 |    b     b    11     b |        9    10    11    12",
        " 5 |13    14     b    16    |    13    14    15    16",
        " 4 |   17     w    19    20 |       17    18    19    20",
        " 3 | w    22     w     w    |    21    22    23    24",
        " 2 |    w     w     w     w |       25    26    27    28",
        " 1 | w     w     w     w    |    29    30    31    32",
        "Fen: B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
        "Move 2: black to move",
    ];
    let at = |want: &[&str]| lines.windows(want.len()).filter(|w| *w == want).count();
    assert_eq!(at(&after_two), 2, "{out}");
    // White must capture back: the refusal lists the two captures.
    assert!(
        lines.contains(&"error: illegal move '9-99'; legal moves: 25x18 26x17"),
        "{out}"
    );
    // Flipped: seen from Black's side, rank 1 on top.
    assert!(
        lines.contains(&"     h  g  f  e  d  c  b  a     squares"),
        "{out}"
    );
    assert!(
        lines.contains(&" 1 |    w     w     w     w |       32    31    30    29"),
        "{out}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("game saved to ")),
        "{out}"
    );
    assert!(pdn.contains("[GameType \"21\"]"), "{pdn}");
    assert!(pdn.contains("[Black \"human\"]"), "{pdn}");
    assert!(pdn.ends_with("1. 11-15 22-18 2. 15x22 *\n\n"), "{pdn}");
}

#[test]
fn the_engine_answers_and_the_game_is_saved() {
    let (out, pdn) = play(&["--nodes", "100"], "11-15\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    let reply = lines
        .iter()
        .find_map(|l| l.strip_prefix("White plays "))
        .unwrap_or_else(|| panic!("no reply in {out}"));
    assert!(pdn.contains(&format!("1. 11-15 {reply} *")), "{pdn}");
    assert!(pdn.contains("[White \"buffgreen\"]"), "{pdn}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == "Move 2: black to move")
            .count(),
        1,
        "{out}"
    );
}

#[test]
fn go_on_the_humans_turn_is_answered_by_the_engine() {
    let (out, pdn) = play(&["--nodes", "100", "--english"], "go\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    // The engine played Black's move for the human, then its own White reply.
    assert!(lines.iter().any(|l| l.starts_with("Black plays ")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("White plays ")), "{out}");
    assert!(lines.contains(&"Move 2: black to move"), "{out}");
    assert!(pdn.contains("\n1. "), "{pdn}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_game_is_saved_as_far_as_it_went() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let pdn = std::env::temp_dir().join(format!("bg-play-int-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&pdn);
    // A test run started in the background by a non-interactive shell inherits SIGINT
    // ignored (POSIX), and `play` would inherit that too and never see the Ctrl-C below:
    // the child gets the disposition a terminal gives it.
    // SAFETY: the default disposition installs no handler.
    unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGINT,
            nix::sys::signal::SigHandler::SigDfl,
        )
    }
    .unwrap();
    let mut child = Command::new(BIN)
        .args(["play", "--nodes", "100", "--pdn"])
        .arg(&pdn)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The input stays open: the game is cut short by a signal, as by Ctrl-C.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"11-15\n").unwrap();
    let mut reply = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(mv) = line.strip_prefix("White plays ") {
            reply = Some(mv.to_string());
        }
        if line == "Move 2: black to move" {
            break;
        }
    }
    let reply = reply.expect("the engine replied");
    // The game is on file while the player thinks (a bound on the wait, not a timing test).
    let want = format!("1. 11-15 {reply} *");
    for _ in 0..600 {
        if std::fs::read_to_string(&pdn).is_ok_and(|t| t.contains(&want)) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let _ = child.wait();
    drop(stdin);
    let saved = std::fs::read_to_string(&pdn).unwrap_or_default();
    let _ = std::fs::remove_file(&pdn);
    assert!(saved.contains(&want), "{saved}");
    assert_eq!(saved.matches("[Event ").count(), 1, "{saved}");
}

/// Issue 58 item 7: a PDN file that cannot be written lost the game (exit 1 before it
/// started). The game now goes to a fallback file, named on stderr, and the exit status is 2
/// (the file asked for was not written).
#[test]
fn a_pdn_file_that_cannot_be_written_sends_the_game_to_the_fallback() {
    let missing = std::env::temp_dir().join(format!("bg-no-such-dir-{}/g.pdn", std::process::id()));
    let out = piped(
        Command::new(BIN)
            .args(["play", "--engine-side", "none", "--pdn"])
            .arg(&missing)
            .stderr(std::process::Stdio::piped()),
        "11-15\nquit\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    let prefix = format!("warning: cannot write the game to {}: ", missing.display());
    let fallback = lines[0]
        .strip_prefix(&prefix)
        .and_then(|rest| rest.split_once("; it goes to "))
        .map(|(_, path)| std::path::PathBuf::from(path))
        .unwrap_or_else(|| panic!("{err}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.ends_with(&format!("game saved to {}\n", fallback.display())),
        "{stdout}"
    );
    let saved = std::fs::read_to_string(&fallback).unwrap();
    let _ = std::fs::remove_file(&fallback);
    assert!(saved.ends_with("1. 11-15 *\n\n"), "{saved}");
    assert!(!missing.exists());
}

/// Issue 58 item 7: a line that is not UTF-8 ended the game with an error. It is now a
/// command like any other: refused as no move, and the game goes on.
#[test]
fn input_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let pdn = std::env::temp_dir().join(format!("bg-play-latin1-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&pdn);
    let mut cmd = Command::new(BIN);
    cmd.args(["play", "--engine-side", "none", "--english", "--pdn"])
        .arg(&pdn)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"caf\xe9\n11-15\n\xff\xfe\nquit\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let refused: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(refused.len(), 2, "{stdout}");
    assert!(
        refused[0].starts_with("error: illegal move 'caf\u{fffd}'"),
        "{stdout}"
    );
    let saved = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    assert!(saved.ends_with("1. 11-15 *\n\n"), "{saved}");
}

#[test]
fn russian_draughts_with_white_first_in_algebraic_squares() {
    let (out, pdn) = play(
        &[
            "--variant",
            "russian",
            "--engine-side",
            "black",
            "--nodes",
            "100",
        ],
        "c3-d4\nmoves\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "buffgreen play: Russian draughts (normal); the engine 'buffgreen' plays black; commands: a move (11-15, 9x18x27, 9x27, f6-e5), undo, flip, go (the engine moves now), level nodes N|movetime MS|elo E, moves, help, quit"
    );
    // The start: White to move, the squares' key in a1-h8.
    assert_eq!(
        lines[2],
        " 8 |    b     b     b     b |       b8    d8    f8    h8"
    );
    assert_eq!(
        lines[10],
        "Fen: W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(lines[11], "Move 1: white to move");
    assert_eq!(lines[12], "Black plays f6-g5");
    assert_eq!(
        lines[24],
        "legal moves: d4-c5 d4-e5 a3-b4 e3-f4 g3-f4 g3-h4 b2-c3 d2-c3"
    );
    assert!(
        pdn.contains("[GameType \"25\"]\n[Variant \"Russian draughts\"]\n"),
        "{pdn}"
    );
    // Written as lidraughts writes it, squares a1-h8.
    assert!(pdn.contains("\n1. c3-d4 f6-g5 *"), "{pdn}");
}

/// An engine that announces no `Variant` option would play the family's rule sets by its two
/// switches alone, that is Buff and Green's moves under Russian's name: refused before the
/// game, with the reason, and no game saved.
#[test]
fn a_family_rule_set_is_refused_for_an_engine_without_the_variant_option() {
    let random = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/random.sh");
    let pdn = std::env::temp_dir().join(format!("bg-play-novariant-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&pdn);
    for (key, name) in [
        ("russian", "Russian draughts"),
        ("pool", "American Pool checkers"),
    ] {
        let out = piped(
            Command::new(BIN)
                .args(["play", "--variant", key, "--engine"])
                .arg(format!("cmd={random} name=random"))
                .arg("--pdn")
                .arg(&pdn)
                .stderr(std::process::Stdio::piped()),
            "quit\n",
        );
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: the engine has no Variant option: it cannot play {name}\n")
        );
        // A game that cannot start leaves no file.
        assert!(!pdn.exists(), "{} was written", pdn.display());
    }
    let _ = std::fs::remove_file(&pdn);
}
