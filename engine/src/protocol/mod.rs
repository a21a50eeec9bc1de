//! The UCI-like text protocol: command parsing ([`command`]), output formatting ([`output`]),
//! the session that executes commands ([`Session`]), and the input loop and line reader both
//! dialects use ([`input`]). The grammar and behaviour are specified in `protocol.md`.
//!
//! The session's thread executes commands in order while the input thread reads on; searches
//! run on their own thread and report through callbacks that format their events here. The Hub
//! dialect (module `hub`) is built on this module, never the other way round.

pub mod command;
pub mod input;
pub mod output;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

pub use command::{parse, Command, CommandError};
pub use input::{LineError, MAX_LINE_BYTES};
pub use output::Output;

use crate::engine::{Engine, GoRequest};
use crate::search::time;
use crate::tools::bench;
use input::{Dialect, Waker};

/// Whether the input loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was executed: read nothing more.
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
pub struct Session {
    engine: Engine,
    out: Output,
    /// `debug on`: extra `info string debug:` lines.
    debug: bool,
    /// Wakes the input loop when a search has answered.
    waker: Waker,
    /// When the line being executed was read (none: when it is executed).
    read_at: Option<Instant>,
    /// Commands read during a search with a finite limit, run in order once it has answered.
    queue: VecDeque<Command>,
    /// The input has ended: every search is stopped as soon as it starts.
    ending: bool,
}

/// Most commands waiting for a search: beyond this the session waits for the search before it
/// takes the next line (and the input thread then for the session), so memory stays bounded.
pub const MAX_QUEUED: usize = 64;

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
        }
    }

    /// The engine, to inspect its game and settings between lines.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line (with or without its line end): parses and executes it, or
    /// answers an error line. Bytes that are not UTF-8 make the line invalid, never a panic.
    pub fn handle_line(&mut self, line: &[u8]) -> Flow {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match command::parse(&String::from_utf8_lossy(line)) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// Ends the session as end of input does: the running search is stopped and answers, then
    /// the commands still waiting run in order, each search among them stopped as soon as it
    /// starts (every `go` gets its one `bestmove`); returns once the last reply is written.
    pub fn finish(&mut self) {
        self.ending = true;
        self.engine.stop();
        self.engine.wait();
        self.run_queued();
    }

    /// Waits until the engine is idle and no command waits: a search with a finite limit is
    /// waited for, an unbounded one is stopped, and what waited for them runs (for tests and
    /// fuzzers that want each command's replies complete before the next line).
    pub fn settle(&mut self) {
        loop {
            self.engine.end_search();
            self.run_queued();
            if self.queue.is_empty() && !self.engine.is_searching() {
                return;
            }
        }
    }

    /// Executes a parsed command, or queues it behind a search with a finite limit (see
    /// `protocol.md`, "Commands during a search"): `isready`, `stop`, `ponderhit`, `quit`,
    /// `uci` and `debug` never wait; any other command waits while a search with a finite limit
    /// runs or other commands wait, and runs as soon as the engine is free.
    pub fn execute(&mut self, cmd: Command) -> Flow {
        let read_at = self.read_at.take();
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
                self.run_queued();
                // The tree is made now unless a search uses it: the answer never waits.
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
            cmd => {
                self.run_queued();
                if self.queue.is_empty() && !self.busy() {
                    self.run(cmd, read_at);
                } else {
                    if self.queue.len() >= MAX_QUEUED {
                        // A finite search: it ends by itself.
                        self.engine.wait();
                        self.run_queued();
                    }
                    self.queue.push_back(cmd);
                    self.run_queued();
                }
            }
        }
        Flow::Continue
    }

    /// True while a search with a finite limit (or a perft, a bench) runs: commands wait for
    /// it. An unbounded search does not make them wait: they stop it, or are refused.
    fn busy(&mut self) -> bool {
        self.engine.is_searching() && !self.engine.is_unbounded()
    }

    /// Runs the waiting commands in order while the engine is free for them.
    fn run_queued(&mut self) {
        while !self.busy() {
            let Some(cmd) = self.queue.pop_front() else {
                return;
            };
            // Its clock starts now: the time it waited was the other search's.
            self.run(cmd, None);
        }
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
            Command::Uci
            | Command::IsReady
            | Command::Stop
            | Command::PonderHit
            | Command::Debug(_)
            | Command::Quit => {
                self.execute(cmd);
            }
        }
        if self.ending {
            // The input has ended: nobody waits for this work's figures.
            self.engine.stop();
            self.engine.wait();
        }
    }

    fn go(&mut self, request: GoRequest, read_at: Option<Instant>) {
        if self.debug {
            if let Ok((limits, _)) = self.engine.complete_limits(&request) {
                let side = self.engine.game().position().side_to_move();
                let overhead = Duration::from_millis(self.engine.config().move_overhead_ms);
                let budget = match time::budget(&limits, side, overhead) {
                    Some(b) if !limits.infinite => format!(
                        "time budget soft {} ms hard {} ms",
                        b.soft.as_millis(),
                        b.hard.as_millis()
                    ),
                    _ => "no time limit".to_string(),
                };
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
    fn line(&mut self, line: &[u8], read_at: Instant) -> Flow {
        self.read_at = Some(read_at);
        self.handle_line(line)
    }

    fn answered(&mut self) -> Flow {
        self.run_queued();
        Flow::Continue
    }

    fn dropped(&mut self, error: &LineError) {
        self.out.error(error);
    }

    fn finish(&mut self) {
        Session::finish(self);
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
        assert_eq!(lines[lines.len() - 2], "bestmove 24-20");
        assert_eq!(lines[lines.len() - 1], "readyok");
    }
}
