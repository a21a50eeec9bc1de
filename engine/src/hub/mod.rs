//! The Hub protocol (version 2, as Scan 3.x defines it), spoken by pydraughts' `HubEngine`
//! and its `RoundRobin` tournaments and by lidraughts-bot: command parsing with quoted values
//! ([`command`]), the 8x8 position and move notation ([`notation`]), the session that drives
//! the engine facade ([`session`]) and the reply lines ([`output`]). `protocol.md` (section
//! "The Hub dialect") is the contract.
//!
//! `buffgreen hub` starts in this dialect; the main protocol switches to it when the first
//! command of a session is `hub`, as Scan does.

pub mod command;
pub mod notation;
pub mod output;
pub mod session;

use std::io::BufRead;

pub use session::{HubError, Session, Variant};

use crate::protocol::{read_line, Flow, Output, MAX_LINE_BYTES};

/// A Hub `enum` parameter's values: each variant with the word that names it.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its name, in the order `param` lists them.
    const ALL: &'static [(Self, &'static str)];

    /// The word naming this value.
    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("", |(_, n)| n)
    }

    /// The value a word names (case-insensitive).
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(v, _)| *v)
    }

    /// Every name, in order.
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|(_, n)| *n).collect()
    }
}

/// True when `line` is the `hub` command (how a GUI opens a Hub session).
pub fn is_hub_line(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    matches!(command::tokenize(&text), Ok(Some((cmd, _))) if cmd == "hub")
}

/// Runs the Hub protocol on `input` until `quit` or end of input, writing replies to `out`;
/// `first` is a line already read from `input` (the `hub` that opened the session), handled
/// first. Returns the exit code (always 0: bad input is answered, never fatal).
pub fn run(mut input: impl BufRead, out: Output, first: Option<&[u8]>) -> i32 {
    let mut session = Session::new(out.clone());
    if let Some(line) = first {
        if session.handle_line(line) == Flow::Quit {
            return 0;
        }
    }
    let mut buf = Vec::new();
    loop {
        match read_line(&mut input, &mut buf, MAX_LINE_BYTES) {
            // End of input, or a broken input stream: no more commands.
            Ok(None) | Err(_) => break,
            Ok(Some(Ok(()))) => {
                if session.handle_line(&buf) == Flow::Quit {
                    return 0;
                }
            }
            // A line past the cap was read and dropped without being stored.
            Ok(Some(Err(e))) => out.lines(&[output::error_line(&e)]),
        }
    }
    session.finish();
    0
}
