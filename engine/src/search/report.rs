//! Reading results off the tree: move order, principal variations, scores and WDL.
//!
//! Two orders of the root moves: by [`Rank::Visits`] (proven wins first, then the most
//! searched move: the UCT's robust choice, what the engine plays with `MultiPV` 1) and by
//! [`Rank::Value`] (proven wins first, then the reported value, so that the scores of the
//! `MultiPV` lines never rise from one line to the next).

use std::cmp::Ordering;

use crate::board::{generate_moves, MoveList, Position, Rules};
use crate::eval;
use crate::search::node::{Node, PackedMove};
use crate::search::solver::Proof;
use crate::search::tables::{self, TABLED, TB_WIN_CP};
use crate::search::tree::Tree;
use crate::search::value;
use crate::search::{Score, SearchOutcome};
use crate::types::Move;

/// How root moves are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// Proven wins (shortest first), then unproven and drawn moves by visits and then value,
    /// then proven losses (longest first).
    Visits,
    /// The same classes, but unproven and drawn moves by the value [`Reader::score`] reports (a
    /// proven draw is worth one half), then visits: the order of the scores.
    Value,
}

/// The order of the `MultiPV` lines and of the move played: with one line, [`Rank::Visits`]
/// (the most searched move is the most reliable); with several, [`Rank::Value`], so that the
/// lines are sorted by their scores and the first is both the best scored and the one played.
pub fn rank_for(multipv: usize) -> Rank {
    if multipv > 1 {
        Rank::Value
    } else {
        Rank::Visits
    }
}

