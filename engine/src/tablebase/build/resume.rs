//! A slice's work saved between the levels of its retrograde passes, so that a build stopped in
//! the middle of a large slice (a session's end, a job killed by its scheduler) goes on from
//! the last level saved instead of from the start of the slice: the largest 7-piece slices
//! take longer than a batch job or a working session lasts.
//!
//! The file `<material>.resume` in the build's directory holds the number of levels done and
//! the slice's arrays (the entries, then the pending counts, half by half), cut into chunks,
//! each compressed at zstd's fastest level and checked by its checksum. A slice of the 8x8
//! family's tables (Pool, Russian, Brazilian: [`counting::counts_material`]) keeps more: its
//! save, of a version of its own ([`FAMILY_VERSION`]), holds after those arrays the floors and
//! the first pass's notes, half by half, and then the build's counters (entries written and
//! wins scheduled by distance, the levels' horizon, the highest floor) as one more array of
//! [`COUNTERS_LEN`] bytes. A save of one kind is refused by a build of the other. A file that does not
//! match the slice, the rules or its checksums is refused and the slice starts over: a resumed
//! slice is never built from a guess. It is written to a temporary and renamed, so a build
//! killed while saving keeps the previous save, and removed once the slice file is written.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::Rules;
use crate::tablebase::counting;
use crate::tablebase::format::checksum::checksum;
use crate::tablebase::format::compress::block_checksum;
use crate::tablebase::format::{self, describe_rules};
use crate::tablebase::solve::distance_limit;
use crate::tablebase::work::in_parallel;
use crate::tablebase::{Material, TbError};

/// The extension of a resume file.
pub const EXTENSION: &str = "resume";
const MAGIC: [u8; 8] = *b"BGRESUME";
/// The version of a save of a slice counted by the clock (Buff and Green, English).
const VERSION: u32 = 1;
/// The version of a save of a slice of the 8x8 family (see the module comment): its arrays
/// and counters are more than a save of a clock-counted slice (version 1) holds.
pub const FAMILY_VERSION: u32 = 2;
/// Bytes of the family build's counters in a save of [`FAMILY_VERSION`]: entries written and
/// wins scheduled by distance (0 to 127, eight bytes each), then the horizon and the highest
/// floor (four bytes each).
pub const COUNTERS_LEN: usize = 2 * 128 * 8 + 2 * 4;
const HEADER_LEN: usize = 64;
/// Bytes of an array per chunk: chunks are compressed on their own, several at once.
const CHUNK: usize = 1 << 22;
/// Chunk table entry: the compressed length and the checksum.
const ENTRY_LEN: usize = 16;
/// zstd's fastest level: a save is a pause of the build, and the file lives for one slice.
const LEVEL: i32 = 1;

