//! Playable squares in the standard 1-32 numbering.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Why a square number was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    /// A number outside the playable range.
    #[error("square {0} is not in 1..=32")]
    OutOfRange(i64),
    /// Text that is not a number at all.
    #[error("'{0}' is not a square number")]
    NotANumber(String),
}

/// One of the 32 dark squares, numbered 1..=32 as in English checkers.
///
/// Stored 0-based so it can index tables directly; `number()` gives the 1-based name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// All 32 squares in ascending order.
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with the given 1-based number, checked.
    pub fn new(number: i64) -> Result<Square, SquareError> {
        if (1..=32).contains(&number) {
            Ok(Square((number - 1) as u8))
        } else {
            Err(SquareError::OutOfRange(number))
        }
    }

    /// The square with 0-based index `index`; the caller guarantees `index < 32`.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 32);
        Square(index)
    }

    /// The 0-based index, 0..32.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 1-based square number used in notation, 1..=32.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Board row counted from Black's side: 0 holds squares 1-4, 7 holds 29-32.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// Board file 0..8 (a..h) of this square.
    #[inline]
    pub const fn file(self) -> u8 {
        let row = self.0 / 4;
        let pos = self.0 % 4;
        // Even rows (8th, 6th, ... rank) start on the b-file, odd rows on the a-file.
        if row.is_multiple_of(2) {
            pos * 2 + 1
        } else {
            pos * 2
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.number())
    }
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SquareError::NotANumber(s.to_string()));
        }
        let n: i64 = s
            .parse()
            .map_err(|_| SquareError::NotANumber(s.to_string()))?;
        Square::new(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for n in 1..=32 {
            assert_eq!(Square::new(n).unwrap().number() as i64, n);
        }
    }

    #[test]
    fn out_of_range_is_refused_with_exact_message() {
        assert_eq!(
            Square::new(33).unwrap_err().to_string(),
            "square 33 is not in 1..=32"
        );
        assert_eq!(
            Square::new(0).unwrap_err().to_string(),
            "square 0 is not in 1..=32"
        );
        assert_eq!(
            "x".parse::<Square>().unwrap_err().to_string(),
            "'x' is not a square number"
        );
    }

    #[test]
    fn files_match_the_diagram() {
        // 1 is b8, 4 is h8, 5 is a7, 29 is a1, 32 is g1.
        let f = |n| Square::new(n).unwrap().file();
        assert_eq!((f(1), f(4), f(5), f(8), f(29), f(32)), (1, 7, 0, 6, 0, 6));
    }
}
