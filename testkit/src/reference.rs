//! Test helpers shared by several integration tests: a slow, independent reference move
//! generator written straight from the rules as protocol.md states them ("Rules"), and random
//! position makers.
//!
//! The reference generator deliberately shares nothing with `src/board/movegen.rs`: it works on
//! a plain array of 32 cells and (row, file) coordinates, walks capture sequences by ordinary
//! recursion, and copies the board at every step. It is slow and obvious on purpose, so that a
//! disagreement with the fast bitboard generator points at a real bug.

use buffgreen::board::{Piece, Position, Rules};
use buffgreen::types::{Bitboard, Color, Square};
use rand::Rng;

/// What stands on one dark square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A man of that colour.
    Man(Color),
    /// A king of that colour.
    King(Color),
}

impl Cell {
    fn color(self) -> Option<Color> {
        match self {
            Cell::Empty => None,
            Cell::Man(c) | Cell::King(c) => Some(c),
        }
    }
}

/// A board as 32 cells, index `n - 1` for square `n`, and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RefBoard {
    /// Cell of square `n` at index `n - 1`.
    pub cells: [Cell; 32],
    /// Whose turn it is.
    pub side: Color,
}

/// One legal move found by the reference generator.
#[derive(Clone, Debug)]
pub struct RefMove {
    /// Start square, 1..=32.
    pub from: u8,
    /// Landing squares in order.
    pub path: Vec<u8>,
    /// Captured squares in the order they were jumped.
    pub captured: Vec<u8>,
    /// True when a man becomes a king.
    pub crowns: bool,
    /// The board after the move, the other side to move.
    pub after: RefBoard,
}

impl RefMove {
    /// The long form: `11-15` or `9x18x27`.
    pub fn notation(&self) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        let mut s = self.from.to_string();
        for p in &self.path {
            s.push_str(sep);
            s.push_str(&p.to_string());
        }
        s
    }
}

/// Board row of square `n` (0 holds 1-4 at the top of the diagram, 7 holds 29-32).
pub fn row_of(n: u8) -> i32 {
    (n as i32 - 1) / 4
}

/// Board file of square `n` (0 = a .. 7 = h). Row 0 starts on b8, row 1 on a7, and so on.
pub fn file_of(n: u8) -> i32 {
    let i = n as i32 - 1;
    let r = i / 4;
    2 * (i % 4) + if r % 2 == 0 { 1 } else { 0 }
}

/// The square number at (row, file), if that is a dark square on the board.
pub fn square_at(row: i32, file: i32) -> Option<u8> {
    if (0..8).contains(&row) && (0..8).contains(&file) && (row + file) % 2 == 1 {
        Some((row * 4 + file / 2 + 1) as u8)
    } else {
        None
    }
}

/// The four diagonal directions as (row step, file step).
pub const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// The row step of a man of `c` moving forward: Black goes down toward 29-32, White up.
pub fn forward_row(c: Color) -> i32 {
    match c {
        Color::Black => 1,
        Color::White => -1,
    }
}

/// The row on which men of `c` are crowned.
pub fn far_row(c: Color) -> i32 {
    match c {
        Color::Black => 7,
        Color::White => 0,
    }
}

impl RefBoard {
    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> RefBoard {
        RefBoard {
            cells: [Cell::Empty; 32],
            side,
        }
    }

    /// The cell of square `n`.
    pub fn at(&self, n: u8) -> Cell {
        self.cells[n as usize - 1]
    }

    /// The same board read from a position.
    pub fn from_position(pos: &Position) -> RefBoard {
        let mut b = RefBoard::empty(pos.side_to_move());
        for n in 1..=32u8 {
            let sq = Square::new(n as i64).expect("1..=32");
            b.cells[n as usize - 1] = match pos.piece_at(sq) {
                None => Cell::Empty,
                Some((c, Piece::Man)) => Cell::Man(c),
                Some((c, Piece::King)) => Cell::King(c),
            };
        }
        b
    }

    /// The position of this board (panics if a man stands on its crowning row).
    pub fn position(&self) -> Position {
        let mut sides = [Bitboard::EMPTY; 2];
        let mut kings = Bitboard::EMPTY;
        for n in 1..=32u8 {
            let sq = Bitboard::from_square(Square::new(n as i64).expect("1..=32"));
            match self.at(n) {
                Cell::Empty => {}
                Cell::Man(c) => sides[c.index()] |= sq,
                Cell::King(c) => {
                    sides[c.index()] |= sq;
                    kings |= sq;
                }
            }
        }
        Position::new(self.side, sides[0], sides[1], kings)
            .unwrap_or_else(|e| panic!("reference board is not a position: {e}"))
    }

