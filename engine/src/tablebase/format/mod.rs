//! Slice files: a 64-byte header, then the entries, plain (one byte per position) or
//! compressed in blocks.
//!
//! Header (little-endian): magic `BGTBASE\x1a` (8 bytes), format version (u32: 1 plain, 2
//! compressed, 3 sparse compressed), rule switches (u32: bit 0 `BackwardCapture`, bit 1 `LongKings`, bit 2
//! `Losing`, bits 3-4 the rule set of the 8x8 family: 0 none, the Buff and Green setting the
//! switches name; 1 Russian, 2 Brazilian, 3 Pool, whose entries count the material rules, see
//! [`crate::tablebase::counting`]), `DrawHalfMoves` (u32), the material of the first half (4 bytes: Black men, Black
//! kings, White men, White kings), the number of halves (u32: 2, or 1 when the material is its
//! own mirror), positions per half (u64), a checksum (u64) of the header (with this field
//! zero) and of what follows it (version 1: every entry; version 2: the block table), then
//! (version 2 only) entries per block (u32) and the codec (u32), and zero padding.
//!
//! Version 1 then holds each half's entries in index order: half 0 is the material with Black
//! to move, half 1 its mirror with Black to move (that is, the material with White to move,
//! turned round). Version 2 cuts that same sequence into blocks of a fixed number of entries,
//! each compressed on its own (see [`crate::tablebase::format::compress`]): a block table of one
//! (end offset, checksum) pair per block, then the compressed blocks back to back. Version 3
//! is version 2 over half 0's entries only, with fillers at capture positions (see
//! [`crate::tablebase::format::sparse`]); the builder and `tb compress` write it.
//! Entry bytes are [`crate::tablebase::Value::code`]s, read by the header's `Losing` bit.
//!
//! Every header field is checked against the format's limits (known version and codec, no
//! unknown switch, a draw rule an entry can count, a material of 2 to
//! [`MAX_PIECES`] pieces with a piece on each side and
//! in canonical form, the halves and positions its index implies, zero padding) and against
//! the file's name and length before anything else is read, so a forged or foreign header is
//! one error, never an index out of range; the checksums are checked before any entry is used.
//!
//! Layout: this file reads and writes the header and the entries; [`compress`] makes and reads
//! the compressed blocks, [`sparse`] says which entries a sparse file leaves out and restores
//! them, `checksum` is the files' checksum, and [`convert`] turns plain files into sparse
//! compressed ones.

pub(crate) mod checksum;
pub mod compress;
pub mod convert;
pub mod sparse;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::board::{Rules, Variant};
use crate::tablebase::format::checksum::checksum;
use crate::tablebase::format::compress::{Codec, BLOCK_ENTRY_LEN};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::MAX_PIECES;
use crate::tablebase::solve::MAX_DISTANCE;
use crate::tablebase::{Material, TbError};

/// The first bytes of every slice file.
pub const MAGIC: [u8; 8] = *b"BGTBASE\x1a";
/// The format version of plain tables (one byte per position).
pub const VERSION: u32 = 1;
/// The format version of compressed tables (blocks, a block table, a checksum per block).
pub const VERSION_COMPRESSED: u32 = 2;
/// The format version of sparse compressed tables: as version 2, but holding only the
/// entries a probe cannot work out from others (see [`crate::tablebase::format::sparse`]).
pub const VERSION_SPARSE: u32 = 3;
/// Bytes before the first entry (plain) or the block table (compressed).
pub const HEADER_LEN: usize = 64;
/// The file name extension.
pub const EXTENSION: &str = "bgtb";
/// The suffix of a file being written (see [`write()`]).
pub const TEMPORARY: &str = "tmp";

/// The rules a table was built for: the two switches and the draw rule.
pub fn describe_rules(rules: &Rules) -> String {
    rules.to_string()
}

/// How a file stores its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Version 1: one byte per position.
    Plain,
    /// Version 2 or 3: blocks of `block` entries, each compressed by `codec`.
    Compressed {
        /// Entries per block (a power of two, see [`compress::BLOCK_LIMITS`]).
        block: u32,
        /// The codec of every block.
        codec: Codec,
        /// Version 3: only half 0 is stored, and the entries of its capture positions are
        /// fillers (see [`crate::tablebase::format::sparse`]).
        sparse: bool,
    },
}

