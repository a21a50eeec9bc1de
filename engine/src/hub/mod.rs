//! The Hub protocol (version 2, as Scan 3.x defines it), spoken by pydraughts' `HubEngine`
//! and its `RoundRobin` tournaments and by lidraughts-bot. `protocol.md` (section "The Hub
//! dialect") is the contract.
//!
//! `buffgreen hub` starts in this dialect ([`run`]); the binary's default session ([`serve`])
//! speaks the main protocol and switches to this one when its first command is `hub`, as Scan
//! does. Both are driven by the protocol's input loop ([`crate::protocol::input`]).
//!
//! Layout: [`command`] parses the commands (values may be quoted), [`notation`] reads and
//! writes the 8x8 positions and moves, [`session`] drives the engine facade, [`output`]
//! writes the reply lines.

pub mod command;
pub mod notation;
pub mod output;
pub mod session;

use std::io::BufRead;
use std::time::Instant;

pub use session::{HubError, Session};

use crate::protocol::input::{self, Dialect, LineError};
use crate::protocol::{Flow, Output};

/// The rule sets the `variant` parameter offers: the table's ([`Variant::on_hub`]), named
/// by their one-word keys.
pub use crate::board::Variant;

/// The rule set a Hub session starts with: English checkers, the 8x8 game a Hub client sends
/// without naming one (pydraughts' `english`); for its `russian` and `brazilian` boards the
/// client sets `variant` (lidraughts-bot does, per game).
pub const DEFAULT_VARIANT: Variant = Variant::English;

impl Choice for Variant {
    /// The default first (the order `param` lists them in), then the others the Hub
    /// offers, in the table's order.
    fn all() -> Vec<(Variant, &'static str)> {
        let others = Variant::ALL
            .into_iter()
            .filter(|v| v.on_hub() && *v != DEFAULT_VARIANT);
        std::iter::once(DEFAULT_VARIANT)
            .chain(others)
            .map(|v| (v, v.key()))
            .collect()
    }
}

/// A Hub `enum` parameter's values: each variant with the word that names it.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its name, in the order `param` lists them.
    fn all() -> Vec<(Self, &'static str)>;

    /// The word naming this value.
    fn word(self) -> &'static str {
        Self::all()
            .into_iter()
            .find(|(v, _)| *v == self)
            .map_or("", |(_, n)| n)
    }

    /// The value a word names (case-insensitive).
    fn from_word(word: &str) -> Option<Self> {
        Self::all()
            .into_iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(word))
            .map(|(v, _)| v)
    }

    /// Every word, in order.
    fn words() -> Vec<&'static str> {
        Self::all().into_iter().map(|(_, n)| n).collect()
    }
}

/// True when `line` is the `hub` command (how a GUI opens a Hub session).
pub fn is_hub_line(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    matches!(command::tokenize(&text), Ok(Some((cmd, _))) if cmd == "hub")
}

/// Runs the Hub protocol on `input` until `quit` or end of input, writing replies to `out`.
/// Returns the exit code (always 0: bad input is answered, never fatal).
pub fn run(input: impl BufRead + Send + 'static, out: Output) -> i32 {
    input::run(input, |_| Session::new(out))
}

/// Runs the binary's default session on `input` until `quit` or end of input: the main
/// protocol, or the Hub dialect from the first command on when that command is `hub`. Returns
/// the exit code (always 0).
pub fn serve(input: impl BufRead + Send + 'static, out: Output) -> i32 {
    input::run(input, |waker| Serve {
        session: Box::new(crate::protocol::Session::with_waker(out.clone(), waker)),
        out,
        opened: false,
    })
}

/// The default session: the main protocol until a first command `hub` switches it.
struct Serve {
    session: Box<dyn Dialect>,
    out: Output,
    /// A command (not a blank line) was read.
    opened: bool,
}

impl Dialect for Serve {
    fn line(&mut self, line: Vec<u8>, read_at: Instant) -> Flow {
        if !self.opened && !line.trim_ascii().is_empty() {
            self.opened = true;
            if is_hub_line(&line) {
                self.session = Box::new(Session::new(self.out.clone()));
            }
        }
        self.session.line(line, read_at)
    }

    fn dropped(&mut self, error: &LineError) {
        self.session.dropped(error);
    }

    fn answered(&mut self) -> Flow {
        self.session.answered()
    }

    fn ended(&mut self) -> Flow {
        self.session.ended()
    }
}

impl Dialect for Session {
    fn line(&mut self, line: Vec<u8>, _: Instant) -> Flow {
        self.handle_line(&line)
    }

    fn dropped(&mut self, error: &LineError) {
        self.out().line(&output::error_line(error));
    }

    fn ended(&mut self) -> Flow {
        // The GUI is gone: the search is stopped and its `done` written.
        Session::finish(self);
        Flow::Quit
    }
}
