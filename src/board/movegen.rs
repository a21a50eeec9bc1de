//! Legal move generation for all four settings of the rule switches.
//!
//! The switches are const generic parameters so that each rule set gets its own tight code;
//! the public functions dispatch once on [`Rules`]. Quiet moves come from whole-board shifts;
//! capture sequences are walked depth-first with the jumped pieces removed at once, as the
//! rules require.

use crate::board::{Position, Rules};
use crate::types::{Bitboard, Color, Direction, Move, Square};

/// A reusable list of moves. Backed by a `Vec` so that no position, however odd, can
/// overflow it; keep one per ply and `clear` it so hot loops do not allocate.
#[derive(Clone, Debug, Default)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    /// An empty list with room for a typical position.
    pub fn new() -> MoveList {
        MoveList(Vec::with_capacity(64))
    }

    /// Removes every move, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Adds a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// How many moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Where generated moves go: a list, or a counter for bulk counting.
trait Sink {
    fn add(&mut self, mv: Move);
}

impl Sink for MoveList {
    #[inline]
    fn add(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline]
    fn add(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Squares strictly beyond each square in each direction, nearest first in bit order for the
/// "down" directions and last for the "up" ones.
static RAYS: [[Bitboard; 32]; 4] = {
    let mut rays = [[Bitboard::EMPTY; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let mut s = 0;
        while s < 32 {
            let mut bits = 0u64;
            let mut cur = Bitboard::from_square(Square::from_index(s as u8)).shift(dir);
            while cur.any() {
                bits |= cur.bits();
                cur = cur.shift(dir);
            }
            rays[d][s] = Bitboard::from_bits(bits);
            s += 1;
        }
        d += 1;
    }
    rays
};

#[inline]
fn ray(dir: Direction, sq: Square) -> Bitboard {
    RAYS[dir as usize][sq.index()]
}

/// The nearest square of `set` (a subset of the ray from some square in `dir`).
#[inline]
fn nearest(dir: Direction, set: Bitboard) -> Bitboard {
    match dir {
        // Down directions increase the bit index: the nearest blocker is the lowest bit.
        Direction::DownLeft | Direction::DownRight => set.lowest(),
        Direction::UpLeft | Direction::UpRight => {
            Bitboard::from_bits(1u64 << (63 - set.bits().leading_zeros()))
        }
    }
}

/// The squares a flying piece on `sq` can slide to in `dir` before hitting `occ`, and the
/// first blocker (empty when the ray runs off the board).
#[inline]
fn slide(dir: Direction, sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let r = ray(dir, sq);
    let blockers = r & occ;
    if blockers.is_empty() {
        return (r, Bitboard::EMPTY);
    }
    let b = nearest(dir, blockers);
    let beyond = ray(dir, b.to_square()) | b;
    (r & !beyond, b)
}

/// The directions in which a man of `color` may capture.
#[inline]
fn man_capture_dirs<const BACK: bool>(color: Color) -> &'static [Direction] {
    const ALL: [Direction; 4] = Direction::ALL;
    const BLACK_FWD: [Direction; 2] = Direction::forward(Color::Black);
    const WHITE_FWD: [Direction; 2] = Direction::forward(Color::White);
    if BACK {
        &ALL
    } else {
        match color {
            Color::Black => &BLACK_FWD,
            Color::White => &WHITE_FWD,
        }
    }
}

/// The state of one capture sequence in progress.
struct Walk {
    from: Square,
    /// Every piece but the mover, minus the pieces captured so far.
    occ: Bitboard,
    /// Enemy pieces not yet captured.
    enemy: Bitboard,
    crown_row: Bitboard,
    side: Color,
}

impl Walk {
    /// Continues a man's capture sequence from `cur`; emits the move when no jump remains.
    fn man<const BACK: bool, S: Sink>(
        &self,
        sink: &mut S,
        cur: Bitboard,
        path: u64,
        len: usize,
        captured: Bitboard,
        crowned: bool,
    ) {
        let occ = self.occ & !captured;
        let enemy = self.enemy & !captured;
        let mut found = false;
        for &dir in man_capture_dirs::<BACK>(self.side) {
            let over = cur.shift(dir) & enemy;
            if over.is_empty() {
                continue;
            }
            let land = over.shift(dir) & !occ;
            if land.is_empty() {
                continue;
            }
            found = true;
            let sq = land.to_square();
            self.man::<BACK, S>(
                sink,
                land,
                Move::push_path(path, len, sq),
                len + 1,
                captured | over,
                crowned || land.intersects(self.crown_row),
            );
        }
        if !found && len > 0 {
            sink.add(Move::capture(
                self.from,
                path,
                len as u8,
                cur.to_square(),
                captured,
                crowned,
            ));
        }
    }

    /// Continues a king's capture sequence from `cur`.
    fn king<const LONG: bool, S: Sink>(
        &self,
        sink: &mut S,
        cur: Bitboard,
        path: u64,
        len: usize,
        captured: Bitboard,
    ) {
        let occ = self.occ & !captured;
        let enemy = self.enemy & !captured;
        let mut found = false;
        for dir in Direction::ALL {
            let over = if LONG {
                slide(dir, cur.to_square(), occ).1 & enemy
            } else {
                cur.shift(dir) & enemy
            };
            if over.is_empty() {
                continue;
            }
            let land = over.shift(dir) & !occ;
            if land.is_empty() {
                continue;
            }
            found = true;
            self.king::<LONG, S>(
                sink,
                land,
                Move::push_path(path, len, land.to_square()),
                len + 1,
                captured | over,
            );
        }
        if !found && len > 0 {
            sink.add(Move::capture(
                self.from,
                path,
                len as u8,
                cur.to_square(),
                captured,
                false,
            ));
        }
    }
}

/// Men of `side` that have a capture: an enemy next to them with an empty square behind.
#[inline]
fn men_that_capture<const BACK: bool>(
    men: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
    side: Color,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for &dir in man_capture_dirs::<BACK>(side) {
        let back = dir.reverse();
        out |= men & (enemy & empty.shift(back)).shift(back);
    }
    out
}

/// Kings that have a capture, for all kings at once.
#[inline]
fn kings_that_capture<const LONG: bool>(
    kings: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    if kings.is_empty() {
        return Bitboard::EMPTY;
    }
    let mut out = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let back = dir.reverse();
        // Enemy pieces with an empty square behind them in `dir`...
        let targets = enemy & empty.shift(back);
        if targets.is_empty() {
            continue;
        }
        // ...seen by a king along empty squares (one step when kings are short).
        let mut seen = targets.shift(back);
        if LONG {
            let mut run = seen & empty;
            while run.any() {
                run = run.shift(back);
                seen |= run;
                run &= empty;
            }
        }
        out |= kings & seen;
    }
    out
}

/// The full generator for one rule set.
struct Gen<const BACK: bool, const LONG: bool>;

impl<const BACK: bool, const LONG: bool> Gen<BACK, LONG> {
    #[inline]
    fn captures<S: Sink>(pos: &Position, men_cap: Bitboard, kings_cap: Bitboard, sink: &mut S) {
        let side = pos.side_to_move();
        let occ_all = pos.occupied();
        let enemy = pos.pieces(!side);
        let crown_row = Bitboard::crowning_row(side);
        for from in men_cap {
            let bit = Bitboard::from_square(from);
            let walk = Walk {
                from,
                occ: occ_all ^ bit,
                enemy,
                crown_row,
                side,
            };
            walk.man::<BACK, S>(sink, bit, 0, 0, Bitboard::EMPTY, false);
        }
        for from in kings_cap {
            let bit = Bitboard::from_square(from);
            let walk = Walk {
                from,
                occ: occ_all ^ bit,
                enemy,
                crown_row,
                side,
            };
            walk.king::<LONG, S>(sink, bit, 0, 0, Bitboard::EMPTY);
        }
    }

