//! Probing: the value of a position from a directory of slice files, plain or compressed.
//!
//! Opening a directory reads every file's header (checked against the format's limits and the
//! file's name and length) and, for a compressed file, its block table; no entry is read. A
//! probe reads the block that holds its entry through the `BlockCache`: a positioned read
//! (`pread`) of the block from the open file and, for a compressed file, its checksum and its
//! decompression. Reading by positioned reads rather than a memory map is what keeps a table
//! replaced or cut short under a running engine from killing it (a mapped page past a file's
//! new end raises SIGBUS): a short read is an error, and the search takes the position as not
//! covered. A slice's checksum is checked once before any entry of a plain file is used: by
//! [`Tablebase::verify_plain`] (the engine calls it when a `setoption` names the tables,
//! outside any search), or else at the slice's first probe (a one-off `tb probe`); a
//! compressed block is checked at each read, before it is decompressed, so opening a
//! compressed set reads no block; a block found corrupt is refused from then on without being
//! read again. The first failed read is kept for [`Tablebase::take_fault`].
//!
//! Layout: this file opens a directory and answers probes, through the block cache of
//! `cache`; [`verify`] re-checks a directory of tables against the one-step rule.

mod cache;
pub mod verify;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::board::{fen, has_captures, has_moves, DrawCount, Position, Rules};
use crate::tablebase::counting;
use crate::tablebase::format::checksum::Checksum;
use crate::tablebase::format::compress;
use crate::tablebase::format::compress::BLOCK_ENTRY_LEN;
use crate::tablebase::format::sparse;
use crate::tablebase::format::{self, Header, Layout, HEADER_LEN};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::{Masks, MATERIAL_CODES};
use crate::tablebase::probe::cache::{BlockCache, DerivedCache};
use crate::tablebase::{Material, TbError, Value};

/// Entries per cached block of a plain file: one page.
pub const PLAIN_BLOCK: u32 = 4096;

/// The block cache's budget when none is given (see [`Tablebase::open_with_cache`]).
pub const DEFAULT_CACHE: u64 = 32 << 20;

/// Positioned reads of a whole range (`pread` on Unix, `seek_read` on Windows).
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            let n = std::os::windows::fs::FileExt::seek_read(
                file,
                &mut buf[done..],
                offset + done as u64,
            )?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
        Ok(())
    }
}

/// One open slice file.
#[derive(Debug)]
struct Slice {
    path: PathBuf,
    file: File,
    header: Header,
    halves: Vec<(Material, SliceIndex)>,
    /// Compressed: per block, the end of its bytes after the table, and its checksum.
    table: Vec<(u64, u64)>,
    /// Where entries (plain) or compressed blocks start.
    data_start: u64,
    /// Entries per block.
    block: u32,
    /// Plain files: whether the checksum of the whole file matched.
    checked: OnceLock<Result<(), TbError>>,
    /// Compressed files: one bit per block found corrupt, so that a bad block is read and
    /// checked once, not at every probe of it (a bit, not the error: a damaged file of many
    /// blocks costs a bit each).
    bad: Box<[AtomicU64]>,
}

