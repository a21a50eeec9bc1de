//! A value alone on its cache lines.
//!
//! Two cores writing to the same cache line take turns owning it, even when they write
//! different variables on it (false sharing). A counter that one thread bumps while another
//! reads a neighbour (the arena's `used` beside its node pointer, read on every node access)
//! goes on a line of its own. 128 bytes: adjacent-line prefetching pairs 64-byte lines.

use std::ops::{Deref, DerefMut};

/// `T` aligned (and so padded) to 128 bytes.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct CachePadded<T>(pub T);

impl<T> Deref for CachePadded<T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for CachePadded<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}
