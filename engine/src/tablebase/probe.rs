//! Probing: the value of a position from a directory of slice files.
//!
//! Every slice file is memory-mapped when the directory is opened: a probe is an index
//! computation and one byte read from the map, so the first probe of a slice during a search
//! touches one page (from the page cache, or one read from disk) instead of reading the whole
//! file, and the pages are the system's cache, shared and reclaimable, not copies in the
//! process. A slice's checksum is checked once, over the map, before any entry of it is used:
//! by [`Tablebase::verify`] (the engine calls it when it opens the tables, outside any
//! search), or else at the slice's first probe (a one-off `tb probe`). A truncated, corrupt or
//! foreign file is so refused with an error, never read as a wrong value.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

use crate::board::{fen, has_moves, Position, Rules};
use crate::tablebase::format::{self, HEADER_LEN};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::{Masks, MATERIAL_CODES};
use crate::tablebase::{Material, TbError, Value};

/// One mapped slice file: its bytes, the index of each half and whether its checksum matched.
#[derive(Debug)]
struct Slice {
    path: PathBuf,
    material: Material,
    map: Mmap,
    halves: Vec<(Material, SliceIndex)>,
    checked: OnceLock<Result<(), TbError>>,
}

impl Slice {
    /// The slice's entries, once its checksum has been checked.
    fn entries(&self, rules: &Rules) -> Result<&[u8], TbError> {
        self.checked
            .get_or_init(|| format::check(&self.path, &self.map, self.material, rules))
            .clone()?;
        Ok(self.map.get(HEADER_LEN..).unwrap_or_default())
    }
}

/// The tables of one directory, for one rule setting and draw rule.
#[derive(Debug)]
pub struct Tablebase {
    rules: Rules,
    max_pieces: u32,
    /// The mapped slices by canonical material code (`None`: no file).
    slots: Vec<Option<Slice>>,
}

impl Tablebase {
    /// Opens `dir` for `rules` (switches and draw rule): reads the file headers and maps the
    /// files, without reading their entries. Refuses a missing directory, one without
    /// tables, one holding tables of other rules, and a file of the wrong length or whose
    /// header does not fit its name. Corrupt contents are found by [`Tablebase::verify`], or
    /// at a slice's first probe.
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tablebase, TbError> {
        let files = format::scan(dir)?;
        if files.is_empty() {
            return Err(TbError::Empty(dir.to_path_buf()));
        }
        let mut max_pieces = 0;
        let mut slots: Vec<Option<Slice>> = (0..MATERIAL_CODES).map(|_| None).collect();
        for (path, header) in files {
            format::check_rules(&path, &header, rules)?;
            format::check_length(&path, &header)?;
            let material = header.material.canonical();
            if path != format::path_of(dir, material) {
                return Err(TbError::BadHeader {
                    path,
                    what: format!("material {}, which is not the file's name", header.material),
                });
            }
            let file = File::open(&path).map_err(|e| TbError::io(&path, &e))?;
            // SAFETY: the map is only read. The builder never writes a finished file in place
            // (it writes a temporary file and renames it), so the mapped file does not change
            // under the engine; a file cut short by another process while mapped is outside
            // what any mapping reader can defend against.
            let map = unsafe { Mmap::map(&file) }.map_err(|e| TbError::io(&path, &e))?;
            format::check_header(&path, &map, material, rules)?;
            max_pieces = max_pieces.max(material.pieces());
            let halves = material
                .halves()
                .into_iter()
                .map(|m| (m, SliceIndex::new(m)))
                .collect();
            slots[material.code()] = Some(Slice {
                path,
                material,
                map,
                halves,
                checked: OnceLock::new(),
            });
        }
        Ok(Tablebase {
            rules: *rules,
            max_pieces,
            slots,
        })
    }

    /// Checks the checksum of every slice not checked yet (reading every file once); the
    /// first corrupt file is an error. After it, no probe reads more than its entry.
    pub fn verify(&self) -> Result<(), TbError> {
        self.slots
            .iter()
            .flatten()
            .try_for_each(|s| s.entries(&self.rules).map(|_| ()))
    }

    /// The rules the tables are built for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The most pieces of any slice in the directory.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// True when the tables cover `pos`: both sides have a piece and there are at most
    /// [`Tablebase::max_pieces`] of them.
    pub fn covers(&self, pos: &Position) -> bool {
        let n = pos.occupied().count();
        n <= self.max_pieces
            && pos.pieces(pos.side_to_move()).any()
            && pos.pieces(!pos.side_to_move()).any()
    }

    /// The table's value of `pos` (at clock 0; see [`Value::at_clock`]). A position whose side
    /// to move has no move is [`Tablebase::stuck`] without a table.
    pub fn probe(&self, pos: &Position) -> Result<Value, TbError> {
        if !has_moves(pos, &self.rules) {
            return Ok(self.stuck());
        }
        if !self.covers(pos) {
            return Err(TbError::NotCovered(fen::write(pos)));
        }
        let masks = Masks::of(pos);
        let mat = Material::of(&masks);
        let Some(slice) = self.slots[mat.canonical().code()].as_ref() else {
            return Err(TbError::NotCovered(fen::write(pos)));
        };
        let entries = slice.entries(&self.rules)?;
        let (h, index) = if slice.halves[0].0 == mat {
            (0, &slice.halves[0].1)
        } else {
            (1, &slice.halves[1].1)
        };
        let i = h as u64 * slice.halves[0].1.size() + index.index(&masks);
        let code = entries.get(i as usize).copied().unwrap_or(0);
        Ok(Value::from_code(code, self.rules.losing))
    }

    /// The value of a position whose side to move has no move: `loss 0`, or `win 0` in
    /// tables of losing checkers.
    pub fn stuck(&self) -> Value {
        Value::stuck(self.rules.losing)
    }

    /// The result of `pos` at no-progress clock `clock`.
    pub fn probe_at(&self, pos: &Position, clock: u32) -> Result<Value, TbError> {
        Ok(self.probe(pos)?.at_clock(clock, self.rules.draw_half_moves))
    }
}
