//! The search: given a game, limits and a control block, find the best move.
//!
//! The search never prints. It reports [`SearchEvent`]s through a callback; the protocol layer
//! turns them into text. It runs on whatever thread calls [`Searcher::search`] and watches
//! [`Control`] for `stop` and `ponderhit`.
//!
//! This module is the contract between the engine facade and the search internals: a UCT
//! (Monte Carlo tree) search with UCB1 selection, random playouts cut after a few plies and
//! scored by a static evaluation (or played to the end of the game), an MCTS-Solver for proven results and a tree that is kept from one move to the next.
//!
//! Layout: [`node`] (32-byte nodes), [`tree`] (the arena, sized from `Hash`, compaction),
//! [`uct`] (one iteration: selection, expansion, playout, backpropagation), [`playout`],
//! [`eval`] (static evaluation of cut playouts),
//! [`solver`], [`time`] (time manager), [`reuse`], [`report`] (pv, scores) and [`plain`]
//! (the plain-UCT baseline opponent).
//!
//! Threads: `threads` search threads share the one tree (tree parallelism), started with
//! `std::thread::scope` inside [`Searcher::search`]: the calling thread is thread 0, which also
//! watches the clock, `stop` and `ponderhit` and sends the reports; the helpers iterate until it
//! raises a halt flag. Node statistics are atomics added lock-free; a thread counts its visit
//! on the way down (virtual loss) so that the others spread over different lines; a node is
//! expanded by the one thread that claims it with a compare-and-swap (the others play out from
//! it meanwhile); the arena allocates by an atomic bump; proofs are written once by
//! compare-and-swap. The `nodes` limit counts iterations over all threads. When the arena
//! fills, all threads stop, thread 0 prunes the tree alone (stop the world), and the threads
//! start again. Tree reuse (re-rooting) happens between searches, on one thread. With one
//! thread the search is exactly the single-threaded one (no virtual loss), so a `Seed` and a
//! `nodes` limit reproduce it bit for bit; with more threads it may vary from run to run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Game, GameResult, Rules};
use crate::types::Move;

pub mod eval;
pub mod node;
mod padded;
mod placement;
pub mod plain;
pub mod playout;
pub mod report;
pub mod reuse;
mod run;
pub mod solver;
pub mod time;
pub mod tree;
pub mod uct;
pub mod weights;

pub use tree::TreeStats;

use padded::CachePadded;
use reuse::RootKey;
use run::{Run, Stepped};
use tree::Tree;
use uct::Worker;

/// The default UCT exploration constant (a multiple of 0.01: the protocol option counts in
/// hundredths).
pub const DEFAULT_EXPLORATION: f64 = 0.35;

/// The default playout cut: plies before a playout is scored by the static evaluation.
pub const DEFAULT_EVAL_CUT: u32 = 8;

/// The default first-play reduction.
pub const DEFAULT_FPU_REDUCTION: f64 = 0.0;

/// The default weight of the implicit minimax value in selection (a multiple of 0.01).
pub const DEFAULT_MINIMAX_WEIGHT: f64 = 0.3;

/// The default contempt, in hundredths of a man per piece on the board (see
/// [`SearchConfig::contempt`]): off, as it won nothing measurable at 20 ms a move.
pub const DEFAULT_CONTEMPT: i32 = 0;

