//! The UCI-like text protocol: command parsing ([`command`]), output formatting ([`output`]),
//! the session that executes commands ([`Session`]), and the input loop and line reader both
//! dialects use ([`input`]). The grammar and behaviour are specified in `protocol.md`.
//!
//! The session's thread executes commands in order while the input thread reads on; searches
//! run on their own thread and report through callbacks that format their events here. The Hub
//! dialect (module `hub`) is built on this module, never the other way round.
//!
//! Layout: [`command`] parses the commands, [`input`] reads the lines, [`output`] formats the
//! replies; this file is the session.

pub mod command;
pub mod input;
pub mod output;

use std::collections::VecDeque;
use std::time::Instant;

pub use command::{parse, Command, CommandError};
pub use input::{LineError, MAX_LINE_BYTES};
pub use output::Output;

use crate::engine::{Engine, GoRequest};
use crate::tools::bench;
use input::{Dialect, Waker};

/// Whether the input loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The session is over (`quit` was executed, or the work asked for before the end of
    /// input is done): read nothing more.
    Quit,
}

/// Runs the protocol on `input` until `quit` or end of input, writing replies to `out`;
/// returns the process exit code (always 0: bad input is answered, never fatal). See
/// [`input::run`].
pub fn run(input: impl std::io::BufRead + Send + 'static, out: Output) -> i32 {
    input::run(input, |waker| Session::with_waker(out, waker))
}

/// One protocol session: the engine and where its replies go. [`run`] feeds it the lines of
/// its input; a test or fuzzer can feed it lines one at a time and look at the engine between
/// them (with an [`Output`] over an in-memory buffer to read the replies).
///
/// Lines take effect in the order they were sent, as if each waited for the one before: a
/// command read while a search with a finite limit (or a perft, a bench) runs, or while other
/// commands wait, waits in a queue and runs once the engine is free for it. Only `isready`,
/// `stop`, `ponderhit`, `uci`, `debug` and a `quit` with nothing waiting before it are
/// executed at once, whatever waits (see `protocol.md`, "Order of commands").
pub struct Session {
    engine: Engine,
    out: Output,
    /// `debug on`: extra `info string debug:` lines.
    debug: bool,
    /// Wakes the input loop when a search has answered, and counts the lines kept in `queue`.
    waker: Waker,
    /// When the line being executed was read (none: when it is executed).
    read_at: Option<Instant>,
    /// Commands waiting for the engine, run in order once it is free for them.
    queue: VecDeque<Waiting>,
    /// The input has ended: a search that would never end by itself is stopped as soon as it
    /// starts, and the session is over once nothing runs or waits.
    ending: bool,
    /// A `quit` waits in the queue: nothing after it is read.
    quitting: bool,
}

/// A command waiting in the queue.
enum Waiting {
    /// An input line, kept as read and parsed when it runs: its errors are answered in order,
    /// and a line costs its bytes only (counted by the input loop's [`Waker`]).
    Line(Vec<u8>),
    /// A command given to [`Session::execute`] already parsed.
    Parsed(Command),
    /// A line dropped unread: its error is answered in its turn.
    Dropped(LineError),
}

/// The command of one input line (with or without its line end; `None` for a blank line).
/// Bytes that are not UTF-8 make the line invalid, never a panic.
fn parse_line(line: &[u8]) -> Result<Option<Command>, CommandError> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    command::parse(&String::from_utf8_lossy(line))
}

/// True for a command executed when it is read, whatever waits: those that talk to the running
/// search or only answer (`isready`, `stop`, `ponderhit`, `uci`, `debug`), and `quit` when
/// nothing waits before it (it then ends the running search at once).
fn at_once(cmd: &Command, nothing_waits: bool) -> bool {
    match cmd {
        Command::IsReady
        | Command::Stop
        | Command::PonderHit
        | Command::Uci
        | Command::Debug(_) => true,
        Command::Quit => nothing_waits,
        _ => false,
    }
}