/// A file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The rules the table was built for.
    pub rules: Rules,
    /// The material of half 0 (the canonical one).
    pub material: Material,
    /// 1 or 2.
    pub halves: u32,
    /// Positions per half.
    pub entries: u64,
    /// Checksum of header and entries (plain) or of header and block table (compressed).
    pub checksum: u64,
    /// Plain or compressed.
    pub layout: Layout,
}

impl Header {
    /// Positions in the file, both halves.
    pub fn positions(&self) -> u64 {
        u64::from(self.halves) * self.entries
    }

    /// True for a sparse file (version 3).
    pub fn sparse(&self) -> bool {
        matches!(self.layout, Layout::Compressed { sparse: true, .. })
    }

    /// Entries the file holds: every position's, or half 0's in a sparse file.
    pub fn stored(&self) -> u64 {
        if self.sparse() {
            self.entries
        } else {
            self.positions()
        }
    }

    /// Blocks of a compressed file (0 for a plain one).
    pub fn blocks(&self) -> u64 {
        match self.layout {
            Layout::Plain => 0,
            Layout::Compressed { block, .. } => self.stored().div_ceil(u64::from(block)),
        }
    }

    /// The header's 64 bytes.
    pub fn bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        let version = match self.layout {
            Layout::Plain => VERSION,
            Layout::Compressed { sparse: false, .. } => VERSION_COMPRESSED,
            Layout::Compressed { sparse: true, .. } => VERSION_SPARSE,
        };
        h[8..12].copy_from_slice(&version.to_le_bytes());
        let flags = u32::from(self.rules.backward_capture)
            | u32::from(self.rules.long_kings) << 1
            | u32::from(self.rules.losing) << 2
            | family_code(&self.rules) << 3;
        h[12..16].copy_from_slice(&flags.to_le_bytes());
        h[16..20].copy_from_slice(&self.rules.draw_half_moves.to_le_bytes());
        let m = self.material;
        h[20..24].copy_from_slice(&[m.bm, m.bk, m.wm, m.wk]);
        h[24..28].copy_from_slice(&self.halves.to_le_bytes());
        h[28..36].copy_from_slice(&self.entries.to_le_bytes());
        h[36..44].copy_from_slice(&self.checksum.to_le_bytes());
        if let Layout::Compressed { block, codec, .. } = self.layout {
            h[44..48].copy_from_slice(&block.to_le_bytes());
            h[48..52].copy_from_slice(&codec.id().to_le_bytes());
        }
        h
    }

    /// The header with its checksum field zero, as the checksum covers it.
    pub fn blank(&self) -> [u8; HEADER_LEN] {
        Header {
            checksum: 0,
            ..*self
        }
        .bytes()
    }

    /// The header of `h` (the first bytes of file `path`), every field checked against the
    /// format's limits.
    pub fn parse(path: &Path, h: &[u8]) -> Result<Header, TbError> {
        if h.len() < MAGIC.len() || h[..8] != MAGIC {
            return Err(TbError::Foreign(path.to_path_buf()));
        }
        if h.len() < HEADER_LEN {
            return Err(TbError::Length {
                path: path.to_path_buf(),
                found: h.len() as u64,
                expected: HEADER_LEN as u64,
            });
        }
        let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
        let u64_at = |i: usize| u64::from(u32_at(i)) | u64::from(u32_at(i + 4)) << 32;
        let bad = |what: String| TbError::BadHeader {
            path: path.to_path_buf(),
            what,
        };
        let version = u32_at(8);
        if ![VERSION, VERSION_COMPRESSED, VERSION_SPARSE].contains(&version) {
            return Err(TbError::Version {
                path: path.to_path_buf(),
                found: version,
                expected: VERSION,
            });
        }
        let flags = u32_at(12);
        let family = FAMILY.get(flags as usize >> 3).copied();
        let Some(family) = family.filter(|_| flags & !31 == 0) else {
            return Err(bad(format!("unknown rule switches {flags:#x}")));
        };
        let draw = u32_at(16);
        if draw > MAX_DISTANCE {
            return Err(bad(format!(
                "DrawHalfMoves {draw} is above {MAX_DISTANCE}, the longest distance an entry holds"
            )));
        }
        let material = material_of(&h[20..24]).map_err(bad)?;
        let halves = u32_at(24);
        let entries = u64_at(28);
        let want_halves = material.halves().len() as u32;
        let want_entries = SliceIndex::new(material).size();
        if halves != want_halves || entries != want_entries {
            return Err(bad(format!(
                "material {material} with {halves} halves of {entries} entries, expected {want_halves} of {want_entries}"
            )));
        }
        let layout = if version == VERSION {
            Layout::Plain
        } else {
            let block = u32_at(44);
            if !compress::BLOCK_LIMITS.contains(&block) || !block.is_power_of_two() {
                return Err(bad(format!(
                    "{block} entries per block, expected a power of two in {}..={}",
                    compress::BLOCK_LIMITS.start(),
                    compress::BLOCK_LIMITS.end()
                )));
            }
            let id = u32_at(48);
            let codec = Codec::from_id(id).ok_or_else(|| bad(format!("unknown codec {id}")))?;
            Layout::Compressed {
                block,
                codec,
                sparse: version == VERSION_SPARSE,
            }
        };
        let padding = if version == VERSION { 44 } else { 52 };
        if h[padding..HEADER_LEN].iter().any(|&b| b != 0) {
            return Err(bad("padding is not zero".to_string()));
        }
        let switches = Rules {
            backward_capture: flags & 1 != 0,
            long_kings: flags & 2 != 0,
            draw_half_moves: draw,
            losing: flags & 4 != 0,
            ..Rules::BUFF_AND_GREEN
        };
        let rules = match family {
            None => switches,
            Some(variant) => {
                let rules = switches.with_variant(variant);
                if (rules.backward_capture, rules.long_kings)
                    != (switches.backward_capture, switches.long_kings)
                {
                    return Err(bad(format!(
                        "rule switches {flags:#x} are not those of {}",
                        variant.name()
                    )));
                }
                rules
            }
        };
        Ok(Header {
            rules,
            material,
            halves,
            entries,
            checksum: u64_at(36),
            layout,
        })
    }
}

