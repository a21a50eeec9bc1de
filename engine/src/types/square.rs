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
    /// An algebraic square that names a light square, where no piece ever stands.
    #[error("'{0}' is a light square: pieces stand on the dark squares (a1, b2, ..., h8)")]
    LightSquare(String),
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

impl Square {
    /// The algebraic name (`b8` for square 1, `g1` for 32, as in the diagram of the rules).
    pub fn algebraic(self) -> String {
        let file = (b'a' + self.file()) as char;
        let rank = (b'8' - self.row()) as char;
        format!("{file}{rank}")
    }

    /// Reads an algebraic square (`d6`, `D6`): a file a-h and a rank 1-8 naming a dark square.
    /// Anything else is refused; a light square with its own error.
    pub fn from_algebraic(text: &str) -> Result<Square, SquareError> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_alphabetic() {
            return Err(SquareError::NotANumber(text.to_string()));
        }
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&b[1]) {
            return Err(SquareError::NotANumber(text.to_string()));
        }
        let (file, row) = (file - b'a', b'8' - b[1]);
        // Dark squares: even rows (rank 8, 6, ...) hold files b, d, f, h; odd rows a, c, e, g.
        if file % 2 == row % 2 {
            return Err(SquareError::LightSquare(text.to_string()));
        }
        Ok(Square(row * 4 + file / 2))
    }

    /// True when `text` has the shape of an algebraic square (a letter a-h and a digit 1-8,
    /// either case), dark or light.
    pub fn looks_algebraic(text: &str) -> bool {
        let b = text.as_bytes();
        b.len() == 2
            && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
            && (b'1'..=b'8').contains(&b[1])
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
    fn algebraic_names_round_trip_and_match_the_diagram() {
        let names: Vec<String> = Square::ALL.iter().map(|s| s.algebraic()).collect();
        assert_eq!(&names[..5], ["b8", "d8", "f8", "h8", "a7"]);
        assert_eq!(&names[9..14], ["d6", "f6", "h6", "a5", "c5"]);
        assert_eq!(&names[28..], ["a1", "c1", "e1", "g1"]);
        for sq in Square::ALL {
            assert_eq!(Square::from_algebraic(&sq.algebraic()), Ok(sq));
            assert_eq!(
                Square::from_algebraic(&sq.algebraic().to_uppercase()),
                Ok(sq)
            );
        }
        assert_eq!(
            Square::from_algebraic("a8").unwrap_err().to_string(),
            "'a8' is a light square: pieces stand on the dark squares (a1, b2, ..., h8)"
        );
        for bad in ["i1", "a9", "a0", "b", "b88", "8b", ""] {
            assert_eq!(
                Square::from_algebraic(bad),
                Err(SquareError::NotANumber(bad.to_string()))
            );
        }
    }

    #[test]
    fn files_match_the_diagram() {
        // 1 is b8, 4 is h8, 5 is a7, 29 is a1, 32 is g1.
        let f = |n| Square::new(n).unwrap().file();
        assert_eq!((f(1), f(4), f(5), f(8), f(29), f(32)), (1, 7, 0, 6, 0, 6));
    }
}
