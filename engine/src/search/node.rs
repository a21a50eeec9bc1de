//! One node of the search tree, 32 bytes, and the compact move it stores.
//!
//! Every field is an atomic so that the arena is shared by the search threads (tree
//! parallelism) without another layout: with one thread all accesses are relaxed loads and
//! stores, which compile to plain moves. A node is a position reached by the move it
//! stores; its statistics are from the view of the player who made that move, so a parent
//! simply picks the child with the best value.
//!
//! 29 of the 32 bytes are used: beside the mean, a node keeps a 16-bit minimax value of the
//! static evaluation (implicit minimax backups, Lanctot et al. 2014). For threads, virtual loss
//! needs no field of its own: a thread counts its visit on the way down ([`Node::add_visit`])
//! and the result when it is known ([`Node::add_value`]); in between the visit is a
//! temporary loss to everyone else.
//!
//! Expansion is published with release/acquire: the expanding thread initialises the children,
//! then stores the child count with `Release`; a reader loads the count with `Acquire` before
//! it touches the children, so it never sees a half-built block. Only the thread that won
//! [`Node::try_claim_expansion`] writes the children.

use std::sync::atomic::{
    AtomicU16, AtomicU32, AtomicU64, AtomicU8,
    Ordering::{Acquire, Relaxed, Release},
};

use crate::search::solver::Proof;
use crate::search::value::{DRAW, SCALE};
use crate::types::{Bitboard, Move, Square};

/// A move reduced to what changes the position: start, end, captured set and crowning.
///
/// Two capture sequences that differ only in the order of their landing squares give the same
/// position, so the tree keeps one child for both. The real [`Move`] (with its path, for
/// output) is found again by [`PackedMove::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PackedMove {
    /// Captured squares, one bit per square index (dense, not the padded bitboard layout).
    captured: u32,
    /// `from | to << 5 | crowns << 10`.
    bits: u16,
}

/// Padded bitboard bits to one bit per square index.
#[inline]
fn dense(bits: u64) -> u32 {
    ((bits & 0xFF)
        | ((bits >> 1) & 0xFF00)
        | ((bits >> 2) & 0xFF_0000)
        | ((bits >> 3) & 0xFF00_0000)) as u32
}

/// One bit per square index back to the padded layout.
#[inline]
fn padded(d: u32) -> u64 {
    let d = d as u64;
    (d & 0xFF) | ((d & 0xFF00) << 1) | ((d & 0xFF_0000) << 2) | ((d & 0xFF00_0000) << 3)
}

impl PackedMove {
    /// Packs a generated move.
    #[inline]
    pub fn new(mv: Move) -> PackedMove {
        PackedMove {
            captured: dense(mv.captured().bits()),
            bits: mv.from().index() as u16
                | (mv.to().index() as u16) << 5
                | (mv.crowns() as u16) << 10,
        }
    }

    #[inline]
    fn origin(self) -> Square {
        Square::from_index((self.bits & 31) as u8)
    }

    #[inline]
    fn target(self) -> Square {
        Square::from_index(((self.bits >> 5) & 31) as u8)
    }

    #[inline]
    fn crowns(self) -> bool {
        self.bits & (1 << 10) != 0
    }

    /// A move that `Position::play_unchecked` and `next_clock` treat exactly like the
    /// generated one. Its landing path is reduced to the last square, so use it for playing
    /// only; [`PackedMove::resolve`] gives the move to show.
    #[inline]
    pub fn playable(self) -> Move {
        let (from, to) = (self.origin(), self.target());
        if self.captured == 0 {
            Move::quiet(from, to, self.crowns())
        } else {
            Move::capture(
                from,
                to.index() as u64,
                1,
                to,
                Bitboard::from_bits(padded(self.captured)),
                self.crowns(),
            )
        }
    }

    /// The first of `moves` that this packs (the full move, path included).
    pub fn resolve(self, moves: &[Move]) -> Option<Move> {
        moves.iter().copied().find(|&m| PackedMove::new(m) == self)
    }
}

