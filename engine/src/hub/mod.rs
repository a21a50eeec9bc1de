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

/// The rules a `variant` value selects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variant {
    /// English/American checkers: men capture forward only, kings move one square. The
    /// default, since every Hub client for the 8x8 board sends English games.
    #[default]
    English,
    /// Buff and Green: men capture backward too, flying kings (the engine's own default).
    BuffGreen,
}

impl Choice for Variant {
    const ALL: &'static [(Variant, &'static str)] = &[
        (Variant::English, "english"),
        (Variant::BuffGreen, "buffgreen"),
    ];
}

impl Variant {
    /// The value of `BackwardCapture` and `LongKings` under this variant.
    fn switches(self) -> &'static str {
        match self {
            Variant::English => "false",
            Variant::BuffGreen => "true",
        }
    }
}

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
