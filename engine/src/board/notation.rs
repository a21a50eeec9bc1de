//! Move notation: 1-32 squares (`11-15`, `9x18x27`) or algebraic squares (`d6-c5`,
//! `d6xb4xd2`), and on input a capture's ends (`9x27`). One move uses one form.

use thiserror::Error;

use crate::board::{generate_moves, MoveList, Position, Rules};
use crate::types::{Move, Square, SquareError};

/// Why a move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Not of the form `a-b` or `axbx...`.
    #[error("bad move syntax '{}': expected squares joined by '-', 'x' or ':', like 11-15, 9x18x27 or d6-c5", printable(.0))]
    Syntax(String),
    /// Square numbers and algebraic squares mixed within one move.
    #[error("bad move '{}': it mixes square numbers and algebraic squares; write it in one form, like 10-14 or d6-c5", printable(.0))]
    Mixed(String),
    /// A square outside 1..=32.
    #[error("bad move '{}': {err}", printable(.text))]
    Square {
        /// The move text.
        text: String,
        /// The square problem.
        err: SquareError,
    },
    /// No legal move matches.
    #[error("illegal move '{}'; legal moves: {}", printable(.text), list_or_none(.legal))]
    Illegal {
        /// The move text.
        text: String,
        /// Every legal move in long form.
        legal: Vec<String>,
    },
    /// More than one legal move shares these ends.
    #[error(
        "ambiguous move '{}' matches {}; give every landing square",
        printable(.text),
        .candidates.join(" ")
    )]
    Ambiguous {
        /// The move text.
        text: String,
        /// The matching moves in long form.
        candidates: Vec<String>,
    },
}

/// `text` with control characters escaped, so that an error quoting user input stays one
/// printable line (the rules crate's, which the protocol client shares).
pub use buffgreen_rules::printable;

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

/// How moves and squares are written on output (option `Notation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// Square numbers 1-32: `10-14`, `9x18x27` (PDN's numeric notation).
    #[default]
    Numeric,
    /// Algebraic squares: `d6-c5`, `b6xd4xf2` (square 1 is b8).
    Algebraic,
}

impl Notation {
    /// The option's values, in the order they are announced.
    pub const NAMES: [&'static str; 2] = ["numeric", "algebraic"];

    /// The notation called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Notation> {
        match name.to_ascii_lowercase().as_str() {
            "numeric" => Some(Notation::Numeric),
            "algebraic" => Some(Notation::Algebraic),
            _ => None,
        }
    }

    /// The option value naming this notation.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Numeric => "numeric",
            Notation::Algebraic => "algebraic",
        }
    }

    /// A square in this notation.
    pub fn square(self, sq: Square) -> String {
        match self {
            Notation::Numeric => sq.number().to_string(),
            Notation::Algebraic => sq.algebraic(),
        }
    }

    /// A move's long form in this notation (every landing square of a capture).
    pub fn write(self, m: &Move) -> String {
        match self {
            Notation::Numeric => m.to_string(),
            Notation::Algebraic => {
                let sep = if m.is_capture() { "x" } else { "-" };
                let mut s = m.from().algebraic();
                for sq in m.path() {
                    s.push_str(sep);
                    s.push_str(&sq.algebraic());
                }
                s
            }
        }
    }
}

/// The squares of a move text, without looking at any position. Every square is a number
/// (`10-14`) or every square is algebraic (`d6-c5`, either case); mixing them is an error.
pub fn parse_squares(text: &str) -> Result<Vec<Square>, NotationError> {
    let t = text.trim();
    if t.is_empty() || t.len() > 64 {
        return Err(NotationError::Syntax(t.chars().take(64).collect()));
    }
    // `:` is lidraughts' capture separator (`c3:e5`), so its games read as they are written.
    let parts: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(NotationError::Syntax(t.to_string()));
    }
    let numeric = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let algebraic = parts.iter().filter(|p| Square::looks_algebraic(p)).count();
    if parts
        .iter()
        .any(|p| !numeric(p) && !Square::looks_algebraic(p))
    {
        return Err(NotationError::Syntax(t.to_string()));
    }
    if algebraic != 0 && algebraic != parts.len() {
        return Err(NotationError::Mixed(t.to_string()));
    }
    parts
        .iter()
        .map(|p| {
            if algebraic == 0 {
                p.parse::<Square>()
            } else {
                Square::from_algebraic(p)
            }
            .map_err(|err| NotationError::Square {
                text: t.to_string(),
                err,
            })
        })
        .collect()
}

/// Finds the legal move of `pos` named by `text`: the long form, or for a capture its first
/// and last square when exactly one capture has those ends.
pub fn parse_move(pos: &Position, rules: &Rules, text: &str) -> Result<Move, NotationError> {
    let squares = parse_squares(text)?;
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    find_move(&list, &squares, text.trim())
}

/// Matches parsed squares against a list of legal moves.
pub fn find_move(list: &MoveList, squares: &[Square], text: &str) -> Result<Move, NotationError> {
    let (from, rest) = match squares.split_first() {
        Some(x) => x,
        None => return Err(NotationError::Syntax(text.to_string())),
    };
    let exact = list
        .iter()
        .find(|m| m.from() == *from && m.path().eq(rest.iter().copied()));
    if let Some(m) = exact {
        return Ok(*m);
    }
    if rest.len() == 1 {
        let ends: Vec<Move> = list
            .iter()
            .filter(|m| m.is_capture() && m.from() == *from && m.to() == rest[0])
            .copied()
            .collect();
        match ends.len() {
            1 => return Ok(ends[0]),
            0 => {}
            _ => {
                return Err(NotationError::Ambiguous {
                    text: text.to_string(),
                    candidates: long_forms(&ends),
                })
            }
        }
    }
    Err(NotationError::Illegal {
        text: text.to_string(),
        legal: long_forms(list.as_slice()),
    })
}

/// The long forms of `moves` in square order (start square, then each landing square), so that
/// error messages do not depend on the generator's internal order.
fn long_forms(moves: &[Move]) -> Vec<String> {
    let mut sorted = moves.to_vec();
    sorted.sort_by_cached_key(|m| (m.from(), m.path().collect::<Vec<Square>>()));
    sorted.iter().map(|m| m.to_string()).collect()
}
