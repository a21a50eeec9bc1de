//! The UCI-like text protocol: the input loop, command parsing ([`command`]) and output
//! formatting ([`output`]). The grammar and behaviour are specified in `protocol.md`.
//!
//! One thread (the caller of [`run`]) owns the input and executes commands in order; searches
//! run on their own thread and report through callbacks that format their events here.

pub mod command;
pub mod output;

use std::io::BufRead;

pub use command::{parse, Command, CommandError};
pub use output::Output;

use crate::engine::{Engine, GoRequest};
use crate::tools::bench;

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs the protocol on `input` until `quit` or end of input, writing replies to `out`;
/// returns the process exit code (always 0: bad input is answered, never fatal).
///
/// At end of input a running search with a finite limit completes and prints its bestmove; an
/// infinite or ponder search is stopped and prints its bestmove. Lines are read as bytes, so
/// input that is not UTF-8 is answered with an error like any other bad line.
pub fn run(mut input: impl BufRead, out: Output) -> i32 {
    let mut session = Session {
        engine: Engine::new(),
        out,
    };
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            // End of input, or a broken input stream, which means the same: no more commands.
            Ok(0) | Err(_) => {
                session.engine.end_search();
                return 0;
            }
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        match command::parse(&line) {
            Ok(None) => {}
            Ok(Some(cmd)) => {
                if session.execute(cmd) == Flow::Quit {
                    return 0;
                }
            }
            Err(e) => session.out.error(&e),
        }
    }
}

/// The engine and where its replies go.
struct Session {
    engine: Engine,
    out: Output,
}

impl Session {
    fn execute(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => self
                .out
                .lines(&output::uci_lines(&crate::engine::option_table())),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => {
                match self.engine.set_option(&name, value.as_deref()) {
                    Ok(None) => {}
                    Ok(Some(notice)) => self.out.line(&format!("info string {notice}")),
                    Err(e) => self.out.error(&e),
                }
            }
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                if let Err(e) = self.engine.set_position(&start, &moves) {
                    self.out.error(&e);
                }
            }
            Command::Go(request) => self.go(request),
            Command::Perft { depth } => match self.engine.perft(depth) {
                Ok(d) => self.out.lines(&output::divide_lines(&d)),
                Err(e) => self.out.error(&e),
            },
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.engine.stop();
                self.engine.wait();
                return Flow::Quit;
            }
            Command::Display => self.out.lines(&output::display_lines(self.engine.game())),
            Command::Bench { nodes } => {
                match self.engine.bench(nodes.unwrap_or(bench::DEFAULT_NODES)) {
                    Ok(r) => self.out.lines(&output::bench_lines(&r)),
                    Err(e) => self.out.error(&e),
                }
            }
        }
        Flow::Continue
    }

    fn go(&mut self, request: GoRequest) {
        let events = self.out.clone();
        let answer = self.out.clone();
        let started = self.engine.go(
            request,
            Box::new(move |ev| events.line(&output::event_line(&ev))),
            Box::new(move |outcome| answer.line(&output::bestmove_line(&outcome))),
        );
        if let Err(e) = started {
            self.out.error(&e);
        }
    }
}
