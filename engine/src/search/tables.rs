//! The search's use of the endgame tables: which positions it probes, what a probe means to
//! the solver, and which root moves keep a tabled result.
//!
//! A probe answers for the side to move at the node's own no-progress clock (a win whose
//! conversion does not fit the clock is a draw there). Proofs from the tables count plies to
//! the winning conversion, not to the end of the game: they are stored from [`TABLED`] plies
//! on, so every proven mate ranks before them and the report tells them apart.

use std::sync::Arc;

use crate::board::{generate_moves, has_moves, next_clock, DrawCount, MoveList, Position, Rules};
use crate::search::solver::Proof;
use crate::tablebase::{counting, Tablebase, Value};
use crate::types::Move;

/// Plies of a proof that comes from the tables start here (see the module comment).
pub const TABLED: u16 = 0x2000;

/// The score, in centi-men, of a tabled win with no ply to go: the report gives a tabled win
/// `d` plies before its conversion as `TB_WIN_CP - d` (a tabled loss as its negative), far
/// above any evaluation and below nothing but `mate`, as Stockfish reports its tables.
pub const TB_WIN_CP: i32 = 20_000;

/// The search's view of the endgame tables (the files themselves are a [`Tablebase`]):
/// opened tables and how far the search may use them.
#[derive(Clone, Debug)]
pub struct Endgame {
    tb: Arc<Tablebase>,
    /// Positions with at most this many pieces are probed.
    pieces: u32,
    /// Probes give draws too (see [`Endgame::without_draws`]).
    draws: bool,
}

/// What the tables say about the root and which of its moves keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTable {
    /// The root's value at its clock.
    pub value: Value,
    /// The moves that keep it (see [`Endgame::root`]).
    pub moves: Vec<Move>,
    /// Probes made.
    pub probes: u64,
}

impl Endgame {
    /// The search's view of `tb`, probing positions of at most `pieces` pieces (and no more
    /// than the tables hold); `None` when that leaves nothing to probe.
    pub fn new(tb: Arc<Tablebase>, pieces: u32) -> Option<Endgame> {
        let pieces = pieces.min(tb.max_pieces());
        (pieces >= 2).then_some(Endgame {
            tb,
            pieces,
            draws: true,
        })
    }

    /// The same tables for the search of a drawn tabled root: probes give wins and losses
    /// only, and a drawn position is searched and evaluated as without tables. Every move the
    /// root may play keeps the draw, so proven draws would leave nothing to choose by; this
    /// way the search rates them by what they leave the opponent (the replies that lose,
    /// proven by the tables, and the evaluation of the rest), and the engine plays the draw
    /// that sets the most problems.
    pub fn without_draws(&self) -> Endgame {
        Endgame {
            draws: false,
            ..self.clone()
        }
    }

    /// True when `self` probes the same tables as far as `other` does.
    pub fn same_as(&self, other: &Endgame) -> bool {
        Arc::ptr_eq(&self.tb, &other.tb) && self.pieces == other.pieces && self.draws == other.draws
    }

    /// The tables probed.
    pub fn tablebase(&self) -> &Tablebase {
        &self.tb
    }

