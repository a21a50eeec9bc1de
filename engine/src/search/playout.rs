//! Random playouts: uniformly random legal moves to the end of the game (or a ply cut).
//!
//! The playout is where the search spends its time, so it avoids building move lists when it
//! can. Without a capture (the common case) the quiet moves are counted and only the one drawn
//! is built ([`pick_quiet`], beside the move generator). With a capture the full list is
//! generated into one reused `MoveList` (captures are few and must be walked anyway). Either
//! way every legal move has the same chance, exactly as picking from the full list.

use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{
    generate_moves, has_captures, next_clock, pick_quiet, DrawCount, DrawRules, MoveList, Position,
    Rules,
};
use crate::eval;
use crate::search::tables::Endgame;
use crate::search::value::{self, SCALE};
use crate::tablebase::Value;
use crate::types::{Color, Move};

/// How a playout ended, from the view of the side to move where it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutEnd {
    /// The starting side won.
    Win,
    /// The starting side lost.
    Loss,
    /// Drawn by the no-progress rule.
    Draw,
    /// Cut off at the ply limit before the game ended.
    Unfinished,
    /// Cut off early and scored by the static evaluation: the starting side's win
    /// probability in `SCALE` units.
    Scored(u64),
}

/// Extra plies a cut playout may play past its cut while captures are pending, so that the
/// evaluation does not see a position in the middle of an exchange.
const QUIESCENCE_PLIES: u32 = 12;

/// A uniform random index below `n` (n > 0) from 32 random bits, without division.
#[inline]
fn below(rng: &mut Xoshiro256PlusPlus, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as u32
}

/// Playout state: the reused move list, and under the 8x8 family's draw rules the counters
/// and the line of positions they need.
#[derive(Debug, Default)]
pub struct Playout {
    list: MoveList,
    /// Table probes at cuts since [`Playout::take_tbhits`].
    tbhits: u64,
    /// The family's draw counters where the next playout starts (the search sets them).
    pub draws: DrawCount,
    /// The positions of the game and the search path up to where the next playout starts,
    /// the start last (the search fills it; the playout appends its own). Only the 8x8
    /// family's rule sets use it.
    pub line: Vec<Position>,
}

impl Playout {
    /// A playout runner.
    pub fn new() -> Playout {
        Playout {
            list: MoveList::new(),
            tbhits: 0,
            draws: DrawCount::default(),
            line: Vec::new(),
        }
    }

    /// The table probes made since the last call.
    pub fn take_tbhits(&mut self) -> u64 {
        std::mem::take(&mut self.tbhits)
    }

