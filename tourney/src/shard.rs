//! `--shard K/N`: the K-th of N disjoint slices of a run's schedule.
//!
//! The schedule (see `runner::Match::job`) is cut into blocks of `2 P` games, `P` the number
//! of pairings: block `b` holds game pair `b` of every pairing, both colours. Shard `K` plays
//! blocks `K-1`, `K-1+N`, `K-1+2N`, ... So the two games of a pair (same opening, colours
//! reversed) are always in one shard, a shard's games are spread over the whole run, and every
//! game keeps its round number, opening and engine seeds: the union of the N shards is
//! exactly the unsplit run.

use super::error::TourneyError;

/// One slice of a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 0.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = TourneyError;

    /// `K/N` with 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, TourneyError> {
        let bad = || {
            TourneyError::Config(format!(
                "bad --shard '{text}': expected K/N with 1 <= K <= N, like 2/3"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

impl Shard {
    /// The index in the whole schedule of this shard's `j`-th game (from 0), for a schedule
    /// of `total` games in blocks of `block`; `None` past the shard's end.
    pub fn global(&self, j: usize, block: usize, total: usize) -> Option<usize> {
        let b = (j / block)
            .checked_mul(self.count)?
            .checked_add(self.index)?;
        let i = b.checked_mul(block)?.checked_add(j % block)?;
        (i < total).then_some(i)
    }

    /// How many games of a schedule of `total` games in blocks of `block` this shard plays.
    pub fn games(&self, block: usize, total: usize) -> usize {
        let full = total / block;
        let rest = total % block;
        let mine = if full > self.index {
            (full - self.index).div_ceil(self.count)
        } else {
            0
        };
        let tail = if rest > 0 && full % self.count == self.index {
            rest
        } else {
            0
        };
        mine * block + tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 3 }
        );
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert_eq!(
                e,
                format!("bad --shard '{bad}': expected K/N with 1 <= K <= N, like 2/3")
            );
        }
    }

    #[test]
    fn shards_split_the_schedule_exactly() {
        for (block, total) in [(2, 12), (6, 40), (4, 3), (2, 1), (6, 6)] {
            for n in 1..=5 {
                let mut all = Vec::new();
                for k in 0..n {
                    let s = Shard { index: k, count: n };
                    let mine: Vec<usize> = (0..).map_while(|j| s.global(j, block, total)).collect();
                    assert_eq!(mine.len(), s.games(block, total), "{block} {total} {n} {k}");
                    // Both games of a pair in one shard.
                    for &i in &mine {
                        let first = i - i % block;
                        assert!(mine.contains(&first));
                    }
                    all.extend(mine);
                }
                all.sort_unstable();
                assert_eq!(all, (0..total).collect::<Vec<_>>());
            }
        }
        let s = Shard { index: 1, count: 3 };
        assert_eq!(
            (0..6).map(|j| s.global(j, 2, 12)).collect::<Vec<_>>(),
            [Some(2), Some(3), Some(8), Some(9), None, None]
        );
    }
}
