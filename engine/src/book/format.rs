//! The book file: a 32-byte header and fixed-size entries sorted by position key, so that a
//! probe is a binary search.
//!
//! Header (little-endian): magic `BGBOOK\0\x1a` (8 bytes), format version (u32), rule flags
//! (u32: bit 0 `BackwardCapture`, bit 1 `LongKings`, bit 2 `Losing`), entry count (u32), four
//! zero bytes, checksum (u64) of the first 24 header bytes and the entries. The draw rule is
//! not part of a book's rules: it does not change an opening.
//!
//! Entry (14 bytes): the position's key (u64, see [`super::key`]), the low 32 bits of the key
//! of the position the move leads to (u32: names the move under every move generator and
//! both paths of a capture loop, which lead to the same position), and the move's score in
//! centi-men from the mover's view (i16), sorted by key, then best score first.

use std::path::Path;

use thiserror::Error;

use crate::board::Rules;
use crate::tablebase::format::checksum;

/// The first bytes of every book file.
pub const MAGIC: [u8; 8] = *b"BGBOOK\0\x1a";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the first entry.
pub const HEADER_LEN: usize = 32;
/// Bytes of one entry.
pub const ENTRY_LEN: usize = 14;

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// The file cannot be read.
    #[error("{path}: {message}")]
    Io {
        /// The file as given.
        path: String,
        /// What the system said.
        message: String,
    },
    /// The file does not start with the book magic.
    #[error("{0}: not a buffgreen book file")]
    Foreign(String),
    /// The file has another format version.
    #[error("{path}: format version {found}, this engine reads version {expected}")]
    Version {
        /// The file.
        path: String,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: truncated or padded: {found} bytes, expected {expected}")]
    Length {
        /// The file.
        path: String,
        /// Its length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The checksum does not match the contents.
    #[error("{0}: checksum mismatch (corrupt file)")]
    Corrupt(String),
    /// The entries are not sorted by key.
    #[error("{0}: entries out of order (corrupt file)")]
    Unsorted(String),
    /// The book was built for other rules than the game's.
    #[error("{path}: built for {found}, not {wanted}")]
    OtherRules {
        /// The file.
        path: String,
        /// Its rules.
        found: String,
        /// The game's rules.
        wanted: String,
    },
}

/// The rules a book is for: the move rules and the variant, not the draw rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookRules {
    /// Men capture backward.
    pub backward_capture: bool,
    /// Kings fly.
    pub long_kings: bool,
    /// Losing checkers.
    pub losing: bool,
}

impl BookRules {
    /// The book rules of a game's `rules`.
    pub fn of(rules: &Rules) -> BookRules {
        BookRules {
            backward_capture: rules.backward_capture,
            long_kings: rules.long_kings,
            losing: rules.losing,
        }
    }

    fn flags(self) -> u32 {
        u32::from(self.backward_capture)
            | u32::from(self.long_kings) << 1
            | u32::from(self.losing) << 2
    }

    fn from_flags(flags: u32) -> BookRules {
        BookRules {
            backward_capture: flags & 1 != 0,
            long_kings: flags & 2 != 0,
            losing: flags & 4 != 0,
        }
    }
}

impl std::fmt::Display for BookRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BackwardCapture={} LongKings={}",
            self.backward_capture, self.long_kings
        )?;
        if self.losing {
            write!(f, " Losing=true")?;
        }
        Ok(())
    }
}

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The key of the position the move is played in.
    pub key: u64,
    /// The low 32 bits of the key of the position after the move.
    pub child: u32,
    /// The move's score in centi-men, from the mover's view.
    pub score: i16,
}

impl Entry {
    /// The file order: by key, then best score first, then by child key.
    fn order(&self) -> (u64, i16, u32) {
        (self.key, -self.score, self.child)
    }
}

/// The bytes of a book of `entries` (sorted here) for `rules`.
pub fn encode(rules: BookRules, entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(Entry::order);
    let mut data = Vec::with_capacity(sorted.len() * ENTRY_LEN);
    for e in &sorted {
        data.extend_from_slice(&e.key.to_le_bytes());
        data.extend_from_slice(&e.child.to_le_bytes());
        data.extend_from_slice(&e.score.to_le_bytes());
    }
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(&MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&rules.flags().to_le_bytes());
    header[16..20].copy_from_slice(&(sorted.len() as u32).to_le_bytes());
    let sum = checksum(&header[..24], &data);
    header[24..32].copy_from_slice(&sum.to_le_bytes());
    let mut out = header.to_vec();
    out.extend_from_slice(&data);
    out
}

