//! Hostile table directories (issue 40 item 3): a forged header beside good tables is one
//! error for every reader (`TablebasePath`, `tb probe`, `tb verify`, `match --tb`, the Hub's
//! `set-param`), never a panic; a slice cut short under a running engine does not kill it;
//! a failed write leaves no temporary file and a build sweeps the stale ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::build;
use buffgreen::tablebase::{format, Material, Tablebase};
use buffgreen_testkit::tables::options;

use crate::protocol_support::Engine as Process;
use crate::scenarios::{copy_of, run};
use crate::tables;

fn text(dir: &Path) -> &str {
    dir.to_str().expect("utf-8 path")
}

/// Good 3-piece Buff and Green tables with a 64-byte header beside them naming nine men a
/// side and no entries (so that its length fits its header); returns the directory and the
/// forged file.
fn forged() -> (PathBuf, PathBuf) {
    let dir = copy_of(&tables(3, &Rules::BUFF_AND_GREEN), "tb-forged");
    let good = std::fs::read(dir.join("b0m1k-w0m1k.bgtb")).expect("readable");
    let mut header = good[..format::HEADER_LEN].to_vec();
    header[20..24].copy_from_slice(&[9, 0, 9, 0]);
    header[28..36].copy_from_slice(&0u64.to_le_bytes());
    let forged = dir.join("b9m0k-w9m0k.bgtb");
    std::fs::write(&forged, header).expect("writable");
    (dir, forged)
}

/// Checks that `match --tb`, `setoption name TablebasePath` and the Hub's `set-param` each
/// refuse the tables in `dir` with the one error `why`.
fn refused_by_the_engine_and_the_runner(dir: &str, why: &str) {
    let (code, _, err) = run(&[
        "match",
        "--engine",
        "cmd=true name=A",
        "--engine",
        "cmd=true name=B",
        "--nodes",
        "1",
        "--games",
        "2",
        "--quiet",
        "--tb",
        dir,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(why), "{err}");

    let mut e = Process::start();
    assert_eq!(
        e.ask(&format!("setoption name TablebasePath value {dir}")),
        [format!("info string error: TablebasePath: {why}")]
    );
    e.quit_ok();

    let mut hub = Process::start_with(&["hub"]);
    hub.send("hub");
    hub.recv_until(|l| l == "wait");
    hub.send(&format!("set-param name=TablebasePath value=\"{dir}\""));
    hub.send("ping");
    let mut lines = hub.recv_until(|l| l == "pong");
    lines.pop();
    assert_eq!(lines, [format!("error message=\"TablebasePath: {why}\"")]);
}

#[test]
fn a_forged_header_is_one_error_for_every_reader() {
    let (dir, file) = forged();
    let why = format!(
        "{}: bad header: material b9m0k-w9m0k has 18 pieces, tables hold 2 to 7",
        file.display()
    );
    let err = Tablebase::open(&dir, &Rules::BUFF_AND_GREEN).expect_err("refused");
    assert_eq!(err.to_string(), why);
    let (code, out, err) = run(&["tb", "probe", "--dir", text(&dir), "--fen", "B:WK4:BK10"]);
    assert_eq!(
        (code, out, err),
        (2, String::new(), format!("error: {why}\n"))
    );
    // `tb verify` names the forged file and checks every other slice.
    let (code, out, err) = run(&["tb", "verify", "--dir", text(&dir)]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.lines().next(), Some(format!("error: {why}").as_str()));
    assert_eq!(
        err.lines().last(),
        Some("error: 1 of 10 slices failed (0 inconsistent), 9 consistent")
    );
    refused_by_the_engine_and_the_runner(text(&dir), &why);
}

/// Issue 58 item 4: a FIFO named like a slice (opening one waits for a writer, for ever) is
/// one error for every reader, which goes on without it: the engine (named and default
/// tables), `tb probe`, `tb verify` (which checks every other slice), `tb status`,
/// `tb compress`, `match --tb` and the Hub; `tb build` builds the slice in its place.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_slice_is_one_error_for_every_reader() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-fifo-root");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("mkdir");
    let folder = root.join(buffgreen::tablebase::home::rules_folder(
        &Rules::BUFF_AND_GREEN,
    ));
    std::fs::rename(
        copy_of(&tables(3, &Rules::BUFF_AND_GREEN), "tb-fifo"),
        &folder,
    )
    .expect("rename");
    let fifo = folder.join("b0m1k-w0m2k.bgtb");
    std::fs::remove_file(&fifo).expect("remove");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let dir = text(&folder);
    let why = format!("{}: not a regular file", fifo.display());

    let err = Tablebase::open(&folder, &Rules::BUFF_AND_GREEN).expect_err("refused");
    assert_eq!(err.to_string(), why);
    let (code, out, err) = run(&["tb", "probe", "--dir", dir, "--fen", "B:WK4:BK10"]);
    assert_eq!(
        (code, out, err),
        (2, String::new(), format!("error: {why}\n"))
    );
    let (code, _, err) = run(&["tb", "verify", "--dir", dir, "--threads", "1"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().next(), Some(format!("error: {why}").as_str()));
    assert_eq!(
        err.lines().last(),
        Some("error: 3 of 9 slices failed (0 inconsistent), 6 consistent"),
        "{err}"
    );
    // Without --dir `tb verify` checks the default tables of the rules (issue 58 item 10).
    let default = Command::new(env!("CARGO_BIN_EXE_buffgreen"))
        .args(["tb", "verify", "--threads", "1"])
        .env(buffgreen::tablebase::home::TABLES_ENV, &root)
        .output()
        .expect("run");
    assert_eq!(default.status.code(), Some(2));
    // The same errors (the lines of consistent slices carry their times).
    let errors = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("error: "))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        errors(&String::from_utf8_lossy(&default.stderr)),
        errors(&err)
    );
    // Incomplete tables are `tb status`'s negative answer.
    let (code, out, _) = run(&["tb", "status", "--dir", dir, "--pieces", "3"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("b0m1k-w0m2k unusable: {why}")),
        "{out}"
    );
    let (code, out, err) = run(&["tb", "compress", "--dir", dir, "--threads", "1"]);
    assert_eq!(
        (code, out, err),
        (2, String::new(), format!("error: {why}\n"))
    );
    refused_by_the_engine_and_the_runner(dir, &why);
    // The default tables: the engine answers `uci`, then says why it plays without tables.
    let mut e = Process::spawn(
        Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .env(buffgreen::tablebase::home::TABLES_ENV, &root),
    );
    e.send("uci");
    e.recv_until(|l| l == "uciok");
    assert_eq!(
        e.recv(),
        format!("info string error: TablebasePath: {why}; playing without tables")
    );
    e.quit_ok();
    // A build makes the slice anew in its place.
    let (code, _, err) = run(&[
        "tb",
        "build",
        "--pieces",
        "3",
        "--dir",
        dir,
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&fifo).expect("built").is_file());
    Tablebase::open(&folder, &Rules::BUFF_AND_GREEN).expect("whole again");
}

