//! How a table counts toward a draw: the no-progress clock (Buff and Green, English), or the
//! material rules of Russian and Brazilian draughts ([`DrawRules::Russian`], read from
//! [`DrawCount`] so that the rules live in one place).
//!
//! A family table holds one entry per position, read at the game's material count `c` with a
//! draw rule of [`MAX_DISTANCE`]: `win d` or `loss d` holds iff `d <= 127 - c`. A position
//! under a material rule of limit `L` is drawn once `c >= L`, so its entry is at least
//! `128 - L` (its floor); a move that restarts the count costs 1 ply, any other `d' + 1`.
//! The one exception is Russian 7.2.7, whose second counter (plies of a lone king on the long
//! diagonal) a single entry cannot hold: its slices are solved over that counter too and
//! store the value at the counter a move into the position leaves when it was 0 before (see
//! [`stored_diagonal`]); docs/tablebase.md says the rest.

use crate::board::{lone_on_diagonal, material_limit, DrawCount, DrawRules, Position, Rules};
use crate::tablebase::solve::MAX_DISTANCE;
use crate::tablebase::{Material, Value};
use crate::types::Move;

/// The diagonal count from which 7.2.7 turns into 7.2.8 (lidraughts' 10 plies): the layers
/// of a 7.2.7 slice are the counts 0 to this, the last standing for every count beyond.
pub const DIAGONAL_LAYERS: u8 = 10;

/// True when tables under `rules` count the family's material rules instead of a clock.
#[inline]
pub fn counts_material(rules: &Rules) -> bool {
    rules.draws == DrawRules::Russian
}

/// The draw rule an entry is read with at a count or clock (see [`crate::tablebase::Value::at_clock`]).
#[inline]
pub fn draw_rule(rules: &Rules) -> u32 {
    if counts_material(rules) {
        MAX_DISTANCE
    } else {
        rules.draw_half_moves
    }
}

/// The least distance an entry of `pos` holds with `diagonal` plies counted for 7.2.7: a
/// position drawn from count `L` on wins or loses only within `127 - (L - 1)`. 0 without a
/// material rule (and always under the clock).
#[inline]
pub fn floor(pos: &Position, rules: &Rules, diagonal: u8) -> u32 {
    if !counts_material(rules) {
        return 0;
    }
    material_limit(pos, diagonal).map_or(0, |limit| (MAX_DISTANCE + 1).saturating_sub(limit))
}

/// True when `mv` (played in `pos`, giving `next`, with `diagonal` plies counted for 7.2.7)
/// restarts what the table counts: under the clock a capture or crowning; under the
/// material rules a capture or crowning after which [`DrawCount::after`] starts the count
/// again. A quiet move never does: inside a slice without a material rule the count stays
/// 0 anyway, and the entries there count the plies to the conversion as under the clock.
#[inline]
pub fn restarts(pos: &Position, mv: Move, next: &Position, rules: &Rules, diagonal: u8) -> bool {
    let zeroing = mv.is_capture() || mv.crowns();
    if !zeroing || !counts_material(rules) {
        return zeroing;
    }
    DrawCount::counted(0, diagonal).restarts(pos, mv, next, rules)
}

/// True for a slice of Russian 7.2.7: a lone king against three pieces with a king.
pub fn layered(material: Material, rules: &Rules) -> bool {
    if !counts_material(rules) || material.pieces() != 4 {
        return false;
    }
    let lone = |men: u8, kings: u8| men == 0 && kings == 1;
    let strong = |men: u8, kings: u8| men + kings == 3 && kings >= 1;
    let m = material;
    lone(m.bm, m.bk) && strong(m.wm, m.wk) || lone(m.wm, m.wk) && strong(m.bm, m.bk)
}

/// The 7.2.7 diagonal count a stored entry of `pos` is for: the count a move into `pos`
/// leaves when it was 0 before (every slice that moves into a 7.2.7 slice has it at 0), so 1
/// when the lone king stands on the long diagonal, else 0.
#[inline]
pub fn stored_diagonal(pos: &Position, rules: &Rules) -> u8 {
    u8::from(counts_material(rules) && lone_on_diagonal(pos))
}

/// The count a table entry of `pos` is read at, for a game at no-progress clock `clock`
/// with the family's counters `draws`: the clock, or under the material rules the count;
/// `None` when the entry does not hold the answer (a 7.2.7 position with a diagonal count
/// other than the stored one, see [`stored_diagonal`]): the caller searches instead.
#[inline]
pub fn table_count(pos: &Position, rules: &Rules, clock: u32, draws: DrawCount) -> Option<u32> {
    if !counts_material(rules) {
        return Some(clock);
    }
    let material = crate::tablebase::material::Masks::of(pos);
    let layered = layered(Material::of(&material), rules);
    (!layered || draws.diagonal() == u32::from(stored_diagonal(pos, rules))).then(|| draws.count())
}

/// What `tb probe` adds to a family table's value of `pos` (stored entry `stored`): the
/// last count at which a win or loss holds (its distance is a floor-raised
/// count of plies, not plies to the conversion), and for a 7.2.7 position the diagonal
/// count the entry is for. Empty under the clock.
pub fn describe(stored: Value, pos: &Position, rules: &Rules) -> String {
    if !counts_material(rules) {
        return String::new();
    }
    let mut out = String::new();
    if let Value::Win(d @ 1..) | Value::Loss(d @ 1..) = stored {
        let last = MAX_DISTANCE - d;
        out.push_str(&format!(
            " (holds while the material count is at most {last})"
        ));
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
