//! Slice files: a 64-byte header, then one byte per position.
//!
//! Header (little-endian): magic `BGTBASE\x1a` (8 bytes), format version (u32), rule switches
//! (u32: bit 0 `BackwardCapture`, bit 1 `LongKings`, bit 2 `Losing`), `DrawHalfMoves` (u32),
//! the material of the first half (4 bytes: Black men, Black kings, White men, White kings),
//! the number of halves (u32: 2, or 1 when the material is its own mirror), positions per half
//! (u64), a checksum of the header (with this field zero) and every entry (u64), zero padding.
//! Then
//! each half's entries in index order: half 0 is the material with Black to move, half 1 its
//! mirror with Black to move (that is, the material with White to move, turned round).
//! Entry bytes are [`crate::tablebase::Value::code`]s, read by the header's `Losing` bit.
//!
//! A file is checked whole (magic, version, length, checksum, header against its name) before
//! any entry is used, so a truncated, corrupt or foreign file is refused with an error instead
//! of giving a wrong value.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::board::Rules;
use crate::tablebase::index::SliceIndex;
use crate::tablebase::{Material, TbError};

/// The first bytes of every slice file.
pub const MAGIC: [u8; 8] = *b"BGTBASE\x1a";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the first entry.
pub const HEADER_LEN: usize = 64;
/// The file name extension.
pub const EXTENSION: &str = "bgtb";

/// The rules a table was built for: the two switches and the draw rule.
pub fn describe_rules(rules: &Rules) -> String {
    rules.to_string()
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
    /// Checksum of header and entries.
    pub checksum: u64,
}

impl Header {
    fn bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        let flags = u32::from(self.rules.backward_capture)
            | u32::from(self.rules.long_kings) << 1
            | u32::from(self.rules.losing) << 2;
        h[12..16].copy_from_slice(&flags.to_le_bytes());
        h[16..20].copy_from_slice(&self.rules.draw_half_moves.to_le_bytes());
        let m = self.material;
        h[20..24].copy_from_slice(&[m.bm, m.bk, m.wm, m.wk]);
        h[24..28].copy_from_slice(&self.halves.to_le_bytes());
        h[28..36].copy_from_slice(&self.entries.to_le_bytes());
        h[36..44].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    fn parse(path: &Path, h: &[u8]) -> Result<Header, TbError> {
        if h.len() < MAGIC.len() || h[..8] != MAGIC {
            return Err(TbError::Foreign(path.to_path_buf()));
        }
        let u32_at = |i: usize| {
            h.get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let u64_at = |i: usize| {
            h.get(i..i + 8).map(|b| {
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                u64::from_le_bytes(a)
            })
        };
        let short = || TbError::Length {
            path: path.to_path_buf(),
            found: h.len() as u64,
            expected: HEADER_LEN as u64,
        };
        let version = u32_at(8).ok_or_else(short)?;
        if version != VERSION {
            return Err(TbError::Version {
                path: path.to_path_buf(),
                found: version,
                expected: VERSION,
            });
        }
        if h.len() < HEADER_LEN {
            return Err(short());
        }
        let flags = u32_at(12).ok_or_else(short)?;
        let draw = u32_at(16).ok_or_else(short)?;
        let material = Material {
            bm: h[20],
            bk: h[21],
            wm: h[22],
            wk: h[23],
        };
        Ok(Header {
            rules: Rules {
                backward_capture: flags & 1 != 0,
                long_kings: flags & 2 != 0,
                draw_half_moves: draw,
                losing: flags & 4 != 0,
            },
            material,
            halves: u32_at(24).ok_or_else(short)?,
            entries: u64_at(28).ok_or_else(short)?,
            checksum: u64_at(36).ok_or_else(short)?,
        })
    }
}

/// A 64-bit checksum, eight bytes a step (a multiply-rotate hash: fast and sensitive to
/// every bit and to order; not cryptographic).
pub(crate) fn checksum(header: &[u8], data: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0x2545_F491_4F6C_DD1D;
    for part in [header, data] {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            h = (h.rotate_left(23) ^ u64::from_le_bytes(a)).wrapping_mul(K);
        }
        let mut a = [0u8; 8];
        let rest = chunks.remainder();
        a[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(a) ^ rest.len() as u64).wrapping_mul(K);
    }
    h ^ (h >> 31)
}