/// The rules and entries of the book in `bytes` (read from `path`, named in errors), every
/// field checked: magic, version, length, checksum and order.
pub fn decode(path: &str, bytes: &[u8]) -> Result<(BookRules, Vec<Entry>), BookError> {
    if bytes.len() < MAGIC.len() || bytes[..8] != MAGIC {
        return Err(BookError::Foreign(path.to_string()));
    }
    let short = || BookError::Length {
        path: path.to_string(),
        found: bytes.len(),
        expected: HEADER_LEN,
    };
    let u32_at = |i: usize| {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let version = u32_at(8).ok_or_else(short)?;
    if version != VERSION {
        return Err(BookError::Version {
            path: path.to_string(),
            found: version,
            expected: VERSION,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(short());
    }
    let rules = BookRules::from_flags(u32_at(12).ok_or_else(short)?);
    let count = u32_at(16).ok_or_else(short)? as usize;
    let expected = HEADER_LEN + count * ENTRY_LEN;
    if bytes.len() != expected {
        return Err(BookError::Length {
            path: path.to_string(),
            found: bytes.len(),
            expected,
        });
    }
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&bytes[24..32]);
    let data = &bytes[HEADER_LEN..];
    if checksum(&bytes[..24], data) != u64::from_le_bytes(sum) {
        return Err(BookError::Corrupt(path.to_string()));
    }
    let entries: Vec<Entry> = data
        .chunks_exact(ENTRY_LEN)
        .map(|c| {
            let mut key = [0u8; 8];
            key.copy_from_slice(&c[..8]);
            Entry {
                key: u64::from_le_bytes(key),
                child: u32::from_le_bytes([c[8], c[9], c[10], c[11]]),
                score: i16::from_le_bytes([c[12], c[13]]),
            }
        })
        .collect();
    if entries.windows(2).any(|w| w[0].order() > w[1].order()) {
        return Err(BookError::Unsorted(path.to_string()));
    }
    Ok((rules, entries))
}

/// Reads the book file at `path`.
pub fn read(path: &Path) -> Result<(BookRules, Vec<Entry>), BookError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| BookError::Io {
        path: name.clone(),
        message: e.to_string(),
    })?;
    decode(&name, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry> {
        vec![
            Entry {
                key: 9,
                child: 1,
                score: -3,
            },
            Entry {
                key: 2,
                child: 7,
                score: 5,
            },
            Entry {
                key: 9,
                child: 4,
                score: 12,
            },
        ]
    }

    #[test]
    fn entries_come_back_sorted_with_their_rules() {
        let rules = BookRules::of(&Rules::ENGLISH);
        let bytes = encode(rules, &sample());
        assert_eq!(bytes.len(), HEADER_LEN + 3 * ENTRY_LEN);
        let (r, e) = decode("x", &bytes).expect("a good book");
        assert_eq!(r, rules);
        let order: Vec<(u64, u32)> = e.iter().map(|e| (e.key, e.child)).collect();
        assert_eq!(order, vec![(2, 7), (9, 4), (9, 1)]);
    }

    #[test]
    fn every_damage_is_refused_with_its_message() {
        let good = encode(BookRules::of(&Rules::default()), &sample());
        let err = |b: &[u8]| decode("f.book", b).expect_err("refused").to_string();
        assert_eq!(err(b"hello"), "f.book: not a buffgreen book file");
        let mut v = good.clone();
        v[8] = 2;
        assert_eq!(
            err(&v),
            "f.book: format version 2, this engine reads version 1"
        );
        assert_eq!(
            err(&good[..good.len() - 1]),
            "f.book: truncated or padded: 73 bytes, expected 74"
        );
        assert_eq!(
            err(&good[..20]),
            "f.book: truncated or padded: 20 bytes, expected 32"
        );
        let mut v = good.clone();
        v[40] ^= 1;
        assert_eq!(err(&v), "f.book: checksum mismatch (corrupt file)");
    }
}
