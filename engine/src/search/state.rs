//! The state of one search that every search thread shares: the root, the iteration
//! parameters, the statistics for `info`, and what the time manager and the final answer read
//! off the tree.
//!
//! Each thread brings its own [`Worker`] and keeps its statistics in its own
//! [`ThreadStats`], which thread 0 sums for `info`.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{DrawCount, DrawRules, Game, Position, Rules};
use crate::search::choice::Chooser;
use crate::search::padded::CachePadded;
use crate::search::params::Params;
use crate::search::report::Reader;
use crate::search::tables::Endgame;
use crate::search::tree::Tree;
use crate::search::uct::{SearchView, Worker};
use crate::search::{report, solver, time, Limits, Score, SearchConfig, SearchInfo, SearchOutcome};
use crate::types::Move;

/// The state of one search. Every thread reads it on every iteration; it is aligned to cache
/// lines so that nothing thread 0 writes (its stack) shares a line with it.
#[repr(align(128))]
pub(super) struct SearchState {
    params: Params,
    pub(super) rules: Rules,
    pub(super) pos: Position,
    clock: u32,
    /// The root's counters of the 8x8 family's draw rules.
    draws: DrawCount,
    /// The game's positions before the root within which a repetition can still come (empty
    /// outside the 8x8 family).
    history: Vec<Position>,
    multipv: usize,
    seed: u64,
    /// How the move is chosen (with the strength limit, if any).
    chooser: Chooser,
    /// Root children that may be played (by index in the block); empty: all.
    allowed: Vec<bool>,
    /// The endgame tables, when the search uses them.
    tables: Option<Arc<Endgame>>,
    /// Table probes made at the root, before the threads started.
    root_tbhits: u64,
    /// One per search thread.
    stats: Vec<ThreadStats>,
    pub(super) start: Instant,
    /// Iterations handed out (the `nodes` limit is checked against it, across threads), in
    /// chunks: a thread claims several at once and counts them off in its own stats.
    claimed: CachePadded<AtomicU64>,
}

/// The statistics of one search thread, on cache lines of their own.
///
/// Only the owning thread writes its statistics, with plain relaxed loads and stores (no locked
/// read-modify-write); thread 0 reads all of them for `info`. Counters shared by every thread
/// would be written by both cores on every iteration, and the cache line bouncing between
/// them cost more than the iteration itself (two threads searched slower than one).
#[derive(Default)]
#[repr(align(128))]
struct ThreadStats {
    /// Iterations done.
    iterations: AtomicU64,
    depth_sum: AtomicU64,
    seldepth: AtomicU32,
    /// Iterations of the `nodes` limit claimed by this thread and not done yet.
    granted: AtomicU64,
    /// Table probes.
    tbhits: AtomicU64,
}

impl ThreadStats {
    /// Adds `n` to a counter only this thread writes.
    #[inline]
    fn bump(counter: &AtomicU64, n: u64) {
        counter.store(counter.load(Relaxed) + n, Relaxed);
    }
}

/// Most iterations of a `nodes` limit a thread claims at once: small enough that a thread
/// which finished its share waits little for the others, large enough that claiming is rare.
const CLAIM_CHUNK: u64 = 256;

/// What [`SearchState::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StepResult {
    /// One iteration.
    Done,
    /// One iteration, and the arena was too full to expand a leaf.
    Full,
    /// None: the `nodes` limit is used up.
    Exhausted,
}

impl SearchState {
    /// The state of a search of `game` that began at `start`, probing `tables` if any.
    pub(super) fn new(
        config: &SearchConfig,
        game: &Game,
        start: Instant,
        tables: Option<Arc<Endgame>>,
    ) -> SearchState {
        SearchState {
            params: Params::of(config, game.rules()),
            rules: *game.rules(),
            pos: *game.position(),
            clock: game.clock(),
            draws: game.draws(),
            history: if game.rules().draws == DrawRules::HalfMoves {
                Vec::new()
            } else {
                game.recent(game.draws().reversible() as usize).collect()
            },
            multipv: config.multipv.max(1),
            seed: config.seed,
            chooser: Chooser::of(config),
            allowed: Vec::new(),
            tables,
            root_tbhits: 0,
            stats: vec![ThreadStats::default()],
            start,
            claimed: CachePadded(AtomicU64::new(0)),
        }
    }

