//! Reading results off the tree: move order, principal variations, scores and WDL.

use std::cmp::Ordering;

use crate::board::{generate_moves, MoveList, Position, Rules};
use crate::search::node::{Node, PackedMove};
use crate::search::solver::Proof;
use crate::search::tree::Tree;
use crate::search::{Score, SearchOutcome};
use crate::types::Move;

/// Orders two children from the chooser's view, best first: proven wins (shortest first),
/// then unproven and drawn moves by visits and then mean value, then proven losses (longest
/// first). Without the solver only visits and value count.
pub fn compare(a: &Node, b: &Node, solver: bool) -> Ordering {
    RankKey::of(a, solver).cmp_best_first(&RankKey::of(b, solver))
}

/// What [`compare`] looks at, read once. Other search threads keep changing the nodes while
/// thread 0 ranks them: a sort that read the live nodes at every comparison could see an
/// inconsistent order (the standard sort then panics), so the keys are taken first.
#[derive(Clone, Copy, Debug)]
struct RankKey {
    class: (u8, i32),
    visits: u32,
    mean: f64,
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
        }
    }

    fn cmp_best_first(&self, other: &RankKey) -> Ordering {
        other
            .class
            .cmp(&self.class)
            .then(other.visits.cmp(&self.visits))
            .then(other.mean.total_cmp(&self.mean))
    }
}

/// The best child of `index` (first of the best in generation order), if expanded.
pub fn best_child(tree: &Tree, index: u32, solver: bool, allowed: &[bool]) -> Option<u32> {
    let mut best: Option<u32> = None;
    for (k, c) in tree.node(index).children().enumerate() {
        if !allowed.is_empty() && !allowed[k] {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => compare(tree.node(c), tree.node(b), solver) == Ordering::Less,
        };
        if better {
            best = Some(c);
        }
    }
    best
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

/// The best allowed move at node `index` (whose position is `pos`) and the expected reply;
/// no move when the node has no children. `nodes` is left at 0 for the caller.
pub fn outcome(
    tree: &Tree,
    index: u32,
    pos: &Position,
    rules: &Rules,
    solver: bool,
    allowed: &[bool],
) -> SearchOutcome {
    let best = best_child(tree, index, solver, allowed);
    let line = best.map(|c| pv(tree, c, pos, rules, solver));
    SearchOutcome {
        best: line.as_ref().and_then(|l| l.first().copied()),
        ponder: line.as_ref().and_then(|l| l.get(1).copied()),
        nodes: 0,
    }
}

/// The allowed root children, best first.
pub fn ranked_root(tree: &Tree, solver: bool, allowed: &[bool]) -> Vec<u32> {
    let mut keyed: Vec<(u32, RankKey)> = tree
        .root()
        .children()
        .enumerate()
        .filter(|&(k, _)| allowed.is_empty() || allowed[k])
        .map(|(_, c)| (c, RankKey::of(tree.node(c), solver)))
        .collect();
    // A stable sort keeps generation order among equals, as `best_child` does.
    keyed.sort_by(|a, b| a.1.cmp_best_first(&b.1));
    keyed.into_iter().map(|(c, _)| c).collect()
}

/// The full move of child `index`, played from `pos`.
pub fn resolve(tree: &Tree, index: u32, pos: &Position, rules: &Rules) -> Option<Move> {
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    tree.node(index).mv().resolve(&list)
}

/// The principal variation starting with child `first` of the root at `root_pos`: that move,
/// then the best visited child at every ply.
pub fn pv(tree: &Tree, first: u32, root_pos: &Position, rules: &Rules, solver: bool) -> Vec<Move> {
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
        match best_child(tree, index, solver, &[]) {
            Some(c) if tree.node(c).visits() > 0 && line.len() < 128 => index = c,
            _ => break,
        }
    }
    line
}

/// The score of a root child, from the root mover's view.
pub fn score(node: &Node, solver: bool) -> Score {
    match node.proof() {
        // A win `p` plies after the child: the root mover's moves are `p / 2 + 1`.
        Some(Proof::Win(p)) if solver => Score::Mate(p as i32 / 2 + 1),
        // A loss `p` plies after the child: the opponent makes `(p + 1) / 2` moves.
        Some(Proof::Loss(p)) if solver => Score::Mate(-((p as i32 + 1) / 2)),
        Some(Proof::Draw) if solver => Score::Cp(0),
        _ => Score::Cp(cp(node.mean().unwrap_or(0.5))),
    }
}

/// Expected score (0..=1) to centi-men: a logistic scale where 75% is about two men.
pub fn cp(q: f64) -> i32 {
    let q = q.clamp(0.0005, 0.9995);
    (400.0 * (q / (1.0 - q)).log10()).round() as i32
}

/// Win, draw, loss per mille for a root child: exact when proven, else from the playout
/// results counted in this search (`counts`), else from its mean alone.
pub fn wdl(node: &Node, counts: [u64; 3], solver: bool) -> [u32; 3] {
    match node.proof() {
        Some(Proof::Win(_)) if solver => return [1000, 0, 0],
        Some(Proof::Loss(_)) if solver => return [0, 0, 1000],
        Some(Proof::Draw) if solver => return [0, 1000, 0],
        _ => {}
    }
    let total: u64 = counts.iter().sum();
    if total == 0 {
        let w = (node.mean().unwrap_or(0.5) * 1000.0).round() as u32;
        return [w, 0, 1000 - w.min(1000)];
    }
    let per_mille = |x: u64| ((x * 1000 + total / 2) / total) as u32;
    let (w, l) = (per_mille(counts[0]), per_mille(counts[2]));
    [w, 1000u32.saturating_sub(w + l), l]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_scale() {
        assert_eq!(cp(0.5), 0);
        assert_eq!(cp(0.75), 191);
        assert_eq!(cp(0.25), -191);
        assert_eq!(cp(1.0), 1320);
    }

    #[test]
    fn wdl_sums_to_1000() {
        let n = Node::default();
        n.add(10_000);
        assert_eq!(wdl(&n, [1, 1, 1], true), [333, 334, 333]);
        assert_eq!(wdl(&n, [0, 0, 0], true), [1000, 0, 0]);
        n.set_proof(Proof::Loss(3));
        assert_eq!(wdl(&n, [5, 0, 0], true), [0, 0, 1000]);
        assert_eq!(score(&n, true), Score::Mate(-2));
    }
}
