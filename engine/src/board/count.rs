//! Perft's view of the rules: the successors of a position made directly as raw bitboards, and
//! the legal moves counted without making them.
//!
//! [`crate::board::generate_moves`] builds whole [`crate::types::Move`]s (landing paths,
//! captured sets) because the search and the notation need them; counting the leaves of the
//! move tree needs none of that. This module walks the same tree under the same rules (one
//! successor per capture sequence, exactly as the generator lists them), with no move objects
//! and no position copies beyond the successor itself. The rule switches and the side to move
//! are type parameters, so each of the eight combinations compiles to its own straight code and
//! no rule is looked up inside a loop.

use crate::board::Position;
use crate::types::{Bitboard, Color};

/// Every playable square in the padded layout of [`Bitboard`].
const ALL: u64 = Bitboard::ALL.bits();

/// A position seen from the side to move: its pieces, the opponent's pieces and every king, in
/// the padded layout of [`Bitboard`]. Whose turn it is lives in the type parameter `S` of the
/// functions that take a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Node {
    /// The pieces of the side to move.
    pub me: u64,
    /// The pieces of the other side.
    pub opp: u64,
    /// The kings of both sides.
    pub kings: u64,
}

impl Node {
    /// The node of `pos`, from its side to move.
    pub fn of(pos: &Position) -> Node {
        let side = pos.side_to_move();
        Node {
            me: pos.pieces(side).bits(),
            opp: pos.pieces(!side).bits(),
            kings: pos.all_kings().bits(),
        }
    }

    /// Black's and White's pieces, when `black_to_move` says whose turn it is.
    #[inline(always)]
    pub fn by_color(self, black_to_move: bool) -> (u64, u64) {
        if black_to_move {
            (self.me, self.opp)
        } else {
            (self.opp, self.me)
        }
    }
}

/// The side to move as a type, so that forward and backward are fixed shifts at compile time.
pub trait Side {
    /// The side that moves next.
    type Other: Side;
    /// The colour this type stands for.
    const COLOR: Color;
}

/// Black to move: men move toward higher square numbers (left shifts).
pub struct Black;
/// White to move: men move toward lower square numbers (right shifts).
pub struct White;

impl Side for Black {
    type Other = White;
    const COLOR: Color = Color::Black;
}

impl Side for White {
    type Other = Black;
    const COLOR: Color = Color::White;
}

/// One step forward for side `S`, by 4 or 5 bits (the two forward diagonals). The result may
/// hold ghost or out-of-range bits: callers mask it with a set of real squares.
#[inline(always)]
fn ahead<S: Side>(x: u64, d: u32) -> u64 {
    match S::COLOR {
        Color::Black => x << d,
        Color::White => x >> d,
    }
}

/// One step backward for side `S` (see [`ahead`]).
#[inline(always)]
fn behind<S: Side>(x: u64, d: u32) -> u64 {
    match S::COLOR {
        Color::Black => x >> d,
        Color::White => x << d,
    }
}

/// The row on which men of side `S` are crowned.
#[inline(always)]
fn crown_row<S: Side>() -> u64 {
    Bitboard::crowning_row(S::COLOR).bits()
}

/// The four directions as bit shifts: up-left, up-right (toward lower bits), down-left,
/// down-right (toward higher bits). Direction `3 - k` is the reverse of direction `k`.
#[inline(always)]
fn step(x: u64, dir: usize) -> u64 {
    match dir {
        0 => x >> 5,
        1 => x >> 4,
        2 => x << 4,
        _ => x << 5,
    }
}

/// For each direction and padded bit index, the real squares strictly beyond it.
static RAYS: [[u64; 64]; 4] = {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut b = 0;
        while b < 64 {
            if ALL & (1u64 << b) != 0 {
                let mut bits = 0u64;
                let mut cur = 1u64 << b;
                loop {
                    cur = match dir {
                        0 => cur >> 5,
                        1 => cur >> 4,
                        2 => cur << 4,
                        _ => cur << 5,
                    } & ALL;
                    if cur == 0 {
                        break;
                    }
                    bits |= cur;
                }
                rays[dir][b] = bits;
            }
            b += 1;
        }
        dir += 1;
    }
    rays
};