/// A tree node. Index 0 of the arena is the root; `first_child == 0` means "not expanded"
/// (the root is nobody's child). A node of zero bytes is a fresh one (`FromZeros`), so the
/// arena can be taken as zeroed memory that the system maps only when the tree first touches
/// it.
#[derive(Debug, Default, zerocopy::FromZeros)]
#[repr(C)]
pub struct Node {
    /// Iterations that passed through this node.
    visits: AtomicU32,
    /// Index of the first child; the children are contiguous.
    first_child: AtomicU32,
    /// Sum of results in `SCALE` units, from the view of the player who moved into the node.
    value: AtomicU64,
    /// The move into this node: captured squares (dense).
    mv_captured: AtomicU32,
    /// The move into this node: from, to, crowns.
    mv_bits: AtomicU16,
    /// How many children (0 when not expanded).
    children: AtomicU16,
    /// Proven result (see [`Proof`]), 0 when unknown.
    proof: AtomicU16,
    /// Expansion state: 0 free, 1 claimed or expanded (see [`Node::try_claim_expansion`]).
    flags: AtomicU8,
    /// Implicit minimax value in `SCALE` units, from the view of the player who moved into the
    /// node: the static evaluation of a leaf, the best child's value (for the player to move)
    /// of an expanded node, the exact result of a proven one.
    minimax: AtomicU16,
}

impl Node {
    /// Resets the node to a fresh, unvisited leaf reached by `mv`.
    #[inline]
    pub fn init(&self, mv: PackedMove) {
        self.visits.store(0, Relaxed);
        self.first_child.store(0, Relaxed);
        self.value.store(0, Relaxed);
        self.mv_captured.store(mv.captured, Relaxed);
        self.mv_bits.store(mv.bits, Relaxed);
        self.children.store(0, Relaxed);
        self.proof.store(0, Relaxed);
        self.flags.store(0, Relaxed);
        self.minimax.store(DRAW as u16, Relaxed);
    }

    /// Copies every field of `other`, with the children pointer replaced.
    pub fn copy_from(&self, other: &Node, first_child: u32, children: u16) {
        self.init(other.mv());
        self.visits.store(other.visits(), Relaxed);
        self.value.store(other.value_sum(), Relaxed);
        self.proof.store(other.proof.load(Relaxed), Relaxed);
        self.minimax.store(other.minimax(), Relaxed);
        self.set_children(first_child, children);
    }

    /// The move into this node.
    #[inline]
    pub fn mv(&self) -> PackedMove {
        PackedMove {
            captured: self.mv_captured.load(Relaxed),
            bits: self.mv_bits.load(Relaxed),
        }
    }

    /// Visits so far.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// The sum of results (`SCALE` units).
    #[inline]
    pub fn value_sum(&self) -> u64 {
        self.value.load(Relaxed)
    }

    /// Mean result in 0..=1 for the player who moved into the node; `None` before any visit.
    #[inline]
    pub fn mean(&self) -> Option<f64> {
        let n = self.visits();
        if n == 0 {
            None
        } else {
            Some(self.value_sum() as f64 / (n as f64 * SCALE as f64))
        }
    }

    /// Adds one visit with result `value` (`SCALE` units). Single-writer form: load and store,
    /// not a locked read-modify-write.
    #[inline]
    pub fn add(&self, value: u64) {
        self.add_visit_unlocked();
        self.add_value_unlocked(value);
    }