impl Slice {
    fn open(path: PathBuf, header: Header) -> Result<Slice, TbError> {
        let file = format::open_regular(&path).map_err(|e| TbError::io(&path, &e))?;
        let len = file.metadata().map_err(|e| TbError::io(&path, &e))?.len();
        let (table, block) = match header.layout {
            Layout::Plain => (Vec::new(), PLAIN_BLOCK),
            Layout::Compressed { block, .. } => {
                let bytes = header
                    .blocks()
                    .saturating_mul(BLOCK_ENTRY_LEN as u64)
                    .min(len.saturating_sub(HEADER_LEN as u64));
                let mut raw = vec![0u8; bytes as usize];
                read_at(&file, &mut raw, HEADER_LEN as u64).map_err(|e| TbError::io(&path, &e))?;
                (format::block_table(&path, &header, &raw)?, block)
            }
        };
        let data_start = (HEADER_LEN + table.len() * BLOCK_ENTRY_LEN) as u64;
        let expected = format::expected_length(&header, table.last().map(|t| t.0));
        if Some(len) != expected {
            return Err(TbError::Length {
                path,
                found: len,
                expected: expected.unwrap_or(u64::MAX),
            });
        }
        let halves = header
            .material
            .halves()
            .into_iter()
            .map(|m| (m, SliceIndex::new(m)))
            .collect();
        Ok(Slice {
            path,
            file,
            header,
            halves,
            table,
            data_start,
            block,
            checked: OnceLock::new(),
            bad: (0..header.blocks().div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        })
    }

    /// Entries in block `b`.
    fn block_size(&self, b: u64) -> usize {
        let total = self.header.stored();
        (total - b * u64::from(self.block)).min(u64::from(self.block)) as usize
    }

    /// Reads block `b` into `out` (of its size).
    fn load(&self, b: u64, out: &mut [u8], raw: &mut Vec<u8>) -> Result<(), TbError> {
        let changed = |_| TbError::Changed(self.path.clone());
        match self.header.layout {
            Layout::Plain => read_at(&self.file, out, self.data_start + b * u64::from(self.block))
                .map_err(changed),
            Layout::Compressed { codec, .. } => {
                let (word, bit) = ((b / 64) as usize, 1u64 << (b % 64));
                if self.bad[word].load(Ordering::Relaxed) & bit != 0 {
                    return Err(TbError::CorruptBlock {
                        path: self.path.clone(),
                        block: b,
                    });
                }
                let (begin, end, sum) = self.raw_range(b);
                raw.resize((end - begin) as usize, 0);
                read_at(&self.file, raw, self.data_start + begin).map_err(changed)?;
                let decoded = compress::check_block(&self.path, b, raw, sum)
                    .and_then(|()| compress::decode_to(&self.path, b, codec, raw, out));
                if let Err(TbError::CorruptBlock { .. }) = decoded {
                    self.bad[word].fetch_or(bit, Ordering::Relaxed);
                }
                decoded
            }
        }
    }

    /// Where the compressed bytes of block `b` are (after the table) and their checksum.
    fn raw_range(&self, b: u64) -> (u64, u64, u64) {
        let begin = if b == 0 {
            0
        } else {
            self.table[b as usize - 1].0
        };
        let (end, sum) = self.table[b as usize];
        (begin, end, sum)
    }

    /// Checks the whole file once: a plain file's checksum over every entry, or every block
    /// of a compressed file against its checksum (and that it decompresses to its size).
    fn check(&self) -> Result<(), TbError> {
        self.checked
            .get_or_init(|| match self.header.layout {
                Layout::Plain => {
                    let mut sum = Checksum::new();
                    sum.part(&self.header.blank());
                    let total = self.header.positions();
                    let mut buf = vec![0u8; 1 << 20];
                    let mut done = 0u64;
                    while done < total {
                        let n = (total - done).min(buf.len() as u64) as usize;
                        read_at(&self.file, &mut buf[..n], self.data_start + done)
                            .map_err(|_| TbError::Changed(self.path.clone()))?;
                        done += n as u64;
                        if done < total {
                            sum.words(&buf[..n]);
                        } else {
                            sum.end_part(&buf[..n]);
                        }
                    }
                    if total == 0 {
                        sum.end_part(&[]);
                    }
                    if sum.finish() == self.header.checksum {
                        Ok(())
                    } else {
                        Err(TbError::Corrupt(self.path.clone()))
                    }
                }
                Layout::Compressed { .. } => {
                    let mut raw = Vec::new();
                    let mut out = vec![0u8; self.block as usize];
                    (0..self.table.len() as u64).try_for_each(|b| {
                        let size = self.block_size(b);
                        self.load(b, &mut out[..size], &mut raw)
                    })
                }
            })
            .clone()
    }
}

/// The tables of one directory, for one rule setting and draw rule.
#[derive(Debug)]
pub struct Tablebase {
    rules: Rules,
    max_pieces: u32,
    /// Bit `n` set: every slice of `n` pieces is present, so a position of `n` pieces needs
    /// no look at its slot to be known covered (a set being built has only some).
    complete: u32,
    /// The open slices by canonical material code (`None`: no file).
    slots: Vec<Option<Slice>>,
    cache: BlockCache,
    /// Values worked out for the positions sparse files do not store.
    derived: DerivedCache,
    /// The first file that failed a read (corrupt, or changed on disk), for
    /// [`Tablebase::take_fault`].
    fault: OnceLock<TbError>,
    /// Whether [`Tablebase::take_fault`] has handed the fault out.
    fault_told: AtomicBool,
}

impl Tablebase {
    /// [`Tablebase::open_with_cache`] with the default budget, [`DEFAULT_CACHE`].
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tablebase, TbError> {
        Tablebase::open_with_cache(dir, rules, DEFAULT_CACHE)
    }