/// Settings that persist between searches (set through `setoption`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The rules games are played under.
    pub rules: Rules,
    /// Memory for the search tree in MiB; the search never uses more.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Seed of the random number generators: same seed, position and node limit, same result.
    pub seed: u64,
    /// UCT exploration constant.
    pub exploration: f64,
    /// How many best lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead_ms: u64,
    /// First-play urgency: an unvisited move is valued as its parent's mean less this much
    /// (0 = the parent's mean).
    pub fpu_reduction: f64,
    /// Play as the plain UCT baseline (the original app's AI): no reuse, no solver, random
    /// playouts cut at depth 30, fixed iteration budget.
    pub plain_uct: bool,
    /// Plies after which a playout stops and is scored by the static evaluation (0: random
    /// playouts to the end of the game).
    pub eval_cut: u32,
    /// Cut playouts use the greedy playout policy (biggest capture, crowning, no hanging
    /// man steps) instead of uniform random moves.
    pub playout_policy: bool,
    /// Weight `a` of the implicit minimax value of the static evaluation in selection:
    /// `q = (1 - a) * mean + a * minimax` (0: the mean alone).
    pub minimax_weight: f64,
    /// An unvisited move is valued as its static evaluation (less `fpu_reduction`) instead
    /// of its parent's mean.
    pub eval_first_play: bool,
    /// Contempt, in hundredths of a man per piece on the board: the side the engine moves
    /// for values each piece still on the board (either side's) this much, so that it keeps
    /// material on the board rather than trade into endings that hold (see
    /// [`eval::with_contempt`]). 0: evaluations are symmetric.
    pub contempt: i32,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            rules: Rules::default(),
            hash_mib: 64,
            threads: 1,
            seed: 0,
            exploration: DEFAULT_EXPLORATION,
            multipv: 1,
            move_overhead_ms: 10,
            fpu_reduction: DEFAULT_FPU_REDUCTION,
            plain_uct: false,
            eval_cut: DEFAULT_EVAL_CUT,
            playout_policy: false,
            minimax_weight: DEFAULT_MINIMAX_WEIGHT,
            eval_first_play: true,
            contempt: DEFAULT_CONTEMPT,
        }
    }
}

/// Limits of one search (the arguments of `go`). All absent with `infinite` false means
/// "search until stopped" as well; the protocol layer decides what a bare `go` means.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Iteration budget.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Black's remaining clock.
    pub btime: Option<Duration>,
    /// White's remaining clock.
    pub wtime: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Ponder search: no time limit applies until `ponderhit`.
    pub ponder: bool,
    /// Only these root moves are considered (empty: all).
    pub searchmoves: Vec<Move>,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-"pawns" (men), derived from the expected result.
    Cp(i32),
    /// Proven result: positive, the side to move wins in that many moves (own moves);
    /// negative, it loses in that many.
    Mate(i32),
}

/// A progress report.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// 1-based index of this line among the MultiPV lines.
    pub multipv: usize,
    /// Average depth of the tree.
    pub depth: u32,
    /// Maximum depth of the tree.
    pub seldepth: u32,
    /// Iterations so far.
    pub nodes: u64,
    /// Iterations per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The score of this line.
    pub score: Score,
    /// Win, draw, loss per mille, from the side to move's view.
    pub wdl: Option<[u32; 3]>,
    /// The principal variation (most visited line).
    pub pv: Vec<Move>,
}

/// What the search reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchEvent {
    /// A progress line.
    Info(SearchInfo),
    /// A free-text note (becomes `info string ...`).
    Message(String),
    /// The search's answer, given before [`Searcher::search`] returns: `stop` came while the
    /// search was compacting its tree, which cannot be interrupted, so the answer (read off
    /// the root's children, which compaction leaves as they are) goes out first. Nothing is
    /// reported after it, and `search` returns the same outcome.
    Decided(SearchOutcome),
}

/// The answer of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Iterations done.
    pub nodes: u64,
}

/// Flags the protocol thread flips while a search runs. Every search thread reads them on
/// every iteration: they get cache lines of their own, whatever the caller puts beside them.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct Control {
    /// Finish as soon as possible and return the best move so far.
    pub stop: AtomicBool,
    /// The ponder move was played: continue as a normal timed search.
    pub ponderhit: AtomicBool,
}

