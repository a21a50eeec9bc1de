//! Perft: count the leaf nodes of the legal move tree, for checking and timing the generator.
//!
//! The tree is walked on raw bitboards with [`crate::board::count`]: successors made directly,
//! the last ply counted without making its moves, rules and side to move fixed at compile time.
//! Threads take subtrees a few plies below the root from a shared queue, so that one big root
//! move does not leave a core idle at the end. An optional [`PerftTable`] remembers the counts
//! of subtrees already walked, so a position reached by several move orders is walked once.
//!
//! The 8x8 family (Pool, Russian, Brazilian) is walked through the move generator instead.
//!
//! Layout: `table` is that table; this file walks the tree.

mod table;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

pub use table::{PerftTable, TableError};

use crate::board::count::{count, for_each_child, Black, Node, Side, Visit, White};
use crate::board::{count_moves, generate_moves, zobrist, MoveList, Position, Rules};
use crate::types::{Color, Move};

/// Subtrees at least this deep are looked up in and stored to the table; shallower ones cost
/// less to count again than a likely cache miss costs to look up.
const TABLE_MIN_DEPTH: u32 = 3;

/// With more than one thread, the queue is split a ply deeper until it holds this many subtrees
/// per thread, so the last ones to finish are small.
const ITEMS_PER_THREAD: usize = 64;

/// Subtrees are not split below this depth: they are too quick to be worth a queue entry.
const MIN_ITEM_DEPTH: u32 = 4;

/// Plies left from which a walk looks at the stop flag: often enough to stop at once, rarely
/// enough to cost nothing measurable.
const STOP_CHECK_DEPTH: u32 = 3;

/// Sums the move counts of the successors it is shown: the last two plies of a walk.
struct LastPly<const BACK: bool, const LONG: bool, S>(u64, std::marker::PhantomData<S>);

impl<const BACK: bool, const LONG: bool, S: Side> Visit for LastPly<BACK, LONG, S> {
    // Inlined into the generator's loops, so the counting of a successor shares the work that
    // does not depend on which move made it.
    #[inline(always)]
    fn visit(&mut self, child: Node) {
        self.0 += count::<BACK, LONG, S>(child);
    }
}

/// Sums the walks of the successors it is shown.
struct Deeper<'a, const BACK: bool, const LONG: bool, S> {
    leaves: u64,
    depth: u32,
    table: Option<&'a PerftTable>,
    stop: &'a AtomicBool,
    side: std::marker::PhantomData<S>,
}

impl<const BACK: bool, const LONG: bool, S: Side> Visit for Deeper<'_, BACK, LONG, S> {
    fn visit(&mut self, child: Node) {
        self.leaves += walk::<BACK, LONG, S>(child, self.depth, self.table, self.stop);
    }
}

/// Leaf count of the subtree of `node`, side `S` to move, `depth` plies deep (partial, and
/// never stored, once `stop` is set).
fn walk<const BACK: bool, const LONG: bool, S: Side>(
    node: Node,
    depth: u32,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> u64 {
    match depth {
        0 => 1,
        1 => count::<BACK, LONG, S>(node),
        2 => {
            let mut last = LastPly::<BACK, LONG, S::Other>(0, std::marker::PhantomData);
            for_each_child::<BACK, LONG, S, _>(node, &mut last);
            last.0
        }
        _ if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) => 0,
        _ => {
            let key = match table {
                Some(t) if depth >= TABLE_MIN_DEPTH => {
                    let key = zobrist::key(node, S::COLOR) ^ zobrist::depth_key(depth);
                    if let Some(n) = t.probe(key) {
                        return n;
                    }
                    Some((t, key))
                }
                _ => None,
            };
            let mut deeper = Deeper::<BACK, LONG, S::Other> {
                leaves: 0,
                depth: depth - 1,
                table,
                stop,
                side: std::marker::PhantomData,
            };
            for_each_child::<BACK, LONG, S, _>(node, &mut deeper);
            if stop.load(Ordering::Relaxed) {
                return deeper.leaves;
            }
            if let Some((t, key)) = key {
                t.store(key, depth, deeper.leaves);
            }
            deeper.leaves
        }
    }
}

