//! A shallow alpha-beta search with capture quiescence, to value a UCT leaf instead of a cut
//! random playout (a UCT-minimax hybrid, Baier and Winands' MCTS-IR-M).
//!
//! Checkers has forced captures, so the move generator returns only captures when one exists:
//! captures come first by the rules, and quiet plies are all that is left to order. Every ply
//! plays into its own move list from a caller's pool, so nothing is allocated per call.

use crate::board::{generate_moves, MoveList, Position, Rules};
use crate::search::eval;

/// The score of a side to move that has no legal move and has lost (beyond any evaluation,
/// in the evaluation's units), less the plies to it so that a nearer loss is worse.
pub const LOST: i32 = -30_000;

/// Move lists a [`search`] of `depth` plies needs: one per ply, plus the quiescence's.
pub const fn lists_for(depth: u32) -> usize {
    depth as usize + eval::CAPTURE_LOOKAHEAD
}

/// The negamax value of `pos` for its side to move, searched `depth` plies deep (captures
/// count as plies) with fail-hard alpha-beta in `alpha..beta`, each horizon position valued
/// by [`eval::quiescent`] (pending captures played out). A side with no legal move has lost
/// (won under `losing`). `lists` holds at least [`lists_for`]`(depth)` move lists; with fewer
/// the horizon comes earlier.
pub fn search(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    lists: &mut [MoveList],
) -> i32 {
    if depth == 0 {
        return eval::quiescent(pos, rules, lists);
    }
    let Some((list, deeper)) = lists.split_first_mut() else {
        return eval::evaluate(pos, rules);
    };
    generate_moves(pos, rules, list);
    if list.is_empty() {
        let lost = LOST + 1_000 - depth as i32;
        return if rules.losing { -lost } else { lost };
    }
    for &mv in list.iter() {
        let mut after = *pos;
        after.play_unchecked(mv);
        let value = -search(&after, rules, depth - 1, -beta, -alpha, deeper);
        if value > alpha {
            alpha = value;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// [`search`] with a full window.
pub fn value(pos: &Position, rules: &Rules, depth: u32, lists: &mut [MoveList]) -> i32 {
    search(pos, rules, depth, -i32::MAX, i32::MAX, lists)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    fn pool() -> Vec<MoveList> {
        (0..lists_for(3)).map(|_| MoveList::new()).collect()
    }

    /// Full-window negamax without pruning, for comparison.
    fn negamax(pos: &Position, rules: &Rules, depth: u32, lists: &mut [MoveList]) -> i32 {
        if depth == 0 {
            return eval::quiescent(pos, rules, lists);
        }
        let mut moves = MoveList::new();
        generate_moves(pos, rules, &mut moves);
        if moves.is_empty() {
            return LOST + 1_000 - depth as i32;
        }
        moves
            .iter()
            .map(|&m| {
                let mut after = *pos;
                after.play_unchecked(m);
                -negamax(&after, rules, depth - 1, &mut lists[1..])
            })
            .max()
            .unwrap()
    }

    #[test]
    fn depth_zero_is_the_quiescent_evaluation() {
        let rules = Rules::default();
        let pos = fen::parse("B:W18,27:B14").unwrap();
        let mut lists = pool();
        let q = eval::quiescent(&pos, &rules, &mut lists);
        assert_eq!(value(&pos, &rules, 0, &mut lists), q);
    }

    /// English rules, White to move: 26-23 gives a man (Black must take it, 19x26 or 18x27)
    /// and the triple jump back (31x22x15x8 or 31x24x15x8) wins three. One ply and the
    /// captures find it: worth the position after the shot, which the quiescent evaluation
    /// of the position as it stands (no capture pending) cannot see.
    #[test]
    fn one_ply_and_the_captures_find_a_shot() {
        let rules = Rules::ENGLISH;
        let pos = fen::parse("W:W20,26,29,31,32:B6,11,18,19").unwrap();
        let mut lists = pool();
        let after_shot = fen::parse("B:W8,20,29,32:B6").unwrap();
        let shot = -eval::evaluate(&after_shot, &rules);
        assert!(shot > 2 * eval::MAN, "{shot}");
        assert_eq!(value(&pos, &rules, 1, &mut lists), shot);
        assert!(eval::quiescent(&pos, &rules, &mut lists) < shot - eval::MAN);
        // The shot is the one move worth it.
        let mut moves = MoveList::new();
        generate_moves(&pos, &rules, &mut moves);
        let best: Vec<String> = moves
            .iter()
            .filter(|&&m| {
                let mut after = pos;
                after.play_unchecked(m);
                -value(&after, &rules, 0, &mut lists) == shot
            })
            .map(|m| m.to_string())
            .collect();
        assert_eq!(best, ["26-23"]);
        // Deeper, Black has nothing better at this horizon.
        assert_eq!(value(&pos, &rules, 2, &mut lists), shot);
    }

    #[test]
    fn a_side_without_a_move_has_lost_the_sooner_the_worse() {
        let rules = Rules::ENGLISH;
        let stuck = fen::parse("B:W18:B").unwrap();
        let mut lists = pool();
        assert_eq!(value(&stuck, &rules, 1, &mut lists), LOST + 999);
        assert_eq!(value(&stuck, &rules, 3, &mut lists), LOST + 997);
        // Under losing checkers the stuck side has won.
        let losing = Rules {
            losing: true,
            ..rules
        };
        assert_eq!(value(&stuck, &losing, 2, &mut lists), -(LOST + 998));
    }

    #[test]
    fn alpha_beta_agrees_with_plain_negamax() {
        let fens = [
            "W:W18,19,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12",
            "W:W22,25,29,30,31,32:B1,2,3,18,10",
            "B:W9,K14,20,31:B1,3,K22,26",
            "W:WK5,K14,K19,K23:BK28,K32",
        ];
        let mut lists = pool();
        let mut plain = pool();
        for text in fens {
            let pos = fen::parse(text).unwrap();
            for rules in [Rules::default(), Rules::ENGLISH] {
                for depth in 0..=3 {
                    assert_eq!(
                        value(&pos, &rules, depth, &mut lists),
                        negamax(&pos, &rules, depth, &mut plain),
                        "{text} depth {depth}"
                    );
                }
            }
        }
    }
}
