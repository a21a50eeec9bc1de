//! The checksum of table and book files: a multiply-rotate hash over 8-byte words, whole or
//! piece by piece.

/// A 64-bit checksum, eight bytes a step (a multiply-rotate hash: fast and sensitive to
/// every bit and to order; not cryptographic).
pub(crate) fn checksum(header: &[u8], data: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.part(header);
    c.part(data);
    c.finish()
}

/// [`checksum`] computed piece by piece, for data read in chunks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checksum(u64);

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    pub(crate) fn new() -> Checksum {
        Checksum(0x2545_F491_4F6C_DD1D)
    }

    /// Feeds a piece of a part whose length is a multiple of 8 (not the part's end).
    pub(crate) fn words(&mut self, bytes: &[u8]) {
        debug_assert!(bytes.len().is_multiple_of(8));
        for c in bytes.chunks_exact(8) {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(a)).wrapping_mul(Self::K);
        }
    }

    /// Feeds the end of a part: its last bytes, any length.
    pub(crate) fn end_part(&mut self, bytes: &[u8]) {
        let whole = bytes.len() - bytes.len() % 8;
        self.words(&bytes[..whole]);
        let rest = &bytes[whole..];
        let mut a = [0u8; 8];
        a[..rest.len()].copy_from_slice(rest);
        self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(a) ^ rest.len() as u64)
            .wrapping_mul(Self::K);
    }

    /// Feeds a whole part.
    pub(crate) fn part(&mut self, bytes: &[u8]) {
        self.end_part(bytes);
    }

    pub(crate) fn finish(self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
}
