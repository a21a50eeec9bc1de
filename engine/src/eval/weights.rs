//! The evaluation's parameters: one flat vector per rule set, in a layout shared by the
//! evaluation ([`super`]) and the fitting tool (`tune/src/bin/tune.rs`), and the tables the
//! evaluation reads, built from a vector at compile time.
//!
//! Every term is linear in a parameter, so that the parameters can be fitted to game outcomes
//! by logistic regression (Texel's method): a position's features are the counts that
//! [`super::features`] lists, its evaluation is their dot product with the vector.
//! Square terms are tapered by the number of pieces on the board: the middle-game value
//! counts fully with 24 pieces, the endgame value with none.

use crate::types::Color;

/// Men: one value a square, in the man's own view (index 0-3 its own back row, 24-27 one step
/// from crowning), middle game.
pub const MAN_MG: usize = 0;
/// Men, endgame.
pub const MAN_EG: usize = 28;
/// Kings: one value a square, folded by the board's half-turn symmetry (square `n` and `33 - n`
/// share a value; the index is `min(i, 31 - i)` of the 0-based square), middle game.
pub const KING_MG: usize = 56;
/// Kings, endgame.
pub const KING_EG: usize = 72;
/// Each free forward step of a man (an empty square diagonally ahead).
pub const MAN_MOBILITY: usize = 88;
/// Each free step of a king (an empty neighbouring square).
pub const KING_MOBILITY: usize = 89;
/// Having the move.
pub const TEMPO: usize = 90;
/// Each runaway man ([`super::knowledge`]) while the enemy has no king.
pub const RUNAWAY: usize = 91;
/// Each runaway man while the enemy has a king (which may still catch it).
pub const RUNAWAY_VS_KINGS: usize = 92;
/// Each trapped king (no empty neighbouring square).
pub const TRAPPED_KING: usize = 93;
/// A man stuck in the dog-hole.
pub const DOG_HOLE: usize = 94;
/// Having kings when the enemy has none.
pub const FIRST_KING: usize = 95;
/// "The move" in endings of equal numbers, endgame (counts fully with no piece on the board,
/// not at all with 24).
pub const THE_MOVE: usize = 96;
/// Trading down when ahead: the piece difference over the pieces on the board, times 24.
pub const TRADE_DOWN: usize = 97;
/// The own back row: one value for each of the 16 patterns of its men (bit `i` the man on
/// own index `i`), middle game (counts fully with 24 pieces, not at all with none).
pub const BACK_RANK: usize = 98;
/// The number of parameters.
pub const PARAMS: usize = 114;

/// Pieces on the board at which the middle-game values count fully.
pub const PHASE_PIECES: i32 = 24;

/// A parameter vector, in hundredths of a man.
pub type Weights = [i32; PARAMS];

/// The man's square index in its own view (0..28): Black's men run from 1 to 28 as they
/// advance, White's from 32 down to 5.
#[inline]
pub const fn man_index(color: Color, square: usize) -> usize {
    match color {
        Color::Black => square,
        Color::White => 31 - square,
    }
}

/// The king's folded square index (0..16).
#[inline]
pub const fn king_index(square: usize) -> usize {
    if square < 16 {
        square
    } else {
        31 - square
    }
}

/// Flying kings (Buff and Green, the default): fitted to the outcomes of self-play games
/// (`tune/src/bin/datagen.rs`, `tune/src/bin/tune.rs`).
#[rustfmt::skip]
pub const LONG: Weights = [
    // Men, middle game: own back row first, a row of 4 a line.
    349, 389, 325, 293,
    320, 345, 351, 302,
    301, 319, 273, 296,
    320, 275, 282, 282,
    265, 152, 238, 287,
    326, 162, 94, 150,
    287, 216, 213, 348,
    // Men, endgame.
    141, 138, 200, 124,
    121, 164, 172, 158,
    151, 188, 207, 149,
    144, 218, 228, 171,
    220, 268, 249, 168,
    223, 332, 366, 321,
    432, 426, 429, 366,
    // Kings, middle game: squares 1-16 (and 32-17).
    261, 277, 289, 364,
    273, 299, 278, 312,
    274, 276, 305, 307,
    305, 288, 280, 277,
    // Kings, endgame.
    366, 344, 356, 335,
    391, 263, 255, 249,
    284, 259, 258, 352,
    363, 278, 269, 272,
    // Man mobility, king mobility, tempo.
    12, 32, 5,
    // Runaway men (enemy without kings, with kings), trapped king, dog-hole, first king,
    // the move, trade-down.
    22, 23, -50, -149,
    125, 4, 5,
    // Back-row patterns, middle game.
    -25, -37, 18, 4,
    -7, 14, -4, 4,
    -44, 12, 22, 7,
    -20, 43, 1, 13,
];

