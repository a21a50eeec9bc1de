//! Why a table could not be built, read or probed.

use std::path::PathBuf;

use thiserror::Error;

/// Every tablebase failure, with the message the command line prints after `error: `.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TbError {
    /// The directory does not exist or is not a directory.
    #[error("tablebase directory {0} does not exist")]
    NoDirectory(PathBuf),
    /// The directory holds no table file.
    #[error("no tablebase files in {0}")]
    Empty(PathBuf),
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The file does not start with the tablebase magic.
    #[error("{0}: not a buffgreen tablebase file")]
    Foreign(PathBuf),
    /// The file has another format version.
    #[error("{path}: format version {found}, this engine reads version {expected}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: truncated or padded: {found} bytes, expected {expected}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Its length.
        found: u64,
        /// The length its header implies.
        expected: u64,
    },
    /// The checksum does not match the contents.
    #[error("{0}: checksum mismatch (corrupt file)")]
    Corrupt(PathBuf),
    /// The header does not fit the file's name or is inconsistent.
    #[error("{path}: bad header: {what}")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The tables were built for other rules than asked.
    #[error("{path}: built for {found}, not {wanted}")]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The rules in the file.
        found: String,
        /// The rules asked for.
        wanted: String,
    },
    /// The position is not in the tables.
    #[error("position not covered by the tables: {0}")]
    NotCovered(String),
    /// A table needed to build or check another is missing.
    #[error("missing table {0} (build the smaller slices first)")]
    Missing(String),
    /// A draw rule longer than an entry can count.
    #[error("DrawHalfMoves {0} is above 127, the longest distance a table entry holds")]
    DrawRuleTooLong(u32),
    /// A distance does not fit an entry.
    #[error("slice {0}: a distance exceeds 127 plies, which entries cannot hold")]
    TooDeep(String),
    /// `tb verify` found an entry that disagrees with its successors.
    #[error(
        "inconsistent entry in {slice}: {fen} stores {stored}, its successors give {expected}"
    )]
    Inconsistent {
        /// The slice.
        slice: String,
        /// The position.
        fen: String,
        /// What the file says.
        stored: String,
        /// What the successors say.
        expected: String,
    },
}

impl TbError {
    /// An I/O failure on `path`.
    pub(crate) fn io(path: &std::path::Path, e: &std::io::Error) -> TbError {
        TbError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}
