//! Random playouts: uniformly random legal moves to the end of the game (or a ply cut).
//!
//! The playout is where the search spends its time, so it avoids building move lists when it
//! can. Without a capture (the common case) the quiet moves are counted with a few shifts and
//! popcounts, one random index is drawn and only that move is built. With a capture the full
//! list is generated into one reused `MoveList` (captures are few and must be walked anyway).
//! Either way every legal move has the same chance, exactly as picking from the full list.

use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{generate_moves, has_captures, next_clock, MoveList, Position, Rules};
use crate::search::eval;
use crate::search::node::SCALE;
use crate::types::{Bitboard, Color, Direction, Move};

/// How a playout ended, from the view of the side to move where it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutEnd {
    /// The starting side won.
    Win,
    /// The starting side lost.
    Loss,
    /// Drawn by the no-progress rule.
    Draw,
    /// Cut off at the ply limit before the game ended.
    Unfinished,
    /// Cut off early and scored by the static evaluation: the starting side's win
    /// probability in `SCALE` units.
    Scored(u64),
}

/// Extra plies a cut playout may play past its cut while captures are pending, so that the
/// evaluation does not see a position in the middle of an exchange.
const QUIESCENCE_PLIES: u32 = 12;

/// A uniform random index below `n` (n > 0) from 32 random bits, without division.
#[inline]
fn below(rng: &mut Xoshiro256PlusPlus, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as u32
}

/// The `k`-th lowest square of `set` (k < set.count()).
#[inline]
fn nth_square(set: Bitboard, k: u32) -> Bitboard {
    let mut bits = set.bits();
    for _ in 0..k {
        bits &= bits - 1;
    }
    Bitboard::from_bits(bits).lowest()
}

/// `set` shifted `steps` times in `dir`.
#[inline]
fn shift_n(mut set: Bitboard, dir: Direction, steps: u32) -> Bitboard {
    for _ in 0..steps {
        set = set.shift(dir);
    }
    set
}

/// How a cut playout ends: after how many plies, following which moves, scored with which
/// contempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Plies before the position is scored by the evaluation.
    pub plies: u32,
    /// Follow the greedy policy ([`Playout::policy_move`]) instead of uniform random moves.
    pub policy: bool,
    /// The contempt of the evaluation (see [`eval::with_contempt`]).
    pub contempt: eval::Contempt,
}

/// Playout state: the reused move list.
#[derive(Debug, Default)]
pub struct Playout {
    list: MoveList,
}

impl Playout {
    /// A playout runner.
    pub fn new() -> Playout {
        Playout {
            list: MoveList::new(),
        }
    }