/// The file of `material` (canonical) in `dir`.
pub fn path_of(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

/// Writes one slice: `data` holds the halves one after the other. Written to a temporary file
/// and renamed, so an interrupted build never leaves a half-written table under the real name.
pub fn write(dir: &Path, material: Material, rules: &Rules, data: &[u8]) -> Result<u64, TbError> {
    let halves = material.halves().len() as u32;
    let mut header = Header {
        rules: *rules,
        material,
        halves,
        entries: data.len() as u64 / u64::from(halves),
        checksum: 0,
    };
    header.checksum = checksum(&header.bytes(), data);
    let path = path_of(dir, material);
    // A name of this process and call alone, so that two builders never write one file.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("{EXTENSION}.{}.{call}.tmp", std::process::id()));
    let mut f = fs::File::create(&tmp).map_err(|e| TbError::io(&tmp, &e))?;
    f.write_all(&header.bytes())
        .and_then(|()| f.write_all(data))
        .and_then(|()| f.sync_all())
        .map_err(|e| TbError::io(&tmp, &e))?;
    fs::rename(&tmp, &path).map_err(|e| TbError::io(&path, &e))?;
    Ok((HEADER_LEN + data.len()) as u64)
}

/// Reads the header of a file only (for scanning a directory).
pub fn read_header(path: &Path) -> Result<Header, TbError> {
    use std::io::Read;
    let f = fs::File::open(path).map_err(|e| TbError::io(path, &e))?;
    let mut h = Vec::with_capacity(HEADER_LEN);
    f.take(HEADER_LEN as u64)
        .read_to_end(&mut h)
        .map_err(|e| TbError::io(path, &e))?;
    Header::parse(path, &h)
}

/// Reads and checks the file of `material` in `dir` (see [`check`]). Returns the entries of
/// both halves.
pub fn read(dir: &Path, material: Material, rules: &Rules) -> Result<Vec<u8>, TbError> {
    let path = path_of(dir, material);
    let mut bytes = match fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TbError::Missing(material.to_string()))
        }
        Err(e) => return Err(TbError::io(&path, &e)),
    };
    check(&path, &bytes, material, rules)?;
    Ok(bytes.split_off(HEADER_LEN))
}

/// Checks the whole image `bytes` of file `path`: its header must name `material` and
/// `rules`, its length and checksum must match.
pub fn check(path: &Path, bytes: &[u8], material: Material, rules: &Rules) -> Result<(), TbError> {
    let header = check_header(path, bytes, material, rules)?;
    let blank = Header {
        checksum: 0,
        ..header
    };
    let data = bytes.get(HEADER_LEN..).unwrap_or_default();
    if checksum(&blank.bytes(), data) != header.checksum {
        return Err(TbError::Corrupt(path.to_path_buf()));
    }
    Ok(())
}

/// Checks the header of the image `bytes` of file `path` against `material`, `rules` and the
/// image's length, without reading the entries (see [`check`] for the checksum); returns the
/// header.
pub fn check_header(
    path: &Path,
    bytes: &[u8],
    material: Material,
    rules: &Rules,
) -> Result<Header, TbError> {
    let header = Header::parse(path, bytes)?;
    check_rules(path, &header, rules)?;
    let halves = material.halves().len() as u32;
    let entries = SliceIndex::new(material).size();
    if header.material != material || header.halves != halves || header.entries != entries {
        return Err(TbError::BadHeader {
            path: path.to_path_buf(),
            what: format!(
                "material {} with {} halves of {} entries, expected {material} with {halves} of {entries}",
                header.material, header.halves, header.entries
            ),
        });
    }
    let expected = HEADER_LEN as u64 + u64::from(halves) * entries;
    if bytes.len() as u64 != expected {
        return Err(TbError::Length {
            path: path.to_path_buf(),
            found: bytes.len() as u64,
            expected,
        });
    }
    Ok(header)
}

/// Refuses a file whose length is not what its header implies (truncated or padded), from
/// its size on disk, without reading it.
pub fn check_length(path: &Path, header: &Header) -> Result<(), TbError> {
    let found = fs::metadata(path).map_err(|e| TbError::io(path, &e))?.len();
    let expected = u64::from(header.halves)
        .checked_mul(header.entries)
        .and_then(|n| n.checked_add(HEADER_LEN as u64));
    if Some(found) != expected {
        return Err(TbError::Length {
            path: path.to_path_buf(),
            found,
            expected: expected.unwrap_or(u64::MAX),
        });
    }
    Ok(())
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

/// The table files of `dir`, sorted by name, each with its header or why it cannot be read.
pub fn scan_all(dir: &Path) -> Result<Vec<Scanned>, TbError> {
    if !dir.is_dir() {
        return Err(TbError::NoDirectory(dir.to_path_buf()));
    }
    let mut out = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| TbError::io(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| TbError::io(dir, &e))?.path();
        if path.extension().is_some_and(|x| x == EXTENSION) {
            let header = read_header(&path);
            out.push((path, header));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_sees_every_byte_and_order() {
        let a = checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_ne!(a, checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8, 8]));
        assert_ne!(a, checksum(b"head", &[2, 1, 3, 4, 5, 6, 7, 8, 9]));
        assert_ne!(a, checksum(b"head", &[1, 2, 3, 4, 5, 6, 7, 8]));
    }
}
