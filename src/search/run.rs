//! The state of one search: the root, the worker, the statistics for `info`, and what the
//! time manager and the final answer read off the tree.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Game, Position, Rules};
use crate::search::node::PackedMove;
use crate::search::tree::Tree;
use crate::search::uct::{Outcome, Params, Worker};
use crate::search::{plain, report, solver, time, SearchConfig, SearchInfo, SearchOutcome};
use crate::types::Move;

/// The state of one search.
pub(super) struct Run {
    params: Params,
    pub(super) rules: Rules,
    pub(super) pos: Position,
    clock: u32,
    multipv: usize,
    pub(super) worker: Worker,
    /// Root children that may be played (by index in the block); empty: all.
    allowed: Vec<bool>,
    /// Win, draw, loss counts per root child in this search, for `wdl`.
    counts: Vec<[u64; 3]>,
    start: Instant,
    pub(super) iterations: u64,
    depth_sum: u64,
    seldepth: u32,
}

impl Run {
    pub(super) fn new(config: &SearchConfig, game: &Game) -> Run {
        let params = if config.plain_uct {
            plain::params()
        } else {
            Params::uct(
                config.exploration,
                config.fpu_reduction,
                config.eval_cut,
                config.playout_policy,
            )
        };
        Run {
            params,
            rules: *game.rules(),
            pos: *game.position(),
            clock: game.clock(),
            multipv: config.multipv.max(1),
            // One generator per search thread, seeded from `seed`: reproducible searches.
            worker: Worker::new(Xoshiro256PlusPlus::seed_from_u64(config.seed)),
            allowed: Vec::new(),
            counts: Vec::new(),
            start: Instant::now(),
            iterations: 0,
            depth_sum: 0,
            seldepth: 0,
        }
    }

    /// Restricts the root to `searchmoves` (none: every move); returns how many root
    /// children may be played.
    pub(super) fn mask_root(&mut self, tree: &Tree, searchmoves: &[Move]) -> usize {
        let children = tree.root().children();
        self.allowed.clear();
        if !searchmoves.is_empty() {
            self.allowed = children
                .clone()
                .map(|c| {
                    let pm = tree.node(c).mv();
                    searchmoves.iter().any(|&m| PackedMove::new(m) == pm)
                })
                .collect();
        }
        self.counts = vec![[0; 3]; children.len()];
        if self.allowed.is_empty() {
            children.len()
        } else {
            self.allowed.iter().filter(|&&a| a).count()
        }
    }

    /// One iteration; true when the arena was too full to expand.
    #[inline]
    pub(super) fn step(&mut self, tree: &Tree) -> bool {
        let step = self.worker.iterate(
            tree,
            &self.params,
            &self.rules,
            &self.pos,
            self.clock,
            &self.allowed,
        );
        self.iterations += 1;
        self.depth_sum += step.depth as u64;
        self.seldepth = self.seldepth.max(step.depth);
        if let (Some(outcome), Some(k)) = (step.outcome, step.root_child) {
            let slot = match outcome {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
            };
            if let Some(c) = self.counts.get_mut(k as usize) {
                c[slot] += 1;
            }
        }
        step.full
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

    /// What the time manager needs to know about the root.
    pub(super) fn root_view(&self, tree: &Tree) -> time::RootView {
        let ranked = report::ranked_root(tree, self.params.solver, &self.allowed);
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
            iterations: self.iterations,
        }
    }

    /// One `SearchInfo` per MultiPV line.
    pub(super) fn infos(&self, tree: &Tree) -> Vec<SearchInfo> {
        let solver = self.params.solver;
        let time = self.start.elapsed();
        let nps = match time.as_secs_f64() {
            s if s > 0.0 => (self.iterations as f64 / s) as u64,
            _ => 0,
        };
        let depth = match self.iterations {
            0 => 1,
            n => ((self.depth_sum + n / 2) / n).max(1) as u32,
        };
        let first = tree.root().first_child();
        report::ranked_root(tree, solver, &self.allowed)
            .into_iter()
            .take(self.multipv)
            .enumerate()
            .map(|(k, c)| {
                let node = tree.node(c);
                let counts = self.counts.get((c - first) as usize).copied();
                SearchInfo {
                    multipv: k + 1,
                    depth,
                    seldepth: self.seldepth.max(depth),
                    nodes: self.iterations,
                    nps,
                    time,
                    score: report::score(node, solver),
                    wdl: Some(report::wdl(node, counts.unwrap_or_default(), solver)),
                    pv: report::pv(tree, c, &self.pos, &self.rules, solver),
                }
            })
            .collect()
    }

    /// The best move and the expected reply.
    pub(super) fn outcome(&self, tree: &Tree) -> SearchOutcome {
        let solver = self.params.solver;
        let best = report::best_child(tree, 0, solver, &self.allowed);
        let line = best.map(|c| report::pv(tree, c, &self.pos, &self.rules, solver));
        SearchOutcome {
            best: line.as_ref().and_then(|l| l.first().copied()),
            ponder: line.as_ref().and_then(|l| l.get(1).copied()),
            nodes: self.iterations,
        }
    }
}
