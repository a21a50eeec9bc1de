//! The slices of Russian 7.2.7 (a lone king against three pieces with a king), solved over
//! the diagonal count too: one set of entries per count from 0 to
//! [`DIAGONAL_LAYERS`] (the last standing for every count beyond), the highest first, since a
//! move that leaves the lone king on the long diagonal adds a ply to the count. A layer reads
//! the layer above of its own slice and of the 7.2.7 slices it crowns into (a crowning keeps
//! the diagonal count); the file keeps, of each position, the entry of the count a move into
//! it leaves when the count was 0 before ([`counting::stored_diagonal`]).

use std::collections::HashMap;

use crate::board::{lone_on_diagonal, Position, Rules};
use crate::tablebase::counting::{self, DIAGONAL_LAYERS};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::Masks;
use crate::tablebase::work::split;
use crate::tablebase::Material;

/// The layers of the 7.2.7 slices solved so far, each with both halves one after the other.
#[derive(Default)]
pub(super) struct Layers {
    /// By canonical material: the entries of each diagonal count (empty: not solved yet).
    slices: HashMap<Material, Vec<Vec<u8>>>,
    /// The index of each half material, with its offset in the entries.
    halves: HashMap<Material, (SliceIndex, usize)>,
}

impl Layers {
    /// True when every layer of `material` is solved.
    pub(super) fn has(&self, material: Material) -> bool {
        self.slices
            .get(&material)
            .is_some_and(|l| l.iter().all(|d| !d.is_empty()))
    }

    /// Keeps the entries of `material` at diagonal count `diagonal`.
    pub(super) fn insert(&mut self, material: Material, diagonal: u8, data: Vec<u8>) {
        let layers = self
            .slices
            .entry(material)
            .or_insert_with(|| vec![Vec::new(); usize::from(DIAGONAL_LAYERS) + 1]);
        layers[usize::from(diagonal)] = data;
        let mut offset = 0;
        for half in material.halves() {
            let index = SliceIndex::new(half);
            let size = index.size() as usize;
            self.halves.entry(half).or_insert((index, offset));
            offset += size;
        }
    }

    /// The entry of `pos` (in a 7.2.7 slice) at diagonal count `diagonal`, when solved.
    pub(super) fn code(&self, pos: &Position, diagonal: u8) -> Option<u8> {
        let masks = Masks::of(pos);
        let half = Material::of(&masks);
        let (index, offset) = self.halves.get(&half)?;
        let layer = self
            .slices
            .get(&half.canonical())?
            .get(usize::from(diagonal))?;
        layer.get(offset + index.index(&masks) as usize).copied()
    }

    /// The entries a file of `material` keeps: each position's at its stored diagonal count.
    pub(super) fn stored(&self, material: Material, rules: &Rules) -> Option<Vec<u8>> {
        let layers = self.slices.get(&material)?;
        let indexes: Vec<SliceIndex> = material.halves().into_iter().map(SliceIndex::new).collect();
        let n = indexes[0].size();
        let mut out = layers[0].clone();
        for (g, entry) in out.iter_mut().enumerate() {
            let (h, i) = split(g as u64, n);
            if let Some(pos) = indexes[h].board(i).position() {
                let d = counting::stored_diagonal(&pos, rules);
                *entry = layers[usize::from(d)][g];
            }
        }
        Some(out)
    }
}

/// The diagonal count after a move of a 7.2.7 position at count `diagonal` gives `next`.
#[inline]
pub(super) fn next_diagonal(next: &Position, diagonal: u8) -> u8 {
    if lone_on_diagonal(next) {
        (diagonal + 1).min(DIAGONAL_LAYERS)
    } else {
        diagonal
    }
}

/// The 7.2.7 slice a crowning in `material` leads to, if it is one (a man of the strong
/// side becomes a king).
pub(super) fn crowned(material: Material, rules: &Rules) -> Option<Material> {
    let mut up = material;
    if up.bm > 0 {
        up.bm -= 1;
        up.bk += 1;
    } else if up.wm > 0 {
        up.wm -= 1;
        up.wk += 1;
    } else {
        return None;
    }
    let up = up.canonical();
    counting::layered(up, rules).then_some(up)
}

#[cfg(test)]
impl Layers {
    /// The entries of `material` at diagonal count `diagonal`, when solved.
    pub(super) fn layer(&self, material: Material, diagonal: u8) -> Option<&[u8]> {
        let layer = self.slices.get(&material)?.get(usize::from(diagonal))?;
        (!layer.is_empty()).then_some(&layer[..])
    }
}
