//! Un-moves: the positions from which one quiet, non-crowning move leads to a given position.
//! These are the only moves that stay inside a material slice, so they are all the
//! retrograde analysis walks backward.

use crate::board::{has_captures, Position, Rules};
use crate::types::{Bitboard, Direction};

/// Calls `f` with every position that reaches `pos` by one quiet move that does not crown:
/// the opponent of the side to move in `pos` moved a man one step forward or a king along an
/// empty diagonal, and had no capture (captures are mandatory).
pub fn for_each_predecessor(pos: &Position, rules: &Rules, mut f: impl FnMut(&Position)) {
    for_each_predecessor_step(pos, rules, |prev, _| f(prev));
}

/// The step a predecessor made to reach the position: the squares it left and reached.
#[derive(Clone, Copy, Debug)]
pub struct BackStep {
    /// The square left and the square reached, as one set.
    pub squares: Bitboard,
    /// A king moved (else a man).
    pub king: bool,
}

/// [`for_each_predecessor`], with the step each predecessor made: a caller that knows the
/// position can then find a predecessor's board from the two squares alone.
pub fn for_each_predecessor_step(
    pos: &Position,
    rules: &Rules,
    mut f: impl FnMut(&Position, BackStep),
) {
    let mover = !pos.side_to_move();
    let empty = pos.empty();
    let mine = pos.pieces(mover);
    let other = pos.pieces(!mover);
    let kings = pos.all_kings();
    let mut emit = |from: Bitboard, to: Bitboard, king: bool| {
        let moved = mine ^ from ^ to;
        let kings = if king { kings ^ from ^ to } else { kings };
        let (black, white) = match mover {
            crate::types::Color::Black => (moved, other),
            crate::types::Color::White => (other, moved),
        };
        if let Ok(prev) = Position::new(mover, black, white, kings) {
            if !has_captures(&prev, rules) {
                f(
                    &prev,
                    BackStep {
                        squares: from | to,
                        king,
                    },
                );
            }
        }
    };
    for to in pos.men(mover) {
        let to = Bitboard::from_square(to);
        for dir in Direction::forward(mover) {
            let from = to.shift(dir.reverse()) & empty;
            if from.any() {
                emit(from, to, false);
            }
        }
    }
    for to in pos.kings(mover) {
        let to = Bitboard::from_square(to);
        for dir in Direction::ALL {
            let mut from = to.shift(dir) & empty;
            while from.any() {
                emit(from, to, true);
                if !rules.long_kings {
                    break;
                }
                from = from.shift(dir) & empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{generate_moves, MoveList};

    /// Every predecessor reaches the position by a legal quiet non-crowning move, and every
    /// such move from a listed predecessor is found.
    #[test]
    fn predecessors_match_forward_moves() {
        let fens = [
            "B:W18,K30:BK3,10",
            "W:W18,K30:BK3,10",
            "B:WK1,K32:B14,K27",
            "W:W25,22:B9,K5",
        ];
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            for fen in fens {
                let pos: Position = fen.parse().unwrap();
                let mut preds = Vec::new();
                for_each_predecessor(&pos, &rules, |p| preds.push(*p));
                // The step names the two squares that differ, and the piece that moved.
                let mover = !pos.side_to_move();
                let mut steps = 0;
                for_each_predecessor_step(&pos, &rules, |p, step| {
                    steps += 1;
                    assert_eq!(p.pieces(mover) ^ pos.pieces(mover), step.squares, "{fen}");
                    assert_eq!(p.pieces(!mover), pos.pieces(!mover), "{fen}");
                    assert_eq!((p.kings(mover) & step.squares).any(), step.king, "{fen}");
                });
                assert_eq!(steps, preds.len(), "{fen}");
                assert!(!preds.is_empty(), "{fen}");
                let mut list = MoveList::new();
                for p in &preds {
                    generate_moves(p, &rules, &mut list);
                    let hits = list
                        .iter()
                        .filter(|m| !m.is_capture() && !m.crowns())
                        .filter(|m| {
                            let mut q = *p;
                            q.play_unchecked(**m);
                            q == pos
                        })
                        .count();
                    assert_eq!(hits, 1, "{fen} from {p:?}");
                }
            }
        }
    }
}
