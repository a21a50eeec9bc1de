//! `bench`: a fixed search workload whose node count is a signature of search behaviour.
//!
//! Every position is searched with the same seed and iteration limit, so the total node count
//! only changes when the search itself changes (as Stockfish's `bench` signature). The rate is
//! what speed work is judged by.

use std::time::{Duration, Instant};

use crate::board::{fen, Game, Position, Rules};
use crate::search::{Control, Limits, SearchConfig, Searcher};

/// The positions searched: the start, openings, middle games and endings with kings.
pub const POSITIONS: &[&str] = &[
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13",
    "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,13",
    "B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12",
    "W:W15,17,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,12,14,16",
    "B:WK3,18,22,26,30:B6,9,K27",
    "W:WK10,K27:BK5,K19,23",
    "B:W20,24,27,28,K6:B1,3,10,K26",
];

/// The default iteration limit per position.
pub const DEFAULT_NODES: u64 = 20_000;

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total iterations over all positions: the signature.
    pub nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
    /// False when a `stop` ended the run early: the figures are partial.
    pub complete: bool,
}

impl BenchReport {
    /// Iterations per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Searches every bench position with `nodes` iterations under `config` (its seed included)
/// and `rules`.
pub fn run(config: &SearchConfig, rules: &Rules, nodes: u64) -> BenchReport {
    run_until(config, rules, nodes, &Control::default())
}

/// [`run`] that ends early once `control.stop` is set (the report says it is partial).
pub fn run_until(
    config: &SearchConfig,
    rules: &Rules,
    nodes: u64,
    control: &Control,
) -> BenchReport {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .filter_map(|t| fen::parse(t).ok())
        .collect();
    run_on_until(config, rules, nodes, &positions, control)
}

/// Searches each of `positions` with `nodes` iterations under `config`, each with a fresh
/// tree (`bench --fen`: the speed of chosen positions, such as one middle game).
pub fn run_on(
    config: &SearchConfig,
    rules: &Rules,
    nodes: u64,
    positions: &[Position],
) -> BenchReport {
    run_on_until(config, rules, nodes, positions, &Control::default())
}

fn run_on_until(
    config: &SearchConfig,
    rules: &Rules,
    nodes: u64,
    positions: &[Position],
    control: &Control,
) -> BenchReport {
    let mut total = 0;
    let mut elapsed = Duration::ZERO;
    for &pos in positions {
        if control.stopped() {
            break;
        }
        let game = Game::new(pos, 0, *rules);
        let mut searcher = Searcher::new(config);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let start = Instant::now();
        let outcome = searcher.search(&game, &limits, control, &mut |_| {});
        elapsed += start.elapsed();
        total += outcome.nodes;
    }
    BenchReport {
        nodes: total,
        elapsed,
        complete: !control.stopped(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid() {
        for text in POSITIONS {
            assert!(fen::parse(text).is_ok(), "{text}");
        }
    }
}