/// The rule sets of the 8x8 family a header names, by their code (bits 3-4 of the switches):
/// 0 none.
const FAMILY: [Option<Variant>; 4] = [
    None,
    Some(Variant::Russian),
    Some(Variant::Brazilian),
    Some(Variant::Pool),
];

/// The code of the family rule set of `rules` in a header (0: none, the switches name the
/// rules). Tables are built for no other rule set of the family (see
/// [`crate::tablebase::build::build`]).
fn family_code(rules: &Rules) -> u32 {
    let variant = rules.variant();
    FAMILY
        .iter()
        .position(|&v| v == Some(variant))
        .map_or(0, |code| code as u32)
}

/// The material of a header's four count bytes, refused unless a table of it can exist:
/// 2 to [`MAX_PIECES`] pieces, a piece on each side, in canonical form.
fn material_of(b: &[u8]) -> Result<Material, String> {
    let m = Material {
        bm: b[0],
        bk: b[1],
        wm: b[2],
        wk: b[3],
    };
    let pieces = b.iter().map(|&c| u32::from(c)).sum::<u32>();
    let shown = format!("b{}m{}k-w{}m{}k", b[0], b[1], b[2], b[3]);
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(format!(
            "material {shown} has {pieces} pieces, tables hold 2 to {MAX_PIECES}"
        ));
    }
    if m.bm + m.bk == 0 || m.wm + m.wk == 0 {
        return Err(format!("material {shown} leaves a side without pieces"));
    }
    if m.canonical() != m {
        return Err(format!(
            "material {shown} is not canonical (the file is named by {})",
            m.canonical()
        ));
    }
    Ok(m)
}

/// The file of `material` (canonical) in `dir`.
pub fn path_of(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

/// This machine's name as temporary files carry it: a sweep removes only the temporaries of
/// dead processes of this machine (a build may span machines on one shared directory).
fn host() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let clean: String = name
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    if clean.is_empty() {
        "host".to_string()
    } else {
        clean
    }
}

/// Writes `parts` (one after the other) as the file of `material` in `dir`: to a temporary
/// file `<name>.<host>.<pid>.<n>.tmp`, synced and renamed, so an interrupted build never
/// leaves a half-written table under the real name; a failed write removes its temporary.
fn write_file(dir: &Path, material: Material, parts: &[&[u8]]) -> Result<u64, TbError> {
    let path = path_of(dir, material);
    let tmp = fresh_temporary(dir, material);
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if let Err(e) = written {
        // Nothing to do if the removal fails too: the next build sweeps it.
        let _ = fs::remove_file(&tmp);
        return Err(TbError::io(&tmp, &e));
    }
    Ok(parts.iter().map(|p| p.len() as u64).sum())
}

