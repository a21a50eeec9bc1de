//! The Hub board and move notation for the 8x8 board.
//!
//! **Positions** are 33 characters: the side to move (`W` or `B`), then one character per
//! square 1..32 (`w`, `b` a man, `W`, `B` a king, `e` empty). **Moves** are `from-to` for a
//! quiet move (`11-15`, a flying king `1-28`) and `from x to x captured x captured ...` for a
//! capture (`15x24x19`), the captured squares in any order on input, ascending on output.
//!
//! How the squares and colours map onto buffgreen's board is a [`Numbering`]: the session's
//! `pos-encoding` ([`Encoding`]) resolved for the variant in play.
//!
//! - [`Encoding::Pydraughts`] (the default): what pydraughts 0.6.7's `HubEngine` sends for the
//!   variant, as the rules table says ([`HubBoard`]). For English checkers (and Buff and
//!   Green) the position is the standard board turned 180 degrees with the colours swapped
//!   (Hub square `n` is standard square `33 - n`, a `w` piece is Black's, `W` to move means
//!   Black to move; the start position is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` with Black to
//!   move), and moves use the standard numbering. For Russian and Brazilian draughts the
//!   position is literal (`W` to move is White, which moves first:
//!   `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` is their start), and moves number the squares from
//!   White's side, 1 = a1, 2 = c1, ... 32 = h8: buffgreen's squares with the rows in reverse
//!   order (the start's moves are `9-13` ... `12-16`).
//! - [`Encoding::Standard`]: the literal reading of the Hub specification with the standard
//!   1-32 numbering, for positions and moves: square `n` is square `n`, `w` is White, `W` to
//!   move means White to move.

use thiserror::Error;

use crate::board::{HubBoard, Position, PositionError, Variant};
use crate::hub::Choice;
use crate::protocol::command::shown;
use crate::types::{Bitboard, Color, Move, Square};

/// How a session's `pos=` strings and moves are written: the `pos-encoding` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// As pydraughts' Hub client writes the variant in play.
    #[default]
    Pydraughts,
    /// Square `n` is standard square `n`, colours as written, in positions and moves.
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

/// How one session's positions and moves map onto buffgreen's squares and colours: an
/// [`Encoding`] resolved for a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    /// pydraughts' way with the variant; `None` for the standard reading.
    board: Option<HubBoard>,
}

impl Numbering {
    /// The standard reading: buffgreen's squares and colours as written.
    pub const STANDARD: Numbering = Numbering { board: None };

    /// The numbering `encoding` means under `variant`.
    pub fn new(encoding: Encoding, variant: Variant) -> Numbering {
        Numbering {
            board: match encoding {
                Encoding::Pydraughts => Some(variant.hub_board()),
                Encoding::Standard => None,
            },
        }
    }

    /// The standard square and colour that position square `n` (1-based) and colour `c`
    /// mean; its own inverse.
    fn pos_square(self, n: u8, c: Color) -> (u8, Color) {
        match self.board {
            Some(HubBoard::Turned) => (33 - n, !c),
            _ => (n, c),
        }
    }

    /// The buffgreen square that move square `sq` names; its own inverse.
    fn move_square(self, sq: Square) -> Square {
        match self.board {
            Some(HubBoard::RowsReversed) => {
                Square::from_index((7 - sq.row()) * 4 + sq.index() as u8 % 4)
            }
            _ => sq,
        }
    }

    /// The number a move writes for buffgreen's square `sq`.
    fn move_number(self, sq: Square) -> u8 {
        self.move_square(sq).number()
    }