#[test]
fn every_header_field_is_checked_against_the_formats_limits() {
    let dir = copy_of(&tables(2, &Rules::BUFF_AND_GREEN), "tb-fields");
    let path = dir.join("b0m1k-w0m1k.bgtb");
    let good = std::fs::read(&path).expect("readable");
    let cases: [(usize, &[u8], String); 9] = [
        (
            8,
            &[4, 0, 0, 0],
            "format version 4, this engine reads versions 1 (plain), 2 (compressed) and 3 (sparse)"
                .into(),
        ),
        (
            12,
            &[0x20, 0, 0, 0],
            "bad header: unknown rule switches 0x20".into(),
        ),
        (
            12,
            &[0x18, 0, 0, 0],
            "bad header: rule switches 0x18 are not those of American Pool checkers".into(),
        ),
        // Bits 3-4 name Russian, Brazilian or Pool, whose switches are both on.
        (
            12,
            &[0x08, 0, 0, 0],
            "bad header: rule switches 0x8 are not those of Russian draughts".into(),
        ),
        (
            16,
            &[200, 0, 0, 0],
            "bad header: DrawHalfMoves 200 is above 127, the longest distance an entry holds"
                .into(),
        ),
        (
            20,
            &[1, 1, 0, 0],
            "bad header: material b1m1k-w0m0k leaves a side without pieces".into(),
        ),
        (
            20,
            &[0, 2, 0, 1],
            "bad header: material b0m2k-w0m1k is not canonical (the file is named by b0m1k-w0m2k)"
                .into(),
        ),
        (
            24,
            &[2, 0, 0, 0],
            "bad header: material b0m1k-w0m1k with 2 halves of 992 entries, expected 1 of 992"
                .into(),
        ),
        (60, &[1], "bad header: padding is not zero".into()),
    ];
    for (at, bytes, why) in cases {
        let mut forged = good.clone();
        forged[at..at + bytes.len()].copy_from_slice(bytes);
        std::fs::write(&path, &forged).expect("writable");
        let err = Tablebase::open(&dir, &Rules::BUFF_AND_GREEN).expect_err("refused");
        assert_eq!(err.to_string(), format!("{}: {why}", path.display()));
    }
}

