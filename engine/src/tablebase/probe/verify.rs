//! `tb verify`: every entry of every slice in a directory is recomputed from the entries of
//! its successors by the one-step rule and compared. Local agreement everywhere implies the
//! tables are right: a stored win or loss in `d` rests on entries with smaller distances, down
//! to positions without a move, and a true win stored as a draw would disagree with the
//! (correct, by induction on the distance) entry of its winning successor.
//!
//! Tables of Pool, Russian and Brazilian are checked by the same rule with their floors and
//! restarts ([`crate::tablebase::counting`]); in a 7.2.7 slice only the positions with the lone
//! king off the long diagonal are: their entries and their successors' are stored for the
//! same diagonal count, while a position on the diagonal needs its successors at a count the
//! files do not keep (the builder solved those layers).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::MoveList;
use crate::tablebase::build::plan::{zeroing_targets, Schedule};
use crate::tablebase::build::store::Store;
use crate::tablebase::build::DEFAULT_MEMORY;
use crate::tablebase::counting;
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::MAX_PIECES;
use crate::tablebase::solve::{distance_limit, one_step};
use crate::tablebase::work::{each_position, split};
use crate::tablebase::{format, Material, TbError, Value};

/// What `verify` checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Slices checked and found consistent.
    pub slices: usize,
    /// Entries checked and found consistent.
    pub positions: u64,
    /// Slices before the one the check started from (`from`), not checked this time.
    pub skipped: usize,
    /// The rules the tables are built for.
    pub rules: crate::board::Rules,
    /// What was wrong, one error per slice that failed (inconsistent, unreadable, or not
    /// checkable because a slice it reads is), in the order the slices were checked.
    pub problems: Vec<TbError>,
}

/// What `verify` says after each slice: the slice and the time its check took, or what was
/// wrong.
pub type SliceChecked<'a> = Result<(Material, Duration), &'a TbError>;

/// Checks every slice file of `dir`, all of them whatever fails: a check of a large set takes
/// hours, and one run should name every slice to build again. `on_slice` after each, with the
/// slice and the time it took, or what was wrong: first every file whose header cannot be
/// read (not a table, not a regular file, a forged header), then the slices in the order they
/// are checked. With `from`, the check starts at that slice of the order and leaves the
/// slices before it alone: a check that stopped resumes where the lines it printed end.
/// `Err` only when nothing can be checked (no readable table, tables of mixed rules, an
/// unreadable directory, a `from` slice the directory does not hold).
pub fn verify(
    dir: &Path,
    threads: usize,
    from: Option<Material>,
    on_slice: &mut dyn FnMut(SliceChecked),
) -> Result<VerifyReport, TbError> {
    let mut files = Vec::new();
    let mut unreadable = Vec::new();
    for (path, header) in format::scan_all(dir)? {
        match header {
            Ok(header) => files.push((path, header)),
            Err(e) => unreadable.push(e),
        }
    }
    let Some((_, first)) = files.first() else {
        return Err(unreadable
            .into_iter()
            .next()
            .unwrap_or_else(|| TbError::Empty(dir.to_path_buf())));
    };
    let rules = first.rules;
    for (path, header) in &files {
        format::check_rules(path, header, &rules)?;
    }
    let present: Vec<Material> = files.iter().map(|(_, h)| h.material).collect();
    let order: Vec<Material> = Material::slices(MAX_PIECES)
        .into_iter()
        .filter(|m| present.contains(m))
        .collect();
    // A slice is named by either side to move; its file by the canonical one.
    let skipped = match from {
        None => 0,
        Some(m) => order
            .iter()
            .position(|&o| o == m.canonical())
            .ok_or_else(|| TbError::NoSlice(m.to_string(), dir.to_path_buf()))?,
    };
    let top = order.iter().map(|m| m.pieces()).max().unwrap_or(0);
    let mut store = Store::new(dir, &rules, threads, top);
    let schedule = Schedule::new(
        order
            .iter()
            .map(|&m| {
                let mut needed = zeroing_targets(m);
                needed.push(m);
                needed
            })
            .collect(),
    );
    for e in &unreadable {
        on_slice(Err(e));
    }
    let mut report = VerifyReport {
        slices: 0,
        positions: 0,
        skipped,
        rules,
        problems: unreadable,
    };
    for (step, &material) in order.iter().enumerate().skip(skipped) {
        let started = Instant::now();
        let checked = store
            .require(&schedule, step, DEFAULT_MEMORY, material, &mut |_| {})
            .map_err(|e| TbError::Unchecked {
                slice: material.to_string(),
                cause: e.to_string(),
            })
            .and_then(|()| check_slice(&store, material, &rules, threads));
        match checked {
            Ok(n) => {
                report.positions += n;
                report.slices += 1;
                on_slice(Ok((material, started.elapsed())));
            }
            Err(e) => {
                on_slice(Err(&e));
                report.problems.push(e);
            }
        }
    }
    Ok(report)
}

/// Checks every entry of `material` (loaded in `store` with the slices it reads); the
/// number of entries checked (in a 7.2.7 slice those off the diagonal, see the module
/// comment), or the first inconsistent one.
fn check_slice(
    store: &Store,
    material: Material,
    rules: &crate::board::Rules,
    threads: usize,
) -> Result<u64, TbError> {
    let rules = *rules;
    let limit = distance_limit(rules.draw_half_moves);
    let ixs: Vec<SliceIndex> = material.halves().into_iter().map(SliceIndex::new).collect();
    let n = ixs[0].size();
    let total = n * ixs.len() as u64;
    let first_bad = AtomicU64::new(u64::MAX);
    let missing = AtomicBool::new(false);
    let layered = counting::layered(material, &rules);
    let skipped = AtomicU64::new(0);
    each_position(
        &ixs,
        threads,
        |h, i, pos, list| {
            if layered && counting::stored_diagonal(pos, &rules) > 0 {
                skipped.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let expected = one_step(pos, &rules, limit, list, |q, _| {
                store.code(q).unwrap_or_else(|| {
                    missing.store(true, Ordering::Relaxed);
                    0
                })
            });
            if store.code(pos) != Some(expected.code()) {
                first_bad.fetch_min(h as u64 * n + i, Ordering::Relaxed);
            }
        },
        &mut |_| {},
    );
    if missing.load(Ordering::Relaxed) {
        return Err(TbError::Missing(format!("reached from {material}")));
    }
    let g = first_bad.load(Ordering::Relaxed);
    if g != u64::MAX {
        let (h, i) = split(g, n);
        let pos = ixs[h].board(i).position();
        let mut list = MoveList::new();
        let (fen, stored, expected) = match pos {
            Some(p) => (
                crate::board::fen::write(&p),
                store.code(&p).map(|c| Value::from_code(c, rules.losing)),
                one_step(&p, &rules, limit, &mut list, |q, _| {
                    store.code(q).unwrap_or(0)
                }),
            ),
            None => (format!("index {i}"), None, Value::Draw),
        };
        return Err(TbError::Inconsistent {
            slice: material.to_string(),
            fen,
            stored: stored.map_or("nothing".to_string(), |v| v.to_string()),
            expected: expected.to_string(),
        });
    }
    Ok(total - skipped.load(Ordering::Relaxed))
}
