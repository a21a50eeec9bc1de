//! Sparse tables (format version 3): a compressed file keeps only the entries a probe cannot
//! work out from other entries by one step of the game.
//!
//! - Half 1 (the material with White to move) is not stored: each of its positions is worked
//!   out from its successors, which are in half 0 of the same slice (a quiet move) or in
//!   slices below (a capture or a crowning), by the one-step rule the builder uses.
//! - The entries of half 0's capture positions are not meaningful: a capture is compulsory,
//!   so every successor of such a position is in a slice below, and its value follows from
//!   theirs. The file holds a filler there, the entry before it in index order, so that runs
//!   of equal bytes grow and the blocks compress better.
//!
//! What is dropped is worked out exactly as the builder computed it, so a probe's answer and a
//! slice restored for a build are the same as from a plain file. The cost is a probe of half 1
//! or of a capture position: one probe per move instead of one (docs/tablebase.md).

use std::sync::Mutex;

use crate::board::{has_captures, MoveList, Position, Rules};
use crate::tablebase::counting;
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::Masks;
use crate::tablebase::solve::{distance_limit, for_each_successor, one_step, Step};
use crate::tablebase::work::in_parallel;
use crate::tablebase::{Material, TbError};

/// The entries a sparse file keeps of a slice whose entries (both halves, one after the
/// other) are `data`: half 0, with the entry of each capture position replaced by the kept
/// entry before it. The capture positions are found on `threads` threads.
pub fn keep(material: Material, rules: &Rules, data: &[u8], threads: usize) -> Vec<u8> {
    let index = SliceIndex::new(material);
    let n = (index.size() as usize).min(data.len());
    // One flag a position, 1 for a capture position.
    let mut captures = vec![0u8; n];
    in_parallel(&mut captures, threads, |start, part| {
        let range = start as u64..(start + part.len()) as u64;
        index.for_each_board(range, |i, b| {
            let pos = b.position();
            part[i as usize - start] = u8::from(pos.is_some_and(|p| has_captures(&p, rules)));
        });
    });
    let mut kept = data[..n].to_vec();
    let mut last = 0u8;
    for (entry, &capture) in kept.iter_mut().zip(&captures) {
        if capture == 1 {
            *entry = last;
        } else {
            last = *entry;
        }
    }
    kept
}