    /// Decodes a `pos=` string.
    pub fn parse_pos(self, text: &str) -> Result<Position, PosError> {
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
        let side = self.pos_square(1, side).1;
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
            // `i` < 32, so the number is in 1..=32 in every numbering.
            let (n, color) = self.pos_square(i as u8 + 1, color);
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

    /// Encodes a position as a `pos=` string (the inverse of [`Numbering::parse_pos`]).
    pub fn write_pos(self, pos: &Position) -> String {
        let mut s = String::with_capacity(33);
        s.push(self.pos_square(1, pos.side_to_move()).1.letter());
        for n in 1..=32u8 {
            // The mapping is its own inverse: the Hub square that shows standard square `m`.
            let (m, _) = self.pos_square(n, Color::Black);
            let c = match pos.piece_at(Square::from_index(m - 1)) {
                None => 'e',
                Some((color, piece)) => {
                    let letter = self.pos_square(n, color).1.letter();
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
    /// ascending order of the numbers written (as pydraughts writes them).
    pub fn write_move(self, mv: Move) -> String {
        let (from, to) = (self.move_number(mv.from()), self.move_number(mv.to()));
        if !mv.is_capture() {
            return format!("{from}-{to}");
        }
        let mut captured: Vec<u8> = mv
            .captured()
            .into_iter()
            .map(|sq| self.move_number(sq))
            .collect();
        captured.sort_unstable();
        let mut s = format!("{from}x{to}");
        for n in captured {
            s.push('x');
            s.push_str(&n.to_string());
        }
        s
    }

    /// Finds the legal move (one of `legal`) that a Hub move names: same start, same end, and
    /// for a capture the same captured squares in any order. Two capture paths with the same
    /// start, end and captured set lead to the same position; the first is taken.
    pub fn parse_move(self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
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
                    .map(|sq| self.move_square(sq))
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
                    // By the numbers written: an order that does not depend on the move
                    // generator.
                    let mut texts: Vec<(Vec<u8>, String)> = legal
                        .iter()
                        .map(|&m| {
                            let text = self.write_move(m);
                            let key = text
                                .split(['x', '-'])
                                .filter_map(|n| n.parse().ok())
                                .collect();
                            (key, text)
                        })
                        .collect();
                    texts.sort();
                    let texts: Vec<String> = texts.into_iter().map(|(_, t)| t).collect();
                    texts.join(" ")
                },
            })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fen, generate_moves, MoveList, Rules};

    /// What pydraughts sends for English checkers.
    const ENGLISH: Numbering = Numbering {
        board: Some(HubBoard::Turned),
    };
    const STANDARD: Numbering = Numbering::STANDARD;

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
            assert_eq!(ENGLISH.parse_pos(hub), Ok(pos), "{hub}");
            assert_eq!(ENGLISH.write_pos(&pos), hub);
        }
    }

