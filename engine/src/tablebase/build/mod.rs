//! Retrograde analysis, one material slice at a time in dependency order.
//!
//! A slice is closed under the moves that keep the clock running (a quiet move that does not
//! crown keeps the material), and every capture or crowning leads to a slice built earlier.
//! So each slice is solved on its own, reading the finished slices for its zeroing moves:
//! 1. Every position is valued from its zeroing moves alone (the one-step rule,
//!    [`crate::tablebase::solve::one_step`], with the moves inside the slice still unknown): no move is `loss 0` (`win 0` under losing rules), a
//!    zeroing move into a loss is `win 1`, only zeroing moves and all into wins is `loss 1`.
//!    Each unresolved position also gets a count of its moves inside the slice (or a count
//!    that never runs out, when a zeroing move reaches a draw).
//! 2. Level by level, `k = 1, 2, ...`: every unresolved predecessor (by an un-move) of a
//!    `loss k-1` is a `win k`; every unresolved predecessor of a `win k-1` has its count
//!    lowered, and the one whose count reaches 0 (all its moves now lose, the slowest in
//!    `k - 1` plies) is a `loss k`. (Distance 0 is the side without a move: `loss 0`, whose
//!    predecessors win, or under losing rules `win 0`, whose predecessors count down.) Level
//!    `k` reads only levels below
//!    `k`, so the threads of a level write without conflict. It stops at `D`, or when a level
//!    past the first adds nothing. What is left unresolved is a draw.
//!
//! Each pass walks the positions in chunks on every thread; entries are atomic bytes. Between
//! two levels the work is saved now and then ([`resume`]), so a stopped build goes on from
//! there.
//!
//! Pool, Russian and Brazilian ([`counting`]): a position found at level `k` is written at
//! `max(k, floor)` (a loss also at least its slowest move out of the slice), a win by a move
//! out of the slice that does not restart the count (so costs more than 1) waits for the level
//! of its cost unless a move inside wins sooner, and the levels go on past those that add
//! nothing while floors or such wins lie ahead. The 7.2.7 slices are solved once per diagonal
//! count (`layers`). A family slice's work is saved as the others' is, with the arrays and
//! counters of its own ([`resume`]), except a 7.2.7 slice's: its layers read one another, and
//! a stopped build solves it again from its first layer.
//!
//! Layout: this file runs the analysis; [`resume`] saves and restores a build's work within
//! a large slice, `progress` reports a build's events, `store` holds the finished slices a
//! build reads, `layers` the 7.2.7 slices' layers, [`plan`] cuts a build into levels for many
//! machines and [`status`] tells how far a build is; `family_tests` checks family tables
//! against an independent solver.

#[cfg(test)]
mod family_tests;
mod layers;
pub mod plan;
pub(super) mod progress;
pub mod resume;
pub mod status;
pub(super) mod store;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::board::{lone_on_diagonal, Position, Rules};
use crate::tablebase::build::layers::Layers;
pub use crate::tablebase::build::plan::Share;
use crate::tablebase::build::plan::{positions, Schedule};
use crate::tablebase::build::store::Store;
use crate::tablebase::counting::{self, DIAGONAL_LAYERS};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::{seen_by, Masks};
use crate::tablebase::solve::{distance_limit, for_each_successor_at, Step, MAX_DISTANCE};
use crate::tablebase::unmove::for_each_predecessor_step;
use crate::tablebase::work::{boards_in, each_position, parallel, split};
use crate::tablebase::{format, Material, TbError, Value};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Where the slice files go (created if missing).
    pub dir: PathBuf,
    /// Every slice with up to this many pieces.
    pub pieces: u32,
    /// Rule switches and draw rule.
    pub rules: Rules,
    /// Worker threads.
    pub threads: usize,
    /// Write sparse compressed files (format version 3) instead of plain ones.
    pub compress: bool,
    /// Build only one share of one level (see [`crate::tablebase::build::plan`]); `None`: all.
    pub share: Option<Share>,
    /// Bytes of table memory ([`DEFAULT_MEMORY`] is a fair choice): the slice built, the
    /// slices it reads and those kept to be read again stay within it, unless the first two
    /// alone do not fit (they are held anyway).
    pub memory: u64,
    /// How often the work on a slice is saved ([`resume`]; [`DEFAULT_SAVE_EVERY`] is a fair
    /// choice): a stopped build loses at most this much of a slice's retrograde passes.
    pub save_every: Duration,
}

