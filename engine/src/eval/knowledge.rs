//! Checkers knowledge for the evaluation ([`super`]): patterns that the square values
//! cannot see because they depend on more than one piece. Each is a count (or a sign) that the
//! evaluation multiplies by one parameter of [`super::weights`], so that the fitting tool can
//! fit it like every other term.
//!
//! - runaway men: no enemy piece in the man's forward cone (the squares it could reach on its
//!   way to the crowning row), so no enemy man can stop it; against kings it may still be
//!   caught, which gets a parameter of its own;
//! - trapped kings: a king with no empty neighbouring square cannot move at all;
//! - the dog-hole: a man on the one square whose only step forward is the enemy's back-row
//!   corner, held there by an enemy piece on that corner;
//! - back-row patterns: which of its own back-row squares a side still guards (the bridge,
//!   the guards of the double corner ...), one value for each of the 16 patterns;
//! - the first king: one side has kings, the other none;
//! - "the move" (the opposition) in endings of equal numbers: the side to move has it when the
//!   pieces on its own system of squares are odd in number.

use crate::board::Position;
use crate::types::{Bitboard, Color, Direction};

/// One side's knowledge counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// Men with no enemy piece in their forward cone.
    pub runaway: i32,
    /// Kings with no empty neighbouring square.
    pub trapped_kings: i32,
    /// 1 when a man of this side is stuck in the dog-hole.
    pub dog_hole: i32,
    /// The side's men on its own back row as a 4-bit pattern in its own view (bit `i` is the
    /// man's own square index `i`, see [`super::weights::man_index`]).
    pub back_rank: usize,
}

/// The squares (own index) of a dog-hole and of the enemy corner that holds it, by colour:
/// Black's man on 28 held by a piece on 32, White's on 5 held by a piece on 1.
const DOG_HOLE: [(usize, usize); 2] = [(27, 31), (4, 0)];

/// The system of squares (rows 1-4, 9-12, 17-20, 25-28 for Black; the others for White) on
/// which the pieces are counted for "the move".
const SYSTEM: [Bitboard; 2] = [
    Bitboard::from_bits(0x0F | 0x0F << 9 | 0x0F << 18 | 0x0F << 27),
    Bitboard::from_bits(0xF0 | 0xF0 << 9 | 0xF0 << 18 | 0x0F << 31),
];

/// The set of one square index.
#[inline]
const fn bit(square: usize) -> u64 {
    1u64 << (square + square / 8)
}

/// Squares from which a man of `color` has one of `blockers` in its forward cone: the
/// blockers' backward cones, flooded step by step (a cone is at most seven rows deep).
#[inline]
fn shadow(blockers: Bitboard, color: Color) -> Bitboard {
    let [a, b] = Direction::backward(color);
    let mut s = blockers;
    for _ in 0..7 {
        let next = s | s.shift(a) | s.shift(b);
        if next == s {
            break;
        }
        s = next;
    }
    s
}

/// The back-row pattern of `men` of `color` in its own view.
#[inline]
fn back_rank(men: Bitboard, color: Color) -> usize {
    match color {
        Color::Black => (men.bits() & 0xF) as usize,
        // White's back row is squares 29-32 (bits 31-34); its own index runs from 32 down.
        Color::White => ((men.bits() >> 31) as usize & 0xF).reverse_bits() >> (usize::BITS - 4),
    }
}

/// The knowledge counts of `color` in `pos`.
#[inline]
pub fn side(pos: &Position, color: Color) -> Side {
    let men = pos.men(color);
    let kings = pos.kings(color);
    let enemy = pos.pieces(!color);
    let empty = pos.empty();
    let runaway = (men & !shadow(enemy, color)).count() as i32;
    let free = Direction::ALL
        .iter()
        .fold(Bitboard::EMPTY, |acc, &d| acc | empty.shift(d));
    let trapped_kings = (kings & !free).count() as i32;
    let (hole, corner) = DOG_HOLE[color.index()];
    let dog_hole = i32::from(men.bits() & bit(hole) != 0 && enemy.bits() & bit(corner) != 0);
    Side {
        runaway,
        trapped_kings,
        dog_hole,
        back_rank: back_rank(men, color),
    }
}

