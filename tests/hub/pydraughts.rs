//! pydraughts 0.6.7 itself as the Hub client: scripts/install-pydraughts-hub.sh installs it
//! (pinned, into target/pydraughts-hub-venv, from PyPI), then scripts/hub_pydraughts.py plays
//! two English games of `buffgreen hub` against itself through `HubEngine` on pydraughts' own
//! board, which checks every move, and a `RoundRobin` of buffgreen against buffgreen
//! `PlainUct` that must complete and write its PDN. Every game's moves are then replayed here
//! with buffgreen's English rules as a second referee.
//!
//! Skipped, with a message, only when `python3` is missing. A failing install (no PyPI) fails.

use std::path::Path;
use std::process::Command;

use buffgreen::board::{generate_moves, MoveList, Position, Rules};
use buffgreen::hub::notation::parse_move;
use buffgreen_testkit::process::{python3_missing, script_ok, venv_python};

#[test]
fn pydraughts_hub_engine_and_round_robin_play_buffgreen() {
    if python3_missing("pydraughts cannot drive buffgreen hub") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = venv_python(root, "scripts/install-pydraughts-hub.sh");
    let pdn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hub-round-robin.pdn");
    let mut run = Command::new(python);
    run.arg(root.join("scripts/hub_pydraughts.py"))
        .args(["--engine", env!("CARGO_BIN_EXE_buffgreen")])
        .arg("--pdn")
        .arg(&pdn)
        .args(["--nodes", "200", "--max-plies", "200"])
        .args([
            "--rr-time",
            "1",
            "--rr-inc",
            "0.02",
            "--rr-max-plies",
            "100",
        ]);
    let out = script_ok(&mut run, "pydraughts run");
    let pdn_text = std::fs::read_to_string(&pdn).expect("the RoundRobin PDN");
    assert_eq!(pdn_text.matches("[Event ").count(), 2, "{pdn_text}");

    let mut games = 0;
    for line in out.lines().filter_map(|l| l.strip_prefix("MOVES ")) {
        let mut words = line.split_whitespace();
        let label = words.next().expect("label");
        let mut pos = Position::startpos();
        let mut plies = 0;
        for text in words {
            let mut legal = MoveList::new();
            generate_moves(&pos, &Rules::ENGLISH, &mut legal);
            let mv = parse_move(text, &legal)
                .unwrap_or_else(|e| panic!("{label}, ply {}: {e}", plies + 1));
            pos.play_unchecked(mv);
            plies += 1;
        }
        assert!(plies > 0, "{label} has moves");
        games += 1;
    }
    assert_eq!(
        games, 4,
        "two self-play games and two RoundRobin games:\n{out}"
    );
}