    /// Opens `dir` (or its sub-folder for `rules`, see [`crate::tablebase::home::resolve`])
    /// for `rules` (switches and draw rule), plain and compressed files alike,
    /// with a block cache of about `cache` bytes: reads and checks every file's header (and
    /// block table), without reading entries. Refuses a missing directory, one without
    /// tables, a file whose header breaks the format's limits or does not fit its name or
    /// length, and one holding tables of other rules. Corrupt contents are found by
    /// [`Tablebase::verify`], or when a block is read.
    pub fn open_with_cache(dir: &Path, rules: &Rules, cache: u64) -> Result<Tablebase, TbError> {
        let dir = &crate::tablebase::home::resolve(dir, rules);
        let files = format::scan(dir)?;
        if files.is_empty() {
            return Err(TbError::Empty(dir.to_path_buf()));
        }
        let mut max_pieces = 0;
        let mut block = PLAIN_BLOCK;
        let mut slots: Vec<Option<Slice>> = (0..MATERIAL_CODES).map(|_| None).collect();
        for (path, header) in files {
            format::check_rules(&path, &header, rules)?;
            let slice = Slice::open(path, header)?;
            max_pieces = max_pieces.max(header.material.pieces());
            block = block.max(slice.block);
            slots[header.material.code()] = Some(slice);
        }
        let complete = (2..=max_pieces)
            .filter(|&n| {
                Material::slices(n)
                    .into_iter()
                    .filter(|m| m.pieces() == n)
                    .all(|m| slots[m.code()].is_some())
            })
            .fold(0, |bits, n| bits | 1 << n);
        // A quarter of the budget keeps worked-out values when any file is sparse.
        let sparse = slots.iter().flatten().any(|s| s.header.sparse());
        let derived = if sparse { cache / 4 } else { 0 };
        Ok(Tablebase {
            rules: *rules,
            max_pieces,
            complete,
            slots,
            cache: BlockCache::new(cache - derived, block as usize),
            derived: DerivedCache::new(derived),
            fault: OnceLock::new(),
            fault_told: AtomicBool::new(false),
        })
    }

    /// Checks every slice not checked yet (reading every file once: the checksum of a plain
    /// file, every block of a compressed one); the first corrupt file is an error.
    pub fn verify(&self) -> Result<(), TbError> {
        self.slots.iter().flatten().try_for_each(Slice::check)
    }

    /// Checks every plain file whole (its checksum covers the whole file, so it is checked
    /// before any entry is used); a compressed file is not read here, as each block is
    /// checked whenever it is read. This is the engine's check when a `setoption` names
    /// the tables: it costs a read of the plain files only, however large the compressed set.
    pub fn verify_plain(&self) -> Result<(), TbError> {
        self.slots
            .iter()
            .flatten()
            .filter(|s| s.header.layout == Layout::Plain)
            .try_for_each(Slice::check)
    }

    /// The first read that failed (a corrupt block or file, or a file changed on disk), once:
    /// later calls answer `None`. The search takes such positions as not covered and goes on;
    /// this is how the engine learns it should say so.
    pub fn take_fault(&self) -> Option<TbError> {
        let fault = self.fault.get()?;
        (!self.fault_told.swap(true, Ordering::Relaxed)).then(|| fault.clone())
    }

    /// `result`, with its error kept as the tables' fault when it is the first.
    fn noted<T>(&self, result: Result<T, TbError>) -> Result<T, TbError> {
        if let Err(e) = &result {
            // A bad block fails at each probe of it: no copy after the first.
            if self.fault.get().is_none() {
                let _ = self.fault.set(e.clone());
            }
        }
        result
    }

    /// The rules the tables are built for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The most pieces of any slice in the directory.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The most bytes the caches hold: blocks of entries, and values worked out for what
    /// sparse files do not store.
    pub fn cache_capacity(&self) -> u64 {
        self.cache.capacity() + self.derived.bytes()
    }

    /// True when the tables cover `pos`: both sides have a piece, there are at most
    /// [`Tablebase::max_pieces`] of them, and the slice of its material is present (a set
    /// still being built lacks some; a position of theirs is answered as not covered without
    /// an error being made).
    pub fn covers(&self, pos: &Position) -> bool {
        self.in_range(pos)
            && (self.complete & 1 << pos.occupied().count() != 0 || self.slot(pos).is_some())
    }

    /// Both sides have a piece and there are at most [`Tablebase::max_pieces`]: what
    /// [`Tablebase::covers`] asks before the slice, which a probe looks up itself.
    fn in_range(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces
            && pos.pieces(pos.side_to_move()).any()
            && pos.pieces(!pos.side_to_move()).any()
    }