/// "The move" for the side to move when both sides have as many pieces: +1 when the pieces
/// on its system of squares are odd in number, -1 when even; 0 when the numbers differ.
#[inline]
pub fn the_move(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    if pos.pieces(me).count() != pos.pieces(!me).count() {
        return 0;
    }
    if (pos.occupied() & SYSTEM[me.index()]).count() % 2 == 1 {
        1
    } else {
        -1
    }
}

/// +1 when the side to move has kings and the other side none, -1 the other way round.
#[inline]
pub fn first_king(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    i32::from(pos.kings(me).any()) - i32::from(pos.kings(!me).any())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    /// A term of both sides of the position `fen`: Black's, then White's.
    fn both<T>(fen: &str, term: impl Fn(&Side) -> T) -> (T, T) {
        let pos = fen::parse(fen).unwrap();
        let of = |c| term(&side(&pos, c));
        (of(Color::Black), of(Color::White))
    }

    #[test]
    fn runaway_men_have_no_enemy_piece_in_their_cone() {
        // Black man on 14 (c5): White's man on 27 (f2) is in its cone, the ones on 24 (g3)
        // and 28 (h2) are not (they can never come in front of it). Black's 14 is in the cone
        // of White's 27, not in those of 24 and 28.
        assert_eq!(both("W:W24,27:B14", |s| s.runaway), (0, 1));
        assert_eq!(both("W:W24,28:B14", |s| s.runaway), (1, 2));
        // A king counts as a blocker too.
        assert_eq!(both("W:WK30:B14", |s| s.runaway).0, 0);
    }

    #[test]
    fn trapped_kings_dog_holes_and_patterns() {
        // White's king on 32 (two neighbours, 27 and 28) boxed in by Black's men.
        assert_eq!(both("W:WK32:B27,28", |s| s.trapped_kings).1, 1);
        assert_eq!(both("W:WK32:B27", |s| s.trapped_kings).1, 0);
        // Black's man on 28 held by White on 32; White's on 5 held by Black on 1.
        assert_eq!(both("W:W5,32:B1,28", |s| s.dog_hole), (1, 1));
        assert_eq!(both("W:W5:B28", |s| s.dog_hole), (0, 0));
        // Back rows in the own view: Black's 1 and 3 (the bridge), White's 32 and 30.
        assert_eq!(both("W:W30,32:B1,3", |s| s.back_rank), (0b0101, 0b0101));
        let start = crate::board::fen::write(&Position::startpos());
        assert_eq!(both(&start, |s| s.back_rank), (0b1111, 0b1111));
        assert_eq!(both("W:W29:B4", |s| s.back_rank), (0b1000, 0b1000));
    }

    #[test]
    fn the_move_and_the_first_king() {
        // One piece each, Black to move: Black's system holds the piece on 2 (odd).
        let pos = fen::parse("B:W21:B2").unwrap();
        assert_eq!(the_move(&pos), 1);
        // White to move: White's system (5-8, 13-16, 21-24, 29-32) holds 21 (odd).
        assert_eq!(the_move(&pos.with_side_to_move(Color::White)), 1);
        let pos = fen::parse("B:W17:B2").unwrap();
        // Both pieces on Black's system: even, Black to move has not the move.
        assert_eq!(the_move(&pos), -1);
        let pos = fen::parse("B:W17,18:B2").unwrap();
        assert_eq!(the_move(&pos), 0);
        let pos = fen::parse("B:WK17:B2").unwrap();
        assert_eq!(first_king(&pos), -1);
        assert_eq!(first_king(&pos.with_side_to_move(Color::White)), 1);
        assert_eq!(first_king(&Position::startpos()), 0);
    }
}
