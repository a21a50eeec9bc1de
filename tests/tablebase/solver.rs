//! An independent solver for small endings, sharing no code with `src/tablebase`: every
//! position of up to three pieces as a reference board, its successors from the slow reference
//! move generator, and plain value iteration.
//! - With a draw rule `D`, the value of every position at every clock `c` straight from the
//!   rules (a capture or crowning restarts the clock at 0; a move that reaches `D` draws
//!   unless it leaves the opponent without a move), from `c = D` down to 0, material group by
//!   material group (zeroing moves lead to groups with fewer pieces, or fewer men).
//! - Without one, the distance to a winning conversion by Jacobi iteration to a fixed point.
//!
//! Under losing rules (`Rules::losing`) a side without a move, blocked or without pieces, wins.

use std::collections::HashMap;

use buffgreen::board::Rules;
use buffgreen::types::Color;

use crate::common::{far_row, row_of, Cell, RefBoard};

/// Where a move leads.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// A position of the list.
    Board(usize),
    /// The side to move there has no piece left: the mover has won.
    Wiped,
}

/// One move of a position: where it leads and whether it restarts the clock.
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: Target,
    zeroing: bool,
}

/// Every position of up to three pieces (both sides with a piece, both sides to move) and the
/// moves between them under one rule setting.
pub struct Graph {
    /// The positions.
    pub boards: Vec<RefBoard>,
    edges: Vec<Vec<Edge>>,
    /// Position numbers in the order groups must be solved: (pieces, men) ascending.
    order: Vec<Vec<usize>>,
    /// The result, +1 or -1, of a side to move without a move: -1, or +1 under losing rules.
    stuck: i8,
}

/// A result: +1 win, 0 draw, -1 loss for the side to move, with the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// +1, 0 or -1.
    pub sign: i8,
    /// Plies (0 for a draw).
    pub d: u32,
}

fn key(b: &RefBoard) -> u128 {
    let mut k: u128 = u128::from(b.side == Color::White);
    for c in b.cells {
        k = k * 5
            + match c {
                Cell::Empty => 0,
                Cell::Man(Color::Black) => 1,
                Cell::King(Color::Black) => 2,
                Cell::Man(Color::White) => 3,
                Cell::King(Color::White) => 4,
            };
    }
    k
}

/// Every legal board with 2 or 3 pieces and a piece of each colour.
pub fn all_boards() -> Vec<RefBoard> {
    let kinds = [
        Cell::Man(Color::Black),
        Cell::King(Color::Black),
        Cell::Man(Color::White),
        Cell::King(Color::White),
    ];
    let mut out = Vec::new();
    let mut squares: Vec<Vec<u8>> = Vec::new();
    for a in 1..=32u8 {
        for b in a + 1..=32 {
            squares.push(vec![a, b]);
            for c in b + 1..=32 {
                squares.push(vec![a, b, c]);
            }
        }
    }
    for sq in squares {
        let n = sq.len() as u32;
        for code in 0..4usize.pow(n) {
            let mut board = RefBoard::empty(Color::Black);
            let mut ok = true;
            let mut colours = [false; 2];
            for (i, &s) in sq.iter().enumerate() {
                let cell = kinds[(code >> (2 * i)) & 3];
                if let Cell::Man(c) = cell {
                    ok &= row_of(s) != far_row(c);
                }
                if let Cell::Man(c) | Cell::King(c) = cell {
                    colours[c.index()] = true;
                }
                board.cells[s as usize - 1] = cell;
            }
            if ok && colours[0] && colours[1] {
                out.push(board);
                board.side = Color::White;
                out.push(board);
            }
        }
    }
    out
}

