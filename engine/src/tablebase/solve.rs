//! What an entry means and the one-step rule that links an entry to its successors: the
//! builder applies it level by level, the verifier checks every entry against it.

use std::fmt;

use crate::board::{generate_moves, DrawCount, MoveList, Position, Rules};
pub use crate::tablebase::counting::MAX_DISTANCE;
use crate::tablebase::counting::{self, counts_material, layered, stored_diagonal};
use crate::tablebase::Material;
use crate::types::Move;

/// The entry byte of a position whose side to move has no legal move: `loss 0` in a table of
/// normal checkers, `win 0` in one of losing checkers (the rules of the table say which; no
/// table holds both, and no other value has a distance of 0).
pub const STUCK: u8 = 128;

/// The result of a position for the side to move, as a table stores it (clock 0 and beyond:
/// see [`Value::at_clock`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The side to move forces a winning conversion within this many plies (0: it has no
    /// move, under losing rules).
    Win(u32),
    /// The opponent forces one within this many plies (0: the side to move has no move,
    /// under normal rules).
    Loss(u32),
    /// Neither side can force one within the draw rule.
    Draw,
}

impl Value {
    /// The value of a position whose side to move has no legal move: `loss 0`, or under
    /// `losing` rules `win 0`.
    #[inline]
    pub const fn stuck(losing: bool) -> Value {
        if losing {
            Value::Win(0)
        } else {
            Value::Loss(0)
        }
    }

    /// The entry byte: 0 draw, 1..=127 win in that many plies, 128 + d loss in d plies, and
    /// [`STUCK`] (128) for either value of a side without a move (`loss 0`, `win 0`).
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(0) => STUCK,
            Value::Win(d) => d as u8,
            Value::Loss(d) => 128 + d as u8,
        }
    }

    /// The value of an entry byte of a table of normal (`losing` false) or losing checkers:
    /// the two differ only in what [`STUCK`] means.
    #[inline]
    pub const fn from_code(code: u8, losing: bool) -> Value {
        match code {
            0 => Value::Draw,
            1..=127 => Value::Win(code as u32),
            STUCK => Value::stuck(losing),
            _ => Value::Loss(code as u32 - 128),
        }
    }

    /// The result at no-progress clock `clock` under draw rule `draw_half_moves` (0 = none):
    /// a win or loss in `d` holds iff `d <= D - clock`, otherwise the position is a draw. A
    /// position without a move is decided at every clock (lost, or won under losing rules).
    pub fn at_clock(self, clock: u32, draw_half_moves: u32) -> Value {
        let left = draw_half_moves.saturating_sub(clock);
        match self {
            Value::Loss(0) | Value::Win(0) => self,
            Value::Win(d) | Value::Loss(d) if draw_half_moves > 0 && d > left => Value::Draw,
            v => v,
        }
    }
}

