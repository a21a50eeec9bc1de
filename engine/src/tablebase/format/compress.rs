//! The blocks of compressed tables (format versions 2 and 3): the sequence of entries (both
//! halves as a plain file holds them, or what a sparse file keeps) cut into blocks of [`BLOCK`] entries, each compressed on its
//! own with [`CODEC`], so that a probe decompresses one block, never the slice. Each block
//! carries a checksum of its compressed bytes and its number, checked before it is
//! decompressed, so a damaged or misplaced block is an error and never a wrong value.
//!
//! The codec and block size are chosen by measurement (docs/tablebase.md, "Compressed
//! tables"): zstd at [`LEVEL`] against lz4 and against the bound of an order-0 entropy or
//! run-length coder of our own.

use std::ops::RangeInclusive;
use std::path::Path;

use crate::tablebase::format::checksum::checksum;
use crate::tablebase::work::in_parallel;
use crate::tablebase::TbError;

/// Bytes per block of the block table: the block's end offset and its checksum.
pub const BLOCK_ENTRY_LEN: usize = 16;

/// Entries per block of the tables this build writes.
pub const BLOCK: u32 = 1 << 12;

/// The block sizes a reader accepts (entries; powers of two).
pub const BLOCK_LIMITS: RangeInclusive<u32> = (1 << 10)..=(1 << 20);

/// The codec of the tables this build writes.
pub const CODEC: Codec = Codec::Zstd;

/// zstd's compression level for the tables: a few percent more bytes than the highest levels
/// for several times less build time (docs/tablebase.md); any level reads alike.
pub const LEVEL: i32 = 12;

/// How a block's bytes are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Zstandard, one frame per block.
    Zstd,
}

impl Codec {
    /// The number stored in a file's header.
    pub fn id(self) -> u32 {
        match self {
            Codec::Zstd => 1,
        }
    }

    /// The codec of a header's number, if known.
    pub fn from_id(id: u32) -> Option<Codec> {
        (id == 1).then_some(Codec::Zstd)
    }
}

/// The checksum of block `b` whose compressed bytes are `raw`: the number is part of it, so
/// a block read from the wrong place fails too.
pub fn block_checksum(b: u64, raw: &[u8]) -> u64 {
    checksum(&b.to_le_bytes(), raw)
}

/// Compresses `data` in blocks of `block` entries on `threads` threads: returns the block
/// table (per block, the end offset of its bytes after the table, and its checksum) and the
/// blocks. The bytes do not depend on the number of threads.
pub fn encode(data: &[u8], block: u32, codec: Codec, threads: usize) -> (Vec<u8>, Vec<u8>) {
    let Codec::Zstd = codec;
    let chunks: Vec<&[u8]> = data.chunks(block as usize).collect();
    let mut packed: Vec<Vec<u8>> = vec![Vec::new(); chunks.len()];
    in_parallel(&mut packed, threads, |start, part| {
        let mut compressor = zstd::bulk::Compressor::new(LEVEL).ok();
        for (k, out) in part.iter_mut().enumerate() {
            let chunk = chunks[start + k];
            // Compressing into memory fails only for want of memory; then the block is
            // compressed at the fastest level.
            *out = compressor
                .as_mut()
                .and_then(|c| c.compress(chunk).ok())
                .or_else(|| zstd::bulk::compress(chunk, 1).ok())
                .unwrap_or_default();
        }
    });
    let mut table = Vec::with_capacity(chunks.len() * BLOCK_ENTRY_LEN);
    let mut out = Vec::with_capacity(packed.iter().map(Vec::len).sum());
    for (b, raw) in packed.iter().enumerate() {
        out.extend_from_slice(raw);
        table.extend_from_slice(&(out.len() as u64).to_le_bytes());
        table.extend_from_slice(&block_checksum(b as u64, raw).to_le_bytes());
    }
    (table, out)
}

/// Refuses block `b` of file `path` when its bytes `raw` do not match its checksum `sum`.
pub fn check_block(path: &Path, b: u64, raw: &[u8], sum: u64) -> Result<(), TbError> {
    if block_checksum(b, raw) == sum {
        Ok(())
    } else {
        Err(TbError::CorruptBlock {
            path: path.to_path_buf(),
            block: b,
        })
    }
}

/// Appends the `size` entries of block `b` (bytes `raw`, checked) to `out`.
pub fn decode_into(
    path: &Path,
    b: u64,
    codec: Codec,
    raw: &[u8],
    size: usize,
    out: &mut Vec<u8>,
) -> Result<(), TbError> {
    let start = out.len();
    out.resize(start + size, 0);
    let done = decode_to(path, b, codec, raw, &mut out[start..]);
    if done.is_err() {
        out.truncate(start);
    }
    done
}

/// Decompresses block `b` (bytes `raw`, checked) into `out`, which it must fill exactly.
pub fn decode_to(
    path: &Path,
    b: u64,
    codec: Codec,
    raw: &[u8],
    out: &mut [u8],
) -> Result<(), TbError> {
    let Codec::Zstd = codec;
    thread_local! {
        // A decompression context per thread: making one costs more than a block.
        static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            std::cell::RefCell::new(zstd::bulk::Decompressor::new().ok());
    }
    let n = DECOMPRESSOR.with(|d| match d.borrow_mut().as_mut() {
        Some(d) => d.decompress_to_buffer(raw, out).ok(),
        None => zstd::bulk::decompress_to_buffer(raw, out).ok(),
    });
    if n == Some(out.len()) {
        Ok(())
    } else {
        Err(TbError::CorruptBlock {
            path: path.to_path_buf(),
            block: b,
        })
    }
}
