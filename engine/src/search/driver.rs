//! The thread driver: runs the search threads over the shared tree until a limit, `stop` or
//! `ponderhit` says otherwise; thread 0 iterates too and watches the clock and the limits
//! ([`MainThread`]); a full arena is compacted between rounds, and a `stop` that comes during
//! a compaction (which cannot be interrupted) is answered at once ([`Answer`]).
//!
//! Threads: `threads` search threads share the one tree (tree parallelism), started with
//! `std::thread::scope`: the calling thread is thread 0, which also watches the clock, `stop`
//! and `ponderhit` and sends the reports; the helpers iterate until it raises a halt flag.
//! Node statistics are atomics added lock-free; a thread counts its visit on the way down
//! (virtual loss) so that the others spread over different lines; a node is expanded by the
//! one thread that claims it with a compare-and-swap (the others play out from it meanwhile);
//! the arena allocates by an atomic bump; proofs are written once by compare-and-swap. The
//! `nodes` limit counts iterations over all threads. When the arena fills, all threads stop,
//! thread 0 prunes the tree alone (stop the world), and the threads start again. With one
//! thread the search is exactly the single-threaded one (no virtual loss), so a `Seed` and a
//! `nodes` limit reproduce it bit for bit; with more threads it may vary from run to run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::board::Game;
use crate::search::choice::Chooser;
use crate::search::padded::CachePadded;
use crate::search::params::Behaviour;
use crate::search::state::{SearchState, StepResult};
use crate::search::tree::Tree;
use crate::search::uct::Worker;
use crate::search::{
    placement, report, time, Control, End, Limits, SearchEvent, SearchInfo, SearchOutcome, Terms,
};
use crate::types::Move;

/// Iterations between looks at the clock, `ponderhit` and the info timer.
const CHECK_EVERY: u64 = 16;
/// Stack of a helper thread: the system's usual size for a new thread, named so that the
/// helpers that fit under a memory limit can be counted.
const HELPER_STACK: usize = 2 << 20;

/// Address space kept free under a memory limit when helpers start: for the allocations of
/// the search and of the threads that read and answer the input.
const SPARE_ROOM: usize = 64 << 20;

/// Address space the C library's allocator may reserve for a thread's first allocation: glibc
/// gives threads their own heaps ("arenas"), each a reservation of this size, up to
/// [`ARENAS_PER_CORE`] times the cores. A helper allocates little (a thread-local destructor
/// is registered on its first use), but under a memory limit that reservation, not its
/// stack, is what runs out: the thread that next asks for memory, or for its signal stack,
/// aborts the process.
const THREAD_ARENA: usize = 64 << 20;

/// glibc's default cap on arenas, per core, on 64-bit systems.
const ARENAS_PER_CORE: usize = 8;

/// How many helpers fit in `room` bytes of address space: each takes its stack, and each of
/// the first `arenas` may take an arena of its own; [`SPARE_ROOM`] stays free.
fn helpers_that_fit(room: usize, arenas: usize) -> usize {
    let room = room.saturating_sub(SPARE_ROOM);
    let with_arenas = room / (HELPER_STACK + THREAD_ARENA);
    if with_arenas < arenas {
        return with_arenas;
    }
    arenas + (room - arenas * (HELPER_STACK + THREAD_ARENA)) / HELPER_STACK
}

/// Interval of progress reports.
const INFO_EVERY: Duration = Duration::from_secs(1);

/// The root's visits beyond which the search stops, whatever its limits: every node's
/// visits stay below `u32::MAX` even with a visit in flight from each of 65,536 threads.
const VISITS_CAP: u32 = u32::MAX - (1 << 16);

/// The first guess of [`Compaction::ns_per_node`]: on the slow side, so that the first
/// compaction of a timed search is not started when it could make the engine late.
const COMPACT_NS_GUESS: f64 = 10.0;

/// Compacting the tree, and how long that takes.
#[derive(Debug)]
pub(super) struct Compaction {
    /// Nanoseconds a compaction took per node in use, learned from the last ones.
    pub(super) ns_per_node: f64,
}

impl Default for Compaction {
    fn default() -> Compaction {
        Compaction {
            ns_per_node: COMPACT_NS_GUESS,
        }
    }
}

impl Compaction {
    /// How long compacting `tree` as it is now would take. Compaction scans every node in
    /// use and copies the kept ones: for a full arena of a large `Hash`, more than a short
    /// `movetime` or a bullet move has.
    pub(super) fn estimate(&self, tree: &Tree) -> Duration {
        Duration::from_nanos((tree.used() as f64 * self.ns_per_node) as u64)
    }