    #[inline]
    fn capturers(pos: &Position) -> (Bitboard, Bitboard) {
        let side = pos.side_to_move();
        let enemy = pos.pieces(!side);
        let empty = pos.empty();
        (
            men_that_capture::<BACK>(pos.men(side), enemy, empty, side),
            kings_that_capture::<LONG>(pos.kings(side), enemy, empty),
        )
    }

    fn generate(pos: &Position, list: &mut MoveList) {
        let (men_cap, kings_cap) = Self::capturers(pos);
        if men_cap.any() || kings_cap.any() {
            Self::captures(pos, men_cap, kings_cap, list);
            return;
        }
        let side = pos.side_to_move();
        let empty = pos.empty();
        let men = pos.men(side);
        let crown_row = Bitboard::crowning_row(side);
        for dir in Direction::forward(side) {
            let back = dir.reverse();
            for to in men.shift(dir) & empty {
                let from = Bitboard::from_square(to).shift(back).to_square();
                list.push(Move::quiet(from, to, crown_row.contains(to)));
            }
        }
        let kings = pos.kings(side);
        if LONG {
            let occ = pos.occupied();
            for from in kings {
                for dir in Direction::ALL {
                    for to in slide(dir, from, occ).0 {
                        list.push(Move::quiet(from, to, false));
                    }
                }
            }
        } else if kings.any() {
            for dir in Direction::ALL {
                let back = dir.reverse();
                for to in kings.shift(dir) & empty {
                    let from = Bitboard::from_square(to).shift(back).to_square();
                    list.push(Move::quiet(from, to, false));
                }
            }
        }
    }

