//! The finished slices a computation reads: the targets of captures and crownings while a
//! slice is built or verified. Loaded from their files (checked) and dropped when no longer
//! needed, so memory holds only what the current slice can reach.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::board::{Position, Rules};
use crate::tablebase::build::plan::{below_first, Schedule};
use crate::tablebase::format;
use crate::tablebase::format::sparse;
use crate::tablebase::format::sparse::Part;
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::{Masks, MATERIAL_CODES};
use crate::tablebase::solve::STUCK;
use crate::tablebase::{Material, Tablebase, TbError, Value};

/// The caches' budget of the tables that restore sparse slices: larger than a search's, since
/// a restoration probes every position of a slice.
const RESTORE_CACHE: u64 = 256 << 20;

/// Where the entries of one material (Black to move) are.
struct Slot {
    data: Arc<Vec<u8>>,
    offset: usize,
    index: SliceIndex,
}

/// Loaded slices, looked up by the material of a position.
pub(crate) struct Store {
    dir: PathBuf,
    rules: Rules,
    /// Each with the part of its entries worked out when it was restored from a sparse file.
    loaded: HashMap<Material, (Arc<Vec<u8>>, Part)>,
    slots: Vec<Option<Slot>>,
    /// Threads that restore a sparse slice.
    threads: usize,
    /// The most pieces of a slice computed: a slice of as many is read by crownings alone.
    top: u32,
}

impl Store {
    /// An empty store over the files of `dir`, which must be built for `rules`, for
    /// computations on slices of up to `top` pieces; a sparse slice is restored on `threads`
    /// threads.
    pub(crate) fn new(dir: &Path, rules: &Rules, threads: usize, top: u32) -> Store {
        Store {
            dir: dir.to_path_buf(),
            rules: *rules,
            loaded: HashMap::new(),
            slots: (0..MATERIAL_CODES).map(|_| None).collect(),
            threads,
            top,
        }
    }

    /// Keeps the canonical slices of step `step` of `schedule` loaded for a computation on
    /// `computed`, reading the missing ones (`on_read(m)` before each: restoring a large
    /// sparse slice takes minutes). Of the others, those read again soonest stay while they
    /// fit, with the slices needed, in `room` bytes; the rest are dropped.
    ///
    /// A sparse slice of the store's most pieces, other than `computed`, is read by crownings
    /// alone (no computation reads it through a capture): only its entries [`Part::Crowned`]
    /// are restored.
    pub(crate) fn require(
        &mut self,
        schedule: &Schedule,
        step: usize,
        room: u64,
        computed: Material,
        on_read: &mut dyn FnMut(Material),
    ) -> Result<(), TbError> {
        let needed = schedule.needs(step);
        let top = self.top;
        let part_of = |m: Material| {
            if m != computed && m.pieces() == top {
                Part::Crowned
            } else {
                Part::Whole
            }
        };
        let held: Vec<(Material, u64)> = self
            .loaded
            .iter()
            .map(|(m, (d, _))| (*m, d.len() as u64))
            .collect();
        let keep = schedule.keep(step, &held, room);
        for (m, _) in held {
            if !needed.contains(&m) && !keep.contains(&m) {
                self.unload(m);
            }
        }
        // A slice held in part where it is needed whole is read again (never in dependency
        // order: a slice is computed, and held whole, before the slices that crown into it).
        let mut missing: Vec<Material> = needed
            .iter()
            .copied()
            .filter(|&m| match self.loaded.get(&m) {
                None => true,
                Some((_, held)) => *held == Part::Crowned && part_of(m) == Part::Whole,
            })
            .collect();
        below_first(&mut missing);
        // The slices below a sparse one answer its restoration: those in memory directly,
        // the others through probes of one set of open tables for this call (their own sparse
        // entries worked out), which costs several times more.
        let mut below = None;
        for m in missing {
            on_read(m);
            let stored = format::read(&self.dir, m, &self.rules)?;
            let part = if stored.sparse {
                part_of(m)
            } else {
                Part::Whole
            };
            let data = if stored.sparse {
                if below.is_none() {
                    below = Some(Tablebase::open_with_cache(
                        &self.dir,
                        &self.rules,
                        RESTORE_CACHE,
                    )?);
                }
                let tables = below
                    .as_ref()
                    .ok_or_else(|| TbError::Missing(m.to_string()))?;
                let reader = Reader {
                    store: self,
                    tables,
                };
                sparse::restore(m, &self.rules, stored.data, &reader, self.threads, part)?
            } else {
                stored.data
            };
            let data = Arc::new(data);
            self.loaded.insert(m, (Arc::clone(&data), part));
            self.place(m, data);
        }
        Ok(())
    }

    /// Drops the entries of `m`.
    fn unload(&mut self, m: Material) {
        self.loaded.remove(&m);
        for half in m.halves() {
            self.slots[half.code()] = None;
        }
    }

    /// Makes the entries of `m` (both halves, one after the other in `data`) answer
    /// [`Store::code`].
    fn place(&mut self, m: Material, data: Arc<Vec<u8>>) {
        for (k, mat) in m.halves().into_iter().enumerate() {
            let index = SliceIndex::new(mat);
            self.slots[mat.code()] = Some(Slot {
                data: Arc::clone(&data),
                offset: k * index.size() as usize,
                index,
            });
        }
    }

    /// Bytes of table data held.
    pub(crate) fn bytes(&self) -> u64 {
        self.loaded.values().map(|(d, _)| d.len() as u64).sum()
    }

    /// The entries of the slice of `pos` (either side to move) and its place in them; `None`
    /// when its slice is not loaded, or the side to move has no pieces.
    #[inline]
    pub(crate) fn locate(&self, pos: &Position) -> Option<(&[u8], usize)> {
        let masks = Masks::of(pos);
        if masks.bmen | masks.bkings == 0 {
            return None;
        }
        self.entry(&masks)
    }

    /// The entry of `pos` (either side to move); `None` when its slice is not loaded. A side
    /// to move without pieces has no move: [`STUCK`], which means lost, or won under losing
    /// rules.
    #[inline]
    pub(crate) fn code(&self, pos: &Position) -> Option<u8> {
        let masks = Masks::of(pos);
        if masks.bmen | masks.bkings == 0 {
            return Some(STUCK);
        }
        self.entry(&masks).map(|(data, at)| data[at])
    }

    /// The entries holding the position of `masks` (the side to move has pieces) and its
    /// place in them, when its slice is loaded.
    #[inline]
    fn entry(&self, masks: &Masks) -> Option<(&[u8], usize)> {
        let slot = self.slots.get(Material::of(masks).code())?.as_ref()?;
        let at = slot.offset + slot.index.index(masks) as usize;
        (at < slot.data.len()).then_some((&slot.data[..], at))
    }
}

/// The slices below a sparse slice being restored: those loaded read from memory, the others
/// probed through the directory's tables.
struct Reader<'a> {
    store: &'a Store,
    tables: &'a Tablebase,
}

impl sparse::Below for Reader<'_> {
    fn locate(&self, pos: &Position) -> Option<(&[u8], usize)> {
        self.store.locate(pos)
    }

    fn probe(&self, pos: &Position) -> Result<u8, TbError> {
        match self.store.code(pos) {
            Some(code) => Ok(code),
            None => self.tables.probe(pos).map(Value::code),
        }
    }
}