/// The first piece of `occ` a flying king on the one-bit set `at` meets in `dir` (empty when
/// the ray runs off the board).
#[inline(always)]
fn first_blocker(at: u64, dir: usize, occ: u64) -> u64 {
    let blockers = RAYS[dir][at.trailing_zeros() as usize] & occ;
    if blockers == 0 {
        0
    } else if dir >= 2 {
        // Toward higher bits the nearest blocker is the lowest bit.
        blockers & blockers.wrapping_neg()
    } else {
        1u64 << (63 - blockers.leading_zeros())
    }
}

/// The one-square subsets of a set, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0 & self.0.wrapping_neg();
        self.0 ^= bit;
        Some(bit)
    }
}

/// One step of side `S` forward (`forward`) or backward, by 4 or 5 bits.
#[inline(always)]
fn toward<S: Side>(x: u64, d: u32, forward: bool) -> u64 {
    if forward {
        ahead::<S>(x, d)
    } else {
        behind::<S>(x, d)
    }
}

/// The side to move's pieces sorted for move generation, and which of them must capture.
struct Movers {
    occ: u64,
    empty: u64,
    men: u64,
    kings: u64,
    /// Squares from which a man would have a first jump (the jumping men are `men & this`).
    man_takes: u64,
    men_cap: u64,
    kings_cap: u64,
}

impl Movers {
    #[inline(always)]
    fn of<const BACK: bool, const LONG: bool, S: Side>(node: Node) -> Movers {
        let occ = node.me | node.opp;
        let empty = ALL & !occ;
        let kings = node.me & node.kings;
        let men = node.me ^ kings;
        // A man on X jumps forward by d when X+d holds an enemy and X+2d is empty.
        let mut man_takes = (behind::<S>(node.opp, 4) & behind::<S>(empty, 8))
            | (behind::<S>(node.opp, 5) & behind::<S>(empty, 10));
        if BACK {
            man_takes |= (ahead::<S>(node.opp, 4) & ahead::<S>(empty, 8))
                | (ahead::<S>(node.opp, 5) & ahead::<S>(empty, 10));
        }
        let kings_cap = if kings != 0 {
            king_jumpers::<LONG>(kings, node.opp, empty)
        } else {
            0
        };
        Movers {
            occ,
            empty,
            men,
            kings,
            man_takes,
            men_cap: men & man_takes,
            kings_cap,
        }
    }
}

/// Kings that can capture, all at once.
#[inline(always)]
fn king_jumpers<const LONG: bool>(kings: u64, opp: u64, empty: u64) -> u64 {
    let mut from = 0;
    for dir in 0..4 {
        let back = 3 - dir;
        // Enemies with an empty square beyond them in `dir`, seen from one step back.
        let mut seen = step(opp & step(empty, back), back);
        if LONG {
            // ... or from further back along empty squares.
            let mut run = seen & empty;
            while run != 0 {
                run = step(run, back);
                seen |= run;
                run &= empty;
            }
        }
        from |= seen;
    }
    kings & from
}

/// Number of quiet moves of side `S` (used when it has no capture).
#[inline(always)]
fn quiet_count<const LONG: bool, S: Side>(men: u64, kings: u64, empty: u64) -> u64 {
    let mut n =
        (ahead::<S>(men, 4) & empty).count_ones() + (ahead::<S>(men, 5) & empty).count_ones();
    if kings != 0 {
        for dir in 0..4 {
            let mut run = step(kings, dir) & empty;
            n += run.count_ones();
            if LONG {
                while run != 0 {
                    run = step(run, dir) & empty;
                    n += run.count_ones();
                }
            }
        }
    }
    u64::from(n)
}

