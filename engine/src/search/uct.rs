//! One UCT iteration: selection by UCB1, expansion, playout, backpropagation (with the solver).

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{
    generate_moves, has_moves, next_clock, DrawCount, DrawRules, MoveList, Position, Rules,
};
use crate::eval::{self, CAPTURE_LOOKAHEAD};
use crate::search::node::PackedMove;
use crate::search::params::Params;
use crate::search::playout::{Playout, PlayoutEnd};
use crate::search::select::select;
use crate::search::solver::Proof;
use crate::search::tables::{self, Endgame};
use crate::search::tree::Tree;
use crate::search::value::{self, DRAW, LOSS, SCALE, WIN};

/// What an iteration searches: the tree, how, under which rules, from which root, and with
/// which tables. A search makes one and lends it to every iteration.
#[derive(Clone, Copy, Debug)]
pub struct SearchView<'a> {
    /// The tree, shared by the search's threads.
    pub tree: &'a Tree,
    /// The knobs of the iteration.
    pub params: &'a Params,
    /// The rules.
    pub rules: &'a Rules,
    /// The root's position.
    pub pos: &'a Position,
    /// The root's draw clock.
    pub clock: u32,
    /// The root's counters of the 8x8 family's draw rules.
    pub draws: DrawCount,
    /// The positions before the root within which a repetition can still come (oldest
    /// first; empty outside the 8x8 family).
    pub history: &'a [Position],
    /// Which root children may be searched (by index in the block); empty allows all.
    pub allowed: &'a [bool],
    /// The endgame tables, if any.
    pub tables: Option<&'a Endgame>,
}

/// What one iteration did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth of the tree node the playout started from (root = 0).
    pub depth: u32,
    /// The result for the side to move at the root: win, draw or loss (`None` when cut).
    pub outcome: Option<Outcome>,
    /// The root child the iteration went through (index within the root's children).
    pub root_child: Option<u32>,
    /// The arena had no room to expand a leaf.
    pub full: bool,
}

/// A decided result, from the root mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The root's side won.
    Win,
    /// Drawn.
    Draw,
    /// The root's side lost.
    Loss,
}

/// Plies from the root (the root included) whose statistics threads sharing the tree update
/// with locked read-modify-writes. Every iteration passes the top of the tree, where threads
/// meet all the time; deeper, they seldom touch the same node at the same instant, and plain
/// stores (a rarely lost update, as in Fuego's lock-free search) save a locked instruction per
/// node and iteration.
const LOCKED_PLIES: usize = 3;

/// One search thread's working state.
#[derive(Debug)]
pub struct Worker {
    /// Its random number generator.
    pub rng: Xoshiro256PlusPlus,
    playout: Playout,
    list: MoveList,
    /// Move lists for [`eval::quiescent`], one per capture ply.
    quiet: Vec<MoveList>,
    path: Vec<u32>,
    /// Other threads share the tree: count visits on the way down (virtual loss) and add
    /// with atomic read-modify-writes.
    shared: bool,
    /// Table probes made (in the tree and at playout cuts) since [`Worker::take_tbhits`].
    tbhits: u64,
    /// The history and root (the history's address and length, the root) whose positions
    /// begin the playout's line: each iteration cuts the line back to them instead of
    /// copying the history again.
    line_base: Option<(usize, usize, Position)>,
}

impl Worker {
    /// A worker with its generator.
    pub fn new(rng: Xoshiro256PlusPlus) -> Worker {
        Worker {
            rng,
            playout: Playout::new(),
            list: MoveList::new(),
            quiet: (0..CAPTURE_LOOKAHEAD).map(|_| MoveList::new()).collect(),
            path: Vec::with_capacity(256),
            shared: false,
            tbhits: 0,
            line_base: None,
        }
    }

    /// A worker for a tree that other threads search at the same time.
    pub fn shared(rng: Xoshiro256PlusPlus) -> Worker {
        Worker {
            shared: true,
            ..Worker::new(rng)
        }
    }

