//! The tree arena: one preallocated block of nodes addressed by `u32`, sized from `Hash`.
//!
//! Children of a node are allocated together by bumping a counter, so a node's children always
//! have higher indices than the node itself. Compaction relies on that: it marks the subtree to
//! keep in one forward scan and slides the kept nodes down in index order (a mark-compact
//! collector in the Lisp 2 style), which re-roots the tree in place without a second arena.
//! The mark bits and the rank table it needs are preallocated and counted in the budget, so
//! the whole search tree never takes more than `Hash` bytes.
//!
//! Threads: allocation and every node field are atomic, so several search threads share the
//! arena through `&Tree` with no lock and no `unsafe`. Compaction takes `&mut Tree`: the
//! borrow checker guarantees that it runs only when no search thread holds the tree (between
//! searches, or after the threads of a search were joined because the arena filled up).

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::search::node::{Node, PackedMove};
use crate::search::padded::CachePadded;

/// Bytes the arena needs per node: the node, one mark bit and a 32-bit rank per 64 nodes,
/// rounded up so that the auxiliary tables always fit.
const BYTES_PER_NODE: usize = 33;

/// The fewest nodes an arena has, whatever the budget (enough for any root and a few plies).
const MIN_NODES: usize = 1 << 12;

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
    /// An arena that fits in `budget` bytes (at least a few thousand nodes; if the system
    /// cannot provide the memory, as many nodes as it can, halving the request).
    pub fn with_budget(budget: usize) -> Tree {
        let mut capacity = (budget / BYTES_PER_NODE).clamp(MIN_NODES, u32::MAX as usize - 1);
        loop {
            let mut nodes: Vec<Node> = Vec::new();
            if nodes.try_reserve_exact(capacity).is_ok() || capacity <= MIN_NODES {
                nodes.resize_with(capacity, Node::default);
                let words = capacity.div_ceil(64);
                let tree = Tree {
                    nodes: nodes.into_boxed_slice(),
                    used: CachePadded(AtomicU32::new(1)),
                    marks: vec![0; words].into_boxed_slice(),
                    ranks: vec![0; words].into_boxed_slice(),
                    compactions: 0,
                };
                tree.clear();
                return tree;
            }
            capacity /= 2;
        }
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
        let limit = limit.max(1 + self.node(new_root).child_count() as usize);
        let mut min_visits = 0u32;
        let kept = loop {
            let kept = self.mark(new_root, min_visits);
            if kept <= limit || min_visits > u32::MAX / 2 {
                break kept;
            }
            min_visits = (min_visits * 2).max(1);
        };
        let mut total = 0;
        for (rank, word) in self.ranks.iter_mut().zip(self.marks.iter()) {
            *rank = total;
            total += word.count_ones();
        }
        let used = self.used();
        for i in new_root as usize..used {
            if !self.is_marked(i) {
                continue;
            }
            let node = &self.nodes[i];
            let f = node.first_child() as usize;
            let (first, count) = if node.is_expanded() && self.is_marked(f) {
                (self.rank(f) as u32, node.child_count())
            } else {
                (0, 0)
            };
            let dest = self.rank(i);
            if dest == i {
                let n = &self.nodes[i];
                n.set_children(first, count);
            } else {
                let (low, high) = self.nodes.split_at(i);
                low[dest].copy_from(&high[0], first, count);
            }
        }
        for w in self.marks.iter_mut().take(used.div_ceil(64)) {
            *w = 0;
        }
        self.used.store(kept as u32, Relaxed);
        self.compactions += 1;
        kept
    }

    /// Marks `root` and every node below it whose parent has at least `min_visits` visits
    /// (the root's own children always); returns how many are marked.
    fn mark(&mut self, root: u32, min_visits: u32) -> usize {
        let used = self.used();
        for w in self.marks.iter_mut().take(used.div_ceil(64)) {
            *w = 0;
        }
        self.set_mark(root as usize);
        let mut count = 1;
        for i in root as usize..used {
            if !self.is_marked(i) {
                continue;
            }
            let node = &self.nodes[i];
            if node.is_expanded() && (i == root as usize || node.visits() >= min_visits) {
                let range = node.children();
                count += range.len();
                for c in range {
                    self.set_mark(c as usize);
                }
            }
        }
        count
    }

    #[inline]
    fn is_marked(&self, i: usize) -> bool {
        self.marks[i / 64] & (1 << (i % 64)) != 0
    }

    #[inline]
    fn set_mark(&mut self, i: usize) {
        self.marks[i / 64] |= 1 << (i % 64);
    }

    /// The new index of marked node `i`: how many marked nodes precede it.
    #[inline]
    fn rank(&self, i: usize) -> usize {
        let below = self.marks[i / 64] & ((1u64 << (i % 64)) - 1);
        self.ranks[i / 64] as usize + below.count_ones() as usize
    }
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
