//! Perft: count the leaf nodes of the legal move tree, for checking and timing the generator.
//!
//! The last ply is bulk-counted (`count_moves` without building moves). Work is split over
//! threads by the moves two plies deep, so a lopsided root move does not leave a core idle.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::board::{count_moves, generate_moves, MoveList, Position, Rules};
use crate::types::Move;

/// Leaf count of the move tree of `pos`, `depth` plies deep, on this thread.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    let mut lists = vec![MoveList::new(); depth as usize + 1];
    count(pos, rules, depth, &mut lists, &AtomicBool::new(false))
}

/// Plies left above which [`count`] looks at the stop flag: often enough to stop within
/// milliseconds, rarely enough to cost nothing measurable.
const STOP_CHECK_DEPTH: u32 = 3;

fn count(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    lists: &mut [MoveList],
    stop: &AtomicBool,
) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, rules),
        _ if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) => 0,
        _ => {
            let (list, rest) = match lists.split_first_mut() {
                Some(x) => x,
                None => return 0,
            };
            generate_moves(pos, rules, list);
            let mut total = 0;
            for &mv in list.iter() {
                let mut next = *pos;
                next.play_unchecked(mv);
                total += count(&next, rules, depth - 1, rest, stop);
            }
            total
        }
    }
}

/// Leaf counts per root move ("divide"), in move-generation order, using `threads` threads.
pub fn divide(pos: &Position, rules: &Rules, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_until(pos, rules, depth, threads, &AtomicBool::new(false)).0
}

/// [`divide`] that ends early once `stop` is set: returns the counts and whether they are
/// complete (false: `stop` came first and the counts are partial).
pub fn divide_until(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> (Vec<(Move, u64)>, bool) {
    if depth == 0 {
        return (Vec::new(), true);
    }
    let mut roots = MoveList::new();
    generate_moves(pos, rules, &mut roots);
    // Work items: (root index, position to count, depth left).
    let mut items: Vec<(usize, Position, u32)> = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        let mut next = *pos;
        next.play_unchecked(mv);
        if depth >= 4 {
            let mut replies = MoveList::new();
            generate_moves(&next, rules, &mut replies);
            for &r in replies.iter() {
                let mut after = next;
                after.play_unchecked(r);
                items.push((i, after, depth - 2));
            }
        } else {
            items.push((i, next, depth - 1));
        }
    }
    let totals = Mutex::new(vec![0u64; roots.len()]);
    let cursor = AtomicUsize::new(0);
    let threads = threads.clamp(1, 256);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut lists = vec![MoveList::new(); depth as usize + 1];
                let mut local = vec![0u64; roots.len()];
                loop {
                    let k = cursor.fetch_add(1, Ordering::Relaxed);
                    let Some(&(root, p, d)) = items.get(k) else {
                        break;
                    };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    local[root] += count(&p, rules, d, &mut lists, stop);
                }
                let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
                for (a, b) in t.iter_mut().zip(local) {
                    *a += b;
                }
            });
        }
    });
    let totals = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    let complete = !stop.load(Ordering::Relaxed);
    (roots.iter().copied().zip(totals).collect(), complete)
}
