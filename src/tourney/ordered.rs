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

    /// Takes the item of `round`; returns every item now due, in round order. Only the games
    /// finished ahead of a game still running wait here, so this holds at most about as many
    /// games as the workers finish during the slowest game.
    pub(super) fn push(&mut self, round: usize, item: T) -> Vec<T> {
        self.pending.insert(round, item);
        let mut due = Vec::new();
        while let Some(item) = self.pending.remove(&self.next) {
            due.push(item);
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
        assert!(o.push(2, "b").is_empty());
        assert!(o.push(4, "d").is_empty());
        assert_eq!(o.push(1, "a"), ["a", "b"]);
        assert!(o.push(6, "f").is_empty());
        assert_eq!(o.push(3, "c"), ["c", "d"]);
        assert_eq!(o.drain(), ["f"]);
        assert!(o.drain().is_empty());
    }
}