impl Control {
    /// True once `stop` was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Iterations between looks at the clock, `ponderhit` and the info timer.
const CHECK_EVERY: u64 = 16;
/// Interval of progress reports.
const INFO_EVERY: Duration = Duration::from_secs(1);

/// The tree budget in bytes for `Hash` in MiB (0 is taken as 1).
fn hash_bytes(mib: usize) -> usize {
    mib.max(1).saturating_mul(1 << 20)
}

/// The searcher, which keeps its state (the tree) between searches.
#[derive(Debug)]
pub struct Searcher {
    config: SearchConfig,
    tree: Tree,
    /// The game the tree's root stands for; `None` when the tree must not be reused.
    last: Option<RootKey>,
    /// Nanoseconds a compaction took per node in use, learned from the last ones (see
    /// [`Searcher::compaction_estimate`]).
    compact_ns: f64,
}

/// The first guess of [`Searcher::compact_ns`]: on the slow side, so that the first compaction
/// of a timed search is not started when it could make the engine late.
const COMPACT_NS_GUESS: f64 = 10.0;

impl Searcher {
    /// A searcher with the given settings.
    pub fn new(config: &SearchConfig) -> Searcher {
        Searcher {
            config: config.clone(),
            tree: Tree::with_budget(hash_bytes(config.hash_mib)),
            last: None,
            compact_ns: COMPACT_NS_GUESS,
        }
    }

    /// How long compacting the arena as it is now would take. Compaction scans every node in
    /// use and copies the kept ones: tens of milliseconds for a full arena of a large `Hash`,
    /// more than a short `movetime` or a bullet move has.
    fn compaction_estimate(&self) -> Duration {
        Duration::from_nanos((self.tree.used() as f64 * self.compact_ns) as u64)
    }

    /// Compacts the arena (see [`Tree::compact`]) and learns how fast that was. A `stop`
    /// that comes meanwhile is answered at once with `answer` (its last lines, then the
    /// move): returns the nodes kept and, when it answered, the outcome it gave.
    fn compact(
        &mut self,
        root: u32,
        limit: usize,
        control: &Control,
        answer: Option<Answer>,
        report: &mut dyn FnMut(SearchEvent),
    ) -> (usize, Option<SearchOutcome>) {
        let used = self.tree.used();
        let start = Instant::now();
        let mut pending = answer;
        let mut given = None;
        let kept = self.tree.compact_polling(root, limit, &mut || {
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
            self.compact_ns = 0.5 * self.compact_ns + 0.5 * ns;
        }
        (kept, given)
    }

    /// Applies new settings (the tree is reallocated when the memory size changes).
    pub fn configure(&mut self, config: &SearchConfig) {
        if config.hash_mib != self.config.hash_mib {
            // Free the old arena first so that both are never held at once.
            self.tree = Tree::with_budget(0);
            self.tree = Tree::with_budget(hash_bytes(config.hash_mib));
            self.last = None;
        }
        if config.rules != self.config.rules || config.plain_uct != self.config.plain_uct {
            self.last = None;
        }
        self.config = config.clone();
    }

    /// Forgets everything learned (new game).
    pub fn new_game(&mut self) {
        self.tree.clear();
        self.last = None;
    }

    /// Memory figures of the search tree.
    pub fn tree_stats(&self) -> TreeStats {
        self.tree.stats()
    }

    /// Searches the current position of `game` within `limits`, reporting through `report`,
    /// until a limit is reached or `control.stop` is set.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(SearchEvent),
    ) -> SearchOutcome {
        let started = Instant::now();
        let none = SearchOutcome {
            best: None,
            ponder: None,
            nodes: 0,
        };
        if game.result() != GameResult::Ongoing {
            return none;
        }
        let plain = self.config.plain_uct;
        let found = match &self.last {
            Some(key) if !plain => key.find(game, &self.tree),
            _ => None,
        };
        self.last = None;
        match found {
            // The same position again (analysis, or a `go` after `stop`): nothing to move,
            // and re-rooting a large tree would only delay the search and a `stop`.
            Some(0) if self.tree.used() <= self.tree.capacity() / 2 => {
                let kept = self.tree.used();
                report(SearchEvent::Message(format!("reused {kept} nodes")));
            }
            // Re-rooting would eat a large share of a timed move: start afresh instead.
            Some(_) if self.reroot_too_slow(game, limits) => {
                let used = self.tree.used();
                self.tree.clear();
                report(SearchEvent::Message(format!(
                    "not reused: re-rooting {used} nodes would take too long for this move"
                )));
            }
            Some(index) => {
                let answer = Answer::at(&self.tree, index, game, limits, &self.config);
                let limit = self.tree.capacity() / 2;
                let (kept, given) = self.compact(index, limit, control, answer, report);
                if let Some(outcome) = given {
                    self.last = Some(RootKey::of(game));
                    return outcome;
                }
                report(SearchEvent::Message(format!("reused {kept} nodes")));
            }
            None => self.tree.clear(),
        }
        let mut run = Run::new(&self.config, game, started);
        // The baseline is the original app's one-thread player.
        let threads = if plain { 1 } else { self.config.threads.max(1) };
        let mut workers = run.workers(threads);
        if !self.tree.root().is_expanded()
            && !workers[0].expand(&self.tree, 0, &run.pos, &run.rules, run.contempt())
        {
            // Only a position with more moves than the arena holds gets here.
            let first = game
                .legal_moves()
                .iter()
                .copied()
                .find(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m));
            return SearchOutcome {
                best: first,
                ..none
            };
        }
        let mut candidates = run.mask_root(&self.tree, &limits.searchmoves);
        if candidates == 0 {
            // No legal move among `searchmoves`: search them all rather than give up.
            candidates = run.mask_root(&self.tree, &[]);
        }
        // A forced move is answered at once (unless the GUI wants the search to wait).
        let forced = candidates == 1;
        if !forced || limits.infinite || limits.ponder {
            let given = self.run_loop(&run, &mut workers, limits, control, forced, report);
            if let Some(outcome) = given {
                self.last = Some(RootKey::of(game));
                return outcome;
            }
        }
        for info in run.infos(&self.tree) {
            report(SearchEvent::Info(info));
        }
        let outcome = run.outcome(&self.tree);
        if !plain {
            self.last = Some(RootKey::of(game));
        }
        outcome
    }