/// Where the capture sequences found by [`man_walk`] and [`king_walk`] go.
trait Sink {
    /// Whether the sink needs to know if a man has touched its crowning row.
    const CROWNS: bool;
    /// A sequence ends on the one-square set `at`, with `enemy` left on the board; `king` says
    /// whether the mover is a king when it stops.
    fn leaf(&mut self, at: u64, enemy: u64, king: bool);
}

/// Counts the sequences.
struct Tally(u64);

impl Sink for Tally {
    const CROWNS: bool = false;

    #[inline(always)]
    fn leaf(&mut self, _at: u64, _enemy: u64, _king: bool) {
        self.0 += 1;
    }
}

/// What [`for_each_child`] hands each successor to.
pub trait Visit {
    /// Takes one successor.
    fn visit(&mut self, child: Node);
}

/// Hands the successor of each sequence of the piece that started on `from` to `v`.
struct Emit<'a, V> {
    node: Node,
    from: u64,
    v: &'a mut V,
}

impl<V: Visit> Sink for Emit<'_, V> {
    const CROWNS: bool = true;

    #[inline(always)]
    fn leaf(&mut self, at: u64, enemy: u64, king: bool) {
        let captured = self.node.opp ^ enemy;
        let mut kings = self.node.kings & !(self.from | captured);
        if king {
            kings |= at;
        }
        self.v.visit(Node {
            me: enemy,
            opp: (self.node.me ^ self.from) | at,
            kings,
        });
    }
}

/// Follows every capture sequence a man of side `S` continues from the one-square set `at`.
/// `occ` holds every piece but the mover, `enemy` the enemy pieces, both without the pieces
/// captured so far (they leave the board at once); `crowned` says whether the man has touched
/// its crowning row (tracked only for sinks that need it).
fn man_walk<const BACK: bool, S: Side, K: Sink>(
    sink: &mut K,
    at: u64,
    occ: u64,
    enemy: u64,
    crowned: bool,
) {
    let free = ALL & !occ;
    let mut found = man_jump::<BACK, S, K, true, 4>(sink, at, occ, enemy, free, crowned);
    found |= man_jump::<BACK, S, K, true, 5>(sink, at, occ, enemy, free, crowned);
    if BACK {
        found |= man_jump::<BACK, S, K, false, 4>(sink, at, occ, enemy, free, crowned);
        found |= man_jump::<BACK, S, K, false, 5>(sink, at, occ, enemy, free, crowned);
    }
    if !found {
        sink.leaf(at, enemy, crowned);
    }
}

/// The jump of [`man_walk`] in one direction (`FORWARD`, by `D` bits), followed to its ends;
/// false when there is none.
#[inline(always)]
fn man_jump<const BACK: bool, S: Side, K: Sink, const FORWARD: bool, const D: u32>(
    sink: &mut K,
    at: u64,
    occ: u64,
    enemy: u64,
    free: u64,
    crowned: bool,
) -> bool {
    let over = toward::<S>(at, D, FORWARD) & enemy;
    let land = toward::<S>(over, D, FORWARD) & free;
    if land == 0 {
        return false;
    }
    let crowned = K::CROWNS && (crowned || land & crown_row::<S>() != 0);
    let (enemy, free) = (enemy ^ over, free ^ over);
    // Most sequences end after this jump: finish those here instead of in a call.
    if man_can_jump::<BACK, S>(land, enemy, free) {
        man_walk::<BACK, S, K>(sink, land, occ ^ over, enemy, crowned);
    } else {
        sink.leaf(land, enemy, crowned);
    }
    true
}

/// True when a man of side `S` on `at` has a jump over `enemy` onto `free`.
#[inline(always)]
fn man_can_jump<const BACK: bool, S: Side>(at: u64, enemy: u64, free: u64) -> bool {
    let jump =
        |forward: bool, d: u32| toward::<S>(toward::<S>(at, d, forward) & enemy, d, forward) & free;
    let mut land = jump(true, 4) | jump(true, 5);
    if BACK {
        land |= jump(false, 4) | jump(false, 5);
    }
    land != 0
}

