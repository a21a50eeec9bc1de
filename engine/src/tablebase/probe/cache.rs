//! The block cache of the probes: decompressed blocks of entries (or plain blocks read from
//! the file), keyed by slice and block, in a fixed number of slots chosen from a byte budget,
//! so the memory the tables take in the process is bounded whatever the search probes.
//!
//! Set-associative: a key may sit in any of the [`WAYS`] slots of its set, under the set's
//! lock, so probes of blocks of different sets on different threads do not wait for one
//! another, two blocks the search uses at once rarely evict each other (a direct-mapped cache
//! lost a measured share of its hits that way), and a miss (a positioned read and, for a
//! compressed file, one block decompressed) holds only its own set. The slot evicted is the
//! one used least recently in the set.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Slots per set.
pub const WAYS: usize = 4;

/// One slot: the key of the block it holds (0: none), when it was last used and its entries.
#[derive(Default)]
struct Slot {
    key: u64,
    used: u64,
    data: Vec<u8>,
}

/// One set of slots and its use counter.
#[derive(Default)]
struct Set {
    slots: [Slot; WAYS],
    clock: u64,
}

/// Blocks of entries, bounded by a byte budget.
pub struct BlockCache {
    sets: Box<[Mutex<Set>]>,
    block_bytes: usize,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BlockCache({} sets of {WAYS} blocks of {} bytes)",
            self.sets.len(),
            self.block_bytes
        )
    }
}

impl BlockCache {
    /// A cache of at most `budget` bytes of blocks of up to `block_bytes` entries (and at
    /// least 64 blocks, so that a budget too small still works).
    pub fn new(budget: u64, block_bytes: usize) -> BlockCache {
        let block_bytes = block_bytes.max(1);
        let sets = (budget / (block_bytes * WAYS) as u64).clamp(16, 1 << 22) as usize;
        BlockCache {
            sets: (0..sets).map(|_| Mutex::new(Set::default())).collect(),
            block_bytes,
        }
    }

    /// The most bytes of entries the cache holds.
    pub fn capacity(&self) -> u64 {
        (self.sets.len() * WAYS * self.block_bytes) as u64
    }

    /// The entry `offset` of block `key` (non-zero), loading the block by `load` (which
    /// fills the buffer it is given, of the block's `size` entries) when it is not cached.
    #[inline]
    pub fn entry<E>(
        &self,
        key: u64,
        size: usize,
        offset: usize,
        load: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<u8, E> {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = ((h >> 32) as usize * self.sets.len()) >> 32;
        let mut set = self.sets[i].lock().unwrap_or_else(|e| e.into_inner());
        set.clock += 1;
        let now = set.clock;
        let way = match set.slots.iter().position(|s| s.key == key) {
            Some(w) => w,
            None => {
                // The least recently used slot (an empty one has never been used).
                let w = (0..WAYS).min_by_key(|&w| set.slots[w].used).unwrap_or(0);
                let slot = &mut set.slots[w];
                slot.key = 0;
                slot.data.resize(size, 0);
                load(&mut slot.data[..size])?;
                slot.key = key;
                w
            }
        };
        let slot = &mut set.slots[way];
        slot.used = now;
        Ok(slot.data.get(offset).copied().unwrap_or(0))
    }
}

/// Values of positions a sparse table does not store (see [`crate::tablebase::format::sparse`]), once
/// worked out: such a value takes one probe per move, and the probes of a search or of a
/// slice being restored ask for the same positions again and again. Direct-mapped, one atomic
/// word a slot (the key above the value's byte), so threads share it without a lock and a
/// slot overwritten by another thread is at worst a miss.
pub struct DerivedCache {
    slots: Box<[AtomicU64]>,
}

impl std::fmt::Debug for DerivedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DerivedCache({} slots)", self.slots.len())
    }
}

impl DerivedCache {
    /// A cache of about `budget` bytes (a power of two of slots, at least 1,024).
    pub fn new(budget: u64) -> DerivedCache {
        let n = (budget / 8).clamp(1 << 10, 1 << 26);
        // The largest power of two that fits the budget.
        let slots = 1usize << (63 - n.leading_zeros());
        DerivedCache {
            slots: (0..slots).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The bytes the cache takes.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * 8) as u64
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[(h >> 32) as usize & (self.slots.len() - 1)]
    }

    /// The value stored for `key` (non-zero, below 2^56), if it is there.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let word = self.slot(key).load(Ordering::Relaxed);
        (word >> 8 == key).then_some(word as u8)
    }

    /// Stores the value `code` for `key` (non-zero, below 2^56).
    #[inline]
    pub fn put(&self, key: u64, code: u8) {
        self.slot(key)
            .store(key << 8 | u64::from(code), Ordering::Relaxed);
    }
}