/// How a searched tree is read: every ranking, line, score and win/draw/loss split of one
/// search goes through one reader, so that they agree on whether the solver's proofs count
/// (the plain baseline plays without them: there a proven node is ranked by its visits).
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    /// The tree.
    pub tree: &'a Tree,
    /// Proofs count: proven wins first, proven losses last, exact scores.
    pub solver: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `tree`, with or without the solver's proofs.
    pub fn new(tree: &'a Tree, solver: bool) -> Reader<'a> {
        Reader { tree, solver }
    }

    /// Orders two children from the chooser's view, best first, by [`Rank::Visits`]. Without the
    /// solver only visits and value count.
    pub fn compare(&self, a: &Node, b: &Node) -> Ordering {
        RankKey::of(a, self.solver).cmp_best_first(&RankKey::of(b, self.solver), Rank::Visits)
    }

    /// The value of a child that [`Reader::score`] reports (0..=1, from the root mover's view):
    /// one half for a proven draw, the mean of its results otherwise (one half before any).
    pub fn value(&self, node: &Node) -> f64 {
        value_of(node, self.solver)
    }

    /// The best child of `index` (first of the best in generation order), if expanded.
    pub fn best_child(&self, index: u32, allowed: &[bool]) -> Option<u32> {
        let tree = self.tree;
        let mut best: Option<u32> = None;
        for (k, c) in tree.node(index).children().enumerate() {
            if !allowed.is_empty() && !allowed[k] {
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => self.compare(tree.node(c), tree.node(b)) == Ordering::Less,
            };
            if better {
                best = Some(c);
            }
        }
        best
    }

    /// The best allowed move at node `index` (whose position is `pos`) by `rank` and the expected
    /// reply; no move when the node has no children. `nodes` is left at 0 for the caller.
    pub fn outcome(
        &self,
        index: u32,
        pos: &Position,
        rules: &Rules,
        allowed: &[bool],
        rank: Rank,
    ) -> SearchOutcome {
        let best = match rank {
            Rank::Visits => self.best_child(index, allowed),
            Rank::Value => self.ranked(index, allowed, rank).first().copied(),
        };
        self.play(best, pos, rules)
    }

    /// The outcome that plays child `best` (none: no move) of the node whose position is `pos`,
    /// with the expected reply of its line; `nodes` is left at 0 for the caller.
    pub fn play(&self, best: Option<u32>, pos: &Position, rules: &Rules) -> SearchOutcome {
        let line = best.map(|c| self.pv(c, pos, rules));
        SearchOutcome {
            best: line.as_ref().and_then(|l| l.first().copied()),
            ponder: line.as_ref().and_then(|l| l.get(1).copied()),
            nodes: 0,
        }
    }

    /// The allowed root children, best first by [`Rank::Visits`].
    pub fn ranked_root(&self, allowed: &[bool]) -> Vec<u32> {
        self.ranked(0, allowed, Rank::Visits)
    }

    /// The allowed children of `index`, best first by `rank`.
    pub fn ranked(&self, index: u32, allowed: &[bool], rank: Rank) -> Vec<u32> {
        let tree = self.tree;
        let mut keyed: Vec<(u32, RankKey)> = tree
            .node(index)
            .children()
            .enumerate()
            .filter(|&(k, _)| allowed.is_empty() || allowed[k])
            .map(|(_, c)| (c, RankKey::of(tree.node(c), self.solver)))
            .collect();
        // A stable sort keeps generation order among equals, as `best_child` does.
        keyed.sort_by(|a, b| a.1.cmp_best_first(&b.1, rank));
        keyed.into_iter().map(|(c, _)| c).collect()
    }

    /// The principal variation starting with child `first` of the root at `root_pos`: that move,
    /// then the best visited child at every ply.
    pub fn pv(&self, first: u32, root_pos: &Position, rules: &Rules) -> Vec<Move> {
        let tree = self.tree;
        let mut line = Vec::new();
        let mut pos = *root_pos;
        let mut index = first;
        let mut list = MoveList::new();
        loop {
            generate_moves(&pos, rules, &mut list);
            let Some(mv) = tree.node(index).mv().resolve(&list) else {
                break;
            };
            line.push(mv);
            pos.play_unchecked(mv);
            match self.best_child(index, &[]) {
                Some(c) if tree.node(c).visits() > 0 && line.len() < 128 => index = c,
                _ => break,
            }
        }
        line
    }

    /// The score of a root child, from the root mover's view.
    pub fn score(&self, node: &Node) -> Score {
        let solver = self.solver;
        match node.proof() {
            // A tabled result: plies from the root to the conversion, counted down from far
            // above any evaluation (see `tables::TB_WIN_CP`).
            Some(Proof::Win(p) | Proof::Loss(p)) if solver && tables::tabled_plies(p).is_some() => {
                let cp = TB_WIN_CP - i32::from(p - TABLED) - 1;
                Score::Cp(if matches!(node.proof(), Some(Proof::Win(_))) {
                    cp
                } else {
                    -cp
                })
            }
            // A win `p` plies after the child: the root mover's moves are `p / 2 + 1`.
            Some(Proof::Win(p)) if solver => Score::Mate(p as i32 / 2 + 1),
            // A loss `p` plies after the child: the opponent makes `(p + 1) / 2` moves. Under
            // `losing` the move itself may lose (`p` = 0): that is reported as `mate -1`, since
            // `mate 0` would name no side.
            Some(Proof::Loss(p)) if solver => Score::Mate(-((p as i32 + 1) / 2).max(1)),
            _ => Score::Cp(cp(self.value(node))),
        }
    }

    /// Win, draw, loss per mille for a root child, a model of the value [`Reader::score`] reports:
    /// exact when proven (a proven draw is all draw); otherwise the expected result `q` that the
    /// centi-men stand for (the inverse of [`cp`]) split as `W + D/2 = q`, with the draw share `D`
    /// the part `draw_rate` (see [`draw_rate`]) of the most `q` allows (`1 - |2q - 1|`). So the
    /// three sum to 1000 and `W - L` has the sign of the score.
    pub fn wdl(&self, node: &Node, draw_rate: f64) -> [u32; 3] {
        let solver = self.solver;
        match (node.proof(), self.score(node)) {
            (Some(Proof::Draw), _) if solver => [0, 1000, 0],
            (Some(Proof::Win(_)), _) if solver => [1000, 0, 0],
            (Some(Proof::Loss(_)), _) if solver => [0, 0, 1000],
            (_, Score::Mate(m)) if m > 0 => [1000, 0, 0],
            (_, Score::Mate(_)) => [0, 0, 1000],
            (_, Score::Cp(c)) => wdl_of_cp(c, draw_rate),
        }
    }
}

