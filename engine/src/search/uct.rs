//! One UCT iteration: selection by UCB1, expansion, playout, backpropagation (with the solver).

use std::sync::LazyLock;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{generate_moves, has_moves, next_clock, MoveList, Position, Rules};
use crate::eval::{self, CAPTURE_LOOKAHEAD};
use crate::search::node::PackedMove;
use crate::search::playout::{Playout, PlayoutEnd};
use crate::search::solver::Proof;
use crate::search::tables::{self, Tables};
use crate::search::tree::Tree;
use crate::search::value::{self, DRAW, LOSS, SCALE, WIN};
use crate::search::{plain, SearchConfig};

/// How unvisited children are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPlay {
    /// Before any visited sibling, in generation order (classic UCB1).
    Infinite,
    /// As if visited once with the child's static evaluation (its minimax value at
    /// expansion).
    Evaluation,
}

/// The knobs of the iteration: [`Params::of`] picks the engine's or the baseline's
/// ([`super::plain`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// UCB1 exploration constant `c` in `q + c * sqrt(ln N / n)`.
    pub exploration: f64,
    /// First-play value of unvisited children.
    pub first_play: FirstPlay,
    /// Prove wins, losses and draws and propagate them (MCTS-Solver).
    pub solver: bool,
    /// Playout length limit in plies.
    pub playout_plies: u32,
    /// What an unfinished (cut) playout is worth, in `SCALE` units, to every node on the path.
    pub unfinished: u64,
    /// Cut playouts after this many plies and score them by the static evaluation
    /// (0: play to the end).
    pub eval_cut: u32,
    /// Weight of the implicit minimax value in selection (0: the mean alone, and no minimax
    /// backups are made).
    pub minimax: f64,
}

impl Params {
    /// The iteration `config` asks for: the plain-UCT baseline's, or the engine's.
    pub fn of(config: &SearchConfig) -> Params {
        if config.plain_uct {
            plain::params()
        } else {
            Params::uct(config)
        }
    }

    /// The engine's search with the strength settings of `config`.
    pub fn uct(config: &SearchConfig) -> Params {
        Params {
            exploration: config.exploration,
            first_play: FirstPlay::Evaluation,
            solver: true,
            // Random games end long before this under the draw rule; with the rule switched
            // off, king endings could shuffle for ever: a cut playout counts as a draw.
            playout_plies: 1_000,
            unfinished: DRAW,
            eval_cut: config.eval_cut,
            minimax: config.minimax_weight,
        }
    }

    /// Children get a static evaluation at expansion and minimax values are backed up.
    #[inline]
    pub fn evaluates(&self) -> bool {
        self.minimax > 0.0 || self.first_play == FirstPlay::Evaluation
    }
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