/// The engine with tables whose files are cut to nothing in place while it runs (what `cp`
/// of an empty file over them does): its searches go on without those tables.
#[test]
fn tables_cut_short_under_a_running_engine_do_not_kill_it() {
    let rules = Rules::BUFF_AND_GREEN;
    let dir = copy_of(&tables(3, &rules), "tb-cut");
    let mut e = Process::start();
    crate::name_tables(&mut e, &dir);
    e.send("position fen W:WK4:BK7,K16");
    let lines = e.go("go nodes 200");
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    for entry in std::fs::read_dir(&dir).expect("readable") {
        let p = entry.expect("entry").path();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .and_then(|f| f.set_len(0))
            .expect("cut");
    }
    let mut said = Vec::new();
    for fen in [
        "W:WK4:BK7,K16",
        "B:WK1,K2:BK32",
        "W:W20,K30:B13",
        "B:WK5:B24,28",
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = e.go("go nodes 2000");
        crate::protocol_support::assert_legal_bestmove(
            lines.last().expect("bestmove"),
            fen,
            &rules,
        );
        said.extend(
            lines
                .into_iter()
                .filter(|l| l.starts_with("info string error")),
        );
    }
    // The first failed read is said once, by the search that met it.
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(&format!(
            "info string error: TablebasePath: {}/",
            text(&dir)
        )) && said[0].ends_with(
            ": changed on disk while in use (replace tables by renaming, see README); \
                 its positions are searched without tables"
        ),
        "{said:?}"
    );
    assert_eq!(e.ask("isready"), Vec::<String>::new());
    let (_, status) = e.quit();
    assert!(status.success(), "{status:?}");
    // A probe of a file cut short says so.
    let (code, _, err) = run(&["tb", "probe", "--dir", text(&dir), "--fen", "B:WK4:BK10"]);
    assert_eq!(code, 2, "{err}");
}

/// The temporaries of `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_failed_write_leaves_no_temporary_and_a_build_sweeps_stale_ones() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-temporaries");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let opts = options(&dir, 2, Rules::ENGLISH);
    // The first slice's name is taken by a directory: its rename fails after the write.
    let first = Material::slices(2)[0];
    let blocker = format::path_of(&dir, first);
    std::fs::create_dir_all(blocker.join("inside")).expect("mkdir");
    let err = build(&opts, &mut |_| {}).expect_err("the rename fails");
    assert!(err.to_string().contains(".tmp: "), "{err}");
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&blocker).expect("rmdir");

    // A dead process's temporary is swept; a running one's is kept.
    let mut dead = Command::new("true").spawn().expect("spawn");
    dead.wait().expect("wait");
    let mut alive = Command::new("sleep").arg("60").spawn().expect("spawn");
    let stale = format::temporary_path(&dir, first, dead.id(), 0);
    let busy = format::temporary_path(&dir, first, alive.id(), 0);
    std::fs::write(&stale, b"half a table").expect("writable");
    std::fs::write(&busy, b"half a table").expect("writable");
    build(&opts, &mut |_| {}).expect("builds");
    let _ = alive.kill();
    let _ = alive.wait();
    assert_eq!(
        temporaries(&dir),
        [busy
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string()]
    );
}

/// Issue 58 item 4: `tb compress --threads` is range-checked as `tb build`'s is.
#[test]
fn tb_compress_threads_are_range_checked() {
    let dir = tables(3, &Rules::BUFF_AND_GREEN);
    for threads in ["0", "257"] {
        let (code, out, err) = run(&["tb", "compress", "--dir", text(&dir), "--threads", threads]);
        assert_eq!((code, out.as_str()), (2, ""), "{threads}");
        assert!(
            err.starts_with(&format!(
                "error: invalid value '{threads}' for '--threads <THREADS>': {threads} is not in 1..=256"
            )),
            "{err}"
        );
    }
}