    /// The squares of the side to move's pieces, each with true for a king.
    pub fn own_pieces(&self) -> impl Iterator<Item = (u8, bool)> + '_ {
        (1..=32u8).filter_map(|n| match self.at(n) {
            Cell::Man(c) if c == self.side => Some((n, false)),
            Cell::King(c) if c == self.side => Some((n, true)),
            _ => None,
        })
    }

    /// Every legal move under `rules`, straight from protocol.md's "Rules".
    pub fn moves(&self, rules: &Rules) -> Vec<RefMove> {
        let me = self.side;
        let mut captures = Vec::new();
        for (from, king) in self.own_pieces() {
            // The start square is empty during the whole move.
            let mut cells = self.cells;
            cells[from as usize - 1] = Cell::Empty;
            let mut seq = Sequence {
                from,
                king,
                path: Vec::new(),
                captured: Vec::new(),
                touched_far_row: false,
            };
            self.extend(&cells, from, &mut seq, rules, &mut captures);
        }
        if !captures.is_empty() {
            // Capturing is mandatory; any capture may be chosen.
            return captures;
        }
        let mut quiet = Vec::new();
        for (from, king) in self.own_pieces() {
            let (r, f) = (row_of(from), file_of(from));
            for (dr, df) in DIRS {
                if !king && dr != forward_row(me) {
                    continue;
                }
                let reach = if king && rules.long_kings { 7 } else { 1 };
                for k in 1..=reach {
                    let Some(to) = square_at(r + k * dr, f + k * df) else {
                        break;
                    };
                    if self.at(to) != Cell::Empty {
                        break;
                    }
                    let crowns = !king && row_of(to) == far_row(me);
                    quiet.push(self.finish(from, vec![to], Vec::new(), king || crowns, crowns));
                }
            }
        }
        quiet
    }

    /// Looks for one more capture step of the piece now on `at`; records the move when none.
    fn extend(
        &self,
        cells: &[Cell; 32],
        at: u8,
        seq: &mut Sequence,
        rules: &Rules,
        out: &mut Vec<RefMove>,
    ) {
        let me = self.side;
        let mut stepped = false;
        for dir in DIRS {
            let Some((victim, land)) = capture_step(cells, me, at, seq.king, dir, rules) else {
                continue;
            };
            stepped = true;
            // The jumped piece is removed at once.
            let mut next = *cells;
            next[victim as usize - 1] = Cell::Empty;
            let touched = seq.touched_far_row;
            seq.touched_far_row |= !seq.king && row_of(land) == far_row(me);
            seq.path.push(land);
            seq.captured.push(victim);
            self.extend(&next, land, seq, rules, out);
            seq.path.pop();
            seq.captured.pop();
            seq.touched_far_row = touched;
        }
        if !stepped && !seq.path.is_empty() {
            let crowns = !seq.king && seq.touched_far_row;
            out.push(self.finish(
                seq.from,
                seq.path.clone(),
                seq.captured.clone(),
                seq.king || crowns,
                crowns,
            ));
        }
    }

    fn finish(
        &self,
        from: u8,
        path: Vec<u8>,
        captured: Vec<u8>,
        king_after: bool,
        crowns: bool,
    ) -> RefMove {
        let me = self.side;
        let mut after = *self;
        after.cells[from as usize - 1] = Cell::Empty;
        for &c in &captured {
            after.cells[c as usize - 1] = Cell::Empty;
        }
        let to = *path.last().expect("a move lands somewhere");
        after.cells[to as usize - 1] = if king_after {
            Cell::King(me)
        } else {
            Cell::Man(me)
        };
        after.side = !me;
        RefMove {
            from,
            path,
            captured,
            crowns,
            after,
        }
    }

    /// True when a piece of the side to move, of kind `king`, standing on `at` (whatever the
    /// board holds there) could make one capture step. Checks that captures are complete.
    pub fn can_capture_from(&self, at: u8, king: bool, rules: &Rules) -> bool {
        let mut cells = self.cells;
        cells[at as usize - 1] = Cell::Empty;
        DIRS.into_iter()
            .any(|dir| capture_step(&cells, self.side, at, king, dir, rules).is_some())
    }
}

