//! Reading commands: the capped line reader ([`LineReader`], also the match runner's reader of
//! engine output) and the one input loop ([`run`]) both dialects (the protocol and Hub) are
//! driven by.
//!
//! The loop's reader thread reads lines as they come, whatever the session is doing, and hands
//! them over in order through a bounded channel; the session's thread executes them. The
//! session can be woken without a line ([`Waker`]) when its search has answered, to run what it
//! had put off until then.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::time::Instant;

use thiserror::Error;

use super::Flow;

/// Longest input line kept, in bytes (its line end not counted). A longer line is read to
/// its end and dropped without being stored, and answered with one error: memory stays
/// bounded whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Lines read ahead of the session: beyond this the reader thread waits, so a flood of input
/// costs at most this many lines of memory.
const READ_AHEAD_LINES: usize = 64;

/// Why an input line was dropped before parsing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("line too long: more than {MAX_LINE_BYTES} bytes; ignored")]
    TooLong,
}

/// One line as [`LineReader`] read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line without its line end (`\n` or `\r\n`): at most the reader's cap of bytes.
    pub text: &'a [u8],
    /// True when the line was longer than the cap: `text` holds its first bytes, the rest was
    /// read and dropped chunk by chunk, never stored.
    pub cut: bool,
}

/// Reads lines of at most a fixed number of bytes from a [`BufRead`]: a line that never ends
/// cannot grow the reader.
pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
    cap: usize,
    cut: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads `input`, keeping at most `cap` bytes of each line.
    pub fn new(input: R, cap: usize) -> LineReader<R> {
        LineReader {
            input,
            buf: Vec::new(),
            cap,
            cut: false,
        }
    }

    /// The next line (up to `\n`, or to the end of input); `None` at the end of input.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line<'_>>> {
        self.buf.clear();
        self.cut = false;
        let mut seen = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            seen = true;
            let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], true),
                None => (chunk, false),
            };
            // One byte over the cap is kept for a `\r` before the `\n`, which does not count.
            let room = (self.cap + 1).saturating_sub(self.buf.len());
            if part.len() > room {
                self.cut = true;
            }
            self.buf.extend_from_slice(&part[..part.len().min(room)]);
            let used = part.len() + usize::from(done);
            self.input.consume(used);
            if done {
                break;
            }
        }
        if !seen {
            return Ok(None);
        }
        // A `\r` cut off with the rest of a long line is not this line's end.
        if !self.cut && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > self.cap {
            self.cut = true;
            self.buf.truncate(self.cap);
        }
        Ok(Some(Line {
            text: &self.buf,
            cut: self.cut,
        }))
    }
}

/// A session of one dialect, as the input loop drives it.
pub trait Dialect {
    /// Handles one input line (without its line end), read at `read_at`.
    fn line(&mut self, line: &[u8], read_at: Instant) -> Flow;
    /// Answers a line that was dropped unread.
    fn dropped(&mut self, error: &LineError);
    /// The running search has answered (see [`Waker`]): runs what waited for it.
    fn answered(&mut self) -> Flow {
        Flow::Continue
    }
    /// Ends the session at the end of input; returns once its last reply is written.
    fn finish(&mut self);
}

/// What the reader thread (and a search that answered) tell the session's thread.
enum Event {
    Line(Vec<u8>, Instant),
    Dropped(LineError),
    Answered,
    End,
}

/// Wakes the input loop's session thread without an input line: a search calls it once its
/// answer is written. Cheap to clone; a waker of no loop does nothing.
#[derive(Clone, Default)]
pub struct Waker(Option<SyncSender<Event>>);

impl Waker {
    /// Wakes the session thread (never waits: when the channel is full, the session has lines
    /// to handle and looks at its search before each).
    pub fn wake(&self) {
        if let Some(tx) = &self.0 {
            match tx.try_send(Event::Answered) {
                Ok(()) | Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {}
            }
        }
    }
}

