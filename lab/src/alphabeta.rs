//! A classic alpha-beta checkers searcher: the sparring partner of `lab/src/bin/alphabeta.rs`.
//!
//! Self-play cannot see the engine's weakness in the passage from middle game to ending,
//! because both sides share it; a full-width searcher sees the forced lines the UCT misses.
//! This one is built the way the classic English engines are, on the engine's own move
//! generator and evaluation: iterative deepening, principal-variation search with a
//! transposition table, killer moves and a history table, late-move reductions, a one-reply
//! extension, capture quiescence (captures are forced, so a leaf with a capture pending is
//! searched on), the no-progress draw rule and optional endgame-table probes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use buffgreen::board::count::Node;
use buffgreen::board::{generate_moves, next_clock, zobrist, DrawCount, MoveList, Position, Rules};
use buffgreen::eval;
use buffgreen::search::tables::Endgame;
use buffgreen::tablebase::{counting, Value};
use buffgreen::types::Move;

/// The score of a won game at the root, less one per ply to it.
pub const MATE: i32 = 30_000;
/// Scores beyond this (either sign) are proven results, by the rules or by the tables.
pub const PROVEN: i32 = 20_000;
/// The score of a won tabled position, less one per ply to it (below any mate found by search).
const TABLED: i32 = 25_000;
const INF: i32 = 32_000;
/// The deepest ply a search goes (extensions and captures included).
pub const MAX_PLY: usize = 120;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Within this many plies of the draw rule the clock is part of a position's table key: the
/// same pieces are then worth different things at different clocks.
const CLOCK_HORIZON: u32 = 48;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i16,
    bound: Bound,
    /// Index of the best move in the generator's order (which is fixed), plus one (0: none).
    best: u8,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

/// When a search must end.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Deepest iteration.
    pub depth: Option<u32>,
}

/// One finished iteration.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Its nominal depth.
    pub depth: u32,
    /// Its score for the side to move, centi-men, or beyond [`PROVEN`] for a proven result.
    pub score: i32,
    /// Nodes searched since the search began.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The searcher: transposition table, ordering tables and move lists, kept between searches.
pub struct Searcher {
    table: Vec<Entry>,
    lists: Vec<MoveList>,
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[u32; 32]; 32]>,
    rules: Rules,
    tables: Option<Endgame>,
    nodes: u64,
    budget: Budget,
    stop: Arc<AtomicBool>,
    stopped: bool,
}

