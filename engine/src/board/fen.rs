//! PDN FEN: `B:W21-32:B1-12`, parsed with one small `nom` parser per production.
//!
//! Accepted: turn `B`/`W` in either case, the two colour sections in either order, `K` before a
//! king, ranges (`1-12`, `K1-4`), empty sections (`B:W18:B`), an optional trailing `.`, an
//! optional `[FEN "..."]` wrapper and surrounding whitespace, and algebraic squares (`d6`,
//! `Kb8`: PDN's algebraic FEN for 8x8 game types; ranges take numbers). Written: the canonical
//! `B:W21,22,...:B1,2,...` with squares ascending and kings inline.

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, multispace0, one_of};
use nom::combinator::{all_consuming, cut, map, opt, recognize};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::multi::many0;
use nom::sequence::{delimited, pair, preceded, tuple};
use nom::{Finish, IResult};
use thiserror::Error;

use crate::board::notation::printable;
use crate::board::{Position, PositionError};
use crate::types::{Bitboard, Color, Square, SquareError};

/// Why a FEN string was refused. Offsets are 0-based character positions in the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but whitespace.
    #[error("empty FEN")]
    Empty,
    /// The side to move is not `B` or `W`.
    #[error("bad turn '{0}': expected B or W")]
    BadTurn(String),
    /// The text does not follow the grammar.
    #[error("bad FEN at column {at}: expected {expected}, found '{found}'")]
    Syntax {
        /// Where.
        at: usize,
        /// What the grammar wanted there.
        expected: &'static str,
        /// What stands there (a few characters).
        found: String,
    },
    /// Characters left after a complete FEN.
    #[error("trailing characters at column {at}: '{text}'")]
    TrailingJunk {
        /// Where they start.
        at: usize,
        /// The first few of them.
        text: String,
    },
    /// A square number outside 1..=32 (or too long to be read as a number).
    #[error("{0}")]
    Square(#[from] SquareError),
    /// A range written with algebraic squares.
    #[error("range {0}-{1}: a range takes square numbers, like 1-12")]
    AlgebraicRange(String, String),
    /// A range whose end is below its start.
    #[error("range {0}-{1} is empty")]
    EmptyRange(u32, u32),
    /// Both sections name the same colour.
    #[error("the {0} section is given twice")]
    ColorTwice(Color),
    /// The pieces do not form a position.
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// A parse failure inside the grammar: where, and the innermost thing that was expected.
#[derive(Debug)]
struct Failure<'a> {
    input: &'a str,
    expected: Option<&'static str>,
    eof: bool,
}

impl<'a> ParseError<&'a str> for Failure<'a> {
    fn from_error_kind(input: &'a str, kind: ErrorKind) -> Self {
        Failure {
            input,
            expected: None,
            eof: kind == ErrorKind::Eof,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        // Keep whichever alternative got further; on a tie, the one that says what it wanted.
        let further = other.input.len() < self.input.len();
        let tie = other.input.len() == self.input.len();
        if further || (tie && self.expected.is_none()) {
            other
        } else {
            self
        }
    }
}

impl<'a> ContextError<&'a str> for Failure<'a> {
    fn add_context(_input: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.expected.is_none() && !other.eof {
            other.expected = Some(ctx);
        }
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Failure<'a>>;

/// What the grammar expects where the side to move stands; a failure there is a bad turn.
const TURN: &str = "the turn B or W";

/// A colour section: its colour and entries.
type Section<'a> = (Color, Vec<Entry<'a>>);

/// The parsed body: turn and the two sections, in the order given.
type Body<'a> = (Color, Section<'a>, Section<'a>);

/// One entry of a colour section: a square or a range, man or king. Numbers stay text so that
/// an out-of-range one is reported as written.
#[derive(Debug, Clone, Copy)]
struct Entry<'a> {
    king: bool,
    first: &'a str,
    last: Option<&'a str>,
}

fn ctx<'a, T>(
    what: &'static str,
    p: impl FnMut(&'a str) -> Res<'a, T>,
) -> impl FnMut(&'a str) -> Res<'a, T> {
    nom::error::context(what, p)
}

fn ws<'a, T>(p: impl FnMut(&'a str) -> Res<'a, T>) -> impl FnMut(&'a str) -> Res<'a, T> {
    delimited(multispace0, p, multispace0)
}

/// `B` or `W`, either case.
fn color(i: &str) -> Res<'_, Color> {
    map(one_of("BWbw"), |c| {
        if c.eq_ignore_ascii_case(&'b') {
            Color::Black
        } else {
            Color::White
        }
    })(i)
}

/// The digits of a square number, or an algebraic square (`d6`).
fn number(i: &str) -> Res<'_, &str> {
    ctx(
        "a square number",
        alt((
            digit1,
            recognize(pair(one_of("abcdefghABCDEFGH"), one_of("12345678"))),
        )),
    )(i)
}

/// A square named by its number or algebraically.
fn square(text: &str) -> Result<Square, SquareError> {
    if Square::looks_algebraic(text) {
        Square::from_algebraic(text)
    } else {
        text.parse()
    }
}

