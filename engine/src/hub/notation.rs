//! The Hub board and move notation for the 8x8 board.
//!
//! **Positions** are 33 characters: the side to move (`W` or `B`), then one character per
//! square 1..32 (`w`, `b` a man, `W`, `B` a king, `e` empty). Two readings exist:
//!
//! - [`Encoding::Pydraughts`] (the default): what pydraughts 0.6.7 sends for English
//!   checkers. Its board is the standard one turned 180 degrees with the colours swapped: Hub
//!   square `n` is standard square `33 - n`, a `w` piece is Black's, a `b` piece White's, and
//!   `W` to move means Black to move. The start position is therefore
//!   `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` with Black to move.
//! - [`Encoding::Standard`]: the literal reading of the Hub specification with the standard
//!   1-32 numbering: square `n` is square `n`, `w` is White, `W` to move means White to move.
//!
//! **Moves** use the standard 1-32 numbering in both readings (pydraughts converts its moves,
//! not its positions): a quiet move is `from-to` (`11-15`, a flying king `1-28`); a capture is
//! `from x to x captured x captured ...` (`15x24x19`), the captured squares in any order.

use thiserror::Error;

use crate::board::{Position, PositionError};
use crate::hub::Choice;
use crate::protocol::command::shown;
use crate::types::{Bitboard, Color, Move, Square};

/// How a `pos=` string maps onto the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// Turned 180 degrees with the colours swapped, as pydraughts sends English positions.
    #[default]
    Pydraughts,
    /// Square `n` is standard square `n`, colours as written.
    Standard,
}

impl Choice for Encoding {
    fn all() -> Vec<(Encoding, &'static str)> {
        vec![
            (Encoding::Pydraughts, "pydraughts"),
            (Encoding::Standard, "standard"),
        ]
    }
}

impl Encoding {
    /// The standard square and colour that Hub square `n` (1-based) and colour `c` mean.
    fn standard(self, n: u8, c: Color) -> (u8, Color) {
        match self {
            Encoding::Pydraughts => (33 - n, !c),
            Encoding::Standard => (n, c),
        }
    }
}

/// Why a `pos=` string is not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PosError {
    /// Not 33 characters.
    #[error("bad position '{text}': expected 33 characters (side to move, then squares 1-32), got {len}")]
    Length {
        /// The text (shortened).
        text: String,
        /// Its length in characters.
        len: usize,
    },
    /// The first character is not `W` or `B`.
    #[error("bad position: side to move '{0}' is not W or B")]
    Side(char),
    /// A square character outside `wbWBe`.
    #[error("bad position: square {square} is '{c}', expected one of w b W B e")]
    Square {
        /// The 1-based square in the string.
        square: usize,
        /// The character found.
        c: char,
    },
    /// The pieces do not make a position.
    #[error("bad position: {0}")]
    Position(#[from] PositionError),
}

/// Why a move in Hub notation names no legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not `a-b` or `a x b x c ...` with squares 1-32.
    #[error("bad move '{0}': expected from-to or fromxto[xcaptured...] with squares 1-32")]
    Syntax(String),
    /// Well formed, but no legal move has these squares.
    #[error("illegal move '{text}'; legal moves: {legal}")]
    Illegal {
        /// The move as given (shortened).
        text: String,
        /// The legal moves in Hub notation (or `none`).
        legal: String,
    },
}

/// Decodes a `pos=` string.
pub fn parse_pos(text: &str, encoding: Encoding) -> Result<Position, PosError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(PosError::Length {
            text: shown(text),
            len: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' => Color::White,
        'B' => Color::Black,
        c => return Err(PosError::Side(c)),
    };
    let side = encoding.standard(1, side).1;
    let (mut black, mut white, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, &c) in chars[1..].iter().enumerate() {
        let (color, king) = match c {
            'e' => continue,
            'w' => (Color::White, false),
            'b' => (Color::Black, false),
            'W' => (Color::White, true),
            'B' => (Color::Black, true),
            c => return Err(PosError::Square { square: i + 1, c }),
        };
        // `i` < 32, so the number is in 1..=32 in both encodings.
        let (n, color) = encoding.standard(i as u8 + 1, color);
        let sq = Bitboard::from_square(Square::from_index(n - 1));
        match color {
            Color::Black => black |= sq,
            Color::White => white |= sq,
        }
        if king {
            kings |= sq;
        }
    }
    Ok(Position::new(side, black, white, kings)?)
}

