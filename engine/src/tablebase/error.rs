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
    #[error("{path}: format version {found}, this engine reads versions {expected} (plain), 2 (compressed) and 3 (sparse)")]
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
    /// A block of a compressed file does not match its checksum or does not decompress to
    /// its size.
    #[error("{path}: block {block} is corrupt (checksum or size mismatch)")]
    CorruptBlock {
        /// The file.
        path: PathBuf,
        /// The block's number.
        block: u64,
    },
    /// A slice file changed on disk while the tables were open (cut short, or replaced in
    /// place): its entries are no longer read.
    #[error("{0}: changed on disk while in use (replace tables by renaming, see README)")]
    Changed(PathBuf),
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
    /// A build's saved work on a slice cannot be resumed from: the slice starts over.
    #[error("{path}: cannot resume from it: {what}")]
    BadResume {
        /// The resume file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// The position is not in the tables.
    #[error("position not covered by the tables: {0}")]
    NotCovered(String),
    /// `tb verify` could not read a slice, or one it reads.
    #[error("{slice} not checked: {cause}")]
    Unchecked {
        /// The slice.
        slice: String,
        /// Why its tables could not be read.
        cause: String,
    },
    /// `tb verify --from` names a slice the directory does not hold.
    #[error("no slice {0} in {1} (--from takes a file stem such as b1m2k-w1m2k)")]
    NoSlice(String, PathBuf),
    /// A table needed to build or check another is missing.
    #[error("missing table {0} (build the smaller slices first)")]
    Missing(String),
    /// `--level` names no level of the plan.
    #[error("level {level} does not exist: the plan of {pieces} pieces has levels 1 to {levels}")]
    NoLevel {
        /// The level asked for.
        level: u32,
        /// Pieces of the build.
        pieces: u32,
        /// Levels of the plan.
        levels: u32,
    },
    /// `--shard K/N` with K outside 1..=N.
    #[error("shard {shard}/{of}: K must be 1 to N")]
    NoShard {
        /// K.
        shard: u32,
        /// N.
        of: u32,
    },
    /// A level is built before a level below it is complete.
    #[error("level {level} needs every slice of level {below} first: {slice}: {why}")]
    LevelMissing {
        /// The level asked for.
        level: u32,
        /// The level below that is not complete.
        below: u32,
        /// A slice of it that is not there.
        slice: String,
        /// What is wrong with it.
        why: String,
    },
    /// Pool, Russian or Brazilian tables with a no-progress clock beside the material rules:
    /// an entry counts one of the two.
    #[error("tables for {0} count its material rules alone: build them with --draw-half-moves 0 (the rule set's own draw rules), not {1}")]
    FamilyClock(&'static str, u32),
    /// Sparse files of the 8x8 family: a dropped entry of a Russian 7.2.7 slice could not be
    /// worked out from the others (they are stored for one diagonal count each), and the
    /// family's tables are written plain alike.
    #[error("tables for {0} are plain files only: sparse ones cannot work out the entries of Russian 7.2.7 slices, and the 8x8 family's tables are written alike")]
    FamilySparse(&'static str),
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
