//! Captures under the 8x8 family's rules (Pool, Russian, Brazilian): captured pieces stay on
//! the board, blocking, until the move ends, so none is jumped twice; a flying king lands on
//! any empty square beyond the piece it takes and, where a landing square lets it capture
//! again, must take one that does; a man crowns as [`Crowning`] says; under the majority rule
//! only the captures taking the most pieces are legal. Moves with the same start, end and
//! captured pieces are one move (the federations do not tell a king's routes apart).
//!
//! Quiet moves and the question "must this side capture" are Buff and Green's (men capture
//! backward, kings fly; the first jump is the same under both), so the bitboard generator
//! answers them; only the capture sequences are walked here, at run time: the family is
//! played by the search's generator calls, not by perft's tight loops. This module's
//! [`generate_moves`] and [`count_moves`] are the board's: they hand the other rule sets to
//! `movegen`.

use crate::board::movegen::{self, capture_squares, slide, MoveList};
use crate::board::{Crowning, Position, Rules};
use crate::types::{Bitboard, Color, Direction, Move, Square};

/// One capture sequence in progress.
struct Walk<'a> {
    from: Square,
    side: Color,
    rules: &'a Rules,
    /// The mover started as a man.
    man: bool,
    /// Every piece but the mover; captured pieces stay in it until the move ends.
    occ: Bitboard,
}

impl Walk<'_> {
    /// True when a piece on `at` (a king when `king`) can jump one of `enemy` (the enemies
    /// not yet captured).
    fn can_jump(&self, at: Bitboard, king: bool, enemy: Bitboard) -> bool {
        Direction::ALL.into_iter().any(|dir| {
            let over = if king {
                slide(dir, at.to_square(), self.occ).1 & enemy
            } else {
                at.shift(dir) & enemy
            };
            (over.shift(dir) & !self.occ).any()
        })
    }

    /// Continues the sequence from `at`; adds the move to `out` when no jump remains.
    #[allow(clippy::too_many_arguments)]
    fn jumps(
        &self,
        out: &mut MoveList,
        at: Bitboard,
        king: bool,
        enemy: Bitboard,
        path: u64,
        len: usize,
        captured: Bitboard,
    ) {
        let crown_row = Bitboard::crowning_row(self.side);
        let mut found = false;
        for dir in Direction::ALL {
            let over = if king {
                slide(dir, at.to_square(), self.occ).1 & enemy
            } else {
                at.shift(dir) & enemy
            };
            if over.is_empty() {
                continue;
            }
            let landings = if king {
                slide(dir, over.to_square(), self.occ).0
            } else {
                over.shift(dir) & !self.occ
            };
            if landings.is_empty() {
                continue;
            }
            found = true;
            let enemy = enemy ^ over;
            let captured = captured | over;
            let king_at = |land: Bitboard| {
                king || (self.rules.crowning == Crowning::AtOnce && land.intersects(crown_row))
            };
            // A king that can capture again from some landing square must land on one.
            let go_on = landings
                .into_iter()
                .map(Bitboard::from_square)
                .filter(|&land| self.can_jump(land, king_at(land), enemy))
                .fold(Bitboard::EMPTY, |a, b| a | b);
            let choices = if go_on.any() { go_on } else { landings };
            for land in choices {
                let bit = Bitboard::from_square(land);
                let next = Move::push_path(path, len, land);
                self.jumps(out, bit, king_at(bit), enemy, next, len + 1, captured);
            }
        }
        if !found && len > 0 {
            // Crowned at once (it is a king now) or where the move ends.
            let crowns = self.man && (king || at.intersects(crown_row));
            out.push(Move::capture(
                self.from,
                path,
                len as u8,
                at.to_square(),
                captured,
                crowns,
            ));
        }
    }
}

/// Fills `list` (cleared first) with every legal move of `pos` under `rules`.
pub fn generate_moves(pos: &Position, rules: &Rules, list: &mut MoveList) {
    if rules.remove_at_end {
        generate(pos, rules, list);
    } else {
        movegen::generate_moves(pos, rules, list);
    }
}

/// The number of legal moves, counted without building them where possible (perft's last
/// ply; the family builds them).
pub fn count_moves(pos: &Position, rules: &Rules) -> u64 {
    if rules.remove_at_end {
        let mut list = MoveList::new();
        generate(pos, rules, &mut list);
        list.len() as u64
    } else {
        movegen::count_moves(pos, rules)
    }
}

impl Position {
    /// Plays `mv` if it is one of this position's legal moves under `rules`.
    pub fn play_checked(&self, mv: Move, rules: &Rules) -> Option<Position> {
        let mut list = MoveList::new();
        generate_moves(self, rules, &mut list);
        if list.iter().any(|m| *m == mv) {
            let mut next = *self;
            next.play_unchecked(mv);
            Some(next)
        } else {
            None
        }
    }
}

/// Every legal move of `pos` under the family's `rules` (a rule set with `remove_at_end`).
fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
    let side = pos.side_to_move();
    let (men, kings) = (pos.men(side), pos.kings(side));
    let enemy = pos.pieces(!side);
    let (men_at, kings_at) =
        capture_squares(side, enemy, pos.empty(), true, &Rules::BUFF_AND_GREEN);
    let (men_cap, kings_cap) = (men_at & men, kings_at & kings);
    if men_cap.is_empty() && kings_cap.is_empty() {
        // No capture: the quiet moves are Buff and Green's.
        movegen::generate_moves(pos, &Rules::BUFF_AND_GREEN, list);
        return;
    }
    list.clear();
    for (pieces, king) in [(men_cap, false), (kings_cap, true)] {
        for from in pieces {
            let bit = Bitboard::from_square(from);
            let walk = Walk {
                from,
                side,
                rules,
                man: !king,
                occ: pos.occupied() ^ bit,
            };
            let start = list.len();
            let mut found = MoveList::new();
            walk.jumps(&mut found, bit, king, enemy, 0, 0, Bitboard::EMPTY);
            for &mv in found.iter() {
                let same = |m: &Move| {
                    m.from() == mv.from() && m.to() == mv.to() && m.captured() == mv.captured()
                };
                if !list.as_slice()[start..].iter().any(same) {
                    list.push(mv);
                }
            }
        }
    }
    if rules.majority {
        let most = list.iter().map(|m| m.captured().count()).max().unwrap_or(0);
        list.retain(|m| m.captured().count() == most);
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{fen, Position, Variant};
    use crate::tools::perft::perft;

    /// Perft from the start (depths 1-7) and from the Russian position two open
    /// implementations count differently (121 or 122 at depth 4; pydraughts and these rules
    /// say 121, docs/rules-8x8.md).
    #[test]
    fn perft_counts_are_exact() {
        let table: [(Variant, [u64; 7]); 3] = [
            (Variant::Pool, [7, 49, 302, 1469, 7482, 37986, 190146]),
            (Variant::Russian, [7, 49, 302, 1469, 7482, 37986, 190146]),
            (Variant::Brazilian, [7, 49, 302, 1469, 7473, 37628, 187302]),
        ];
        for (variant, counts) in table {
            let rules = variant.rules();
            for (depth, &n) in (1..).zip(counts.iter()) {
                assert_eq!(
                    perft(&Position::start(&rules), &rules, depth),
                    n,
                    "{variant:?}"
                );
            }
        }
        let pos = fen::parse("W:W18,19,20,21,22:B2,7,9,12,14").unwrap();
        let counts: Vec<u64> = (1..=4)
            .map(|d| perft(&pos, &Variant::Russian.rules(), d))
            .collect();
        assert_eq!(counts, [6, 14, 49, 121]);
    }
}