/// Short kings (English rules): fitted the same way to English self-play games. (A refit on
/// games cut at their first tabled position won at 10,000 iterations a move, the tables
/// adjudicating from 6 pieces, and lost at 37,000 played out, so it was taken back:
/// docs/strength.md.)
#[rustfmt::skip]
pub const SHORT: Weights = [
    // Men, middle game: own back row first, a row of 4 a line.
    204, 229, 196, 155,
    185, 202, 219, 182,
    172, 199, 161, 167,
    159, 158, 176, 129,
    131, 108, 120, 134,
    148, 133, 101, 115,
    203, 172, 162, 149,
    // Men, endgame.
    88, 102, 96, 64,
    86, 95, 67, 65,
    91, 57, 106, 75,
    94, 86, 85, 113,
    113, 136, 135, 118,
    109, 133, 169, 130,
    102, 130, 131, 141,
    // Kings, middle game: squares 1-16 (and 32-17).
    174, 241, 256, 192,
    170, 251, 254, 240,
    261, 280, 282, 222,
    250, 274, 264, 206,
    // Kings, endgame.
    131, 96, 89, 79,
    131, 90, 86, 71,
    88, 76, 69, 100,
    90, 79, 91, 98,
    // Man mobility, king mobility, tempo.
    6, 3, 0,
    // Runaway men (enemy without kings, with kings), trapped king, dog-hole, first king,
    // the move, trade-down.
    5, 5, -29, -33,
    35, 6, -6,
    // Back-row patterns, middle game.
    -11, -23, -33, -4,
    -11, 13, 2, 12,
    8, -15, 8, 19,
    -36, 15, 19, 36,
];

/// What the evaluation reads: the square values expanded to the bits of the padded board
/// layout (see [`crate::types::Bitboard`]) for each colour, each entry a middle-game and an
/// endgame value packed into one word ([`pack`]), so that one lookup and one addition a piece
/// sum both phases.
pub struct Tables {
    /// Men by colour and padded bit.
    pub man: [[i32; 64]; 2],
    /// Kings by padded bit.
    pub king: [i32; 64],
    /// See [`MAN_MOBILITY`].
    pub man_mobility: i32,
    /// See [`KING_MOBILITY`].
    pub king_mobility: i32,
    /// See [`TEMPO`].
    pub tempo: i32,
    /// See [`RUNAWAY`] and [`RUNAWAY_VS_KINGS`], by whether the enemy has kings.
    pub runaway: [i32; 2],
    /// See [`TRAPPED_KING`].
    pub trapped_king: i32,
    /// See [`DOG_HOLE`].
    pub dog_hole: i32,
    /// See [`FIRST_KING`].
    pub first_king: i32,
    /// See [`THE_MOVE`], packed as an endgame value.
    pub the_move: i32,
    /// See [`TRADE_DOWN`].
    pub trade_down: i32,
    /// See [`BACK_RANK`], packed as middle-game values.
    pub back_rank: [i32; 16],
}

/// The largest square value [`tables`] accepts: sums over 24 pieces stay within the 16 bits
/// of a packed half.
pub const MAX_SQUARE_VALUE: i32 = 1_000;

/// A middle-game and an endgame value in one word: `mg * 65536 + eg`. Sums and differences
/// of packed words are the packed sums and differences while each half stays within 16 bits.
#[inline]
pub const fn pack(mg: i32, eg: i32) -> i32 {
    mg * 65_536 + eg
}