/// Encodes a position as a `pos=` string (the inverse of [`parse_pos`]).
pub fn write_pos(pos: &Position, encoding: Encoding) -> String {
    let mut s = String::with_capacity(33);
    s.push(encoding.standard(1, pos.side_to_move()).1.letter());
    for n in 1..=32u8 {
        // The mapping is its own inverse: the Hub square that shows standard square `m`.
        let (m, _) = encoding.standard(n, Color::Black);
        let c = match pos.piece_at(Square::from_index(m - 1)) {
            None => 'e',
            Some((color, piece)) => {
                let letter = encoding.standard(n, color).1.letter();
                match piece {
                    crate::board::Piece::King => letter,
                    crate::board::Piece::Man => letter.to_ascii_lowercase(),
                }
            }
        };
        s.push(c);
    }
    s
}

/// A move in Hub notation: `from-to`, or `fromxto` followed by the captured squares in
/// ascending order.
pub fn write_move(mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    for sq in mv.captured() {
        s.push('x');
        s.push_str(&sq.to_string());
    }
    s
}

/// Finds the legal move (one of `legal`) that a Hub move names: same start, same end, and for
/// a capture the same captured squares in any order. Two capture paths with the same start,
/// end and captured set lead to the same position; the first is taken.
pub fn parse_move(text: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(shown(text));
    let capture = text.contains(['x', 'X']);
    let parts: Vec<&str> = if capture {
        text.split(['x', 'X']).collect()
    } else {
        text.split('-').collect()
    };
    let squares = parts
        .iter()
        .map(|p| {
            p.parse::<i64>()
                .ok()
                .and_then(|n| Square::new(n).ok())
                .ok_or_else(syntax)
        })
        .collect::<Result<Vec<Square>, MoveError>>()?;
    let (from, to, captured) = match squares.as_slice() {
        [from, to] if !capture => (*from, *to, None),
        [from, to, rest @ ..] if capture => (*from, *to, Some(rest)),
        _ => return Err(syntax()),
    };
    legal
        .iter()
        .copied()
        .find(|m| {
            m.from() == from
                && m.to() == to
                && match captured {
                    None => !m.is_capture(),
                    // The short form `fromxto` is taken when it names one capture only.
                    Some([]) => {
                        m.is_capture()
                            && legal
                                .iter()
                                .filter(|o| o.from() == from && o.to() == to && o.is_capture())
                                .map(|o| o.captured())
                                .all(|c| c == m.captured())
                    }
                    Some(list) => {
                        m.is_capture()
                            && list.len() == m.captured().count() as usize
                            && list.iter().copied().collect::<Bitboard>() == m.captured()
                    }
                }
        })
        .ok_or_else(|| MoveError::Illegal {
            text: shown(text),
            legal: if legal.is_empty() {
                "none".to_string()
            } else {
                // By start, end, captured squares: an order that does not depend on the move
                // generator.
                let mut sorted = legal.to_vec();
                sorted.sort_by_key(|m| (m.from(), m.to(), m.captured().bits()));
                let texts: Vec<String> = sorted.into_iter().map(write_move).collect();
                texts.join(" ")
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fen, generate_moves, MoveList, Rules};

    /// What pydraughts 0.6.7 sends for these English positions (recorded from its
    /// `Board(variant='english', fen=...)._game.initial_hub_fen`).
    const PYDRAUGHTS: [(&str, &str); 4] = [
        ("B:W21-32:B1-12", "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
        ("W:W18,K30:B14,K3", "BeeBeeeeeeeeeeebeeeweeeeeeeeeeWee"),
        ("B:W18,22,23:B14,9", "Weeeeeeeeebbeeebeeeweeeeweeeeeeee"),
        (
            "B:W18,26,27,10:B14,K32",
            "WWeeeebbeeeeeeebeeeweeebeeeeeeeee",
        ),
    ];

    fn legal(fen_text: &str) -> Vec<Move> {
        let mut list = MoveList::new();
        generate_moves(&fen::parse(fen_text).unwrap(), &Rules::ENGLISH, &mut list);
        list.to_vec()
    }

    #[test]
    fn pydraughts_positions_read_turned_and_swapped() {
        for (fen_text, hub) in PYDRAUGHTS {
            let pos = fen::parse(fen_text).unwrap();
            assert_eq!(parse_pos(hub, Encoding::Pydraughts), Ok(pos), "{hub}");
            assert_eq!(write_pos(&pos, Encoding::Pydraughts), hub);
        }
    }

    #[test]
    fn standard_reading_is_literal() {
        // The same start string is White to move in the standard reading.
        let hub = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        let pos = parse_pos(hub, Encoding::Standard).unwrap();
        assert_eq!(
            fen::write(&pos),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(write_pos(&pos, Encoding::Standard), hub);
        let pos = fen::parse("B:W18,K30:B14,K3").unwrap();
        let hub = "BeeBeeeeeeeeeebeeeweeeeeeeeeeeWee";
        assert_eq!(write_pos(&pos, Encoding::Standard), hub);
        assert_eq!(parse_pos(hub, Encoding::Standard), Ok(pos));
        // protocol.md's examples.
        let pos = fen::parse("W:W18,K30:B14,K3").unwrap();
        assert_eq!(
            write_pos(&pos, Encoding::Standard),
            "WeeBeeeeeeeeeebeeeweeeeeeeeeeeWee"
        );
        assert_eq!(
            write_pos(&Position::startpos(), Encoding::Standard),
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
    }

    #[test]
    fn bad_positions() {
        let e = |t: &str| parse_pos(t, Encoding::Pydraughts).unwrap_err().to_string();
        assert_eq!(
            e("Wbbb"),
            "bad position 'Wbbb': expected 33 characters (side to move, then squares 1-32), got 4"
        );
        assert_eq!(
            e("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
            "bad position: side to move 'X' is not W or B"
        );
        assert_eq!(
            e("Wbbbbbbbbbbbbeeeeeeee.wwwwwwwwwww"),
            "bad position: square 21 is '.', expected one of w b W B e"
        );
        // A pydraughts `w` man on Hub square 1 is a Black man on 32: its crowning row.
        assert_eq!(
            e("Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"),
            "bad position: black man on 32 stands on its own crowning row"
        );
    }

    #[test]
    fn moves_both_ways() {
        // pydraughts' own hub_move strings for these positions.
        let l = legal("B:W18,26,27,10:B14,K32");
        for (text, long) in [
            ("32x30x27x26", "32x23x30"),
            ("32x30x26x27", "32x23x30"),
            ("14x30x18x26", "14x23x30"),
            ("14X30X26X18", "14x23x30"),
        ] {
            assert_eq!(parse_move(text, &l).unwrap().to_string(), long, "{text}");
        }
        assert_eq!(
            write_move(parse_move("32x30x27x26", &l).unwrap()),
            "32x30x26x27"
        );
        // The ends alone are accepted when they name one capture.
        assert_eq!(parse_move("14x30", &l).unwrap().to_string(), "14x23x30");
        assert_eq!(
            parse_move("14x30x18", &l).unwrap_err().to_string(),
            "illegal move '14x30x18'; legal moves: 14x30x18x26 32x30x26x27"
        );
        assert_eq!(
            parse_move("14-18", &l).unwrap_err().to_string(),
            "illegal move '14-18'; legal moves: 14x30x18x26 32x30x26x27"
        );
        assert_eq!(
            parse_move("14-33", &l).unwrap_err().to_string(),
            "bad move '14-33': expected from-to or fromxto[xcaptured...] with squares 1-32"
        );
        assert!(parse_move("14", &l).is_err());
        assert!(parse_move("14-18-22", &l).is_err());
        let start = legal("B:W21-32:B1-12");
        assert_eq!(write_move(parse_move("9-14", &start).unwrap()), "9-14");
        assert_eq!(
            parse_move("9-14", &[]).unwrap_err().to_string(),
            "illegal move '9-14'; legal moves: none"
        );
    }
}