/// The resume file of `material` in `dir`.
pub fn path_of(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

/// The chunks of `arrays`, in order: (array, start, length). No chunk crosses two arrays.
fn chunks(arrays: &[&[AtomicU8]]) -> Vec<(usize, usize, usize)> {
    chunks_of(&lengths(arrays))
}

/// The lengths of `arrays`.
fn lengths(arrays: &[&[AtomicU8]]) -> Vec<usize> {
    arrays.iter().map(|a| a.len()).collect()
}

/// The chunks of arrays of lengths `lens`, as [`chunks`].
fn chunks_of(lens: &[usize]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (a, &array_len) in lens.iter().enumerate() {
        let mut start = 0;
        while start < array_len {
            let len = CHUNK.min(array_len - start);
            out.push((a, start, len));
            start += len;
        }
    }
    out
}

/// Chunks compressed or decompressed at a time, a few a thread: a save's memory stays small.
fn batch_len(threads: usize) -> usize {
    4 * threads.max(1)
}

/// The version of the saves of a build under `rules`.
fn version_of(rules: &Rules) -> u32 {
    if counting::counts_material(rules) {
        FAMILY_VERSION
    } else {
        VERSION
    }
}

/// The lengths of the arrays a save of `material` under `rules` holds (see the module
/// comment): what the build's work keeps, in the order it lists its arrays.
pub(crate) fn lengths_of(material: Material, rules: &Rules) -> Vec<usize> {
    let sizes: Vec<usize> = material
        .halves()
        .into_iter()
        .map(|m| crate::tablebase::index::SliceIndex::new(m).size() as usize)
        .collect();
    let arrays = if counting::counts_material(rules) {
        4
    } else {
        2
    };
    let mut lens: Vec<usize> = (0..arrays).flat_map(|_| sizes.iter().copied()).collect();
    if counting::counts_material(rules) {
        lens.push(COUNTERS_LEN);
    }
    lens
}

/// The header of a save: what it belongs to, how far it got, how it is cut.
struct Header {
    version: u32,
    level: u32,
    rules: u64,
    material: u64,
    bytes: u64,
    chunks: u64,
}

impl Header {
    /// The header of a save of arrays of lengths `lens`.
    fn of(material: Material, rules: &Rules, level: u32, lens: &[usize]) -> Header {
        Header {
            version: version_of(rules),
            level,
            rules: checksum(describe_rules(rules).as_bytes(), &[]),
            material: checksum(material.to_string().as_bytes(), &[]),
            bytes: lens.iter().map(|&l| l as u64).sum(),
            chunks: chunks_of(lens).len() as u64,
        }
    }

    fn bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&self.level.to_le_bytes());
        h[16..24].copy_from_slice(&self.rules.to_le_bytes());
        h[24..32].copy_from_slice(&self.material.to_le_bytes());
        h[32..40].copy_from_slice(&self.bytes.to_le_bytes());
        h[40..48].copy_from_slice(&self.chunks.to_le_bytes());
        let sum = checksum(&h[..56], &[]);
        h[56..64].copy_from_slice(&sum.to_le_bytes());
        h
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Saves `arrays` after `level` levels of the slice `material` under `rules` as its resume
/// file in `dir`, compressing on `threads` threads; returns the file's size.
pub(crate) fn save(
    dir: &Path,
    material: Material,
    rules: &Rules,
    level: u32,
    arrays: &[&[AtomicU8]],
    threads: usize,
) -> Result<u64, TbError> {
    let header = Header::of(material, rules, level, &lengths(arrays));
    let all = chunks(arrays);
    let tmp = format::fresh_temporary(dir, material);
    let written = (|| -> std::io::Result<u64> {
        let mut f = fs::File::create(&tmp)?;
        let table_len = all.len() * ENTRY_LEN;
        // Placeholders: the header and table are written last, once the lengths are known.
        f.write_all(&[0u8; HEADER_LEN])?;
        f.write_all(&vec![0u8; table_len])?;
        let mut table = Vec::with_capacity(table_len);
        let mut size = (HEADER_LEN + table_len) as u64;
        for (b0, batch) in all.chunks(batch_len(threads)).enumerate() {
            let first = b0 * batch_len(threads);
            let mut packed: Vec<Vec<u8>> = vec![Vec::new(); batch.len()];
            in_parallel(&mut packed, threads, |start, part| {
                let mut raw = Vec::with_capacity(CHUNK);
                for (k, out) in part.iter_mut().enumerate() {
                    let (a, s, len) = batch[start + k];
                    raw.clear();
                    raw.extend(
                        arrays[a][s..s + len]
                            .iter()
                            .map(|e| e.load(Ordering::Relaxed)),
                    );
                    // A zstd frame is never empty: empty means the compression failed.
                    *out = zstd::bulk::compress(&raw, LEVEL).unwrap_or_default();
                }
            });
            if packed.iter().any(Vec::is_empty) {
                return Err(std::io::Error::other("compressing a chunk failed"));
            }
            for (k, raw) in packed.iter().enumerate() {
                f.write_all(raw)?;
                size += raw.len() as u64;
                table.extend_from_slice(&(raw.len() as u64).to_le_bytes());
                table.extend_from_slice(&block_checksum((first + k) as u64, raw).to_le_bytes());
            }
        }
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header.bytes())?;
        f.write_all(&table)?;
        f.sync_all()?;
        fs::rename(&tmp, path_of(dir, material))?;
        Ok(size)
    })();
    written.map_err(|e| {
        // Nothing to do if the removal fails too: the next build sweeps it.
        let _ = fs::remove_file(&tmp);
        TbError::io(&tmp, &e)
    })
}