/// What the builder reports while it runs.
#[derive(Clone, Debug)]
pub enum Event {
    /// A slice starts: its number (1-based), how many there are, its material and size.
    Start {
        /// 1-based position in the build order.
        number: usize,
        /// Slices in the build.
        of: usize,
        /// The slice.
        material: Material,
        /// Positions in it (both sides to move).
        positions: u64,
        /// Positions of the slices before it in the build (kept or built): how far the
        /// build is, with `total`.
        before: u64,
        /// Positions of every slice of the build.
        total: u64,
    },
    /// A slice file is already there and passes its checks: kept.
    Kept {
        /// The slice.
        material: Material,
    },
    /// Work within the current slice: `done` of `total` positions of the named pass.
    Progress {
        /// `init` or `level k`.
        pass: String,
        /// Positions done.
        done: u64,
        /// Positions in the pass.
        total: u64,
    },
    /// The slice goes on from the work a stopped build saved: `level` levels done.
    Resumed {
        /// The slice.
        material: Material,
        /// Levels done (0: only the first pass).
        level: u32,
    },
    /// A stopped build's saved work cannot be used: the slice starts over.
    ResumeRefused {
        /// Why.
        why: String,
    },
    /// The work on the slice is saved after `level` levels.
    Saved {
        /// The slice.
        material: Material,
        /// Levels done (0: only the first pass).
        level: u32,
        /// Size of the resume file.
        bytes: u64,
        /// Time the save took.
        elapsed: Duration,
    },
    /// A slice is written.
    Done {
        /// The slice.
        material: Material,
        /// Wall time.
        elapsed: Duration,
        /// Of it, the time spent reading the slices it reads (restoring the sparse ones) and
        /// writing the file (compressing it): the rest is the retrograde passes.
        reading: Duration,
        /// See `reading`.
        writing: Duration,
        /// File size.
        bytes: u64,
        /// Table memory in use while it was built (the slice and what it reads).
        memory: u64,
        /// Counts of wins, losses, draws (side to move).
        counts: [u64; 3],
    },
}

/// Table memory a build or a check holds unless told otherwise: the slices read, those kept
/// to be read again, and the slice computed.
pub const DEFAULT_MEMORY: u64 = 8 << 30;

/// How often a build saves its work on a slice unless told otherwise: a save is a pause of
/// seconds, and a stopped build loses at most this much.
pub const DEFAULT_SAVE_EVERY: Duration = Duration::from_secs(600);

/// The totals of a build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Slices computed now.
    pub built: usize,
    /// Slices kept from an earlier run.
    pub kept: usize,
    /// Bytes of all slice files.
    pub bytes: u64,
    /// The most table memory in use at once.
    pub peak_memory: u64,
}

/// Builds every slice of up to `opts.pieces` pieces that is not already in `opts.dir`. The
/// 8x8 family (Pool, Russian, Brazilian) is refused unless with `DrawHalfMoves` 0
/// ([`TbError::FamilyClock`]) in plain files ([`TbError::FamilySparse`]), before anything is
/// written.
pub fn build(opts: &BuildOptions, on_event: &mut dyn FnMut(Event)) -> Result<BuildReport, TbError> {
    let variant = opts.rules.variant();
    let family = counting::counts_material(&opts.rules);
    if family && opts.rules.draw_half_moves != 0 {
        return Err(TbError::FamilyClock(
            variant.name(),
            opts.rules.draw_half_moves,
        ));
    }
    if family && opts.compress {
        return Err(TbError::FamilySparse(variant.name()));
    }
    if opts.rules.draw_half_moves > MAX_DISTANCE {
        return Err(TbError::DrawRuleTooLong(opts.rules.draw_half_moves));
    }
    std::fs::create_dir_all(&opts.dir).map_err(|e| TbError::io(&opts.dir, &e))?;
    format::sweep_temporaries(&opts.dir)?;
    // Tables of other rules are refused; a damaged file is only rebuilt.
    for (path, header) in format::scan_all(&opts.dir)? {
        if let Ok(header) = header {
            format::check_rules(&path, &header, &opts.rules)?;
        }
    }
    let slices = match opts.share {
        None => Material::slices(opts.pieces),
        Some(share) => plan::share(&opts.dir, opts.pieces, &opts.rules, share)?,
    };
    let top = slices.iter().map(|m| m.pieces()).max().unwrap_or(0);
    let mut store = Store::new(&opts.dir, &opts.rules, opts.threads, top);
    let schedule = Schedule::of_build(&slices);
    let mut report = BuildReport::default();
    let mut layers = Layers::default();
    let total = slices.iter().map(|&m| positions(m)).sum();
    let mut before = 0;
    for (n, &material) in slices.iter().enumerate() {
        let size = SliceIndex::new(material).size();
        let halves = material.halves().len() as u64;
        before += if n == 0 { 0 } else { positions(slices[n - 1]) };
        let path = format::path_of(&opts.dir, material);
        if format::read(&opts.dir, material, &opts.rules).is_ok() {
            report.kept += 1;
            report.bytes += std::fs::metadata(&path).map_or(0, |m| m.len());
            on_event(Event::Kept { material });
            continue;
        }
        on_event(Event::Start {
            number: n + 1,
            of: slices.len(),
            material,
            positions: halves * size,
            before,
            total,
        });
        let started = Instant::now();
        let (work, resumed) = resumed_work(opts, material, on_event)?;
        if resumed.is_none() {
            // A pass of its own in the log: the slices read are restored whole when sparse.
            let room = opts.memory.saturating_sub(2 * halves * size);
            store.require(&schedule, n, room, material, &mut |m| {
                on_event(Event::Progress {
                    pass: format!("reading {m}"),
                    done: 0,
                    total: 1,
                });
            })?;
        }
        let reading = started.elapsed();
        // Entries and pending counts of the slice, and the slices it reads.
        let memory = store.bytes() + 2 * halves * size;
        report.peak_memory = report.peak_memory.max(memory);
        let data = if counting::layered(material, &opts.rules) {
            drop(work);
            solve_layers(material, opts, &store, &mut layers, on_event)?
        } else {
            solve_slice(
                material, work, resumed, started, opts, &store, None, on_event,
            )?
        };
        let counts = count(&data, opts.rules.losing);
        let solved = started.elapsed();
        let bytes = if opts.compress {
            format::write_compressed(&opts.dir, material, &opts.rules, &data, opts.threads)?
        } else {
            format::write(&opts.dir, material, &opts.rules, &data)?
        };
        debug_assert_eq!(format::path_of(&opts.dir, material), path);
        resume::remove(&opts.dir, material)?;
        report.built += 1;
        report.bytes += bytes;
        on_event(Event::Done {
            material,
            elapsed: started.elapsed(),
            reading,
            writing: started.elapsed().saturating_sub(solved),
            bytes,
            memory,
            counts,
        });
    }
    Ok(report)
}

