//! Move notation in 1-32 squares: `11-15`, `9x18x27`, and on input a capture's ends (`9x27`).

use thiserror::Error;

use crate::board::{generate_moves, MoveList, Position, Rules};
use crate::types::{Move, Square, SquareError};

/// Why a move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Not of the form `a-b` or `axbx...`.
    #[error("bad move syntax '{}': expected squares joined by '-' or 'x', like 11-15 or 9x18x27", printable(.0))]
    Syntax(String),
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

/// `text` with control characters escaped (`\n`, `\u{0}`), so that an error quoting user input
/// stays one printable line.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

/// The squares of a move text, without looking at any position.
pub fn parse_squares(text: &str) -> Result<Vec<Square>, NotationError> {
    let t = text.trim();
    if t.is_empty() || t.len() > 64 {
        return Err(NotationError::Syntax(t.chars().take(64).collect()));
    }
    let parts: Vec<&str> = t.split(['-', 'x', 'X']).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(NotationError::Syntax(t.to_string()));
    }
    parts
        .iter()
        .map(|p| {
            if !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(NotationError::Syntax(t.to_string()));
            }
            p.parse::<Square>().map_err(|err| NotationError::Square {
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
