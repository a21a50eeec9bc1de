//! The default tables (issue 39 item 3): `tb build` without `--dir` writes into the rules'
//! folder under the data directory (here a test root named by `BUFFGREEN_TABLES`), and the
//! engine given that root reads the tables of the rules it plays; `TablebasePath` `<empty>`
//! turns them off. The root is `TablebasePath`'s default: the engine announces it and uses
//! its tables without a `setoption`, and starts quietly when it holds none.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::build;
use buffgreen::tablebase::home::{rules_folder, TABLES_ENV};
use buffgreen_testkit::process::succeed;
use buffgreen_testkit::protocol::Engine;
use buffgreen_testkit::tables::options;

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

/// Runs the engine with `root` as the default tables, sends `commands` one at a time and
/// returns every line it printed; a `go` waits for its `bestmove`, the rest for `readyok`.
fn session(root: &Path, commands: &[&str]) -> Vec<String> {
    let mut e = Engine::spawn(Command::new(BIN).env(TABLES_ENV, root));
    let mut lines = Vec::new();
    for c in commands {
        if c.starts_with("go") {
            lines.extend(e.go(c));
        } else {
            lines.extend(e.ask(c));
        }
    }
    e.quit_ok();
    lines
}

/// A root of default tables holding the 3-piece English tables in their rules' folder, built
/// once for the tests that share it.
fn english_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-default-root");
        let opts = options(&root.join(rules_folder(&Rules::ENGLISH)), 3, Rules::ENGLISH);
        build(&opts, &mut |_| {}).unwrap_or_else(|e| panic!("build {root:?}: {e}"));
        root
    })
}

/// The English rules options and a 3-piece position, then a search of it.
const ENGLISH_KK: [&str; 4] = [
    "setoption name BackwardCapture value false",
    "setoption name LongKings value false",
    "position fen W:WK4:BK7,K16",
    "go nodes 200",
];

/// The `bestmove` line and the score of the last `info` line of a search.
fn result(lines: &[String]) -> (String, String) {
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .expect("a bestmove")
        .clone();
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    let score = info
        .split(" score ")
        .nth(1)
        .and_then(|s| s.split(" nodes ").next())
        .expect("a score")
        .to_string();
    (best, score)
}

/// Runs `uci` then `commands` with `root` as the default tables; checks that `uci` announces
/// `root` as `TablebasePath`'s default and returns the lines after `uciok`.
fn started(root: &Path, commands: &[&str]) -> Vec<String> {
    let mut all = vec!["uci"];
    all.extend(commands);
    let mut lines = session(root, &all);
    let announced = format!(
        "option name TablebasePath type string default {}",
        root.display()
    );
    assert!(lines.contains(&announced), "{lines:?}");
    let ok = lines.iter().position(|l| l == "uciok").expect("uciok");
    lines.split_off(ok + 1)
}

#[test]
fn the_default_root_is_announced_and_its_tables_used_without_setoption() {
    let root = english_root();
    let lines = started(root, &ENGLISH_KK);
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(tbhits(&lines), "{lines:?}");
    // The same search as with the root named by `setoption` (whose files are checked whole).
    let path = format!("setoption name TablebasePath value {}", root.display());
    let mut named = vec!["setoption name TablebasePath value <empty>"];
    named.extend(&ENGLISH_KK[..2]);
    named.push(&path);
    named.extend(&ENGLISH_KK[2..]);
    let named = session(root, &named);
    assert!(tbhits(&named), "{named:?}");
    assert_eq!(result(&lines), result(&named));
    // The table's result: White loses in 6 plies (`tb probe` says `loss 6`), which the search
    // alone reads as `mate -3`.
    assert_eq!(result(&lines).1, "cp -19994 wdl 0 0 1000", "{lines:?}");
    // `<empty>` turns them off.
    let mut off = vec!["setoption name TablebasePath value <empty>"];
    off.extend(ENGLISH_KK);
    let off = session(root, &off);
    assert!(!tbhits(&off), "{off:?}");
    assert_eq!(result(&off).1, "mate -3 wdl 0 0 1000", "{off:?}");
}

#[test]
fn a_default_root_without_tables_starts_quietly() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-default-missing");
    let missing = dir.join("no-such-root");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates");
    for root in [&missing, &dir] {
        let mut commands = vec!["setoption name TablebaseCache value 16"];
        commands.extend(ENGLISH_KK);
        let lines = started(root, &commands);
        assert_eq!(lines.last().map(|l| l.starts_with("bestmove")), Some(true));
        assert!(
            lines
                .iter()
                .all(|l| !l.starts_with("info string") && !l.contains(" tbhits ")),
            "{lines:?}"
        );
    }
    // Named by `setoption`, a missing folder is still an error.
    let named = format!("setoption name TablebasePath value {}", missing.display());
    assert_eq!(
        session(
            &missing,
            &["setoption name TablebasePath value <empty>", &named]
        ),
        [format!(
            "info string error: TablebasePath: tablebase directory {} does not exist",
            missing.display()
        )]
    );
}

