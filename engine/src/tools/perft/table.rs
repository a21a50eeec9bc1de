//! The transposition table of perft: leaf counts of subtrees already counted, keyed by the
//! Zobrist key of the position and the depth, shared by all counting threads without locks.
//!
//! Each entry is two atomic words, `check ^ data` and `data` (the lockless scheme of chess
//! programs): a reader takes an entry only when the XOR of the two words gives back its check,
//! so an entry torn by two threads writing at once reads as a miss, never as a wrong count.
//! The check is the half of the 128-bit key that is not used for the index: a wrong count
//! would need two different (position, depth) pairs to agree on 64 further random bits.

use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// Why a table was not made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// The size is below one bucket.
    #[error("perft hash of {0} MiB is too small")]
    TooSmall(usize),
    /// The memory could not be had.
    #[error("cannot allocate a perft hash of {0} MiB")]
    NoMemory(usize),
}

/// Counts at or above this limit are not stored (the top byte of the data word holds the depth).
const COUNT_LIMIT: u64 = 1 << 56;

/// Two entries sharing one cache line's half: the first kept for the deeper subtree, the
/// second always replaced.
#[repr(align(32))]
struct Bucket([AtomicU64; 4]);

/// A fixed-size table of subtree leaf counts.
pub struct PerftTable {
    buckets: Vec<Bucket>,
}

impl PerftTable {
    /// A table of at most `mib` MiB, all entries empty.
    pub fn new(mib: usize) -> Result<PerftTable, TableError> {
        let n = mib.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>();
        if n == 0 {
            return Err(TableError::TooSmall(mib));
        }
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| TableError::NoMemory(mib))?;
        buckets.extend((0..n).map(|_| Bucket(Default::default())));
        Ok(PerftTable { buckets })
    }

    /// The bucket of `key` and the check its entries carry.
    #[inline]
    fn locate(&self, key: u128) -> (&Bucket, u64) {
        let index = ((key as u64 as u128 * self.buckets.len() as u128) >> 64) as usize;
        // Multiply-shift maps the low half onto 0..len without a division.
        (&self.buckets[index], (key >> 64) as u64)
    }

    /// The stored leaf count of the subtree with key `key` (depth already mixed in), if any.
    #[inline]
    pub fn probe(&self, key: u128) -> Option<u64> {
        let (bucket, check) = self.locate(key);
        for e in 0..2 {
            let lock = bucket.0[2 * e].load(Ordering::Relaxed);
            let data = bucket.0[2 * e + 1].load(Ordering::Relaxed);
            // An empty entry has data 0; stored data always has a non-zero depth byte.
            if data != 0 && lock ^ data == check {
                return Some(data & (COUNT_LIMIT - 1));
            }
        }
        None
    }

    /// Stores the leaf count `count` of a subtree `depth` plies deep with key `key`.
    #[inline]
    pub fn store(&self, key: u128, depth: u32, count: u64) {
        if count >= COUNT_LIMIT || depth == 0 {
            return;
        }
        let (bucket, check) = self.locate(key);
        let data = count | (u64::from(depth.min(255)) << 56);
        let kept_depth = bucket.0[1].load(Ordering::Relaxed) >> 56;
        let e = if u64::from(depth) >= kept_depth { 0 } else { 1 };
        bucket.0[2 * e].store(check ^ data, Ordering::Relaxed);
        bucket.0[2 * e + 1].store(data, Ordering::Relaxed);
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bounded_and_zero_is_refused() {
        assert_eq!(PerftTable::new(0).err(), Some(TableError::TooSmall(0)));
        let t = PerftTable::new(1).expect("1 MiB");
        assert_eq!(t.bytes(), 1 << 20);
    }

    #[test]
    fn stores_and_finds_and_tells_keys_apart() {
        let t = PerftTable::new(1).expect("1 MiB");
        let key = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321u128;
        assert_eq!(t.probe(key), None);
        t.store(key, 5, 7361);
        assert_eq!(t.probe(key), Some(7361));
        // Same bucket (same low half), other check: a miss.
        assert_eq!(t.probe(key ^ (1u128 << 100)), None);
        // A shallower entry in the same bucket goes to the second slot and keeps the first.
        let other = key ^ (1u128 << 90);
        t.store(other, 3, 302);
        assert_eq!(t.probe(key), Some(7361));
        assert_eq!(t.probe(other), Some(302));
        // Counts too large to store are dropped, not truncated.
        let big = key ^ (1u128 << 80);
        t.store(big, 9, COUNT_LIMIT);
        assert_eq!(t.probe(big), None);
    }
}