    /// The open slice of `pos`'s material, if any.
    fn slot(&self, pos: &Position) -> Option<&Slice> {
        let code = Material::of(&Masks::of(pos)).canonical().code();
        self.slots.get(code).and_then(Option::as_ref)
    }

    /// The table's value of `pos` (at clock 0; see [`Value::at_clock`]). A position whose side
    /// to move has no move is [`Tablebase::stuck`] without a table.
    pub fn probe(&self, pos: &Position) -> Result<Value, TbError> {
        if !has_moves(pos, &self.rules) {
            return Ok(self.stuck());
        }
        if !self.in_range(pos) {
            return Err(TbError::NotCovered(fen::write(pos)));
        }
        let masks = Masks::of(pos);
        let mat = Material::of(&masks);
        let code = mat.canonical().code();
        let Some(slice) = self.slots.get(code).and_then(Option::as_ref) else {
            return Err(TbError::NotCovered(fen::write(pos)));
        };
        if slice.header.layout == Layout::Plain {
            self.noted(slice.check())?;
        }
        let (h, index) = if slice.halves[0].0 == mat {
            (0, &slice.halves[0].1)
        } else {
            (1, &slice.halves[1].1)
        };
        if slice.header.sparse() && (h == 1 || has_captures(pos, &self.rules)) {
            let key = 1 + ((code as u64) << 35 | (h as u64) << 34 | index.index(&masks));
            let code = match self.derived.get(key) {
                Some(c) => c,
                None => {
                    let c = sparse::derive(pos, &self.rules, |q| self.probe(q).map(Value::code))?;
                    self.derived.put(key, c);
                    c
                }
            };
            return Ok(Value::from_code(code, self.rules.losing));
        }
        let g = h as u64 * slice.halves[0].1.size() + index.index(&masks);
        let b = g / u64::from(slice.block);
        let key = (code as u64) << 32 | (b + 1);
        let size = slice.block_size(b);
        let offset = (g % u64::from(slice.block)) as usize;
        let entry = self.noted(self.cache.entry(key, size, offset, |out| {
            thread_local! {
                static RAW: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
            }
            RAW.with(|raw| slice.load(b, out, &mut raw.borrow_mut()))
        }))?;
        Ok(Value::from_code(entry, self.rules.losing))
    }

    /// The value of a position whose side to move has no move: `loss 0`, or `win 0` in
    /// tables of losing checkers.
    pub fn stuck(&self) -> Value {
        Value::stuck(self.rules.losing)
    }

    /// The result of `pos` at no-progress clock `clock`, or in tables of the 8x8 family at
    /// material count `clock` as [`crate::tablebase::counting::table_count`] gives it (Russian
    /// and Brazilian: [`crate::board::DrawCount::count`], whose 7.2.7 entries hold one
    /// diagonal count, see [`crate::tablebase::solve::answers`]; Pool: twice the three kings'
    /// moves).
    pub fn probe_at(&self, pos: &Position, clock: u32) -> Result<Value, TbError> {
        Ok(self
            .probe(pos)?
            .at_clock(clock, counting::draw_rule(&self.rules)))
    }

    /// What the tables say of a game standing in `pos` at no-progress clock `clock` with the
    /// 8x8 family's counters `draws`, for its side to move: the entry read at the count the
    /// tables count ([`counting::table_count`]: the clock, or the family's material count),
    /// or `None` when the entry is no answer there (a 7.2.7 entry read at another diagonal
    /// count than the one it holds, see [`crate::tablebase::solve::answers`]; the game is
    /// then played or searched on). The one reading of a game state that the search and the
    /// match runner's adjudication share, so that they cannot disagree on it.
    #[inline]
    pub fn game_value(
        &self,
        pos: &Position,
        clock: u32,
        draws: DrawCount,
    ) -> Result<Option<Value>, TbError> {
        let value = self.probe_at(pos, counting::table_count(&self.rules, clock, draws))?;
        Ok(crate::tablebase::solve::answers(value, pos, &self.rules, draws).then_some(value))
    }

    /// Bytes of the slice files on disk, and how many are compressed.
    pub fn files(&self) -> (u64, usize) {
        let mut bytes = 0;
        let mut compressed = 0;
        for s in self.slots.iter().flatten() {
            bytes += s.data_start
                + match s.header.layout {
                    Layout::Plain => s.header.positions(),
                    Layout::Compressed { .. } => s.table.last().map_or(0, |t| t.0),
                };
            compressed += usize::from(s.header.layout != Layout::Plain);
        }
        (bytes, compressed)
    }
}