/// The work on `material` (entries and pending counts, zero) and, when a stopped build saved
/// it, restored from its save: with the levels done then. A save that cannot be used is
/// reported, removed, and the slice starts over.
fn resumed_work(
    opts: &BuildOptions,
    material: Material,
    on_event: &mut dyn FnMut(Event),
) -> Result<(Work, Option<u32>), TbError> {
    let family = counting::counts_material(&opts.rules);
    let work = Work::new(material, family);
    if counting::layered(material, &opts.rules) {
        // A 7.2.7 slice is never saved (see `solve_slice`).
        return Ok((work, None));
    }
    match resume::load(
        &opts.dir,
        material,
        &opts.rules,
        &work.arrays(),
        opts.threads,
    ) {
        Ok(Some(level)) => {
            on_event(Event::Resumed { material, level });
            Ok((work, Some(level)))
        }
        Ok(None) => Ok((work, None)),
        Err(e) => {
            on_event(Event::ResumeRefused { why: e.to_string() });
            resume::remove(&opts.dir, material)?;
            // The failed load left the arrays half restored; they go before the fresh ones
            // come, so that a slice's arrays are never held twice.
            drop(work);
            Ok((Work::new(material, family), None))
        }
    }
}

/// Solves every layer of the 7.2.7 slice `material` (see [`layers`]), reading the slices
/// below from `store` and the layers of the 7.2.7 slice it crowns into from `layers`
/// (solving those first when a slice kept from an earlier build left none); keeps its layers
/// in `layers` and returns the entries its file keeps.
fn solve_layers(
    material: Material,
    opts: &BuildOptions,
    store: &Store,
    layers: &mut Layers,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<u8>, TbError> {
    if let Some(up) = layers::crowned(material, &opts.rules) {
        if !layers.has(up) {
            let mut below = Store::new(&opts.dir, &opts.rules, opts.threads, up.pieces());
            let schedule = Schedule::of_build(&[up]);
            below.require(&schedule, 0, opts.memory, up, &mut |_| {})?;
            solve_layers(up, opts, &below, layers, on_event)?;
        }
    }
    for diagonal in (0..=DIAGONAL_LAYERS).rev() {
        let work = Work::new(material, true);
        let layer = Layer {
            diagonal,
            layers: &*layers,
        };
        let data = solve_slice(
            material,
            work,
            None,
            Instant::now(),
            opts,
            store,
            Some(layer),
            on_event,
        )?;
        layers.insert(material, diagonal, data);
    }
    layers
        .stored(material, &opts.rules)
        .ok_or_else(|| TbError::Missing(material.to_string()))
}

/// Wins, losses and draws among the entries (of a table of losing checkers: `losing`).
fn count(data: &[u8], losing: bool) -> [u64; 3] {
    let mut c = [0u64; 3];
    for &b in data {
        c[match Value::from_code(b, losing) {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        }] += 1;
    }
    c
}

/// A level walks every board in order, instead of unranking the entries it reads, when they
/// are more than one position in this many.
const WALK: u64 = 16;

/// Predecessors a level gathers before it updates them. Their entries and counts lie at
/// random in the slice: read in a loop of their own, the waits for memory overlap, where
/// updating each as it is found waits for one after another behind the un-move and index
/// work between them.
const BATCH: usize = 64;

/// A pending count no position reaches 0 from: more than any position has moves.
const NEVER_LOST: u8 = u8::MAX;

/// One half of the slice being solved.
struct Half {
    material: Material,
    index: SliceIndex,
    /// The entries.
    entries: Vec<AtomicU8>,
    /// Per position, how many of its moves inside the slice are not yet known to lead to a
    /// win of the opponent.
    pending: Vec<AtomicU8>,
    /// Family slices only (else empty): each position's floor ([`counting::floor`]).
    floor: Vec<AtomicU8>,
    /// Family slices only (else empty): what the first pass says of a position it leaves
    /// open (see [`SCHEDULED`]).
    extra: Vec<AtomicU8>,
}

/// The slice being solved: one or two halves.
struct Work {
    halves: Vec<Half>,
    /// Family slices only (else empty): the build's counters as a save holds them, written
    /// just before a save and read just after a load ([`Counters`]).
    counters: Vec<AtomicU8>,
}

// A save's counters hold one word of each kind per distance an entry holds.
const _: () = assert!(resume::COUNTERS_LEN == 2 * DISTANCES * 8 + 2 * 4);

/// A family slice's counters besides its arrays (see `solve_slice`): entries written by
/// distance, wins scheduled by level, the largest distance the first pass wrote or
/// scheduled, and the highest floor.
struct Counters {
    written: Vec<AtomicU64>,
    scheduled: Vec<AtomicU64>,
    horizon: AtomicU32,
    floors: AtomicU32,
}

impl Counters {
    fn new() -> Counters {
        let zeros = || (0..DISTANCES).map(|_| AtomicU64::new(0)).collect();
        Counters {
            written: zeros(),
            scheduled: zeros(),
            horizon: AtomicU32::new(0),
            floors: AtomicU32::new(0),
        }
    }

    /// Writes the counters into `out`, little-endian, in the order of
    /// [`resume::COUNTERS_LEN`].
    fn store(&self, out: &[AtomicU8]) {
        let words = self.written.iter().chain(&self.scheduled);
        let bytes = words
            .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
            .chain(self.horizon.load(Ordering::Relaxed).to_le_bytes())
            .chain(self.floors.load(Ordering::Relaxed).to_le_bytes());
        for (o, b) in out.iter().zip(bytes) {
            o.store(b, Ordering::Relaxed);
        }
    }

    /// Reads the counters back from `from`, as [`Counters::store`] wrote them.
    fn load(&self, from: &[AtomicU8]) {
        let bytes: Vec<u8> = from.iter().map(|b| b.load(Ordering::Relaxed)).collect();
        let mut words = bytes.chunks_exact(8).map(|c| {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            u64::from_le_bytes(a)
        });
        for w in self.written.iter().chain(&self.scheduled) {
            w.store(words.next().unwrap_or(0), Ordering::Relaxed);
        }
        let tail = &bytes[bytes.len().min(2 * DISTANCES * 8)..];
        let word = |at: usize| {
            let mut a = [0u8; 4];
            if let Some(b) = tail.get(at..at + 4) {
                a.copy_from_slice(b);
            }
            u32::from_le_bytes(a)
        };
        self.horizon.store(word(0), Ordering::Relaxed);
        self.floors.store(word(4), Ordering::Relaxed);
    }
}

impl Work {
    /// The work on `material`: every entry unknown, every count 0; with the family's two
    /// arrays more when `family`.
    fn new(material: Material, family: bool) -> Work {
        let zeros = |n: u64| (0..n).map(|_| AtomicU8::new(0)).collect();
        Work {
            halves: material
                .halves()
                .into_iter()
                .map(|m| {
                    let index = SliceIndex::new(m);
                    let n = index.size();
                    let more = if family { n } else { 0 };
                    Half {
                        material: m,
                        index,
                        entries: zeros(n),
                        pending: zeros(n),
                        floor: zeros(more),
                        extra: zeros(more),
                    }
                })
                .collect(),
            counters: zeros(if family {
                resume::COUNTERS_LEN as u64
            } else {
                0
            }),
        }
    }

    /// The arrays a save holds ([`resume::lengths_of`]): the entries of each half, then the
    /// pending counts; in a family slice then the floors, the first pass's notes and the
    /// counters.
    fn arrays(&self) -> Vec<&[AtomicU8]> {
        let entries = self.halves.iter().map(|h| &h.entries[..]);
        let mut arrays: Vec<&[AtomicU8]> = entries
            .chain(self.halves.iter().map(|h| &h.pending[..]))
            .collect();
        if !self.counters.is_empty() {
            arrays.extend(self.halves.iter().map(|h| &h.floor[..]));
            arrays.extend(self.halves.iter().map(|h| &h.extra[..]));
            arrays.push(&self.counters[..]);
        }
        arrays
    }

    /// The half of the slice a board (side to move as Black) belongs to.
    #[inline]
    fn half(&self, masks: &Masks) -> usize {
        usize::from(self.halves.len() > 1 && Material::of(masks) != self.halves[0].material)
    }

    /// The half and index of the `g`-th position of the slice, halves one after the other.
    #[inline]
    fn split(&self, g: u64) -> (usize, u64) {
        split(g, self.halves[0].index.size())
    }

    fn total(&self) -> u64 {
        self.halves.iter().map(|h| h.index.size()).sum()
    }

    fn position(&self, h: usize, i: u64) -> Option<Position> {
        self.halves[h].index.board(i).position()
    }
}

/// What a layer of a 7.2.7 slice reads besides the store (see [`layers`]): its diagonal
/// count, and the layers solved before it.
#[derive(Clone, Copy)]
struct Layer<'a> {
    diagonal: u8,
    layers: &'a Layers,
}