    #[test]
    fn standard_reading_is_literal() {
        // The same start string is White to move in the standard reading.
        let hub = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        let pos = STANDARD.parse_pos(hub).unwrap();
        assert_eq!(
            fen::write(&pos),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(STANDARD.write_pos(&pos), hub);
        let pos = fen::parse("B:W18,K30:B14,K3").unwrap();
        let hub = "BeeBeeeeeeeeeebeeeweeeeeeeeeeeWee";
        assert_eq!(STANDARD.write_pos(&pos), hub);
        assert_eq!(STANDARD.parse_pos(hub), Ok(pos));
        // protocol.md's examples.
        let pos = fen::parse("W:W18,K30:B14,K3").unwrap();
        assert_eq!(
            STANDARD.write_pos(&pos),
            "WeeBeeeeeeeeeebeeeweeeeeeeeeeeWee"
        );
        assert_eq!(
            STANDARD.write_pos(&Position::startpos()),
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
    }

    #[test]
    fn bad_positions() {
        let e = |t: &str| ENGLISH.parse_pos(t).unwrap_err().to_string();
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
            assert_eq!(
                ENGLISH.parse_move(text, &l).unwrap().to_string(),
                long,
                "{text}"
            );
        }
        assert_eq!(
            ENGLISH.write_move(ENGLISH.parse_move("32x30x27x26", &l).unwrap()),
            "32x30x26x27"
        );
        // The ends alone are accepted when they name one capture.
        assert_eq!(
            ENGLISH.parse_move("14x30", &l).unwrap().to_string(),
            "14x23x30"
        );
        assert_eq!(
            ENGLISH.parse_move("14x30x18", &l).unwrap_err().to_string(),
            "illegal move '14x30x18'; legal moves: 14x30x18x26 32x30x26x27"
        );
        assert_eq!(
            ENGLISH.parse_move("14-18", &l).unwrap_err().to_string(),
            "illegal move '14-18'; legal moves: 14x30x18x26 32x30x26x27"
        );
        assert_eq!(
            ENGLISH.parse_move("14-33", &l).unwrap_err().to_string(),
            "bad move '14-33': expected from-to or fromxto[xcaptured...] with squares 1-32"
        );
        assert!(ENGLISH.parse_move("14", &l).is_err());
        assert!(ENGLISH.parse_move("14-18-22", &l).is_err());
        let start = legal("B:W21-32:B1-12");
        assert_eq!(
            ENGLISH.write_move(ENGLISH.parse_move("9-14", &start).unwrap()),
            "9-14"
        );
        assert_eq!(
            ENGLISH.parse_move("9-14", &[]).unwrap_err().to_string(),
            "illegal move '9-14'; legal moves: none"
        );
    }

    /// What pydraughts 0.6.7 sends for these positions under Russian and Brazilian rules (its
    /// `Board(variant=..., fen=...)._game.initial_hub_fen`), and the `hub_move` of every legal
    /// move, sorted; the Brazilian list differs where the majority rule bites.
    const FAMILY: [(&str, &str, &[&str], &[&str]); 4] = [
        (
            "W:W18,K30:B14,K3",
            "WeeBeeeeeeeeeebeeeweeeeeeeeeeeWee",
            &["14x21x18"],
            &["14x21x18"],
        ),
        (
            "B:W18,26,27,10:B14,K32",
            "BeeeeeeeeeweeebeeeweeeeeeewweeeeB",
            &["18x27x22", "18x2x6x14", "4x2x6x7"],
            &["18x2x6x14", "4x2x6x7"],
        ),
        (
            "W:W22,K31:B18,10,11,19",
            "WeeeeeeeeebbeeeeeebbeeweeeeeeeeWe",
            &["10x12x14x15", "10x26x14x22", "10x28x14x23"],
            &["10x12x14x15", "10x26x14x22", "10x28x14x23"],
        ),
        (
            "B:WK29,22,23,26:B14,9,K4",
            "BeeeBeeeebeeeebeeeeeeewweeweeWeee",
            &["32x5x10"],
            &["32x5x10"],
        ),
    ];

    #[test]
    fn russian_and_brazilian_as_pydraughts_writes_them() {
        for variant in [Variant::Russian, Variant::Brazilian] {
            let n = Numbering::new(Encoding::Pydraughts, variant);
            let rules = variant.rules();
            // The start: literal, White (on 21-32 here, on 1-12 in the moves) first.
            let start = Position::start(&rules);
            assert_eq!(n.write_pos(&start), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
            assert_eq!(n.parse_pos("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"), Ok(start));
            let mut list = MoveList::new();
            generate_moves(&start, &rules, &mut list);
            let mut moves: Vec<String> = list.iter().map(|&m| n.write_move(m)).collect();
            moves.sort();
            assert_eq!(
                moves,
                ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
            );
            assert_eq!(n.parse_move("9-13", &list).unwrap().to_string(), "21-17");
            for (fen_text, hub, russian, brazilian) in FAMILY {
                let pos = fen::parse(fen_text).unwrap();
                assert_eq!(n.write_pos(&pos), hub, "{fen_text}");
                assert_eq!(n.parse_pos(hub), Ok(pos), "{hub}");
                generate_moves(&pos, &rules, &mut list);
                let mut moves: Vec<String> = list.iter().map(|&m| n.write_move(m)).collect();
                moves.sort();
                let want = if variant == Variant::Russian {
                    russian
                } else {
                    brazilian
                };
                assert_eq!(moves, want, "{variant:?} {fen_text}");
                for text in want {
                    let mv = n.parse_move(text, &list).unwrap();
                    assert_eq!(n.write_move(mv), *text);
                }
            }
        }
        // Captured squares in any order; buffgreen's own squares in the standard reading.
        let n = Numbering::new(Encoding::Pydraughts, Variant::Russian);
        let mut list = MoveList::new();
        generate_moves(
            &fen::parse("B:W18,26,27,10:B14,K32").unwrap(),
            &Variant::Russian.rules(),
            &mut list,
        );
        assert_eq!(
            n.parse_move("18X2X14X6", &list).unwrap().to_string(),
            "14x23x30"
        );
        assert_eq!(
            STANDARD.write_move(n.parse_move("18x2x6x14", &list).unwrap()),
            "14x30x18x26"
        );
        assert_eq!(
            n.parse_move("18-14", &list).unwrap_err().to_string(),
            "illegal move '18-14'; legal moves: 4x2x6x7 18x2x6x14 18x27x22"
        );
        // Buff and Green is written as English is.
        assert_eq!(
            Numbering::new(Encoding::Pydraughts, Variant::BuffGreen),
            ENGLISH
        );
        assert_eq!(
            Numbering::new(Encoding::Standard, Variant::Russian),
            STANDARD
        );
    }
}