impl Searcher {
    /// A searcher for `rules` with a table of at most `hash_mib` MiB (a power of two of
    /// entries).
    pub fn new(rules: Rules, hash_mib: usize, tables: Option<Endgame>) -> Searcher {
        let entries = (hash_mib.max(1) << 20) / std::mem::size_of::<Entry>();
        Searcher {
            table: vec![Entry::default(); entries.next_power_of_two() / 2],
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; 32]; 32]),
            rules,
            tables,
            nodes: 0,
            budget: Budget::default(),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.killers.fill([None; 2]);
        *self.history = [[0; 32]; 32];
    }

    /// Searches `pos` at no-progress clock `clock` by iterative deepening within `budget`,
    /// calling `report` after each finished iteration, until `stop` is raised. Returns the
    /// move to play (`None` without a legal move) and the nodes searched.
    pub fn search(
        &mut self,
        pos: &Position,
        clock: u32,
        budget: Budget,
        stop: Arc<AtomicBool>,
        mut report: impl FnMut(&Iteration),
    ) -> (Option<Move>, u64) {
        self.nodes = 0;
        self.budget = budget;
        self.stop = stop;
        self.stopped = false;
        self.killers.fill([None; 2]);
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }
        let mut root = MoveList::new();
        generate_moves(pos, &self.rules, &mut root);
        let Some(&first) = root.iter().next() else {
            return (None, 0);
        };
        let mut best = first;
        let last = budget.depth.unwrap_or(MAX_PLY as u32 / 2).max(1);
        for depth in 1..=last {
            let (score, mv) = self.root(pos, clock, depth as i32, &root);
            if let Some(mv) = mv {
                best = mv;
            }
            if self.stopped {
                break;
            }
            let pv = self.pv(pos, clock, best, depth as usize);
            report(&Iteration {
                depth,
                score,
                nodes: self.nodes,
                pv,
            });
            // One legal move, or a proven result: nothing to learn from deeper iterations.
            if root.len() == 1 || score.abs() >= PROVEN && depth >= 2 {
                break;
            }
        }
        (Some(best), self.nodes)
    }

    /// One root iteration: the score and the best move found before any stop (`None` if
    /// stopped before the first move was searched).
    fn root(
        &mut self,
        pos: &Position,
        clock: u32,
        depth: i32,
        moves: &MoveList,
    ) -> (i32, Option<Move>) {
        let key = self.key(pos, clock);
        let mut order: Vec<(Move, usize)> = moves.iter().copied().zip(0..).collect();
        let hint = self.table[self.slot(key)];
        if hint.key == key && hint.best > 0 {
            let at = order.iter().position(|&(_, i)| i + 1 == hint.best as usize);
            if let Some(at) = at {
                let e = order.remove(at);
                order.insert(0, e);
            }
        }
        let (mut alpha, beta) = (-INF, INF);
        let mut best = None;
        for (n, &(mv, i)) in order.iter().enumerate() {
            let mut after = *pos;
            after.play_unchecked(mv);
            let c = next_clock(mv, clock);
            let score = if n == 0 {
                -self.node(&after, c, depth - 1, 1, -beta, -alpha)
            } else {
                let s = -self.node(&after, c, depth - 1, 1, -alpha - 1, -alpha);
                if s > alpha && !self.stopped {
                    -self.node(&after, c, depth - 1, 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((mv, i));
            }
        }
        if let Some((_, i)) = best {
            self.store(key, alpha, depth, Bound::Exact, i);
        }
        (alpha, best.map(|b| b.0))
    }

    /// The negamax value of `pos` for its side to move within `alpha..beta`.
    fn node(
        &mut self,
        pos: &Position,
        clock: u32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.out_of_budget() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        // Each ply owns a move list: taken out for the node's lifetime, so that the children
        // can use theirs.
        let mut list = std::mem::take(&mut self.lists[ply]);
        generate_moves(pos, &self.rules, &mut list);
        let value = self.moves(pos, clock, depth, ply, alpha, beta, &list);
        self.lists[ply] = list;
        value
    }

    /// [`Searcher::node`] once the moves of `pos` are in `list`.
    #[allow(clippy::too_many_arguments)]
    fn moves(
        &mut self,
        pos: &Position,
        clock: u32,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        list: &MoveList,
    ) -> i32 {
        let rules = self.rules;
        if list.is_empty() {
            let lost = -(MATE - ply as i32);
            return if rules.losing { -lost } else { lost };
        }
        if rules.draw_half_moves > 0 && clock >= rules.draw_half_moves {
            return 0;
        }
        // This search keeps no counters of the 8x8 family's draw rules: tables of Russian
        // and Brazilian, read at a material count, are not probed (it searches instead).
        let tables = self
            .tables
            .as_ref()
            .filter(|_| !counting::counts_material(&rules));
        if let Some(v) = tables.and_then(|t| t.probe(pos, clock, DrawCount::default())) {
            return match v {
                Value::Win(_) => TABLED - ply as i32,
                Value::Loss(_) => -(TABLED - ply as i32),
                Value::Draw => 0,
            };
        }
        let captures = list.iter().next().is_some_and(|m| m.is_capture());
        if ply >= MAX_PLY - 1 || depth <= 0 && !captures {
            return eval::evaluate(pos, &rules);
        }
        // A forced reply costs no depth: shots are sequences of them.
        let depth = depth + (list.len() == 1 && ply < MAX_PLY / 2) as i32;
        let key = self.key(pos, clock);
        let slot = self.slot(key);
        let e = self.table[slot];
        let mut hint = None;
        if e.key == key && e.bound != Bound::Empty {
            hint = (e.best > 0).then(|| e.best as usize - 1);
            if e.depth as i32 >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::Empty => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut scores: Vec<(u32, usize)> = list
            .iter()
            .enumerate()
            .map(|(i, &m)| (self.order(m, i, hint, ply), i))
            .collect();
        scores.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        let start_alpha = alpha;
        let mut best = (-INF, scores[0].1);
        for (n, &(_, i)) in scores.iter().enumerate() {
            let mv = list.as_slice()[i];
            let mut after = *pos;
            after.play_unchecked(mv);
            let c = next_clock(mv, clock);
            let quiet = !mv.is_capture() && !mv.crowns();
            let score = if n == 0 {
                -self.node(&after, c, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let r = if quiet && depth >= 3 && n >= 3 { 1 } else { 0 };
                let mut s = -self.node(&after, c, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.node(&after, c, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(&after, c, depth - 1, ply + 1, -beta, -alpha);
                }
                s
            };
            if self.stopped {
                return 0;
            }
            if score > best.0 {
                best = (score, i);
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    if quiet {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                        let h = &mut self.history[mv.from().index()][mv.to().index()];
                        *h = h.saturating_add((depth * depth) as u32);
                    }
                    break;
                }
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 > start_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, to_table(best.0, ply), depth, bound, best.1);
        best.0
    }

    /// The ordering score of move `m` (index `i`): the table's move, then captures by size,
    /// crowning moves, killers, then the history table.
    fn order(&self, m: Move, i: usize, hint: Option<usize>, ply: usize) -> u32 {
        if hint == Some(i) {
            return u32::MAX;
        }
        if m.is_capture() {
            return u32::MAX - 100 + m.captured().count();
        }
        if m.crowns() {
            return u32::MAX - 200;
        }
        let k = &self.killers[ply];
        if k[0] == Some(m) {
            return u32::MAX - 300;
        }
        if k[1] == Some(m) {
            return u32::MAX - 301;
        }
        self.history[m.from().index()][m.to().index()].min(u32::MAX - 1000)
    }

    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.budget.nodes.is_some_and(|n| self.nodes >= n)
            || self.budget.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn key(&self, pos: &Position, clock: u32) -> u64 {
        let k = zobrist::key(Node::of(pos), pos.side_to_move());
        let mut key = (k >> 64) as u64 ^ k as u64;
        let draw = self.rules.draw_half_moves;
        if draw > 0 && clock + CLOCK_HORIZON >= draw {
            key ^= (clock as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        key
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn store(&mut self, key: u64, score: i32, depth: i32, bound: Bound, best: usize) {
        let slot = self.slot(key);
        let e = &mut self.table[slot];
        if e.key != key || depth >= e.depth as i32 || bound == Bound::Exact {
            *e = Entry {
                key,
                score,
                depth: depth.clamp(0, i16::MAX as i32) as i16,
                bound,
                best: (best + 1).min(u8::MAX as usize) as u8,
            };
        }
    }

    /// The principal variation from the root move `first`, read from the table.
    fn pv(&mut self, pos: &Position, clock: u32, first: Move, most: usize) -> Vec<Move> {
        let mut pv = vec![first];
        let mut p = *pos;
        p.play_unchecked(first);
        let mut c = next_clock(first, clock);
        let mut list = MoveList::new();
        while pv.len() < most {
            let key = self.key(&p, c);
            let e = self.table[self.slot(key)];
            if e.key != key || e.best == 0 {
                break;
            }
            generate_moves(&p, &self.rules, &mut list);
            let Some(&mv) = list.as_slice().get(e.best as usize - 1) else {
                break;
            };
            pv.push(mv);
            p.play_unchecked(mv);
            c = next_clock(mv, c);
        }
        pv
    }
}

/// A score as stored: proven results counted from the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from `ply`.
fn from_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}
