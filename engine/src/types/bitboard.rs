//! Sets of squares in a padded 35-bit layout.
//!
//! Square index `s` (0..32) lives at bit `s + s / 8`, so bits 8, 17 and 26 are "ghost" columns
//! that no square uses. With the ghosts in place every diagonal step is a plain shift by 4 or 5
//! on the whole board: a piece stepping off the a- or h-file lands on a ghost bit (or off the
//! 35-bit range) and is removed by masking with [`Bitboard::ALL`]. This is the classic layout of
//! fast checkers move generators: jump detection for all pieces at once costs a few shifts.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::{Color, Square};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u64);

/// One of the four diagonal directions, named as seen from White's side of the diagram in
/// protocol.md ("Squares"; square 1 is top left). Black men move "down" (toward higher numbers).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    /// Toward lower numbers and the a-file: 10 -> 6.
    UpLeft,
    /// Toward lower numbers and the h-file: 10 -> 7.
    UpRight,
    /// Toward higher numbers and the a-file: 10 -> 14.
    DownLeft,
    /// Toward higher numbers and the h-file: 10 -> 15.
    DownRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The two directions in which men of `color` move forward.
    #[inline]
    pub const fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::Black => [Direction::DownLeft, Direction::DownRight],
            Color::White => [Direction::UpLeft, Direction::UpRight],
        }
    }

    /// The two directions in which men of `color` move backward.
    #[inline]
    pub const fn backward(color: Color) -> [Direction; 2] {
        Direction::forward(match color {
            Color::Black => Color::White,
            Color::White => Color::Black,
        })
    }

    /// The opposite direction.
    #[inline]
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        }
    }
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 playable squares (no ghost bits).
    pub const ALL: Bitboard = Bitboard(0x7_FBFD_FEFF);

    /// Black's crowning row, squares 29-32.
    pub const ROW_29_32: Bitboard = Bitboard::from_squares_const(&[28, 29, 30, 31]);
    /// White's crowning row, squares 1-4.
    pub const ROW_1_4: Bitboard = Bitboard::from_squares_const(&[0, 1, 2, 3]);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        let i = sq.index();
        Bitboard(1u64 << (i + i / 8))
    }

    const fn from_squares_const(indices: &[u8]) -> Bitboard {
        let mut bits = 0u64;
        let mut k = 0;
        while k < indices.len() {
            let i = indices[k] as u64;
            bits |= 1u64 << (i + i / 8);
            k += 1;
        }
        Bitboard(bits)
    }

    /// The row on which men of `color` are crowned.
    #[inline]
    pub const fn crowning_row(color: Color) -> Bitboard {
        match color {
            Color::Black => Bitboard::ROW_29_32,
            Color::White => Bitboard::ROW_1_4,
        }
    }

    /// The raw bits in the padded layout; stable only within one build.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// A set from raw padded-layout bits; ghost and out-of-range bits are dropped.
    #[inline]
    pub const fn from_bits(bits: u64) -> Bitboard {
        Bitboard(bits & Bitboard::ALL.0)
    }

    /// True when no square is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one square is in the set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// How many squares are in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & Bitboard::from_square(sq).0 != 0
    }

    /// True when the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The lowest-numbered square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros() as u8;
            Some(Square::from_index(bit - bit / 9))
        }
    }

    /// The lowest single-square subset (`b & -b`), empty for the empty set.
    #[inline]
    pub const fn lowest(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_neg())
    }

    /// Every square shifted one step in `dir`; squares that would leave the board vanish.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let bits = match dir {
            Direction::UpLeft => self.0 >> 5,
            Direction::UpRight => self.0 >> 4,
            Direction::DownLeft => self.0 << 4,
            Direction::DownRight => self.0 << 5,
        };
        Bitboard(bits & Bitboard::ALL.0)
    }

    /// The square of a one-square set. Meaningless for other sets.
    #[inline]
    pub const fn to_square(self) -> Square {
        let bit = self.0.trailing_zeros() as u8;
        Square::from_index(bit - bit / 9)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;

    /// The complement within the 32 playable squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: i64) -> Square {
        Square::new(n).unwrap()
    }

    fn step(n: i64, d: Direction) -> Option<u8> {
        Bitboard::from_square(sq(n))
            .shift(d)
            .first()
            .map(|s| s.number())
    }

    #[test]
    fn all_has_32_squares_and_round_trips() {
        assert_eq!(Bitboard::ALL.count(), 32);
        let squares: Vec<u8> = Bitboard::ALL.map(|s| s.number()).collect();
        assert_eq!(squares, (1..=32).collect::<Vec<u8>>());
    }

    #[test]
    fn shifts_follow_the_diagram() {
        use Direction::*;
        assert_eq!(step(10, UpLeft), Some(6));
        assert_eq!(step(10, UpRight), Some(7));
        assert_eq!(step(10, DownLeft), Some(14));
        assert_eq!(step(10, DownRight), Some(15));
        assert_eq!(step(1, DownLeft), Some(5));
        assert_eq!(step(1, DownRight), Some(6));
        // Edges: a-file and h-file squares and the first and last rows have no neighbour.
        assert_eq!(step(5, DownLeft), None);
        assert_eq!(step(5, UpLeft), None);
        assert_eq!(step(12, DownRight), None);
        assert_eq!(step(4, DownRight), None);
        assert_eq!(step(1, UpLeft), None);
        assert_eq!(step(4, UpRight), None);
        assert_eq!(step(29, DownRight), None);
        assert_eq!(step(32, DownLeft), None);
        assert_eq!(step(29, UpRight), Some(25));
        assert_eq!(step(32, UpLeft), Some(27));
        assert_eq!(step(32, UpRight), Some(28));
        assert_eq!(step(28, UpRight), None);
    }

    #[test]
    fn every_step_is_a_real_diagonal_neighbour() {
        for s in Square::ALL {
            for d in Direction::ALL {
                if let Some(t) = Bitboard::from_square(s).shift(d).first() {
                    let dr = t.row() as i32 - s.row() as i32;
                    let df = t.file() as i32 - s.file() as i32;
                    assert_eq!(dr.abs(), 1, "{s} {d:?}");
                    assert_eq!(df.abs(), 1, "{s} {d:?}");
                    assert_eq!(Bitboard::from_square(t).shift(d.reverse()).first(), Some(s));
                }
            }
        }
    }

    #[test]
    fn crowning_rows() {
        let b: Vec<u8> = Bitboard::ROW_29_32.map(|s| s.number()).collect();
        let w: Vec<u8> = Bitboard::ROW_1_4.map(|s| s.number()).collect();
        assert_eq!(b, vec![29, 30, 31, 32]);
        assert_eq!(w, vec![1, 2, 3, 4]);
    }
}
