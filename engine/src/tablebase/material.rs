//! Material slices: how many men and kings each side has, and the board in the form every
//! table uses (Black to move: a White-to-move position is turned 180 degrees and its colours
//! swapped, which the rules do not see).

use std::fmt;

use crate::board::Position;
use crate::types::{Bitboard, Color};

/// The largest number of pieces of one kind a table may hold.
pub const MAX_PIECES: u32 = 7;

/// How many distinct [`Material::code`] values there are.
pub const MATERIAL_CODES: usize = 8 * 8 * 8 * 8;

/// Black's men and kings and White's men and kings, for a position with Black to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Material {
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
}

impl Material {
    /// The material of the side to move (as "black") and of its opponent.
    pub fn of(masks: &Masks) -> Material {
        Material {
            bm: masks.bmen.count_ones() as u8,
            bk: masks.bkings.count_ones() as u8,
            wm: masks.wmen.count_ones() as u8,
            wk: masks.wkings.count_ones() as u8,
        }
    }

    /// The same material seen from the other side.
    pub fn mirror(self) -> Material {
        Material {
            bm: self.wm,
            bk: self.wk,
            wm: self.bm,
            wk: self.bk,
        }
    }

    /// Every piece on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.bm) + u32::from(self.bk) + u32::from(self.wm) + u32::from(self.wk)
    }

    /// Men of both sides.
    pub fn men(self) -> u32 {
        u32::from(self.bm) + u32::from(self.wm)
    }

    /// A dense number below [`MATERIAL_CODES`] for per-slice arrays; every count is below 8.
    pub fn code(self) -> usize {
        ((usize::from(self.bm) * 8 + usize::from(self.bk)) * 8 + usize::from(self.wm)) * 8
            + usize::from(self.wk)
    }

    /// The slice that stores this material: the smaller of it and its mirror, so that one file
    /// holds both sides to move.
    pub fn canonical(self) -> Material {
        self.min(self.mirror())
    }

    /// The materials a slice file holds: this one and, unless it is its own mirror, its mirror
    /// (the same material with White to move, turned round).
    pub fn halves(self) -> Vec<Material> {
        if self.mirror() == self {
            vec![self]
        } else {
            vec![self, self.mirror()]
        }
    }

    /// Every canonical slice with 2..=`pieces` pieces in which both sides have a piece, in
    /// dependency order: fewer pieces first, then fewer men (a crowning turns a man into a
    /// king; a capture removes pieces), so that every slice a zeroing move leads to comes
    /// earlier.
    pub fn slices(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(MAX_PIECES) as u8;
        for bm in 0..=n {
            for bk in 0..=n - bm {
                for wm in 0..=n - bm - bk {
                    for wk in 0..=n - bm - bk - wm {
                        let m = Material { bm, bk, wm, wk };
                        if bm + bk > 0 && wm + wk > 0 && m.canonical() == m {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }
}

impl fmt::Display for Material {
    /// The file stem: `b<men>m<kings>k-w<men>m<kings>k`, e.g. `b1m1k-w0m2k`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}m{}k-w{}m{}k", self.bm, self.bk, self.wm, self.wk)
    }
}

impl std::str::FromStr for Material {
    type Err = String;

    /// Reads a file stem as [`Material`]'s `Display` writes it (`b1m1k-w0m2k`); each count
    /// at most [`MAX_PIECES`].
    fn from_str(s: &str) -> Result<Material, String> {
        let bad = || format!("{s:?} is not a slice name such as b1m2k-w1m2k");
        let count = |t: &str| -> Option<u8> {
            let n: u8 = t.parse().ok()?;
            (u32::from(n) <= MAX_PIECES && t.len() == 1).then_some(n)
        };
        let (black, white) = s.split_once("-w").ok_or_else(bad)?;
        let black = black.strip_prefix('b').ok_or_else(bad)?;
        let side = |t: &str| -> Option<(u8, u8)> {
            let (men, kings) = t.strip_suffix('k')?.split_once('m')?;
            Some((count(men)?, count(kings)?))
        };
        let ((bm, bk), (wm, wk)) = side(black).zip(side(white)).ok_or_else(bad)?;
        Ok(Material { bm, bk, wm, wk })
    }
}

/// A board as four 32-bit square sets (bit `i` = square `i + 1`) with Black to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Masks {
    /// Men of the side to move.
    pub bmen: u32,
    /// Kings of the side to move.
    pub bkings: u32,
    /// Men of the opponent.
    pub wmen: u32,
    /// Kings of the opponent.
    pub wkings: u32,
}

/// The 32 playable squares of a padded bitboard as a plain 32-bit set.
#[inline]
pub fn compress(bb: Bitboard) -> u32 {
    let b = bb.bits();
    ((b & 0xFF) | ((b >> 1) & 0xFF00) | ((b >> 2) & 0xFF_0000) | ((b >> 3) & 0xFF00_0000)) as u32
}

/// The inverse of [`compress`].
#[inline]
pub fn expand(m: u32) -> Bitboard {
    let m = u64::from(m);
    Bitboard::from_bits(
        (m & 0xFF) | ((m & 0xFF00) << 1) | ((m & 0xFF_0000) << 2) | ((m & 0xFF00_0000) << 3),
    )
}

/// The squares of `bb` as [`Masks`] holds them on a board seen by `side` as Black: as they
/// are for Black, turned 180 degrees for White.
#[inline]
pub fn seen_by(bb: Bitboard, side: Color) -> u32 {
    match side {
        Color::Black => compress(bb),
        Color::White => compress(bb).reverse_bits(),
    }
}

impl Masks {
    /// The board of `pos` with the side to move as Black: unchanged when Black is to move,
    /// turned 180 degrees with colours swapped when White is.
    #[inline]
    pub fn of(pos: &Position) -> Masks {
        let bm = compress(pos.men(Color::Black));
        let bk = compress(pos.kings(Color::Black));
        let wm = compress(pos.men(Color::White));
        let wk = compress(pos.kings(Color::White));
        match pos.side_to_move() {
            Color::Black => Masks {
                bmen: bm,
                bkings: bk,
                wmen: wm,
                wkings: wk,
            },
            Color::White => Masks {
                bmen: wm.reverse_bits(),
                bkings: wk.reverse_bits(),
                wmen: bm.reverse_bits(),
                wkings: bk.reverse_bits(),
            },
        }
    }

    /// The position, Black to move; `None` if two pieces share a square or a man stands on its
    /// crowning row (never for masks made by [`Masks::of`] or the index).
    #[inline]
    pub fn position(&self) -> Option<Position> {
        Position::new(
            Color::Black,
            expand(self.bmen | self.bkings),
            expand(self.wmen | self.wkings),
            expand(self.bkings | self.wkings),
        )
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn compress_round_trips_every_square() {
        for s in Square::ALL {
            let bb = Bitboard::from_square(s);
            assert_eq!(compress(bb), 1 << s.index());
            assert_eq!(expand(1 << s.index()), bb);
        }
    }

    #[test]
    fn white_to_move_is_turned_and_swapped() {
        let pos: Position = "W:WK1,28:B5".parse().unwrap();
        let m = Masks::of(&pos);
        // White's king on 1 becomes the mover's king on 32, its man on 28 the mover's man on 5.
        assert_eq!(m.bkings, 1 << 31);
        assert_eq!(m.bmen, 1 << 4);
        assert_eq!(m.wmen, 1 << 27);
        assert_eq!(Material::of(&m).to_string(), "b1m1k-w1m0k");
    }

    #[test]
    fn slices_come_in_dependency_order() {
        let s = Material::slices(3);
        assert_eq!(s.len(), 9);
        assert_eq!(s[0].to_string(), "b0m1k-w0m1k");
        for m in &s {
            assert_eq!(m.canonical(), *m);
        }
    }
}
