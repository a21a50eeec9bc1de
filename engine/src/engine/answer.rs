//! When and what the engine answers, as UCI wants it: a `go` with no limit for the side to
//! move searches until `stop`; a legal move even when the search failed; and under
//! `searchmoves` the move answered is one of the list. (The job, see `job.rs`, holds an answer
//! until the GUI may have it and gives exactly one per `go`.)

use crate::board::Game;
use crate::search::{Limits, SearchOutcome};
use crate::types::{Color, Move};

/// Fills in what `go` leaves implicit, and returns a note for the GUI when it had to guess:
/// - with any clock given (`wtime`, `btime`, `winc`, `binc`) but none for `side` (and no
///   `movetime` or `infinite`, which decide instead), the missing own clock counts as zero
///   and the engine moves at once (as Stockfish does): a GUI that mixed up the colours must
///   not hang on an infinite search;
/// - a search that sets no limit at all for `side` (no `movetime`, `nodes`, clock, `depth` or
///   `mate`) runs until `stop`, as `go infinite`.
pub(super) fn complete(limits: &mut Limits, side: Color) -> Option<String> {
    let any_clock = [limits.wtime, limits.btime, limits.winc, limits.binc]
        .iter()
        .any(Option::is_some);
    let (own_clock, name) = match side {
        Color::Black => (&mut limits.btime, "btime"),
        Color::White => (&mut limits.wtime, "wtime"),
    };
    let mut note = None;
    if any_clock && own_clock.is_none() && !limits.infinite && limits.movetime.is_none() {
        *own_clock = Some(std::time::Duration::ZERO);
        note = Some(format!(
            "no {name} for the side to move ({}): its clock counts as 0, moving at once",
            match side {
                Color::Black => "black",
                Color::White => "white",
            }
        ));
    }
    if !has_limit(limits, side) {
        limits.infinite = true;
    }
    note
}

/// True when `limits` can end a search of `side` without `stop`: a `movetime`, `nodes`, the
/// mover's clock, `depth` or `mate`.
pub(super) fn has_limit(limits: &Limits, side: Color) -> bool {
    let own_clock = match side {
        Color::Black => limits.btime,
        Color::White => limits.wtime,
    };
    limits.movetime.is_some()
        || limits.nodes.is_some()
        || own_clock.is_some()
        || limits.depth.is_some()
        || limits.mate.is_some()
}

/// `outcome` with its move as listed in `searchmoves` (see [`as_listed`]).
pub(super) fn listed(outcome: SearchOutcome, game: &Game, searchmoves: &[Move]) -> SearchOutcome {
    SearchOutcome {
        best: outcome.best.map(|best| as_listed(best, game, searchmoves)),
        ..outcome
    }
}

/// The move to answer under `searchmoves`: `best` itself, or the listed move that leads to the
/// same position. A capture loop can be taken in either direction with the same result, and the
/// search keeps one tree child for both (naming it by one of the paths); a GUI that listed the
/// other path must get back a move from its list.
fn as_listed(best: Move, game: &Game, searchmoves: &[Move]) -> Move {
    if searchmoves.is_empty() || searchmoves.contains(&best) {
        return best;
    }
    let after = |mv: Move| {
        let mut pos = *game.position();
        pos.play_unchecked(mv);
        pos
    };
    let target = after(best);
    searchmoves
        .iter()
        .copied()
        .find(|&m| after(m) == target)
        .unwrap_or(best)
}

/// A legal move without searching: the first allowed root move.
pub(super) fn fallback(game: &Game, limits: &Limits) -> SearchOutcome {
    let moves = game.legal_moves();
    let best = moves
        .iter()
        .find(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .copied();
    SearchOutcome {
        best,
        ponder: None,
        nodes: 0,
    }
}
