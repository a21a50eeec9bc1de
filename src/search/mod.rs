//! The search: given a game, limits and a control block, find the best move.
//!
//! The search never prints. It reports [`SearchEvent`]s through a callback; the protocol layer
//! turns them into text. It runs on whatever thread calls [`Searcher::search`] and watches
//! [`Control`] for `stop` and `ponderhit`.
//!
//! This module is the contract between the engine facade and the search internals. The
//! current internals are a stand-in that plays a uniformly random legal move while honouring
//! every limit; the UCT search replaces them behind the same API.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Game, GameResult, Rules};
use crate::types::Move;

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
    /// Play as the plain UCT baseline (the original app's AI): no reuse, no solver, random
    /// playouts cut at depth 30, fixed iteration budget.
    pub plain_uct: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            rules: Rules::default(),
            hash_mib: 64,
            threads: 1,
            seed: 0,
            exploration: 1.0,
            multipv: 1,
            move_overhead_ms: 10,
            plain_uct: false,
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

/// The searcher, which keeps its state (the tree) between searches.
#[derive(Debug)]
pub struct Searcher {
    config: SearchConfig,
    rng: Xoshiro256PlusPlus,
}

impl Searcher {
    /// A searcher with the given settings.
    pub fn new(config: &SearchConfig) -> Searcher {
        Searcher {
            config: config.clone(),
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
        }
    }

    /// Applies new settings (the tree is reallocated when the memory size changes).
    pub fn configure(&mut self, config: &SearchConfig) {
        self.config = config.clone();
        self.rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    }

    /// Forgets everything learned (new game).
    pub fn new_game(&mut self) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.config.seed);
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
        let start = Instant::now();
        let moves = game.legal_moves();
        let candidates: Vec<Move> = if limits.searchmoves.is_empty() {
            moves.to_vec()
        } else {
            moves
                .iter()
                .filter(|m| limits.searchmoves.contains(m))
                .copied()
                .collect()
        };
        if candidates.is_empty() || game.result() != GameResult::Ongoing {
            return SearchOutcome {
                best: None,
                ponder: None,
                nodes: 0,
            };
        }
        let best = candidates[self.rng.gen_range(0..candidates.len())];
        // Stand-in: honour the limits by waiting, so the protocol surface behaves as with a
        // real search.
        let deadline = if limits.infinite || limits.ponder {
            None
        } else if let Some(t) = limits.movetime {
            Some(t)
        } else {
            Some(Duration::from_millis(0))
        };
        let mut last_info = start;
        loop {
            let ponder_over = control.ponderhit.load(Ordering::Relaxed);
            let elapsed = start.elapsed();
            if control.stopped() {
                break;
            }
            match deadline {
                Some(d) if elapsed >= d => break,
                None if ponder_over && !limits.infinite => break,
                _ => {}
            }
            if last_info.elapsed() >= Duration::from_secs(1) {
                last_info = Instant::now();
                report(SearchEvent::Info(self.info(best, start)));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        report(SearchEvent::Info(self.info(best, start)));
        SearchOutcome {
            best: Some(best),
            ponder: None,
            nodes: 1,
        }
    }

    fn info(&self, best: Move, start: Instant) -> SearchInfo {
        SearchInfo {
            multipv: 1,
            depth: 1,
            seldepth: 1,
            nodes: 1,
            nps: 0,
            time: start.elapsed(),
            score: Score::Cp(0),
            wdl: None,
            pv: vec![best],
        }
    }
}