impl fmt::Display for Value {
    /// `win <d>`, `loss <d>` or `draw`: the line `tb probe` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win {d}"),
            Value::Loss(d) => write!(f, "loss {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// The longest distance a table built under `draw_half_moves` holds: `D`, or
/// [`MAX_DISTANCE`] without a draw rule.
pub fn distance_limit(draw_half_moves: u32) -> u32 {
    if draw_half_moves == 0 {
        MAX_DISTANCE
    } else {
        draw_half_moves.min(MAX_DISTANCE)
    }
}

/// The value of `pos` from the values of its successors: `lookup(next, zeroing)` gives the
/// entry of the position after a move (`zeroing`: the move restarts the count, see
/// [`counting::restarts`]: under the clock a capture or crowning). A move into a loss in `d'`
/// wins in 1 if it zeroes, else in `d' + 1`; the side to move wins by its fastest such move,
/// and loses only if every move leads to a win of the opponent, by the slowest; either is
/// raised to the position's floor ([`counting::floor`], 0 under the clock). Distances beyond
/// `limit` are draws. A position without a move is [`Value::stuck`] under `rules`.
pub fn one_step(
    pos: &Position,
    rules: &Rules,
    limit: u32,
    list: &mut MoveList,
    mut lookup: impl FnMut(&Position, bool) -> u8,
) -> Value {
    let diagonal = counting::stored_diagonal(pos, rules);
    let mut step = Step::new(rules, limit, counting::floor(pos, rules, diagonal));
    for_each_successor(pos, rules, list, |next, zeroing| {
        step.add(lookup(next, zeroing), zeroing)
    });
    step.value()
}

/// Calls `f(next, zeroing)` for the position after each legal move of `pos` (`zeroing`: the
/// move restarts the count, see [`counting::restarts`], at the diagonal count a stored entry
/// of `pos` is for), generating the moves into `list`.
pub(crate) fn for_each_successor(
    pos: &Position,
    rules: &Rules,
    list: &mut MoveList,
    mut f: impl FnMut(&Position, bool),
) {
    let diagonal = counting::stored_diagonal(pos, rules);
    for_each_successor_at(pos, rules, diagonal, list, |next, _, zeroing| {
        f(next, zeroing)
    });
}

/// [`for_each_successor`] at the 7.2.7 diagonal count `diagonal`, with each move.
pub(crate) fn for_each_successor_at(
    pos: &Position,
    rules: &Rules,
    diagonal: u8,
    list: &mut MoveList,
    mut f: impl FnMut(&Position, Move, bool),
) {
    generate_moves(pos, rules, list);
    for &mv in list.iter() {
        let mut next = *pos;
        next.play_unchecked(mv);
        f(
            &next,
            mv,
            counting::restarts(pos, mv, &next, rules, diagonal),
        );
    }
}

/// The one-step rule of [`one_step`] over the values of a position's moves, given one at a
/// time: for a caller that finds the successors' entries in a pass of its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    losing: bool,
    limit: u32,
    floor: u32,
    moves: u32,
    best_win: u32,
    all_lose: bool,
    worst_loss: u32,
}

impl Step {
    /// No move seen yet, for a position whose entry is at least `floor` (see
    /// [`counting::floor`]; 0 under the clock).
    pub(crate) fn new(rules: &Rules, limit: u32, floor: u32) -> Step {
        Step {
            losing: rules.losing,
            limit,
            floor,
            moves: 0,
            best_win: u32::MAX,
            all_lose: true,
            worst_loss: 0,
        }
    }

    /// A move whose successor's entry is `code` (`zeroing`: the move restarts the count).
    #[inline]
    pub(crate) fn add(&mut self, code: u8, zeroing: bool) {
        self.moves += 1;
        let cost = |d: u32| if zeroing { 1 } else { d + 1 };
        match Value::from_code(code, self.losing) {
            Value::Loss(d) => {
                let c = cost(d);
                if c <= self.limit {
                    self.best_win = self.best_win.min(c);
                } else {
                    self.all_lose = false;
                }
            }
            Value::Win(d) => self.worst_loss = self.worst_loss.max(cost(d)),
            Value::Draw => self.all_lose = false,
        }
    }

    /// The value of the position from the moves added.
    pub(crate) fn value(&self) -> Value {
        if self.moves == 0 {
            Value::stuck(self.losing)
        } else if self.best_win != u32::MAX {
            Value::Win(self.best_win.max(self.floor))
        } else if self.all_lose && self.worst_loss <= self.limit {
            Value::Loss(self.worst_loss.max(self.floor))
        } else {
            Value::Draw
        }
    }

    /// The cost of the fastest win among the moves added, if one wins within the limit.
    pub(crate) fn best_win(&self) -> Option<u32> {
        (self.best_win != u32::MAX).then_some(self.best_win)
    }

    /// True when a move added keeps the position from being lost: it reaches a draw, or a
    /// win of the opponent too slow for the limit.
    pub(crate) fn escapes(&self) -> bool {
        !self.all_lose || self.worst_loss > self.limit
    }