    /// Expands `index` (at `pos`) with its legal moves, merging moves that lead to the same
    /// position. Returns false when the arena is full or the moves do not fit a node.
    pub fn expand(&mut self, tree: &Tree, index: u32, pos: &Position, rules: &Rules) -> bool {
        generate_moves(pos, rules, &mut self.list);
        let evaluate = Some((pos, rules, &mut self.quiet[..]));
        expand_with(tree, index, &self.list, evaluate) == Expansion::Done
    }

    /// The table probes made since the last call.
    pub fn take_tbhits(&mut self) -> u64 {
        std::mem::take(&mut self.tbhits)
    }

    /// Runs one iteration of `view`'s search from its root. With tables, a covered leaf below
    /// the root is proven by a probe at its own clock, and a cut playout that reaches a
    /// covered position ends there with the table's result.
    pub fn iterate(&mut self, view: &SearchView) -> Iteration {
        let SearchView {
            tree,
            params,
            rules,
            pos: root_pos,
            clock: root_clock,
            draws: root_draws,
            history,
            allowed,
            tables,
        } = *view;
        let mut pos = *root_pos;
        let mut clock = root_clock;
        // The 8x8 family's draw rules need counters and the line of positions played (the
        // playout's, which it continues); the other rule sets skip both.
        let family = rules.draws != DrawRules::HalfMoves;
        let mut draws = root_draws;
        if family {
            let base = (history.as_ptr() as usize, history.len(), pos);
            if self.line_base == Some(base) {
                self.playout.line.truncate(history.len() + 1);
            } else {
                self.playout.line.clear();
                self.playout.line.extend_from_slice(history);
                self.playout.line.push(pos);
                self.line_base = Some(base);
            }
        }
        let mut index = 0u32;
        self.path.clear();
        self.path.push(0);
        if self.shared {
            tree.root().add_visit();
        }
        let mut full = false;
        let mut expanded = false;
        let learned = params.learned_leaf;
        // The result for the player who moved into the last node of the path.
        let leaf = loop {
            let node = tree.node(index);
            // Terminal or solved: the exact result, no playout needed. The root is always
            // searched: its proof may stand on moves `searchmoves` excludes.
            if let Some(proof) = node.proof().filter(|_| index != 0) {
                break Leaf::Known(proof.value());
            }
            if node.is_expanded() {
                let filter = if index == 0 { allowed } else { &[] };
                // The parent's visits include this iteration's own (counted on the way down
                // in a shared tree): without it, a search gets the same UCB terms whether
                // other threads share the tree or not.
                index = select(tree, index, params, filter, self.shared as u32);
                let mv = tree.node(index).mv().playable();
                clock = next_clock(mv, clock);
                let before = pos;
                pos.play_unchecked(mv);
                if family {
                    draws = draws.after(&before, mv, &pos, rules);
                    self.playout.line.push(pos);
                }
                self.path.push(index);
                if self.shared {
                    if self.path.len() <= LOCKED_PLIES {
                        tree.node(index).add_visit();
                    } else {
                        tree.node(index).add_visit_unlocked();
                    }
                }
                continue;
            }
            // A leaf: is the game over here? (No legal move loses, or under `losing` wins,
            // before the draw rule.) The proof is for the player who moved into the node.
            if !has_moves(&pos, rules) {
                let (proof, value) = if rules.losing {
                    (Proof::Loss(0), LOSS)
                } else {
                    (Proof::Win(0), WIN)
                };
                node.set_proof(proof);
                break Leaf::Proven(value);
            }
            if rules.draw_half_moves > 0 && clock >= rules.draw_half_moves
                || family && draws.drawn(&self.playout.line, rules)
            {
                node.set_proof(Proof::Draw);
                break Leaf::Proven(DRAW);
            }
            // A covered position is known exactly: proven, never expanded. The root still
            // chooses its move (see `Endgame::root`).
            if let Some(value) = tables
                .filter(|_| index != 0)
                .and_then(|t| t.probe(&pos, clock, draws))
            {
                self.tbhits += 1;
                // Below the root a zero clock means the move into the node zeroed it.
                let proof = tables::proof_of(value, clock == 0);
                node.set_proof(proof);
                break Leaf::Proven(proof.value());
            }
            // Visits before this iteration (a shared tree counted this one on the way down).
            // A leaf the network values is expanded at its first visit: the iteration goes on
            // into the child the hand-set evaluation prefers, and the network values that one
            // (a ply deeper for the price of the expansion, which the second visit would have
            // paid anyway). Other leaves, and those in dead material (below), are expanded
            // from their second visit on.
            let before = node.visits().saturating_sub(self.shared as u32);
            if !expanded && (before > 0 || learned && !eval::dead_draw(&pos, rules)) {
                generate_moves(&pos, rules, &mut self.list);
                let evaluate = params
                    .evaluates()
                    .then_some((&pos, rules, &mut self.quiet[..]));
                match expand_with(tree, index, &self.list, evaluate) {
                    // Descend once more into the new children and stop at the new leaf.
                    Expansion::Done => {
                        expanded = true;
                        continue;
                    }
                    // Another thread is expanding it: a playout from here is as good.
                    Expansion::Busy => {}
                    Expansion::Full => full = true,
                }
            }
            self.playout.draws = draws;
            // In material that cannot win by force a random playout measures only random
            // blunders (a lone king walking into a capture): the leaf is scored by the
            // evaluation once pending captures are played out, and real tactics are left to
            // the tree and the solver.
            let dead = eval::dead_draw(&pos, rules);
            // Outside dead material, where the rules have a learned network, it knows better
            // than a random playout what the leaf is worth: its value after the pending
            // captures is the result.
            if let Some(score) = (learned && !dead)
                .then(|| eval::learned_leaf(&pos, rules, &mut self.quiet))
                .flatten()
            {
                break Leaf::Scored(SCALE - value::of_score(score));
            }
            let (end, _) = if params.eval_cut > 0 && dead {
                self.playout
                    .run_cut(pos, clock, rules, &mut self.rng, 0, tables)
            } else if params.eval_cut > 0 {
                self.playout
                    .run_cut(pos, clock, rules, &mut self.rng, params.eval_cut, tables)
            } else {
                self.playout
                    .run(pos, clock, rules, &mut self.rng, params.playout_plies)
            };
            // The playout reports from the view of the side to move at the leaf, which is the
            // opponent of the player who moved into it.
            break match end {
                PlayoutEnd::Win => Leaf::Known(LOSS),
                PlayoutEnd::Loss => Leaf::Known(WIN),
                PlayoutEnd::Draw => Leaf::Known(DRAW),
                PlayoutEnd::Unfinished => Leaf::Cut,
                PlayoutEnd::Scored(v) => Leaf::Scored(SCALE - v),
            };
        };
        self.tbhits += self.playout.take_tbhits();
        let depth = self.path.len() as u32 - 1;
        let outcome = match leaf {
            Leaf::Known(v) | Leaf::Proven(v) => {
                let root_side = if depth % 2 == 1 { v } else { SCALE - v };
                Some(match root_side {
                    WIN => Outcome::Win,
                    LOSS => Outcome::Loss,
                    _ => Outcome::Draw,
                })
            }
            Leaf::Cut | Leaf::Scored(_) => None,
        };
        self.backpropagate(tree, params, leaf);
        // After the results: proofs made on the way up are minimax values too.
        if params.evaluates() {
            self.back_up_minimax(tree);
        }
        let root_child = self.path.get(1).map(|&c| c - tree.root().first_child());
        Iteration {
            depth,
            outcome,
            root_child,
            full,
        }
    }

