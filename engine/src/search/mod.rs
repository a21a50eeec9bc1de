//! The search: given a game, limits and a control block, find the best move.
//!
//! This module is the contract between the engine facade and the search: [`Limits`] in,
//! [`SearchEvent`]s and a [`SearchOutcome`] out, [`Control`] flipped by the protocol thread
//! while it runs, and the [`SearchConfig`] (generated from the parameter table in [`params`]).
//! The search never prints: it reports events through a callback and the protocol layer turns
//! them into text. It runs on whatever thread calls [`Searcher::search`].
//!
//! The search is a UCT (Monte Carlo tree) search with UCB1 selection, leaves valued by a
//! learned network where the rules have one (English) and otherwise by random playouts cut
//! after a few plies and scored by the static evaluation ([`crate::eval`]), an MCTS-Solver for
//! proven results and a tree that is kept from one move to the next. How it works is told in
//! `docs/search.md`.
//!
//! Layout: [`limits`] (what a go command means: the mover's clock, the moves it allows, how
//! the search ends), [`params`] (the knobs, the plain-UCT baseline's and the strength limit's scales),
//! [`searcher`] (the tree's lifetime and re-rooting), `driver` (the search threads, the main
//! thread's watch over limits and clock, compaction of a full tree), `state` (what the
//! threads of one search share), `placement` (where the threads run, the memory limit they run under), [`uct`] (one
//! iteration: selection, expansion, leaf value, backpropagation), [`select`] (the UCB1
//! choice), [`playout`], [`value`] (the results' fixed-point scale), [`tables`] (endgame
//! table probes in the tree, at the cut and at the root), [`solver`], [`time`] (time
//! manager), [`report`] (pv, scores), [`choice`] (the one place the move to play is chosen:
//! book, search answer, strength limit), [`node`] and [`tree`] (the node arena) with
//! `padded` (values alone on their cache lines).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::types::Move;

pub mod choice;
mod driver;
pub mod limits;
pub mod node;
mod padded;
pub mod params;
mod placement;
pub mod playout;
pub mod report;
pub mod searcher;
pub mod select;
pub mod solver;
mod state;
pub mod tables;
pub mod time;
pub mod tree;
pub mod uct;
pub mod value;

pub use limits::{End, Limits, OwnClock, Terms};
pub use params::{Behaviour, OptionKind, OptionValue, SearchConfig};
pub use searcher::Searcher;
pub use tree::TreeStats;

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
    /// Endgame table probes so far; `None` when the search uses no tables.
    pub tbhits: Option<u64>,
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
    /// The move is played from the opening book, without a search (`info string book ...`).
    Book {
        /// The book move.
        mv: Move,
        /// Its book score, centi-men from the mover's view.
        score: i32,
        /// How many book moves it was drawn from (those within the book margin).
        choices: usize,
    },
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