    /// True when re-rooting the tree would take more than a quarter of the time this search
    /// may use (never for searches without a time limit, or while pondering).
    fn reroot_too_slow(&self, game: &Game, limits: &Limits) -> bool {
        if limits.ponder || limits.infinite {
            return false;
        }
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        let side = game.position().side_to_move();
        time::budget(limits, side, overhead)
            .is_some_and(|b| self.compaction_estimate() * 4 > b.hard)
    }

    /// Iterates until a limit, `stop`, or (when the search must wait) `stop`/`ponderhit`,
    /// with one thread per worker. Each round runs the threads until the search is over or
    /// the arena is full; a full arena is pruned between rounds, with no thread running.
    /// Returns the outcome when a `stop` during a pruning was answered already.
    fn run_loop(
        &mut self,
        run: &Run,
        workers: &mut [CachePadded<Worker>],
        limits: &Limits,
        control: &Control,
        forced: bool,
        report: &mut dyn FnMut(SearchEvent),
    ) -> Option<SearchOutcome> {
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        let plain = self.config.plain_uct;
        let (budget, nodes) = if plain {
            let nodes = match limits.nodes {
                None if !limits.infinite => Some(plain::PLAIN_ITERATIONS),
                n => n,
            };
            (None, nodes)
        } else {
            (
                time::budget(limits, run.pos.side_to_move(), overhead),
                limits.nodes,
            )
        };
        let mut watch = Watch {
            limits,
            control,
            forced,
            budget,
            nodes,
            plain,
            unlimited: budget.is_none() && nodes.is_none(),
            pondering: limits.ponder,
            clock: time::Clock::since(run.start, if limits.ponder { None } else { budget }),
            last_info: Instant::now(),
            steps: 0,
            frozen: false,
            exhausted: false,
        };
        let (main, helpers) = workers.split_first_mut()?;
        loop {
            let tree = &self.tree;
            let flags = Flags::default();
            let frozen = watch.frozen;
            // A new thread starts on its parent's core (see `placement`).
            let home = placement::current_cpu();
            let spawning = !helpers.is_empty();
            let finished = std::thread::scope(|s| {
                for (k, worker) in helpers.iter_mut().enumerate() {
                    let flags = &flags;
                    // A thread the system refuses is simply one helper fewer.
                    let _ = std::thread::Builder::new().spawn_scoped(s, move || {
                        if let Some(cpu) = home {
                            placement::leave_cpu(cpu);
                        }
                        // A panicking helper must not leave thread 0 searching for ever, nor
                        // take the engine down when joined: it ends the search instead.
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            while !flags.halt.load(Ordering::Relaxed) && !control.stopped() {
                                match run.step(tree, worker, k + 1, nodes) {
                                    Stepped::Done => {}
                                    Stepped::Full if plain || frozen => {}
                                    Stepped::Full => {
                                        flags.full.store(true, Ordering::Relaxed);
                                        break;
                                    }
                                    Stepped::Exhausted => break,
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
                let finished = watch.main_loop(run, tree, main, &flags, report);
                // Helpers with iterations of a `nodes` limit left finish them (a few hundred
                // at most), so that the limit is met exactly; otherwise they stop now.
                if !watch.exhausted {
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
                let pruning = self.compaction_estimate();
                if !watch.pondering && watch.clock.elapsed() + pruning >= b.hard {
                    break;
                }
                // While pondering the clock starts at `ponderhit`, which may come in the middle
                // of a long pruning: search on in the tree as it is instead.
                if watch.pondering && pruning * 4 > b.hard {
                    watch.frozen = true;
                    continue;
                }
            }
            // Drop the least visited branches to make room; a `stop` meanwhile gets the
            // answer as the tree stands now.
            let answer = Answer {
                infos: run.infos(&self.tree),
                outcome: run.outcome(&self.tree),
            };
            let limit = self.tree.capacity() / 2;
            let (_, given) = self.compact(0, limit, control, Some(answer), report);
            if given.is_some() {
                return given;
            }
        }
        None
    }
}

/// What a search answers if `stop` comes now: its last `info` lines and its outcome.
struct Answer {
    infos: Vec<SearchInfo>,
    outcome: SearchOutcome,
}

impl Answer {
    /// The answer for `game`'s position, found at node `index` of a tree kept from an
    /// earlier search, before any iteration of this one (no lines: nothing was searched);
    /// `None` when that node has no children to choose from.
    fn at(
        tree: &Tree,
        index: u32,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
    ) -> Option<Answer> {
        let allowed = report::allowed(tree, index, &limits.searchmoves);
        let solver = !config.plain_uct;
        let outcome = report::outcome(tree, index, game.position(), game.rules(), solver, &allowed);
        outcome.best.is_some().then_some(Answer {
            infos: Vec::new(),
            outcome: SearchOutcome {
                nodes: 0,
                ..outcome
            },
        })
    }
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

/// The root's visits beyond which the search stops, whatever its limits: every node's
/// visits stay below `u32::MAX` even with a visit in flight from each of 65,536 threads.
const VISITS_CAP: u32 = u32::MAX - (1 << 16);

/// Thread 0's view of a running search: the limits, the clock and the report timer. It
/// outlives the rounds between prunings of a full arena.
struct Watch<'a> {
    limits: &'a Limits,
    control: &'a Control,
    forced: bool,
    budget: Option<time::Budget>,
    nodes: Option<u64>,
    plain: bool,
    unlimited: bool,
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

impl Watch<'_> {
    /// Thread 0 iterates and watches until the search is over (true) or the arena must be
    /// pruned (false, unless plain UCT, which just stops expanding). A helper that failed
    /// ends the search.
    fn main_loop(
        &mut self,
        run: &Run,
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
            if idle || nodes_done || self.steps.is_multiple_of(CHECK_EVERY) || run.solved(tree) {
                if self.pondering && self.control.ponderhit.load(Ordering::Relaxed) {
                    self.pondering = false;
                    self.clock = time::Clock::start(self.budget);
                }
                let done = nodes_done
                    || self.forced
                    || run.solved(tree)
                    || tree.root().visits() >= VISITS_CAP
                    || (!self.pondering && self.clock.should_stop(|| run.root_view(tree)));
                if done && !(self.limits.infinite || self.pondering || self.unlimited) {
                    return true;
                }
                idle = done;
                if self.last_info.elapsed() >= INFO_EVERY {
                    self.last_info = Instant::now();
                    for info in run.infos(tree) {
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
            match run.step(tree, worker, 0, self.nodes) {
                Stepped::Done => self.steps += 1,
                Stepped::Full => {
                    self.steps += 1;
                    if !self.plain && !self.frozen {
                        return false;
                    }
                }
                // Nothing left to claim: the next check ends the search.
                Stepped::Exhausted => {
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

    /// The messages of a search of `game` under `limits`.
    fn messages(s: &mut Searcher, game: &Game, limits: &Limits) -> Vec<String> {
        let mut out = Vec::new();
        s.search(game, limits, &Control::default(), &mut |e| {
            if let SearchEvent::Message(m) = e {
                out.push(m);
            }
        });
        out
    }

    /// `contempt` reaches the evaluations: from the start (24 pieces on the board) every
    /// evaluation gains 24 * contempt for the side to move, and so does the reported score.
    #[test]
    fn contempt_raises_the_score_of_the_side_it_is_for() {
        let game = Game::new(crate::board::Position::startpos(), 0, Rules::default());
        let score = |contempt: i32| {
            let config = SearchConfig {
                contempt,
                ..SearchConfig::default()
            };
            let mut s = Searcher::new(&config);
            let mut last = None;
            s.search(&game, &nodes_limit(3000), &Control::default(), &mut |e| {
                if let SearchEvent::Info(info) = e {
                    last = Some(info.score);
                }
            });
            match last {
                Some(Score::Cp(cp)) => cp,
                other => panic!("{other:?}"),
            }
        };
        let (plain, with) = (score(0), score(10));
        assert!(with > plain + 100, "{plain} {with}");
    }

    #[test]
    fn a_stop_during_re_rooting_is_answered_before_it_ends() {
        let mut game = Game::new(crate::board::Position::startpos(), 0, Rules::default());
        let mut s = Searcher::new(&SearchConfig::default());
        let first = s.search(
            &game,
            &Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
            &Control::default(),
            &mut |_| {},
        );
        let (Some(best), Some(reply)) = (first.best, first.ponder) else {
            panic!("no line: {first:?}");
        };
        assert!(game.play(best) && game.play(reply));
        // The stop is there before the search begins: the re-rooting sees it at once.
        let control = Control::default();
        control.stop.store(true, Ordering::Relaxed);
        let mut events = Vec::new();
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let out = s.search(&game, &infinite, &control, &mut |e| events.push(e));
        assert_eq!(events, vec![SearchEvent::Decided(out)]);
        assert_eq!(out.nodes, 0);
        let legal = game.legal_moves();
        assert!(out.best.is_some_and(|m| legal.contains(&m)), "{out:?}");
        // The tree was re-rooted all the same: the next search reuses it.
        let said = messages(&mut s, &game, &nodes_limit(100));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("reused "), "{said:?}");
    }

    /// A `nodes`-limited search.
    fn nodes_limit(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    #[test]
    fn a_timed_move_does_not_wait_for_a_slow_re_rooting() {
        let game = Game::new(crate::board::Position::startpos(), 0, Rules::default());
        let by_nodes = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let timed = Limits {
            movetime: Some(Duration::from_millis(40)),
            ..Limits::default()
        };
        for (ns_per_node, reused) in [(1e-3, true), (1e6, false)] {
            let mut s = Searcher::new(&SearchConfig::default());
            let mut g = game.clone();
            messages(&mut s, &g, &by_nodes);
            assert!(g.play(g.legal_moves()[0]));
            s.compact_ns = ns_per_node;
            let said = messages(&mut s, &g, &timed);
            assert_eq!(said.len(), 1, "{said:?}");
            assert_eq!(said[0].starts_with("reused "), reused, "{said:?}");
            assert_eq!(said[0].starts_with("not reused: "), !reused, "{said:?}");
            // Without a time limit the tree is always kept.
            s.compact_ns = 1e6;
            assert!(g.play(g.legal_moves()[0]));
            let said = messages(&mut s, &g, &by_nodes);
            assert!(said[0].starts_with("reused "), "{said:?}");
        }
    }
}