/// The first pass's word on a position of a family slice whose value waits for the moves
/// inside the slice, kept beside its pending count: [`SCHEDULED`] plus the cost of a winning
/// move out of the slice (the position wins by that level unless a move inside wins sooner),
/// else the least distance of a loss (its floor, or the slowest move out into a win of the
/// opponent, whichever is more).
const SCHEDULED: u8 = 0x80;

/// Distances an entry holds, 0 to [`MAX_DISTANCE`]: the size of a per-distance tally.
const DISTANCES: usize = MAX_DISTANCE as usize + 1;

/// Solves one slice from `work`, whose first `resumed` levels are done when it was restored
/// from a save (the first pass too, with level 0; `None`: nothing done), saving it every
/// `opts.save_every` from `since` (the slice's start: a first save keeps the reading of the
/// slices below too); returns its entries, halves one after the other. `layer`: the slice is
/// one of 7.2.7, solved at that diagonal count.
#[allow(clippy::too_many_arguments)]
fn solve_slice(
    material: Material,
    work: Work,
    resumed: Option<u32>,
    since: Instant,
    opts: &BuildOptions,
    store: &Store,
    layer: Option<Layer>,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<u8>, TbError> {
    let (rules, threads) = (&opts.rules, opts.threads);
    let family = counting::counts_material(rules);
    let limit = distance_limit(rules.draw_half_moves);
    // Family slices: entries written by distance (a level reads those of the distance
    // below, which a floor may have written levels before), scheduled wins by level, and
    // the largest distance written or scheduled in the first pass (levels go on to there).
    let counters = Counters::new();
    if family && resumed.is_some() {
        counters.load(&work.counters);
    }
    let Counters {
        written,
        scheduled,
        horizon,
        floors,
    } = &counters;
    let mut saved = since;
    let mut save = |level: u32, on_event: &mut dyn FnMut(Event)| -> Result<(), TbError> {
        // A layer of a 7.2.7 slice is not saved: a save would have to hold the layers solved
        // before it too, which the format does not.
        if layer.is_some() || saved.elapsed() < opts.save_every {
            return Ok(());
        }
        let start = Instant::now();
        if family {
            counters.store(&work.counters);
        }
        let arrays = work.arrays();
        let bytes = resume::save(&opts.dir, material, rules, level, &arrays, threads)?;
        on_event(Event::Saved {
            material,
            level,
            bytes,
            elapsed: start.elapsed(),
        });
        saved = Instant::now();
        Ok(())
    };
    let total = work.total();
    let missing = AtomicBool::new(false);
    // Moves out of the slice read the finished slices (or the layers of 7.2.7 solved); a
    // missing one is an error, never a guess.
    let outside = |q: &Position, diagonal: u8| {
        let code = match layer {
            Some(l) if counting::layered(Material::of(&Masks::of(q)).canonical(), rules) => {
                l.layers.code(q, diagonal)
            }
            _ => store.code(q),
        };
        code.unwrap_or_else(|| {
            missing.store(true, Ordering::Relaxed);
            0
        })
    };
    let tally = |code: u8| {
        if family && code != 0 {
            let d = match Value::from_code(code, rules.losing) {
                Value::Win(d) | Value::Loss(d) => d,
                Value::Draw => 0,
            };
            written[d as usize].fetch_add(1, Ordering::Relaxed);
        }
    };

    let indexes: Vec<SliceIndex> = work.halves.iter().map(|h| h.index.clone()).collect();
    if resumed.is_none() {
        each_position(
            &indexes,
            threads,
            |h, i, pos, list| {
                let diagonal = layer.map_or(0, |l| l.diagonal);
                let floor = counting::floor(pos, rules, diagonal);
                let mut step = Step::new(rules, limit, floor);
                let mut quiet = 0u8;
                for_each_successor_at(pos, rules, diagonal, list, |q, mv, zeroing| {
                    let inside = !mv.is_capture() && !mv.crowns();
                    let next_diagonal = match layer {
                        Some(_) => layers::next_diagonal(q, diagonal),
                        None => 0,
                    };
                    if inside && next_diagonal == diagonal {
                        quiet += 1;
                    } else {
                        step.add(outside(q, next_diagonal), zeroing);
                    }
                });
                let half = &work.halves[h];
                let i = i as usize;
                let (entry, pending, extra) = if quiet == 0 {
                    (step.value().code(), 0, 0)
                } else if let Some(win) = step.best_win() {
                    // No move inside wins in less than 1, nor does any beat the floor.
                    if win <= floor.max(1) {
                        (Value::Win(win.max(floor)).code(), 0, 0)
                    } else {
                        // It wins, so it is never lost, whatever its moves inside give.
                        scheduled[win as usize].fetch_add(1, Ordering::Relaxed);
                        horizon.fetch_max(win, Ordering::Relaxed);
                        (0, NEVER_LOST, SCHEDULED | win as u8)
                    }
                } else {
                    // A move out of the slice into a draw (or a win of the opponent too slow
                    // for the limit) means the position can never be lost: no count can
                    // reach 0 then.
                    let least = step.worst_loss().max(floor);
                    let pending = if step.escapes() { NEVER_LOST } else { quiet };
                    (0, pending, least.min(MAX_DISTANCE) as u8)
                };
                half.entries[i].store(entry, Ordering::Relaxed);
                half.pending[i].store(pending, Ordering::Relaxed);
                if family {
                    half.floor[i].store(floor as u8, Ordering::Relaxed);
                    half.extra[i].store(extra, Ordering::Relaxed);
                    horizon.fetch_max(floor, Ordering::Relaxed);
                    floors.fetch_max(floor, Ordering::Relaxed);
                    if extra & SCHEDULED == 0 {
                        horizon.fetch_max(u32::from(extra), Ordering::Relaxed);
                    }
                    tally(entry);
                }
            },
            &mut progress(on_event, "init".to_string(), total),
        );
        if missing.load(Ordering::Relaxed) {
            return Err(TbError::Missing(format!("reached from {material}")));
        }
        save(0, on_event)?;
    }
    let horizon = horizon.load(Ordering::Relaxed);
    // A slice without a material rule counts the plies to its conversion as under no draw
    // rule: one that does not fit an entry is an error, as there.
    let unruled = family && floors.load(Ordering::Relaxed) == 0;

    // The entries levels 1 and 2 read come from the first pass, not counted (a counter
    // shared by the threads would cost more than it saves): they walk, as does the first
    // level of a resumed slice.
    let mut sources = total;
    for k in resumed.map_or(1, |done| done + 1)..=limit {
        let added = AtomicU64::new(0);
        // Family slices: the wins scheduled for this level whose moves inside the slice did
        // not win sooner.
        if family && scheduled[k as usize].load(Ordering::Relaxed) > 0 {
            let mark = SCHEDULED | k as u8;
            let win_k = Value::Win(k).code();
            parallel(
                total,
                threads,
                |range| {
                    for g in range {
                        let (h, i) = work.split(g);
                        let half = &work.halves[h];
                        let i = i as usize;
                        if half.extra[i].load(Ordering::Relaxed) == mark
                            && half.entries[i]
                                .compare_exchange(0, win_k, Ordering::Relaxed, Ordering::Relaxed)
                                .is_ok()
                        {
                            added.fetch_add(1, Ordering::Relaxed);
                            tally(win_k);
                        }
                    }
                },
                &mut |_| {},
            );
        }
        if family {
            sources = written[k as usize - 1].load(Ordering::Relaxed);
        }
        // Where the entries read are many, stepping through every board in index order costs
        // less than unranking each of them.
        let walk = sources.saturating_mul(WALK) > total;
        // The entries of distance k - 1 this level reads: for k = 1 only the side without a
        // move, which loses (normal rules) or wins (losing rules).
        let stuck = k == 1;
        let lost = (!stuck || !rules.losing).then(|| Value::Loss(k - 1).code());
        let won = (!stuck || rules.losing).then(|| Value::Win(k - 1).code());
        let win_k = Value::Win(k).code();
        let loss_k = Value::Loss(k).code();
        // A family position is raised to its floor, a loss also to its slowest move out.
        let win_at = |half: &Half, pi: usize| {
            if family {
                Value::Win(k.max(u32::from(half.floor[pi].load(Ordering::Relaxed)))).code()
            } else {
                win_k
            }
        };
        let loss_at = |half: &Half, pi: usize| {
            if family {
                Value::Loss(k.max(u32::from(half.extra[pi].load(Ordering::Relaxed)))).code()
            } else {
                loss_k
            }
        };
        if sources > 0 || !family {
            parallel(
                total,
                threads,
                |range| {
                    let mut new = 0;
                    let mut pending: Vec<(usize, usize, bool)> = Vec::with_capacity(2 * BATCH);
                    let mut update = |pending: &mut Vec<(usize, usize, bool)>| {
                        // The lines first, in a loop of loads alone; a count only where the
                        // update may lower it.
                        let mut touched = 0u8;
                        for &(ph, pi, wins) in pending.iter() {
                            let half = &work.halves[ph];
                            touched |= half.entries[pi].load(Ordering::Relaxed);
                            if !wins {
                                touched |= half.pending[pi].load(Ordering::Relaxed);
                            }
                        }
                        std::hint::black_box(touched);
                        for &(ph, pi, wins) in pending.iter() {
                            let half = &work.halves[ph];
                            let e = &half.entries[pi];
                            if e.load(Ordering::Relaxed) != 0 {
                                continue;
                            }
                            let value = if wins {
                                win_at(half, pi)
                            } else if half.pending[pi].fetch_sub(1, Ordering::Relaxed) == 1 {
                                // This was its last move not known to lose; the others lose
                                // sooner, so it is lost in exactly k (or its floor).
                                loss_at(half, pi)
                            } else {
                                continue;
                            };
                            if e.compare_exchange(0, value, Ordering::Relaxed, Ordering::Relaxed)
                                .is_ok()
                            {
                                new += 1;
                                tally(value);
                            }
                        }
                        pending.clear();
                    };
                    let from = |pos: &Position, code: Option<u8>, pending: &mut Vec<_>| {
                        // In a layer of 7.2.7 below the last, a move that leaves the lone
                        // king on the long diagonal leads to the layer above: no predecessor
                        // in this one.
                        if layer.is_some_and(|l| l.diagonal < DIAGONAL_LAYERS)
                            && lone_on_diagonal(pos)
                        {
                            return;
                        }
                        let wins = code == lost;
                        // Every predecessor is the board seen by the side that moved into it
                        // (one half), one piece of that side's stepped back: a step of a king
                        // leaves the men's part of the index as it is.
                        let mover = !pos.side_to_move();
                        let seen = Masks::of(&pos.with_side_to_move(mover));
                        let h = work.half(&seen);
                        let index = &work.halves[h].index;
                        let men = index.men_index(&seen);
                        for_each_predecessor_step(pos, rules, |_, step| {
                            let mut board = seen;
                            let squares = seen_by(step.squares, mover);
                            let pi = if step.king {
                                board.bkings ^= squares;
                                men + index.kings_index(&board)
                            } else {
                                board.bmen ^= squares;
                                index.index(&board)
                            };
                            pending.push((h, pi as usize, wins));
                        });
                    };
                    let read = |h: usize, i: u64| {
                        let code = Some(work.halves[h].entries[i as usize].load(Ordering::Relaxed));
                        (code == lost || code == won).then_some(code)
                    };
                    if walk {
                        boards_in(&indexes, range, |h, i, b| {
                            if let Some(code) = read(h, i) {
                                if let Some(pos) = b.position() {
                                    from(&pos, code, &mut pending);
                                    if pending.len() >= BATCH {
                                        update(&mut pending);
                                    }
                                }
                            }
                        });
                    } else {
                        for g in range {
                            let (h, i) = work.split(g);
                            if let Some(code) = read(h, i) {
                                if let Some(pos) = work.position(h, i) {
                                    from(&pos, code, &mut pending);
                                    if pending.len() >= BATCH {
                                        update(&mut pending);
                                    }
                                }
                            }
                        }
                    }
                    update(&mut pending);
                    added.fetch_add(new, Ordering::Relaxed);
                },
                &mut progress(on_event, format!("level {k}"), total),
            );
        }
        let added = added.load(Ordering::Relaxed);
        sources = if k == 1 { total } else { added };
        // Level k+1 reads the entries of distance k: those of level k, and for k = 1 the
        // `win 1` and `loss 1` of the first pass (and in a family slice those a floor wrote
        // before: the levels go on past the first pass's horizon).
        if added == 0 && k >= 2 && k > horizon {
            break;
        }
        if k == MAX_DISTANCE && (rules.draw_half_moves == 0 && !family || unruled && added > 0) {
            return Err(TbError::TooDeep(material.to_string()));
        }
        if k < limit {
            save(k, on_event)?;
        }
    }
    Ok(work
        .halves
        .into_iter()
        .flat_map(|half| half.entries.into_iter().map(AtomicU8::into_inner))
        .collect())
}

/// Forwards the progress of one pass to `on_event`.
fn progress<'a>(
    on_event: &'a mut dyn FnMut(Event),
    pass: String,
    total: u64,
) -> impl FnMut(u64) + 'a {
    move |done| {
        on_event(Event::Progress {
            pass: pass.clone(),
            done,
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::tablebase::Tablebase;

    #[test]
    fn the_family_is_refused_with_a_clock_or_compressed_before_anything_is_written() {
        let dir = std::env::temp_dir().join(format!("bg-tb-family-{}", std::process::id()));
        let opts = |rules: Rules, compress: bool| BuildOptions {
            dir: dir.clone(),
            pieces: 2,
            rules,
            threads: 1,
            compress,
            share: None,
            memory: DEFAULT_MEMORY,
            save_every: DEFAULT_SAVE_EVERY,
        };
        let refused = |o: BuildOptions| build(&o, &mut |_| {}).expect_err("refused");
        // Pool's own clock (DrawHalfMoves 80 by default) as Russian's.
        let pool = Variant::Pool.rules();
        assert_eq!(
            refused(opts(pool, false)),
            TbError::FamilyClock("American Pool checkers", 80)
        );
        let russian = Variant::Russian.rules();
        assert_eq!(
            refused(opts(russian, false)),
            TbError::FamilyClock("Russian draughts", 80)
        );
        let exact = |variant: Variant| Rules {
            draw_half_moves: 0,
            ..variant.rules()
        };
        assert_eq!(
            refused(opts(exact(Variant::Brazilian), true)),
            TbError::FamilySparse("Brazilian draughts")
        );
        assert_eq!(
            refused(opts(exact(Variant::Pool), true)),
            TbError::FamilySparse("American Pool checkers")
        );
        assert!(!dir.exists(), "{}", dir.display());
        assert_eq!(
            TbError::FamilyClock(Variant::Pool.name(), 80).to_string(),
            "tables for American Pool checkers count its material rules alone: build them with \
             --draw-half-moves 0 (the rule set's own draw rules), not 80"
        );
        assert_eq!(
            TbError::FamilySparse(Variant::Pool.name()).to_string(),
            "tables for American Pool checkers are plain files only: sparse ones cannot work out \
             the entries of Russian 7.2.7 slices, and the 8x8 family's tables are written alike"
        );
    }

    #[test]
    fn family_tables_name_their_rules_and_are_refused_under_others() {
        let dir = std::env::temp_dir().join(format!("bg-tb-header-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let russian = Rules {
            draw_half_moves: 0,
            ..Variant::Russian.rules()
        };
        let opts = BuildOptions {
            dir: dir.clone(),
            pieces: 2,
            rules: russian,
            threads: 1,
            compress: false,
            share: None,
            memory: DEFAULT_MEMORY,
            save_every: DEFAULT_SAVE_EVERY,
        };
        build(&opts, &mut |_| {}).expect("built");
        let files = format::scan(&dir).expect("scanned");
        assert!(!files.is_empty());
        for (_, header) in &files {
            assert_eq!(header.rules, russian);
        }
        let buff_and_green = Rules {
            draw_half_moves: 0,
            ..Rules::BUFF_AND_GREEN
        };
        let brazilian = Rules {
            draw_half_moves: 0,
            ..Variant::Brazilian.rules()
        };
        let pool = Rules {
            draw_half_moves: 0,
            ..Variant::Pool.rules()
        };
        for other in [buff_and_green, brazilian, pool] {
            let err = Tablebase::open(&dir, &other).expect_err("other rules");
            assert!(matches!(err, TbError::OtherRules { .. }), "{err}");
            let err = build(
                &BuildOptions {
                    rules: other,
                    ..opts.clone()
                },
                &mut |_| {},
            )
            .expect_err("other rules");
            assert!(matches!(err, TbError::OtherRules { .. }), "{err}");
        }
        assert!(Tablebase::open(&dir, &russian).is_ok());
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
