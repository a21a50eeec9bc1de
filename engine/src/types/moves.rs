//! Moves: a start square, the ordered landing squares and the set of captured pieces.

use std::fmt;

use super::{Bitboard, Square};

/// The most landing squares one move can have: each capture step removes one of at most 12
/// enemy pieces, and a quiet move has a single landing square.
pub const MAX_PATH: usize = 12;

/// A legal move, as produced by the move generator.
///
/// The landing path is kept because two capture sequences with the same start, end and
/// captured set are different moves (a king looping round four pieces in either order).
/// The path is packed five bits a square so that a `Move` stays 24 bytes and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    captured: Bitboard,
    path: u64,
    from: Square,
    to: Square,
    len: u8,
    crowns: bool,
}

impl Move {
    /// A non-capturing step or slide from `from` to `to`.
    #[inline]
    pub const fn quiet(from: Square, to: Square, crowns: bool) -> Move {
        Move {
            captured: Bitboard::EMPTY,
            path: to.index() as u64,
            from,
            to,
            len: 1,
            crowns,
        }
    }

    /// A capture sequence from the packed path built by [`Move::push_path`].
    #[inline]
    pub(crate) const fn capture(
        from: Square,
        path: u64,
        len: u8,
        to: Square,
        captured: Bitboard,
        crowns: bool,
    ) -> Move {
        Move {
            captured,
            path,
            from,
            to,
            len,
            crowns,
        }
    }

    /// Appends landing square `sq` as step number `step` (0-based) to a packed path.
    #[inline]
    pub(crate) const fn push_path(path: u64, step: usize, sq: Square) -> u64 {
        path | ((sq.index() as u64) << (5 * step))
    }

    /// Where the moving piece starts.
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where the moving piece ends (the last landing square).
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The pieces this move removes; empty for a quiet move.
    #[inline]
    pub const fn captured(self) -> Bitboard {
        self.captured
    }

    /// True for a capture.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.captured.any()
    }

    /// True when a man is crowned by this move (at the end, even if it left the far row).
    #[inline]
    pub const fn crowns(self) -> bool {
        self.crowns
    }

    /// How many landing squares the move has (1 for a quiet move, the capture count otherwise).
    #[inline]
    pub const fn path_len(self) -> usize {
        self.len as usize
    }

    /// The landing squares in order.
    pub fn path(self) -> impl Iterator<Item = Square> {
        let path = self.path;
        (0..self.len as usize).map(move |i| Square::from_index(((path >> (5 * i)) & 31) as u8))
    }
}

impl fmt::Display for Move {
    /// The long form: `11-15` for a quiet move, every landing square for a capture (`9x18x27`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        let sep = if self.is_capture() { 'x' } else { '-' };
        for sq in self.path() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: i64) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn move_is_compact() {
        assert_eq!(std::mem::size_of::<Move>(), 24);
    }

    #[test]
    fn long_form_notation() {
        assert_eq!(Move::quiet(sq(11), sq(15), false).to_string(), "11-15");
        let mut path = 0;
        for (i, n) in [19, 10, 17, 26].into_iter().enumerate() {
            path = Move::push_path(path, i, sq(n));
        }
        let caps = [22, 14, 15, 23].into_iter().map(sq).collect();
        let m = Move::capture(sq(26), path, 4, sq(26), caps, false);
        assert_eq!(m.to_string(), "26x19x10x17x26");
        assert_eq!(m.path_len(), 4);
    }
}
