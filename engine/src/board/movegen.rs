//! Legal move generation for all four settings of the rule switches (the 8x8 family's
//! captures are `family`'s, which calls this for the rest).
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

    /// Keeps only the moves `keep` says yes to, in order.
    pub fn retain(&mut self, keep: impl FnMut(&Move) -> bool) {
        self.0.retain(keep);
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
    /// False for sinks that only count: the walk then skips building paths.
    const BUILDS: bool;
    fn add(&mut self, mv: Move);
}

impl Sink for MoveList {
    const BUILDS: bool = true;
    #[inline]
    fn add(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

struct Counter(u64);

impl Sink for Counter {
    const BUILDS: bool = false;
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
pub(super) fn slide(dir: Direction, sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let r = ray(dir, sq);
    let blockers = r & occ;
    if blockers.is_empty() {
        return (r, Bitboard::EMPTY);
    }
    let b = nearest(dir, blockers);
    let beyond = ray(dir, b.to_square()) | b;
    (r & !beyond, b)
}

/// The state of one capture sequence in progress.
struct Walk {
    from: Square,
    crown_row: Bitboard,
}

impl Walk {
    /// Continues a capture sequence from `cur`; emits the move when no jump remains. `KING`
    /// picks the piece: a man jumps forward (and backward when `BACK`) and may crown on the
    /// way; a king jumps every way, from afar when `LONG`. `occ` is every piece but the
    /// mover, `enemy` the enemy pieces, both without the pieces captured so far (they leave
    /// the board at once).
    #[allow(clippy::too_many_arguments)]
    fn jumps<const KING: bool, const BACK: bool, const LONG: bool, const BLACK: bool, S: Sink>(
        &self,
        sink: &mut S,
        cur: Bitboard,
        occ: Bitboard,
        enemy: Bitboard,
        path: u64,
        len: usize,
        captured: Bitboard,
        crowned: bool,
    ) {
        let mut found = false;
        let mut jump = |dir: Direction| {
            let over = if KING && LONG {
                slide(dir, cur.to_square(), occ).1 & enemy
            } else {
                cur.shift(dir) & enemy
            };
            let land = over.shift(dir) & !occ;
            if land.any() {
                found = true;
                // A counting sink needs only the end of each sequence: no path, no captured set.
                let (next_path, next_len, next_captured, next_crowned) = if S::BUILDS {
                    (
                        Move::push_path(path, len, land.to_square()),
                        len + 1,
                        captured | over,
                        crowned || (!KING && land.intersects(self.crown_row)),
                    )
                } else {
                    (0, 1, Bitboard::EMPTY, false)
                };
                self.jumps::<KING, BACK, LONG, BLACK, S>(
                    sink,
                    land,
                    occ ^ over,
                    enemy ^ over,
                    next_path,
                    next_len,
                    next_captured,
                    next_crowned,
                );
            }
        };
        if KING {
            Direction::ALL.into_iter().for_each(&mut jump);
        } else {
            Direction::forward(side::<BLACK>())
                .into_iter()
                .for_each(&mut jump);
            if BACK {
                Direction::backward(side::<BLACK>())
                    .into_iter()
                    .for_each(&mut jump);
            }
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
}

#[inline(always)]
const fn side<const BLACK: bool>() -> Color {
    if BLACK {
        Color::Black
    } else {
        Color::White
    }
}

/// The directions a piece captures in: a king every way, a man forward (and backward when
/// `BACK`), in the order the walk tries them.
#[inline(always)]
fn capture_dirs<const KING: bool, const BACK: bool, const BLACK: bool>() -> &'static [Direction] {
    use Direction::*;
    match (KING, BACK, BLACK) {
        (true, _, _) => &Direction::ALL,
        (false, false, true) => &[DownLeft, DownRight],
        (false, false, false) => &[UpLeft, UpRight],
        (false, true, true) => &[DownLeft, DownRight, UpLeft, UpRight],
        (false, true, false) => &[UpLeft, UpRight, DownLeft, DownRight],
    }
}

/// Which of `pieces` have a capture, for all at once: an enemy with an empty square behind it,
/// next to the piece or, for a flying king, seen along empty squares.
#[inline(always)]
fn that_capture<const KING: bool, const BACK: bool, const LONG: bool, const BLACK: bool>(
    pieces: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    let reach = |dir: Direction| {
        let back = dir.reverse();
        let mut seen = (enemy & empty.shift(back)).shift(back);
        if KING && LONG {
            let mut run = seen & empty;
            while run.any() {
                run = run.shift(back);
                seen |= run;
                run &= empty;
            }
        }
        seen
    };
    let mut out = Bitboard::EMPTY;
    for &dir in capture_dirs::<KING, BACK, BLACK>() {
        out |= reach(dir);
    }
    out & pieces
}

/// Pushes one quiet move per bit of `to`, each coming from one step back along `dir`.
#[inline(always)]
fn push_steps(list: &mut MoveList, to: Bitboard, dir: Direction, crown_row: Bitboard) {
    // Shifting keeps bit order, so the k-th origin pairs with the k-th destination.
    let mut from = to.shift(dir.reverse());
    for t in to {
        let f = from.lowest();
        from ^= f;
        list.push(Move::quiet(f.to_square(), t, crown_row.contains(t)));
    }
}

/// The full generator for one rule set and side to move.
struct Gen<const BACK: bool, const LONG: bool, const BLACK: bool>;

impl<const BACK: bool, const LONG: bool, const BLACK: bool> Gen<BACK, LONG, BLACK> {
    #[inline(always)]
    fn captures<S: Sink>(pos: &Position, men_cap: Bitboard, kings_cap: Bitboard, sink: &mut S) {
        let side = side::<BLACK>();
        let occ_all = pos.occupied();
        let enemy = pos.pieces(!side);
        let crown_row = Bitboard::crowning_row(side);
        for (pieces, king) in [(men_cap, false), (kings_cap, true)] {
            for from in pieces {
                let bit = Bitboard::from_square(from);
                let walk = Walk { from, crown_row };
                let (occ, cap) = (occ_all ^ bit, Bitboard::EMPTY);
                if king {
                    walk.jumps::<true, false, LONG, false, S>(
                        sink, bit, occ, enemy, 0, 0, cap, false,
                    );
                } else {
                    walk.jumps::<false, BACK, false, BLACK, S>(
                        sink, bit, occ, enemy, 0, 0, cap, false,
                    );
                }
            }
        }
    }

    #[inline(always)]
    fn capturers(pos: &Position) -> (Bitboard, Bitboard) {
        let side = side::<BLACK>();
        Self::capturers_of(
            pos.men(side),
            pos.kings(side),
            pos.pieces(!side),
            pos.empty(),
        )
    }

    /// The men and the kings of the side to move that have a capture, from the sets alone.
    #[inline(always)]
    fn capturers_of(
        men: Bitboard,
        kings: Bitboard,
        enemy: Bitboard,
        empty: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let kings_cap = if kings.any() {
            that_capture::<true, false, LONG, false>(kings, enemy, empty)
        } else {
            Bitboard::EMPTY
        };
        (
            that_capture::<false, BACK, false, BLACK>(men, enemy, empty),
            kings_cap,
        )
    }

    fn generate(pos: &Position, list: &mut MoveList) {
        let (men_cap, kings_cap) = Self::capturers(pos);
        if men_cap.any() || kings_cap.any() {
            Self::captures(pos, men_cap, kings_cap, list);
            return;
        }
        let side = side::<BLACK>();
        let empty = pos.empty();
        let men = pos.men(side);
        let crown_row = Bitboard::crowning_row(side);
        for dir in Direction::forward(side) {
            push_steps(list, men.shift(dir) & empty, dir, crown_row);
        }
        let kings = pos.kings(side);
        if kings.is_empty() {
            return;
        }
        if LONG {
            let occ = pos.occupied();
            for from in kings {
                for dir in Direction::ALL {
                    for to in slide(dir, from, occ).0 {
                        list.push(Move::quiet(from, to, false));
                    }
                }
            }
        } else {
            for dir in Direction::ALL {
                push_steps(list, kings.shift(dir) & empty, dir, Bitboard::EMPTY);
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
        let side = side::<BLACK>();
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
        let side = side::<BLACK>();
        let empty = pos.empty();
        let kings = pos.kings(side);
        let men = pos.men(side);
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
    ($pos:expr, $rules:expr, $f:ident ( $($arg:expr),* )) => {
        dispatch!(side $pos.side_to_move(), $rules, $f($($arg),*))
    };
    (side $side:expr, $rules:expr, $f:ident ( $($arg:expr),* )) => {
        match ($rules.backward_capture, $rules.long_kings, $side) {
            (true, true, Color::Black) => Gen::<true, true, true>::$f($($arg),*),
            (true, false, Color::Black) => Gen::<true, false, true>::$f($($arg),*),
            (false, true, Color::Black) => Gen::<false, true, true>::$f($($arg),*),
            (false, false, Color::Black) => Gen::<false, false, true>::$f($($arg),*),
            (true, true, Color::White) => Gen::<true, true, false>::$f($($arg),*),
            (true, false, Color::White) => Gen::<true, false, false>::$f($($arg),*),
            (false, true, Color::White) => Gen::<false, true, false>::$f($($arg),*),
            (false, false, Color::White) => Gen::<false, false, false>::$f($($arg),*),
        }
    };
}

/// Fills `list` (cleared first) with every legal move of `pos` under `rules`.
pub fn generate_moves(pos: &Position, rules: &Rules, list: &mut MoveList) {
    list.clear();
    dispatch!(pos, rules, generate(pos, list))
}

/// The number of legal moves, counted without building them where possible (perft's last ply).
pub fn count_moves(pos: &Position, rules: &Rules) -> u64 {
    dispatch!(pos, rules, count(pos))
}

/// True when the side to move has at least one legal move.
pub fn has_moves(pos: &Position, rules: &Rules) -> bool {
    dispatch!(pos, rules, has_moves(pos))
}

/// True when the side to move must capture.
pub fn has_captures(pos: &Position, rules: &Rules) -> bool {
    let (m, k) = dispatch!(pos, rules, capturers(pos));
    m.any() || k.any()
}

/// The squares from which a man and a king of `side` would have a capture against `enemy`,
/// `empty` being the empty squares (the kings' set only when `kings`, else empty).
///
/// [`has_captures`] for a board given as sets, with the answer for every square at once: the
/// tables' un-moves put one piece back at a time and ask this once for all its squares. A
/// piece's own square is never on its capture's path, so the answer for a square holds
/// whether the square is counted empty or not.
pub fn capture_squares(
    side: Color,
    enemy: Bitboard,
    empty: Bitboard,
    kings: bool,
    rules: &Rules,
) -> (Bitboard, Bitboard) {
    let kings = if kings {
        Bitboard::ALL
    } else {
        Bitboard::EMPTY
    };
    dispatch!(side side, rules, capturers_of(Bitboard::ALL, kings, enemy, empty))
}

/// The squares that, any one of them occupied, would take every capture away from the
/// capturing `men` and `kings` of `side` (against `enemy`, `empty` the empty squares): the
/// squares all their captures pass over or land on first. `None` when none of them captures.
///
/// A piece of a side's own, put on an empty square, can only take captures away, and takes
/// exactly those whose squares it stands on: a caller that puts back one piece at a time
/// asks this once for all its squares.
pub fn capture_blockers(
    side: Color,
    men: Bitboard,
    kings: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
    rules: &Rules,
) -> Option<Bitboard> {
    let mut common: Option<Bitboard> = None;
    let men_dirs = capture_directions(side, false, rules);
    for (set, king, dirs) in [(men, false, men_dirs), (kings, true, &Direction::ALL[..])] {
        let long = king && rules.long_kings;
        for sq in set {
            for &dir in dirs {
                let (path, at) = if long {
                    slide(dir, sq, !empty)
                } else {
                    (Bitboard::EMPTY, Bitboard::from_square(sq).shift(dir))
                };
                let land = at.shift(dir);
                if (at & enemy).any() && (land & empty).any() {
                    let squares = path | land;
                    let both = common.map_or(squares, |c| c & squares);
                    if both.is_empty() {
                        return Some(both);
                    }
                    common = Some(both);
                }
            }
        }
    }
    common
}

/// The directions in which a piece of `side` captures under `rules` ([`capture_dirs`] chosen
/// at run time).
fn capture_directions(side: Color, king: bool, rules: &Rules) -> &'static [Direction] {
    match (king, rules.backward_capture, side) {
        (true, _, _) => capture_dirs::<true, false, true>(),
        (false, true, _) => capture_dirs::<false, true, true>(),
        (false, false, Color::Black) => capture_dirs::<false, false, true>(),
        (false, false, Color::White) => capture_dirs::<false, false, false>(),
    }
}

// Quiet moves one at a time, for random playouts: they must agree with the generator above
// (the tests below check that they do), but build only the move that is picked.

/// The `k`-th lowest square of `set` (k < set.count()).
#[inline]
fn nth_square(set: Bitboard, k: u32) -> Bitboard {
    let mut bits = set.bits();
    for _ in 0..k {
        bits &= bits - 1;
    }
    Bitboard::from_bits(bits).lowest()
}

/// `set` shifted `steps` times in `dir`.
#[inline]
fn shift_n(mut set: Bitboard, dir: Direction, steps: u32) -> Bitboard {
    for _ in 0..steps {
        set = set.shift(dir);
    }
    set
}

/// How far a king may slide: the whole board with flying kings, one step otherwise.
#[inline]
fn king_reach(rules: &Rules) -> u32 {
    if rules.long_kings {
        7
    } else {
        1
    }
}

/// Walks the quiet moves in a fixed order (men by direction, then kings by direction and
/// distance, squares in index order within each group) and returns the `k`-th, or the number
/// of quiet moves when there are not more than `k`. Call only when there is no capture.
#[inline]
fn quiet_nth(pos: &Position, rules: &Rules, mut k: u32) -> Result<Move, u32> {
    let side = pos.side_to_move();
    let empty = pos.empty();
    let men = pos.men(side);
    let crown = Bitboard::crowning_row(side);
    let mut seen = 0;
    for dir in Direction::forward(side) {
        let targets = men.shift(dir) & empty;
        let c = targets.count();
        if k < c {
            let to = nth_square(targets, k);
            let from = to.shift(dir.reverse());
            return Ok(Move::quiet(
                from.to_square(),
                to.to_square(),
                to.intersects(crown),
            ));
        }
        k -= c;
        seen += c;
    }
    let kings = pos.kings(side);
    if kings.is_empty() {
        return Err(seen);
    }
    let reach = king_reach(rules);
    for dir in Direction::ALL {
        let mut run = kings.shift(dir) & empty;
        let mut step = 1;
        while run.any() {
            let c = run.count();
            if k < c {
                let to = nth_square(run, k);
                let from = shift_n(to, dir.reverse(), step);
                return Ok(Move::quiet(from.to_square(), to.to_square(), false));
            }
            k -= c;
            seen += c;
            if step == reach {
                break;
            }
            run = run.shift(dir) & empty;
            step += 1;
        }
    }
    Err(seen)
}

/// The number of quiet moves (call only when there is no capture).
#[inline]
fn quiet_count(pos: &Position, rules: &Rules) -> u32 {
    quiet_nth(pos, rules, u32::MAX).err().unwrap_or(0)
}

/// One quiet move of `pos`, the one of index `pick(n)` among its `n > 0` quiet moves (in a
/// fixed order); `None` when it has none. Call only when there is no capture. With men only
/// (most plies of a playout) the moves are counted with two shifts and popcounts, and only the
/// picked one is built.
#[inline]
pub fn pick_quiet(pos: &Position, rules: &Rules, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
    let side = pos.side_to_move();
    if pos.kings(side).is_empty() {
        let empty = pos.empty();
        let men = pos.men(side);
        let [d1, d2] = Direction::forward(side);
        let (t1, t2) = (men.shift(d1) & empty, men.shift(d2) & empty);
        let (c1, c2) = (t1.count(), t2.count());
        if c1 + c2 == 0 {
            return None;
        }
        let k = pick(c1 + c2);
        let (targets, dir, k) = if k < c1 {
            (t1, d1, k)
        } else {
            (t2, d2, k - c1)
        };
        let to = nth_square(targets, k);
        let from = to.shift(dir.reverse());
        let crowns = to.intersects(Bitboard::crowning_row(side));
        return Some(Move::quiet(from.to_square(), to.to_square(), crowns));
    }
    let n = quiet_count(pos, rules);
    if n == 0 {
        return None;
    }
    quiet_nth(pos, rules, pick(n)).ok()
}

#[cfg(test)]
mod quiet_tests {
    use super::*;
    use crate::board::fen;

    const POSITIONS: &[&str] = &[
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:WK3,18,22,26,30:B6,9,K27",
        "W:WK10,K27:BK5,K19,23",
        "B:W20,24,27,28,K6:B1,3,10,K26",
        "W:WK1,K32:BK4,K29",
        "W:W5,K13:B1,K30",
    ];

    #[test]
    fn quiet_moves_match_the_generator() {
        let mut list = MoveList::new();
        for rules in Rules::ALL {
            for text in POSITIONS {
                let pos = fen::parse(text).unwrap();
                for p in [pos, pos.with_side_to_move(!pos.side_to_move())] {
                    if has_captures(&p, &rules) {
                        continue;
                    }
                    generate_moves(&p, &rules, &mut list);
                    let n = quiet_count(&p, &rules);
                    assert_eq!(n as usize, list.len(), "{text}");
                    let mut mine: Vec<String> = (0..n)
                        .map(|k| quiet_nth(&p, &rules, k).unwrap().to_string())
                        .collect();
                    let mut theirs: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                    mine.sort();
                    theirs.sort();
                    assert_eq!(mine, theirs, "{text}");
                    for k in 0..n {
                        assert_eq!(pick_quiet(&p, &rules, |_| k), quiet_nth(&p, &rules, k).ok());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod capture_tests {
    use super::*;

    /// Positions of random games from the start under `rules`, both sides to move, with the
    /// kings and the sparse boards of the endings as well as the crowded ones.
    pub(crate) fn random_positions(rules: &Rules, games: usize) -> Vec<Position> {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut out = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                out.push(pos);
                out.push(pos.with_side_to_move(!pos.side_to_move()));
                generate_moves(&pos, rules, &mut list);
                if list.is_empty() {
                    break;
                }
                pos.play_unchecked(list[next(list.len())]);
            }
        }
        out
    }

    /// The set tests agree with the generator's, square by square, and the blockers are the
    /// squares whose occupation takes every capture away.
    #[test]
    fn capture_tests_agree_with_the_generator() {
        let mut capturing = 0;
        for rules in Rules::ALL {
            for pos in random_positions(&rules, 40) {
                let side = pos.side_to_move();
                let (men, kings) = dispatch!(pos, rules, capturers(&pos));
                let (enemy, empty) = (pos.pieces(!side), pos.empty());
                let (men_at, kings_at) = capture_squares(side, enemy, empty, true, &rules);
                assert_eq!(men_at & pos.men(side), men, "{pos:?}");
                assert_eq!(kings_at & pos.kings(side), kings, "{pos:?}");
                assert_eq!(
                    capture_squares(side, enemy, empty, false, &rules),
                    (men_at, Bitboard::EMPTY)
                );
                // A square's answer holds whether the square is empty or not.
                for sq in pos.empty() {
                    let bit = Bitboard::from_square(sq);
                    let at = capture_squares(side, enemy, empty ^ bit, true, &rules);
                    assert_eq!((at.0 & bit, at.1 & bit), (men_at & bit, kings_at & bit));
                }
                let blockers = capture_blockers(side, men, kings, enemy, empty, &rules);
                assert_eq!(blockers.is_some(), has_captures(&pos, &rules), "{pos:?}");
                capturing += usize::from(blockers.is_some());
                if let Some(blockers) = blockers {
                    // Each empty square, given a man of the side, leaves a capture exactly
                    // when it is not a blocker.
                    for sq in pos.empty() {
                        let bit = Bitboard::from_square(sq);
                        let at = capture_squares(side, enemy, empty ^ bit, true, &rules);
                        let still = (at.0 & pos.men(side)).any() || (at.1 & pos.kings(side)).any();
                        assert_eq!(still, !blockers.contains(sq), "{pos:?} {sq:?}");
                    }
                }
            }
        }
        // The games capture often enough for the test to mean something.
        assert!(capturing > 1000, "{capturing}");
    }
}