    /// Compacts `tree` around `root`, keeping at most `limit` nodes (see [`Tree::compact`]),
    /// and learns how fast that was. A `stop` that comes meanwhile is answered at once with
    /// `answer` (its last lines, then the move): returns the nodes kept and, when it answered,
    /// the outcome it gave.
    pub(super) fn run(
        &mut self,
        tree: &mut Tree,
        root: u32,
        limit: usize,
        control: &Control,
        answer: Option<Answer>,
        report: &mut dyn FnMut(SearchEvent),
    ) -> (usize, Option<SearchOutcome>) {
        let used = tree.used();
        let start = Instant::now();
        let mut pending = answer;
        let mut given = None;
        let kept = tree.compact_polling(root, limit, &mut || {
            if control.stopped() {
                if let Some(answer) = pending.take() {
                    for info in answer.infos {
                        report(SearchEvent::Info(info));
                    }
                    report(SearchEvent::Decided(answer.outcome));
                    given = Some(answer.outcome);
                }
            }
        });
        // Small compactions are dominated by fixed costs and would teach a wrong rate.
        if used >= 1 << 14 {
            let ns = start.elapsed().as_nanos() as f64 / used as f64;
            self.ns_per_node = 0.5 * self.ns_per_node + 0.5 * ns;
        }
        (kept, given)
    }
}

/// What a search answers if `stop` comes now: its last `info` lines and its outcome.
pub(super) struct Answer {
    infos: Vec<SearchInfo>,
    outcome: SearchOutcome,
}

impl Answer {
    /// The answer for `game`'s position, found at node `index` of a tree kept from an
    /// earlier search, before any iteration of this one (no lines: nothing was searched): the
    /// move `chooser` picks among `playable` (empty: all moves), as at the end of a search;
    /// `None` when that node has no children to choose from.
    pub(super) fn at(
        tree: &Tree,
        index: u32,
        game: &Game,
        playable: &[Move],
        chooser: &Chooser,
    ) -> Option<Answer> {
        let allowed = report::allowed(tree, index, playable);
        let outcome = chooser.from_tree(tree, index, game.position(), game.rules(), &allowed);
        outcome.best.is_some().then_some(Answer {
            infos: Vec::new(),
            outcome: SearchOutcome {
                nodes: 0,
                ..outcome
            },
        })
    }
}

/// One search to drive: what it was asked for.
pub(super) struct Run<'a> {
    pub(super) behaviour: Behaviour,
    pub(super) state: &'a SearchState,
    pub(super) limits: &'a Limits,
    /// What `limits` come to under `behaviour`: the driver reads no limit again for them.
    pub(super) terms: Terms,
    pub(super) control: &'a Control,
}

/// Flags between the threads of one round. Every helper reads them on every iteration, so
/// they sit on cache lines of their own: on thread 0's stack beside its own counters, which it
/// writes on every iteration, each read would miss.
#[derive(Default)]
#[repr(align(128))]
struct Flags {
    /// Raised by thread 0: the helpers stop after their current iteration.
    halt: AtomicBool,
    /// Raised by a helper that found the arena full.
    full: AtomicBool,
    /// Raised by a helper that panicked.
    failed: AtomicBool,
}

