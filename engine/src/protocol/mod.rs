//! The UCI-like text protocol: the input loop, command parsing ([`command`]) and output
//! formatting ([`output`]). The grammar and behaviour are specified in `protocol.md`.
//!
//! One thread (the caller of [`run`]) owns the input and executes commands in order; searches
//! run on their own thread and report through callbacks that format their events here. A
//! session whose first command is `hub` is handed to [`crate::hub`].

pub mod command;
pub mod output;

use std::io::BufRead;

use thiserror::Error;

pub use command::{parse, Command, CommandError};
pub use output::Output;

use std::time::Duration;

use crate::engine::{Engine, GoRequest};
use crate::search::time;
use crate::tools::bench;

/// Longest input line kept, in bytes (its line end not counted). A longer line is read to
/// its end and dropped without being stored, and answered with one error: memory stays
/// bounded whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why an input line was dropped before parsing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("line too long: more than {MAX_LINE_BYTES} bytes; ignored")]
    TooLong,
}

/// Whether the input loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was executed: read nothing more.
    Quit,
}

/// Runs the protocol on `input` until `quit` or end of input, writing replies to `out`;
/// returns the process exit code (always 0: bad input is answered, never fatal).
///
/// At end of input a running search with a finite limit completes and prints its bestmove; an
/// infinite or ponder search is stopped and prints its bestmove. Lines are read as bytes, so
/// input that is not UTF-8 is answered with an error like any other bad line.
pub fn run(mut input: impl BufRead, out: Output) -> i32 {
    let mut session = Session::new(out.clone());
    let mut first_command = true;
    let mut buf = Vec::new();
    loop {
        let flow = match read_line(&mut input, &mut buf, MAX_LINE_BYTES) {
            // End of input, or a broken input stream, which means the same: no more commands.
            Ok(None) | Err(_) => {
                session.finish();
                return 0;
            }
            Ok(Some(Ok(()))) => {
                // A session that opens with `hub` speaks the Hub dialect from then on, as Scan
                // does.
                if first_command && !buf.trim_ascii().is_empty() {
                    first_command = false;
                    if crate::hub::is_hub_line(&buf) {
                        return crate::hub::run(input, out, Some(&buf));
                    }
                }
                session.handle_line(&buf)
            }
            Ok(Some(Err(e))) => {
                session.out.error(&e);
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return 0;
        }
    }
}

/// Reads one line (up to and including `\n`, or to the end of input) into `buf`, keeping at
/// most `cap` bytes of it. `Ok(None)` at end of input; `Ok(Some(Err(TooLong)))` when the
/// line was longer: the rest of it was read and dropped chunk by chunk, never stored, and
/// `buf` is left empty.
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<Option<Result<(), LineError>>> {
    buf.clear();
    let mut seen = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        seen = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let used = part.len();
        if !too_long {
            // The line end does not count toward the cap.
            let body = part.strip_suffix(b"\n").unwrap_or(part);
            if buf.len() + body.len() > cap {
                too_long = true;
                buf.clear();
                buf.shrink_to(cap);
            } else {
                buf.extend_from_slice(part);
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    Ok(match (seen, too_long) {
        (false, _) => None,
        (true, false) => Some(Ok(())),
        (true, true) => Some(Err(LineError::TooLong)),
    })
}

/// One protocol session: the engine and where its replies go. [`run`] feeds it the lines of
/// its input; a test or fuzzer can feed it lines one at a time and look at the engine between
/// them (with an [`Output`] over an in-memory buffer to read the replies).
pub struct Session {
    engine: Engine,
    out: Output,
    /// `debug on`: extra `info string debug:` lines.
    debug: bool,
}

impl Session {
    /// A fresh engine (default settings, start position) replying to `out`.
    pub fn new(out: Output) -> Session {
        Session {
            engine: Engine::new(),
            out,
            debug: false,
        }
    }

    /// The engine, to inspect its game and settings between lines.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line (with or without its line end): parses and executes it, or
    /// answers an error line. Bytes that are not UTF-8 make the line invalid, never a panic.
    pub fn handle_line(&mut self, line: &[u8]) -> Flow {
        match command::parse(&String::from_utf8_lossy(line)) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// Ends the session as end of input does: a running search with a finite limit completes,
    /// an unbounded one is stopped; returns once its bestmove has been written.
    pub fn finish(&mut self) {
        self.engine.end_search();
    }

    /// Executes a parsed command.
    pub fn execute(&mut self, cmd: Command) -> Flow {
        if self.debug {
            self.out.note(&format!("debug: command {cmd:?}"));
        }
        match cmd {
            Command::Uci => self
                .out
                .lines(&output::uci_lines(&crate::engine::option_table())),
            Command::IsReady => {
                self.engine.prepare();
                self.out.line("readyok");
            }
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
            Command::Go(request) => self.go(request),
            Command::Perft { depth } => {
                let out = self.out.clone();
                let notation = self.engine.settings().notation;
                let started = self.engine.perft(
                    depth,
                    Box::new(move |d, complete| {
                        out.lines(&output::perft_lines(&d, complete, notation))
                    }),
                );
                if let Err(e) = started {
                    self.out.error(&e);
                }
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.engine.stop();
                self.engine.wait();
                return Flow::Quit;
            }
            Command::Display => self.out.lines(&output::display_lines(
                self.engine.game(),
                self.engine.settings().notation,
            )),
            Command::Bench { nodes } => {
                let out = self.out.clone();
                let started = self.engine.bench(
                    nodes.unwrap_or(bench::DEFAULT_NODES),
                    Box::new(move |r| out.lines(&output::bench_lines(&r))),
                );
                if let Err(e) = started {
                    self.out.error(&e);
                }
            }
            Command::Eval => self.out.lines(&output::eval_lines(self.engine.game())),
            Command::Debug(on) => self.debug = on,
        }
        Flow::Continue
    }

    fn go(&mut self, request: GoRequest) {
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
        let started = self.engine.go(
            request,
            Box::new(move |ev| events.line(&output::event_line(&ev, notation))),
            Box::new(move |outcome| answer.line(&output::bestmove_line(&outcome, notation))),
        );
        if let Err(e) = started {
            self.out.error(&e);
        }
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
    fn lines_over_the_cap_are_dropped_whole() {
        let mut input: &[u8] = b"12345\n123456\r\n1234567 and more\nlast";
        let mut buf = Vec::new();
        let mut next = || read_line(&mut input, &mut buf, 6).unwrap();
        assert_eq!(next(), Some(Ok(())));
        assert_eq!(next(), Some(Err(LineError::TooLong)));
        assert_eq!(next(), Some(Err(LineError::TooLong)));
        assert_eq!(next(), Some(Ok(())));
        assert_eq!(next(), None);
        // Exactly at the cap, line end not counted: kept.
        let mut input: &[u8] = b"123456\nab";
        assert_eq!(read_line(&mut input, &mut buf, 6).unwrap(), Some(Ok(())));
        assert_eq!(buf, b"123456\n");
        assert_eq!(read_line(&mut input, &mut buf, 6).unwrap(), Some(Ok(())));
        assert_eq!(buf, b"ab");
        assert_eq!(
            LineError::TooLong.to_string(),
            "line too long: more than 1048576 bytes; ignored"
        );
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
