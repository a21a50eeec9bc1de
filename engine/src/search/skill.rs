//! Playing weaker on purpose, for people who play against the engine (`UCI_LimitStrength` with
//! `UCI_Elo`), the way serious engines do it: a smaller search and a controlled random choice
//! among the best root moves, never a random legal move.
//!
//! `UCI_Elo` maps to a skill level from 0 to 20 (fractional between the calibrated points of
//! [`SCALE`]). The level sets two things:
//! - the search budget: at most [`Skill::nodes`] iterations a move, from [`MIN_NODES`] at level
//!   0 to [`MAX_NODES`] at level 20 (doubling every two levels), whatever the clock allows, so
//!   that the strength does not grow with thinking time;
//! - the choice of the move (Stockfish's `Skill::pick_best`): among the [`CANDIDATES`] most
//!   searched root moves, each gets a bonus `(w * (top - s) + delta * r) / 128`, with `s` its
//!   score in centi-men, `top` the best candidate's score, `delta` the spread of the candidates'
//!   scores (at most a man), `w = 120 * (1 - level / 20)` the weakness and `r` a random integer
//!   below `w`; the move with the highest score plus bonus is played (level 20: the usual one). A move much worse than the best
//!   keeps most of its deficit, so the engine plays plausible moves and only rarely a
//!   blunder, more often the lower the level. A proven win is always played and a proven loss
//!   never chosen over another move.
//!
//! The random numbers come from the `Seed` option and the position, so that a fixed `Seed`
//! and `go nodes` give the same move every time. The full-strength engine (the option off) and
//! the plain baseline (`PlainUct`) never come here.

use rand::RngCore;

use crate::board::Position;
use crate::search::tree::Tree;
use crate::search::{choice, report, Score, SearchConfig};

/// Smallest `UCI_Elo`.
pub const MIN_ELO: i64 = 800;
/// Largest `UCI_Elo` (and its default).
pub const MAX_ELO: i64 = 2000;

/// The highest skill level.
pub const MAX_LEVEL: f64 = 20.0;

/// Iterations a move at level 0.
pub const MIN_NODES: f64 = 16.0;
/// Iterations a move at level 20.
pub const MAX_NODES: f64 = 16_384.0;

/// How many of the most searched root moves the choice is made among.
pub const CANDIDATES: usize = 4;

/// The weakness at level 0 (Stockfish's).
const MAX_WEAKNESS: f64 = 120.0;

/// A man in centi-men: the most the candidates' spread counts for in the random bonus.
const MAN: i64 = 100;

/// The `UCI_Elo` of skill levels, ascending in both: a value between two points is the level
/// in proportion between them. The points are calibrated by matches (docs/results/).
const SCALE: [(f64, f64); 2] = [(0.0, MIN_ELO as f64), (MAX_LEVEL, MAX_ELO as f64)];

/// A strength limit: the skill level that `UCI_Elo` asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The limit `config` asks for: none at full strength or for the plain baseline.
    pub fn of(config: &SearchConfig) -> Option<Skill> {
        (config.limit_strength && !config.plain_uct).then(|| Skill::from_elo(config.elo))
    }

    /// The skill level of `elo` (clamped to the scale).
    pub fn from_elo(elo: u32) -> Skill {
        let elo = f64::from(elo).clamp(MIN_ELO as f64, MAX_ELO as f64);
        let level = SCALE
            .windows(2)
            .find(|w| elo <= w[1].1)
            .map_or(MAX_LEVEL, |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
            });
        Skill { level }
    }

    /// The skill level, 0 to 20.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// The most iterations a move may use.
    pub fn nodes(&self) -> u64 {
        let share = self.level / MAX_LEVEL;
        (MIN_NODES * (MAX_NODES / MIN_NODES).powf(share)).round() as u64
    }

    /// The weakness `w` of the bonus: 120 at level 0, down to 0 (no randomness) at level 20.
    fn weakness(&self) -> i64 {
        (MAX_WEAKNESS * (1.0 - self.level / MAX_LEVEL)).round() as i64
    }

    /// The child of node `index` (whose position is `pos`) to play among the `allowed` ones
    /// (empty: all), with random numbers drawn from `seed` and `pos` (see [`choice::rng`]);
    /// `None` when the node has no child. Called by [`choice::Chooser`] only.
    pub fn choose(
        &self,
        tree: &Tree,
        index: u32,
        solver: bool,
        allowed: &[bool],
        pos: &Position,
        seed: u64,
    ) -> Option<u32> {
        let ranked = report::ranked(tree, index, solver, allowed, report::Rank::Visits);
        let first = *ranked.first()?;
        let score = |c: u32| report::score(tree.node(c), solver);
        let weakness = self.weakness();
        // A proven win is played; a proven loss ranks first only when every move loses. No
        // weakness left: the usual choice.
        if weakness <= 0 || matches!(score(first), Score::Mate(_)) {
            return Some(first);
        }
        let candidates: Vec<(u32, i64)> = ranked
            .iter()
            .take(CANDIDATES)
            .filter(|&&c| tree.node(c).visits() > 0)
            .filter_map(|&c| match score(c) {
                Score::Cp(cp) => Some((c, i64::from(cp))),
                Score::Mate(_) => None,
            })
            .collect();
        // Nothing searched yet (a `stop` at once): the usual choice.
        let (Some(top), Some(last)) = (
            candidates.iter().map(|c| c.1).max(),
            candidates.iter().map(|c| c.1).min(),
        ) else {
            return Some(first);
        };
        let delta = (top - last).min(MAN);
        let mut rng = choice::rng(seed, pos);
        let mut best = (first, i64::MIN);
        for &(c, s) in &candidates {
            let r = (rng.next_u64() % weakness as u64) as i64;
            let push = (weakness * (top - s) + delta * r) / 128;
            if s + push > best.1 {
                best = (c, s + push);
            }
        }
        Some(best.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_level_0_to_20() {
        let at = |elo: u32| Skill::from_elo(elo);
        assert_eq!(at(MIN_ELO as u32).level(), 0.0);
        assert_eq!(at(0).level(), 0.0);
        assert_eq!(at(MAX_ELO as u32).level(), MAX_LEVEL);
        assert_eq!(at(u32::MAX).level(), MAX_LEVEL);
        assert_eq!(at(MIN_ELO as u32).nodes(), 16);
        assert_eq!(at(MAX_ELO as u32).nodes(), 16_384);
        assert_eq!(
            (at(MIN_ELO as u32).weakness(), at(MAX_ELO as u32).weakness()),
            (120, 0)
        );
        let mut last = 0;
        for elo in MIN_ELO..=MAX_ELO {
            let n = at(elo as u32).nodes();
            assert!(n >= last, "{elo}");
            last = n;
        }
    }

    #[test]
    fn only_a_limited_engine_has_a_skill() {
        let mut c = SearchConfig::default();
        assert_eq!(Skill::of(&c), None);
        c.limit_strength = true;
        assert_eq!(Skill::of(&c), Some(Skill::from_elo(MAX_ELO as u32)));
        c.plain_uct = true;
        assert_eq!(Skill::of(&c), None);
    }
}
