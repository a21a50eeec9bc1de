//! Match runner: plays engine-vs-engine games between processes that speak the protocol, in
//! the spirit of cutechess-cli.
//!
//! Layout: [`spec`] parses `--engine` specifications, [`tc`] time controls and clocks,
//! [`process`] drives one engine process (a reader thread timestamps its lines), [`referee`] plays and judges one game, [`pdn`] writes
//! and reads PDN, [`stats`] and [`sprt`] turn results into figures. `args` is the command
//! line, `runner` the schedule and the worker threads, `report` the progress line and the
//! table, `verify` the PDN check, `date` the PDN date. `adjudicate` ends games by the
//! engines' scores, `iolog` is the engine I/O log, `outputs` keeps outputs off inputs, `resume` reads back the finished games of
//! an interrupted run, `shard` cuts the schedule into slices and `merge` tallies the games of
//! several PDN files as one run. `schedule` is the match built from the arguments (engines,
//! openings, pairings, game order), `ordered` puts finished games back in round order, `json`
//! writes the JSON Lines record, `summary` is what a finished match reports, [`error`] holds the
//! runner's one error type and [`suite`] is `buffgreen suite`. The engine processes, their
//! replies, engine specs and PDN text are the protocol client's (the client crate), shared with
//! the front ends. This file is the front door.

pub mod adjudicate;
mod args;
mod date;
pub mod error;
mod iolog;
mod json;
mod merge;
mod ordered;
mod outputs;
pub mod pdn;
pub mod process;
pub mod referee;
mod report;
mod resume;
mod runner;
mod schedule;
mod shard;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod suite;
mod summary;
pub mod tc;
mod verify;

use std::io::Write;

pub use args::{MatchArgs, MatchOptions, Tournament};
use error::TourneyError;
pub use outputs::check_pdn;
use sprt::Decision;
pub use summary::Summary;
pub use verify::verify_pdn;

/// Runs a match (or a PDN check); returns the process exit code (docs/match.md, "Exit
/// status"): 0 done (under `--sprt`: H1 accepted), 1 `--verify-pdn` found a bad game (or
/// none), 2 bad arguments, an input that cannot be read or is malformed, an engine that
/// cannot be started or an output that cannot be written (the table of the games finished
/// before it printed), [`EXIT_H0`] and [`EXIT_NO_DECISION`] under `--sprt`, 130 stopped by
/// Ctrl-C (the table of the finished games printed).
pub fn run(args: &MatchArgs) -> i32 {
    if let Some(path) = &args.verify_pdn {
        return match verify_pdn(path) {
            Ok(summary) => {
                say(&format!("{summary}\n"));
                0
            }
            Err(e @ TourneyError::Io { .. }) => {
                note(&format!("error: {e}\n"));
                2
            }
            Err(e) => {
                note(&format!("error: {e}\n"));
                1
            }
        };
    }
    if !args.merge.is_empty() {
        return match merge::merge(args) {
            Ok((table, decision)) => {
                say(&table);
                sprt_exit(decision, !args.sprt.is_empty())
            }
            Err(e) => {
                note(&format!("error: {e}\n"));
                2
            }
        };
    }
    // Ctrl-C ends the match with the table of its finished games instead of killing it
    // (the engines run in their own process groups, so the terminal's signal reaches only
    // the runner). An error means a handler is already set; the match then runs without.
    let _ = ctrlc::set_handler(runner::interrupt);
    match play(args) {
        Ok(summary) => {
            say(&summary.table);
            exit_code(&summary, !args.sprt.is_empty())
        }
        Err(TourneyError::Stopped { table, cause }) => {
            say(&table);
            note(&format!("error: {cause}\n"));
            2
        }
        Err(e) => {
            note(&format!("error: {e}\n"));
            2
        }
    }
}

/// Exit status of a match under `--sprt` that accepted H0 (the first engine is not stronger
/// by elo1).
pub const EXIT_H0: i32 = 3;

/// Exit status of a match under `--sprt` whose games ran out before a decision.
pub const EXIT_NO_DECISION: i32 = 4;

/// The exit status of a finished match: 130 when interrupted; under `--sprt` 0 for H1,
/// [`EXIT_H0`] or [`EXIT_NO_DECISION`]; otherwise 0.
pub fn exit_code(summary: &Summary, sprt: bool) -> i32 {
    if summary.interrupted {
        130
    } else {
        sprt_exit(summary.decision, sprt)
    }
}

/// The exit status of finished games (played, or merged by `--merge`) under `--sprt`: 0 for
/// H1, [`EXIT_H0`], [`EXIT_NO_DECISION`]; 0 without `--sprt`.
fn sprt_exit(decision: Option<(Decision, f64)>, sprt: bool) -> i32 {
    match decision {
        _ if !sprt => 0,
        Some((Decision::H1, _)) => 0,
        Some((Decision::H0, _)) => EXIT_H0,
        None => EXIT_NO_DECISION,
    }
}

/// Writes to stdout. A closed or failing stdout (`match ... | head -c0`) loses the text but
/// never the run: the games are in the PDN and the exit status still tells the result.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Writes to stderr (progress, warnings, errors), ignoring write errors like [`say`].
pub(crate) fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
}

/// Plays a match as `args` say (progress on stderr) and returns its summary.
pub fn play(args: &MatchArgs) -> Result<Summary, TourneyError> {
    schedule::Match::new(args)?.run()
}
