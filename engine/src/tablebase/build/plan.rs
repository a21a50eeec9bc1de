//! The build cut into levels for many processes or machines: a slice's level is one more
//! than the highest level of the slices its captures and crownings lead to (1 when they lead
//! to none), so the slices of one level depend only on lower levels and can be built at once
//! by independent workers on a shared directory, each taking a share of the level. And the
//! order's [`Schedule`]: which slices each step reads, and which of those it has read to keep
//! for later steps.

use std::collections::HashMap;
use std::path::Path;

use crate::board::Rules;
use crate::tablebase::index::SliceIndex;
use crate::tablebase::{Material, TbError};

/// One share of one level of a build that spans processes or machines: the slices of level
/// `level` whose rank within the level is `shard - 1` modulo `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// The level (1-based, as `tb plan` prints it).
    pub level: u32,
    /// Which share, 1..=`of`.
    pub shard: u32,
    /// How many shares the level is cut into.
    pub of: u32,
}

/// The materials (side to move first) of the positions a capture or a crowning from
/// `material`, either side to move, leads to: the opponent, who moves next, may have lost any
/// non-empty set of pieces, the mover may have crowned a man, or crowned without capturing.
/// Materials where a side has no piece, and those of `material`'s own slice, are left out.
pub fn zeroing_successors(material: Material) -> Vec<Material> {
    let mut out = Vec::new();
    for m in [material, material.mirror()] {
        for dm in 0..=m.wm {
            for dk in 0..=m.wk {
                for crown in [false, true] {
                    if (dm + dk == 0 && !crown) || (crown && m.bm == 0) {
                        continue;
                    }
                    let after = Material {
                        bm: m.bm - u8::from(crown),
                        bk: m.bk + u8::from(crown),
                        wm: m.wm - dm,
                        wk: m.wk - dk,
                    };
                    let next = after.mirror();
                    if after.wm + after.wk > 0
                        && after.canonical() != material.canonical()
                        && !out.contains(&next)
                    {
                        out.push(next);
                    }
                }
            }
        }
    }
    out
}

/// The canonical slices a capture or crowning can lead to from either side of `material`
/// (those of [`zeroing_successors`]). Slices where a side has no piece need no table.
pub fn zeroing_targets(material: Material) -> Vec<Material> {
    let mut out: Vec<Material> = zeroing_successors(material)
        .into_iter()
        .map(Material::canonical)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every slice of up to `pieces` pieces with its level, levels in ascending order (and within
/// a level, the build's order): the lines of `tb plan`.
pub fn levels(pieces: u32) -> Vec<(u32, Material)> {
    let mut level: HashMap<Material, u32> = HashMap::new();
    let mut out = Vec::new();
    for m in Material::slices(pieces) {
        let l = 1 + zeroing_targets(m)
            .iter()
            .map(|t| level.get(t).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        level.insert(m, l);
        out.push((l, m));
    }
    out.sort_by_key(|&(l, _)| l);
    out
}

/// The slices of `share` (of the plan of `pieces` pieces), after checking that every slice
/// of every lower level is in `dir` with a readable header for `rules`.
pub fn share(
    dir: &Path,
    pieces: u32,
    rules: &Rules,
    share: Share,
) -> Result<Vec<Material>, TbError> {
    let plan = levels(pieces);
    let top = plan.last().map_or(0, |p| p.0);
    if share.level == 0 || share.level > top {
        return Err(TbError::NoLevel {
            level: share.level,
            pieces,
            levels: top,
        });
    }
    if share.shard == 0 || share.shard > share.of {
        return Err(TbError::NoShard {
            shard: share.shard,
            of: share.of,
        });
    }
    for &(l, m) in plan.iter().filter(|p| p.0 < share.level) {
        if let Err(unfit) = crate::tablebase::format::header_fits(dir, m, rules) {
            return Err(TbError::LevelMissing {
                level: share.level,
                below: l,
                slice: m.to_string(),
                why: unfit.to_string(),
            });
        }
    }
    Ok(plan
        .iter()
        .filter(|p| p.0 == share.level)
        .map(|p| p.1)
        .enumerate()
        .filter(|(i, _)| *i as u32 % share.of == share.shard - 1)
        .map(|(_, m)| m)
        .collect())
}

/// Sorts slices to be read so that every slice a capture or a crowning of one of them
/// reaches comes before it: fewer pieces, then fewer men, first. A restoration then finds
/// the slices below it already in memory.
pub fn below_first(slices: &mut [Material]) {
    slices.sort_by_key(|m| (m.pieces(), m.men(), *m));
}

/// Positions of a slice, both sides to move: the bytes it takes held whole.
pub fn positions(m: Material) -> u64 {
    SliceIndex::new(m).size() * m.halves().len() as u64
}

/// When each slice is read again in a computation that goes through slices one after the
/// other (a build, a check): a sparse slice read again is restored again, which costs far
/// more than reading a plain one, and the slices below are read again and again as a build
/// goes from one slice to the next, so a computation keeps, within its memory, those read
/// again soonest.
#[derive(Clone, Debug)]
pub struct Schedule {
    needs: Vec<Vec<Material>>,
}

impl Schedule {
    /// The schedule of a computation that reads `needs[n]` at its step `n`.
    pub fn new(needs: Vec<Vec<Material>>) -> Schedule {
        Schedule { needs }
    }

    /// The schedule of a build of `order`: each slice reads its [`zeroing_targets`].
    pub fn of_build(order: &[Material]) -> Schedule {
        Schedule::new(order.iter().map(|&m| zeroing_targets(m)).collect())
    }

    /// The slices step `n` reads.
    pub fn needs(&self, n: usize) -> &[Material] {
        self.needs.get(n).map_or(&[], Vec::as_slice)
    }

    /// The first step after `n` that reads `m`; `None`: none does.
    fn next_use(&self, m: Material, n: usize) -> Option<usize> {
        (n + 1..self.needs.len()).find(|&j| self.needs[j].contains(&m))
    }

    /// Of the slices `held` (with their bytes) that step `step` does not read, those to keep
    /// for a later step: the ones read again soonest, while they fit with the slices the step
    /// reads (held whole) in `room` bytes. The others, and those never read again, go.
    pub fn keep(&self, step: usize, held: &[(Material, u64)], room: u64) -> Vec<Material> {
        let needed = self.needs(step);
        let mut others: Vec<(usize, Material, u64)> = held
            .iter()
            .filter(|(m, _)| !needed.contains(m))
            .filter_map(|&(m, len)| Some((self.next_use(m, step)?, m, len)))
            .collect();
        others.sort_by_key(|&(next, m, _)| (next, m));
        let mut kept: u64 = needed.iter().map(|&m| positions(m)).sum();
        others
            .into_iter()
            .take_while(|&(_, _, len)| {
                kept += len;
                kept <= room
            })
            .map(|(_, m, _)| m)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slice_comes_after_what_it_reads() {
        let plan = levels(5);
        let level: HashMap<Material, u32> = plan.iter().map(|&(l, m)| (m, l)).collect();
        assert_eq!(plan.len(), Material::slices(5).len());
        for &(l, m) in &plan {
            for t in zeroing_targets(m) {
                assert!(level[&t] < l, "{m} at {l} reads {t} at {}", level[&t]);
            }
        }
        assert_eq!(plan[0], (1, Material::slices(2)[0]));
    }
}