impl Session {
    /// A fresh engine (default settings, start position) replying to `out`.
    pub fn new(out: Output) -> Session {
        Session::with_waker(out, Waker::default())
    }

    /// A fresh session of an input loop, which `waker` wakes when a search has answered.
    pub fn with_waker(out: Output, waker: Waker) -> Session {
        Session {
            engine: Engine::new(),
            out,
            debug: false,
            waker,
            read_at: None,
            queue: VecDeque::new(),
            ending: false,
            quitting: false,
        }
    }

    /// The engine, to inspect its game and settings between lines.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line (with or without its line end): parses and executes it, queues
    /// it behind a search with a finite limit, or answers an error line. Bytes that are not
    /// UTF-8 make the line invalid, never a panic.
    pub fn handle_line(&mut self, line: &[u8]) -> Flow {
        self.accept(line.to_vec())
    }

    /// Ends the session as end of input does, and returns once its last reply is written: a
    /// search that would never end by itself (infinite, ponder) is stopped and answers; a
    /// search with a finite limit runs to it; then the commands still waiting run in order
    /// (a search among them that would never end by itself is stopped as soon as it starts).
    pub fn finish(&mut self) {
        let mut flow = self.end_of_input();
        while flow == Flow::Continue {
            self.engine.wait();
            flow = self.answered_now();
        }
    }

    /// Waits until the engine is idle and no command waits: a search with a finite limit is
    /// waited for, an unbounded one is stopped, and what waited for them runs (for tests and
    /// fuzzers that want each command's replies complete before the next line).
    pub fn settle(&mut self) {
        loop {
            self.engine.end_search();
            if self.run_queued() == Flow::Quit {
                return;
            }
            if self.queue.is_empty() && !self.engine.is_searching() {
                return;
            }
        }
    }

    /// Executes a parsed command, or queues it (see [`Session`]): `isready`, `stop`,
    /// `ponderhit`, `uci` and `debug` never wait, nor does `quit` when nothing waits before it;
    /// any other command waits while a search with a finite limit runs or other commands wait,
    /// and runs as soon as the engine is free.
    pub fn execute(&mut self, cmd: Command) -> Flow {
        if self.quitting {
            // A `quit` waits before this command: it will never run.
            return Flow::Continue;
        }
        if self.run_queued() == Flow::Quit {
            return Flow::Quit;
        }
        let read_at = self.read_at.take();
        if !self.waits() || at_once(&cmd, self.queue.is_empty()) {
            return self.now(cmd, read_at);
        }
        self.quitting = cmd == Command::Quit;
        self.queue.push_back(Waiting::Parsed(cmd));
        Flow::Continue
    }