/// A temporary file of `material` in `dir` no other write uses: named by this process and
/// its count of calls, so that two builders never write one file.
pub(crate) fn fresh_temporary(dir: &Path, material: Material) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    temporary_path(dir, material, std::process::id(), call)
}

/// The temporary file of `material` in `dir` written by process `pid` of this machine at its
/// `call`-th write.
pub fn temporary_path(dir: &Path, material: Material, pid: u32, call: u64) -> PathBuf {
    path_of(dir, material)
        .with_extension(format!("{EXTENSION}.{}.{pid}.{call}.{TEMPORARY}", host()))
}

/// Removes the temporaries in `dir` left by processes of this machine that are no longer
/// running (a build that was killed, or whose removal failed); returns how many. Those of
/// running processes (another worker of a sharded build) and of other machines are kept.
pub fn sweep_temporaries(dir: &Path) -> Result<usize, TbError> {
    let me = host();
    let mut removed = 0;
    let entries = fs::read_dir(dir).map_err(|e| TbError::io(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| TbError::io(dir, &e))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // <material>.bgtb.<host>.<pid>.<n>.tmp
        let fields: Vec<&str> = name.split('.').collect();
        let [_, ext, host, pid, _, tmp] = fields[..] else {
            continue;
        };
        if ext != EXTENSION || tmp != TEMPORARY || host != me {
            continue;
        }
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || running(pid) {
            continue;
        }
        fs::remove_file(&path).map_err(|e| TbError::io(&path, &e))?;
        removed += 1;
    }
    Ok(removed)
}

/// True when a process `pid` runs on this machine (where that cannot be told, it is assumed
/// to run, and its temporaries are kept).
fn running(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// The header of a slice of `material` whose entries (both halves) are `data`, its checksum
/// not yet set.
fn header_for(material: Material, rules: &Rules, data: &[u8], layout: Layout) -> Header {
    let halves = material.halves().len() as u32;
    Header {
        rules: *rules,
        material,
        halves,
        entries: data.len() as u64 / u64::from(halves),
        checksum: 0,
        layout,
    }
}

/// Writes one plain slice: `data` holds the halves one after the other (see `write_file`).
pub fn write(dir: &Path, material: Material, rules: &Rules, data: &[u8]) -> Result<u64, TbError> {
    let mut header = header_for(material, rules, data, Layout::Plain);
    header.checksum = checksum(&header.bytes(), data);
    write_file(dir, material, &[&header.bytes(), data])
}

/// Writes one sparse compressed slice (version 3): `data` holds every entry of both halves,
/// of which only those a probe cannot work out are kept (see [`sparse::keep`]); the work
/// runs on `threads` threads.
pub fn write_compressed(
    dir: &Path,
    material: Material,
    rules: &Rules,
    data: &[u8],
    threads: usize,
) -> Result<u64, TbError> {
    let kept = sparse::keep(material, rules, data, threads);
    let (table, blocks) = compress::encode(&kept, compress::BLOCK, compress::CODEC, threads);
    let layout = Layout::Compressed {
        block: compress::BLOCK,
        codec: compress::CODEC,
        sparse: true,
    };
    let mut header = header_for(material, rules, data, layout);
    header.checksum = checksum(&header.bytes(), &table);
    write_file(dir, material, &[&header.bytes(), &table, &blocks])
}

/// Opens `path` for reading when it is a regular file (or a link to one). Anything else named
/// like a table (a FIFO, a device, a directory) is refused with an error of kind
/// `InvalidInput` before it is opened: opening a FIFO waits for a writer, for ever, and a
/// device may never end. A missing file is the error of kind `NotFound`, as from
/// [`fs::File::open`].
pub fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    if !fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    fs::File::open(path)
}

/// Reads the header of a file only (for scanning a directory).
pub fn read_header(path: &Path) -> Result<Header, TbError> {
    use std::io::Read;
    let f = open_regular(path).map_err(|e| TbError::io(path, &e))?;
    let mut h = Vec::with_capacity(HEADER_LEN);
    f.take(HEADER_LEN as u64)
        .read_to_end(&mut h)
        .map_err(|e| TbError::io(path, &e))?;
    Header::parse(path, &h)
}

/// The entries a file holds: every entry of both halves, or (`sparse`) those of a sparse
/// file, which [`sparse::restore`] completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The entries in the file's order.
    pub data: Vec<u8>,
    /// Only half 0, with fillers at capture positions (version 3).
    pub sparse: bool,
}