/// The value of `pos` worked out from its successors' values, each given by `probe` (the
/// one-step rule: see [`one_step`]); the first failed probe is the error.
pub fn derive(
    pos: &Position,
    rules: &Rules,
    mut probe: impl FnMut(&Position) -> Result<u8, TbError>,
) -> Result<u8, TbError> {
    // A probe derives one entry at a time, and a probe of a successor may derive again: the
    // lists come from a per-thread stack, one per depth, instead of one allocation each.
    thread_local! {
        static LISTS: std::cell::RefCell<Vec<MoveList>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut list = LISTS.with(|l| l.borrow_mut().pop()).unwrap_or_default();
    let mut failed = None;
    let value = one_step(
        pos,
        rules,
        distance_limit(rules.draw_half_moves),
        &mut list,
        |q, _| {
            probe(q).unwrap_or_else(|e| {
                failed.get_or_insert(e);
                0
            })
        },
    );
    LISTS.with(|l| l.borrow_mut().push(list));
    match failed {
        Some(e) => Err(e),
        None => Ok(value.code()),
    }
}

/// Where a restoration finds the entries of the slices below the one it restores.
pub trait Below: Sync {
    /// The entries of the slice of `pos` when they are in memory, with the place of `pos`
    /// in them: a restoration reads those itself, many at a time.
    fn locate(&self, pos: &Position) -> Option<(&[u8], usize)>;

    /// The entry of `pos`, for a position [`Below::locate`] does not place.
    fn probe(&self, pos: &Position) -> Result<u8, TbError>;
}

/// A probe alone: every entry below comes through it.
impl<F: Fn(&Position) -> Result<u8, TbError> + Sync> Below for F {
    fn locate(&self, _: &Position) -> Option<(&[u8], usize)> {
        None
    }

    fn probe(&self, pos: &Position) -> Result<u8, TbError> {
        self(pos)
    }
}

/// Positions a restoration gathers before it reads their successors' entries. Those reads
/// fall at random in slices larger than any cache: read in one loop of their own, their
/// waits for memory overlap, where deriving one position after another would wait for each
/// in turn behind the move generation between them.
const BATCH: usize = 64;

/// Positions whose successors' entries are still to be read.
struct Batch<'a> {
    rules: &'a Rules,
    limit: u32,
    /// The slice restored when its half 0 is known (its material, index and entries): the
    /// successors there are read with the others.
    inside: Option<(Material, &'a SliceIndex, &'a [u8])>,
    below: &'a dyn Below,
    /// Each position's offset in the part restored, and the one-step rule over the moves
    /// valued so far.
    positions: Vec<(usize, Step)>,
    /// The moves still to value: the position's number in `positions`, the entries and the
    /// successor's place in them, and whether the move zeroes the clock.
    reads: Vec<(u32, &'a [u8], usize, bool)>,
    /// The entries read, one a move of `reads`.
    codes: Vec<u8>,
}

impl<'a> Batch<'a> {
    fn new(
        rules: &'a Rules,
        inside: Option<(Material, &'a SliceIndex, &'a [u8])>,
        below: &'a dyn Below,
    ) -> Batch<'a> {
        Batch {
            rules,
            limit: distance_limit(rules.draw_half_moves),
            inside,
            below,
            positions: Vec::with_capacity(BATCH),
            reads: Vec::new(),
            codes: Vec::new(),
        }
    }

    /// Values the moves of `pos`, whose entry goes to `at` of the part restored, into the
    /// batch: the successors in half 0 or placed by `below` are read later, the others probed
    /// now (the first failed probe goes to `fail`).
    fn add(&mut self, pos: &Position, at: usize, list: &mut MoveList, fail: &impl Fn(TbError)) {
        let k = self.positions.len() as u32;
        let diagonal = counting::stored_diagonal(pos, self.rules);
        let mut step = Step::new(
            self.rules,
            self.limit,
            counting::floor(pos, self.rules, diagonal),
        );
        let (inside, below) = (self.inside, self.below);
        for_each_successor(pos, self.rules, list, |next, zeroing| {
            if let Some((material, index, half0)) = inside {
                let masks = Masks::of(next);
                if Material::of(&masks) == material {
                    debug_assert!(!zeroing);
                    self.reads
                        .push((k, half0, index.index(&masks) as usize, false));
                    return;
                }
            }
            match below.locate(next) {
                Some((data, i)) => self.reads.push((k, data, i, zeroing)),
                None => {
                    let code = below.probe(next).unwrap_or_else(|e| {
                        fail(e);
                        0
                    });
                    step.add(code, zeroing);
                }
            }
        });
        self.positions.push((at, step));
    }

    /// Reads the successors' entries, completes each position's value into `part`, and
    /// empties the batch. The rule does not depend on the order of the moves.
    fn finish(&mut self, part: &mut [u8]) {
        // The entries first, in a loop of loads alone: the rule branches on each entry, and
        // a branch that waits for a load would hold back the loads behind it.
        self.codes.clear();
        self.codes
            .extend(self.reads.iter().map(|&(_, data, at, _)| data[at]));
        for (&(k, _, _, zeroing), &code) in self.reads.iter().zip(&self.codes) {
            self.positions[k as usize].1.add(code, zeroing);
        }
        for &(at, step) in &self.positions {
            part[at] = step.value().code();
        }
        self.positions.clear();
        self.reads.clear();
    }
}

/// The entries a restoration works out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    /// Every entry.
    Whole,
    /// Those of the positions a crowning has just reached (the side not to move has a king on
    /// its crowning row), with the ones the file holds and the ones working those out needs.
    /// A computation on a slice of as many pieces reads no others: it reaches other slices of
    /// its size by crownings alone. The other entries are [`UNRESTORED`].
    Crowned,
}

