//! The tree arena: one preallocated block of nodes addressed by `u32`, sized from `Hash`.
//!
//! Children of a node are allocated together by bumping a counter, so a node's children always
//! have higher indices than the node itself. Compaction relies on that: it marks the subtree to
//! keep in one forward scan and slides the kept nodes down in index order (a mark-compact
//! collector in the Lisp 2 style), which re-roots the tree in place without a second arena.
//! The mark bits and the rank table it needs are preallocated and counted in the budget, so
//! the whole search tree never takes more than `Hash` bytes. All of it is taken as zeroed
//! memory, which the system maps only as the tree first touches it: a large `Hash` costs
//! nothing until the search uses it.
//!
//! Threads: allocation and every node field are atomic, so several search threads share the
//! arena through `&Tree` with no lock and no `unsafe`. Compaction takes `&mut Tree`: the
//! borrow checker guarantees that it runs only when no search thread holds the tree (between
//! searches, or after the threads of a search were joined because the arena filled up).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use zerocopy::FromZeros;

use crate::search::node::{Node, PackedMove};
use crate::search::padded::CachePadded;
use crate::search::placement;

/// Bytes the arena needs per node: the node, one mark bit and a 32-bit rank per 64 nodes,
/// rounded up so that the auxiliary tables always fit.
const BYTES_PER_NODE: usize = 33;

/// The fewest nodes an arena has, whatever the budget (enough for any root and a few plies).
const MIN_NODES: usize = 1 << 12;

/// Under a memory limit, the arena takes at most this fraction (one in so many) of the
/// address space the limit leaves.
const ROOM_SHARE: usize = 2;

/// The arena.
#[derive(Debug)]
pub struct Tree {
    nodes: Box<[Node]>,
    /// Nodes in use: `0..used`. Atomic so that threads allocate with a compare-and-swap;
    /// padded so that allocating does not evict `nodes` (read on every step) from the other
    /// cores' caches.
    used: CachePadded<AtomicU32>,
    marks: Box<[u64]>,
    ranks: Box<[u32]>,
    /// Compactions done since the arena was made.
    compactions: u64,
}

/// Memory figures of the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStats {
    /// Nodes the arena can hold.
    pub capacity: usize,
    /// Nodes in use.
    pub used: usize,
    /// Bytes of one node.
    pub node_bytes: usize,
    /// Bytes allocated for the arena and its compaction tables.
    pub bytes: usize,
    /// Compactions (re-rootings and prunings of a full arena) since the arena was made.
    pub compactions: u64,
}

impl Tree {
    /// An arena that fits in `budget` bytes (at least a few thousand nodes; under a memory
    /// limit at most half of what the limit leaves; if the system cannot provide the memory,
    /// as many nodes as it can, halving the request).
    ///
    /// The memory is taken zeroed and not written here: the system maps it page by page as
    /// the tree first touches it, so making even the largest arena costs next to nothing and a
    /// search pays for the pages it uses as it grows into them (memory in use never exceeds
    /// the budget either way). A zeroed node is a fresh one (see [`Node`]), and no node is
    /// read before it is allocated and initialised.
    pub fn with_budget(budget: usize) -> Tree {
        // Under a memory limit the arena takes at most a share of what the limit leaves, so
        // that the search threads' stacks and everything else still find memory.
        let budget = match placement::address_room() {
            Some(room) => budget.min(room / ROOM_SHARE),
            None => budget,
        };
        let mut capacity = Tree::capacity_for(budget);
        let nodes = loop {
            match <[Node]>::new_box_zeroed_with_elems(capacity) {
                Ok(nodes) => break nodes,
                // The smallest arena is asked for as any allocation is: its failure is the
                // system's out-of-memory handling.
                Err(_) if capacity <= MIN_NODES => {
                    break (0..capacity).map(|_| Node::default()).collect();
                }
                Err(_) => capacity /= 2,
            }
        };
        let words = capacity.div_ceil(64);
        // Zero-filled vectors of integers are taken zeroed as well, untouched until used.
        let tree = Tree {
            nodes,
            used: CachePadded(AtomicU32::new(1)),
            marks: vec![0; words].into_boxed_slice(),
            ranks: vec![0; words].into_boxed_slice(),
            compactions: 0,
        };
        tree.clear();
        tree
    }