/// The two values of a packed word (`(middle game, endgame)`), exactly.
#[inline]
pub const fn unpack(word: i32) -> (i32, i32) {
    let eg = word as i16 as i32;
    ((word - eg) >> 16, eg)
}

/// The tables of a parameter vector. Fails to compile when a square value is larger than
/// [`MAX_SQUARE_VALUE`].
pub const fn tables(w: &Weights) -> Tables {
    let mut t = Tables {
        man: [[0; 64]; 2],
        king: [0; 64],
        man_mobility: w[MAN_MOBILITY],
        king_mobility: w[KING_MOBILITY],
        tempo: w[TEMPO],
        runaway: [w[RUNAWAY], w[RUNAWAY_VS_KINGS]],
        trapped_king: w[TRAPPED_KING],
        dog_hole: w[DOG_HOLE],
        first_king: w[FIRST_KING],
        the_move: pack(0, w[THE_MOVE]),
        trade_down: w[TRADE_DOWN],
        back_rank: [0; 16],
    };
    let mut p = 0;
    while p < 16 {
        t.back_rank[p] = pack(w[BACK_RANK + p], 0);
        p += 1;
    }
    let mut k = 0;
    while k < PARAMS {
        assert!(w[k] >= -MAX_SQUARE_VALUE && w[k] <= MAX_SQUARE_VALUE);
        k += 1;
    }
    let mut s = 0;
    while s < 32 {
        let bit = s + s / 8;
        let colors = [Color::Black, Color::White];
        let mut c = 0;
        while c < 2 {
            let i = man_index(colors[c], s);
            // A man never stands on its crowning row; those entries stay 0.
            if i < 28 {
                t.man[c][bit] = pack(w[MAN_MG + i], w[MAN_EG + i]);
            }
            c += 1;
        }
        t.king[bit] = pack(w[KING_MG + king_index(s)], w[KING_EG + king_index(s)]);
        s += 1;
    }
    t
}

/// The tables for flying kings.
pub static LONG_TABLES: Tables = tables(&LONG);
/// The tables for short kings.
pub static SHORT_TABLES: Tables = tables(&SHORT);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_words_add_and_unpack_exactly() {
        let pairs = [
            (0, 0),
            (289, 215),
            (-5, 7),
            (12, -431),
            (-1000, -1000),
            (1000, 999),
        ];
        for (mg, eg) in pairs {
            assert_eq!(unpack(pack(mg, eg)), (mg, eg));
        }
        // Sums of 24 extreme values on one side against none on the other.
        let mut total = 0;
        for _ in 0..24 {
            total += pack(MAX_SQUARE_VALUE, -MAX_SQUARE_VALUE);
        }
        assert_eq!(unpack(total), (24_000, -24_000));
        let diff = pack(250, 376) * 3 - pack(283, -12) * 5;
        assert_eq!(unpack(diff), (3 * 250 - 5 * 283, 3 * 376 + 5 * 12));
    }

    #[test]
    fn tables_place_values_on_the_padded_bits() {
        let t = tables(&LONG);
        // Square 1 (index 0, bit 0): Black's back row, White's crowning row.
        assert_eq!(unpack(t.man[0][0]), (LONG[MAN_MG], LONG[MAN_EG]));
        assert_eq!(t.man[1][0], 0);
        // Square 32 (index 31, bit 34): White's back row.
        assert_eq!(unpack(t.man[1][34]), (LONG[MAN_MG], LONG[MAN_EG]));
        // Square 9 (index 8, bit 9): a king folds onto 9, a white man stands on own index 23.
        assert_eq!(unpack(t.king[9]), (LONG[KING_MG + 8], LONG[KING_EG + 8]));
        assert_eq!(unpack(t.man[1][9]), (LONG[MAN_MG + 23], LONG[MAN_EG + 23]));
        // Ghost bits hold nothing.
        assert_eq!((t.man[0][8], t.man[1][17], t.king[26]), (0, 0, 0));
    }
}