    /// A uniformly random legal move of `pos`; `None` when the side to move has none.
    #[inline]
    pub fn random_move(
        &mut self,
        pos: &Position,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Move> {
        if has_captures(pos, rules) {
            generate_moves(pos, rules, &mut self.list);
            let n = self.list.len() as u32;
            return Some(self.list[below(rng, n) as usize]);
        }
        let side = pos.side_to_move();
        if pos.kings(side).is_empty() {
            // Men only (most plies): two target sets, one draw.
            let empty = pos.empty();
            let men = pos.men(side);
            let [d1, d2] = Direction::forward(side);
            let (t1, t2) = (men.shift(d1) & empty, men.shift(d2) & empty);
            let (c1, c2) = (t1.count(), t2.count());
            if c1 + c2 == 0 {
                return None;
            }
            let k = below(rng, c1 + c2);
            let (targets, dir, k) = if k < c1 {
                (t1, d1, k)
            } else {
                (t2, d2, k - c1)
            };
            let to = nth_square(targets, k);
            let from = to.shift(dir.reverse());
            let crowns = to.intersects(Bitboard::crowning_row(side));
            return Some(Move::quiet(from.to_square(), to.to_square(), crowns));
        }
        let n = quiet_count(pos, rules);
        if n == 0 {
            return None;
        }
        quiet_nth(pos, rules, below(rng, n)).ok()
    }

    /// A move by the playout policy: mostly greedy (the capture that takes most; a crowning
    /// step; a man step that does not hang the man), with one move in [`EXPLORE_ONE_IN`] and
    /// every position with kings to move left uniformly random, so playouts stay varied.
    #[inline]
    pub fn policy_move(
        &mut self,
        pos: &Position,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Move> {
        let r = rng.next_u64();
        if r.is_multiple_of(EXPLORE_ONE_IN as u64) {
            return self.random_move(pos, rules, rng);
        }
        if has_captures(pos, rules) {
            generate_moves(pos, rules, &mut self.list);
            let most = self.list.iter().map(|m| m.captured().count()).max()?;
            let n = self
                .list
                .iter()
                .filter(|m| m.captured().count() == most)
                .count() as u32;
            let k = below(rng, n) as usize;
            return self
                .list
                .iter()
                .filter(|m| m.captured().count() == most)
                .nth(k)
                .copied();
        }
        let side = pos.side_to_move();
        if pos.kings(side).any() {
            return self.random_move(pos, rules, rng);
        }
        let empty = pos.empty();
        let men = pos.men(side);
        let crown = Bitboard::crowning_row(side);
        let [d1, d2] = Direction::forward(side);
        let (t1, t2) = (men.shift(d1) & empty, men.shift(d2) & empty);
        if (t1 | t2).is_empty() {
            return None;
        }
        // Crowning steps first, then steps that leave the man safe, then anything.
        let (c1, c2) = (t1 & crown, t2 & crown);
        let (s1, s2) = if (c1 | c2).any() {
            (c1, c2)
        } else {
            let (h1, h2) = (
                t1 & !hanging(pos, rules, t1, d1),
                t2 & !hanging(pos, rules, t2, d2),
            );
            if (h1 | h2).any() {
                (h1, h2)
            } else {
                (t1, t2)
            }
        };
        let (n1, n2) = (s1.count(), s2.count());
        let k = below(rng, n1 + n2);
        let (targets, dir, k) = if k < n1 {
            (s1, d1, k)
        } else {
            (s2, d2, k - n1)
        };
        let to = nth_square(targets, k);
        let from = to.shift(dir.reverse());
        Some(Move::quiet(
            from.to_square(),
            to.to_square(),
            to.intersects(crown),
        ))
    }

    /// Plays random moves from `pos` (no-progress clock `clock`) until the game ends under
    /// `rules` or `max_plies` moves were made. Returns how it ended and the plies played.
    pub fn run(
        &mut self,
        mut pos: Position,
        mut clock: u32,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
        max_plies: u32,
    ) -> (PlayoutEnd, u32) {
        let start = pos.side_to_move();
        let draw = rules.draw_half_moves;
        for ply in 0..max_plies {
            let Some(mv) = self.random_move(&pos, rules, rng) else {
                return (stuck(&pos, start), ply);
            };
            // No legal move loses before the draw rule is looked at (RULES.md).
            if draw > 0 && clock >= draw {
                return (PlayoutEnd::Draw, ply);
            }
            clock = next_clock(mv, clock);
            pos.play_unchecked(mv);
        }
        (PlayoutEnd::Unfinished, max_plies)
    }

    /// Like [`Playout::run`], but after `cut.plies` plies (and once no capture is pending,
    /// within [`QUIESCENCE_PLIES`] more) the position is scored by [`eval::evaluate`] (with
    /// `cut.contempt`) instead of played out: a [`PlayoutEnd::Scored`] from the starting
    /// side's view.
    pub fn run_cut(
        &mut self,
        mut pos: Position,
        mut clock: u32,
        rules: &Rules,
        rng: &mut Xoshiro256PlusPlus,
        cut: Cut,
    ) -> (PlayoutEnd, u32) {
        let start = pos.side_to_move();
        let draw = rules.draw_half_moves;
        let limit = cut.plies + QUIESCENCE_PLIES;
        for ply in 0..limit {
            if ply >= cut.plies && !has_captures(&pos, rules) {
                return (score_for(&pos, rules, start, cut.contempt), ply);
            }
            let mv = if cut.policy {
                self.policy_move(&pos, rules, rng)
            } else {
                self.random_move(&pos, rules, rng)
            };
            let Some(mv) = mv else {
                return (stuck(&pos, start), ply);
            };
            if draw > 0 && clock >= draw {
                return (PlayoutEnd::Draw, ply);
            }
            clock = next_clock(mv, clock);
            pos.play_unchecked(mv);
        }
        (score_for(&pos, rules, start, cut.contempt), limit)
    }
}

/// The policy plays a uniformly random move once in this many plies.
const EXPLORE_ONE_IN: u32 = 8;

/// The squares of `targets` (empty squares that men of the side to move reach by one step in
/// `dir`) where the man would stand en prise: an enemy piece next to it can jump it and land
/// on an empty square behind it (the square the man came from counts as empty). Flying kings
/// attacking from a distance are not seen: the test is cheap, not exact.
#[inline]
fn hanging(pos: &Position, rules: &Rules, targets: Bitboard, dir: Direction) -> Bitboard {
    let enemy = !pos.side_to_move();
    let (men, kings) = (pos.men(enemy), pos.kings(enemy));
    let empty = pos.empty();
    let mut hit = Bitboard::EMPTY;
    for e in Direction::ALL {
        // The attacker stands at s + e and jumps in direction -e, landing on s - e.
        let jumps_back = e.reverse();
        let men_can = Direction::forward(enemy).contains(&jumps_back) || rules.backward_capture;
        let attackers = if men_can { men | kings } else { kings };
        let landing_ok = if e == dir { targets } else { empty.shift(e) };
        hit |= targets & attackers.shift(jumps_back) & landing_ok;
    }
    hit
}

/// The evaluation of `pos` (with `contempt`) as a win probability for `start`.
#[inline]
fn score_for(
    pos: &Position,
    rules: &Rules,
    start: crate::types::Color,
    contempt: eval::Contempt,
) -> PlayoutEnd {
    let v = eval::to_value(eval::with_contempt(
        eval::evaluate(pos, rules),
        pos,
        contempt,
    ));
    PlayoutEnd::Scored(if pos.side_to_move() == start {
        v
    } else {
        SCALE - v
    })
}

/// How far a king may slide: the whole board with flying kings, one step otherwise.
#[inline]
fn king_reach(rules: &Rules) -> u32 {
    if rules.long_kings {
        7
    } else {
        1
    }
}

/// Walks the quiet moves in a fixed order (men by direction, then kings by direction and
/// distance, squares in index order within each group) and returns the `k`-th, or the number
/// of quiet moves when there are not more than `k`. Call only when there is no capture.
#[inline]
fn quiet_nth(pos: &Position, rules: &Rules, mut k: u32) -> Result<Move, u32> {
    let side = pos.side_to_move();
    let empty = pos.empty();
    let men = pos.men(side);
    let crown = Bitboard::crowning_row(side);
    let mut seen = 0;
    for dir in Direction::forward(side) {
        let targets = men.shift(dir) & empty;
        let c = targets.count();
        if k < c {
            let to = nth_square(targets, k);
            let from = to.shift(dir.reverse());
            return Ok(Move::quiet(
                from.to_square(),
                to.to_square(),
                to.intersects(crown),
            ));
        }
        k -= c;
        seen += c;
    }
    let kings = pos.kings(side);
    if kings.is_empty() {
        return Err(seen);
    }
    let reach = king_reach(rules);
    for dir in Direction::ALL {
        let mut run = kings.shift(dir) & empty;
        let mut step = 1;
        while run.any() {
            let c = run.count();
            if k < c {
                let to = nth_square(run, k);
                let from = shift_n(to, dir.reverse(), step);
                return Ok(Move::quiet(from.to_square(), to.to_square(), false));
            }
            k -= c;
            seen += c;
            if step == reach {
                break;
            }
            run = run.shift(dir) & empty;
            step += 1;
        }
    }
    Err(seen)
}

/// The number of quiet moves (call only when there is no capture).
#[inline]
fn quiet_count(pos: &Position, rules: &Rules) -> u32 {
    quiet_nth(pos, rules, u32::MAX).err().unwrap_or(0)
}

/// The result, from `start`'s view, when the side to move at `pos` has no legal move: it lost.
#[inline]
fn stuck(pos: &Position, start: Color) -> PlayoutEnd {
    if pos.side_to_move() == start {
        PlayoutEnd::Loss
    } else {
        PlayoutEnd::Win
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;
    use crate::types::Color;
    use rand::SeedableRng;

    const POSITIONS: &[&str] = &[
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:WK3,18,22,26,30:B6,9,K27",
        "W:WK10,K27:BK5,K19,23",
        "B:W20,24,27,28,K6:B1,3,10,K26",
        "W:WK1,K32:BK4,K29",
        "W:W5,K13:B1,K30",
    ];

    #[test]
    fn quiet_moves_match_the_generator() {
        let mut list = MoveList::new();
        for rules in [
            Rules::BUFF_AND_GREEN,
            Rules::ENGLISH,
            Rules {
                long_kings: false,
                ..Rules::BUFF_AND_GREEN
            },
        ] {
            for text in POSITIONS {
                let pos = fen::parse(text).unwrap();
                for p in [pos, pos.with_side_to_move(!pos.side_to_move())] {
                    if has_captures(&p, &rules) {
                        continue;
                    }
                    generate_moves(&p, &rules, &mut list);
                    let n = quiet_count(&p, &rules);
                    assert_eq!(n as usize, list.len(), "{text}");
                    let mut mine: Vec<String> = (0..n)
                        .map(|k| quiet_nth(&p, &rules, k).unwrap().to_string())
                        .collect();
                    let mut theirs: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                    mine.sort();
                    theirs.sort();
                    assert_eq!(mine, theirs, "{text}");
                    for k in 0..n {
                        assert!(list.contains(&quiet_nth(&p, &rules, k).unwrap()));
                    }
                }
            }
        }
    }

    #[test]
    fn the_men_only_shortcut_picks_like_the_full_walk() {
        let rules = Rules::default();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut playout = Playout::new();
        let mut pos = Position::startpos();
        for _ in 0..40 {
            if has_captures(&pos, &rules) || pos.all_kings().any() {
                break;
            }
            let mut copy = rng.clone();
            let mv = playout.random_move(&pos, &rules, &mut rng).unwrap();
            let k = below(&mut copy, quiet_count(&pos, &rules));
            assert_eq!(Ok(mv), quiet_nth(&pos, &rules, k));
            pos.play_unchecked(mv);
        }
    }

    #[test]
    fn the_policy_does_not_hang_men_and_takes_the_most() {
        let rules = Rules::default();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut playout = Playout::new();
        // 10-14 lets 17 jump back onto 10; 10-15 is safe.
        let pos = fen::parse("B:W17:B10").unwrap();
        let hang = hanging(
            &pos,
            &rules,
            pos.men(Color::Black).shift(Direction::DownLeft),
            Direction::DownLeft,
        );
        assert_eq!(hang.first().map(|s| s.number()), Some(14));
        // 9-14 hangs to 18 landing on 9; 9-13 is safe (nothing can jump 13 on the edge).
        let pos = fen::parse("B:W18:B9").unwrap();
        let mut safe = 0;
        for _ in 0..200 {
            let mv = playout.policy_move(&pos, &rules, &mut rng).unwrap();
            safe += (mv.to().number() == 13) as u32;
        }
        // One move in 8 is uniform: about 200 * (7/8 + 1/16) = 187 safe.
        assert!(safe > 170, "{safe}");
        // Two captures: the double one is preferred.
        let pos = fen::parse("W:W22,30:B18,26,11").unwrap();
        let mut double = 0;
        for _ in 0..200 {
            let mv = playout.policy_move(&pos, &rules, &mut rng).unwrap();
            double += (mv.captured().count() == 2) as u32;
        }
        assert!(double > 170, "{double}");
    }

    #[test]
    fn playouts_end_by_the_rules() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut playout = Playout::new();
        let rules = Rules::default();
        // Black has no move: the side to move loses at once.
        let stuck = fen::parse("B:W:B1")
            .unwrap()
            .with_side_to_move(crate::types::Color::White);
        assert_eq!(
            playout.run(stuck, 0, &rules, &mut rng, 500),
            (PlayoutEnd::Loss, 0)
        );
        // The draw clock already ran out and the side to move can move: a draw at once.
        let pos = fen::parse("W:WK1:BK32").unwrap();
        assert_eq!(
            playout.run(pos, 80, &rules, &mut rng, 500),
            (PlayoutEnd::Draw, 0)
        );
        let (end, plies) = playout.run(pos, 70, &rules, &mut rng, 500);
        assert!(
            end == PlayoutEnd::Draw && plies == 10 || plies < 10,
            "{end:?} {plies}"
        );
        let (end, plies) = playout.run(Position::startpos(), 0, &rules, &mut rng, 3);
        assert_eq!((end, plies), (PlayoutEnd::Unfinished, 3));
    }
}
