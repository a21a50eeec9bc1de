//! A small network that corrects the evaluation in the ending (7 to 12 pieces), fitted to what
//! a full-width search sees there (`tune/src/bin/ending_net.rs`).
//!
//! The board is seen from the side to move (White's board is turned half a turn, so the mover
//! always runs up the board): 128 inputs, one a piece type (own man, own king, enemy man,
//! enemy king) and square, into [`HIDDEN`] units clipped to 0..1, into one output in
//! hundredths of a man that is added to [`super::evaluate`]. Integer inference: an ending
//! has at most 12 active inputs, so a fresh sum costs a few hundred additions and no
//! incremental update pays.

use super::net_weights::{B1, B2, W1, W2};
use crate::board::Position;
use crate::types::Color;

/// Hidden units.
pub const HIDDEN: usize = 32;
/// Inputs: four piece types times 32 squares.
pub const INPUTS: usize = 128;
/// Fewest pieces on the board where the network applies.
pub const MIN_PIECES: u32 = 7;
/// Most pieces on the board where the network applies.
pub const MAX_PIECES: u32 = 12;
/// A hidden unit's full activation in the integer weights.
pub const QA: i32 = 255;
/// The output weights' scale in the integer weights.
pub const QB: i32 = 64;

/// The active inputs of `pos` (at most 32) into `out`; returns how many.
pub fn inputs(pos: &Position, out: &mut [u8; 32]) -> usize {
    let me = pos.side_to_move();
    let turn = |sq: usize| match me {
        Color::Black => sq,
        Color::White => 31 - sq,
    };
    let kinds = [pos.men(me), pos.kings(me), pos.men(!me), pos.kings(!me)];
    let mut n = 0;
    for (kind, set) in kinds.into_iter().enumerate() {
        for sq in set {
            if n < out.len() {
                out[n] = (kind * 32 + turn(sq.index())) as u8;
                n += 1;
            }
        }
    }
    n
}

/// The network's correction for `pos`, in hundredths of a man for the side to move; 0 outside
/// [`MIN_PIECES`]..=[`MAX_PIECES`].
#[inline]
pub fn correction(pos: &Position) -> i32 {
    let pieces = pos.occupied().count();
    if !(MIN_PIECES..=MAX_PIECES).contains(&pieces) {
        return 0;
    }
    let mut active = [0u8; 32];
    let n = inputs(pos, &mut active);
    let mut acc = [0i32; HIDDEN];
    for (a, b) in acc.iter_mut().zip(B1.iter()) {
        *a = i32::from(*b);
    }
    for &i in &active[..n] {
        for (a, w) in acc.iter_mut().zip(W1[i as usize].iter()) {
            *a += i32::from(*w);
        }
    }
    let mut out = B2;
    for (a, w) in acc.iter().zip(W2.iter()) {
        out += (*a).clamp(0, QA) * w;
    }
    out / (QA * QB)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    #[test]
    fn the_inputs_are_seen_from_the_side_to_move() {
        // The same ending, once with Black to move and once turned half a turn with the
        // colours swapped and White to move: the mover sees the same board.
        let black = fen::parse("B:W20,21,22,K32:B3,8,12,14").unwrap();
        let white = fen::parse("W:W19,21,25,30:B11,12,13,K1").unwrap();
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        let (na, nb) = (inputs(&black, &mut a), inputs(&white, &mut b));
        let (mut a, mut b) = (a[..na].to_vec(), b[..nb].to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, vec![2, 7, 11, 13, 64 + 19, 64 + 20, 64 + 21, 96 + 31]);
        assert_eq!(a, b);
        assert_eq!(correction(&black), correction(&white));
    }

    #[test]
    fn no_correction_outside_the_ending() {
        let six = fen::parse("B:W20,21,22:B3,8,12").unwrap();
        let start =
            fen::parse("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
                .unwrap();
        assert_eq!(correction(&six), 0);
        assert_eq!(correction(&start), 0);
    }
}
