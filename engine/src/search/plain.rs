//! The plain UCT baseline: how the original Buff and Green app's AI plays.
//!
//! UCB1 with `c = sqrt 2`, every unvisited child tried first (in generation order), no tree
//! reuse, no solver, a fixed budget of 20,000 iterations a move, and random playouts cut after
//! 30 plies. Results count on the usual scale (win 1, draw 1/2, loss 0 for the player being
//! credited) except that a playout cut before the game ended scores 0.01 for *both* sides:
//! every node on the path gets 0.01, whichever player it belongs to. That is the original's
//! "almost nothing" for a game that did not end: nearly a loss for everyone, so the baseline
//! drifts toward lines that end the game quickly, for either side. It exists as an opponent
//! for matches (`setoption name PlainUct value true`), not as a way to play well.

use crate::search::uct::{FirstPlay, Params};
use crate::search::value::SCALE;

/// The baseline's iteration budget per move when `go` names no `nodes`.
pub const PLAIN_ITERATIONS: u64 = 20_000;

/// Plies after which a baseline playout stops unfinished.
pub const PLAIN_PLAYOUT_PLIES: u32 = 30;

/// The iteration parameters of the baseline.
pub fn params() -> Params {
    Params {
        exploration: std::f64::consts::SQRT_2,
        first_play: FirstPlay::Infinite,
        solver: false,
        playout_plies: PLAIN_PLAYOUT_PLIES,
        // 0.01 of a win.
        unfinished: SCALE / 100,
        eval_cut: 0,
        minimax: 0.0,
    }
}
