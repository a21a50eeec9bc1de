//! The build spread over processes (issue 42 item 3): `tb plan` lists every slice once with
//! its level, each level built by several `tb build --level L --shard K/N` processes at once
//! gives the one-process build byte for byte, and a level whose levels below are not built is
//! refused. Compressed tables (`--compress`, `tb compress`) answer as the plain ones and pass
//! `tb verify`.

use std::path::Path;
use std::process::Command;

use buffgreen::board::Rules;
use buffgreen::tablebase::build::plan::levels;
use buffgreen::tablebase::format::sparse;
use buffgreen::tablebase::format::sparse::Part;
use buffgreen::tablebase::index::SliceIndex;
use buffgreen::tablebase::{format, Material, Tablebase};
use buffgreen_testkit::process::succeed;

use crate::{files, fresh, tables};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");

#[test]
fn plan_lists_every_slice_once_in_dependency_order() {
    let out = succeed(
        Command::new(BIN).args(["tb", "plan", "--pieces", "4"]),
        "tb plan",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), Material::slices(4).len());
    assert_eq!(lines[0], "1 b0m1k-w0m1k");
    assert_eq!(lines.last(), Some(&"7 b2m0k-w2m0k"));
    let expected: Vec<String> = levels(4).iter().map(|(l, m)| format!("{l} {m}")).collect();
    assert_eq!(lines, expected);
}

#[test]
fn shards_of_each_level_build_the_one_process_tables_byte_for_byte() {
    let rules = Rules::ENGLISH;
    let whole = tables(4, &rules);
    let dir = fresh("tb-shards");
    let d = dir.to_str().expect("utf-8 path");
    // A level whose levels below are missing is refused.
    let out = Command::new(BIN)
        .args(["tb", "build", "--pieces", "4", "--english", "--dir", d])
        .args(["--level", "3", "--shard", "1/2"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: level 3 needs every slice of level 1 first: b0m1k-w0m1k: missing\n"
    );
    let top = levels(4).last().expect("a level").0;
    const WORKERS: u32 = 3;
    for level in 1..=top {
        // Spawned first, waited for after: the shares of a level run at once.
        let workers: Vec<_> = (1..=WORKERS)
            .map(|k| {
                Command::new(BIN)
                    .args("tb build --pieces 4 --english --threads 1".split(' '))
                    .args(["--dir", d, "--level", &level.to_string()])
                    .args(["--shard", &format!("{k}/{WORKERS}")])
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("starts")
            })
            .collect();
        for w in workers {
            let w = w.wait_with_output().expect("ends");
            assert!(w.status.success(), "{}", String::from_utf8_lossy(&w.stderr));
        }
    }
    let (a, b) = (files(&whole), files(&dir));
    assert_eq!(a.len(), Material::slices(4).len());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }
}

