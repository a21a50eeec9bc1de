//! Building a book by drop-out expansion (Lincke, 2001; the way KingsRow's book was built).
//!
//! The book is a graph of positions (transpositions merged by key), each scored by a search
//! of the engine with a fixed iteration budget and a fixed seed, so a build is reproducible.
//! Values are minimaxed from the leaves up (negamax, centi-men from the side to move's view).
//! Each step expands the leaf of lowest *drop-out cost*: the cost of a root is 0, and a
//! child costs its parent's cost plus one per ply plus [`BuildOptions::penalty`] per
//! centi-man that its move falls short of the parent's best move. The main lines grow deep;
//! a move a little worse than the best is still explored a few plies; a bad move is left as a
//! scored leaf. Expanding a leaf searches each of its children not yet in the book.
//!
//! The book file gets, for every expanded position, each move with its minimaxed score.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::board::{Game, GameResult, Position, Rules};
use crate::book::format::Entry;
use crate::book::{child_key, key};
use crate::search::{Control, Limits, Score, SearchConfig, SearchEvent, Searcher};
use crate::types::Move;

/// The score of a proven win in one move; a proven result `n` moves away is `WIN - n`.
pub const WIN: i32 = 10_000;

/// How a book is built.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// The rules.
    pub rules: Rules,
    /// The positions the build starts from (the start position, deck positions); every one
    /// has cost 0.
    pub roots: Vec<Position>,
    /// How many positions to score by search in all (the budget of the build).
    pub positions: usize,
    /// Iterations of each scoring search.
    pub nodes: u64,
    /// Seed of the scoring searches.
    pub seed: u64,
    /// Tree memory of the scoring searches, MiB.
    pub hash_mib: usize,
    /// Drop-out cost, in plies, per centi-man that a move is worse than the best.
    pub penalty: f64,
    /// Moves worse than the position's best by more than this many centi-men are not stored.
    pub keep_within: i32,
}

/// Progress of a build, reported after each expansion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Positions scored by search so far.
    pub searched: usize,
    /// Positions expanded so far.
    pub expanded: usize,
    /// The value of the first root, centi-men from its side to move's view.
    pub root_value: i32,
    /// Drop-out cost of the leaf just expanded.
    pub cost: f64,
}

/// One position of the book graph.
#[derive(Clone, Debug)]
struct BookNode {
    pos: Position,
    /// Negamax value, centi-men from the side to move's view.
    value: i32,
    /// The moves and the nodes they lead to, once expanded.
    children: Option<Vec<(Move, usize)>>,
    /// No move to make (the game is over): never expanded.
    terminal: bool,
}

/// The drop-out expansion in progress.
struct Builder<'a> {
    opts: &'a BuildOptions,
    nodes: Vec<BookNode>,
    index: HashMap<u128, usize>,
    roots: Vec<usize>,
    searcher: Searcher,
    searched: usize,
}

/// A centi-man score of a search: proven results far beyond any material score.
fn centi(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-(WIN / 2), WIN / 2),
        Score::Mate(n) if n > 0 => WIN - n,
        Score::Mate(n) => -WIN - n,
    }
}