/// The entry a partial restoration leaves where it works nothing out: `loss 127`, which no
/// table under a draw rule of fewer plies holds, so that a read of it by mistake shows in the
/// tables built.
pub const UNRESTORED: u8 = u8::MAX;

/// The opponent's crowning row in [`Masks`] (the side to move is Black): squares 1-4.
const THEIR_CROWNING_ROW: u32 = 0xF;

/// The crowning row of the side to move in [`Masks`], where the opponent's crowning row lies
/// once the board is turned for the other side to move: squares 29-32.
const OUR_CROWNING_ROW: u32 = 0xF << 28;

/// Every entry of a slice (both halves), or those `entries` names, from the entries `stored`
/// of its sparse file, the entries of the slices below given by `below`: first the capture
/// positions of half 0, whose successors are all below, then half 1, whose successors are in
/// half 0 or below. Runs on `threads` threads.
pub fn restore(
    material: Material,
    rules: &Rules,
    mut stored: Vec<u8>,
    below: &dyn Below,
    threads: usize,
    entries: Part,
) -> Result<Vec<u8>, TbError> {
    let halves: Vec<SliceIndex> = material.halves().into_iter().map(SliceIndex::new).collect();
    let n = halves[0].size() as usize;
    // Half 0's capture positions worked out: under `Part::Crowned` those just reached by a
    // crowning and, when half 1 has such positions (its opponent has kings), those a quiet
    // move leads to from them: the crowned king then stands on the mover's own crowning row.
    let crowned_in_half1 = halves.len() > 1 && material.bk > 0;
    let wanted0 = |m: &Masks| {
        entries == Part::Whole
            || m.wkings & THEIR_CROWNING_ROW != 0
            || (crowned_in_half1 && m.bkings & OUR_CROWNING_ROW != 0)
    };
    let wanted1 = |m: &Masks| entries == Part::Whole || m.wkings & THEIR_CROWNING_ROW != 0;
    stored.resize(n, 0);
    let failed = Mutex::new(None);
    let fail = |e: TbError| {
        if let Ok(mut f) = failed.lock() {
            f.get_or_insert(e);
        }
    };
    // Half 0's capture positions.
    in_parallel(&mut stored, threads, |start, part| {
        let range = start as u64..(start + part.len()) as u64;
        let mut list = MoveList::new();
        let mut batch = Batch::new(rules, None, below);
        halves[0].for_each_board(range, |i, b| {
            let Some(pos) = b.position() else {
                return;
            };
            if !has_captures(&pos, rules) {
                return;
            }
            if wanted0(b) {
                batch.add(&pos, i as usize - start, &mut list, &fail);
                if batch.positions.len() >= BATCH {
                    batch.finish(part);
                }
            } else {
                part[i as usize - start] = UNRESTORED;
            }
        });
        batch.finish(part);
    });
    if halves.len() > 1 && entries == Part::Crowned && !crowned_in_half1 {
        // No crowning reaches half 1: nothing of it to work out.
        stored.resize(2 * n, UNRESTORED);
    } else if halves.len() > 1 {
        let half0 = stored;
        let mut half1 = vec![0u8; n];
        in_parallel(&mut half1, threads, |start, part| {
            let range = start as u64..(start + part.len()) as u64;
            let mut list = MoveList::new();
            let inside = Some((material, &halves[0], &half0[..]));
            let mut batch = Batch::new(rules, inside, below);
            halves[1].for_each_board(range, |i, b| {
                if !wanted1(b) {
                    part[i as usize - start] = UNRESTORED;
                    return;
                }
                let Some(pos) = b.position() else {
                    return;
                };
                batch.add(&pos, i as usize - start, &mut list, &fail);
                if batch.positions.len() >= BATCH {
                    batch.finish(part);
                }
            });
            batch.finish(part);
        });
        stored = half0;
        stored.extend_from_slice(&half1);
    }
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(stored),
    }
}