    /// Implicit minimax backups: every expanded node of the path, from the bottom up, takes
    /// the best of its children's minimax values (for its player to move), until a node's
    /// value does not change (then every ancestor already agrees with it). Proven nodes keep
    /// their exact value.
    fn back_up_minimax(&self, tree: &Tree) {
        for &index in self.path.iter().rev() {
            let node = tree.node(index);
            if !node.is_expanded() || node.proof().is_some() {
                continue;
            }
            let best = node
                .children()
                .map(|c| tree.node(c).minimax())
                .max()
                .unwrap_or(DRAW as u16);
            let value = SCALE as u16 - best;
            if node.minimax() == value {
                break;
            }
            node.set_minimax(value);
        }
    }

    /// Adds the result to every node of the path, flipping it each ply (a cut playout is worth
    /// the same to both sides); with the solver, a new proof travels up as long as it proves
    /// the parent too.
    fn backpropagate(&self, tree: &Tree, params: &Params, leaf: Leaf) {
        let (mut value, flips, mut proving) = match leaf {
            Leaf::Known(v) | Leaf::Scored(v) => (v, true, false),
            Leaf::Proven(v) => (v, true, params.solver),
            Leaf::Cut => (params.unfinished, false, false),
        };
        for (k, &index) in self.path.iter().enumerate().rev() {
            if self.shared {
                if k < LOCKED_PLIES {
                    tree.node(index).add_value(value);
                } else {
                    tree.node(index).add_value_unlocked(value);
                }
            } else {
                tree.node(index).add(value);
            }
            if proving && k > 0 {
                let parent = tree.node(self.path[k - 1]);
                proving = false;
                if parent.proof().is_none() {
                    if let Some(p) =
                        Proof::of_parent(parent.children().map(|c| tree.node(c).proof()))
                    {
                        // Whoever writes the proof first carries it on up.
                        proving = parent.try_set_proof(p);
                    }
                }
            }
            if flips {
                value = SCALE - value;
            }
        }
    }
}

