//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side. Black starts on 1-12 and moves first; White starts on 21-32.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first mover ("Red" in the Buff and Green app), moving toward higher numbers.
    Black = 0,
    /// The second mover, moving toward lower numbers.
    White = 1,
}

impl Color {
    /// Index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of this side (`B` or `W`).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
