//! Puts finished games back in round order: with `--concurrency` above 1 games finish out of
//! order, but the PDN and the JSON record list them by round, as the schedule has them.

use std::collections::BTreeMap;

/// Items keyed by round (from 1), released in order.
#[derive(Debug)]
pub(super) struct RoundOrder<T> {
    next: usize,
    pending: BTreeMap<usize, T>,
}

impl<T> RoundOrder<T> {
    /// Starts at round 1.
    pub(super) fn new() -> RoundOrder<T> {
        RoundOrder {
            next: 1,
            pending: BTreeMap::new(),
        }
    }

    /// Takes the item of `round`; returns every item now due, in round order. `absent` says
    /// which rounds this run never plays (another shard's, or finished before a `--resume`):
    /// they are passed over rather than waited for, so that every game is written as soon as
    /// the games before it are. Only the games finished ahead of a game still running wait
    /// here, so this holds at most about as many games as the workers finish during the
    /// slowest game. `absent` must be false from some round on.
    pub(super) fn push(&mut self, round: usize, item: T, absent: impl Fn(usize) -> bool) -> Vec<T> {
        self.pending.insert(round, item);
        let mut due = Vec::new();
        loop {
            if let Some(item) = self.pending.remove(&self.next) {
                due.push(item);
            } else if !absent(self.next) {
                break;
            }
            self.next += 1;
        }
        due
    }

    /// Rounds that will never come (the match stopped): releases the rest, in round order.
    pub(super) fn drain(&mut self) -> Vec<T> {
        std::mem::take(&mut self.pending).into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_in_round_order() {
        let mut o = RoundOrder::new();
        let none = |_| false;
        assert!(o.push(2, "b", none).is_empty());
        assert!(o.push(4, "d", none).is_empty());
        assert_eq!(o.push(1, "a", none), ["a", "b"]);
        assert!(o.push(6, "f", none).is_empty());
        assert_eq!(o.push(3, "c", none), ["c", "d"]);
        assert_eq!(o.drain(), ["f"]);
        assert!(o.drain().is_empty());
    }

    #[test]
    fn passes_over_rounds_this_run_never_plays() {
        // Rounds 2, 3 and 6 are another shard's (or were finished before a resume).
        let absent = |r: usize| matches!(r, 2 | 3 | 6);
        let mut o = RoundOrder::new();
        assert!(o.push(4, "d", absent).is_empty());
        assert_eq!(o.push(1, "a", absent), ["a", "d"]);
        assert_eq!(o.push(5, "e", absent), ["e"]);
        assert_eq!(o.push(7, "g", absent), ["g"]);
        assert!(o.drain().is_empty());
    }
}
