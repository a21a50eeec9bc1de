//! Probing: the value of a position from a directory of slice files.
//!
//! A slice file is read whole into memory the first time a position of it is probed, and its
//! checksum checked then (instead of memory-mapping it): the crate keeps no `unsafe` (mapping
//! a file is `unsafe`, since another process may change it underneath), a corrupt file is
//! refused before a single entry of it is used, and a slice costs memory only once the game
//! reaches it. After that a probe is an index computation and one array read, without a lock.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::board::{fen, has_moves, Position, Rules};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::{Masks, MATERIAL_CODES};
use crate::tablebase::{format, Material, TbError, Value};

/// A loaded slice: its entries and the index of each half.
#[derive(Debug)]
struct Loaded {
    data: Vec<u8>,
    halves: Vec<(Material, SliceIndex)>,
}

/// The tables of one directory, for one rule setting and draw rule.
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    rules: Rules,
    max_pieces: u32,
    slots: Vec<OnceLock<Result<Loaded, TbError>>>,
}

impl Tablebase {
    /// Opens `dir` for `rules` (switches and draw rule). Reads only the file headers and
    /// sizes: refuses a missing directory, one without tables, one holding tables of other
    /// rules and a file of the wrong length. A file whose contents are corrupt is refused when
    /// first probed (its checksum is checked as it is read).
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tablebase, TbError> {
        let files = format::scan(dir)?;
        if files.is_empty() {
            return Err(TbError::Empty(dir.to_path_buf()));
        }
        let mut max_pieces = 0;
        for (path, header) in &files {
            format::check_rules(path, header, rules)?;
            format::check_length(path, header)?;
            max_pieces = max_pieces.max(header.material.pieces());
        }
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            rules: *rules,
            max_pieces,
            slots: (0..MATERIAL_CODES).map(|_| OnceLock::new()).collect(),
        })
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
    /// to move has no move is `loss 0` without a table.
    pub fn probe(&self, pos: &Position) -> Result<Value, TbError> {
        if !has_moves(pos, &self.rules) {
            return Ok(Value::Loss(0));
        }
        if !self.covers(pos) {
            return Err(TbError::NotCovered(fen::write(pos)));
        }
        let masks = Masks::of(pos);
        let mat = Material::of(&masks);
        let canon = mat.canonical();
        let loaded = self.slots[canon.code()]
            .get_or_init(|| self.load(canon))
            .as_ref()
            .map_err(|e| match e {
                TbError::Missing(_) => TbError::NotCovered(fen::write(pos)),
                e => e.clone(),
            })?;
        let (h, index) = if loaded.halves[0].0 == mat {
            (0, &loaded.halves[0].1)
        } else {
            (1, &loaded.halves[1].1)
        };
        let i = h as u64 * loaded.halves[0].1.size() + index.index(&masks);
        let code = loaded.data.get(i as usize).copied().unwrap_or(0);
        Ok(Value::from_code(code))
    }

    /// The result of `pos` at no-progress clock `clock`.
    pub fn probe_at(&self, pos: &Position, clock: u32) -> Result<Value, TbError> {
        Ok(self.probe(pos)?.at_clock(clock, self.rules.draw_half_moves))
    }

    fn load(&self, canon: Material) -> Result<Loaded, TbError> {
        let data = format::read(&self.dir, canon, &self.rules)?;
        let halves = canon
            .halves()
            .into_iter()
            .map(|m| (m, SliceIndex::new(m)))
            .collect();
        Ok(Loaded { data, halves })
    }
}
