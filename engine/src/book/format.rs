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
use crate::tablebase::format::checksum::checksum;

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
    /// The path names a FIFO, a directory or a device: reading it could block or never end.
    #[error("{0}: not a regular file")]
    NotRegular(String),
    /// The header counts more entries than a book may hold.
    #[error("{path}: {count} entries, more than the {max} a book may hold")]
    TooLarge {
        /// The file.
        path: String,
        /// The header's count.
        count: usize,
        /// [`MAX_ENTRIES`].
        max: usize,
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

/// Refuses `bytes` (the start of a file named `path`) unless they begin with the magic and
/// this build's version.
fn check_header(path: &str, bytes: &[u8]) -> Result<(), BookError> {
    if bytes.len() < MAGIC.len() || bytes[..8] != MAGIC {
        return Err(BookError::Foreign(path.to_string()));
    }
    let version = bytes
        .get(8..12)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match version {
        Some(VERSION) => Ok(()),
        Some(found) => Err(BookError::Version {
            path: path.to_string(),
            found,
            expected: VERSION,
        }),
        None => Err(BookError::Length {
            path: path.to_string(),
            found: bytes.len(),
            expected: HEADER_LEN,
        }),
    }
}

/// The rules and entries of the book in `bytes` (read from `path`, named in errors), every
/// field checked: magic, version, length, checksum and order.
pub fn decode(path: &str, bytes: &[u8]) -> Result<(BookRules, Vec<Entry>), BookError> {
    check_header(path, bytes)?;
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

/// The most entries a book file may hold: far above what a build's budget makes (a book of
/// this size is hundreds of MiB), and a bound on what a header can make the reader allocate.
pub const MAX_ENTRIES: usize = 1 << 24;

/// Reads the book file at `path`: only a regular file (a FIFO or a device would block or
/// never end), and its header and length are checked before any entry is read, so that a
/// large file that is not a book costs one short read.
pub fn read(path: &Path) -> Result<(BookRules, Vec<Entry>), BookError> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| BookError::Io {
        path: name.clone(),
        message: e.to_string(),
    };
    let not_regular = || BookError::NotRegular(name.clone());
    // Looked at before opening: opening a FIFO for reading waits for a writer.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // And again on what was opened, in case the name was replaced in between.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    read_from(&name, file, meta.len())
}

/// Reads a book of `len` bytes from `source` (named `name` in errors): the header first, the
/// entries only when the header's count fits `len` and [`MAX_ENTRIES`].
pub fn read_from(
    name: &str,
    source: impl std::io::Read,
    len: u64,
) -> Result<(BookRules, Vec<Entry>), BookError> {
    use std::io::Read;
    let io = |e: std::io::Error| BookError::Io {
        path: name.to_string(),
        message: e.to_string(),
    };
    let mut source = source.take(len);
    let mut header = Vec::with_capacity(HEADER_LEN);
    (&mut source)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(io)?;
    let found = usize::try_from(len).unwrap_or(usize::MAX);
    check_header(name, &header)?;
    if header.len() < HEADER_LEN {
        return Err(BookError::Length {
            path: name.to_string(),
            found,
            expected: HEADER_LEN,
        });
    }
    let count = u32::from_le_bytes([header[16], header[17], header[18], header[19]]) as usize;
    if count > MAX_ENTRIES {
        return Err(BookError::TooLarge {
            path: name.to_string(),
            count,
            max: MAX_ENTRIES,
        });
    }
    let expected = HEADER_LEN + count * ENTRY_LEN;
    if found != expected {
        return Err(BookError::Length {
            path: name.to_string(),
            found,
            expected,
        });
    }
    let mut bytes = header;
    bytes.reserve_exact(count * ENTRY_LEN);
    source.read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() != expected {
        // The file changed length while it was read.
        return Err(BookError::Length {
            path: name.to_string(),
            found: bytes.len(),
            expected,
        });
    }
    decode(name, &bytes)
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

    /// A source that fails the test when read past `limit` bytes.
    struct Guarded<'a> {
        data: &'a [u8],
        at: usize,
        limit: usize,
    }

    impl std::io::Read for Guarded<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.data.len() - self.at);
            assert!(self.at + n <= self.limit, "read past byte {}", self.limit);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// Issue 40 item 4: the whole file was read before its header was looked at.
    #[test]
    fn only_the_header_is_read_of_a_file_it_refuses() {
        let good = encode(BookRules::of(&Rules::default()), &sample());
        let mut big = good.clone();
        big.resize(1 << 20, 0);
        let mut foreign = big.clone();
        foreign[0] = b'X';
        let mut huge = good.clone();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        let read = |b: &[u8], len: u64| {
            let src = Guarded {
                data: b,
                at: 0,
                limit: HEADER_LEN,
            };
            read_from("f.book", src, len)
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(
            read(&big, big.len() as u64),
            "f.book: truncated or padded: 1048576 bytes, expected 74"
        );
        assert_eq!(
            read(&foreign, foreign.len() as u64),
            "f.book: not a buffgreen book file"
        );
        assert_eq!(
            read(&huge, 1 << 40),
            "f.book: 4294967295 entries, more than the 16777216 a book may hold"
        );
        assert_eq!(
            read(&good[..20], 20),
            "f.book: truncated or padded: 20 bytes, expected 32"
        );
        let src = Guarded {
            data: &good,
            at: 0,
            limit: good.len(),
        };
        assert_eq!(
            read_from("f.book", src, good.len() as u64).expect("a good book"),
            decode("f.book", &good).expect("a good book")
        );
    }
}
