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
use std::io::{LineWriter, Write};
use std::sync::Mutex;
use std::time::Instant;

use super::error::TourneyError;
use super::outputs::{check_kind, Kind};

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
        check_kind("--debug-log", path, Kind::DebugLog)?;
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