/// How an iteration's descent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    /// A result for the player who moved into the leaf (`SCALE` units).
    Known(u64),
    /// The leaf was just proven terminal, with this result.
    Proven(u64),
    /// The playout was cut before the end.
    Cut,
    /// The playout was cut and scored by the evaluation, for the player who moved into the
    /// leaf (`SCALE` units).
    Scored(u64),
}

/// What an attempt to expand a node came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expansion {
    /// The children are linked.
    Done,
    /// Another thread is expanding (or has expanded) the node.
    Busy,
    /// The children do not fit the arena (or a node).
    Full,
}

/// Creates the children of `index` from `moves`. Only the thread that claims the node writes
/// its children; the others are told [`Expansion::Busy`]. With `evaluate` (the node's
/// position and the rules), each child's minimax value starts as its static evaluation.
fn expand_with(
    tree: &Tree,
    index: u32,
    moves: &MoveList,
    mut evaluate: Option<(&Position, &Rules, &mut [MoveList])>,
) -> Expansion {
    // Merge moves with the same effect (a king's loop in either order): one child each.
    let mut count = 0usize;
    for (i, &m) in moves.iter().enumerate() {
        let pm = PackedMove::new(m);
        if !m.is_capture() || !moves[..i].iter().any(|&o| PackedMove::new(o) == pm) {
            count += 1;
        }
    }
    if count > u16::MAX as usize {
        return Expansion::Full;
    }
    let node = tree.node(index);
    if !node.try_claim_expansion() {
        return Expansion::Busy;
    }
    let Some(first) = tree.alloc(count) else {
        node.release_expansion();
        return Expansion::Full;
    };
    let mut at = first;
    for (i, &m) in moves.iter().enumerate() {
        let pm = PackedMove::new(m);
        if !m.is_capture() || !moves[..i].iter().any(|&o| PackedMove::new(o) == pm) {
            let child = tree.node(at);
            child.init(pm);
            if let Some((pos, rules, lists)) = evaluate.as_mut() {
                let mut after = **pos;
                after.play_unchecked(m);
                // The evaluation is for the side to move there; the child's values are for
                // the player who moved into it.
                let score = eval::quiescent(&after, rules, lists);
                child.set_minimax((SCALE - value::of_score(score)) as u16);
            }
            at += 1;
        }
    }
    node.set_children(first, count as u16);
    Expansion::Done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;
    use crate::search::SearchConfig;
    use rand::SeedableRng;

    /// The search of `tree` from `pos` at clock 0, every root move allowed, no tables.
    fn view<'a>(
        tree: &'a Tree,
        params: &'a Params,
        rules: &'a Rules,
        pos: &'a Position,
    ) -> SearchView<'a> {
        SearchView {
            tree,
            params,
            rules,
            pos,
            clock: 0,
            draws: DrawCount::default(),
            history: &[],
            allowed: &[],
            tables: None,
        }
    }

    /// Every expanded, unproven node reachable from the root holds the best of its children's
    /// minimax values (for its player to move); returns how many nodes were checked.
    fn check_minimax(tree: &Tree, index: u32) -> usize {
        let node = tree.node(index);
        if !node.is_expanded() {
            return 0;
        }
        let mut checked = 0;
        for c in node.children() {
            checked += check_minimax(tree, c);
        }
        if node.proof().is_none() {
            let best = node.children().map(|c| tree.node(c).minimax()).max();
            assert_eq!(Some(SCALE as u16 - node.minimax()), best, "node {index}");
            checked += 1;
        }
        checked
    }

    /// Alone on a tree, a worker that counts virtual losses must search exactly as one that
    /// does not: the bookkeeping for other threads may not change the algorithm (it once
    /// did, through the parent's own unfinished visit in `ln N`, and two threads searched a
    /// different, deeper tree than one).
    #[test]
    fn a_shared_worker_alone_searches_as_a_plain_one() {
        let rules = Rules::default();
        let params = Params::uct(&SearchConfig::default(), &rules);
        let pos =
            fen::parse("B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12").unwrap();
        let search = |mut worker: Worker| {
            let tree = Tree::with_budget(1 << 22);
            for _ in 0..5000 {
                worker.iterate(&view(&tree, &params, &rules, &pos));
            }
            let mut stats = Vec::new();
            let mut stack = vec![0u32];
            while let Some(i) = stack.pop() {
                let node = tree.node(i);
                stats.push((i, node.visits(), node.value_sum(), node.minimax()));
                stack.extend(node.children());
            }
            stats
        };
        let plain = search(Worker::new(Xoshiro256PlusPlus::seed_from_u64(9)));
        let shared = search(Worker::shared(Xoshiro256PlusPlus::seed_from_u64(9)));
        assert!(plain.len() > 5000, "{}", plain.len());
        assert_eq!(plain, shared);
    }

    #[test]
    fn minimax_values_are_backed_up_through_the_tree() {
        let config = SearchConfig {
            minimax_weight: 0.3,
            ..SearchConfig::default()
        };
        let rules = Rules::default();
        let params = Params::uct(&config, &rules);
        // A capture is pending for White: 22x15 wins a man, so the root's best child is
        // worth more than a level position to White.
        let pos = fen::parse("W:W22,25,29,30,31,32:B1,2,3,18,10").unwrap();
        let tree = Tree::with_budget(1 << 20);
        let mut worker = Worker::new(Xoshiro256PlusPlus::seed_from_u64(5));
        assert!(worker.expand(&tree, 0, &pos, &rules));
        for _ in 0..3000 {
            worker.iterate(&view(&tree, &params, &rules, &pos));
        }
        assert!(check_minimax(&tree, 0) > 100);
        let best = tree
            .root()
            .children()
            .map(|c| tree.node(c).minimax())
            .max()
            .unwrap();
        assert!(best as u64 > DRAW, "{best}");
    }
}
