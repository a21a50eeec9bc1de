//! Reading commands: the capped line reader ([`LineReader`]) and the one input loop ([`run`])
//! both dialects (the protocol and Hub) are driven by.
//!
//! The loop's reader thread reads lines as they come, whatever the session is doing, and hands
//! them over in order; the session's thread executes them, or keeps them to run later (behind a
//! search with a finite limit). The session can be woken without a line ([`Waker`]) when its
//! search has answered, to run what it had put off until then. What the reader has handed over
//! and the session still keeps is bounded in bytes ([`MAX_WAITING_BYTES`]): beyond that the
//! reader waits, so no input can make the engine's memory grow without bound, and below it the
//! session sees every line at once (`isready`, `stop` and `quit` are answered whatever waits).

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::Flow;

/// Longest input line kept, in bytes (its line end not counted). A longer line is read to
/// its end and dropped without being stored, and answered with one error: memory stays
/// bounded whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Most bytes of input the reader may have handed over that the session has not yet executed
/// (read ahead, or waiting behind a search): beyond this the reader thread waits until some
/// have run. Each line counts its bytes and `LINE_OVERHEAD`. Large enough for any script of
/// commands to be read whole while a search runs, so that `isready`, `stop` and `quit` after
/// them are seen at once; small beside the search tree.
pub const MAX_WAITING_BYTES: usize = 64 << 20;

/// What a kept line costs beyond its bytes (its buffer's header and allocation), so that a
/// flood of empty lines is bounded too.
const LINE_OVERHEAD: usize = 64;

/// How often the session's thread looks at its search when nothing wakes it: a search that
/// died without answering must not leave the commands behind it waiting for ever.
const IDLE_POLL: Duration = Duration::from_millis(100);

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
    /// Handles one input line (without its line end), read at `read_at`. A session that keeps
    /// the line to run it later counts it with [`Waker::hold`] until it has run.
    fn line(&mut self, line: Vec<u8>, read_at: Instant) -> Flow;
    /// Answers a line that was dropped unread.
    fn dropped(&mut self, error: &LineError);
    /// The running search may have answered (see [`Waker`]): runs what waited for it. Once the
    /// input has ended, [`Flow::Quit`] says that nothing is left to do.
    fn answered(&mut self) -> Flow {
        Flow::Continue
    }
    /// The input has ended: [`Flow::Quit`] when the session is done and its last reply
    /// written; [`Flow::Continue`] while it finishes work that was asked for (the loop then
    /// calls [`Dialect::answered`] until that says [`Flow::Quit`]).
    fn ended(&mut self) -> Flow;
}

/// What the reader thread (and a search that answered) tell the session's thread.
enum Event {
    Line(Vec<u8>, Instant),
    Dropped(LineError),
    Answered,
    End,
}

/// The bytes of input handed over and not yet executed (see [`MAX_WAITING_BYTES`]).
#[derive(Default)]
struct Budget {
    used: Mutex<usize>,
    freed: Condvar,
}

impl Budget {
    /// Waits until `cost` more bytes fit (always when nothing is held), then counts them.
    fn acquire(&self, cost: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && *used + cost > MAX_WAITING_BYTES {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += cost;
    }

    /// Counts `cost` more bytes without waiting.
    fn add(&self, cost: usize) {
        *self.used.lock().unwrap_or_else(|e| e.into_inner()) += cost;
    }

    /// Counts `cost` bytes as executed, and lets a waiting reader on.
    fn release(&self, cost: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(cost);
        self.freed.notify_all();
    }
}

/// What a line of `len` bytes counts against [`MAX_WAITING_BYTES`].
fn cost(len: usize) -> usize {
    len + LINE_OVERHEAD
}

/// The session's handle on its input loop: wakes the loop's session thread without an input
/// line (a search calls it once its answer is written), and counts the lines the session keeps
/// to run later. Cheap to clone; a waker of no loop wakes nothing and limits nothing.
#[derive(Clone, Default)]
pub struct Waker {
    tx: Option<Sender<Event>>,
    budget: Arc<Budget>,
}

impl Waker {
    /// Wakes the session thread (never waits).
    pub fn wake(&self) {
        if let Some(tx) = &self.tx {
            // A loop that has ended has nobody to wake.
            let _ = tx.send(Event::Answered);
        }
    }

    /// Counts a line of `len` bytes that the session keeps to run later, until
    /// [`Waker::release`]: while kept lines fill [`MAX_WAITING_BYTES`], the reader waits.
    pub fn hold(&self, len: usize) {
        self.budget.add(cost(len));
    }

    /// The kept line of `len` bytes has run (see [`Waker::hold`]).
    pub fn release(&self, len: usize) {
        self.budget.release(cost(len));
    }
}

/// Runs `make`'s session on `input` until it returns [`Flow::Quit`] (after `quit`, or once the
/// work asked for before the end of input is done); returns the process exit code (always 0:
/// bad input is answered, never fatal). Lines are read as bytes on a thread of their own, so
/// input that is not UTF-8 is answered like any other bad line and a session busy with a
/// command never stops the reading.
pub fn run<D: Dialect>(input: impl BufRead + Send + 'static, make: impl FnOnce(Waker) -> D) -> i32 {
    let (tx, rx) = mpsc::channel();
    let waker = Waker {
        tx: Some(tx.clone()),
        budget: Arc::default(),
    };
    let budget = Arc::clone(&waker.budget);
    let mut session = make(waker.clone());
    let reader = {
        let (tx, budget) = (tx.clone(), Arc::clone(&budget));
        std::thread::Builder::new()
            .name("input".to_string())
            .spawn(move || read_all(input, &tx, &budget))
    };
    if reader.is_err() {
        // No thread: nothing can be read. Behave as at the end of input.
        let _ = tx.send(Event::End);
    }
    drive(&mut session, &rx, &budget)
}

fn drive(session: &mut impl Dialect, rx: &Receiver<Event>, budget: &Budget) -> i32 {
    let mut ended = false;
    loop {
        let flow = match rx.recv_timeout(IDLE_POLL) {
            Ok(Event::Line(line, read_at)) => {
                let len = line.len();
                let flow = session.line(line, read_at);
                budget.release(cost(len));
                flow
            }
            Ok(Event::Dropped(e)) => {
                session.dropped(&e);
                budget.release(cost(0));
                Flow::Continue
            }
            Ok(Event::Answered) | Err(RecvTimeoutError::Timeout) => session.answered(),
            // End of input, or a broken input stream, which means the same: no more commands.
            // (The session's waker keeps the channel open, so it is never disconnected.)
            Ok(Event::End) | Err(RecvTimeoutError::Disconnected) if !ended => {
                ended = true;
                session.ended()
            }
            Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => session.answered(),
        };
        if flow == Flow::Quit {
            return 0;
        }
    }
}

/// The reader thread: every line of `input`, in order, then `End`. Waits while the lines handed
/// over and not yet executed fill [`MAX_WAITING_BYTES`].
fn read_all(input: impl BufRead, tx: &Sender<Event>, budget: &Budget) {
    let mut reader = LineReader::new(input, MAX_LINE_BYTES);
    loop {
        let event = match reader.next_line() {
            Ok(Some(line)) if line.cut => Event::Dropped(LineError::TooLong),
            Ok(Some(line)) => Event::Line(line.text.to_vec(), Instant::now()),
            Ok(None) | Err(_) => Event::End,
        };
        match &event {
            Event::Line(line, _) => budget.acquire(cost(line.len())),
            Event::Dropped(_) => budget.acquire(cost(0)),
            Event::Answered | Event::End => {}
        }
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
