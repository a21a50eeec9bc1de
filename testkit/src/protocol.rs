//! Shared by the protocol test crates: drive the built `buffgreen` binary through pipes.
//!
//! Nothing here measures time: every wait is for an expected line, with a timeout generous
//! enough for a slow, busy machine, and the timeout only turns a hang into a failure.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use buffgreen::board::{fen, notation, Rules};

/// How long any single expected line may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// The `d` diagram of the start position, without the Fen/Clock/Result lines.
pub const START_DIAGRAM: [&str; 12] = [
    "   +-----------------+",
    " 8 |   b   b   b   b |",
    " 7 | b   b   b   b   |",
    " 6 |   b   b   b   b |",
    " 5 | .   .   .   .   |",
    " 4 |   .   .   .   . |",
    " 3 | w   w   w   w   |",
    " 2 |   w   w   w   w |",
    " 1 | w   w   w   w   |",
    "   +-----------------+",
    "     a b c d e f g h",
    "Fen: B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
];

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far, in order.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `buffgreen` in protocol mode.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts `buffgreen` with arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        Engine::spawn(Command::new(binary()).args(args))
    }

    /// Starts `cmd` (`buffgreen` itself, or a command that runs it: under a shell's limits, in
    /// another environment) with its input and output piped to this engine, its errors
    /// dropped.
    pub fn spawn(cmd: &mut Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start buffgreen");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input already closed");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line; fails the test on timeout or end of output.
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(l) => {
                self.transcript.push(l.clone());
                l
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no line within {TIMEOUT:?}; so far: {:#?}", self.transcript)
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine output ended; so far: {:#?}", self.transcript)
            }
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn recv_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.recv();
            let stop = done(&l);
            v.push(l);
            if stop {
                return v;
            }
        }
    }

    /// Lines up to and including the next `bestmove`.
    pub fn until_bestmove(&mut self) -> Vec<String> {
        self.recv_until(|l| l.starts_with("bestmove"))
    }

    /// Sends `line` (a `go` that ends by itself) and returns its lines up to and including
    /// `bestmove`.
    pub fn go(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.until_bestmove()
    }

    /// Sends `stop` and returns the running search's lines up to and including its
    /// `bestmove`.
    pub fn stop(&mut self) -> Vec<String> {
        self.go("stop")
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.recv_until(|l| l == "readyok");
        v.pop();
        v
    }

    /// Sends `line`, then `isready`; returns the lines `line` produced (all of them, as long as
    /// the command answers synchronously).
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Asks each command of `cases` in turn and checks that it answers exactly its lines
    /// (none for a command that is accepted silently).
    #[track_caller]
    pub fn assert_replies(&mut self, cases: &[(&str, &[&str])]) {
        for (line, want) in cases {
            assert_eq!(self.ask(line), lines(want), "{line}");
        }
    }

    /// Sends a `go perft` line and returns its reply, up to and including `Nodes searched:`
    /// (perft runs on the search thread: `isready` does not wait for it).
    pub fn perft(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.recv_until(|l| l.starts_with("Nodes searched: "))
    }

    /// The `d` output.
    pub fn display(&mut self) -> Vec<String> {
        self.ask("d")
    }

    /// Sets up `position` (a `position ...` line), which must be accepted silently, and
    /// returns the `d` output for it.
    #[track_caller]
    pub fn display_of(&mut self, position: &str) -> Vec<String> {
        assert_eq!(self.ask(position), Vec::<String>::new(), "{position}");
        self.display()
    }

    /// The `Fen:` line of `d`, without the prefix.
    pub fn fen(&mut self) -> String {
        self.display()
            .iter()
            .find_map(|l| l.strip_prefix("Fen: ").map(String::from))
            .expect("d shows Fen:")
    }

    /// Closes the engine's input, reads everything until the engine closes its output, then
    /// waits for it to exit.
    pub fn finish(mut self) -> (Vec<String>, ExitStatus) {
        self.stdin = None;
        self.finish_open()
    }

    /// Reads everything until the engine closes its output, then waits for it to exit; its
    /// input stays open meanwhile (the engine must end by itself, on `quit`).
    pub fn finish_open(mut self) -> (Vec<String>, ExitStatus) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(l) => self.transcript.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("engine did not exit"),
            }
        }
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (std::mem::take(&mut self.transcript), status);
            }
            assert!(Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends `quit` and returns the full transcript and exit status.
    pub fn quit(mut self) -> (Vec<String>, ExitStatus) {
        self.send("quit");
        self.finish()
    }

    /// Sends `quit`, checks that the engine exits with success and returns the full
    /// transcript.
    #[track_caller]
    pub fn quit_ok(self) -> Vec<String> {
        let (all, status) = self.quit();
        assert!(status.success(), "{status:?}");
        all
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asserts that `line` is `bestmove <m>` (optionally `ponder <p>`) with `<m>` legal in `fen`
/// under `rules`, written in long form; returns the move text.
pub fn assert_legal_bestmove(line: &str, fen_text: &str, rules: &Rules) -> String {
    let tokens: Vec<&str> = line.split(' ').collect();
    assert!(
        tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"),
        "bad bestmove line: {line:?}"
    );
    assert_eq!(tokens[0], "bestmove", "{line:?}");
    let pos = fen::parse(fen_text).expect("test FEN");
    let mv = notation::parse_move(&pos, rules, tokens[1])
        .unwrap_or_else(|e| panic!("bestmove {:?} not legal in {fen_text}: {e}", tokens[1]));
    assert_eq!(mv.to_string(), tokens[1], "bestmove not in long form");
    if tokens.len() == 4 {
        let mut after = pos;
        after.play_unchecked(mv);
        let reply = notation::parse_move(&after, rules, tokens[3])
            .unwrap_or_else(|e| panic!("ponder move {:?} not legal: {e}", tokens[3]));
        assert_eq!(reply.to_string(), tokens[3]);
    }
    tokens[1].to_string()
}

/// The start position's FEN.
pub const START_FEN: &str = "B:W21-32:B1-12";

/// Quits `e` ([`Engine::quit_ok`]) and checks how many `bestmove` and `info string error`
/// lines it printed in all.
#[track_caller]
pub fn quit_counting(e: Engine, bestmoves: usize, errors: usize) {
    let all = e.quit_ok();
    assert_eq!(count_prefix(&all, "bestmove"), bestmoves, "{all:#?}");
    assert_eq!(count_prefix(&all, "info string error"), errors, "{all:#?}");
}

/// Quits `e` (whatever its exit status) and checks that it printed `n` `bestmove` lines in
/// all.
#[track_caller]
pub fn quit_with_bestmoves(e: Engine, n: usize) {
    let (all, _) = e.quit();
    assert_eq!(count_prefix(&all, "bestmove"), n, "{all:#?}");
}

/// Counts lines starting with `prefix`.
pub fn count_prefix(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

/// The last `info depth` line of a search's output (its final report); panics when there is
/// none.
pub fn last_info_line(lines: &[String]) -> &str {
    lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info depth line in {lines:#?}"))
}

/// Checks bench output (`Nodes searched: <n>`, `Nodes/second: <n>`, nothing else) and returns
/// the node count.
pub fn bench_nodes<S: AsRef<str>>(lines: &[S]) -> u64 {
    assert_eq!(lines.len(), 2, "two bench lines");
    let value = |line: &str, prefix: &str| -> u64 {
        line.strip_prefix(prefix)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("expected '{prefix}<n>', got {line:?}"))
    };
    value(lines[1].as_ref(), "Nodes/second: ");
    let nodes = value(lines[0].as_ref(), "Nodes searched: ");
    assert!(nodes >= 1);
    nodes
}

/// Owned lines, to compare with an engine's answer.
pub fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The replies among `lines`: drops what a running search prints on its own (`info` lines,
/// `info string reused ...`), keeps error lines and everything else. A search may print at
/// any moment, so tests that talk to the engine during `go infinite` compare only these.
pub fn replies(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string error"))
        .collect()
}

/// The `buffgreen` binary Cargo built beside the running test: a test runs from
/// `target/<profile>/deps/`, the binary is in `target/<profile>/` (Cargo builds a package's
/// binaries before its integration tests).
pub fn binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let mut dir = exe.parent().expect("the test's directory").to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.join(format!("buffgreen{}", std::env::consts::EXE_SUFFIX))
}
