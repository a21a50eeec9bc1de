//! What the engine answers, as UCI wants it: a legal move even when the search failed, and
//! under `searchmoves` a move of the list. (What a `go` means, when it ends and which moves it
//! allows, is read in `search::limits`.) (The job, see `job.rs`, holds an answer
//! until the GUI may have it and gives exactly one per `go`.)

use crate::board::Game;
use crate::search::{Limits, SearchOutcome};
use crate::types::Move;

/// `outcome` with its move as listed in `searchmoves` (see [`as_listed`]).
pub(super) fn listed(outcome: SearchOutcome, game: &Game, limits: &Limits) -> SearchOutcome {
    SearchOutcome {
        best: outcome.best.map(|best| as_listed(best, game, limits)),
        ..outcome
    }
}

/// The move to answer under `searchmoves`: `best` itself, or the listed move that leads to the
/// same position. A capture loop can be taken in either direction with the same result, and the
/// search keeps one tree child for both (naming it by one of the paths); a GUI that listed the
/// other path must get back a move from its list.
fn as_listed(best: Move, game: &Game, limits: &Limits) -> Move {
    if limits.allows(&best) {
        return best;
    }
    let after = |mv: Move| {
        let mut pos = *game.position();
        pos.play_unchecked(mv);
        pos
    };
    let target = after(best);
    limits
        .searchmoves
        .iter()
        .copied()
        .find(|&m| after(m) == target)
        .unwrap_or(best)
}

/// A legal move without searching: the first allowed root move (see [`Limits::fallback`]).
pub(super) fn fallback(game: &Game, limits: &Limits) -> SearchOutcome {
    SearchOutcome {
        best: limits.fallback(game),
        ponder: None,
        nodes: 0,
    }
}
