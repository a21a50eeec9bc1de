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
//! Threads: the nodes are all atomics and the arena allocates through an atomic counter so
//! that tree parallelism can share them (each thread with its own [`uct::Worker`] and
//! generator); compaction needs the other threads paused. For now the search runs on one
//! thread whatever `threads` says.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Game, GameResult, Rules};
use crate::types::Move;

pub mod eval;
pub mod node;
pub mod plain;
pub mod playout;
pub mod report;
pub mod reuse;
mod run;
pub mod solver;
pub mod time;
pub mod tree;
pub mod uct;

pub use tree::TreeStats;

use reuse::RootKey;
use run::Run;
use tree::Tree;

/// The default UCT exploration constant (a multiple of 0.01: the protocol option counts in
/// hundredths).
pub const DEFAULT_EXPLORATION: f64 = 0.45;

/// The default playout cut: plies before a playout is scored by the static evaluation.
pub const DEFAULT_EVAL_CUT: u32 = 8;

/// The default first-play reduction.
pub const DEFAULT_FPU_REDUCTION: f64 = 0.0;

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

/// Flags the protocol thread flips while a search runs.
#[derive(Debug, Default)]
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
}

impl Searcher {
    /// A searcher with the given settings.
    pub fn new(config: &SearchConfig) -> Searcher {
        Searcher {
            config: config.clone(),
            tree: Tree::with_budget(hash_bytes(config.hash_mib)),
            last: None,
        }
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
            Some(index) => {
                let kept = self.tree.compact(index, self.tree.capacity() / 2);
                report(SearchEvent::Message(format!("reused {kept} nodes")));
            }
            None => self.tree.clear(),
        }
        let mut run = Run::new(&self.config, game);
        if !self.tree.root().is_expanded()
            && !run.worker.expand(&self.tree, 0, &run.pos, &run.rules)
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
            self.run_loop(&mut run, limits, control, forced, report);
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

    /// Iterates until a limit, `stop`, or (when the search must wait) `stop`/`ponderhit`.
    fn run_loop(
        &mut self,
        run: &mut Run,
        limits: &Limits,
        control: &Control,
        forced: bool,
        report: &mut dyn FnMut(SearchEvent),
    ) {
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        let (budget, nodes) = if self.config.plain_uct {
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
        let unlimited = budget.is_none() && nodes.is_none();
        let mut pondering = limits.ponder;
        let mut clock = time::Clock::start(if pondering { None } else { budget });
        let mut last_info = Instant::now();
        let mut idle = false;
        loop {
            if control.stopped() {
                break;
            }
            let nodes_done = nodes.is_some_and(|n| run.iterations >= n);
            if idle
                || nodes_done
                || run.iterations.is_multiple_of(CHECK_EVERY)
                || run.solved(&self.tree)
            {
                if pondering && control.ponderhit.load(Ordering::Relaxed) {
                    pondering = false;
                    clock = time::Clock::start(budget);
                }
                let done = nodes_done
                    || forced
                    || run.solved(&self.tree)
                    || (!pondering && clock.should_stop(|| run.root_view(&self.tree)));
                if done && !(limits.infinite || pondering || unlimited) {
                    break;
                }
                idle = done;
                if last_info.elapsed() >= INFO_EVERY {
                    last_info = Instant::now();
                    for info in run.infos(&self.tree) {
                        report(SearchEvent::Info(info));
                    }
                }
                if idle {
                    // Nothing left to search: wait for `stop` (or `ponderhit`) without spinning.
                    std::thread::sleep(Duration::from_millis(1));
                    continue;
                }
            }
            if run.step(&self.tree) && !self.config.plain_uct {
                // The arena is full: drop the least visited branches to make room.
                self.tree.compact(0, self.tree.capacity() / 2);
            }
        }
    }
}