impl<'a> Builder<'a> {
    fn new(opts: &'a BuildOptions) -> Builder<'a> {
        let config = SearchConfig {
            threads: 1,
            seed: opts.seed,
            hash_mib: opts.hash_mib,
            ..SearchConfig::default()
        };
        Builder {
            opts,
            nodes: Vec::new(),
            index: HashMap::new(),
            roots: Vec::new(),
            searcher: Searcher::new(&config),
            searched: 0,
        }
    }

    /// The node of `pos`, scored by a search when new.
    fn node(&mut self, pos: Position) -> usize {
        let full =
            crate::board::zobrist::key(crate::board::count::Node::of(&pos), pos.side_to_move());
        if let Some(&i) = self.index.get(&full) {
            return i;
        }
        let game = Game::new(pos, 0, self.opts.rules);
        let (value, terminal) = match game.result() {
            GameResult::Ongoing => (self.search(&game), false),
            GameResult::Draw => (0, true),
            // The side to move cannot move: under the losing rules it wins.
            _ if self.opts.rules.losing => (WIN, true),
            _ => (-WIN, true),
        };
        self.nodes.push(BookNode {
            pos,
            value,
            children: None,
            terminal,
        });
        let i = self.nodes.len() - 1;
        self.index.insert(full, i);
        i
    }

    /// The score of a fresh search of `game` (a new tree each time: reproducible whatever
    /// was searched before).
    fn search(&mut self, game: &Game) -> i32 {
        self.searcher.new_game();
        self.searched += 1;
        let mut last = None;
        self.searcher.search(
            game,
            &Limits::nodes(self.opts.nodes),
            &Control::default(),
            &mut |e| {
                if let SearchEvent::Info(info) = e {
                    if info.multipv == 1 {
                        last = Some(info.score);
                    }
                }
            },
        );
        last.map_or(0, centi)
    }

    /// Expands node `i`: every child made (and scored when new).
    fn expand(&mut self, i: usize) {
        let pos = self.nodes[i].pos;
        let game = Game::new(pos, 0, self.opts.rules);
        let mut children = Vec::new();
        for mv in game.legal_moves().iter().copied() {
            let mut next = pos;
            next.play_unchecked(mv);
            children.push((mv, self.node(next)));
        }
        self.nodes[i].children = Some(children);
    }

    /// Negamax values over the graph from every root (a value on the current path counts as
    /// its stored value, so a cycle cannot recurse).
    fn minimax(&mut self) {
        let mut done = vec![false; self.nodes.len()];
        let mut on_path = vec![false; self.nodes.len()];
        for r in self.roots.clone() {
            self.value_of(r, &mut done, &mut on_path);
        }
    }

    fn value_of(&mut self, i: usize, done: &mut [bool], on_path: &mut [bool]) -> i32 {
        if done[i] || on_path[i] {
            return self.nodes[i].value;
        }
        let Some(children) = self.nodes[i].children.clone() else {
            done[i] = true;
            return self.nodes[i].value;
        };
        on_path[i] = true;
        let mut best = i32::MIN;
        for (_, c) in children {
            best = best.max(-self.value_of(c, done, on_path));
        }
        on_path[i] = false;
        done[i] = true;
        if best != i32::MIN {
            self.nodes[i].value = best;
        }
        self.nodes[i].value
    }

    /// The unexpanded leaf of lowest drop-out cost and that cost (Dijkstra over the graph:
    /// every step costs at least one ply).
    fn next_leaf(&self) -> Option<(usize, f64)> {
        let scale = 1000.0;
        let mut best_cost: Vec<Option<u64>> = vec![None; self.nodes.len()];
        let mut heap = BinaryHeap::new();
        for &r in &self.roots {
            best_cost[r] = Some(0);
            heap.push(Reverse((0u64, r)));
        }
        while let Some(Reverse((cost, i))) = heap.pop() {
            if best_cost[i] != Some(cost) {
                continue;
            }
            let node = &self.nodes[i];
            let Some(children) = &node.children else {
                if node.terminal {
                    continue;
                }
                return Some((i, cost as f64 / scale));
            };
            for &(_, c) in children {
                let drop = (node.value + self.nodes[c].value).max(0);
                let step = 1.0 + self.opts.penalty * f64::from(drop);
                let next = cost + (step * scale).round() as u64;
                if best_cost[c].is_none_or(|b| next < b) {
                    best_cost[c] = Some(next);
                    heap.push(Reverse((next, c)));
                }
            }
        }
        None
    }

    /// The book entries: every expanded position's moves within `keep_within` of its best.
    fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        for node in &self.nodes {
            let Some(children) = &node.children else {
                continue;
            };
            let k = key(&node.pos);
            let mut seen = Vec::new();
            for &(mv, c) in children {
                let score = -self.nodes[c].value;
                let child = child_key(&node.pos, mv);
                // Both paths of a capture loop lead to one position: one entry.
                if node.value - score > self.opts.keep_within || seen.contains(&child) {
                    continue;
                }
                seen.push(child);
                out.push(Entry {
                    key: k,
                    child,
                    score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                });
            }
        }
        out
    }
}

/// Builds a book under `opts`, reporting after each expansion; returns its entries.
pub fn build(opts: &BuildOptions, progress: &mut dyn FnMut(&Progress)) -> Vec<Entry> {
    let mut b = Builder::new(opts);
    for &pos in &opts.roots {
        let r = b.node(pos);
        if !b.roots.contains(&r) {
            b.roots.push(r);
        }
    }
    let mut expanded = 0;
    while b.searched < opts.positions {
        let Some((leaf, cost)) = b.next_leaf() else {
            break;
        };
        b.expand(leaf);
        expanded += 1;
        b.minimax();
        progress(&Progress {
            searched: b.searched,
            expanded,
            root_value: b.roots.first().map_or(0, |&r| b.nodes[r].value),
            cost,
        });
    }
    b.entries()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{format, Book, BookRules};

    #[test]
    fn a_tiny_build_gives_the_expected_book_moves() {
        let opts = BuildOptions {
            rules: Rules::default(),
            roots: vec![Position::startpos()],
            positions: 15,
            nodes: 2_000,
            seed: 1,
            hash_mib: 8,
            penalty: 0.1,
            keep_within: 50,
        };
        let mut steps = Vec::new();
        let entries = build(&opts, &mut |p| steps.push((p.searched, p.expanded)));
        let bytes = format::encode(BookRules::of(&opts.rules), &entries);
        let book = Book::from_bytes("tiny", &bytes).expect("a good book");
        let got: Vec<(String, i16)> = book
            .probe(&Position::startpos(), &opts.rules)
            .iter()
            .map(|m| (m.mv.to_string(), m.score))
            .collect();
        // The start position and then its best reply were expanded (7 moves each searched).
        assert_eq!(steps, vec![(8, 1), (15, 2)]);
        let want = [
            ("9-13", -6),
            ("11-15", -16),
            ("11-16", -26),
            ("10-15", -31),
            ("9-14", -31),
            ("12-16", -44),
        ];
        let want: Vec<(String, i16)> = want.iter().map(|&(m, s)| (m.to_string(), s)).collect();
        assert_eq!(got, want);
        // Two positions, their moves within 50 centi-men of the best.
        assert_eq!((book.positions(), book.len()), (2, 11));
    }
}