/// Restores `arrays` of the slice `material` under `rules` from its resume file in `dir`
/// (decompressing on `threads` threads): the levels done, or `None` when there is no file.
/// A file that does not belong to this slice and these rules, or fails a check, is an error
/// ([`TbError::BadResume`]) and leaves `arrays` in an unknown state.
pub(crate) fn load(
    dir: &Path,
    material: Material,
    rules: &Rules,
    arrays: &[&[AtomicU8]],
    threads: usize,
) -> Result<Option<u32>, TbError> {
    let path = path_of(dir, material);
    let Some((mut f, want)) = open_checked(&path, material, rules, &lengths(arrays))? else {
        return Ok(None);
    };
    let bad = |what: &str| TbError::BadResume {
        path: path.clone(),
        what: what.to_string(),
    };
    let all = chunks(arrays);
    let mut table = vec![0u8; all.len() * ENTRY_LEN];
    f.read_exact(&mut table)
        .map_err(|_| bad("truncated chunk table"))?;
    let bound = zstd::zstd_safe::compress_bound(CHUNK);
    for (b0, batch) in all.chunks(batch_len(threads)).enumerate() {
        let first = b0 * batch_len(threads);
        let mut raws = Vec::with_capacity(batch.len());
        for k in 0..batch.len() {
            let b = first + k;
            let len = u64_at(&table, b * ENTRY_LEN);
            if len > bound as u64 {
                return Err(bad("a chunk longer than a chunk can be"));
            }
            let mut raw = vec![0u8; len as usize];
            f.read_exact(&mut raw).map_err(|_| bad("truncated"))?;
            if block_checksum(b as u64, &raw) != u64_at(&table, b * ENTRY_LEN + 8) {
                return Err(bad(&format!("chunk {b} is corrupt")));
            }
            raws.push(raw);
        }
        let mut fine: Vec<bool> = vec![false; batch.len()];
        in_parallel(&mut fine, threads, |start, part| {
            let mut out = vec![0u8; CHUNK];
            for (k, ok) in part.iter_mut().enumerate() {
                let (a, s, len) = batch[start + k];
                let n = zstd::bulk::decompress_to_buffer(&raws[start + k], &mut out[..len]);
                *ok = n.ok() == Some(len);
                for (e, &v) in arrays[a][s..s + len].iter().zip(&out[..len]) {
                    e.store(v, Ordering::Relaxed);
                }
            }
        });
        if let Some(k) = fine.iter().position(|&ok| !ok) {
            return Err(bad(&format!("chunk {} does not decompress", first + k)));
        }
    }
    let mut rest = [0u8; 1];
    if f.read(&mut rest).map_err(|e| TbError::io(&path, &e))? != 0 {
        return Err(bad("longer than its chunks"));
    }
    Ok(Some(want.level))
}

/// Opens the resume file `path` and checks its header against a save of `material` under
/// `rules` of arrays of lengths `lens`: the file, positioned after the header, and the header;
/// `None` when there is no file.
fn open_checked(
    path: &Path,
    material: Material,
    rules: &Rules,
    lens: &[usize],
) -> Result<Option<(fs::File, Header)>, TbError> {
    let mut f = match format::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TbError::io(path, &e)),
    };
    let bad = |what: &str| TbError::BadResume {
        path: path.to_path_buf(),
        what: what.to_string(),
    };
    let mut h = [0u8; HEADER_LEN];
    f.read_exact(&mut h)
        .map_err(|_| bad("shorter than its header"))?;
    if h[0..8] != MAGIC {
        return Err(bad("not a resume file"));
    }
    if u64_at(&h, 56) != checksum(&h[..56], &[]) {
        return Err(bad("header checksum mismatch"));
    }
    let version = u32_at(&h, 8);
    if version != version_of(rules) {
        // Both kinds are known: a save of the other kind says so (a build under other rules
        // left it), rather than blaming a version.
        return Err(bad(match version {
            VERSION => "a save of a slice counted by the clock, not of the 8x8 family's",
            FAMILY_VERSION => {
                "a save of a slice of the 8x8 family, not of one counted by the clock"
            }
            _ => "written by another version",
        }));
    }
    let want = Header::of(material, rules, u32_at(&h, 12), lens);
    if h != want.bytes() {
        return Err(bad("saved for another slice or other rules"));
    }
    // A build never saves after its last level: it writes the slice then.
    if want.level >= distance_limit(rules.draw_half_moves) {
        return Err(bad("saved past the last level"));
    }
    Ok(Some((f, want)))
}

