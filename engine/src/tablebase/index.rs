//! The combinatorial index of one material slice (Black to move): a bijection between the
//! positions of the slice and `0..size`, with no entry for a man on its own crowning row and
//! no entry for two pieces on one square.
//!
//! Black's men stand on squares 1-28 and White's on 5-32. They overlap on 5-28 only, so the
//! slice is split by `k`, the number of Black men on 1-4: the other `bm - k` Black men take
//! `bm - k` of 5-28, White's men any `wm` of the `28 - (bm - k)` squares of 5-32 left, then
//! Black's kings any `bk` of the `32 - bm - wm` empty squares and White's kings any `wk` of
//! the rest. Each choice is numbered by its colex rank among the squares still free.

use crate::tablebase::material::{Masks, Material};

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <= 8`.
static BINOMIAL: [[u64; 9]; 33] = {
    let mut c = [[0u64; 9]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
};

#[inline]
fn binomial(n: u32, k: u32) -> u64 {
    if k > 8 || n > 32 {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// Squares 1-4: White's crowning row, where Black men may stand.
const ROW_1_4: u32 = 0xF;
/// Squares 5-28: where men of both sides may stand.
const MIDDLE: u32 = 0x0FFF_FFF0;
/// Squares 5-32: where White men may stand.
const WHITE_MEN: u32 = 0xFFFF_FFF0;

/// The colex rank of `set` among the squares of `free` (`set` is a subset of `free`).
#[inline]
fn rank(set: u32, free: u32) -> u64 {
    let mut r = 0;
    let mut i = 0;
    let mut s = set;
    while s != 0 {
        let b = s.trailing_zeros();
        let p = (free & ((1u32 << b) - 1)).count_ones();
        i += 1;
        r += binomial(p, i);
        s &= s - 1;
    }
    r
}

/// The `p`-th (0-based) square of `free`, as a one-bit set: a binary search on halves.
#[inline]
fn select(free: u32, mut p: u32) -> u32 {
    let mut x = free;
    let mut base = 0;
    for width in [16u32, 8, 4, 2, 1] {
        let low = (x & ((1u32 << width) - 1)).count_ones();
        if p >= low {
            p -= low;
            x >>= width;
            base += width;
        }
    }
    1 << base
}

/// The set of `k` squares of `free` whose colex rank is `r`.
#[inline]
fn unrank(mut r: u64, k: u32, free: u32) -> u32 {
    let mut set = 0;
    let mut hi = free.count_ones();
    for i in (1..=k).rev() {
        // The largest p below hi with C(p, i) <= r, by binary search (C(i - 1, i) = 0).
        let (mut lo, mut top) = (i - 1, hi - 1);
        while lo < top {
            let mid = (lo + top).div_ceil(2);
            if binomial(mid, i) <= r {
                lo = mid;
            } else {
                top = mid - 1;
            }
        }
        r -= binomial(lo, i);
        set |= select(free, lo);
        hi = lo;
    }
    set
}

/// The colex successor of `set` among the squares of `space` (`set` a subset of `space` that
/// is not the last one of its size): Gosper's step in place, the gaps of `space` skipped by
/// filling them with ones, so a carry runs through them.
#[inline]
fn next_in(set: u32, space: u32) -> u32 {
    let low = set & set.wrapping_neg();
    let moved = (set | !space).wrapping_add(low) & space;
    // The run of set squares the carry cleared, less the one it carried up, starts again
    // at the bottom of `space`.
    lowest(space, set.count_ones() - moved.count_ones()) | moved
}

/// The `k` lowest squares of `space`: the set of colex rank 0.
#[inline]
fn lowest(space: u32, k: u32) -> u32 {
    let mut rest = space;
    for _ in 0..k {
        rest &= rest.wrapping_sub(1);
    }
    space & !rest
}

/// One part of the slice: `k` Black men on 1-4.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    start: u64,
    size: u64,
    /// Ways to place the `bm - k` Black men on 5-28.
    middle: u64,
    /// Ways to place White's men on what is left of 5-32.
    white: u64,
}

/// The index of one slice.
#[derive(Clone, Debug)]
pub struct SliceIndex {
    material: Material,
    parts: [Part; 5],
    /// Ways to place both sides' kings.
    kings: u64,
    /// Ways to place White's kings once Black's stand.
    white_kings: u64,
    size: u64,
}

impl SliceIndex {
    /// The index of `material` (Black to move).
    pub fn new(material: Material) -> SliceIndex {
        let (bm, bk, wm, wk) = (
            u32::from(material.bm),
            u32::from(material.bk),
            u32::from(material.wm),
            u32::from(material.wk),
        );
        let free = 32u32.saturating_sub(bm + wm);
        let white_kings = binomial(free.saturating_sub(bk), wk);
        let kings = binomial(free, bk) * white_kings;
        let mut parts = [Part::default(); 5];
        let mut start = 0;
        for (k, part) in parts.iter_mut().enumerate() {
            let k = k as u32;
            if k > bm {
                break;
            }
            let middle = binomial(24, bm - k);
            let white = binomial(28 - (bm - k).min(28), wm);
            let size = binomial(4, k) * middle * white * kings;
            *part = Part {
                start,
                size,
                middle,
                white,
            };
            start += size;
        }
        SliceIndex {
            material,
            parts,
            kings,
            white_kings,
            size: start,
        }
    }

    /// The material of the slice.
    pub fn material(&self) -> Material {
        self.material
    }

    /// How many positions the slice holds.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a board of this slice: [`SliceIndex::men_index`] plus
    /// [`SliceIndex::kings_index`].
    #[inline]
    pub fn index(&self, m: &Masks) -> u64 {
        self.men_index(m) + self.kings_index(m)
    }

    /// The part of a board's index that its men decide: the same for every board with those
    /// men, so a caller that moves only kings works it out once.
    #[inline]
    pub fn men_index(&self, m: &Masks) -> u64 {
        let k = (m.bmen & ROW_1_4).count_ones();
        let part = &self.parts[k as usize];
        let r_low = rank(m.bmen & ROW_1_4, ROW_1_4);
        let r_mid = rank(m.bmen & MIDDLE, MIDDLE);
        let r_white = rank(m.wmen, WHITE_MEN & !m.bmen);
        part.start + ((r_low * part.middle + r_mid) * part.white + r_white) * self.kings
    }

    /// The rest of a board's index: the kings' places among the squares the men leave.
    #[inline]
    pub fn kings_index(&self, m: &Masks) -> u64 {
        let free = !(m.bmen | m.wmen);
        let r_bk = rank(m.bkings, free);
        let r_wk = rank(m.wkings, free & !m.bkings);
        r_bk * self.white_kings + r_wk
    }

    /// Calls `f(idx, board)` for every index of `range` (within [`SliceIndex::size`]) in
    /// order, with the board [`SliceIndex::board`] gives: a walk over consecutive indexes
    /// steps the kings and White's men to their successors instead of unranking every
    /// board, and unranks only when Black's men change.
    pub fn for_each_board(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, &Masks)) {
        let mat = self.material;
        let (bk, wk) = (u32::from(mat.bk), u32::from(mat.wk));
        let black_kings = self.kings / self.white_kings.max(1);
        let mut idx = range.start;
        while idx < range.end {
            // Unrank the board at `idx`, then step from it while only the kings and White's
            // men change (within one placement of Black's men).
            let mut m = self.board(idx);
            let (k, rem) = self.part_of(idx);
            let white = self.parts[k].white;
            let mut r_wk = rem % self.kings % self.white_kings;
            let mut r_bk = rem % self.kings / self.white_kings;
            let mut r_white = rem / self.kings % white;
            let men_space = WHITE_MEN & !m.bmen;
            loop {
                f(idx, &m);
                idx += 1;
                if idx >= range.end {
                    return;
                }
                let free = !(m.bmen | m.wmen);
                if r_wk + 1 < self.white_kings {
                    r_wk += 1;
                    m.wkings = next_in(m.wkings, free & !m.bkings);
                } else if r_bk + 1 < black_kings {
                    (r_wk, r_bk) = (0, r_bk + 1);
                    m.bkings = next_in(m.bkings, free);
                    m.wkings = lowest(free & !m.bkings, wk);
                } else if r_white + 1 < white {
                    (r_wk, r_bk, r_white) = (0, 0, r_white + 1);
                    m.wmen = next_in(m.wmen, men_space);
                    let free = !(m.bmen | m.wmen);
                    m.bkings = lowest(free, bk);
                    m.wkings = lowest(free & !m.bkings, wk);
                } else {
                    break;
                }
            }
        }
    }

    /// The part of index `idx` and its offset in the part.
    #[inline]
    fn part_of(&self, idx: u64) -> (usize, u64) {
        let mut k = 0;
        while k < 4 && self.parts[k + 1].size > 0 && self.parts[k + 1].start <= idx {
            k += 1;
        }
        (k, idx - self.parts[k].start)
    }

    /// The board with index `idx` (below [`SliceIndex::size`]).
    #[inline]
    pub fn board(&self, idx: u64) -> Masks {
        let mut k = 0;
        while k < 4 && self.parts[k + 1].size > 0 && self.parts[k + 1].start <= idx {
            k += 1;
        }
        let part = &self.parts[k];
        let rem = idx - part.start;
        let kings = rem % self.kings;
        let mut men = rem / self.kings;
        let r_white = men % part.white;
        men /= part.white;
        let r_mid = men % part.middle;
        let r_low = men / part.middle;
        let mat = self.material;
        let k = k as u32;
        let bmen = unrank(r_low, k, ROW_1_4) | unrank(r_mid, u32::from(mat.bm) - k, MIDDLE);
        let wmen = unrank(r_white, u32::from(mat.wm), WHITE_MEN & !bmen);
        let free = !(bmen | wmen);
        let bkings = unrank(kings / self.white_kings, u32::from(mat.bk), free);
        let wkings = unrank(kings % self.white_kings, u32::from(mat.wk), free & !bkings);
        Masks {
            bmen,
            bkings,
            wmen,
            wkings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every valid board of a material, by brute force over squares.
    fn count_valid(m: Material) -> u64 {
        // Only small materials: place pieces one by one.
        fn go(kinds: &[u8], used: u32, out: &mut u64) {
            let Some((&kind, rest)) = kinds.split_first() else {
                *out += 1;
                return;
            };
            for s in 0..32u32 {
                if used & (1 << s) != 0 {
                    continue;
                }
                if kind == 0 && s >= 28 || kind == 2 && s < 4 {
                    continue;
                }
                go(rest, used | (1 << s), out);
            }
        }
        let mut kinds = Vec::new();
        kinds.extend(std::iter::repeat_n(0u8, m.bm as usize));
        kinds.extend(std::iter::repeat_n(1u8, m.bk as usize));
        kinds.extend(std::iter::repeat_n(2u8, m.wm as usize));
        kinds.extend(std::iter::repeat_n(3u8, m.wk as usize));
        let mut n = 0;
        go(&kinds, 0, &mut n);
        // Pieces of one kind are interchangeable.
        let fact = |x: u8| (1..=u64::from(x)).product::<u64>();
        n / (fact(m.bm) * fact(m.bk) * fact(m.wm) * fact(m.wk))
    }

    #[test]
    fn index_is_a_bijection_without_waste() {
        for m in Material::slices(4) {
            for mat in [m, m.mirror()] {
                let ix = SliceIndex::new(mat);
                if mat.pieces() <= 3 {
                    assert_eq!(ix.size(), count_valid(mat), "{mat}");
                }
                for i in 0..ix.size() {
                    let b = ix.board(i);
                    assert!(b.position().is_some(), "{mat} {i}");
                    assert_eq!(Material::of(&b), mat);
                    assert_eq!(ix.index(&b), i, "{mat}");
                }
            }
        }
    }

    #[test]
    fn a_walk_gives_the_boards_of_its_indexes() {
        let mut slices = Material::slices(4);
        slices.extend(
            Material::slices(5)
                .into_iter()
                .filter(|m| m.pieces() == 5)
                .step_by(5),
        );
        for m in slices {
            for mat in [m, m.mirror()] {
                let ix = SliceIndex::new(mat);
                let n = ix.size();
                // The whole slice, and ranges that start and end anywhere.
                let ranges = [
                    0..n,
                    n / 3..n / 2 + 1,
                    n.saturating_sub(7)..n,
                    5.min(n)..5.min(n),
                ];
                for range in ranges {
                    let mut next = range.start;
                    ix.for_each_board(range.clone(), |i, b| {
                        assert_eq!(i, next, "{mat}");
                        assert_eq!(*b, ix.board(i), "{mat} {i}");
                        next += 1;
                    });
                    assert_eq!(next, range.end, "{mat}");
                }
            }
        }
    }

    #[test]
    fn sizes_of_the_largest_slices() {
        let m = |bm, bk, wm, wk| SliceIndex::new(Material { bm, bk, wm, wk }).size();
        assert_eq!(m(1, 1, 1, 1), 661_200);
        assert_eq!(m(1, 2, 1, 2), 124_966_800);
    }
}