    /// The nodes an arena of `budget` bytes holds when the system provides them.
    pub fn capacity_for(budget: usize) -> usize {
        (budget / BYTES_PER_NODE).clamp(MIN_NODES, u32::MAX as usize - 1)
    }

    /// Memory figures.
    pub fn stats(&self) -> TreeStats {
        TreeStats {
            capacity: self.nodes.len(),
            used: self.used(),
            node_bytes: std::mem::size_of::<Node>(),
            bytes: std::mem::size_of_val(&*self.nodes)
                + std::mem::size_of_val(&*self.marks)
                + std::mem::size_of_val(&*self.ranks),
            compactions: self.compactions,
        }
    }

    /// Nodes in use.
    #[inline]
    pub fn used(&self) -> usize {
        self.used.load(Relaxed) as usize
    }

    /// Nodes the arena holds.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Forgets the tree: only a fresh root remains.
    pub fn clear(&self) {
        self.nodes[0].init(PackedMove::default());
        self.used.store(1, Relaxed);
    }

    /// The node at `index`.
    #[inline]
    pub fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Reserves `count` contiguous nodes; `None` when the arena is full. Threads may call it
    /// at once: the bump is a compare-and-swap, so `used` never passes the capacity.
    #[inline]
    pub fn alloc(&self, count: usize) -> Option<u32> {
        let mut used = self.used();
        loop {
            if used + count > self.capacity() {
                return None;
            }
            match self.used.compare_exchange_weak(
                used as u32,
                (used + count) as u32,
                Relaxed,
                Relaxed,
            ) {
                Ok(_) => return Some(used as u32),
                Err(now) => used = now as usize,
            }
        }
    }

    /// Re-roots the tree at `new_root`, keeping at most `limit` nodes of its subtree: when the
    /// whole subtree does not fit, the children of the least visited nodes are dropped (those
    /// nodes keep their statistics and become leaves again). Returns the nodes kept.
    pub fn compact(&mut self, new_root: u32, limit: usize) -> usize {
        self.compact_polling(new_root, limit, &mut || {})
    }

