//! Un-moves: the positions from which one quiet, non-crowning move leads to a given position.
//! These are the only moves that stay inside a material slice, so they are all the
//! retrograde analysis walks backward.

use crate::board::{capture_blockers, capture_squares, has_captures, Position, Rules};
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
    let (men, kings) = (pos.men(mover), pos.kings(mover));
    let all_kings = pos.all_kings();
    // A predecessor differs from `pos` by one piece of the mover. Put back on its square, that
    // piece can only take captures away from the others (it blocks, it is never taken), and
    // takes exactly those whose squares it stands on: the others' captures, and the squares
    // from which the piece itself would capture, can be asked once for each piece that moved.
    // That pays under flying kings, where a king comes back from many squares; with short
    // moves a piece has few, and asking each predecessor is as fast.
    let mut emit = |from: Bitboard, to: Bitboard, king: bool, free: &Option<Free>| {
        if let Some(free) = free {
            if free
                .others
                .is_some_and(|blockers| !blockers.intersects(from))
                || free.captures_from.intersects(from)
            {
                return;
            }
        }
        let moved = mine ^ from ^ to;
        let all_kings = if king {
            all_kings ^ from ^ to
        } else {
            all_kings
        };
        let (black, white) = match mover {
            crate::types::Color::Black => (moved, other),
            crate::types::Color::White => (other, moved),
        };
        if let Ok(prev) = Position::new(mover, black, white, all_kings) {
            if free.is_none() && has_captures(&prev, rules) {
                return;
            }
            f(
                &prev,
                BackStep {
                    squares: from | to,
                    king,
                },
            );
        }
    };
    let per_piece = rules.long_kings;
    let has_kings = kings.any();
    // The capture test's answers for the piece on `to` put back: `men` and `kings` are the
    // mover's other pieces.
    let free_of = |to: Bitboard, king: bool, men: Bitboard, kings: Bitboard| {
        per_piece.then(|| {
            let e = empty | to;
            let (men_at, kings_at) = capture_squares(mover, other, e, has_kings, rules);
            Free {
                others: capture_blockers(mover, men & men_at, kings & kings_at, other, e, rules),
                captures_from: if king { kings_at } else { men_at },
            }
        })
    };
    for to in men {
        let to = Bitboard::from_square(to);
        let free = free_of(to, false, men ^ to, kings);
        for dir in Direction::forward(mover) {
            let from = to.shift(dir.reverse()) & empty;
            if from.any() {
                emit(from, to, false, &free);
            }
        }
    }
    for to in kings {
        let to = Bitboard::from_square(to);
        let free = free_of(to, true, men, kings ^ to);
        for dir in Direction::ALL {
            let mut from = to.shift(dir) & empty;
            while from.any() {
                emit(from, to, true, &free);
                if !rules.long_kings {
                    break;
                }
                from = from.shift(dir) & empty;
            }
        }
    }
}

/// What decides, for one piece of the mover put back, which of its squares leave the mover
/// without a capture.
struct Free {
    /// The other pieces' capture blockers ([`capture_blockers`]), `None` when they have none.
    others: Option<Bitboard>,
    /// The squares from which the piece itself would capture.
    captures_from: Bitboard,
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
    /// The predecessors agree with the plain definition (every un-step of the mover, a
    /// position built for each and kept when it has no capture) on positions of random games.
    #[test]
    fn predecessors_match_the_plain_definition() {
        let mut total = 0;
        for rules in Rules::ALL {
            for pos in crate::board::random_positions(&rules, 20) {
                let mut fast = Vec::new();
                for_each_predecessor(&pos, &rules, |p| fast.push(*p));
                let mover = !pos.side_to_move();
                let mut plain = Vec::new();
                let mut add = |from: Bitboard, to: Bitboard, king: bool| {
                    let moved = pos.pieces(mover) ^ from ^ to;
                    let kings = if king {
                        pos.all_kings() ^ from ^ to
                    } else {
                        pos.all_kings()
                    };
                    let (black, white) = match mover {
                        crate::types::Color::Black => (moved, pos.pieces(!mover)),
                        crate::types::Color::White => (pos.pieces(!mover), moved),
                    };
                    if let Ok(p) = Position::new(mover, black, white, kings) {
                        if !has_captures(&p, &rules) {
                            plain.push(p);
                        }
                    }
                };
                for to in pos.men(mover) {
                    let to = Bitboard::from_square(to);
                    for dir in Direction::forward(mover) {
                        let from = to.shift(dir.reverse()) & pos.empty();
                        if from.any() {
                            add(from, to, false);
                        }
                    }
                }
                for to in pos.kings(mover) {
                    let to = Bitboard::from_square(to);
                    for dir in Direction::ALL {
                        let mut from = to.shift(dir) & pos.empty();
                        while from.any() {
                            add(from, to, true);
                            if !rules.long_kings {
                                break;
                            }
                            from = from.shift(dir) & pos.empty();
                        }
                    }
                }
                assert_eq!(fast, plain, "{pos:?}");
                total += fast.len();
            }
        }
        assert!(total > 10_000, "{total}");
    }
}