#[test]
fn a_default_root_that_cannot_be_read_is_said_once_after_uciok() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-default-foreign");
    let _ = std::fs::remove_dir_all(&root);
    // The engine starts under the buff-and-green rules: their folder holds a file that is no
    // table.
    let folder = root.join(rules_folder(&Rules::BUFF_AND_GREEN));
    std::fs::create_dir_all(&folder).expect("creates");
    let file = folder.join("b0m1k-w0m2k.bgtb");
    std::fs::write(&file, [7u8; 100]).expect("writes");
    let lines = session(&root, &["uci", "uci"]);
    let ok = lines.iter().position(|l| l == "uciok").expect("uciok");
    let said = format!(
        "info string error: TablebasePath: {}: not a buffgreen tablebase file; playing without tables",
        file.display()
    );
    assert_eq!(lines[ok + 1], said, "{lines:?}");
    assert_eq!(lines.iter().filter(|l| **l == said).count(), 1, "{lines:?}");
}

/// The Hub dialect has the same default: its handshake offers the root, and a search of the
/// 3-piece position (English, Hub's default variant) reads the tables without a `set-param`.
#[test]
fn the_hub_dialect_finds_the_default_tables_too() {
    let root = english_root();
    // W:WK4:BK7,K16, whose square n is 33 - n in pydraughts' numbering.
    let mut squares = ['e'; 32];
    (squares[28], squares[25], squares[16]) = ('W', 'B', 'B');
    let squares: String = squares.iter().collect();
    let hub = |set: &str| {
        let mut e = Engine::spawn(Command::new(BIN).arg("hub").env(TABLES_ENV, root));
        e.send(&format!(
            "hub\n{set}init\npos pos=W{squares}\nlevel nodes=200\ngo"
        ));
        let lines = e.recv_until(|l| l.starts_with("done"));
        e.quit_ok();
        lines
    };
    let score = |lines: &[String]| {
        lines
            .iter()
            .rfind(|l| l.starts_with("info "))
            .and_then(|l| l.split(' ').find(|w| w.starts_with("score=")))
            .map(str::to_string)
    };
    let lines = hub("");
    let offered = format!(
        "param name=TablebasePath value={} type=string",
        root.display()
    );
    assert!(lines.contains(&offered), "{lines:?}");
    // The table's loss in 6 plies (cp -19994, shown at Hub's largest score in men), where the
    // search alone reads a loss in 3 moves.
    assert_eq!(score(&lines).as_deref(), Some("score=-89.99"), "{lines:?}");
    let off = hub("set-param name=TablebasePath value=\"\"\n");
    assert_eq!(score(&off).as_deref(), Some("score=-99.94"), "{off:?}");
}

fn tbhits(lines: &[String]) -> bool {
    lines.iter().any(|l| l.contains(" tbhits "))
}

#[test]
fn tables_built_without_a_directory_are_found_through_the_root() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-home");
    let _ = std::fs::remove_dir_all(&root);
    let out = succeed(
        Command::new(BIN)
            .env(TABLES_ENV, &root)
            .args("tb build --pieces 3 --english --threads 1".split(' ')),
        "tb build",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let folder = root.join("english-d80");
    assert!(
        err.starts_with(&format!("building into {}\n", folder.display())),
        "{err}"
    );
    assert!(folder.join("b0m1k-w0m2k.bgtb").is_file());
    // `tb probe` finds them too.
    let out = succeed(
        Command::new(BIN)
            .env(TABLES_ENV, &root)
            .args("tb probe --english --fen W:WK4:BK7,K16".split(' ')),
        "tb probe",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "loss 6\n");

    let kk = "position fen W:WK4:BK7,K16";
    let path = format!("setoption name TablebasePath value {}", root.display());
    let lines = session(
        &root,
        &[
            "setoption name BackwardCapture value false",
            "setoption name LongKings value false",
            &path,
            kk,
            "go nodes 200",
            "setoption name TablebasePath value <empty>",
            kk,
            "go nodes 200",
        ],
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    let first = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .expect("a first bestmove");
    assert!(tbhits(&lines[..first]), "{lines:?}");
    assert!(!tbhits(&lines[first..]), "{lines:?}");
}
