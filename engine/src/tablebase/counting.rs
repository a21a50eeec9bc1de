//! How a table counts toward a draw: the no-progress clock (Buff and Green, English), or the
//! material rules of Russian and Brazilian draughts ([`DrawRules::Russian`]) and Pool's 13
//! moves of three kings against one ([`DrawRules::Pool`]), read from [`DrawCount`] so that
//! the rules live in one place.
//!
//! A family table holds one entry per position, read at the game's material count `c` with a
//! draw rule of [`MAX_DISTANCE`]: `win d` or `loss d` holds iff `d <= 127 - c`. A position
//! under a material rule of limit `L` is drawn once `c >= L`, so its entry is at least
//! `128 - L` (its floor); a move that restarts the count costs 1 ply, any other `d' + 1`.
//! The one exception is Russian 7.2.7, whose second counter (plies of a lone king on the long
//! diagonal) a single entry cannot hold: its slices are solved over that counter too and
//! store the value at the counter a move into the position leaves when it was 0 before (see
//! [`stored_diagonal`]); docs/tablebase.md says the rest.
//!
//! Pool's rule counts the moves of the three kings, where the entries count plies: the
//! tables hold it as a material rule in plies whose limit depends on the side to move
//! ([`pool_limit`]), and read a game's count of moves at twice as many plies
//! ([`table_count`]).

use crate::board::{
    lone_on_diagonal, material_limit, pool_limit, DrawCount, DrawRules, Position, Rules,
};
use crate::tablebase::Material;
use crate::types::Move;

/// The diagonal count from which 7.2.7 turns into 7.2.8 (lidraughts' 10 plies): the layers
/// of a 7.2.7 slice are the counts 0 to this, the last standing for every count beyond.
pub const DIAGONAL_LAYERS: u8 = 10;

/// The largest distance an entry can hold, and the draw rule a family table's entries are
/// read with (re-exported by `solve`, which says what an entry means).
pub const MAX_DISTANCE: u32 = 127;

/// True when tables under `rules` count the family's material rules instead of a clock.
#[inline]
pub fn counts_material(rules: &Rules) -> bool {
    rules.draws != DrawRules::HalfMoves
}

/// True under Russian and Brazilian rules, whose 7.2.7 has the second counter.
#[inline]
fn counts_diagonal(rules: &Rules) -> bool {
    rules.draws == DrawRules::Russian
}

/// The draw rule an entry is read with at a count or clock (see
/// [`crate::tablebase::Value::at_clock`]).
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
/// material rule (and always under the clock). Pool's limit is in plies and depends on the
/// side to move ([`pool_limit`]); `diagonal` plays no part there.
#[inline]
pub fn floor(pos: &Position, rules: &Rules, diagonal: u8) -> u32 {
    let limit = match rules.draws {
        DrawRules::HalfMoves => None,
        DrawRules::Russian => material_limit(pos, diagonal),
        DrawRules::Pool => pool_limit(pos),
    };
    limit.map_or(0, |limit| (MAX_DISTANCE + 1).saturating_sub(limit))
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
    if !counts_diagonal(rules) || material.pieces() != 4 {
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
    u8::from(counts_diagonal(rules) && lone_on_diagonal(pos))
}

/// The count a table entry is read at, for a game at no-progress clock `clock` with the
/// family's counters `draws`: the clock, under Russian and Brazilian rules the count, and
/// under Pool's the plies that stand for the three kings' moves counted (twice as many: see
/// [`pool_limit`]; the count is 0 wherever the rule does not apply).
#[inline]
pub fn table_count(rules: &Rules, clock: u32, draws: DrawCount) -> u32 {
    match rules.draws {
        DrawRules::HalfMoves => clock,
        DrawRules::Russian => draws.count(),
        DrawRules::Pool => draws.count().saturating_mul(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fen, notation, Variant};

    fn russian() -> Rules {
        Rules {
            draw_half_moves: 0,
            ..Variant::Russian.rules()
        }
    }

    #[test]
    fn floors_follow_the_material_rules() {
        let rules = russian();
        let floor = |f: &str, d: u8| floor(&fen::parse(f).expect("fen"), &rules, d);
        // 7.2.8: 10 plies; 7.2.4: 30; 7.2.7 on the long diagonal: 30, then 10.
        assert_eq!(floor("W:WK5,K6:BK32", 0), 118);
        assert_eq!(floor("W:WK1,K2,K3:BK32", 0), 98);
        assert_eq!(floor("W:WK1,K2,K3:BK15", 9), 98);
        assert_eq!(floor("W:WK1,K2,K3:BK15", 10), 118);
        // 7.2.6 with 4 pieces: 60; no king on one side: no rule.
        assert_eq!(floor("W:WK1,K2:BK31,K32", 0), 68);
        assert_eq!(floor("W:W21,22:BK1", 0), 0);
        assert_eq!(floor("W:WK5,K6:BK32", 0), 118);
        assert_eq!(
            super::floor(
                &fen::parse("W:WK5:BK32").expect("fen"),
                &Rules::BUFF_AND_GREEN,
                0
            ),
            0
        );
    }

    #[test]
    fn pool_counts_the_three_kings_moves_in_plies() {
        let rules = Rules {
            draw_half_moves: 0,
            ..Variant::Pool.rules()
        };
        let floor = |f: &str| floor(&fen::parse(f).expect("fen"), &rules, 0);
        // The three kings' 13th move comes by the 26th ply with them to move, by the 25th
        // with the lone king to move.
        assert_eq!(floor("W:WK1,K2,K3:BK32"), 102);
        assert_eq!(floor("B:WK1,K2,K3:BK32"), 103);
        assert_eq!(floor("B:WK1,K2,K3:BK15"), 103);
        // No rule with other forces (Russian's 7.2.8 and 7.2.6 are not Pool's).
        assert_eq!(floor("W:WK5,K6:BK32"), 0);
        assert_eq!(floor("W:WK1,K2:BK31,K32"), 0);
        assert_eq!(floor("W:WK1,K2,14:BK32"), 0);
        // A game's count of moves is read at twice as many plies; no diagonal count.
        let draws = DrawCount::counted(7, 0);
        assert_eq!(table_count(&rules, 40, draws), 14);
        assert_eq!(table_count(&russian(), 40, draws), 7);
        let kkk = Material {
            bm: 0,
            bk: 1,
            wm: 0,
            wk: 3,
        };
        assert!(!layered(kkk, &rules));
        assert!(layered(kkk, &russian()));
        let on = fen::parse("W:WK1,K2,K3:BK15").expect("fen");
        assert_eq!(stored_diagonal(&on, &rules), 0);
        assert_eq!(stored_diagonal(&on, &russian()), 1);
    }

    #[test]
    fn a_capture_down_to_two_kings_does_not_restart_the_short_count() {
        let rules = russian();
        // The lone king on 32 takes the man on 28... and White's king on 5 is left against it.
        let pos = fen::parse("B:WK5,27:BK32").expect("fen");
        let mv = notation::parse_move(&pos, &rules, "32x23").expect("move");
        let mut next = pos;
        next.play_unchecked(mv);
        assert!(!restarts(&pos, mv, &next, &rules, 0));
        assert!(restarts(&pos, mv, &next, &Rules::BUFF_AND_GREEN, 0));
    }
}
