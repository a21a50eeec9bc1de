//! The one place where the move to play is chosen: from the book's moves before any search
//! ([`Chooser::from_book`]), or from a searched tree ([`Chooser::from_tree`]) both when the
//! search ends and when a `stop` during a compaction is answered early, with the strength
//! limit's pick (`choose_weaker`, the way Stockfish's `Skill::pick_best` does it) in both
//! cases.
//!
//! Random choices draw from the `Seed` option and the position ([`rng`]): a fixed `Seed`
//! gives the same move in the same position every time.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Position, Rules};
use crate::search::params::{Behaviour, Skill, MAX_LEVEL};
use crate::search::report::{self, Reader};
use crate::search::tree::Tree;
use crate::search::{Score, SearchConfig, SearchOutcome};
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
                let reader = Reader::new(tree, self.solver);
                let pick = choose_weaker(skill, &reader, index, allowed, pos, self.seed);
                reader.play(pick, pos, rules)
            }
            None => Reader::new(tree, self.solver).outcome(index, pos, rules, allowed, self.rank),
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

/// How many of the most searched root moves the strength limit chooses among.
pub const CANDIDATES: usize = 4;

/// The weakness at level 0 (Stockfish's).
const MAX_WEAKNESS: f64 = 120.0;

/// A man in centi-men: the most the candidates' spread counts for in the random bonus.
const MAN: i64 = 100;

/// The weakness `w` of the strength limit's bonus: 120 at level 0, down to 0 (no randomness)
/// at level 20.
fn weakness(skill: &Skill) -> i64 {
    (MAX_WEAKNESS * (1.0 - skill.level() / MAX_LEVEL)).round() as i64
}

/// Playing weaker on purpose, for people who play against the engine (`UCI_LimitStrength` with
/// `UCI_Elo`), the way serious engines do it: a smaller search and a controlled random choice
/// among the best root moves, never a random legal move.
///
/// `UCI_Elo` maps to a skill level from 0 to 20 (fractional between the calibrated points of
/// [`Skill`]'s scale). The level sets two things:
/// - the search budget: at most [`Skill::nodes`] iterations a move, from 16 at level
///   0 to 16,384 at level 20 (doubling every two levels), whatever the clock allows, so
///   that the strength does not grow with thinking time;
/// - the choice of the move (Stockfish's `Skill::pick_best`): among the [`CANDIDATES`] most
///   searched root moves, each gets a bonus `(w * (top - s) + delta * r) / 128`, with `s` its
///   score in centi-men, `top` the best candidate's score, `delta` the spread of the candidates'
///   scores (at most a man), `w = 120 * (1 - level / 20)` the weakness and `r` a random integer
///   below `w`; the move with the highest score plus bonus is played (level 20: the usual
///   one). A move much worse than the best keeps most of its deficit, so the engine plays plausible moves and only rarely a
///   blunder, more often the lower the level. A proven win is always played and a proven loss
///   never chosen over another move.
///
/// The random numbers come from the `Seed` option and the position, so that a fixed `Seed`
/// and `go nodes` give the same move every time. The full-strength engine (the option off) and
/// the plain baseline (`PlainUct`) never come here.
///
/// Returns the child of node `index` (whose position is `pos`) to play among the `allowed` ones
/// (empty: all), with random numbers drawn from `seed` and `pos` (see [`rng`]);
/// `None` when the node has no child.
fn choose_weaker(
    skill: &Skill,
    reader: &Reader,
    index: u32,
    allowed: &[bool],
    pos: &Position,
    seed: u64,
) -> Option<u32> {
    let tree = reader.tree;
    let ranked = reader.ranked(index, allowed, report::Rank::Visits);
    let first = *ranked.first()?;
    let score = |c: u32| reader.score(tree.node(c));
    let weakness = weakness(skill);
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
    let mut rng = rng(seed, pos);
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
    use crate::search::params::{MAX_ELO, MIN_ELO};

    #[test]
    fn the_weakness_runs_from_120_at_level_0_to_none_at_level_20() {
        let at = |elo: i64| weakness(&Skill::from_elo(elo as u32));
        assert_eq!((at(MIN_ELO), at(MAX_ELO)), (120, 0));
    }

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
