//! Spreading a pass over many positions across threads, with progress polled by the caller.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::board::{MoveList, Position};
use crate::tablebase::index::SliceIndex;
use crate::tablebase::material::Masks;

/// Positions handed to a thread at a time: large enough that the shared counter costs
/// nothing, small enough that threads finish together.
const CHUNK: u64 = 1 << 14;

/// How often the calling thread wakes to report progress.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on every chunk of `0..total` on `threads` threads; calls `progress(done)` on
/// the calling thread while they run (often: the caller throttles its output), and once at
/// the end.
pub(crate) fn parallel<W>(total: u64, threads: usize, work: W, progress: &mut dyn FnMut(u64))
where
    W: Fn(Range<u64>) + Sync,
{
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let workers = threads.max(1);
    let (finished, rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let finished = finished.clone();
            let (next, done, work) = (&next, &done, &work);
            s.spawn(move || {
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= total {
                        break;
                    }
                    let end = (start + CHUNK).min(total);
                    work(start..end);
                    done.fetch_add(end - start, Ordering::Relaxed);
                }
                // The receiver lives until every worker is counted; a failed send cannot happen.
                let _ = finished.send(());
            });
        }
        let mut left = workers;
        while left > 0 {
            match rx.recv_timeout(POLL) {
                Ok(()) => left -= 1,
                Err(mpsc::RecvTimeoutError::Timeout) => progress(done.load(Ordering::Relaxed)),
                // A worker panicked: the scope re-raises its panic.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    progress(total);
}

/// The half and index of the `g`-th position of a slice whose halves (of `n` positions each)
/// follow one another.
#[inline]
pub(crate) fn split(g: u64, n: u64) -> (usize, u64) {
    if g < n {
        (0, g)
    } else {
        (1, g - n)
    }
}

/// Runs `f(half, index, position, move list)` on every position of a slice's halves (indexes
/// of equal size), on `threads` threads.
pub(crate) fn each_position<F>(
    halves: &[SliceIndex],
    threads: usize,
    f: F,
    progress: &mut dyn FnMut(u64),
) where
    F: Fn(usize, u64, &Position, &mut MoveList) + Sync,
{
    let n = halves[0].size();
    parallel(
        n * halves.len() as u64,
        threads,
        |range| {
            let mut list = MoveList::new();
            boards_in(halves, range, |h, i, b| {
                if let Some(pos) = b.position() {
                    f(h, i, &pos, &mut list);
                }
            });
        },
        progress,
    );
}

/// Calls `f(half, index, board)` for the positions `range` of a slice whose halves (indexes
/// of equal size) follow one another, in order, stepping from board to board
/// ([`SliceIndex::for_each_board`]).
pub(crate) fn boards_in(
    halves: &[SliceIndex],
    range: Range<u64>,
    mut f: impl FnMut(usize, u64, &Masks),
) {
    let n = halves[0].size();
    // The range may cross from half 0 into half 1.
    for (h, half) in halves.iter().enumerate() {
        let base = h as u64 * n;
        let (start, end) = (range.start.max(base), range.end.min(base + n));
        if start < end {
            half.for_each_board(start - base..end - base, |i, b| f(h, i, b));
        }
    }
}

/// Runs `work(start, part)` on `threads` contiguous parts of `data` at once (`start`: the
/// index of the part's first item), for passes that fill a slice of their own results.
pub(crate) fn in_parallel<T: Send>(
    data: &mut [T],
    threads: usize,
    work: impl Fn(usize, &mut [T]) + Sync,
) {
    let size = data.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for (k, part) in data.chunks_mut(size).enumerate() {
            let work = &work;
            s.spawn(move || work(k * size, part));
        }
    });
}