    /// [`Tree::compact`], calling `poll` every [`POLL_EVERY`] nodes scanned. A compaction
    /// cannot be interrupted (half moved, the tree is not a tree), and on a large arena it
    /// takes milliseconds: `poll` lets the caller answer a `stop` meanwhile.
    pub fn compact_polling(
        &mut self,
        new_root: u32,
        limit: usize,
        poll: &mut dyn FnMut(),
    ) -> usize {
        poll();
        let limit = limit.max(1 + self.node(new_root).child_count() as usize);
        // One pass marks the whole subtree and counts children by their parent's visits; the
        // lowest visit threshold whose count fits is then marked with a second pass. The
        // count is an upper bound (a node is kept only if all its ancestors pass too), so the
        // kept nodes never exceed `limit`.
        let (mut kept, by_visits) = self.mark(new_root, 0, poll);
        if kept > limit {
            let min_visits = threshold(&by_visits, kept, limit);
            kept = self.mark(new_root, min_visits, poll).0;
        }
        let mut total = 0;
        for (rank, word) in self.ranks.iter_mut().zip(self.marks.iter()) {
            *rank = total;
            total += word.count_ones();
        }
        let used = self.used();
        let words = used.div_ceil(64);
        for w in new_root as usize / 64..words {
            if w % (POLL_EVERY / 64) == 0 {
                poll();
            }
            let mut bits = self.marks[w];
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let node = &self.nodes[i];
                let f = node.first_child() as usize;
                let (first, count) = if node.is_expanded() && self.is_marked(f) {
                    (self.rank(f) as u32, node.child_count())
                } else {
                    (0, 0)
                };
                let dest = self.rank(i);
                if dest == i {
                    self.nodes[i].set_children(first, count);
                } else {
                    let (low, high) = self.nodes.split_at(i);
                    low[dest].copy_from(&high[0], first, count);
                }
            }
        }
        self.marks[..words].fill(0);
        self.used.store(kept as u32, Relaxed);
        self.compactions += 1;
        kept
    }

    /// Marks `root` and every node below it whose parent has at least `min_visits` visits
    /// (the root's own children always); returns how many are marked, and how many children
    /// the marked nodes other than the root have, by [`visit_class`] of the parent's visits.
    fn mark(
        &mut self,
        root: u32,
        min_visits: u32,
        poll: &mut dyn FnMut(),
    ) -> (usize, [usize; VISIT_CLASSES]) {
        let used = self.used();
        let words = used.div_ceil(64);
        self.marks[..words].fill(0);
        self.set_mark(root as usize);
        let mut count = 1;
        let mut by_visits = [0usize; VISIT_CLASSES];
        // Children always come after their parent, so one forward scan reaches the whole
        // subtree; a word is read again after each of its nodes, whose children may be in it.
        for w in root as usize / 64..words {
            if w % (POLL_EVERY / 64) == 0 {
                poll();
            }
            let mut done = 0u64;
            loop {
                let pending = self.marks[w] & !done;
                if pending == 0 {
                    break;
                }
                let bit = pending.trailing_zeros();
                done |= 1 << bit;
                let i = w * 64 + bit as usize;
                let node = &self.nodes[i];
                if !node.is_expanded() {
                    continue;
                }
                let range = node.children();
                if i != root as usize {
                    let visits = node.visits();
                    by_visits[visit_class(visits)] += range.len();
                    if visits < min_visits {
                        continue;
                    }
                }
                count += range.len();
                self.mark_range(range.start as usize, range.end as usize);
            }
        }
        (count, by_visits)
    }

    #[inline]
    fn is_marked(&self, i: usize) -> bool {
        self.marks[i / 64] & (1 << (i % 64)) != 0
    }

    #[inline]
    fn set_mark(&mut self, i: usize) {
        self.marks[i / 64] |= 1 << (i % 64);
    }

    /// Marks nodes `start..end`.
    #[inline]
    fn mark_range(&mut self, start: usize, end: usize) {
        let mut i = start;
        while i < end {
            let (w, bit) = (i / 64, i % 64);
            let n = (64 - bit).min(end - i);
            let ones = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << bit
            };
            self.marks[w] |= ones;
            i += n;
        }
    }

    /// The new index of marked node `i`: how many marked nodes precede it.
    #[inline]
    fn rank(&self, i: usize) -> usize {
        let below = self.marks[i / 64] & ((1u64 << (i % 64)) - 1);
        self.ranks[i / 64] as usize + below.count_ones() as usize
    }
}

/// Nodes a compaction scans between two calls of its `poll` (a fraction of a millisecond).
pub const POLL_EVERY: usize = 1 << 15;

/// Classes of visit counts: 0, then one per power of two up to 2^31.
const VISIT_CLASSES: usize = 33;

/// The class of a visit count: 0 for none, `k + 1` for `2^k..2^(k+1)`.
#[inline]
fn visit_class(visits: u32) -> usize {
    (u32::BITS - visits.leading_zeros()) as usize
}

