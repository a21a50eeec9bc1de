//! When and what the engine answers, as UCI wants it: a `go` with no limit for the side to
//! move searches until `stop`; an infinite or ponder search holds its answer until `stop` (or
//! `ponderhit`) even when the search ends early; every `go` gets exactly one `bestmove` (the
//! search thread enforces that), a legal one even when the search failed; and under
//! `searchmoves` the move answered is one of the list.

use std::sync::atomic::Ordering;

use crate::board::Game;
use crate::search::{Control, Limits, SearchOutcome};
use crate::types::{Color, Move};

/// Fills in what `go` leaves implicit: a search that sets no limit for `side` (no `movetime`,
/// no `nodes`, no clock of the mover) runs until `stop`, as `go infinite`.
pub(super) fn complete(limits: &mut Limits, side: Color) {
    let own_clock = match side {
        Color::Black => limits.btime,
        Color::White => limits.wtime,
    };
    if limits.movetime.is_none() && limits.nodes.is_none() && own_clock.is_none() {
        limits.infinite = true;
    }
}

/// True while a search's answer must wait: it is `infinite`, or a `ponder` search before
/// `ponderhit`.
pub(super) fn must_wait(infinite: bool, ponder: bool, control: &Control) -> bool {
    infinite || (ponder && !control.ponderhit.load(Ordering::SeqCst))
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
