//! How far a data generation is: `FILE.progress` beside the data file, `key value` lines,
//! rewritten whole (a temporary file renamed over it) after the data it counts is on disk.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::data::{Outcome, Record};

/// Why a progress file cannot be used.
#[derive(Debug, Error)]
pub enum ProgressError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A line is not `key value` with a known key and a number.
    #[error("{path}:{line}: not a progress line")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
    },
}

/// The counts of a generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Games written.
    pub games: u64,
    /// Positions written (the data file holds exactly these).
    pub positions: u64,
    /// Runs that wrote to the file (a resumed run is the next session).
    pub sessions: u64,
    /// Wall seconds of all sessions.
    pub seconds: f64,
    /// The positions the last run aimed at.
    pub target: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games ended by the tables.
    pub tabled: u64,
    /// Positions labelled by the tables' value of themselves.
    pub exact: u64,
    /// Positions labelled a win for their side to move.
    pub mover_wins: u64,
    /// Positions labelled a draw.
    pub mover_draws: u64,
    /// Positions labelled a loss for their side to move.
    pub mover_losses: u64,
}

/// The counts of [`Progress`] by name, in file order after `seconds`: how a line is read and
/// how the file is written.
macro_rules! counts {
    ($($field:ident),*) => {
        impl Progress {
            /// Sets the field `key` to `value`; false for an unknown key.
            fn set(&mut self, key: &str, value: f64) -> bool {
                match key {
                    "seconds" => self.seconds = value,
                    $(stringify!($field) => self.$field = value as u64,)*
                    _ => return false,
                }
                true
            }

            /// The file's text.
            pub fn text(&self) -> String {
                let mut out = format!("seconds {:.1}\n", self.seconds);
                $(let _ = writeln!(out, "{} {}", stringify!($field), self.$field);)*
                out
            }
        }
    };
}

counts!(
    games,
    positions,
    sessions,
    target,
    black_wins,
    draws,
    white_wins,
    tabled,
    exact,
    mover_wins,
    mover_draws,
    mover_losses
);

impl Progress {
    /// The progress file of the data file `data`.
    pub fn path_of(data: &Path) -> PathBuf {
        let mut name = data.as_os_str().to_owned();
        name.push(".progress");
        PathBuf::from(name)
    }

    /// Reads `path`; `None` when it does not exist.
    pub fn load(path: &Path) -> Result<Option<Progress>, ProgressError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(ProgressError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        Progress::parse(&text)
            .map(Some)
            .map_err(|line| ProgressError::BadLine {
                path: path.to_path_buf(),
                line,
            })
    }

    /// The progress of `text`; `Err(line)` names the first line that is not one.
    pub fn parse(text: &str) -> Result<Progress, usize> {
        let mut p = Progress::default();
        for (n, line) in text.lines().enumerate() {
            let mut words = line.split_whitespace();
            let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(n + 1);
            };
            let value: f64 = value.parse().map_err(|_| n + 1)?;
            if !value.is_finite() || value < 0.0 || !p.set(key, value) {
                return Err(n + 1);
            }
        }
        Ok(p)
    }

    /// Writes `path` whole: a temporary file beside it, renamed over it.
    pub fn save(&self, path: &Path) -> Result<(), ProgressError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let io = |source| ProgressError::Io {
            path: path.to_path_buf(),
            source,
        };
        std::fs::write(&tmp, self.text()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Counts a game written with its `records`.
    pub fn add_game(&mut self, records: &[Record], outcome: Outcome, tabled: bool) {
        self.games += 1;
        self.positions += records.len() as u64;
        match outcome {
            Outcome::BlackWins => self.black_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::WhiteWins => self.white_wins += 1,
        }
        self.tabled += u64::from(tabled);
        for r in records {
            self.exact += u64::from(r.exact);
            let s = r.mover_score();
            if s > 0.75 {
                self.mover_wins += 1;
            } else if s < 0.25 {
                self.mover_losses += 1;
            } else {
                self.mover_draws += 1;
            }
        }
    }

    /// One line: positions against the target, games and their results, the labels' split,
    /// time and rate.
    pub fn summary(&self) -> String {
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        format!(
            "{} of {} positions ({:.1}%), {} games (black +{} ={} -{}, {} ended by the tables), \
             labels win {:.1}% draw {:.1}% loss {:.1}% for the side to move, {} exact; \
             {} sessions, {:.0} s, {:.0} positions/s",
            self.positions,
            self.target,
            pct(self.positions, self.target),
            self.games,
            self.black_wins,
            self.draws,
            self.white_wins,
            self.tabled,
            pct(self.mover_wins, self.positions),
            pct(self.mover_draws, self.positions),
            pct(self.mover_losses, self.positions),
            self.exact,
            self.sessions,
            self.seconds,
            self.positions as f64 / self.seconds.max(1e-9),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_and_refuses_junk() {
        let p = Progress {
            games: 12,
            positions: 1234,
            sessions: 2,
            seconds: 61.5,
            target: 50_000_000,
            black_wins: 5,
            draws: 4,
            white_wins: 3,
            tabled: 7,
            exact: 40,
            mover_wins: 500,
            mover_draws: 400,
            mover_losses: 334,
        };
        assert_eq!(Progress::parse(&p.text()), Ok(p));
        assert_eq!(Progress::parse("games 1\npositions x\n"), Err(2));
        assert_eq!(Progress::parse("colour 1\n"), Err(1));
        assert_eq!(Progress::parse("games -1\n"), Err(1));
    }
}