    /// [`Session::handle_line`] for a line the session may keep.
    fn accept(&mut self, line: Vec<u8>) -> Flow {
        let read_at = self.read_at.take();
        if self.quitting {
            // A `quit` waits before this line: it will never run.
            return Flow::Continue;
        }
        if self.run_queued() == Flow::Quit {
            return Flow::Quit;
        }
        let parsed = parse_line(&line);
        let waits = self.waits();
        match parsed {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) if !waits || at_once(&cmd, self.queue.is_empty()) => {
                self.now(cmd, read_at)
            }
            Err(e) if !waits => {
                self.out.error(&e);
                Flow::Continue
            }
            parsed => {
                self.quitting = matches!(parsed, Ok(Some(Command::Quit)));
                self.waker.hold(line.len());
                self.queue.push_back(Waiting::Line(line));
                Flow::Continue
            }
        }
    }

    /// True when a command read now must wait: a search with a finite limit runs, or other
    /// commands wait.
    fn waits(&mut self) -> bool {
        !self.queue.is_empty() || self.busy()
    }

    /// The input has ended (see [`Session::finish`]): stops a search that would never end by
    /// itself, runs what it can, and says whether the session is over.
    fn end_of_input(&mut self) -> Flow {
        self.ending = true;
        self.stop_if_endless();
        self.answered_now()
    }

    /// Runs what waited for a search that has answered; once the input has ended, says
    /// [`Flow::Quit`] when nothing runs or waits any more (the last reply written).
    fn answered_now(&mut self) -> Flow {
        if self.run_queued() == Flow::Quit {
            return Flow::Quit;
        }
        if self.ending && self.queue.is_empty() && !self.engine.is_searching() {
            return Flow::Quit;
        }
        Flow::Continue
    }

    /// Once the input has ended nobody can send `stop`: a search that would never end by
    /// itself is stopped now, and its answer written.
    fn stop_if_endless(&mut self) {
        if self.ending && self.engine.is_unbounded() {
            self.engine.stop();
            self.engine.wait();
        }
    }

    /// Executes a command now (see [`Session::execute`] for when).
    fn now(&mut self, cmd: Command, read_at: Option<Instant>) -> Flow {
        if self.debug {
            self.out.note(&format!("debug: command {cmd:?}"));
        }
        match cmd {
            Command::Uci => {
                self.out
                    .lines(&output::uci_lines(&crate::engine::option_table()));
                // After `uciok`: a GUI reads the options up to it and takes any line later.
                for notice in self.engine.take_notices() {
                    self.out.line(&format!("info string {notice}"));
                }
            }
            Command::IsReady => {
                // The tree is prepared now unless a search uses it: the answer never waits.
                self.engine.prepare();
                self.out.line("readyok");
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Debug(on) => self.debug = on,
            Command::Quit => {
                self.engine.stop();
                self.engine.wait();
                return Flow::Quit;
            }
            cmd => self.run(cmd, read_at),
        }
        Flow::Continue
    }

    /// True while a search with a finite limit (or a perft, a bench) runs: commands wait for
    /// it. An unbounded search does not make them wait: they stop it, or are refused.
    fn busy(&mut self) -> bool {
        self.engine.is_searching() && !self.engine.is_unbounded()
    }

    /// Runs the waiting commands in order while the engine is free for them; [`Flow::Quit`]
    /// when a waiting `quit` ran.
    fn run_queued(&mut self) -> Flow {
        while !self.busy() {
            let Some(waiting) = self.queue.pop_front() else {
                break;
            };
            let parsed = match waiting {
                Waiting::Line(line) => {
                    self.waker.release(line.len());
                    parse_line(&line)
                }
                Waiting::Parsed(cmd) => Ok(Some(cmd)),
                Waiting::Dropped(e) => {
                    self.waker.release(0);
                    self.out.error(&e);
                    continue;
                }
            };
            match parsed {
                // Its clock starts now: the time it waited was the other search's.
                Ok(Some(cmd)) => {
                    if self.now(cmd, None) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Ok(None) => {}
                Err(e) => self.out.error(&e),
            }
        }
        Flow::Continue
    }

    /// Executes a command that changes or shows the game, the settings, or starts work; a
    /// search's clock starts at `read_at` (none: now).
    fn run(&mut self, cmd: Command, read_at: Option<Instant>) {
        match cmd {
            Command::SetOption { name, value } => {
                match self.engine.set_option(&name, value.as_deref()) {
                    Ok(notices) => {
                        for notice in notices {
                            self.out.line(&format!("info string {notice}"));
                        }
                    }
                    Err(e) => self.out.error(&e),
                }
            }
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                if let Err(e) = self.engine.set_position(&start, &moves) {
                    self.out.error(&e);
                }
            }
            Command::Go(request) => self.go(request, read_at),
            Command::Perft { depth } => {
                let (out, waker) = (self.out.clone(), self.waker.clone());
                let notation = self.engine.settings().notation;
                let started = self.engine.perft(
                    depth,
                    Box::new(move |d, complete| {
                        out.lines(&output::perft_lines(&d, complete, notation));
                        waker.wake();
                    }),
                );
                if let Err(e) = started {
                    self.out.error(&e);
                }
            }
            Command::Display => self.out.lines(&output::display_lines(
                self.engine.game(),
                self.engine.settings().notation,
            )),
            Command::Bench { nodes } => {
                let (out, waker) = (self.out.clone(), self.waker.clone());
                let started = self.engine.bench(
                    nodes.unwrap_or(bench::DEFAULT_NODES),
                    Box::new(move |r| {
                        out.lines(&output::bench_lines(&r));
                        waker.wake();
                    }),
                );
                if let Err(e) = started {
                    self.out.error(&e);
                }
            }
            Command::Eval => self.out.lines(&output::eval_lines(self.engine.game())),
            // Executed by `now`, never queued.
            Command::Uci
            | Command::IsReady
            | Command::Stop
            | Command::PonderHit
            | Command::Debug(_)
            | Command::Quit => {}
        }
        self.stop_if_endless();
    }

    fn go(&mut self, request: GoRequest, read_at: Option<Instant>) {
        if self.debug {
            if let Ok((limits, _)) = self.engine.complete_limits(&request) {
                let budget = self.engine.terms(&limits).describe_budget();
                self.out
                    .note(&format!("debug: {budget}; limits {limits:?}"));
            }
        }
        let events = self.out.clone();
        let answer = self.out.clone();
        let notation = self.engine.settings().notation;
        let waker = self.waker.clone();
        let started = self.engine.go_since(
            read_at.unwrap_or_else(Instant::now),
            request,
            Box::new(move |ev| events.line(&output::event_line(&ev, notation))),
            Box::new(move |outcome| {
                answer.line(&output::bestmove_line(&outcome, notation));
                waker.wake();
            }),
        );
        if let Err(e) = started {
            self.out.error(&e);
        }
    }
}

