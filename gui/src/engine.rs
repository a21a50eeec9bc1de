//! The engine as a child process that speaks protocol.md: started from an [`EngineCommand`],
//! read by a thread that hands its lines over a bounded channel, killed when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::GuiError;

/// How to start the engine: from the command line only, never from the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The name shown on the page and written in PDN tags.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory, if not ours.
    pub dir: Option<PathBuf>,
    /// `setoption` name/value pairs sent after `uciok`, in this order.
    pub options: Vec<(String, String)>,
}

/// The longest engine line kept; the rest of a longer line is dropped (memory stays bounded
/// whatever the engine writes).
const MAX_LINE: usize = 64 * 1024;
/// Engine lines waiting to be read; the reader thread waits when they are not read.
const QUEUE: usize = 4096;
/// How long the handshake and a synchronous query may take before the engine counts as hung.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The option names the engine announced after `uci`.
    pub option_names: Vec<String>,
    /// The `id name` it announced.
    pub id_name: String,
}

impl Engine {
    /// Starts the engine, runs the `uci` handshake, sends the command's options and waits for
    /// `readyok`. An option the engine refuses is an error.
    pub fn start(cmd: &EngineCommand) -> Result<Engine, GuiError> {
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(dir) = &cmd.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| GuiError::Spawn {
            program: cmd.program.clone(),
            source: e,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(GuiError::Engine("no pipes to the engine".into()));
        };
        let (tx, rx) = sync_channel(QUEUE);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                match read_bounded_line(&mut reader) {
                    Ok(Some(line)) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                    _ => return,
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines: rx,
            option_names: Vec::new(),
            id_name: String::new(),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let line = engine.recv_until(deadline)?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = name.to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                if let Some((name, _)) = rest.split_once(" type ") {
                    engine.option_names.push(name.to_string());
                }
            }
        }
        for (name, value) in &cmd.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        let replies = engine.sync()?;
        if let Some(e) = replies.iter().find_map(|l| error_text(l)) {
            return Err(GuiError::Engine(format!(
                "the engine refused an option: {e}"
            )));
        }
        Ok(engine)
    }

    /// Whether the engine announced the option `name` (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.option_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), GuiError> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|_| GuiError::EngineDied(self.exit_note()))
    }

    /// The next line, or `None` when none came within `wait`.
    pub fn recv_timeout(&mut self, wait: Duration) -> Result<Option<String>, GuiError> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(GuiError::EngineDied(self.exit_note())),
        }
    }

    /// The next line, waiting until `deadline`.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<String, GuiError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.recv_timeout(wait)? {
            Some(line) => Ok(line),
            None => Err(GuiError::Engine(format!(
                "no answer from the engine within {} s",
                REPLY_TIMEOUT.as_secs()
            ))),
        }
    }

    /// Sends `isready` and returns every line before `readyok`: the replies to the commands
    /// sent before it (protocol.md: after `readyok` every earlier reply has been written).
    pub fn sync(&mut self) -> Result<Vec<String>, GuiError> {
        self.send("isready")?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let line = self.recv_until(deadline)?;
            if line == "readyok" {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// How the engine ended, for the page.
    fn exit_note(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("the engine exited ({status})"),
            _ => "the engine closed its pipes".to_string(),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A well-behaved engine exits at `quit` at once; one that does not is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of an `info string error: ...` line.
pub fn error_text(line: &str) -> Option<&str> {
    line.strip_prefix("info string error: ")
}

/// One line of at most [`MAX_LINE`] bytes (the rest dropped), without its line end; `None` at
/// the end of the stream.
fn read_bounded_line(r: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && buf.len() == MAX_LINE {
        // Skip to the end of the over-long line.
        let mut skip = Vec::new();
        loop {
            skip.clear();
            let m = r
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut skip)?;
            if m == 0 || skip.last() == Some(&b'\n') {
                break;
            }
        }
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}
