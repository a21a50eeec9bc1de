//! The default tables (issue 39 item 3): `tb build` without `--dir` writes into the rules'
//! folder under the data directory (here a test root named by `BUFFGREEN_TABLES`), and the
//! engine given that root reads the tables of the rules it plays; `TablebasePath` `<empty>`
//! turns them off.

use std::path::PathBuf;
use std::process::Command;

use buffgreen::tablebase::home::TABLES_ENV;
use buffgreen_testkit::process::succeed;
use buffgreen_testkit::protocol::Engine;

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

/// Runs the engine with `root` as the default tables, sends `commands` one at a time and
/// returns every line it printed; a `go` waits for its `bestmove`, the rest for `readyok`.
fn session(root: &std::path::Path, commands: &[&str]) -> Vec<String> {
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
            "go nodes 50",
            "setoption name TablebasePath value <empty>",
            kk,
            "go nodes 50",
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