/// One capture step of a piece of `me` on `at` in direction `dir`: the first occupied square
/// along the line (the adjacent one only, for men and short kings) must hold an enemy with an
/// empty square directly behind it. Returns (captured square, landing square).
fn capture_step(
    cells: &[Cell; 32],
    me: Color,
    at: u8,
    king: bool,
    (dr, df): (i32, i32),
    rules: &Rules,
) -> Option<(u8, u8)> {
    if !king && dr != forward_row(me) && !rules.backward_capture {
        return None;
    }
    let (r, f) = (row_of(at), file_of(at));
    let reach = if king && rules.long_kings { 7 } else { 1 };
    for k in 1..=reach {
        let s = square_at(r + k * dr, f + k * df)?;
        match cells[s as usize - 1].color() {
            None => continue,
            Some(c) if c == me => return None,
            Some(_) => {
                let land = square_at(r + (k + 1) * dr, f + (k + 1) * df)?;
                return (cells[land as usize - 1] == Cell::Empty).then_some((s, land));
            }
        }
    }
    None
}

/// A capture sequence being built.
struct Sequence {
    from: u8,
    king: bool,
    path: Vec<u8>,
    captured: Vec<u8>,
    touched_far_row: bool,
}

/// A short name for a rule setting, for failure messages.
pub fn rules_name(r: &Rules) -> String {
    format!(
        "BackwardCapture={} LongKings={}",
        r.backward_capture, r.long_kings
    )
}

/// A random legal board: each square is occupied with probability `density`, a piece is a king
/// with probability `king_share` (always a king where a man would stand on its crowning row).
pub fn random_board(rng: &mut impl Rng, density: f64, king_share: f64) -> RefBoard {
    let mut b = RefBoard::empty(random_color(rng));
    for n in 1..=32u8 {
        if rng.gen_bool(density) {
            let c = random_color(rng);
            b.cells[n as usize - 1] = piece_on(n, c, rng.gen_bool(king_share));
        }
    }
    b
}

/// Black or White, evenly.
fn random_color(rng: &mut impl Rng) -> Color {
    if rng.gen_bool(0.5) {
        Color::Black
    } else {
        Color::White
    }
}

/// A piece of `c` for square `n`: a king if asked, or if a man would stand on its crowning row.
fn piece_on(n: u8, c: Color, king: bool) -> Cell {
    if king || row_of(n) == far_row(c) {
        Cell::King(c)
    } else {
        Cell::Man(c)
    }
}

/// A random board where men of the side to move crowd the two rows before their crowning row,
/// enemies stand on the row just before it and the far row is mostly empty, so that crowning by
/// a quiet step, crowning by a capture onto the far row and deferred crowning (capturing on,
/// backward, after reaching the far row) all happen often.
pub fn random_crowning_board(rng: &mut impl Rng) -> RefBoard {
    let me = random_color(rng);
    let mut b = RefBoard::empty(me);
    for n in 1..=32u8 {
        // Rows counted from the mover's own side: 7 is where its men are crowned.
        let rel = if me == Color::Black {
            row_of(n)
        } else {
            7 - row_of(n)
        };
        let roll: f64 = rng.gen();
        let (own_man, enemy, any) = match rel {
            7 => (0.0, 0.0, 0.12),
            6 => (0.15, 0.5, 0.0),
            5 => (0.4, 0.2, 0.0),
            4 => (0.0, 0.3, 0.1),
            _ => (0.0, 0.0, 0.25),
        };
        b.cells[n as usize - 1] = if roll < own_man {
            Cell::Man(me)
        } else if roll < own_man + enemy {
            piece_on(n, !me, rng.gen_bool(0.3))
        } else if roll < own_man + enemy + any {
            let c = random_color(rng);
            piece_on(n, c, rng.gen_bool(0.3))
        } else {
            Cell::Empty
        };
    }
    b
}

/// A proptest strategy for random legal boards: about 12 pieces, a third of them kings, a man
/// that would stand on its crowning row made a king. Shrinks toward emptier boards.
pub fn arb_board() -> impl proptest::strategy::Strategy<Value = RefBoard> {
    use proptest::prelude::*;
    (any::<bool>(), proptest::collection::vec(0u8..16, 32)).prop_map(|(white, codes)| {
        let side = if white { Color::White } else { Color::Black };
        let mut b = RefBoard::empty(side);
        for (i, code) in codes.into_iter().enumerate() {
            let n = i as u8 + 1;
            // 0 and the high codes are empty, so that shrinking (toward 0) empties the board.
            let (c, king) = match code {
                1 | 2 => (Color::Black, false),
                3 => (Color::Black, true),
                4 | 5 => (Color::White, false),
                6 => (Color::White, true),
                _ => continue,
            };
            b.cells[i] = piece_on(n, c, king);
        }
        b
    })
}