    fn count(pos: &Position) -> u64 {
        let (men_cap, kings_cap) = Self::capturers(pos);
        if men_cap.any() || kings_cap.any() {
            let mut c = Counter(0);
            Self::captures(pos, men_cap, kings_cap, &mut c);
            return c.0;
        }
        let side = pos.side_to_move();
        let empty = pos.empty();
        let men = pos.men(side);
        let [d1, d2] = Direction::forward(side);
        let mut n = (men.shift(d1) & empty).count() + (men.shift(d2) & empty).count();
        let kings = pos.kings(side);
        if kings.any() {
            for dir in Direction::ALL {
                let mut run = kings.shift(dir) & empty;
                n += run.count();
                if LONG {
                    while run.any() {
                        run = run.shift(dir) & empty;
                        n += run.count();
                    }
                }
            }
        }
        n as u64
    }

    fn has_moves(pos: &Position) -> bool {
        let side = pos.side_to_move();
        let empty = pos.empty();
        let pieces = pos.pieces(side);
        let kings = pos.kings(side);
        let men = pieces & !kings;
        let [d1, d2] = Direction::forward(side);
        if (men.shift(d1) & empty).any() || (men.shift(d2) & empty).any() {
            return true;
        }
        if kings.any()
            && Direction::ALL
                .iter()
                .any(|&d| (kings.shift(d) & empty).any())
        {
            return true;
        }
        let (m, k) = Self::capturers(pos);
        m.any() || k.any()
    }
}

macro_rules! dispatch {
    ($rules:expr, $f:ident ( $($arg:expr),* )) => {
        match ($rules.backward_capture, $rules.long_kings) {
            (true, true) => Gen::<true, true>::$f($($arg),*),
            (true, false) => Gen::<true, false>::$f($($arg),*),
            (false, true) => Gen::<false, true>::$f($($arg),*),
            (false, false) => Gen::<false, false>::$f($($arg),*),
        }
    };
}

/// Fills `list` (cleared first) with every legal move of `pos` under `rules`.
pub fn generate_moves(pos: &Position, rules: &Rules, list: &mut MoveList) {
    list.clear();
    dispatch!(rules, generate(pos, list))
}

/// The number of legal moves, counted without building them where possible (perft's last ply).
pub fn count_moves(pos: &Position, rules: &Rules) -> u64 {
    dispatch!(rules, count(pos))
}

/// True when the side to move has at least one legal move.
pub fn has_moves(pos: &Position, rules: &Rules) -> bool {
    dispatch!(rules, has_moves(pos))
}

/// True when the side to move must capture.
pub fn has_captures(pos: &Position, rules: &Rules) -> bool {
    let (m, k) = dispatch!(rules, capturers(pos));
    m.any() || k.any()
}