/// Reads and checks the file of `material` in `dir`, plain or compressed (see [`decode`]).
pub fn read(dir: &Path, material: Material, rules: &Rules) -> Result<Stored, TbError> {
    use std::io::Read;
    let path = path_of(dir, material);
    let mut bytes = Vec::new();
    match open_regular(&path).and_then(|mut f| f.read_to_end(&mut bytes)) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TbError::Missing(material.to_string()))
        }
        Err(e) => return Err(TbError::io(&path, &e)),
    }
    decode(&path, bytes, material, rules)
}

/// The entries of the whole image `bytes` of file `path`, whose header must name `material`
/// and `rules` and whose length and checksums must match.
pub fn decode(
    path: &Path,
    bytes: Vec<u8>,
    material: Material,
    rules: &Rules,
) -> Result<Stored, TbError> {
    let header = Header::parse(path, &bytes)?;
    Ok(Stored {
        data: decode_entries(path, bytes, material, rules)?,
        sparse: header.sparse(),
    })
}

/// The entries [`decode`] returns, without saying whether they are sparse.
fn decode_entries(
    path: &Path,
    mut bytes: Vec<u8>,
    material: Material,
    rules: &Rules,
) -> Result<Vec<u8>, TbError> {
    let header = Header::parse(path, &bytes)?;
    check_fits(path, &header, material, rules)?;
    check_length(path, &header, bytes.len() as u64, body_of(&header, &bytes))?;
    match header.layout {
        Layout::Plain => {
            if checksum(&header.blank(), &bytes[HEADER_LEN..]) != header.checksum {
                return Err(TbError::Corrupt(path.to_path_buf()));
            }
            Ok(bytes.split_off(HEADER_LEN))
        }
        Layout::Compressed { block, codec, .. } => {
            let table = block_table(path, &header, &bytes[HEADER_LEN..])?;
            let start = HEADER_LEN + table.len() * BLOCK_ENTRY_LEN;
            let data = &bytes[start..];
            let total = header.stored();
            let mut out = Vec::with_capacity(total as usize);
            let mut begin = 0u64;
            for (b, &(end, sum)) in table.iter().enumerate() {
                let raw = &data[begin as usize..end as usize];
                let size = (total - b as u64 * u64::from(block)).min(u64::from(block));
                compress::check_block(path, b as u64, raw, sum)?;
                compress::decode_into(path, b as u64, codec, raw, size as usize, &mut out)?;
                begin = end;
            }
            Ok(out)
        }
    }
}

/// The bytes after the header's block table of a compressed image (its compressed blocks),
/// for the length check; `None` for a plain one.
fn body_of<'a>(header: &Header, bytes: &'a [u8]) -> Option<&'a [u8]> {
    match header.layout {
        Layout::Plain => None,
        Layout::Compressed { .. } => bytes.get(HEADER_LEN..),
    }
}

/// The block table of a compressed file from the bytes after its header (`after`), checked:
/// the header's checksum covers it, its end offsets rise.
pub fn block_table(path: &Path, header: &Header, after: &[u8]) -> Result<Vec<(u64, u64)>, TbError> {
    let blocks = header.blocks() as usize;
    let len = blocks * BLOCK_ENTRY_LEN;
    let Some(raw) = after.get(..len) else {
        return Err(TbError::Length {
            path: path.to_path_buf(),
            found: (HEADER_LEN + after.len()) as u64,
            expected: (HEADER_LEN + len) as u64,
        });
    };
    if checksum(&header.blank(), raw) != header.checksum {
        return Err(TbError::Corrupt(path.to_path_buf()));
    }
    let word = |i: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&raw[i..i + 8]);
        u64::from_le_bytes(a)
    };
    let table: Vec<(u64, u64)> = (0..blocks)
        .map(|b| (word(b * BLOCK_ENTRY_LEN), word(b * BLOCK_ENTRY_LEN + 8)))
        .collect();
    let mut last = 0;
    for &(end, _) in &table {
        if end < last {
            return Err(TbError::Corrupt(path.to_path_buf()));
        }
        last = end;
    }
    Ok(table)
}

/// The length a file must have by its header: plain, header and entries; compressed,
/// header, block table and the last block's end offset (read from the table when `body`
/// holds it, else not checked beyond the table).
pub fn expected_length(header: &Header, last_end: Option<u64>) -> Option<u64> {
    match header.layout {
        Layout::Plain => header.positions().checked_add(HEADER_LEN as u64),
        Layout::Compressed { .. } => {
            let table = header.blocks().checked_mul(BLOCK_ENTRY_LEN as u64)?;
            (HEADER_LEN as u64 + table).checked_add(last_end.unwrap_or(0))
        }
    }
}