    /// Counts a visit on the way down (shared trees): until [`Node::add_value`] brings the
    /// result, the visit reads as a loss to other threads (virtual loss).
    #[inline]
    pub fn add_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }

    /// Adds the result of a visit already counted by [`Node::add_visit`].
    #[inline]
    pub fn add_value(&self, value: u64) {
        self.value.fetch_add(value, Relaxed);
    }

    /// [`Node::add_visit`] as a plain load and store: an increment made by another thread at
    /// the same instant may be lost. Far below the root, where two threads seldom meet, that
    /// rare loss is worth the locked instruction it saves on every node of every iteration.
    #[inline]
    pub fn add_visit_unlocked(&self) {
        self.visits
            .store(self.visits.load(Relaxed).saturating_add(1), Relaxed);
    }

    /// [`Node::add_value`] as a plain load and store (see [`Node::add_visit_unlocked`]).
    #[inline]
    pub fn add_value_unlocked(&self, value: u64) {
        self.value.store(self.value.load(Relaxed) + value, Relaxed);
    }

    /// The children as an index range (empty when not expanded).
    #[inline]
    pub fn children(&self) -> std::ops::Range<u32> {
        // The count first (acquire): a non-zero count guarantees the block is initialised.
        let count = self.children.load(Acquire) as u32;
        let first = self.first_child.load(Relaxed);
        first..first + count
    }

    /// The index of the first child (0 when not expanded).
    #[inline]
    pub fn first_child(&self) -> u32 {
        self.first_child.load(Relaxed)
    }

    /// How many children.
    #[inline]
    pub fn child_count(&self) -> u16 {
        self.children.load(Relaxed)
    }

    /// True once expanded.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.children.load(Acquire) != 0
    }

    /// Claims the right to expand this node; false when another thread has it (or the node is
    /// expanded already). The winner must call [`Node::set_children`] or
    /// [`Node::release_expansion`].
    #[inline]
    pub fn try_claim_expansion(&self) -> bool {
        self.flags.compare_exchange(0, 1, Acquire, Relaxed).is_ok()
    }

    /// Gives up a claimed expansion (the arena was full), so that it can be retried later.
    #[inline]
    pub fn release_expansion(&self) {
        self.flags.store(0, Release);
    }

    /// Links the children block `first..first + count` (count 0: unexpanded, free to expand).
    /// The count is stored last, with `Release`: it publishes the initialised block.
    #[inline]
    pub fn set_children(&self, first: u32, count: u16) {
        self.first_child.store(first, Relaxed);
        self.flags.store((count != 0) as u8, Relaxed);
        self.children.store(count, Release);
    }

    /// The proven result, if any.
    #[inline]
    pub fn proof(&self) -> Option<Proof> {
        Proof::decode(self.proof.load(Relaxed))
    }

    /// Records a proven result (the minimax value becomes the exact result).
    #[inline]
    pub fn set_proof(&self, proof: Proof) {
        self.proof.store(proof.encode(), Relaxed);
        self.minimax.store(proof.value() as u16, Relaxed);
    }

    /// The implicit minimax value (`SCALE` units, the mover's view).
    #[inline]
    pub fn minimax(&self) -> u16 {
        self.minimax.load(Relaxed)
    }

    /// Sets the implicit minimax value (a relaxed store: threads may race, the last recomputed
    /// value wins, and the next backup through the node recomputes it anyway).
    #[inline]
    pub fn set_minimax(&self, value: u16) {
        self.minimax.store(value, Relaxed);
    }

    /// Records a proven result unless the node has one already (another thread may have
    /// proven it first); true when this call wrote it.
    #[inline]
    pub fn try_set_proof(&self, proof: Proof) -> bool {
        let won = self
            .proof
            .compare_exchange(0, proof.encode(), Relaxed, Relaxed)
            .is_ok();
        if won {
            self.minimax.store(proof.value() as u16, Relaxed);
        }
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{generate_moves, MoveList, Position, Rules};

    #[test]
    fn node_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }

    #[test]
    fn dense_and_padded_invert() {
        for sq in Square::ALL {
            let b = Bitboard::from_square(sq).bits();
            assert_eq!(dense(b), 1 << sq.index());
            assert_eq!(padded(dense(b)), b);
        }
    }

    #[test]
    fn packed_moves_play_like_the_real_ones() {
        let pos = crate::board::fen::parse("W:WK27,25:B22,23,14,15,K7").unwrap();
        let mut list = MoveList::new();
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            for p in [Position::startpos(), pos] {
                generate_moves(&p, &rules, &mut list);
                for &m in list.iter() {
                    let pm = PackedMove::new(m);
                    let (mut a, mut b) = (p, p);
                    a.play_unchecked(m);
                    b.play_unchecked(pm.playable());
                    assert_eq!(a, b);
                    assert_eq!(pm.playable().is_capture(), m.is_capture());
                    assert_eq!(pm.playable().crowns(), m.crowns());
                    let r = pm.resolve(&list).unwrap();
                    assert_eq!(PackedMove::new(r), pm);
                }
            }
        }
    }
}