/// The lowest visit threshold (0, or a power of two) at which the children of nodes with fewer
/// visits can be dropped so that at most `limit` nodes stay, given `all` nodes marked without
/// a threshold and the children counted by their parent's visit class.
fn threshold(by_visits: &[usize; VISIT_CLASSES], all: usize, limit: usize) -> u32 {
    let mut kept = all;
    for (class, &children) in by_visits.iter().enumerate() {
        if kept <= limit {
            // Dropping classes below `class` keeps parents with at least 2^(class - 1) visits.
            return if class == 0 { 0 } else { 1 << (class - 1) };
        }
        kept -= children;
    }
    u32::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small tree: root with 3 children, child 2 with 2 children, one of those with 1.
    fn sample() -> Tree {
        let t = Tree::with_budget(0);
        let a = t.alloc(3).unwrap();
        t.root().set_children(a, 3);
        for i in 0..3 {
            t.node(a + i).add(5_000);
        }
        t.node(a + 2).add(0);
        t.node(a + 2).add(0);
        let b = t.alloc(2).unwrap();
        t.node(a + 2).set_children(b, 2);
        let c = t.alloc(1).unwrap();
        t.node(b + 1).set_children(c, 1);
        t.node(b + 1).add(1);
        t
    }

    #[test]
    fn budget_is_respected() {
        for mib in [1usize, 2, 7] {
            let t = Tree::with_budget(mib << 20);
            assert!(t.stats().bytes <= mib << 20);
            assert!(t.capacity() * 32 > (mib << 20) * 9 / 10);
        }
    }

    #[test]
    fn reroot_keeps_the_subtree_and_links() {
        let mut t = sample();
        assert_eq!(t.used(), 7);
        let kept = t.compact(3, usize::MAX);
        assert_eq!(kept, 4);
        assert_eq!(t.used(), 4);
        assert_eq!(t.root().children(), 1..3);
        assert_eq!(t.node(1).children(), 0..0);
        assert_eq!(t.node(2).children(), 3..4);
        assert_eq!(t.node(2).visits(), 1);
    }

    /// The subtree at `index` as nested (visits, children) values, to compare trees whose
    /// indices differ.
    #[derive(Debug, PartialEq)]
    struct Shape(u32, Vec<Shape>);

    fn shape(t: &Tree, index: u32) -> Shape {
        let children = t.node(index).children().map(|c| shape(t, c)).collect();
        Shape(t.node(index).visits(), children)
    }

    fn count(s: &Shape) -> usize {
        1 + s.1.iter().map(count).sum::<usize>()
    }

    /// True when `pruned` is `whole` with the children of some nodes dropped (all or none of
    /// a node's children, and always the root's).
    fn is_pruned_from(pruned: &Shape, whole: &Shape, root: bool) -> bool {
        pruned.0 == whole.0
            && if pruned.1.is_empty() {
                !root || whole.1.is_empty()
            } else {
                pruned.1.len() == whole.1.len()
                    && pruned
                        .1
                        .iter()
                        .zip(&whole.1)
                        .all(|(p, w)| is_pruned_from(p, w, false))
            }
    }

    #[test]
    fn compaction_keeps_a_pruned_copy_within_the_limit() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for round in 0..200 {
            let mut t = Tree::with_budget(0);
            // Random expansions with random visit counts (not falling with depth, so that
            // the threshold's count is only an upper bound).
            let mut leaves = vec![0u32];
            while let Some(k) = (!leaves.is_empty()).then(|| rng.gen_range(0..leaves.len())) {
                let n = rng.gen_range(1..6u32);
                let Some(first) = t.alloc(n as usize) else {
                    break;
                };
                let parent = leaves.swap_remove(k);
                for c in first..first + n {
                    t.node(c).init(PackedMove::default());
                    for _ in 0..rng.gen_range(0..40) {
                        t.node(c).add(1);
                    }
                    leaves.push(c);
                }
                t.node(parent).set_children(first, n as u16);
                if t.used() > 600 {
                    break;
                }
            }
            let root = if round % 2 == 0 {
                0
            } else {
                t.root().first_child()
            };
            let whole = shape(&t, root);
            let limit = rng.gen_range(1..count(&whole) + 10);
            let kept = t.compact(root, limit);
            let pruned = shape(&t, 0);
            let floor = 1 + whole.1.len();
            assert_eq!(kept, count(&pruned), "round {round}");
            assert_eq!(t.used(), kept, "round {round}");
            assert!(kept <= limit.max(floor), "round {round}: {kept} > {limit}");
            assert!(is_pruned_from(&pruned, &whole, true), "round {round}");
            if limit >= count(&whole) {
                assert_eq!(pruned, whole, "round {round}");
            }
        }
    }

    #[test]
    fn compaction_polls_while_it_runs() {
        let mut t = Tree::with_budget(8 << 20);
        while let Some(first) = t.alloc(4) {
            let parent = first / 4;
            t.node(parent).set_children(first, 4);
        }
        let mut polls = 0;
        t.compact_polling(0, t.capacity() / 2, &mut || polls += 1);
        assert!(polls >= 2 * t.capacity() / POLL_EVERY, "{polls}");
    }

    #[test]
    fn compaction_prunes_the_least_visited_to_fit() {
        let mut t = sample();
        // The whole tree is 7 nodes; with a limit of 6 the child of the once-visited node goes.
        let kept = t.compact(0, 6);
        assert_eq!(kept, 6);
        assert_eq!(t.root().children(), 1..4);
        assert_eq!(t.node(3).children(), 4..6);
        assert_eq!(t.node(5).children(), 0..0);
        assert_eq!(t.node(5).visits(), 1);
    }
}