    /// The most pieces a probed position has.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// True when positions like `pos` are probed.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.pieces && self.tb.covers(pos)
    }

    /// The result of `pos` at no-progress clock `clock` (in tables of the 8x8 family, at the
    /// material count of `draws`, see [`counting::table_count`]) for its side to move,
    /// when covered (a missing slice, or a block that fails its check, is taken as not
    /// covered; the engine says the first such failure, see [`Tablebase::take_fault`]; so is
    /// a 7.2.7 entry that does not hold at the game's diagonal count, see
    /// [`crate::tablebase::solve::answers`]): [`Tablebase::game_value`], the reading the match
    /// runner's adjudication makes too.
    /// Without draws (see [`Endgame::without_draws`]) a draw is no answer.
    #[inline]
    pub fn probe(&self, pos: &Position, clock: u32, draws: DrawCount) -> Option<Value> {
        self.exact(pos, clock, draws)
            .filter(|&v| self.draws || v != Value::Draw)
    }

    /// [`Endgame::probe`], draws included.
    #[inline]
    fn exact(&self, pos: &Position, clock: u32, draws: DrawCount) -> Option<Value> {
        if !self.covers(pos) {
            return None;
        }
        self.tb.game_value(pos, clock, draws).ok().flatten()
    }

    /// True when the root of the search is a tabled draw (see [`Endgame::without_draws`]).
    pub fn drawn_root(&self) -> bool {
        !self.draws
    }

    /// The root's tabled value at `clock` and the moves that keep it, when the root is
    /// covered: for a win, the moves of the fastest conversion (so the win always converts
    /// within the clock, even without a draw rule); for a draw, every move that keeps the
    /// draw; for a loss, the moves that put the conversion off longest. A move's cost is 1
    /// when it restarts the count (captures or crowns, see [`counting::restarts`]) and
    /// `d' + 1` otherwise, with `d'` the opponent's distance after it, as the tables count.
    /// `draws`: the family's counters at the root (see [`Endgame::probe`]).
    pub fn root(
        &self,
        pos: &Position,
        rules: &Rules,
        clock: u32,
        draws: DrawCount,
    ) -> Option<RootTable> {
        let value = self.exact(pos, clock, draws)?;
        let mut list = MoveList::new();
        generate_moves(pos, rules, &mut list);
        let mut probes = 1;
        let mut keyed = Vec::with_capacity(list.len());
        let diagonal = draws.diagonal().min(u32::from(counting::DIAGONAL_LAYERS)) as u8;
        for &mv in list.iter() {
            let mut next = *pos;
            next.play_unchecked(mv);
            let after = next_clock(mv, clock);
            let next_draws = draws.after(pos, mv, &next, rules);
            probes += 1;
            // Pieces never come back: every successor of a covered position is covered (or
            // has no move: it took the last piece), unless a slice failed to load (or a
            // 7.2.7 successor stands at a diagonal count the table does not hold); then the
            // root is searched as usual.
            let v = if has_moves(&next, rules) {
                self.exact(&next, after, next_draws)?
            } else {
                self.tb.stuck()
            };
            let restarts = counting::restarts(pos, mv, &next, rules, diagonal);
            let cost = |d: u32| if restarts { 1 } else { d + 1 };
            // The key orders the moves that keep the result, best first.
            let key = match (value, v) {
                (Value::Win(_), Value::Loss(d)) => Some(cost(d)),
                (Value::Draw, Value::Draw) => Some(0),
                (Value::Loss(_), Value::Win(d)) => Some(u32::MAX - cost(d)),
                _ => None,
            };
            if let Some(key) = key {
                keyed.push((key, mv));
            }
        }
        let best = keyed.iter().map(|k| k.0).min()?;
        let moves = keyed
            .into_iter()
            .filter(|k| k.0 == best)
            .map(|k| k.1)
            .collect();
        Some(RootTable {
            value,
            moves,
            probes,
        })
    }
}

/// The proof a tabled `value` of a node's position (for its side to move) gives the node,
/// whose proofs are from the view of the player who moved into it. `zeroed`: the move into
/// the node captured or crowned, so it was itself the conversion (0 plies from the node).
#[inline]
pub fn proof_of(value: Value, zeroed: bool) -> Proof {
    let plies = |d: u32| {
        TABLED
            + if zeroed {
                0
            } else {
                d.min(u32::from(TABLED) - 1) as u16
            }
    };
    match value {
        Value::Win(d) => Proof::Loss(plies(d)),
        Value::Loss(d) => Proof::Win(plies(d)),
        Value::Draw => Proof::Draw,
    }
}

/// Plies from a node to the tabled conversion its proof stands on, when it stands on one.
#[inline]
pub fn tabled_plies(plies: u16) -> Option<u16> {
    plies.checked_sub(TABLED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_take_the_movers_view_and_the_tabled_range() {
        assert_eq!(proof_of(Value::Win(3), false), Proof::Loss(TABLED + 3));
        assert_eq!(proof_of(Value::Win(3), true), Proof::Loss(TABLED));
        assert_eq!(proof_of(Value::Loss(5), false), Proof::Win(TABLED + 5));
        assert_eq!(proof_of(Value::Draw, true), Proof::Draw);
        assert_eq!(tabled_plies(TABLED + 7), Some(7));
        assert_eq!(tabled_plies(40), None);
    }
}