impl Dialect for Session {
    fn line(&mut self, line: Vec<u8>, read_at: Instant) -> Flow {
        self.read_at = Some(read_at);
        self.accept(line)
    }

    fn answered(&mut self) -> Flow {
        self.answered_now()
    }

    fn dropped(&mut self, error: &LineError) {
        if self.quitting {
            return;
        }
        if self.waits() {
            self.waker.hold(0);
            self.queue.push_back(Waiting::Dropped(error.clone()));
        } else {
            self.out.error(error);
        }
    }

    fn ended(&mut self) -> Flow {
        self.end_of_input()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    fn fen_of(s: &Session) -> String {
        fen::write(s.engine().game().position())
    }

    #[test]
    fn session_handles_lines_one_at_a_time() {
        let (out, captured) = Output::memory();
        let mut s = Session::new(out);
        assert_eq!(
            s.handle_line(b"position startpos moves 11-15\n"),
            Flow::Continue
        );
        let after = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
        assert_eq!(fen_of(&s), after);
        assert_eq!(
            s.handle_line(b"position startpos moves 11-15 1-5"),
            Flow::Continue
        );
        assert_eq!(s.handle_line(b"isready\xff\r\n"), Flow::Continue);
        assert_eq!(s.handle_line(b"   \t\r\n"), Flow::Continue);
        assert_eq!(fen_of(&s), after);
        assert_eq!(
            s.handle_line(b"go nodes 1 searchmoves 24-20"),
            Flow::Continue
        );
        s.finish();
        assert_eq!(s.handle_line(b"isready"), Flow::Continue);
        assert_eq!(s.handle_line(b"quit"), Flow::Quit);
        let lines = captured.lines();
        assert_eq!(
            lines[0],
            "info string error: move 2 '1-5': illegal move '1-5'; legal moves: \
             21-17 22-17 22-18 23-18 23-19 24-19 24-20"
        );
        assert_eq!(
            lines[1],
            "info string error: unknown command 'isready\u{fffd}'"
        );
        assert_eq!(lines[lines.len() - 2], "bestmove 24-20 ponder 9-13");
        assert_eq!(lines[lines.len() - 1], "readyok");
    }
}
