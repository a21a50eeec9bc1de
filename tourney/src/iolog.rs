//! `--debug-log FILE`: every line between the runner and its engines, both directions, with
//! a timestamp and the engine it went to or came from.
//!
//! One line per engine line: `<ms> <dir><name>(<pid>): <text>`, where `<ms>` is milliseconds
//! since the match started (three decimals), `<dir>` is `>` for a line sent to the engine and
//! `<` for a line received from it (cutechess-cli's `-debug` layout), `<name>` the engine's
//! name in the match and `<pid>` its process id (several copies of one engine run at once
//! under `--concurrency`, and a restarted engine gets a new one). Lines from an engine are
//! stamped when the runner's reader thread received them.
//!
//! The file is appended to: each match starts with a line `0.000 # buffgreen match <version>`,
//! written and flushed when the match starts, so that a log that cannot be written is an error
//! before the first game. An existing file that does not start like a log is refused.

use std::fs::{File, OpenOptions};
use std::io::{LineWriter, Read, Write};
use std::sync::Mutex;
use std::time::Instant;

use super::error::TourneyError;

/// The log file, shared by every engine process of a match.
#[derive(Debug)]
pub struct IoLog {
    start: Instant,
    out: Mutex<LineWriter<File>>,
}

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the runner to the engine.
    ToEngine,
    /// From the engine to the runner.
    FromEngine,
}

impl IoLog {
    /// Opens the log file for appending (creating it) and writes its first line. An existing
    /// file that does not start like a log is refused, untouched.
    pub fn create(path: &str) -> Result<IoLog, TourneyError> {
        let io = |source| TourneyError::Io {
            path: path.to_string(),
            source,
        };
        // Only a regular file is looked into: opening a FIFO to read would wait for a writer.
        let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
        if let Some(mut old) = regular.then(|| File::open(path).ok()).flatten() {
            let mut head = [0u8; 64];
            let n = old.read(&mut head).unwrap_or(0);
            if n > 0 && !is_log(&head[..n]) {
                return Err(TourneyError::Config(format!(
                    "--debug-log {path} exists and is not a debug log: give a new file"
                )));
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        file.write_all(
            format!("0.000 # buffgreen match {}\n", env!("CARGO_PKG_VERSION")).as_bytes(),
        )
        .and_then(|_| file.flush())
        .map_err(io)?;
        Ok(IoLog {
            start: Instant::now(),
            out: Mutex::new(LineWriter::new(file)),
        })
    }

    /// Writes one line. A failing log (disk full) loses log lines, never the match.
    pub fn write(&self, at: Instant, dir: Direction, engine: &str, line: &str) {
        let ms = at.saturating_duration_since(self.start).as_secs_f64() * 1000.0;
        let arrow = match dir {
            Direction::ToEngine => '>',
            Direction::FromEngine => '<',
        };
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{ms:.3} {arrow}{engine}: {line}");
        }
    }
}

/// True when `head`, the start of a file, starts like a log line: `<ms>.<3 digits> ` and then
/// `>`, `<` or `#`.
fn is_log(head: &[u8]) -> bool {
    let digits = head.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = &head[digits..];
    digits > 0
        && rest.len() >= 6
        && rest[0] == b'.'
        && rest[1..4].iter().all(u8::is_ascii_digit)
        && rest[4] == b' '
        && matches!(rest[5], b'>' | b'<' | b'#')
}

#[cfg(test)]
mod tests {
    use super::is_log;

    #[test]
    fn a_log_is_known_by_its_first_line() {
        assert!(is_log(b"0.000 # buffgreen match 0.1.0\n"));
        assert!(is_log(b"12.345 >A(77): uci\n"));
        assert!(!is_log(b"[Event \"x\"]\n"));
        assert!(!is_log(b"{\"type\":\"game\"}\n"));
        assert!(!is_log(b"11-15 23-19\n"));
        assert!(!is_log(b"0.00 >A: uci"));
    }
}