/// The levels done by the save of `material` under `rules` in `dir`, from its header alone
/// (its chunks are checked when a build loads it); `None` when there is no save.
pub fn levels_saved(dir: &Path, material: Material, rules: &Rules) -> Result<Option<u32>, TbError> {
    let lens = lengths_of(material, rules);
    Ok(open_checked(&path_of(dir, material), material, rules, &lens)?.map(|(_, h)| h.level))
}

/// Removes the resume file of `material` in `dir`, if there is one.
pub(crate) fn remove(dir: &Path, material: Material) -> Result<(), TbError> {
    let path = path_of(dir, material);
    match fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(TbError::io(&path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;

    fn filled(lens: &[usize], byte: u8) -> Vec<Vec<AtomicU8>> {
        lens.iter()
            .map(|&n| (0..n).map(|_| AtomicU8::new(byte)).collect())
            .collect()
    }

    fn views(arrays: &[Vec<AtomicU8>]) -> Vec<&[AtomicU8]> {
        arrays.iter().map(|a| &a[..]).collect()
    }

    #[test]
    fn family_saves_hold_their_arrays_and_a_save_of_the_other_kind_is_refused() {
        let dir = std::env::temp_dir().join(format!("bg-resume-kind-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("mkdir");
        let material = Material::slices(2)[0];
        let path = path_of(&dir, material);
        let russian = Rules {
            draw_half_moves: 0,
            ..Variant::Russian.rules()
        };
        let english = Rules::ENGLISH;
        let refused = |what: &str| {
            TbError::BadResume {
                path: path.clone(),
                what: what.to_string(),
            }
            .to_string()
        };

        // A family save: the entries, counts, floors and notes of each half and the counters.
        let family_lens = lengths_of(material, &russian);
        let clock_lens = lengths_of(material, &english);
        let halves = material.halves().len();
        assert_eq!(family_lens.len(), 4 * halves + 1);
        assert_eq!(family_lens.last(), Some(&COUNTERS_LEN));
        assert_eq!(clock_lens.len(), 2 * halves);
        let saved = filled(&family_lens, 7);
        save(&dir, material, &russian, 3, &views(&saved), 1).expect("saved");
        assert_eq!(levels_saved(&dir, material, &russian), Ok(Some(3)));
        let back = filled(&family_lens, 0);
        assert_eq!(
            load(&dir, material, &russian, &views(&back), 1),
            Ok(Some(3))
        );
        assert!(back
            .iter()
            .flatten()
            .all(|b| b.load(Ordering::Relaxed) == 7));
        // Read by a build counted by the clock.
        let clock = filled(&clock_lens, 0);
        let err = load(&dir, material, &english, &views(&clock), 1).expect_err("refused");
        assert_eq!(
            err.to_string(),
            refused("a save of a slice of the 8x8 family, not of one counted by the clock")
        );
        assert_eq!(
            levels_saved(&dir, material, &english).map_err(|e| e.to_string()),
            Err(err.to_string())
        );

        // A save counted by the clock, read by a family build.
        save(&dir, material, &english, 2, &views(&clock), 1).expect("saved");
        let err = load(&dir, material, &russian, &views(&back), 1).expect_err("refused");
        assert_eq!(
            err.to_string(),
            refused("a save of a slice counted by the clock, not of the 8x8 family's")
        );

        // A version neither kind knows.
        let mut bytes = fs::read(&path).expect("readable");
        bytes[8..12].copy_from_slice(&9u32.to_le_bytes());
        let sum = checksum(&bytes[..56], &[]);
        bytes[56..64].copy_from_slice(&sum.to_le_bytes());
        fs::write(&path, &bytes).expect("writable");
        let err = load(&dir, material, &english, &views(&clock), 1).expect_err("refused");
        assert_eq!(err.to_string(), refused("written by another version"));
        fs::remove_dir_all(&dir).expect("removed");
    }
}
