//! The engine as a child process that speaks protocol.md: the protocol client's process
//! (started from an [`EngineSpec`], read by a thread that hands its lines over a bounded
//! channel, killed with its process group when dropped), with the `uci` handshake, the
//! answers to `isready` and the hung-engine watch a front end needs.
//!
//! [`Engine::send`] is the one door to the engine: every line any front end writes passes it,
//! and it refuses a line holding a line break or another control character, so that no text
//! can add a protocol line of its own. The lines both ways are kept in a bounded log for the
//! page's diagnostics.

use std::collections::VecDeque;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use buffgreen_client::info::error_text;
use buffgreen_client::lines::MAX_LINE;
use buffgreen_client::{EngineProcess, EngineSpec, Event, Spawn, Stderr};

use crate::error::GuiError;

/// Engine lines waiting to be read; the reader thread (and so the engine) waits when they
/// are not read. With the client's cap on a line ([`MAX_LINE`]) it bounds what an engine that
/// floods its output costs a page ([`MAX_QUEUED_BYTES`]); the page reads them every few
/// milliseconds, so a burst only makes the engine wait a moment.
const QUEUE: usize = 256;
/// The most bytes of engine output one page holds in its queue.
pub const MAX_QUEUED_BYTES: usize = QUEUE * MAX_LINE;
/// How long the engine may take to answer `uci`: an engine that never starts is reported
/// within seconds rather than leaving the page waiting.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the `isready` after the command line's options may take (an option such as
/// `TablebasePath` loads files).
pub const OPTIONS_TIMEOUT: Duration = Duration::from_secs(60);
/// How long an `isready` may go unanswered before the engine counts as hung: protocol.md has
/// it answered at once, also during a search, so only a stopped or stuck process misses this.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a searching engine is asked `isready`, so that a hung one is noticed while the
/// page waits for its move.
pub const PING_EVERY: Duration = Duration::from_secs(2);
/// Protocol lines kept for the diagnostics (both ways together).
pub const LOG_LINES: usize = 400;
/// The longest line kept in that log; the rest is cut (a search's `info` line can be long).
const LOG_LINE_BYTES: usize = 400;

/// One protocol line in the diagnostics log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Milliseconds since the Unix epoch, when it was sent or read.
    pub at_ms: u64,
    /// True for a line sent to the engine, false for one it wrote.
    pub to_engine: bool,
    /// The line, cut to a bounded length.
    pub text: String,
}

/// Now in milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A running engine.
pub struct Engine {
    process: EngineProcess,
    /// The option names the engine announced after `uci`.
    pub option_names: Vec<String>,
    /// The `option` lines it announced, as written.
    pub option_lines: Vec<String>,
    /// The `id name` it announced.
    pub id_name: String,
    /// When each `isready` sent by [`Engine::ping`] and not yet answered was sent.
    pings: VecDeque<Instant>,
    last_ping: Instant,
    log: VecDeque<LogLine>,
}

impl Engine {
    /// Starts the engine, runs the `uci` handshake, sends the spec's options and waits for
    /// `readyok`. An option the engine refuses is an error.
    pub fn start(cmd: &EngineSpec) -> Result<Engine, GuiError> {
        let process = EngineProcess::spawn(
            cmd,
            Spawn {
                stderr: Stderr::Inherit,
                queue: Some(QUEUE),
                tap: None,
            },
        )
        .map_err(|e| GuiError::Spawn {
            program: cmd.program.clone(),
            source: e,
        })?;
        let mut engine = Engine {
            process,
            option_names: Vec::new(),
            option_lines: Vec::new(),
            id_name: String::new(),
            pings: VecDeque::new(),
            last_ping: Instant::now(),
            log: VecDeque::new(),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let Some(line) =
                engine.recv_timeout(deadline.saturating_duration_since(Instant::now()))?
            else {
                return Err(GuiError::Hung(format!(
                    "the engine did not answer `uci` within {} s",
                    START_TIMEOUT.as_secs()
                )));
            };
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = name.to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                if let Some((name, _)) = rest.split_once(" type ") {
                    engine.option_names.push(name.to_string());
                    // Bounded like the log: an engine announcing endless options is cut off.
                    if engine.option_lines.len() < LOG_LINES {
                        engine.option_lines.push(cut(&line));
                    }
                }
            }
        }
        for (name, value) in &cmd.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        // The page's moves are read in numbers whatever the command line set.
        if engine.has_option("Notation") {
            engine.send("setoption name Notation value numeric")?;
        }
        let replies = engine.sync_within(OPTIONS_TIMEOUT)?;
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

