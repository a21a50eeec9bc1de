//! An engine as a child process: started from an [`EngineSpec`] in a process group of its own,
//! fed lines on stdin, read by a thread that stamps each line with the moment it arrived and
//! hands it over a channel, ended whole (its group too) when dropped.
//!
//! What a protocol session means by the lines (handshakes, waits, faults) is the caller's: the
//! match runner judges engines by their timing, the front ends keep a log for the page.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use crate::lines::{read_line, MAX_LINE};
use crate::spec::EngineSpec;

/// What the reader thread hands over: a line (without its line end) with the moment it was
/// read, or the end of the engine's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line and when it arrived.
    Line(String, Instant),
    /// The engine closed its output (it exited or crashed).
    Eof,
}

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// To ours (a front end shows the engine's own complaints).
    Inherit,
    /// Nowhere (the match runner's progress line stays readable).
    Discard,
}

/// What the reader thread calls with every line and the moment it was read.
pub type Tap = Box<dyn FnMut(Instant, &str) + Send>;

/// How to start an engine process.
pub struct Spawn {
    /// Where its stderr goes.
    pub stderr: Stderr,
    /// Lines read and not yet taken before the reader thread waits; `None`: no bound (the
    /// runner, which takes every line while a game runs, so that no arrival is stamped late).
    pub queue: Option<usize>,
    /// Called by the reader thread with every line as it is stamped (an I/O log).
    pub tap: Option<Tap>,
}

/// How long a dropped engine has after `quit` before it and its group are killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Killed and waited for: nothing is left to end.
    ended: bool,
}

impl EngineProcess {
    /// Starts the program of `spec` (its arguments, in its `dir`) with piped stdin and stdout,
    /// in a process group of its own so that whatever a wrapper script starts ends with it.
    /// The spec's options are not sent: the handshake is the caller's.
    pub fn spawn(spec: &EngineSpec, how: Spawn) -> std::io::Result<EngineProcess> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match how.stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Discard => Stdio::null(),
            });
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("no pipes to the engine"));
        };
        let (send, events): (Box<dyn Fn(Event) -> bool + Send>, _) = match how.queue {
            Some(n) => {
                let (tx, rx) = mpsc::sync_channel(n);
                (Box::new(move |e| tx.send(e).is_ok()), rx)
            }
            None => {
                let (tx, rx) = mpsc::channel();
                (Box::new(move |e| tx.send(e).is_ok()), rx)
            }
        };
        let mut tap = how.tap;
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(line)) = read_line(&mut reader, MAX_LINE) {
                let now = Instant::now();
                if let Some(tap) = tap.as_mut() {
                    tap(now, &line);
                }
                if !send(Event::Line(line, now)) {
                    return;
                }
            }
            send(Event::Eof);
        });
        Ok(EngineProcess {
            child,
            stdin: Some(stdin),
            events,
            ended: false,
        })
    }

    /// The process id (its group's id too).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line and its line end in one write, flushed. An error means the engine
    /// closed its input (or was killed).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        stdin.write_all(&bytes).and_then(|()| stdin.flush())
    }

    /// The next event, waiting at most `wait`; `None` when nothing came by then.
    pub fn recv_timeout(&self, wait: Duration) -> Option<Event> {
        match self.events.recv_timeout(wait) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof),
        }
    }

    /// The next event if one has arrived.
    pub fn try_recv(&self) -> Option<Event> {
        match self.events.try_recv() {
            Ok(e) => Some(e),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Event::Eof),
        }
    }

    /// How the process exited, if it has.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Kills the process and its process group now.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.ended {
            return;
        }
        self.ended = true;
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends every process left in the engine's group (children of a wrapper script, helpers
    /// the engine started), also after the engine itself has exited.
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            use nix::sys::signal::{killpg, Signal};
            let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

impl Drop for EngineProcess {
    /// Asks an engine whose input is open to `quit` and gives it a moment, then kills it and
    /// its group: no process outlives its client.
    fn drop(&mut self) {
        if self.send("quit").is_ok() {
            self.stdin = None;
            let until = Instant::now() + QUIT_GRACE;
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.kill();
    }
}