/// Follows every capture sequence a king continues from `at` (see [`man_walk`]).
fn king_walk<const LONG: bool, K: Sink>(sink: &mut K, at: u64, occ: u64, enemy: u64) {
    let free = ALL & !occ;
    let mut found = false;
    for dir in 0..4 {
        let over = if LONG {
            first_blocker(at, dir, occ) & enemy
        } else {
            step(at, dir) & enemy
        };
        let land = step(over, dir) & free;
        if land != 0 {
            found = true;
            king_walk::<LONG, K>(sink, land, occ ^ over, enemy ^ over);
        }
    }
    if !found {
        sink.leaf(at, enemy, true);
    }
}

/// Number of capture sequences of the men of side `S`, all first jumps at once: a man that
/// lands on a square outside `m.man_takes` cannot jump again, so its move is complete. (The
/// square it left is empty now, but the only jump that could land there would cross the
/// piece it has just taken, which is off the board.) Only landings that can continue are
/// followed one by one.
#[inline(always)]
fn men_capture_count<const BACK: bool, S: Side>(node: Node, m: &Movers) -> u64 {
    let mut n = men_jumps::<BACK, S, true, 4>(node, m) + men_jumps::<BACK, S, true, 5>(node, m);
    if BACK {
        n += men_jumps::<BACK, S, false, 4>(node, m) + men_jumps::<BACK, S, false, 5>(node, m);
    }
    n
}

/// The part of [`men_capture_count`] whose first jump goes one way (`FORWARD`, by `D` bits).
#[inline(always)]
fn men_jumps<const BACK: bool, S: Side, const FORWARD: bool, const D: u32>(
    node: Node,
    m: &Movers,
) -> u64 {
    let land = toward::<S>(toward::<S>(m.men_cap, D, FORWARD) & node.opp, D, FORWARD) & m.empty;
    let mut n = u64::from((land & !m.man_takes).count_ones());
    let go_on = land & m.man_takes;
    if go_on != 0 {
        let mut tally = Tally(0);
        for at in Bits(go_on) {
            let over = toward::<S>(at, D, !FORWARD);
            let from = toward::<S>(over, D, !FORWARD);
            let occ = m.occ ^ from ^ over;
            man_walk::<BACK, S, Tally>(&mut tally, at, occ, node.opp ^ over, false);
        }
        n += tally.0;
    }
    n
}

/// The number of legal moves of `node`, side `S` to move, without making them.
#[inline(always)]
pub fn count<const BACK: bool, const LONG: bool, S: Side>(node: Node) -> u64 {
    let m = Movers::of::<BACK, LONG, S>(node);
    if m.men_cap | m.kings_cap == 0 {
        return quiet_count::<LONG, S>(m.men, m.kings, m.empty);
    }
    let mut n = 0;
    if m.men_cap != 0 {
        n += men_capture_count::<BACK, S>(node, &m);
    }
    let mut tally = Tally(0);
    for from in Bits(m.kings_cap) {
        king_walk::<LONG, Tally>(&mut tally, from, m.occ ^ from, node.opp);
    }
    n + tally.0
}