/// [`Reader::value`], with or without the proofs.
fn value_of(node: &Node, solver: bool) -> f64 {
    match node.proof() {
        Some(Proof::Draw) if solver => 0.5,
        _ => node.mean().unwrap_or(0.5),
    }
}

/// What [`Reader::compare`] looks at, read once. Other search threads keep changing the nodes while
/// thread 0 ranks them: a sort that read the live nodes at every comparison could see an
/// inconsistent order (the standard sort then panics), so the keys are taken first.
#[derive(Clone, Copy, Debug)]
struct RankKey {
    class: (u8, i32),
    visits: u32,
    mean: f64,
    value: f64,
}

impl RankKey {
    fn of(n: &Node, solver: bool) -> RankKey {
        let class = match n.proof() {
            Some(Proof::Win(p)) if solver => (2, -(p as i32)),
            Some(Proof::Loss(p)) if solver => (0, p as i32),
            _ => (1, 0),
        };
        RankKey {
            class,
            visits: n.visits(),
            mean: n.mean().unwrap_or(0.0),
            value: value_of(n, solver),
        }
    }

    fn cmp_best_first(&self, other: &RankKey, rank: Rank) -> Ordering {
        let class = other.class.cmp(&self.class);
        match rank {
            Rank::Visits => class
                .then(other.visits.cmp(&self.visits))
                .then(other.mean.total_cmp(&self.mean)),
            Rank::Value => class
                .then(other.value.total_cmp(&self.value))
                .then(other.visits.cmp(&self.visits)),
        }
    }
}

/// Which children of `index` may be played under `searchmoves`, by position in the block
/// (empty: all of them).
pub fn allowed(tree: &Tree, index: u32, searchmoves: &[Move]) -> Vec<bool> {
    if searchmoves.is_empty() {
        return Vec::new();
    }
    tree.node(index)
        .children()
        .map(|c| {
            let pm = tree.node(c).mv();
            searchmoves.iter().any(|&m| PackedMove::new(m) == pm)
        })
        .collect()
}

/// The full move of child `index`, played from `pos`.
pub fn resolve(tree: &Tree, index: u32, pos: &Position, rules: &Rules) -> Option<Move> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    tree.node(index).mv().resolve(&list)
}

/// Expected score (0..=1) to centi-men: a logistic scale where 75% is about two men.
pub fn cp(q: f64) -> i32 {
    let q = q.clamp(0.0005, 0.9995);
    (400.0 * (q / (1.0 - q)).log10()).round() as i32
}

/// The split of [`Reader::wdl`] for a score of `centi` centi-men.
pub fn wdl_of_cp(centi: i32, draw_rate: f64) -> [u32; 3] {
    let q = 1.0 / (1.0 + 10f64.powf(-f64::from(centi) / 400.0));
    // W - L, per mille: nonzero for any nonzero score (1 cp is about 3 per mille).
    let lead = ((2.0 * q - 1.0) * 1000.0).round() as i32;
    let room = 1000 - lead.abs();
    let draw = (f64::from(room) * draw_rate.clamp(0.0, 1.0)).round() as i32;
    // W = (1000 - D + lead) / 2 must be whole: D takes the parity of `room`.
    let draw = (draw - (room - draw).rem_euclid(2)).clamp(0, room);
    let win = (1000 - draw + lead) / 2;
    let loss = 1000 - draw - win;
    [win, draw, loss].map(|x| x.max(0) as u32)
}

