//! The match runner's one error type: everything that stops a match before or while it runs.

use thiserror::Error;

use super::pdn::{PdnError, PdnFileError};

/// Why a match (or a PDN check) cannot go on. Faults of an engine during a game are not errors:
/// they lose that game (see [`super::referee::Termination`]).
#[derive(Debug, Error)]
pub enum TourneyError {
    /// An `--engine` specification is malformed.
    #[error(transparent)]
    Spec(#[from] buffgreen_client::SpecError),
    /// A time control does not parse.
    #[error("bad time control '{0}': expected moves/seconds+increment or seconds+increment, like 40/60+0.6 or 60+0.6")]
    TimeControl(String),
    /// The `--sprt` parameters do not parse or make no sense.
    #[error("bad SPRT parameters '{text}': {why}")]
    Sprt {
        /// The parameters as given.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system error.
        source: std::io::Error,
    },
    /// The openings cannot be had (a file, a line of it, or random openings).
    #[error(transparent)]
    Openings(#[from] buffgreen::openings::OpeningsError),
    /// PDN games do not read back, or a PDN file holds none.
    #[error(transparent)]
    Pdn(#[from] PdnFileError),
    /// An engine program could not be started at all (not found, not executable).
    #[error("cannot start engine '{name}' ({program}): {source}")]
    Spawn {
        /// The engine's name.
        name: String,
        /// The program.
        program: String,
        /// The system error.
        source: std::io::Error,
    },
    /// An error stopped a match that had started: `table` is the table of the games finished
    /// before it (printed on stdout before the error).
    #[error("{cause}")]
    Stopped {
        /// The table of the finished games.
        table: String,
        /// What stopped the match.
        cause: Box<TourneyError>,
    },
    /// The arguments contradict each other.
    #[error("{0}")]
    Config(String),
}

impl From<PdnError> for TourneyError {
    fn from(e: PdnError) -> TourneyError {
        TourneyError::Pdn(e.into())
    }
}