    /// Sends one line: the one door to the engine. A line holding a line break or another
    /// control character is refused whole, so no text from anywhere can add a line.
    pub fn send(&mut self, line: &str) -> Result<(), GuiError> {
        if line.chars().any(char::is_control) {
            return Err(GuiError::ControlCharacter);
        }
        self.note(true, line);
        self.process
            .send(line)
            .map_err(|_| GuiError::EngineDied(self.exit_note()))
    }

    /// Keeps `text` in the bounded log.
    fn note(&mut self, to_engine: bool, text: &str) {
        if self.log.len() >= LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(LogLine {
            at_ms: now_ms(),
            to_engine,
            text: cut(text),
        });
    }

    /// The protocol lines both ways since the last call (the last [`LOG_LINES`] of them),
    /// oldest first.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        self.log.drain(..).collect()
    }

    /// The next line, or `None` when none came within `wait`. The `readyok` answers to
    /// [`Engine::ping`] are taken here and not returned.
    pub fn recv_timeout(&mut self, wait: Duration) -> Result<Option<String>, GuiError> {
        let deadline = Instant::now() + wait;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.process.recv_timeout(wait) {
                Some(Event::Line(line, _)) => {
                    self.note(false, &line);
                    if line == "readyok" && self.pings.pop_front().is_some() {
                        continue;
                    }
                    return Ok(Some(line));
                }
                None => return Ok(None),
                Some(Event::Eof) => return Err(GuiError::EngineDied(self.exit_note())),
            }
        }
    }

    /// The next line, waiting until `deadline`; none by then means the engine is hung.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<String, GuiError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.recv_timeout(wait)? {
            Some(line) => Ok(line),
            None => Err(GuiError::Hung(format!(
                "no answer from the engine within {} s",
                REPLY_TIMEOUT.as_secs()
            ))),
        }
    }

    /// Sends `isready` and returns every line before `readyok`: the replies to the commands
    /// sent before it (protocol.md: after `readyok` every earlier reply has been written).
    pub fn sync(&mut self) -> Result<Vec<String>, GuiError> {
        self.sync_within(REPLY_TIMEOUT)
    }

    fn sync_within(&mut self, limit: Duration) -> Result<Vec<String>, GuiError> {
        self.send("isready")?;
        let deadline = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let line = self.recv_until(deadline)?;
            if line == "readyok" {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// While the engine works on its own (a search), asks `isready` now and then without
    /// waiting; an `isready` unanswered for [`REPLY_TIMEOUT`] is a hung engine (an error).
    /// Call it often; the answers are taken by [`Engine::recv_timeout`].
    pub fn ping(&mut self) -> Result<(), GuiError> {
        if let Some(sent) = self.pings.front() {
            if sent.elapsed() >= REPLY_TIMEOUT {
                return Err(GuiError::Hung(format!(
                    "the engine did not answer `isready` within {} s",
                    REPLY_TIMEOUT.as_secs()
                )));
            }
            return Ok(());
        }
        if self.last_ping.elapsed() >= PING_EVERY {
            self.send("isready")?;
            self.pings.push_back(Instant::now());
            self.last_ping = Instant::now();
        }
        Ok(())
    }

    /// How the engine ended, for the page.
    fn exit_note(&mut self) -> String {
        match self.process.exit_status() {
            Some(status) => format!("the engine exited ({status})"),
            None => "the engine closed its pipes".to_string(),
        }
    }
}

/// `text` cut to at most [`LOG_LINE_BYTES`] bytes (on a character boundary).
fn cut(text: &str) -> String {
    if text.len() <= LOG_LINE_BYTES {
        return text.to_string();
    }
    let mut end = LOG_LINE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}