impl Run<'_> {
    /// Iterates until a limit, `stop`, or (when the search must wait) `stop`/`ponderhit`,
    /// with one thread per worker. Each round runs the threads until the search is over or
    /// the arena is full; a full arena is pruned between rounds, with no thread running.
    /// Returns the outcome when a `stop` during a pruning was answered already.
    pub(super) fn drive(
        &self,
        tree: &mut Tree,
        compaction: &mut Compaction,
        workers: &mut [CachePadded<Worker>],
        report: &mut dyn FnMut(SearchEvent),
    ) -> Option<SearchOutcome> {
        let (state, limits, control) = (self.state, self.limits, self.control);
        let Terms { budget, nodes, end } = self.terms;
        let mut main = MainThread {
            limits,
            control,
            budget,
            nodes,
            prune_when_full: self.behaviour.prune_when_full,
            end,
            pondering: limits.ponder,
            clock: time::Clock::since(state.start, if limits.ponder { None } else { budget }),
            last_info: Instant::now(),
            steps: 0,
            frozen: false,
            exhausted: false,
        };
        let asked = workers.len();
        let (first, helpers) = workers.split_first_mut()?;
        // Under a memory limit only the helpers whose stacks fit start, with room to spare
        // for everything else: a thread the system refuses is one helper fewer, but a stack
        // that takes the last of the memory makes the next allocation anywhere fail.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let fit = placement::address_room().map_or(helpers.len(), |room| {
            helpers_that_fit(room, ARENAS_PER_CORE * cores)
        });
        let helpers = if fit < helpers.len() {
            report(SearchEvent::Message(format!(
                "Threads {asked}: {} fit in this process's memory",
                fit + 1
            )));
            &mut helpers[..fit]
        } else {
            helpers
        };
        loop {
            let shared: &Tree = tree;
            let flags = Flags::default();
            let grow = self.behaviour.prune_when_full && !main.frozen;
            // A new thread starts on its parent's core (see `placement`).
            let home = placement::current_cpu();
            let spawning = !helpers.is_empty();
            let turns = Turns::new(helpers.len(), cores);
            let finished = std::thread::scope(|s| {
                for (k, worker) in helpers.iter_mut().enumerate() {
                    let flags = &flags;
                    let turns = turns.as_ref();
                    // A thread the system refuses is simply one helper fewer.
                    let _ = std::thread::Builder::new()
                        .stack_size(HELPER_STACK)
                        .spawn_scoped(s, move || {
                            if let Some(cpu) = home {
                                placement::leave_cpu(cpu);
                            }
                            // A panicking helper must not leave thread 0 searching for ever, nor
                            // take the engine down when joined: it ends the search instead.
                            let result =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    let over =
                                        || flags.halt.load(Ordering::Relaxed) || control.stopped();
                                    let mut turn = None;
                                    while !over() {
                                        if let Some(turns) = turns {
                                            if !turn.as_ref().is_some_and(Turn::current) {
                                                if turn.take().is_some() {
                                                    // Lets a waiting helper have the turn given back.
                                                    std::thread::yield_now();
                                                }
                                                turn = turns.take(over);
                                                if turn.is_none() {
                                                    break;
                                                }
                                            }
                                        }
                                        // A proven root ends the search whatever the limits (or
                                        // idles it until `stop`): a helper must not wait for thread
                                        // 0 to notice, which a busy machine may delay for long.
                                        if state.solved(shared) {
                                            break;
                                        }
                                        match state.step(shared, worker, k + 1, nodes) {
                                            StepResult::Done => {}
                                            StepResult::Full if !grow => {}
                                            StepResult::Full => {
                                                flags.full.store(true, Ordering::Relaxed);
                                                break;
                                            }
                                            StepResult::Exhausted => break,
                                        }
                                    }
                                }));
                            if result.is_err() {
                                flags.failed.store(true, Ordering::Relaxed);
                            }
                        });
                }
                if spawning {
                    // Lets a helper queued behind thread 0 run now and move away.
                    std::thread::yield_now();
                }
                let finished = main.iterate_and_watch(state, shared, first, &flags, report);
                // Helpers with iterations of a `nodes` limit left finish them (a few hundred
                // at most), so that the limit is met exactly; otherwise they stop now.
                if !main.exhausted {
                    flags.halt.store(true, Ordering::Relaxed);
                }
                finished
            });
            if finished || flags.failed.load(Ordering::Relaxed) {
                break;
            }
            // The arena is full. A timed search that could not prune it before its deadline
            // ends here with what it has: pruning cannot be interrupted.
            if let Some(b) = budget.filter(|_| !limits.infinite) {
                let pruning = compaction.estimate(tree);
                if !main.pondering && main.clock.elapsed() + pruning >= b.hard {
                    break;
                }
                // While pondering the clock starts at `ponderhit`, which may come in the middle
                // of a long pruning: search on in the tree as it is instead.
                if main.pondering && pruning * 4 > b.hard {
                    main.frozen = true;
                    continue;
                }
            }
            // Drop the least visited branches to make room; a `stop` meanwhile gets the
            // answer as the tree stands now.
            let answer = Answer {
                infos: state.infos(tree),
                outcome: state.outcome(tree),
            };
            let limit = tree.capacity() / 2;
            let (_, given) = compaction.run(tree, 0, limit, control, Some(answer), report);
            if given.is_some() {
                return given;
            }
        }
        None
    }
}

/// Turns on the cores, when a search has more helpers than the machine has cores beside
/// thread 0: only as many helpers iterate at once as there are cores, each for a short turn,
/// and the others sleep until a turn is given back. Every helper searches, but the threads
/// that want a core are never more than the cores, so the thread that reads the input and
/// the one that answers it get one at once (`isready`, `stop`): a scheduler that shares the
/// cores among hundreds of runnable threads would make them wait for many of their turns.
struct Turns {
    free: Mutex<usize>,
    given_back: Condvar,
}

/// How long a helper keeps its turn: about a scheduler's time slice, so that turning over
/// costs little beside the iterations of a turn.
const TURN: Duration = Duration::from_millis(4);

