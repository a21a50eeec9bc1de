//! pydraughts 0.6.7 itself as the Hub client: scripts/install-pydraughts-hub.sh installs it
//! (pinned, into target/pydraughts-hub-venv, from PyPI), then scripts/hub_pydraughts.py plays
//! games of `buffgreen hub` against itself through `HubEngine` on pydraughts' own board, which
//! checks every move: two English games and a `RoundRobin` of buffgreen against buffgreen
//! `PlainUct` that must complete and write its PDN; and, in a test of their own, two Russian
//! and two Brazilian games (`set-param name=variant value=russian|brazilian`, pydraughts'
//! positions and move numbering for those variants, White first). Every game's moves are then
//! replayed here with buffgreen's own rules for the variant as a second referee.
//!
//! Skipped, with a message, only when `python3` is missing. A failing install (no PyPI) fails.

use std::path::Path;
use std::process::Command;

use buffgreen::board::{generate_moves, MoveList, Position, Variant};
use buffgreen::hub::notation::{Encoding, Numbering};
use buffgreen_testkit::process::{python3_missing, script_ok};

use crate::pydraughts_python;

/// Runs scripts/hub_pydraughts.py with `args` (after `--engine`) and returns its output.
fn run_script(args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut run = Command::new(pydraughts_python());
    run.arg(root.join("scripts/hub_pydraughts.py"))
        .args(["--engine", env!("CARGO_BIN_EXE_buffgreen")])
        .args(args);
    script_ok(&mut run, "pydraughts run")
}

/// Replays every `MOVES <variant>-<label> <move> ...` line of the script's output from the
/// variant's start position with buffgreen's rules, reading the moves as pydraughts writes
/// them for that variant; returns how many games each variant had, in order of appearance.
fn replay(out: &str) -> Vec<(Variant, usize)> {
    let mut games: Vec<(Variant, usize)> = Vec::new();
    for line in out.lines().filter_map(|l| l.strip_prefix("MOVES ")) {
        let mut words = line.split_whitespace();
        let label = words.next().expect("label");
        let key = label.split('-').next().unwrap_or_default();
        let variant = Variant::from_key(key).unwrap_or_else(|| panic!("{label}: variant"));
        let rules = variant.rules();
        let numbering = Numbering::new(Encoding::Pydraughts, variant);
        let mut pos = Position::start(&rules);
        let mut plies = 0;
        for text in words {
            let mut legal = MoveList::new();
            generate_moves(&pos, &rules, &mut legal);
            let mv = numbering
                .parse_move(text, &legal)
                .unwrap_or_else(|e| panic!("{label}, ply {}: {e}", plies + 1));
            assert_eq!(numbering.write_move(mv), text, "{label}, ply {}", plies + 1);
            pos.play_unchecked(mv);
            plies += 1;
        }
        assert!(plies > 0, "{label} has moves");
        match games.last_mut() {
            Some((v, n)) if *v == variant => *n += 1,
            _ => games.push((variant, 1)),
        }
    }
    games
}

#[test]
fn pydraughts_hub_engine_and_round_robin_play_buffgreen() {
    if python3_missing("pydraughts cannot drive buffgreen hub") {
        return;
    }
    let pdn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hub-round-robin.pdn");
    let pdn_arg = pdn.to_str().expect("a UTF-8 target folder");
    let out = run_script(&[
        "--pdn",
        pdn_arg,
        "--nodes",
        "200",
        "--max-plies",
        "200",
        "--rr-time",
        "1",
        "--rr-inc",
        "0.02",
        "--rr-max-plies",
        "100",
    ]);
    let pdn_text = std::fs::read_to_string(&pdn).expect("the RoundRobin PDN");
    assert_eq!(pdn_text.matches("[Event ").count(), 2, "{pdn_text}");
    assert_eq!(
        replay(&out),
        [(Variant::English, 4)],
        "two self-play games and two RoundRobin games:\n{out}"
    );
}

#[test]
fn pydraughts_hub_engine_plays_russian_and_brazilian_games() {
    if python3_missing("pydraughts cannot drive buffgreen hub") {
        return;
    }
    let out = run_script(&[
        "--variants",
        "russian",
        "brazilian",
        "--nodes",
        "200",
        "--max-plies",
        "200",
    ]);
    for variant in ["russian", "brazilian"] {
        assert!(
            out.contains(&format!("{variant}-clock: ")),
            "the clock moves of {variant}:\n{out}"
        );
    }
    assert_eq!(
        replay(&out),
        [(Variant::Russian, 2), (Variant::Brazilian, 2)],
        "two self-play games of each:\n{out}"
    );
}