/// Calls `v` with the successor of `node` (side `S` to move) after each of its legal moves,
/// seen from the opponent, in no particular order.
#[inline(always)]
pub fn for_each_child<const BACK: bool, const LONG: bool, S: Side, V: Visit>(
    node: Node,
    v: &mut V,
) {
    let m = Movers::of::<BACK, LONG, S>(node);
    if m.men_cap | m.kings_cap != 0 {
        for from in Bits(m.men_cap) {
            let mut sink = Emit { node, from, v };
            man_walk::<BACK, S, _>(&mut sink, from, m.occ ^ from, node.opp, false);
        }
        for from in Bits(m.kings_cap) {
            let mut sink = Emit { node, from, v };
            king_walk::<LONG, _>(&mut sink, from, m.occ ^ from, node.opp);
        }
        return;
    }
    for d in [4, 5] {
        for to in Bits(ahead::<S>(m.men, d) & m.empty) {
            let from = behind::<S>(to, d);
            let crowned = if to & crown_row::<S>() != 0 { to } else { 0 };
            v.visit(Node {
                me: node.opp,
                opp: node.me ^ from ^ to,
                kings: node.kings | crowned,
            });
        }
    }
    for from in Bits(m.kings) {
        for dir in 0..4 {
            let mut to = step(from, dir) & m.empty;
            while to != 0 {
                v.visit(Node {
                    me: node.opp,
                    opp: node.me ^ from ^ to,
                    kings: node.kings ^ from ^ to,
                });
                to = if LONG { step(to, dir) & m.empty } else { 0 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{count_moves, fen, generate_moves, MoveList, Rules};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn count_any(node: Node, rules: &Rules, black: bool) -> u64 {
        match (rules.backward_capture, rules.long_kings, black) {
            (true, true, true) => count::<true, true, Black>(node),
            (true, false, true) => count::<true, false, Black>(node),
            (false, true, true) => count::<false, true, Black>(node),
            (false, false, true) => count::<false, false, Black>(node),
            (true, true, false) => count::<true, true, White>(node),
            (true, false, false) => count::<true, false, White>(node),
            (false, true, false) => count::<false, true, White>(node),
            (false, false, false) => count::<false, false, White>(node),
        }
    }

    fn children_any(node: Node, rules: &Rules, black: bool) -> Vec<Node> {
        struct Collect(Vec<Node>);
        impl Visit for Collect {
            fn visit(&mut self, child: Node) {
                self.0.push(child);
            }
        }
        let mut out = Collect(Vec::new());
        let f = &mut out;
        match (rules.backward_capture, rules.long_kings, black) {
            (true, true, true) => for_each_child::<true, true, Black, _>(node, f),
            (true, false, true) => for_each_child::<true, false, Black, _>(node, f),
            (false, true, true) => for_each_child::<false, true, Black, _>(node, f),
            (false, false, true) => for_each_child::<false, false, Black, _>(node, f),
            (true, true, false) => for_each_child::<true, true, White, _>(node, f),
            (true, false, false) => for_each_child::<true, false, White, _>(node, f),
            (false, true, false) => for_each_child::<false, true, White, _>(node, f),
            (false, false, false) => for_each_child::<false, false, White, _>(node, f),
        }
        out.0
    }

    /// Successors and counts equal those of the move generator (as multisets), position by
    /// position, on positions from random games under all four switch settings.
    #[test]
    fn agrees_with_the_generator_on_random_games() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
        let mut list = MoveList::new();
        let mut checked = 0;
        for backward_capture in [false, true] {
            for long_kings in [false, true] {
                let rules = Rules {
                    backward_capture,
                    long_kings,
                    ..Rules::default()
                };
                for game in 0..200 {
                    let mut pos = if game % 2 == 0 {
                        fen::parse("B:W21-32:B1-12").expect("start")
                    } else {
                        fen::parse("W:WK10,K27,18,22:BK5,K19,23,6").expect("kings")
                    };
                    for _ in 0..150 {
                        let black = pos.side_to_move() == Color::Black;
                        let node = Node::of(&pos);
                        generate_moves(&pos, &rules, &mut list);
                        assert_eq!(count_any(node, &rules, black), list.len() as u64);
                        assert_eq!(count_moves(&pos, &rules), list.len() as u64);
                        let mut ours = children_any(node, &rules, black);
                        let mut theirs: Vec<Node> = list
                            .iter()
                            .map(|&mv| {
                                let mut next = pos;
                                next.play_unchecked(mv);
                                Node::of(&next)
                            })
                            .collect();
                        ours.sort_by_key(|n| (n.me, n.opp, n.kings));
                        theirs.sort_by_key(|n| (n.me, n.opp, n.kings));
                        assert_eq!(ours, theirs, "{} under {rules:?}", fen::write(&pos));
                        checked += 1;
                        if list.is_empty() {
                            break;
                        }
                        let mv = list[rng.gen_range(0..list.len())];
                        pos.play_unchecked(mv);
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