    /// The workers of `threads` search threads. One generator per thread, seeded from `seed`:
    /// thread 0 exactly as a one-thread search (reproducible), thread `i` jumped `i` times
    /// (2^128 draws apart, so the streams never overlap). With several threads every worker
    /// counts visits on the way down (virtual loss). Worker `i` must step with slot `i`.
    pub(super) fn workers(&mut self, threads: usize) -> Vec<CachePadded<Worker>> {
        self.stats = (0..threads.max(1))
            .map(|_| ThreadStats::default())
            .collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        (0..threads.max(1))
            .map(|_| {
                let this = rng.clone();
                rng.jump();
                if threads > 1 {
                    CachePadded(Worker::shared(this))
                } else {
                    CachePadded(Worker::new(this))
                }
            })
            .collect()
    }

    /// The tables the search probes.
    pub(super) fn tables(&self) -> Option<&Endgame> {
        self.tables.as_deref()
    }

    /// Counts probes made at the root.
    pub(super) fn add_root_tbhits(&mut self, n: u64) {
        self.root_tbhits += n;
    }

    /// Table probes so far (all threads), when the search uses tables.
    fn tbhits(&self) -> Option<u64> {
        self.tables.as_ref()?;
        let threads: u64 = self.stats.iter().map(|t| t.tbhits.load(Relaxed)).sum();
        Some(self.root_tbhits + threads)
    }

    /// Iterations done so far (all threads).
    pub(super) fn iterations(&self) -> u64 {
        self.stats.iter().map(|t| t.iterations.load(Relaxed)).sum()
    }

    /// Restricts the root to `searchmoves` (none: every move); returns how many root
    /// children may be played.
    pub(super) fn mask_root(&mut self, tree: &Tree, searchmoves: &[Move]) -> usize {
        let children = tree.root().children();
        self.allowed = report::allowed(tree, 0, searchmoves);
        if self.allowed.is_empty() {
            children.len()
        } else {
            self.allowed.iter().filter(|&&a| a).count()
        }
    }

    /// One iteration by `worker`, the search thread with statistics `slot`, unless the `nodes`
    /// limit (counted over all threads) is used up.
    #[inline]
    pub(super) fn step(
        &self,
        tree: &Tree,
        worker: &mut Worker,
        slot: usize,
        nodes: Option<u64>,
    ) -> StepResult {
        let Some(mine) = self.stats.get(slot) else {
            return StepResult::Exhausted;
        };
        if let Some(limit) = nodes {
            let granted = mine.granted.load(Relaxed);
            if granted > 0 {
                mine.granted.store(granted - 1, Relaxed);
            } else {
                let chunk = (limit / (64 * self.stats.len() as u64)).clamp(1, CLAIM_CHUNK);
                let before = self.claimed.fetch_add(chunk, Relaxed);
                if before >= limit {
                    return StepResult::Exhausted;
                }
                mine.granted.store(chunk.min(limit - before) - 1, Relaxed);
            }
        }
        let iteration = worker.iterate(&SearchView {
            tree,
            params: &self.params,
            rules: &self.rules,
            pos: &self.pos,
            clock: self.clock,
            draws: self.draws,
            history: &self.history,
            allowed: &self.allowed,
            tables: self.tables.as_deref(),
        });
        ThreadStats::bump(&mine.iterations, 1);
        if self.tables.is_some() {
            ThreadStats::bump(&mine.tbhits, worker.take_tbhits());
        }
        ThreadStats::bump(&mine.depth_sum, iteration.depth as u64);
        if iteration.depth > mine.seldepth.load(Relaxed) {
            mine.seldepth.store(iteration.depth, Relaxed);
        }
        if iteration.full {
            StepResult::Full
        } else {
            StepResult::Done
        }
    }

    /// True when the solver decided the root (among the allowed moves).
    pub(super) fn solved(&self, tree: &Tree) -> bool {
        if !self.params.solver {
            return false;
        }
        if self.allowed.is_empty() {
            return tree.root().proof().is_some();
        }
        solver::Proof::of_parent(
            tree.root()
                .children()
                .zip(&self.allowed)
                .filter(|(_, &a)| a)
                .map(|(c, _)| tree.node(c).proof()),
        )
        .is_some()
    }