/// Refuses a file of `found` bytes whose length is not what its header implies (truncated or
/// padded). For a compressed file the block table's last end offset is read from `body`
/// (the bytes after the header) when given.
fn check_length(
    path: &Path,
    header: &Header,
    found: u64,
    body: Option<&[u8]>,
) -> Result<(), TbError> {
    let last_end = match body {
        Some(after) => Some(
            block_table(path, header, after)?
                .last()
                .map_or(0, |&(end, _)| end),
        ),
        None => None,
    };
    let expected = expected_length(header, last_end);
    if Some(found) != expected {
        return Err(TbError::Length {
            path: path.to_path_buf(),
            found,
            expected: expected.unwrap_or(u64::MAX),
        });
    }
    Ok(())
}

/// Refuses a header that names another material than `material` or other rules than
/// `rules`.
pub fn check_fits(
    path: &Path,
    header: &Header,
    material: Material,
    rules: &Rules,
) -> Result<(), TbError> {
    check_rules(path, header, rules)?;
    if header.material != material {
        return Err(TbError::BadHeader {
            path: path.to_path_buf(),
            what: format!("material {}, expected {material}", header.material),
        });
    }
    Ok(())
}

/// Why a slice file does not count as built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    /// There is no file.
    #[error("missing")]
    Missing,
    /// The file's header cannot be read or names another slice or other rules: why.
    #[error("{0}")]
    Bad(String),
}

/// Whether the file of `material` is in `dir` with a header for `rules`; else why not.
pub fn header_fits(dir: &Path, material: Material, rules: &Rules) -> Result<(), Unfit> {
    let path = path_of(dir, material);
    read_header(&path)
        .and_then(|h| check_fits(&path, &h, material, rules))
        .map_err(|e| match e {
            TbError::Io { .. } if !path.exists() => Unfit::Missing,
            e => Unfit::Bad(e.to_string()),
        })
}

/// Refuses a header built for other rules than `rules`.
pub fn check_rules(path: &Path, header: &Header, rules: &Rules) -> Result<(), TbError> {
    if header.rules != *rules {
        return Err(TbError::OtherRules {
            path: path.to_path_buf(),
            found: describe_rules(&header.rules),
            wanted: describe_rules(rules),
        });
    }
    Ok(())
}

/// The table files of `dir` with their headers, sorted by name; the first unreadable header
/// is an error.
pub fn scan(dir: &Path) -> Result<Vec<(PathBuf, Header)>, TbError> {
    scan_all(dir)?
        .into_iter()
        .map(|(path, header)| header.map(|h| (path, h)))
        .collect()
}

/// A table file and its header, or why the header cannot be read.
pub type Scanned = (PathBuf, Result<Header, TbError>);

/// The table files of `dir`, sorted by name, each with its header (checked against the
/// format's limits and the file's name) or why it cannot be read.
pub fn scan_all(dir: &Path) -> Result<Vec<Scanned>, TbError> {
    if !dir.is_dir() {
        return Err(TbError::NoDirectory(dir.to_path_buf()));
    }
    let mut out = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| TbError::io(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| TbError::io(dir, &e))?.path();
        if path.extension().is_some_and(|x| x == EXTENSION) {
            let header = read_header(&path).and_then(|h| {
                if path_of(dir, h.material) == path {
                    Ok(h)
                } else {
                    Err(TbError::BadHeader {
                        path: path.clone(),
                        what: format!("material {}, which is not the file's name", h.material),
                    })
                }
            });
            out.push((path, header));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::format::checksum::Checksum;

    #[test]
    fn checksum_in_pieces_is_the_checksum() {
        let data: Vec<u8> = (0..100u8).collect();
        let mut c = Checksum::new();
        c.part(b"head");
        c.words(&data[..64]);
        c.end_part(&data[64..]);
        assert_eq!(c.finish(), checksum(b"head", &data));
    }

    #[test]
    fn checksum_sees_every_byte_and_order() {
        let a = checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_ne!(a, checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8, 8]));
        assert_ne!(a, checksum(b"head", &[2, 1, 3, 4, 5, 6, 7, 8, 9]));
        assert_ne!(a, checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8]));
    }
}
