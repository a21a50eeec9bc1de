//! An exact solver for endings under the draw rule, searching down to the endgame tables:
//! the labels of the ending suite (`ending_suite`).
//!
//! The question asked of a position is a threshold one: is its value for the side to move at
//! least a draw, at least a win? Each answer is proven (`Some(true)`, `Some(false)`) or not
//! (`None`): a search answers only from positions whose value is certain (no legal move, the
//! draw rule's clock run out, a table entry at the position's clock) and says `None` at its
//! horizon or when its node budget is spent. A draw is thus proven only when every line ends in
//! a tabled result, the draw rule or a stuck side. The no-progress clock is part of every
//! state, so the state graph has no cycles and a proven answer holds wherever it is reached;
//! proven answers are kept in a table across searches.

use std::collections::HashMap;

use buffgreen::board::{generate_moves, next_clock, MoveList, Position, Rules};
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen::types::Move;

/// A position's exact value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The side to move loses, whatever it plays.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move forces a win.
    Win,
}

impl Outcome {
    /// `win`, `draw` or `loss`, as the suite files write it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }

    /// The outcome named by [`Outcome::name`].
    pub fn from_name(name: &str) -> Option<Outcome> {
        match name {
            "loss" => Some(Outcome::Loss),
            "draw" => Some(Outcome::Draw),
            "win" => Some(Outcome::Win),
            _ => None,
        }
    }

    /// The value for the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// A threshold: is the value at least a draw, or at least a win?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum At {
    Draw,
    Win,
}

impl At {
    /// The threshold the opponent must fail after a move, for this one to hold: a move keeps
    /// "at least a win" when the opponent is not at least drawing, and "at least a draw" when
    /// the opponent is not winning.
    fn other(self) -> At {
        match self {
            At::Draw => At::Win,
            At::Win => At::Draw,
        }
    }

    fn met_by(self, v: Outcome) -> bool {
        match self {
            At::Draw => v >= Outcome::Draw,
            At::Win => v == Outcome::Win,
        }
    }
}

/// What is known of one position and threshold. The answers are monotone in the clock (a
/// win at a clock is a win at every lower clock, a loss likewise: a higher clock only cuts
/// lines short by the draw rule), so one bound per answer covers every clock.
#[derive(Clone, Copy, Debug)]
struct Known {
    /// The clock bound of a proven "yes": at most it for a win, at least it for a draw.
    yes: Option<u8>,
    /// The clock bound of a proven "no": at least it for a win, at most it for a draw.
    no: Option<u8>,
    /// Not decided at this clock by a search of this many plies.
    open: Option<(u8, u8)>,
}

impl Known {
    const NONE: Known = Known {
        yes: None,
        no: None,
        open: None,
    };

    fn answer(&self, at: At, clock: u8) -> Option<bool> {
        let (yes, no) = match at {
            At::Win => (
                self.yes.is_some_and(|c| clock <= c),
                self.no.is_some_and(|c| clock >= c),
            ),
            At::Draw => (
                self.yes.is_some_and(|c| clock >= c),
                self.no.is_some_and(|c| clock <= c),
            ),
        };
        if yes {
            Some(true)
        } else if no {
            Some(false)
        } else {
            None
        }
    }

    fn record(&mut self, at: At, clock: u8, answer: bool) {
        // The bound that covers more clocks: the higher one for a win's "yes" and a draw's
        // "no", the lower one otherwise.
        let wider_up = (at == At::Win) == answer;
        let slot = if answer { &mut self.yes } else { &mut self.no };
        *slot = Some(match *slot {
            Some(c) if wider_up => c.max(clock),
            Some(c) => c.min(clock),
            None => clock,
        });
    }
}

/// How many times the per-move budget a nearly critical root's undecided moves get.
const RETRY: u64 = 8;

/// A root position's proof: its value and, for every legal move, whether it keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The value for the side to move.
    pub outcome: Outcome,
    /// The moves whose position after them is proven to keep `outcome`.
    pub keep: Vec<Move>,
    /// The moves proven to give a worse value.
    pub lose: Vec<Move>,
    /// The moves not decided within the budget.
    pub open: Vec<Move>,
}

impl Proof {
    /// True when every move is decided and at least one changes the result: a position that
    /// tests the choice of a move.
    pub fn critical(&self) -> bool {
        self.open.is_empty() && !self.lose.is_empty() && !self.keep.is_empty()
    }
}

/// The solver: rules, optional tables, a node budget per question and the table of answers.
pub struct Solver<'a> {
    rules: Rules,
    tables: Option<&'a Tablebase>,
    known: HashMap<(Position, At), Known>,
    /// The most answers kept; the table is emptied when it grows past it.
    capacity: usize,
    nodes: u64,
    limit: u64,
    /// Nodes searched in all, across questions.
    pub total_nodes: u64,
}