    /// Runs one iteration from the root (position `root_pos`, clock `root_clock`).
    /// `allowed` filters the root's children (by index in the block); empty allows all.
    /// With `tables`, a covered leaf below the root is proven by a probe at its own clock,
    /// and a cut playout that reaches a covered position ends there with the table's result.
    #[allow(clippy::too_many_arguments)]
    pub fn iterate(
        &mut self,
        tree: &Tree,
        params: &Params,
        rules: &Rules,
        root_pos: &Position,
        root_clock: u32,
        allowed: &[bool],
        tables: Option<&Tables>,
    ) -> Iteration {
        let mut pos = *root_pos;
        let mut clock = root_clock;
        let mut index = 0u32;
        self.path.clear();
        self.path.push(0);
        if self.shared {
            tree.root().add_visit();
        }
        let mut full = false;
        let mut expanded = false;
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
                pos.play_unchecked(mv);
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
            if rules.draw_half_moves > 0 && clock >= rules.draw_half_moves {
                node.set_proof(Proof::Draw);
                break Leaf::Proven(DRAW);
            }
            // A covered position is known exactly: proven, never expanded. The root still
            // chooses its move (see `Tables::root`).
            if let Some(value) = tables
                .filter(|_| index != 0)
                .and_then(|t| t.probe(&pos, clock))
            {
                self.tbhits += 1;
                // Below the root a zero clock means the move into the node zeroed it.
                let proof = tables::proof_of(value, clock == 0);
                node.set_proof(proof);
                break Leaf::Proven(proof.value());
            }
            // Visits before this iteration (a shared tree counted this one on the way down).
            // A leaf is expanded from its second visit on: the first is a playout.
            let before = node.visits().saturating_sub(self.shared as u32);
            if !expanded && before > 0 {
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
            // In material that cannot win by force a random playout measures only random
            // blunders (a lone king walking into a capture): the leaf is scored by the
            // evaluation once pending captures are played out, and real tactics are left to
            // the tree and the solver.
            let (end, _) = if params.eval_cut > 0 && eval::dead_draw(&pos, rules) {
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

/// Visit counts below which [`select`] reads square roots, reciprocals and logarithms from
/// tables. Computed, they cost two divisions, a square root and (once a call) a logarithm per
/// child: the divider was the search's bottleneck (half its time in a middle game). Most
/// nodes on a path are far from the root and have fewer visits than this.
const TABLED: usize = 2048;

/// The tables of [`select`], for visit counts `0..TABLED`.
struct UcbTables {
    /// `1 / sqrt(v)`.
    inv_sqrt: [f64; TABLED],
    /// `1 / (v * SCALE)`: a value sum times this is a mean in 0..=1.
    inv_scaled: [f64; TABLED],
    /// `sqrt(ln(max(v, 1)))`.
    sqrt_ln: [f64; TABLED],
}

impl UcbTables {
    fn new() -> Box<UcbTables> {
        let mut t = Box::new(UcbTables {
            inv_sqrt: [0.0; TABLED],
            inv_scaled: [0.0; TABLED],
            sqrt_ln: [0.0; TABLED],
        });
        for v in 1..TABLED {
            t.inv_sqrt[v] = 1.0 / (v as f64).sqrt();
            t.inv_scaled[v] = 1.0 / (v as f64 * SCALE as f64);
            t.sqrt_ln[v] = (v as f64).ln().sqrt();
        }
        t
    }

    #[inline]
    fn inv_sqrt(&self, v: u32) -> f64 {
        match self.inv_sqrt.get(v as usize) {
            Some(&x) => x,
            None => 1.0 / (v as f64).sqrt(),
        }
    }

    #[inline]
    fn inv_scaled(&self, v: u32) -> f64 {
        match self.inv_scaled.get(v as usize) {
            Some(&x) => x,
            None => 1.0 / (v as f64 * SCALE as f64),
        }
    }

    /// `ln(v)` for `v >= TABLED` without the library's logarithm: the parents near the root
    /// are past the tables and need one on every iteration, where a profile found the
    /// library call a visible share of a one-thread search (docs/results/). With
    /// `v = m 2^s + r`, `m` in `TABLED/2..TABLED`:
    /// `ln v = ln m + s ln 2 + ln(1 + x)`, `x = r / (m 2^s) < 2 / TABLED`, and two terms of the
    /// series for `ln(1 + x)` leave an error below `x^3 / 3`, about `1e-10`.
    #[inline]
    fn ln_beyond(&self, v: u32) -> f64 {
        let s = (u32::BITS - v.leading_zeros()).saturating_sub(TABLED.trailing_zeros());
        let m = (v >> s) as usize;
        // 2^-s, exactly, from its exponent bits; `inv_scaled[m] * SCALE` is `1 / m`.
        let scale = f64::from_bits((1023 - s as u64) << 52) * SCALE as f64;
        let x = (v - ((m as u32) << s)) as f64 * self.inv_scaled[m] * scale;
        let ln_m = self.sqrt_ln[m] * self.sqrt_ln[m];
        ln_m + s as f64 * std::f64::consts::LN_2 + x - 0.5 * x * x
    }

    #[inline]
    fn sqrt_ln(&self, v: u32) -> f64 {
        match self.sqrt_ln.get(v as usize) {
            Some(&x) => x,
            None => self.ln_beyond(v).sqrt(),
        }
    }
}

static UCB_TABLES: LazyLock<Box<UcbTables>> = LazyLock::new(UcbTables::new);

/// The UCB1 choice among the children of `index`. `allowed`, when not empty, masks children.
/// `in_flight` visits of the parent are the caller's own, not yet finished: they are left out
/// of `N` (other threads' unfinished visits stay in: that is the virtual loss).
#[inline]
pub fn select(tree: &Tree, index: u32, params: &Params, allowed: &[bool], in_flight: u32) -> u32 {
    let tables: &UcbTables = &UCB_TABLES;
    let parent = tree.node(index);
    let c_log = params.exploration * tables.sqrt_ln(parent.visits().saturating_sub(in_flight));
    let eval_first = params.first_play == FirstPlay::Evaluation;
    // For first play by evaluation, each child adds its own evaluation below.
    let first_play = if eval_first { c_log } else { f64::INFINITY };
    let mut best = u32::MAX;
    let mut best_score = f64::NEG_INFINITY;
    let mut fallback = parent.first_child();
    for (k, c) in parent.children().enumerate() {
        if !allowed.is_empty() && !allowed[k] {
            continue;
        }
        fallback = c;
        let child = tree.node(c);
        let visits = child.visits();
        if params.solver {
            match child.proof() {
                Some(Proof::Win(_)) => return c,
                Some(Proof::Loss(_)) => continue,
                _ => {}
            }
        }
        let score = if visits == 0 {
            if eval_first {
                first_play + child.minimax() as f64 / SCALE as f64
            } else {
                first_play
            }
        } else {
            let mean = child.value_sum() as f64 * tables.inv_scaled(visits);
            let q = if params.minimax > 0.0 {
                let minimax = child.minimax() as f64 / SCALE as f64;
                (1.0 - params.minimax) * mean + params.minimax * minimax
            } else {
                mean
            };
            q + c_log * tables.inv_sqrt(visits)
        };
        if score > best_score {
            best_score = score;
            best = c;
        }
    }
    // Every allowed child is a proven loss: any of them will do (the parent is proven too).
    if best == u32::MAX {
        fallback
    } else {
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;
    use rand::SeedableRng;

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
        let params = Params::uct(&SearchConfig::default());
        let rules = Rules::default();
        let pos =
            fen::parse("B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12").unwrap();
        let search = |mut worker: Worker| {
            let tree = Tree::with_budget(1 << 22);
            for _ in 0..5000 {
                worker.iterate(&tree, &params, &rules, &pos, 0, &[], None);
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

    /// The logarithm past the tables agrees with the library's to 1e-9 (relative) at every
    /// power of two and its neighbours, and on a spread of counts up to `u32::MAX`.
    #[test]
    fn logarithms_past_the_tables_are_exact_enough() {
        let tables: &UcbTables = &UCB_TABLES;
        let mut checked = 0;
        let powers = (11..32).flat_map(|k| [(1u32 << k) - 1, 1 << k, (1 << k) + 1]);
        let spread = (0..100_000u32).map(|i| i.wrapping_mul(42_937).wrapping_add(2048));
        for v in powers.chain(spread).chain([u32::MAX]) {
            if (v as usize) < TABLED {
                continue;
            }
            let exact = (v as f64).ln();
            let ours = tables.ln_beyond(v);
            assert!(
                (ours - exact).abs() <= 1e-9 * exact,
                "{v}: {ours} vs {exact}"
            );
            assert!((tables.sqrt_ln(v) - exact.sqrt()).abs() <= 1e-9, "{v}");
            checked += 1;
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn minimax_values_are_backed_up_through_the_tree() {
        let config = SearchConfig {
            minimax_weight: 0.3,
            ..SearchConfig::default()
        };
        let params = Params::uct(&config);
        let rules = Rules::default();
        // A capture is pending for White: 22x15 wins a man, so the root's best child is
        // worth more than a level position to White.
        let pos = fen::parse("W:W22,25,29,30,31,32:B1,2,3,18,10").unwrap();
        let tree = Tree::with_budget(1 << 20);
        let mut worker = Worker::new(Xoshiro256PlusPlus::seed_from_u64(5));
        assert!(worker.expand(&tree, 0, &pos, &rules));
        for _ in 0..3000 {
            worker.iterate(&tree, &params, &rules, &pos, 0, &[], None);
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
