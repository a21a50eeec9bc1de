//! A position: where the pieces stand and whose turn it is.

use std::fmt;

use thiserror::Error;

use crate::board::Rules;
use crate::types::{Bitboard, Color, Move, Square};

/// The kind of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Piece {
    /// Moves forward only (and captures backward too under `BackwardCapture`).
    Man,
    /// Moves in all four directions.
    King,
}

/// Why a set of pieces is not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Two pieces on one square.
    #[error("square {0} is given twice")]
    SquareTwice(Square),
    /// A man standing on the row where it would already have been crowned.
    #[error("{color} man on {square} stands on its own crowning row")]
    ManOnCrowningRow {
        /// Its colour.
        color: Color,
        /// Its square.
        square: Square,
    },
}

/// The pieces of both sides and the side to move. The no-progress clock and the rules live in
/// [`crate::board::Game`]: a position alone is what FEN describes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    side: Color,
}

impl Position {
    /// The start position: Black on 1-12, White on 21-32, Black to move.
    pub fn startpos() -> Position {
        let black = Square::ALL[..12].iter().copied().collect();
        let white = Square::ALL[20..].iter().copied().collect();
        Position {
            pieces: [black, white],
            kings: Bitboard::EMPTY,
            side: Color::Black,
        }
    }

    /// The start position of a game under `rules`: [`Position::startpos`]'s pieces, White to
    /// move where the rule set says White moves first (Russian, Brazilian).
    pub fn start(rules: &Rules) -> Position {
        let side = if rules.white_first {
            Color::White
        } else {
            Color::Black
        };
        Position::startpos().with_side_to_move(side)
    }

    /// A position from its parts, checked: no square twice, no man on its crowning row.
    pub fn new(
        side: Color,
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (black & white).first() {
            return Err(PositionError::SquareTwice(sq));
        }
        let kings = kings & (black | white);
        for color in [Color::Black, Color::White] {
            let men = [black, white][color.index()] & !kings;
            if let Some(square) = (men & Bitboard::crowning_row(color)).first() {
                return Err(PositionError::ManOnCrowningRow { color, square });
            }
        }
        Ok(Position {
            pieces: [black, white],
            kings,
            side,
        })
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[inline]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// The men of `color`.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces[color.index()] & !self.kings
    }

    /// The kings of `color`.
    #[inline]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.pieces[color.index()] & self.kings
    }

    /// All kings of both sides.
    #[inline]
    pub const fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        let color = if self.pieces[0].contains(sq) {
            Color::Black
        } else if self.pieces[1].contains(sq) {
            Color::White
        } else {
            return None;
        };
        let piece = if self.kings.contains(sq) {
            Piece::King
        } else {
            Piece::Man
        };
        Some((color, piece))
    }

    /// The same pieces with `side` to move.
    pub fn with_side_to_move(mut self, side: Color) -> Position {
        self.side = side;
        self
    }

    /// Plays a move produced by the move generator for this position. Unchecked: the caller
    /// guarantees legality (the search's fast path). Use [`crate::board::Game::play`] or
    /// [`Position::play_checked`] for moves from outside.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side.index();
        let from = Bitboard::from_square(mv.from());
        let to = Bitboard::from_square(mv.to());
        // Remove the captured pieces first: a capture may end on the square of a piece it
        // jumped earlier, and that square must then hold the mover (with its king bit).
        let captured = mv.captured();
        self.pieces[us ^ 1] &= !captured;
        self.kings &= !captured;
        // XOR, not OR: a capture may end on its own start square.
        let delta = from ^ to;
        if self.kings.intersects(from) {
            self.kings ^= delta;
        } else if mv.crowns() {
            self.kings |= to;
        }
        self.pieces[us] ^= delta;
        self.side = !self.side;
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Display for Position {
    /// A diagram as seen from White's side (square 1 top left), `b`/`w` men, `B`/`W` kings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   +-----------------+")?;
        for row in 0..8u8 {
            write!(f, " {} |", 8 - row)?;
            for file in 0..8u8 {
                let dark = (row + file) % 2 == 1;
                let c = if dark {
                    let sq = Square::from_index(row * 4 + file / 2);
                    match self.piece_at(sq) {
                        Some((Color::Black, Piece::Man)) => 'b',
                        Some((Color::Black, Piece::King)) => 'B',
                        Some((Color::White, Piece::Man)) => 'w',
                        Some((Color::White, Piece::King)) => 'W',
                        None => '.',
                    }
                } else {
                    ' '
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " |")?;
        }
        writeln!(f, "   +-----------------+")?;
        write!(f, "     a b c d e f g h")
    }
}