    /// The cost of the slowest of the moves added into a win of the opponent (0: none).
    pub(crate) fn worst_loss(&self) -> u32 {
        self.worst_loss
    }
}

/// True when `value`, the entry of `pos` read at [`counting::table_count`], is the game's result with
/// the family's counters `draws`. Always, but in a 7.2.7 slice, whose entry holds one
/// diagonal count ([`stored_diagonal`]): a higher diagonal count only brings draws nearer, so
/// there a draw still holds, and at a lower one a win or loss; anything else is no answer
/// (the caller searches instead).
#[inline]
pub fn answers(value: Value, pos: &Position, rules: &Rules, draws: DrawCount) -> bool {
    if !counts_material(rules) {
        return true;
    }
    let masks = crate::tablebase::material::Masks::of(pos);
    if !layered(Material::of(&masks), rules) {
        return true;
    }
    match draws
        .diagonal()
        .cmp(&u32::from(stored_diagonal(pos, rules)))
    {
        std::cmp::Ordering::Equal => true,
        std::cmp::Ordering::Greater => value == Value::Draw,
        std::cmp::Ordering::Less => value != Value::Draw,
    }
}

/// What `tb probe` adds to a family table's value of `pos` (stored entry `stored`): the
/// entry and the last count at which its win or loss holds (its distance is 127 less that
/// count, not plies to the conversion; under Pool's rules the last count of the three kings'
/// moves), and for a 7.2.7 position the diagonal count the entry is for. Empty under the
/// clock.
pub fn describe(stored: Value, pos: &Position, rules: &Rules) -> String {
    if !counts_material(rules) {
        return String::new();
    }
    let mut out = String::new();
    if let Value::Win(d @ 1..) | Value::Loss(d @ 1..) = stored {
        let last = MAX_DISTANCE - d;
        if rules.draws == crate::board::DrawRules::Pool {
            // The table counts plies, the game the three kings' moves, read at twice as many
            // plies (see `counting::table_count`).
            out.push_str(&format!(
                " ({stored} while the three kings have made at most {} moves)",
                last / 2
            ));
        } else {
            out.push_str(&format!(
                " ({stored} while the material count is at most {last})"
            ));
        }
    }
    let masks = crate::tablebase::material::Masks::of(pos);
    if layered(Material::of(&masks), rules) {
        out.push_str(&format!(
            " (7.2.7: for a diagonal count of {})",
            stored_diagonal(pos, rules)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for losing in [false, true] {
            for code in 0..=255u8 {
                assert_eq!(Value::from_code(code, losing).code(), code);
            }
        }
        assert_eq!(Value::from_code(STUCK, false), Value::Loss(0));
        assert_eq!(Value::from_code(STUCK, true), Value::Win(0));
        assert_eq!(Value::from_code(129, true), Value::Loss(1));
        assert_eq!(Value::from_code(1, true), Value::Win(1));
    }

    #[test]
    fn cursed_wins_are_draws_at_high_clocks() {
        assert_eq!(Value::Win(11).at_clock(69, 80), Value::Win(11));
        assert_eq!(Value::Win(11).at_clock(70, 80), Value::Draw);
        assert_eq!(Value::Loss(4).at_clock(77, 80), Value::Draw);
        assert_eq!(Value::Loss(0).at_clock(80, 80), Value::Loss(0));
        assert_eq!(Value::Win(0).at_clock(80, 80), Value::Win(0));
        assert_eq!(Value::Win(0).at_clock(500, 80), Value::Win(0));
        assert_eq!(Value::Win(99).at_clock(500, 0), Value::Win(99));
        assert_eq!(Value::Win(1).to_string(), "win 1");
    }

    fn russian() -> Rules {
        Rules {
            draw_half_moves: 0,
            ..crate::board::Variant::Russian.rules()
        }
    }

    #[test]
    fn a_seven_two_seven_entry_answers_at_other_diagonal_counts_only_where_it_must_hold() {
        let rules = russian();
        let on = crate::board::fen::parse("W:WK1,K2,K3:BK15").expect("fen");
        let off = crate::board::fen::parse("W:WK1,K2,K3:BK32").expect("fen");
        assert_eq!(stored_diagonal(&on, &rules), 1);
        assert_eq!(stored_diagonal(&off, &rules), 0);
        let at = |c: u16, d: u8| DrawCount::counted(c, d);
        assert_eq!(counting::table_count(&rules, 40, at(7, 1)), 7);
        assert_eq!(
            counting::table_count(&Rules::BUFF_AND_GREEN, 40, at(7, 1)),
            40
        );
        let (win, draw) = (Value::Win(100), Value::Draw);
        // At the stored count anything; above it draws; below it wins and losses.
        assert!(answers(win, &on, &rules, at(7, 1)) && answers(draw, &on, &rules, at(7, 1)));
        assert!(!answers(win, &on, &rules, at(7, 2)) && answers(draw, &on, &rules, at(7, 9)));
        assert!(answers(win, &on, &rules, at(7, 0)) && !answers(draw, &on, &rules, at(7, 0)));
        assert!(answers(win, &off, &rules, at(7, 0)) && !answers(win, &off, &rules, at(7, 3)));
        // Elsewhere, and under the clock, the diagonal count plays no part.
        let short = crate::board::fen::parse("W:WK5,K6:BK32").expect("fen");
        assert!(answers(win, &short, &rules, at(3, 12)));
        assert!(answers(win, &on, &Rules::BUFF_AND_GREEN, at(7, 5)));
    }
}