/// `12`, `K12`, `1-12` or `K1-4`. Once a `K` or a `-` is read a number must follow.
fn entry(i: &str) -> Res<'_, Entry<'_>> {
    alt((
        map(
            tuple((one_of("Kk"), cut(number), opt(range_end))),
            |(_, first, last)| Entry {
                king: true,
                first,
                last,
            },
        ),
        map(tuple((number, opt(range_end))), |(first, last)| Entry {
            king: false,
            first,
            last,
        }),
    ))(i)
}

/// The `-12` ending a range.
fn range_end(i: &str) -> Res<'_, &str> {
    preceded(char('-'), cut(number))(i)
}

/// A colour letter and its comma-separated entries (possibly none). After a comma another
/// entry must follow.
fn section(i: &str) -> Res<'_, Section<'_>> {
    map(
        tuple((
            ctx("a colour B or W", color),
            multispace0,
            opt(tuple((entry, many0(preceded(ws(char(',')), cut(entry)))))),
        )),
        |(c, _, entries)| {
            let list = entries
                .map(|(first, mut rest)| {
                    rest.insert(0, first);
                    rest
                })
                .unwrap_or_default();
            (c, list)
        },
    )(i)
}

/// `turn:section:section` with an optional trailing period.
fn fen_body(i: &str) -> Res<'_, Body<'_>> {
    map(
        tuple((
            ctx(TURN, color),
            ws(ctx("':'", char(':'))),
            section,
            ws(ctx("':'", char(':'))),
            section,
            opt(ws(char('.'))),
        )),
        |(turn, _, a, _, b, _)| (turn, a, b),
    )(i)
}

/// `[FEN "..."]` around the body.
fn wrapped(i: &str) -> Res<'_, Body<'_>> {
    delimited(
        tuple((
            char('['),
            multispace0,
            ctx("'FEN'", tag("FEN")),
            multispace0,
            ctx("'\"'", char('"')),
        )),
        ws(fen_body),
        tuple((ctx("'\"'", char('"')), multispace0, ctx("']'", char(']')))),
    )(i)
}

fn top(i: &str) -> Res<'_, Body<'_>> {
    all_consuming(ws(alt((wrapped, fen_body))))(i)
}

/// The first few characters at a failure, printable, for the error message.
fn snippet(s: &str) -> String {
    let t: String = s.chars().take(12).collect();
    if t.is_empty() {
        "end of input".to_string()
    } else {
        printable(&t)
    }
}

/// The position of an optional FEN: [`parse`] it, or the start position when there is none
/// (what the command-line tools take after `--fen`).
pub fn parse_or_start(text: Option<&str>) -> Result<Position, FenError> {
    text.map_or(Ok(Position::startpos()), parse)
}

/// Parses a PDN FEN into a position.
pub fn parse(text: &str) -> Result<Position, FenError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(FenError::Empty);
    }
    let (_, (turn, a, b)) = top(text).finish().map_err(|e| {
        let at = text.len() - e.input.len();
        let at = text[..at].chars().count();
        if e.expected == Some(TURN) && !e.input.is_empty() {
            FenError::BadTurn(printable(&e.input.chars().take(1).collect::<String>()))
        } else if e.eof {
            FenError::TrailingJunk {
                at,
                text: snippet(e.input),
            }
        } else {
            FenError::Syntax {
                at,
                expected: e.expected.unwrap_or("a valid FEN"),
                found: snippet(e.input),
            }
        }
    })?;
    if a.0 == b.0 {
        return Err(FenError::ColorTwice(a.0));
    }
    let mut sides = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    for (color, entries) in [a, b] {
        for e in entries {
            let lo = square(e.first)?;
            let hi = match e.last {
                Some(n) if Square::looks_algebraic(n) || Square::looks_algebraic(e.first) => {
                    return Err(FenError::AlgebraicRange(e.first.to_string(), n.to_string()))
                }
                Some(n) => square(n)?,
                None => lo,
            };
            if hi < lo {
                return Err(FenError::EmptyRange(lo.number().into(), hi.number().into()));
            }
            for idx in lo.index()..=hi.index() {
                let sq = Square::from_index(idx as u8);
                if (sides[0] | sides[1]).contains(sq) {
                    return Err(PositionError::SquareTwice(sq).into());
                }
                sides[color.index()] |= Bitboard::from_square(sq);
                if e.king {
                    kings |= Bitboard::from_square(sq);
                }
            }
        }
    }
    Ok(Position::new(turn, sides[0], sides[1], kings)?)
}

/// Writes the canonical FEN: turn, White's section, Black's section, squares ascending.
pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(96);
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let kings = pos.kings(color);
        for (k, sq) in pos.pieces(color).enumerate() {
            if k > 0 {
                out.push(',');
            }
            if kings.contains(sq) {
                out.push('K');
            }
            out.push_str(&sq.number().to_string());
        }
    }
    out
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}

/// A position's FEN, so that a failed assertion shows the position it is about.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write(self))
    }
}