    /// A uniformly random legal move of `pos`; `None` when the side to move has none.
    #[inline]
    pub fn random_move(
        &mut self,
        pos: &Position,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Move> {
        if has_captures(pos, rules) {
            generate_moves(pos, rules, &mut self.list);
            let n = self.list.len() as u32;
            return Some(self.list[below(rng, n) as usize]);
        }
        pick_quiet(pos, rules, |n| below(rng, n))
    }

    /// Plays random moves from `pos` (no-progress clock `clock`) until the game ends under
    /// `rules` or `max_plies` moves were made. Returns how it ended and the plies played.
    pub fn run(
        &mut self,
        mut pos: Position,
        mut clock: u32,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
        max_plies: u32,
    ) -> (PlayoutEnd, u32) {
        let start = pos.side_to_move();
        for ply in 0..max_plies {
            if let Some(end) = self.step(&mut pos, &mut clock, rules, rng, start) {
                return (end, ply);
            }
        }
        (PlayoutEnd::Unfinished, max_plies)
    }

    /// One random ply from `pos`: the game's end (for `start`) if it is over there, else
    /// `None` with the move played and the clock moved on.
    #[inline(always)]
    fn step(
        &mut self,
        pos: &mut Position,
        clock: &mut u32,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
        start: Color,
    ) -> Option<PlayoutEnd> {
        let Some(mv) = self.random_move(pos, rules, rng) else {
            return Some(stuck(pos, rules, start));
        };
        // No legal move loses before the draw rule is looked at (protocol.md, "Rules").
        let draw = rules.draw_half_moves;
        if draw > 0 && *clock >= draw {
            return Some(PlayoutEnd::Draw);
        }
        *clock = next_clock(mv, *clock);
        if rules.draws == DrawRules::HalfMoves {
            pos.play_unchecked(mv);
            return None;
        }
        if self.draws.drawn(&self.line, rules) {
            return Some(PlayoutEnd::Draw);
        }
        let before = *pos;
        pos.play_unchecked(mv);
        self.draws = self.draws.after(&before, mv, pos, rules);
        self.line.push(*pos);
        None
    }

    /// Like [`Playout::run`], but after `cut` plies (and once no capture is pending, within
    /// `QUIESCENCE_PLIES` more) the position is scored by [`eval::evaluate`] instead of
    /// played out: a [`PlayoutEnd::Scored`] from the starting side's view. The first
    /// position of the playout that `tables` cover (before the cut or after, captures
    /// pending or not) ends it with the table's exact result at its clock.
    pub fn run_cut(
        &mut self,
        mut pos: Position,
        mut clock: u32,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
        cut: u32,
        tables: Option<&Endgame>,
    ) -> (PlayoutEnd, u32) {
        let start = pos.side_to_move();
        let limit = cut + QUIESCENCE_PLIES;
        for ply in 0..limit {
            // A covered position ends the playout at once, whether or not the cut is reached:
            // its result is exact, and random moves from it would only add noise (a won
            // ending thrown away by a random blunder).
            if let Some(value) = tables.and_then(|t| t.probe(&pos, clock, self.draws)) {
                self.tbhits += 1;
                return (tabled(value, &pos, start), ply);
            }
            if ply >= cut && !has_captures(&pos, rules) {
                return (score_for(&pos, rules, start), ply);
            }
            if let Some(end) = self.step(&mut pos, &mut clock, rules, rng, start) {
                return (end, ply);
            }
        }
        (score_for(&pos, rules, start), limit)
    }
}

/// The evaluation of `pos` as a win probability for `start`.
#[inline]
fn score_for(pos: &Position, rules: &Rules, start: Color) -> PlayoutEnd {
    let v = value::of_score(eval::evaluate(pos, rules));
    PlayoutEnd::Scored(if pos.side_to_move() == start {
        v
    } else {
        SCALE - v
    })
}

/// The table's `value` of `pos` (for its side to move) as a result for `start`.
#[inline]
fn tabled(value: Value, pos: &Position, start: Color) -> PlayoutEnd {
    let mover = pos.side_to_move() == start;
    match value {
        Value::Draw => PlayoutEnd::Draw,
        Value::Win(_) if mover => PlayoutEnd::Win,
        Value::Loss(_) if !mover => PlayoutEnd::Win,
        _ => PlayoutEnd::Loss,
    }
}

/// The result, from `start`'s view, when the side to move at `pos` has no legal move: it lost
/// (or, under `losing`, won).
#[inline]
fn stuck(pos: &Position, rules: &Rules, start: Color) -> PlayoutEnd {
    if rules.winner_when_stuck(pos.side_to_move()) != start {
        PlayoutEnd::Loss
    } else {
        PlayoutEnd::Win
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_by_the_rules() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut playout = Playout::new();
        let rules = Rules::default();
        // Black has no move: the side to move loses at once.
        let stuck = fen::parse("B:W:B1")
            .unwrap()
            .with_side_to_move(crate::types::Color::White);
        assert_eq!(
            playout.run(stuck, 0, &rules, &mut rng, 500),
            (PlayoutEnd::Loss, 0)
        );
        // The draw clock already ran out and the side to move can move: a draw at once.
        let pos = fen::parse("W:WK1:BK32").unwrap();
        assert_eq!(
            playout.run(pos, 80, &rules, &mut rng, 500),
            (PlayoutEnd::Draw, 0)
        );
        let (end, plies) = playout.run(pos, 70, &rules, &mut rng, 500);
        assert!(
            end == PlayoutEnd::Draw && plies == 10 || plies < 10,
            "{end:?} {plies}"
        );
        let (end, plies) = playout.run(Position::startpos(), 0, &rules, &mut rng, 3);
        assert_eq!((end, plies), (PlayoutEnd::Unfinished, 3));
    }
}
