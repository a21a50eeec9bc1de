//! The one place where the move to play is chosen: from the book's moves before any search
//! ([`Chooser::from_book`]), or from a searched tree ([`Chooser::from_tree`]) both when the
//! search ends and when a `stop` during a compaction is answered early, with the strength
//! limit's pick (see [`skill`](super::skill)) in both cases.
//!
//! Random choices draw from the `Seed` option and the position ([`rng`]): a fixed `Seed`
//! gives the same move in the same position every time.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Position, Rules};
use crate::search::params::Behaviour;
use crate::search::skill::Skill;
use crate::search::tree::Tree;
use crate::search::{report, SearchConfig, SearchOutcome};
use crate::types::{Color, Move};

/// Book moves more than this many centi-men worse than the best book move are never played:
/// the book stores near alternatives for variety, not to throw away value.
pub const BOOK_MARGIN: i32 = 15;

/// A move of the book with its score (centi-men, from the mover's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its score.
    pub score: i32,
}

/// How the move is chosen under a configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chooser {
    solver: bool,
    rank: report::Rank,
    skill: Option<Skill>,
    seed: u64,
}

impl Chooser {
    /// The chooser of `config`.
    pub fn of(config: &SearchConfig) -> Chooser {
        Chooser {
            solver: Behaviour::of(config).solver,
            rank: report::rank_for(config.multipv.max(1)),
            skill: Skill::of(config),
            seed: config.seed,
        }
    }

    /// The move to play at node `index` of `tree` (whose position is `pos`) among the
    /// `allowed` children (empty: all) and the expected reply: the strength limit's pick when
    /// there is one, otherwise the best by the rank of the `MultiPV` setting. `nodes` is left
    /// at 0 for the caller.
    pub fn from_tree(
        &self,
        tree: &Tree,
        index: u32,
        pos: &Position,
        rules: &Rules,
        allowed: &[bool],
    ) -> SearchOutcome {
        match &self.skill {
            Some(skill) => {
                let pick = skill.choose(tree, index, self.solver, allowed, pos, self.seed);
                report::play(tree, pick, pos, rules, self.solver)
            }
            None => report::outcome(tree, index, pos, rules, self.solver, allowed, self.rank),
        }
    }

    /// The book move to play in `pos` among `moves`: a random one of those within
    /// [`BOOK_MARGIN`] of the best, the better the more likely (weight: one plus the margin
    /// less the deficit); `None` without moves.
    pub fn from_book(&self, moves: &[Candidate], pos: &Position) -> Option<Candidate> {
        let total: u64 = near_best(moves).map(|n| n.1).sum();
        if total == 0 {
            return None;
        }
        // `r < total`, the sum of the weights: the walk always stops at a move.
        let mut r = rng(self.seed, pos).next_u64() % total;
        near_best(moves).find_map(|(c, w)| {
            if r < w {
                return Some(c);
            }
            r -= w;
            None
        })
    }

    /// How many of `moves` are within [`BOOK_MARGIN`] of the best.
    pub fn book_choices(moves: &[Candidate]) -> usize {
        near_best(moves).count()
    }
}

/// The book moves within [`BOOK_MARGIN`] of the best, each with its weight in the draw: one
/// more than what is left of the margin, so the best weighs most and none weighs nothing.
fn near_best(moves: &[Candidate]) -> impl Iterator<Item = (Candidate, u64)> + '_ {
    let best = moves.iter().map(|c| c.score).max().unwrap_or(0);
    moves
        .iter()
        .filter(move |c| best - c.score <= BOOK_MARGIN)
        .map(move |&c| (c, (1 + BOOK_MARGIN - (best - c.score)) as u64))
}

/// A generator seeded from the `Seed` option and the position, so that every position draws
/// its own numbers and the same position with the same seed the same ones.
pub fn rng(seed: u64, pos: &Position) -> Xoshiro256PlusPlus {
    let words = [
        pos.men(Color::Black).bits(),
        pos.men(Color::White).bits(),
        pos.kings(Color::Black).bits(),
        pos.kings(Color::White).bits(),
        pos.side_to_move() as u64,
    ];
    let mixed = words.iter().fold(seed, |h, &w| {
        (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
    });
    Xoshiro256PlusPlus::seed_from_u64(mixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{generate_moves, MoveList};

    fn candidates() -> Vec<Candidate> {
        let mut list = MoveList::new();
        generate_moves(&Position::startpos(), &Rules::default(), &mut list);
        list.iter()
            .zip([20, 10, 5, 19, -40, 0, 6])
            .map(|(&mv, score)| Candidate { mv, score })
            .collect()
    }

    #[test]
    fn a_book_move_is_within_the_margin_and_fixed_by_the_seed() {
        let moves = candidates();
        let pos = Position::startpos();
        let mut seen = Vec::new();
        for seed in 0..200 {
            let c = Chooser {
                seed,
                ..Chooser::of(&SearchConfig::default())
            };
            let pick = c.from_book(&moves, &pos).expect("a move");
            assert_eq!(c.from_book(&moves, &pos), Some(pick), "seed {seed}");
            assert!(pick.score >= 20 - BOOK_MARGIN, "{pick:?}");
            if !seen.contains(&pick.score) {
                seen.push(pick.score);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, vec![5, 6, 10, 19, 20]);
        assert_eq!(Chooser::book_choices(&moves), 5);
        let none = Chooser::of(&SearchConfig::default());
        assert_eq!(none.from_book(&[], &pos), None);
    }
}