#[test]
fn compressed_tables_answer_as_plain_ones_and_verify() {
    let rules = Rules::BUFF_AND_GREEN;
    let plain = tables(4, &rules);
    // Built compressed directly, and converted from the plain files: the same bytes.
    let built = fresh("tb-compressed-built");
    let converted = crate::scenarios::copy_of(&plain, "tb-compressed-converted");
    succeed(
        Command::new(BIN)
            .args("tb build --pieces 4 --compress --threads 2".split(' '))
            .arg("--dir")
            .arg(&built),
        "tb build --compress",
    );
    succeed(
        Command::new(BIN)
            .args(["tb", "compress", "--dir"])
            .arg(&converted),
        "tb compress",
    );
    assert_eq!(files(&built), files(&converted));
    let line = crate::consistency::verify_line_of(&built);
    assert_eq!(
        line,
        "ok: 23 slices, 6408836 positions consistent (BackwardCapture=true LongKings=true DrawHalfMoves=80)"
    );
    let a = Tablebase::open(&plain, &rules).expect("plain opens");
    let b = Tablebase::open(&built, &rules).expect("compressed opens");
    b.verify().expect("every block checks");
    assert_eq!(b.files().1, Material::slices(4).len());
    for m in Material::slices(4) {
        // A sparse file restored is the plain file's entries, every byte.
        let stored = format::read(&built, m, &rules).expect("sparse reads");
        assert!(stored.sparse, "{m} is sparse");
        let below = |q: &buffgreen::board::Position| b.probe(q).map(|v| v.code());
        let whole = format::read(&plain, m, &rules).expect("plain reads").data;
        let restored = sparse::restore(m, &rules, stored.data.clone(), &below, 2, Part::Whole)
            .expect("restores");
        assert!(restored == whole, "{m} restored differs");
        // Restored in part: the entries of positions just reached by a crowning (the side not
        // to move has a king on its crowning row, squares 1-4 with the mover as Black) and the
        // stored ones; the others are marked.
        let part = sparse::restore(m, &rules, stored.data, &below, 2, Part::Crowned)
            .expect("restores in part");
        let mut unrestored = 0u64;
        for (k, half) in m.halves().into_iter().enumerate() {
            let ix = SliceIndex::new(half);
            for i in 0..ix.size() {
                let at = k * ix.size() as usize + i as usize;
                let board = ix.board(i);
                if part[at] == sparse::UNRESTORED && board.wkings & 0xF == 0 {
                    unrestored += 1;
                } else if board.position().is_some() {
                    assert_eq!(part[at], whole[at], "{m} in part: {half} {i}");
                }
            }
        }
        // Half 1 without kings of the opponent holds no position a crowning reaches.
        if m.halves().len() > 1 && m.bk == 0 {
            assert!(unrestored >= SliceIndex::new(m).size(), "{m}: {unrestored}");
        }
        for half in m.halves() {
            let ix = SliceIndex::new(half);
            for i in (0..ix.size()).step_by(97) {
                let Some(pos) = ix.board(i).position() else {
                    continue;
                };
                assert_eq!(
                    a.probe(&pos).expect("plain"),
                    b.probe(&pos).expect("compressed"),
                    "{half} {i}"
                );
            }
        }
    }
}

/// The slices a compressed build of 4 pieces in `dir` reads, in order, with `memory` bytes.
fn reads(dir: &Path, memory: u64) -> Vec<String> {
    let opts = buffgreen::tablebase::build::BuildOptions {
        threads: 2,
        compress: true,
        memory,
        ..buffgreen_testkit::tables::options(dir, 4, Rules::ENGLISH)
    };
    let mut read = Vec::new();
    buffgreen::tablebase::build::build(&opts, &mut |e| {
        if let buffgreen::tablebase::build::Event::Progress { pass, .. } = e {
            if let Some(m) = pass.strip_prefix("reading ") {
                read.push(m.to_string());
            }
        }
    })
    .expect("builds");
    read
}

#[test]
fn a_build_restores_each_slice_once_when_its_memory_allows() {
    let needs: Vec<Vec<Material>> = Material::slices(4)
        .into_iter()
        .map(buffgreen::tablebase::build::plan::zeroing_targets)
        .collect();
    // The slices a step reads, fewer pieces and then fewer men first (a slice's restoration
    // finds the slices below it in memory).
    let in_order = |mut read: Vec<Material>| {
        buffgreen::tablebase::build::plan::below_first(&mut read);
        read.into_iter().map(|m| m.to_string()).collect::<Vec<_>>()
    };
    // With room, every slice another one reads is read once, when it is first needed.
    let roomy = fresh("tb-memory-roomy");
    let mut first: Vec<String> = Vec::new();
    let mut seen: Vec<Material> = Vec::new();
    for now in &needs {
        let new: Vec<Material> = now.iter().copied().filter(|m| !seen.contains(m)).collect();
        seen.extend(&new);
        first.extend(in_order(new));
    }
    assert_eq!(reads(&roomy, 1 << 30), first);
    // Without, a slice is read again at every slice that needs it, unless the slice just
    // built needed it too.
    let tight = fresh("tb-memory-tight");
    let mut all: Vec<String> = Vec::new();
    for (n, now) in needs.iter().enumerate() {
        let held: &[Material] = if n == 0 { &[] } else { &needs[n - 1] };
        all.extend(in_order(
            now.iter().copied().filter(|m| !held.contains(m)).collect(),
        ));
    }
    assert_eq!(reads(&tight, 0), all);
    assert!(all.len() > first.len());
    assert_eq!(files(&roomy), files(&tight));
}