impl<'a> Solver<'a> {
    /// A solver for `rules` (their draw rule must be on) probing `tables` when given.
    pub fn new(rules: Rules, tables: Option<&'a Tablebase>, capacity: usize) -> Solver<'a> {
        Solver {
            rules,
            tables,
            known: HashMap::new(),
            capacity,
            nodes: 0,
            limit: 0,
            total_nodes: 0,
        }
    }

    /// The exact value of `pos` at `clock`, within `budget` nodes; `None` when not proven.
    pub fn value(&mut self, pos: &Position, clock: u32, budget: u64) -> Option<Outcome> {
        self.start(budget);
        for depth in 1..=u8::MAX {
            let win = self.prove(pos, clock, At::Win, depth);
            if win == Some(true) {
                return Some(Outcome::Win);
            }
            let draw = self.prove(pos, clock, At::Draw, depth);
            match (win, draw) {
                (_, Some(false)) => return Some(Outcome::Loss),
                (Some(false), Some(true)) => return Some(Outcome::Draw),
                _ => {}
            }
            if self.nodes > self.limit {
                return None;
            }
        }
        None
    }

    /// Whether the value of `pos` at `clock` is at least `at`, within `budget` nodes.
    fn decide(&mut self, pos: &Position, clock: u32, at: At, budget: u64) -> Option<bool> {
        self.start(budget);
        for depth in 1..=u8::MAX {
            if let Some(b) = self.prove(pos, clock, at, depth) {
                return Some(b);
            }
            if self.nodes > self.limit {
                return None;
            }
        }
        None
    }

    /// The proof of `pos` at clock 0: its value within `budget` nodes, then each move's
    /// verdict within `per_move` nodes each.
    pub fn prove_root(&mut self, pos: &Position, budget: u64, per_move: u64) -> Option<Proof> {
        let outcome = self.value(pos, 0, budget)?;
        let mut proof = Proof {
            outcome,
            keep: Vec::new(),
            lose: Vec::new(),
            open: Vec::new(),
        };
        // The opponent's threshold that the move must deny: after a move that keeps a win
        // the opponent is not at least drawing; after one that keeps a draw, not winning. A
        // lost position keeps its value whatever is played.
        let deny = match outcome {
            Outcome::Win => At::Draw,
            Outcome::Draw => At::Win,
            Outcome::Loss => {
                proof.keep = self.moves(pos).as_slice().to_vec();
                return Some(proof);
            }
        };
        let mut open: Vec<Move> = self.moves(pos).as_slice().to_vec();
        // A position with a move proven to keep the value and one proven to change it is
        // nearly a suite position: its undecided moves get a second, larger budget.
        for budget in [per_move, per_move.saturating_mul(RETRY)] {
            for mv in std::mem::take(&mut open) {
                let mut child = *pos;
                child.play_unchecked(mv);
                match self.decide(&child, next_clock(mv, 0), deny, budget) {
                    Some(false) => proof.keep.push(mv),
                    Some(true) => proof.lose.push(mv),
                    None => open.push(mv),
                }
            }
            if open.is_empty() || proof.keep.is_empty() || proof.lose.is_empty() {
                break;
            }
        }
        proof.open = open;
        Some(proof)
    }

    fn start(&mut self, budget: u64) {
        if self.known.len() > self.capacity {
            self.known.clear();
        }
        self.total_nodes += self.nodes;
        self.nodes = 0;
        self.limit = budget;
    }

    fn moves(&self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        generate_moves(pos, &self.rules, &mut list);
        list
    }

    /// The tables' value of `pos` at `clock`, when they hold it.
    fn tabled(&self, pos: &Position, clock: u32) -> Option<Outcome> {
        let tb = self.tables?;
        if !tb.covers(pos) {
            return None;
        }
        match tb.probe_at(pos, clock).ok()? {
            Value::Win(_) => Some(Outcome::Win),
            Value::Draw => Some(Outcome::Draw),
            Value::Loss(_) => Some(Outcome::Loss),
        }
    }

    /// Is the value of `pos` at `clock` at least `at`? Searched `depth` plies deep at most.
    fn prove(&mut self, pos: &Position, clock: u32, at: At, depth: u8) -> Option<bool> {
        self.nodes += 1;
        let list = self.moves(pos);
        if list.is_empty() {
            return Some(at.met_by(Outcome::Loss));
        }
        if clock >= self.rules.draw_half_moves {
            return Some(at.met_by(Outcome::Draw));
        }
        if let Some(v) = self.tabled(pos, clock) {
            return Some(at.met_by(v));
        }
        let c8 = clock as u8;
        let key = (*pos, at);
        if let Some(k) = self.known.get(&key) {
            if let Some(b) = k.answer(at, c8) {
                return Some(b);
            }
            if matches!(k.open, Some((c, d)) if c == c8 && d >= depth) {
                return None;
            }
        }
        if depth == 0 || self.nodes > self.limit {
            return None;
        }
        // The value is at least `at` when some move leaves the opponent short of the other
        // threshold. Moves whose answer is already known are looked at first.
        let other = at.other();
        let mut children: Vec<(Position, u32, u8)> = Vec::with_capacity(list.len());
        for &mv in list.iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let c = next_clock(mv, clock);
            let rank = match self
                .known
                .get(&(child, other))
                .and_then(|k| k.answer(other, c as u8))
            {
                Some(false) => 0,
                Some(true) => 3,
                None if c == 0 => 1,
                None => 2,
            };
            children.push((child, c, rank));
        }
        children.sort_by_key(|c| c.2);
        let mut open = false;
        let mut answer = Some(false);
        for (child, c, _) in children {
            match self.prove(&child, c, other, depth - 1) {
                Some(false) => {
                    answer = Some(true);
                    open = false;
                    break;
                }
                Some(true) => {}
                None => open = true,
            }
        }
        if open {
            answer = None;
        }
        let k = self.known.entry(key).or_insert(Known::NONE);
        match answer {
            Some(b) => k.record(at, c8, b),
            None if self.nodes <= self.limit => k.open = Some((c8, depth)),
            None => {}
        }
        answer
    }
}