impl Graph {
    /// The moves of every board under `rules`.
    pub fn new(boards: Vec<RefBoard>, rules: &Rules) -> Graph {
        let at: HashMap<u128, usize> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| (key(b), i))
            .collect();
        let mut edges = Vec::with_capacity(boards.len());
        let mut groups: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (i, b) in boards.iter().enumerate() {
            let list = b
                .moves(rules)
                .into_iter()
                .map(|m| {
                    let mover_left = m.after.cells.iter().any(|c| match c {
                        Cell::Man(c) | Cell::King(c) => *c == m.after.side,
                        Cell::Empty => false,
                    });
                    Edge {
                        to: if mover_left {
                            Target::Board(at[&key(&m.after)])
                        } else {
                            Target::Wiped
                        },
                        zeroing: !m.captured.is_empty() || m.crowns,
                    }
                })
                .collect();
            edges.push(list);
            let pieces = b.cells.iter().filter(|c| **c != Cell::Empty).count();
            let men = b.cells.iter().filter(|c| matches!(c, Cell::Man(_))).count();
            groups.entry((pieces, men)).or_default().push(i);
        }
        let mut keys: Vec<_> = groups.keys().copied().collect();
        keys.sort();
        let order = keys
            .into_iter()
            .map(|k| groups.remove(&k).unwrap())
            .collect();
        Graph {
            boards,
            edges,
            order,
            stuck: if rules.losing { 1 } else { -1 },
        }
    }

    /// With draw rule `d_max` > 0: the result at every clock, turned into a distance (the
    /// clocks at which a win holds must be 0..=D-d for one d, and likewise for a loss).
    pub fn solve_with_clock(&self, d_max: u32) -> Vec<Solved> {
        let width = d_max as usize + 1;
        let n = self.boards.len();
        // Clock-major, so that one clock's values of every position stay in cache.
        let mut v = vec![0i8; n * width];
        for group in &self.order {
            let mut c = width;
            while c > 0 {
                c -= 1;
                for &p in group {
                    let edges = &self.edges[p];
                    let value = if edges.is_empty() {
                        self.stuck
                    } else if c == width - 1 {
                        0
                    } else {
                        edges
                            .iter()
                            .map(|e| match (e.to, e.zeroing) {
                                (Target::Wiped, _) => -self.stuck,
                                (Target::Board(q), true) => -v[q],
                                (Target::Board(q), false) => -v[(c + 1) * n + q],
                            })
                            .max()
                            .unwrap_or(-1)
                    };
                    v[c * n + p] = value;
                }
                // Clock c depends only on clock c + 1 (and on finished groups): once two
                // clocks agree on the whole group, every lower clock agrees too.
                if c + 1 < width && group.iter().all(|&p| v[c * n + p] == v[(c + 1) * n + p]) {
                    for lower in 0..c {
                        for &p in group {
                            v[lower * n + p] = v[c * n + p];
                        }
                    }
                    break;
                }
            }
        }
        (0..self.boards.len())
            .map(|p| {
                let row: Vec<i8> = (0..width).map(|c| v[c * n + p]).collect();
                let sign = row[0];
                if sign == 0 {
                    return Solved { sign, d: 0 };
                }
                let held = row.iter().take_while(|&&x| x == sign).count();
                assert!(
                    row[held..].iter().all(|&x| x == 0),
                    "{:?}: result {row:?} is not one value up to a clock and a draw after",
                    self.boards[p]
                );
                Solved {
                    sign,
                    d: d_max + 1 - held as u32,
                }
            })
            .collect()
    }

    /// Without a draw rule: distances by value iteration to a fixed point, group by group.
    pub fn solve_without_rule(&self) -> Vec<Solved> {
        let mut val = vec![Solved { sign: 0, d: 0 }; self.boards.len()];
        for group in &self.order {
            loop {
                let next: Vec<Solved> = group
                    .iter()
                    .map(|&p| {
                        let edges = &self.edges[p];
                        if edges.is_empty() {
                            return Solved {
                                sign: self.stuck,
                                d: 0,
                            };
                        }
                        let mut win: Option<u32> = None;
                        let mut loss = Some(0u32);
                        for e in edges {
                            let (sign, d) = match e.to {
                                Target::Wiped => (self.stuck, 0),
                                Target::Board(q) => (val[q].sign, val[q].d),
                            };
                            let cost = if e.zeroing { 1 } else { d + 1 };
                            match sign {
                                -1 => win = Some(win.map_or(cost, |w| w.min(cost))),
                                1 => loss = loss.map(|l| l.max(cost)),
                                _ => loss = None,
                            }
                        }
                        match (win, loss) {
                            (Some(d), _) => Solved { sign: 1, d },
                            (None, Some(d)) => Solved { sign: -1, d },
                            (None, None) => Solved { sign: 0, d: 0 },
                        }
                    })
                    .collect();
                let mut changed = false;
                for (&p, s) in group.iter().zip(next) {
                    changed |= val[p] != s;
                    val[p] = s;
                }
                if !changed {
                    break;
                }
            }
        }
        val
    }
}
