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
        "     a  b  c  d  e  f  g  h",
        " 8 |    b     b     b     b |",
        " 7 | b     b     b     b    |",
        " 6 |    b     b    11     b |",
        " 5 |13    14     b    16    |",
        " 4 |   17     w    19    20 |",
        " 3 | w    22     w     w    |",
        " 2 |    w     w     w     w |",
        " 1 | w     w     w     w    |",
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
    assert!(lines.contains(&"     h  g  f  e  d  c  b  a"), "{out}");
    assert!(lines.contains(&" 1 |    w     w     w     w |"), "{out}");
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