/// Leaf count of the subtree of `pos`, choosing the compiled walk for its rules and side.
fn subtree(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> u64 {
    if rules.remove_at_end {
        return walk_moves(pos, rules, depth, stop);
    }
    let node = Node::of(pos);
    match (rules.backward_capture, rules.long_kings, pos.side_to_move()) {
        (true, true, Color::Black) => walk::<true, true, Black>(node, depth, table, stop),
        (true, false, Color::Black) => walk::<true, false, Black>(node, depth, table, stop),
        (false, true, Color::Black) => walk::<false, true, Black>(node, depth, table, stop),
        (false, false, Color::Black) => walk::<false, false, Black>(node, depth, table, stop),
        (true, true, Color::White) => walk::<true, true, White>(node, depth, table, stop),
        (true, false, Color::White) => walk::<true, false, White>(node, depth, table, stop),
        (false, true, Color::White) => walk::<false, true, White>(node, depth, table, stop),
        (false, false, Color::White) => walk::<false, false, White>(node, depth, table, stop),
    }
}

/// Leaf count of the subtree of `pos` through the move generator: the 8x8 family's captures
/// have no bitboard count of their own (see `board::family`).
fn walk_moves(pos: &Position, rules: &Rules, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, rules),
        _ if stop.load(Ordering::Relaxed) => 0,
        _ => {
            let mut list = MoveList::new();
            generate_moves(pos, rules, &mut list);
            list.iter()
                .map(|&mv| {
                    let mut next = *pos;
                    next.play_unchecked(mv);
                    walk_moves(&next, rules, depth - 1, stop)
                })
                .sum()
        }
    }
}

/// Leaf count of the move tree of `pos`, `depth` plies deep, on this thread.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    subtree(pos, rules, depth, None, &AtomicBool::new(false))
}

/// Leaf counts per root move ("divide"), in move-generation order, using `threads` threads.
pub fn divide(pos: &Position, rules: &Rules, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_with(pos, rules, depth, threads, None)
}

/// [`divide`] that ends early once `stop` is set: the counts, and whether they are complete
/// (false: `stop` came first and the counts are partial).
pub fn divide_until(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> (Vec<(Move, u64)>, bool) {
    let counts = divide_inner(pos, rules, depth, threads, None, stop);
    (counts, !stop.load(Ordering::Relaxed))
}

/// A subtree waiting in the queue: the root move it belongs to, its position and depth.
#[derive(Clone, Copy)]
struct Item {
    root: usize,
    pos: Position,
    depth: u32,
}

/// The queue of subtrees: the successors of the root moves, split a ply deeper while there are
/// fewer than `wanted` and they are deep enough to be worth splitting.
fn split(pos: &Position, rules: &Rules, roots: &MoveList, depth: u32, wanted: usize) -> Vec<Item> {
    let mut items: Vec<Item> = roots
        .iter()
        .enumerate()
        .map(|(root, &mv)| {
            let mut next = *pos;
            next.play_unchecked(mv);
            Item {
                root,
                pos: next,
                depth: depth - 1,
            }
        })
        .collect();
    let mut list = MoveList::new();
    // An empty queue (no moves at the root, or none a ply deeper) has nothing to split: without
    // this check `all` of nothing is true and the loop would never end.
    while !items.is_empty()
        && items.len() < wanted
        && items.iter().all(|i| i.depth >= MIN_ITEM_DEPTH)
    {
        let mut deeper = Vec::with_capacity(items.len() * 8);
        for item in &items {
            generate_moves(&item.pos, rules, &mut list);
            for &mv in list.iter() {
                let mut next = item.pos;
                next.play_unchecked(mv);
                deeper.push(Item {
                    root: item.root,
                    pos: next,
                    depth: item.depth - 1,
                });
            }
        }
        items = deeper;
    }
    items
}

/// Leaf counts per root move in move-generation order, using `threads` threads and, when given,
/// `table` for subtrees already counted (by this call or an earlier one under the same rules:
/// the table does not know the rules).
pub fn divide_with(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> Vec<(Move, u64)> {
    divide_inner(pos, rules, depth, threads, table, &AtomicBool::new(false))
}

fn divide_inner(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut roots = MoveList::new();
    generate_moves(pos, rules, &mut roots);
    let threads = threads.clamp(1, 256);
    let wanted = if threads > 1 {
        ITEMS_PER_THREAD * threads
    } else {
        0
    };
    let items = split(pos, rules, &roots, depth, wanted);
    let totals = Mutex::new(vec![0u64; roots.len()]);
    let cursor = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.min(items.len().max(1)) {
            s.spawn(|| {
                let mut local = vec![0u64; roots.len()];
                loop {
                    let k = cursor.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(k) else {
                        break;
                    };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    local[item.root] += subtree(&item.pos, rules, item.depth, table, stop);
                }
                let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
                for (a, b) in t.iter_mut().zip(local) {
                    *a += b;
                }
            });
        }
    });
    let totals = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    roots.iter().copied().zip(totals).collect()
}
