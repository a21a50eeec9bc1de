//! One engine process: started from an [`EngineSpec`], fed lines on stdin, read by a thread
//! that timestamps every line it receives so that waiting never blocks the runner forever.

use std::io::{BufReader, Write};

use buffgreen::protocol::input::LineReader;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::error::TourneyError;
use super::iolog::{Direction, IoLog};
use super::spec::EngineSpec;
use std::sync::Arc;

/// A line from the engine, stamped when the reader thread got it, or the end of its output.
enum Event {
    Line(String, Instant),
    Eof,
}

/// How talking to an engine went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process closed its output or its input (exited or crashed).
    Crashed,
    /// Nothing acceptable arrived before the deadline.
    Timeout,
    /// A line that breaks the protocol at this point (for instance a second `bestmove`).
    Protocol(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed => write!(f, "the engine exited"),
            Fault::Timeout => write!(f, "no reply in time"),
            Fault::Protocol(line) => write!(f, "unexpected line '{line}'"),
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
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
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Its own process group, so that whatever a wrapper script starts ends with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|source| TourneyError::Spawn {
            name: spec.name.clone(),
            program: spec.program.clone(),
            source,
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (tx, events) = mpsc::channel();
        let log = log.map(|l| (l, format!("{}({})", spec.name, child.id())));
        let reader_log = log.clone();
        if let Some(out) = stdout {
            thread::spawn(move || {
                let mut reader = LineReader::new(BufReader::new(out), MAX_LINE);
                loop {
                    match reader.next_line() {
                        Ok(None) | Err(_) => break,
                        Ok(Some(l)) => {
                            let now = Instant::now();
                            let line = String::from_utf8_lossy(l.text).trim_end().to_string();
                            if let Some((log, who)) = &reader_log {
                                log.write(now, Direction::FromEngine, who, &line);
                            }
                            if tx.send(Event::Line(line, now)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Event::Eof);
            });
        }
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            events,
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
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Fault::Crashed);
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
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
                match self.events.try_recv() {
                    Ok(e) => e,
                    Err(mpsc::TryRecvError::Empty) => return Err(Fault::Timeout),
                    Err(mpsc::TryRecvError::Disconnected) => Event::Eof,
                }
            } else {
                match self.events.recv_timeout(deadline - now) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => Event::Eof,
                }
            };
            match event {
                Event::Eof => {
                    self.dead = true;
                    return Err(Fault::Crashed);
                }
                Event::Line(line, at) => {
                    if let Some(v) = accept(&line) {
                        return Ok((v, at));
                    }
                    if reject(&line) {
                        return Err(Fault::Protocol(line));
                    }
                    if line.starts_with("info string error") {
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
        self.stdin = None;
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends every process left in the engine's group (children of a wrapper script, helpers
    /// the engine started), also after the engine itself has exited.
    fn kill_group(&self) {
        #[cfg(target_os = "linux")]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            use nix::sys::signal::{killpg, Signal};
            let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

impl Drop for EngineProcess {
    /// Asks a live engine to `quit`, gives it a moment, then kills it and its group: no
    /// process outlives the runner.
    fn drop(&mut self) {
        if !self.dead && self.send("quit").is_ok() {
            self.stdin = None;
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.kill_group();
                    return;
                }
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.kill();
    }
}

/// The longest engine line kept, in bytes: longer lines are cut here (the rest up to the
/// newline is read and dropped), so an engine that never ends a line cannot grow the runner.
pub const MAX_LINE: usize = 64 * 1024;

/// The `max` of an `option name Seed type spin ... max N` line.
pub fn seed_option_max(line: &str) -> Option<u64> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.get(..5)? != ["option", "name", "Seed", "type", "spin"] {
        return None;
    }
    let i = w.iter().position(|x| *x == "max")?;
    w.get(i + 1)?.parse().ok()
}

/// The words after `key` in an `info` line (not in the free text of an `info string`).
pub fn info_after<'a>(line: &'a str, key: &str) -> Option<std::str::SplitWhitespace<'a>> {
    let mut w = line.split_whitespace();
    if w.next() != Some("info") {
        return None;
    }
    while let Some(word) = w.next() {
        if word == "string" {
            return None;
        }
        if word == key {
            return Some(w);
        }
    }
    None
}

/// The count of an `info ... nodes N ...` line.
pub fn info_nodes(line: &str) -> Option<u64> {
    info_after(line, "nodes")?.next()?.parse().ok()
}

/// The first whitespace-separated word of a line.
pub fn first_word(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_option() {
        let l = "option name Seed type spin default 0 min 0 max 2147483647";
        assert_eq!(seed_option_max(l), Some(2_147_483_647));
        assert_eq!(
            seed_option_max("option name Seed type string default x"),
            None
        );
        assert_eq!(seed_option_max("option name Hash type spin max 9"), None);
    }

    #[test]
    fn nodes_of_info_lines() {
        assert_eq!(
            info_nodes("info depth 3 nodes 1234 nps 9 pv 11-15"),
            Some(1234)
        );
        assert_eq!(info_nodes("info string nodes 5"), None);
        assert_eq!(info_nodes("bestmove 11-15 nodes 5"), None);
        assert_eq!(info_nodes("info nodes x"), None);
    }
}