/// Pieces from which on the draw model counts a game as an opening (fewest draws).
const FULL_BOARD: u32 = 24;
/// Draw rate of [`draw_rate`] with a full board, and what it gains as the board empties.
const OPENING_DRAWS: f64 = 0.3;
const ENDING_DRAWS: f64 = 0.6;
/// The static evaluation of a position as the `eval` command reports it: the terms, the value
/// after pending captures, and the `score cp` a search would show for that value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalReport {
    /// The evaluation term by term, from the side to move's view.
    pub terms: eval::Terms,
    /// The evaluation after the pending captures are played out.
    pub quiescent: i32,
    /// [`EvalReport::quiescent`] on the scale of a search's `score cp`.
    pub cp: i32,
}

/// Evaluates `pos` for [`EvalReport`].
pub fn eval_report(pos: &Position, rules: &Rules) -> EvalReport {
    let mut lists: Vec<MoveList> = (0..eval::CAPTURE_LOOKAHEAD)
        .map(|_| MoveList::new())
        .collect();
    let quiescent = eval::quiescent(pos, rules, &mut lists);
    EvalReport {
        terms: eval::terms(pos, rules),
        quiescent,
        cp: cp(value::of_score(quiescent) as f64 / value::SCALE as f64),
    }
}

/// Draw rate of material that cannot win by force (see [`eval::dead_draw`]).
const DEAD_DRAWS: f64 = 0.98;

/// The evaluation-based draw model of [`Reader::wdl`]: how much of the draw share the value leaves
/// room for is drawn, for the position `pos` with `clock` half-moves since the last capture
/// or crowning. Draws grow as the board empties (a third of the room in the opening, most of
/// it in a bare ending), material that cannot win by force ([`eval::dead_draw`]) is almost
/// all draw, and the draw clock pulls the rest toward a draw as it runs out.
pub fn draw_rate(pos: &Position, rules: &Rules, clock: u32) -> f64 {
    let pieces = pos.occupied().count().min(FULL_BOARD);
    let mut rate =
        OPENING_DRAWS + ENDING_DRAWS * f64::from(FULL_BOARD - pieces) / f64::from(FULL_BOARD);
    if eval::dead_draw(pos, rules) {
        rate = rate.max(DEAD_DRAWS);
    }
    if rules.draw_half_moves > 0 {
        let used = (f64::from(clock) / f64::from(rules.draw_half_moves)).min(1.0);
        rate += (1.0 - rate) * used * used;
    }
    rate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::value::SCALE;

    #[test]
    fn cp_scale() {
        assert_eq!(cp(0.5), 0);
        assert_eq!(cp(0.75), 191);
        assert_eq!(cp(0.25), -191);
        assert_eq!(cp(1.0), 1320);
    }

    #[test]
    fn wdl_sums_to_1000_and_follows_the_score() {
        for centi in -1400..=1400 {
            for rate in [0.0, 0.3, 0.55, 0.95, 1.0] {
                let [w, d, l] = wdl_of_cp(centi, rate);
                assert_eq!(w + d + l, 1000, "{centi} {rate}");
                assert_eq!(
                    (w as i32 - l as i32).signum(),
                    centi.signum(),
                    "{centi} {rate}"
                );
            }
        }
        assert_eq!(wdl_of_cp(0, 0.5), [250, 500, 250]);
        assert_eq!(wdl_of_cp(0, 1.0), [0, 1000, 0]);
        assert_eq!(wdl_of_cp(191, 0.0), [750, 0, 250]);
        let tree = Tree::with_budget(1 << 16);
        let reader = Reader::new(&tree, true);
        let n = Node::default();
        n.add(SCALE);
        assert_eq!(reader.score(&n), Score::Cp(1320));
        n.set_proof(Proof::Loss(3));
        assert_eq!(reader.wdl(&n, 0.5), [0, 0, 1000]);
        assert_eq!(reader.score(&n), Score::Mate(-2));
        let d = Node::default();
        d.add(SCALE);
        d.set_proof(Proof::Draw);
        assert_eq!(
            (reader.score(&d), reader.wdl(&d, 0.1)),
            (Score::Cp(0), [0, 1000, 0])
        );
    }
}