    /// The average depth of the iterations so far (`info depth`; 1 before any).
    pub(super) fn depth(&self) -> u32 {
        let depth_sum: u64 = self.stats.iter().map(|t| t.depth_sum.load(Relaxed)).sum();
        match self.iterations() {
            0 => 1,
            n => ((depth_sum + n / 2) / n).max(1) as u32,
        }
    }

    /// True once a `depth` or `mate` limit of `limits` is reached: the average depth is at
    /// least `depth`, or the best allowed move is a proven win in at most `mate` moves.
    pub(super) fn reached(&self, tree: &Tree, limits: &Limits) -> bool {
        if limits.depth.is_some_and(|d| self.depth() >= d) {
            return true;
        }
        let Some(n) = limits.mate else {
            return false;
        };
        let reader = Reader::new(tree, self.params.solver);
        reader.best_child(0, &self.allowed).is_some_and(
            |c| matches!(reader.score(tree.node(c)), Score::Mate(m) if m > 0 && m as u32 <= n),
        )
    }

    /// What the time manager needs to know about the root.
    pub(super) fn root_view(&self, tree: &Tree) -> time::RootView {
        let ranked = Reader::new(tree, self.params.solver).ranked_root(&self.allowed);
        let visits = |k: usize| ranked.get(k).map_or(0, |&c| tree.node(c).visits() as u64);
        let mean = |c: u32| tree.node(c).mean().unwrap_or(0.0);
        let agrees = match ranked.first() {
            Some(&best) => ranked
                .iter()
                .filter(|&&c| tree.node(c).visits() as u64 * 100 >= visits(0))
                .all(|&c| mean(c) <= mean(best)),
            None => true,
        };
        time::RootView {
            best_visits: visits(0),
            second_visits: visits(1),
            agrees,
            iterations: self.iterations(),
        }
    }

    /// One `SearchInfo` per MultiPV line.
    pub(super) fn infos(&self, tree: &Tree) -> Vec<SearchInfo> {
        let reader = Reader::new(tree, self.params.solver);
        let time = self.start.elapsed();
        let iterations = self.iterations();
        let nps = match time.as_secs_f64() {
            s if s > 0.0 => (iterations as f64 / s) as u64,
            _ => 0,
        };
        let seldepth = self
            .stats
            .iter()
            .map(|t| t.seldepth.load(Relaxed))
            .max()
            .unwrap_or(0);
        let depth = self.depth();
        let tbhits = self.tbhits();
        let draw_rate = report::draw_rate(&self.pos, &self.rules, self.clock);
        let drawn = self.tables().is_some_and(Endgame::drawn_root);
        reader
            .ranked(0, &self.allowed, self.rank())
            .into_iter()
            .take(self.multipv)
            .enumerate()
            .map(|(k, c)| {
                let node = tree.node(c);
                SearchInfo {
                    multipv: k + 1,
                    depth,
                    seldepth: seldepth.max(depth),
                    nodes: iterations,
                    nps,
                    tbhits,
                    time,
                    // A drawn tabled root reports the table's draw, whatever the search
                    // thinks of the moves that keep it.
                    score: if drawn {
                        Score::Cp(0)
                    } else {
                        reader.score(node)
                    },
                    wdl: Some(if drawn {
                        [0, 1000, 0]
                    } else {
                        reader.wdl(node, draw_rate)
                    }),
                    pv: reader.pv(c, &self.pos, &self.rules),
                }
            })
            .collect()
    }

    /// How the root moves are ranked: see [`report::rank_for`].
    fn rank(&self) -> report::Rank {
        report::rank_for(self.multipv)
    }

    /// The best move and the expected reply.
    pub(super) fn outcome(&self, tree: &Tree) -> SearchOutcome {
        SearchOutcome {
            nodes: self.iterations(),
            ..self
                .chooser
                .from_tree(tree, 0, &self.pos, &self.rules, &self.allowed)
        }
    }
}
