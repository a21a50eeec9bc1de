//! Zobrist keys of positions: one random 128-bit number per (colour, kind, square), XORed over
//! the pieces on the board, plus one for the side to move. Two positions with the same pieces
//! and side have the same key; different ones differ except by chance (2^-128 per pair).

use crate::board::count::Node;
use crate::types::Color;

/// One step of SplitMix64: a fixed sequence of well-mixed 64-bit numbers.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys by piece kind (black man, white man, black king, white king) and padded bit index,
/// then the side-to-move key and one key per perft depth.
struct Keys {
    pieces: [[u128; 64]; 4],
    white_to_move: u128,
    depth: [u128; 64],
}

static KEYS: Keys = {
    let mut state = 0x2026_1125_0000_0026u64;
    let mut keys = Keys {
        pieces: [[0; 64]; 4],
        white_to_move: 0,
        depth: [0; 64],
    };
    let mut i = 0;
    while i < 4 * 64 + 1 + 64 {
        let (s, hi) = splitmix(state);
        let (s, lo) = splitmix(s);
        state = s;
        let key = ((hi as u128) << 64) | lo as u128;
        if i < 4 * 64 {
            keys.pieces[i / 64][i % 64] = key;
        } else if i == 4 * 64 {
            keys.white_to_move = key;
        } else {
            keys.depth[i - 4 * 64 - 1] = key;
        }
        i += 1;
    }
    keys
};

/// XOR of the keys of kind `kind` over the squares of `set` (padded bits).
#[inline(always)]
fn fold(kind: usize, mut set: u64) -> u128 {
    let mut key = 0;
    while set != 0 {
        key ^= KEYS.pieces[kind][set.trailing_zeros() as usize];
        set &= set - 1;
    }
    key
}

/// The key of `node` with `side` to move.
#[inline]
pub fn key(node: Node, side: Color) -> u128 {
    let (black, white) = node.by_color(side == Color::Black);
    let mut key = fold(0, black & !node.kings)
        ^ fold(1, white & !node.kings)
        ^ fold(2, black & node.kings)
        ^ fold(3, white & node.kings);
    if side == Color::White {
        key ^= KEYS.white_to_move;
    }
    key
}

/// The key that, XORed into a position's key, tells subtrees of different depths apart
/// (depths above 63 share a key with depth % 64; perft is capped far below).
#[inline]
pub fn depth_key(depth: u32) -> u128 {
    KEYS.depth[(depth % 64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fen, generate_moves, MoveList, Rules};

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u128> = KEYS.pieces.iter().flatten().copied().collect();
        all.push(KEYS.white_to_move);
        all.extend(KEYS.depth);
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 4 * 64 + 1 + 64);
    }

    #[test]
    fn transpositions_share_a_key_and_different_positions_do_not() {
        let rules = Rules::ENGLISH;
        let start = fen::parse("B:W21-32:B1-12").expect("start");
        // 9-13 22-18 10-14 and 10-14 22-18 9-13 reach the same position.
        let play = |moves: &[&str]| {
            let mut game = crate::board::Game::new(start, 0, rules);
            for m in moves {
                game.play_str(m).expect("legal");
            }
            *game.position()
        };
        let a = play(&["9-13", "22-18", "10-14"]);
        let b = play(&["10-14", "22-18", "9-13"]);
        assert_eq!(a, b);
        let ka = key(Node::of(&a), a.side_to_move());
        assert_eq!(ka, key(Node::of(&b), b.side_to_move()));
        // Every successor of the start position has its own key, and none equals the start's.
        let mut list = MoveList::new();
        generate_moves(&start, &rules, &mut list);
        let mut keys = vec![key(Node::of(&start), start.side_to_move())];
        for &mv in list.iter() {
            let mut next = start;
            next.play_unchecked(mv);
            keys.push(key(Node::of(&next), next.side_to_move()));
        }
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        // The side to move is part of the key.
        let flipped = start.with_side_to_move(Color::White);
        assert_ne!(
            key(Node::of(&start), Color::Black),
            key(Node::of(&flipped), Color::White)
        );
    }
}