/// Runs `make`'s session on `input` until it returns [`Flow::Quit`] or the input ends; returns
/// the process exit code (always 0: bad input is answered, never fatal). Lines are read as
/// bytes on a thread of their own, so input that is not UTF-8 is answered like any other bad
/// line and a session busy with a command never stops the reading.
pub fn run<D: Dialect>(input: impl BufRead + Send + 'static, make: impl FnOnce(Waker) -> D) -> i32 {
    let (tx, rx) = mpsc::sync_channel(READ_AHEAD_LINES);
    let mut session = make(Waker(Some(tx.clone())));
    let reader = std::thread::Builder::new()
        .name("input".to_string())
        .spawn(move || read_all(input, &tx));
    if reader.is_err() {
        // No thread: nothing can be read. Behave as at the end of input.
        session.finish();
        return 0;
    }
    drive(&mut session, &rx)
}

fn drive(session: &mut impl Dialect, rx: &Receiver<Event>) -> i32 {
    loop {
        let flow = match rx.recv() {
            Ok(Event::Line(line, read_at)) => session.line(&line, read_at),
            Ok(Event::Dropped(e)) => {
                session.dropped(&e);
                Flow::Continue
            }
            Ok(Event::Answered) => session.answered(),
            // End of input, or a broken input stream, which means the same: no more commands.
            Ok(Event::End) | Err(_) => {
                session.finish();
                return 0;
            }
        };
        if flow == Flow::Quit {
            return 0;
        }
    }
}

/// The reader thread: every line of `input`, in order, then `End`.
fn read_all(input: impl BufRead, tx: &SyncSender<Event>) {
    let mut reader = LineReader::new(input, MAX_LINE_BYTES);
    loop {
        let event = match reader.next_line() {
            Ok(Some(line)) if line.cut => Event::Dropped(LineError::TooLong),
            Ok(Some(line)) => Event::Line(line.text.to_vec(), Instant::now()),
            Ok(None) | Err(_) => Event::End,
        };
        let end = matches!(event, Event::End);
        // The session is gone (it quit): nothing more to read for.
        if tx.send(event).is_err() || end {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn lines(input: &[u8], cap: usize) -> Vec<(String, bool)> {
        let mut r = LineReader::new(input, cap);
        let mut v = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            v.push((String::from_utf8_lossy(l.text).into_owned(), l.cut));
        }
        v
    }

    #[test]
    fn lines_over_the_cap_are_cut_and_the_rest_dropped() {
        let got = lines(b"12345\n123456\r\n1234567 and more\nlast", 6);
        let want = [
            ("12345", false),
            ("123456", false),
            ("123456", true),
            ("last", false),
        ];
        let want: Vec<(String, bool)> = want.iter().map(|(s, c)| (s.to_string(), *c)).collect();
        assert_eq!(got, want);
        // A line end alone is an empty line; no bytes at all is no line.
        assert_eq!(lines(b"\n", 6), [(String::new(), false)]);
        assert!(lines(b"", 6).is_empty());
        assert_eq!(
            LineError::TooLong.to_string(),
            "line too long: more than 1048576 bytes; ignored"
        );
    }

    #[test]
    fn a_line_that_never_ends_costs_the_cap_only() {
        // 10 MB without a newline, then a short line: the first is cut, the second intact.
        let long = std::io::repeat(b'x').take(10_000_000);
        let mut r = LineReader::new(
            std::io::BufReader::new(long.chain(&b"\nreadyok\n"[..])),
            100,
        );
        let first = r.next_line().unwrap().unwrap();
        assert_eq!((first.text.len(), first.cut), (100, true));
        assert!(r.buf.capacity() < 100_000);
        let second = r.next_line().unwrap().unwrap();
        assert_eq!((second.text, second.cut), (&b"readyok"[..], false));
        assert!(r.next_line().unwrap().is_none());
    }
}