impl Turns {
    /// Turns for `helpers` helpers beside thread 0 on `cores` cores; `None` when every helper
    /// has a core of its own.
    fn new(helpers: usize, cores: usize) -> Option<Turns> {
        let free = cores.saturating_sub(1).max(1);
        (helpers > free).then(|| Turns {
            free: Mutex::new(free),
            given_back: Condvar::new(),
        })
    }

    /// Waits for a turn; `None` once `over` says the search is over. The first helper to see
    /// the end wakes all the others, so that they end together rather than one by one.
    fn take(&self, over: impl Fn() -> bool) -> Option<Turn<'_>> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if over() {
                drop(free);
                self.given_back.notify_all();
                return None;
            }
            if *free > 0 {
                *free -= 1;
                return Some(Turn {
                    turns: self,
                    since: Instant::now(),
                });
            }
            free = self
                .given_back
                .wait(free)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A helper's turn on a core, given back when dropped (also when the helper ends or panics).
struct Turn<'a> {
    turns: &'a Turns,
    since: Instant,
}

impl Turn<'_> {
    /// True while the turn lasts.
    fn current(&self) -> bool {
        self.since.elapsed() < TURN
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.turns.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.turns.given_back.notify_one();
    }
}

/// Thread 0's view of a running search: the limits, the clock and the report timer. It
/// outlives the rounds between prunings of a full arena.
struct MainThread<'a> {
    limits: &'a Limits,
    control: &'a Control,
    budget: Option<time::Budget>,
    nodes: Option<u64>,
    prune_when_full: bool,
    end: End,
    pondering: bool,
    clock: time::Clock,
    last_info: Instant,
    /// Thread 0's own iterations (the cadence of its checks).
    steps: u64,
    /// The arena is full and may not be pruned: search on without growing the tree.
    frozen: bool,
    /// The `nodes` limit is used up: thread 0 found nothing left to claim.
    exhausted: bool,
}

impl MainThread<'_> {
    /// Thread 0 iterates and watches until the search is over (true) or the arena must be
    /// pruned (false, unless the search does not prune: then it just stops expanding). A
    /// helper that failed ends the search.
    fn iterate_and_watch(
        &mut self,
        state: &SearchState,
        tree: &Tree,
        worker: &mut Worker,
        flags: &Flags,
        report: &mut dyn FnMut(SearchEvent),
    ) -> bool {
        let mut idle = false;
        loop {
            if self.control.stopped() || flags.failed.load(Ordering::Relaxed) {
                return true;
            }
            if flags.full.load(Ordering::Relaxed) {
                return false;
            }
            let nodes_done = self.exhausted;
            if idle || nodes_done || self.steps.is_multiple_of(CHECK_EVERY) || state.solved(tree) {
                if self.pondering && self.control.ponderhit.load(Ordering::Relaxed) {
                    self.pondering = false;
                    self.clock = time::Clock::start(self.budget);
                }
                let done = nodes_done
                    || state.solved(tree)
                    || state.reached(tree, self.limits)
                    || tree.root().visits() >= VISITS_CAP
                    || (!self.pondering && self.clock.should_stop(|| state.root_view(tree)));
                if done && !(self.pondering || self.end == End::Stop) {
                    return true;
                }
                idle = done;
                if self.last_info.elapsed() >= INFO_EVERY {
                    self.last_info = Instant::now();
                    for info in state.infos(tree) {
                        report(SearchEvent::Info(info));
                    }
                }
                if idle {
                    // Nothing left to search: wait for `stop` (or `ponderhit`) without spinning,
                    // and let the helpers rest too (or finish their share of a `nodes` limit).
                    if !self.exhausted {
                        flags.halt.store(true, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(1));
                    continue;
                }
            }
            match state.step(tree, worker, 0, self.nodes) {
                StepResult::Done => self.steps += 1,
                StepResult::Full => {
                    self.steps += 1;
                    if self.prune_when_full && !self.frozen {
                        return false;
                    }
                }
                // Nothing left to claim: the next check ends the search.
                StepResult::Exhausted => {
                    self.exhausted = true;
                    idle = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_that_fit_count_their_stacks_and_the_first_ones_arenas() {
        const MIB: usize = 1 << 20;
        // Nothing beyond the spare room: no helper.
        assert_eq!(helpers_that_fit(SPARE_ROOM, 16), 0);
        assert_eq!(helpers_that_fit(0, 16), 0);
        // Room for two stacks and arenas, not three.
        assert_eq!(helpers_that_fit(SPARE_ROOM + 3 * 66 * MIB - 1, 16), 2);
        // Past the cap on arenas, each more helper needs its stack alone.
        assert_eq!(helpers_that_fit(SPARE_ROOM + 2 * 66 * MIB + 10 * MIB, 2), 7);
    }
}
