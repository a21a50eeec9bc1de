//! The shell scripts in scripts/: perft.sh against the shipped table, signature.sh against a
//! throwaway git history. (Suites run by `buffgreen suite`, tests/tourney/suite_cli.rs.)

use buffgreen_testkit::{assert_contains, assert_starts};
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn script(name: &str, args: &[&str], engine: &str) -> Output {
    Command::new("bash")
        .arg(Path::new(ROOT).join("scripts").join(name))
        .args(args)
        .env("BUFFGREEN", engine)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("bg-scripts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn perft_script_checks_the_table() {
    let o = script("perft.sh", &[], BIN);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("ok ")).count(), 33);
    assert!(out.ends_with("33 passed, 0 failed\n"), "{out}");
    let dir = temp("perft");
    let table = dir.join("t.txt");
    std::fs::write(
        &table,
        "# a comment\nenglish ; startpos ; 3 ; 302\ndefault ; B:W18:B14 ; 1 ; 2\n",
    )
    .unwrap();
    let o = script("perft.sh", &[table.to_str().unwrap()], BIN);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_contains(
        &out,
        "\nFAIL  default     depth 1             2  got 1  B:W18:B14\n",
    );
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn signature_script_compares_with_the_last_search_commit() {
    let dir = temp("sig");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::create_dir_all(dir.join("engine/src/search")).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("scripts/signature.sh"),
        dir.join("scripts/signature.sh"),
    )
    .unwrap();
    let engine = dir.join("engine.sh");
    std::fs::write(
        &engine,
        "#!/bin/sh\necho 'Nodes searched: 4242'\necho 'Nodes/second: 1'\n",
    )
    .unwrap();
    let run = || {
        let o = Command::new("bash")
            .arg(dir.join("scripts/signature.sh"))
            .env("BUFFGREEN", &engine)
            .output()
            .unwrap();
        (o.status.code(), text(&o))
    };
    Command::new("chmod")
        .arg("+x")
        .arg(&engine)
        .status()
        .unwrap();
    // One commit that writes `content` to `file`.
    let commit = |file: &str, content: &str, message: &str| {
        std::fs::write(dir.join(file), content).unwrap();
        git(&["add", "-A"]);
        git(&["commit", "-qm", message]);
    };
    git(&["init", "-q"]);
    std::fs::create_dir_all(dir.join("engine/src/eval")).unwrap();
    commit(
        "engine/src/search/mod.rs",
        "1",
        "search: first\n\nBench: 4241",
    );
    commit("engine/src/eval/mod.rs", "1", "eval: first\n\nBench: 4242");
    commit("other.txt", "x", "unrelated, no signature");
    let (code, out) = run();
    assert_eq!(code, Some(0), "{out}");
    assert_starts(&out, "signature ok: Bench: 4242 (commit ");
    commit(
        "engine/src/search/mod.rs",
        "2",
        "search: second\n\nBench: 4243",
    );
    let (code, out) = run();
    assert_eq!(code, Some(1), "{out}");
    assert_starts(&out, "signature CHANGED: bench gives 4242, commit ");
    assert!(out.ends_with(" says Bench: 4243\n"), "{out}");
    commit("engine/src/search/mod.rs", "3", "search: third, unsigned");
    let (code, out) = run();
    assert_eq!(code, Some(2), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}
