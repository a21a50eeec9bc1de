//! `--debug-log FILE`: every line between the runner and its engines, both directions, with
//! a timestamp and the engine it went to or came from.
//!
//! One line per engine line: `<ms> <dir><name>(<pid>): <text>`, where `<ms>` is milliseconds
//! since the match started (three decimals), `<dir>` is `>` for a line sent to the engine and
//! `<` for a line received from it (cutechess-cli's `-debug` layout), `<name>` the engine's
//! name in the match and `<pid>` its process id (several copies of one engine run at once
//! under `--concurrency`, and a restarted engine gets a new one). Lines from an engine are
//! stamped when the runner's reader thread received them.

use std::fs::File;
use std::io::{LineWriter, Write};
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
    /// Creates (truncates) the log file.
    pub fn create(path: &str) -> Result<IoLog, TourneyError> {
        let file = File::create(path).map_err(|source| TourneyError::Io {
            path: path.to_string(),
            source,
        })?;
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
