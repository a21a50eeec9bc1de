//! One engine as the runner drives it: the protocol client's process (started from an
//! [`EngineSpec`], read by a thread that timestamps every line it receives), waited on with
//! deadlines so that waiting never blocks the runner forever, its faults named.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use buffgreen_client::info::{first_word, is_complaint};
use buffgreen_client::process::{self as client, Event, Spawn, Stderr};

use super::error::TourneyError;
use super::iolog::{Direction, IoLog};
use super::spec::EngineSpec;

/// How talking to an engine went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The process closed its output or its input (exited or crashed).
    #[error("the engine exited")]
    Crashed,
    /// Nothing acceptable arrived before the deadline.
    #[error("no reply in time")]
    Timeout,
    /// A line that breaks the protocol at this point (for instance a second `bestmove`).
    #[error("unexpected line '{0}'")]
    Protocol(String),
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    process: client::EngineProcess,
    /// Lines like `info string error: ...` the engine sent since they were last taken.
    complaints: Vec<String>,
    dead: bool,
    /// The largest `Seed` the engine takes, when its `uci` reply offers a spin option `Seed`.
    pub seed_max: Option<u64>,
    /// `--debug-log`: the log and this process's label in it (`name(pid)`).
    log: Option<(Arc<IoLog>, String)>,
}

impl EngineProcess {
    /// Starts the program of `spec` with piped stdin/stdout; its stderr is discarded so that
    /// the progress line stays readable.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, TourneyError> {
        Self::spawn_logged(spec, None)
    }

    /// [`EngineProcess::spawn`], writing every line both ways to `log` when given.
    pub fn spawn_logged(
        spec: &EngineSpec,
        log: Option<Arc<IoLog>>,
    ) -> Result<EngineProcess, TourneyError> {
        let c = &spec.command;
        // The label holds the pid, known once the process runs: the reader's tap waits for it
        // in this slot before it writes a line (set right after the start).
        let label: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
        let tap = log.clone().map(|log| {
            let label = Arc::clone(&label);
            Box::new(move |at: Instant, line: &str| {
                log.write(at, Direction::FromEngine, label.wait(), line.trim_end());
            }) as client::Tap
        });
        let process = client::EngineProcess::spawn(
            c,
            Spawn {
                stderr: Stderr::Discard,
                queue: None,
                tap,
            },
        )
        .map_err(|source| TourneyError::Spawn {
            name: c.name.clone(),
            program: c.program.clone(),
            source,
        })?;
        let log = log.map(|l| {
            let who = format!("{}({})", c.name, process.id());
            let _ = label.set(who.clone());
            (l, who)
        });
        Ok(EngineProcess {
            name: c.name.clone(),
            process,
            complaints: Vec::new(),
            dead: false,
            seed_max: None,
            log,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// False once the engine crashed, timed out without recovering, or was killed.
    pub fn alive(&self) -> bool {
        !self.dead
    }

    /// Sends one line; returns the moment it was flushed.
    pub fn send(&mut self, line: &str) -> Result<Instant, Fault> {
        let ok = self.process.send(line);
        if let Some((log, who)) = &self.log {
            log.write(Instant::now(), Direction::ToEngine, who, line);
        }
        match ok {
            Ok(()) => Ok(Instant::now()),
            Err(_) => {
                self.dead = true;
                Err(Fault::Crashed)
            }
        }
    }

    /// Reads lines until `accept` returns `Some` for one (returned with its arrival time).
    /// `reject` names lines that are protocol violations at this point. Engine complaints
    /// (`info string error...`) are kept for [`EngineProcess::take_complaints`].
    pub fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&str) -> Option<T>,
        reject: impl Fn(&str) -> bool,
    ) -> Result<(T, Instant), Fault> {
        loop {
            let now = Instant::now();
            let event = if now >= deadline {
                // Take what already arrived before declaring a timeout.
                match self.process.try_recv() {
                    Some(e) => e,
                    None => return Err(Fault::Timeout),
                }
            } else {
                match self.process.recv_timeout(deadline - now) {
                    Some(e) => e,
                    None => continue,
                }
            };
            match event {
                Event::Eof => {
                    self.dead = true;
                    return Err(Fault::Crashed);
                }
                Event::Line(line, at) => {
                    let line = trimmed(line);
                    if let Some(v) = accept(&line) {
                        return Ok((v, at));
                    }
                    if reject(&line) {
                        return Err(Fault::Protocol(line));
                    }
                    if is_complaint(&line) {
                        self.complaints.push(line);
                    }
                }
            }
        }
    }

    /// Sends `isready` and waits for `readyok`; a `bestmove` meanwhile is a protocol violation
    /// (there is no search to answer), which keeps stray replies out of the next move.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        let sent = self.send("isready")?;
        self.wait_for(
            sent + timeout,
            |l| (l.trim() == "readyok").then_some(()),
            |l| first_word(l) == Some("bestmove"),
        )
        .map(|_| ())
    }

    /// The engine's complaints since the last call.
    pub fn take_complaints(&mut self) -> Vec<String> {
        std::mem::take(&mut self.complaints)
    }

    /// Kills the process and its process group now.
    pub fn kill(&mut self) {
        self.dead = true;
        self.process.kill();
    }
}

impl Drop for EngineProcess {
    /// A crashed or timed-out engine is killed at once; a live one is asked to `quit` first
    /// (by the client's process): no process outlives the runner.
    fn drop(&mut self) {
        if self.dead {
            self.process.kill();
        }
    }
}

/// A line without the spaces an engine may leave at its end.
fn trimmed(mut line: String) -> String {
    line.truncate(line.trim_end().len());
    line
}
