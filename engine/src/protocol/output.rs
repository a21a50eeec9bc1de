//! Output: the text of every reply, and a writer that keeps lines whole.
//!
//! Both the protocol thread and the search thread write. [`Output`] holds one lock for a whole
//! line (or block of lines) and flushes before releasing it, so lines never interleave and a
//! GUI sees each line as soon as it is complete.

use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::board::{fen, has_captures, result_of, Game, GameResult, Notation};
use crate::engine::{sort_divide, OptionKind, OptionSpec};
use crate::search::{report, Score, SearchEvent, SearchInfo, SearchOutcome};
use crate::tools::bench::BenchReport;
use crate::types::{Color, Move};

/// Most characters of an error message: a message repeats user input, which may be huge.
const MAX_ERROR_CHARS: usize = 2000;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = "buffgreen";

/// The author in `id author`.
pub const ENGINE_AUTHOR: &str = "the buffgreen developers";

/// The exit status of an engine whose standard output cannot be written (the exit-status
/// scheme's "an output that cannot be written").
pub const EXIT_OUTPUT_GONE: i32 = 2;

/// A shared, line-atomic writer (cheap to clone; every clone writes to the same sink).
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// The process exits when a write fails (see [`Output::stdout`]).
    exit_when_gone: bool,
}

impl Output {
    /// Writes to `sink`; a failed write is ignored.
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(sink))),
            exit_when_gone: false,
        }
    }

    /// Writes to standard output. A write that fails means the reader is gone (a GUI that
    /// died without `quit`, a pipe into `head`): nobody will read another line, so the
    /// process says so on standard error and exits at once with [`EXIT_OUTPUT_GONE`], and no
    /// search goes on as an orphan.
    pub fn stdout() -> Output {
        Output {
            exit_when_gone: true,
            ..Output::new(std::io::stdout())
        }
    }

    /// Writes to memory: returns the output and a handle to read what was written (for tests
    /// and fuzzers that drive a [`crate::protocol::Session`] without a process).
    pub fn memory() -> (Output, Captured) {
        let captured = Captured::default();
        (Output::new(captured.clone()), captured)
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        self.lines(&[text]);
    }

    /// Writes several lines with nothing from another thread in between.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut buf = String::new();
        for l in lines {
            push_clean(&mut buf, l.as_ref());
            buf.push('\n');
        }
        // A poisoned lock only means another writer panicked mid-line; the sink is still
        // usable.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let written = sink.write_all(buf.as_bytes()).and_then(|()| sink.flush());
        if let Err(e) = written {
            if self.exit_when_gone {
                // Exits with the lock held, so no other thread writes (or exits) meanwhile.
                let _ = writeln!(
                    std::io::stderr(),
                    "buffgreen: standard output cannot be written ({e}); exiting"
                );
                std::process::exit(EXIT_OUTPUT_GONE);
            }
        }
    }

    /// Writes `info string error: <what>`, the message shortened if very long.
    pub fn error(&self, what: &dyn std::fmt::Display) {
        self.line(&format!(
            "info string error: {}",
            shortened(what.to_string())
        ));
    }

    /// Writes `info string <text>`, shortened if very long (a note may repeat user input).
    pub fn note(&self, text: &str) {
        self.line(&format!("info string {}", shortened(text.to_string())));
    }
}

/// `msg` cut to [`MAX_ERROR_CHARS`] characters (and `...`) when longer.
fn shortened(mut msg: String) -> String {
    if let Some((cut, _)) = msg.char_indices().nth(MAX_ERROR_CHARS) {
        msg.truncate(cut);
        msg.push_str("...");
    }
    msg
}

/// The in-memory sink of [`Output::memory`]; clones share the same buffer.
#[derive(Clone, Debug, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Everything written so far. Every write is whole lines, so this ends with a line end
    /// (or is empty).
    pub fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The lines written so far, without their line ends.
    pub fn lines(&self) -> Vec<String> {
        self.text().lines().map(String::from).collect()
    }

    /// The lines written since the last call (or since the start), without their line ends;
    /// they are removed from the buffer.
    pub fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(String::from)
            .collect()
    }
}

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        bytes.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Appends `text` with control characters (line breaks included) replaced, so one call can
/// never produce more than one line.
fn push_clean(buf: &mut String, text: &str) {
    buf.extend(text.chars().map(|c| if c.is_control() { '?' } else { c }));
}

/// The reply to `uci`, up to and including `uciok`.
pub fn uci_lines(options: &[OptionSpec]) -> Vec<String> {
    let mut v = vec![
        format!("id name {ENGINE_NAME} {}", env!("CARGO_PKG_VERSION")),
        format!("id author {ENGINE_AUTHOR}"),
    ];
    v.extend(options.iter().map(option_line));
    v.push("uciok".to_string());
    v
}

/// `option name <N> type <T> default <D> [min <m> max <M>]`.
pub fn option_line(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", spec.name)
        }
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            spec.name
        ),
        OptionKind::Button => format!("option name {} type button", spec.name),
        OptionKind::Combo { default, vars } => {
            let mut s = format!("option name {} type combo default {default}", spec.name);
            for v in vars {
                let _ = write!(s, " var {v}");
            }
            s
        }
        // UCI's way of showing an empty default.
        OptionKind::String { default } => format!(
            "option name {} type string default {}",
            spec.name,
            if default.is_empty() {
                crate::engine::EMPTY_OPTION
            } else {
                default
            }
        ),
    }
}

/// `info depth .. seldepth .. multipv .. score .. [wdl ..] nodes .. nps .. [tbhits ..] time ..
/// [pv ..]` (`tbhits` only when the search uses endgame tables).
pub fn info_line(info: &SearchInfo, notation: Notation) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {}",
        info.depth, info.seldepth, info.multipv
    );
    // Writing to a String cannot fail.
    let _ = match info.score {
        Score::Cp(cp) => write!(s, " score cp {cp}"),
        Score::Mate(n) => write!(s, " score mate {n}"),
    };
    if let Some([w, d, l]) = info.wdl {
        let _ = write!(s, " wdl {w} {d} {l}");
    }
    let _ = write!(s, " nodes {} nps {}", info.nodes, info.nps);
    if let Some(hits) = info.tbhits {
        let _ = write!(s, " tbhits {hits}");
    }
    let _ = write!(s, " time {}", info.time.as_millis());
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {}", notation.write(m));
        }
    }
    s
}

/// The line for a search event, moves written in `notation`.
pub fn event_line(event: &SearchEvent, notation: Notation) -> String {
    match event {
        SearchEvent::Info(info) => info_line(info, notation),
        SearchEvent::Message(text) => format!("info string {text}"),
        SearchEvent::Book { mv, score, choices } => format!(
            "info string book {} score cp {score} choices {choices}",
            notation.write(mv)
        ),
        SearchEvent::Decided(outcome) => bestmove_line(outcome, notation),
    }
}

/// `bestmove <move> [ponder <move>]`, or `bestmove none` when there is no move.
pub fn bestmove_line(outcome: &SearchOutcome, notation: Notation) -> String {
    let w = |m: Move| notation.write(&m);
    match (outcome.best, outcome.ponder) {
        (None, _) => "bestmove none".to_string(),
        (Some(b), None) => format!("bestmove {}", w(b)),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", w(b), w(p)),
    }
}

/// True when `game`'s no-progress clock has drawn it.
fn by_clock(game: &Game) -> bool {
    result_of(game.position(), game.clock(), game.rules()) == GameResult::Draw
}

/// The reply to `d`: the diagram, then `Fen:`, `Clock:`, `Result:` (with the reason of a
/// finished game in parentheses), `Turn:` (the side to move), `Captures:` (the captures the
/// side to move must choose from, or `none`) and `Moves:` (every legal move, or `none`).
pub fn display_lines(game: &Game, notation: Notation) -> Vec<String> {
    let mut v: Vec<String> = game
        .position()
        .to_string()
        .lines()
        .map(String::from)
        .collect();
    v.push(format!("Fen: {}", fen::write(game.position())));
    v.push(format!("Clock: {}", game.clock()));
    v.push(match game.result() {
        GameResult::Ongoing => "Result: ongoing".to_string(),
        // A draw is the half-move rule's, or else one of the 8x8 family's rules'; a finished
        // game is otherwise one without a move.
        GameResult::Draw => match game.family_draw().filter(|_| !by_clock(game)) {
            Some(rule) => format!("Result: draw ({})", rule.describe()),
            None => format!("Result: draw ({} half-moves)", game.rules().draw_half_moves),
        },
        r => format!("Result: {} (no move)", r.describe()),
    });
    let pos = game.position();
    v.push(format!(
        "Turn: {}",
        match pos.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        }
    ));
    let pending = game.result() == GameResult::Ongoing && has_captures(pos, game.rules());
    // In `go perft` order; none once the game is over.
    let mut moves: Vec<(Move, u64)> = game.legal_moves().iter().map(|&m| (m, 0)).collect();
    sort_divide(&mut moves);
    let moves: Vec<String> = moves.iter().map(|(m, _)| notation.write(m)).collect();
    let list = |name: &str, moves: &[String]| match moves.is_empty() {
        true => format!("{name}: none"),
        false => format!("{name}: {}", moves.join(" ")),
    };
    v.push(list("Captures", if pending { &moves } else { &[] }));
    v.push(list("Moves", &moves));
    v
}

/// The reply to `eval`: the static evaluation of the game's position term by term, from the
/// side to move's view in hundredths of a man, then after pending captures, then as the
/// `score cp` a search would show for that value.
pub fn eval_lines(game: &Game) -> Vec<String> {
    let r = report::eval_report(game.position(), game.rules());
    let t = r.terms;
    vec![
        format!("Squares: {}", t.squares),
        format!("Mobility: {}", t.mobility),
        format!("Tempo: {}", t.tempo),
        format!("Knowledge: {}", t.knowledge),
        format!("Divisor: {}", t.divisor),
        format!("Static: {}", t.total),
        format!("Quiescent: {}", r.quiescent),
        format!("Score: cp {}", r.cp),
    ]
}

/// The reply to `go perft`: [`divide_lines`], after a note when `stop` cut the count short.
pub fn perft_lines(divide: &[(Move, u64)], complete: bool, notation: Notation) -> Vec<String> {
    let mut v = Vec::new();
    if !complete {
        v.push("info string perft stopped: the counts below are partial".to_string());
    }
    v.extend(divide_lines(divide, notation));
    v
}

/// Divide output: `<move>: <count>` per root move, a blank line, `Nodes searched: <total>`.
pub fn divide_lines(divide: &[(Move, u64)], notation: Notation) -> Vec<String> {
    let mut v: Vec<String> = divide
        .iter()
        .map(|(m, n)| format!("{}: {n}", notation.write(m)))
        .collect();
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    v.push(String::new());
    v.push(format!("Nodes searched: {total}"));
    v
}

/// Bench output: `Nodes searched: <n>` and `Nodes/second: <n>`, after a note when `stop`
/// cut the run short.
pub fn bench_lines(report: &BenchReport) -> Vec<String> {
    let mut v = Vec::new();
    if !report.complete {
        v.push("info string bench stopped: the counts below are partial".to_string());
    }
    v.push(format!("Nodes searched: {}", report.nodes));
    v.push(format!("Nodes/second: {}", report.nps()));
    v
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::Duration;

    use super::*;
    use crate::board::{notation, Position, Rules};

    /// A move from the start position (the same under every rule setting).
    pub(crate) fn mv(text: &str) -> Move {
        notation::parse_move(&Position::startpos(), &Rules::default(), text).unwrap()
    }

    /// The report both protocols' info-line tests format: every field set.
    pub(crate) fn sample_info(multipv: usize) -> SearchInfo {
        SearchInfo {
            multipv,
            depth: 7,
            seldepth: 19,
            nodes: 123_456,
            nps: 500_000,
            tbhits: None,
            time: Duration::from_micros(246_912_345),
            score: Score::Cp(-35),
            wdl: Some([310, 250, 440]),
            pv: vec![mv("11-15"), mv("9-13")],
        }
    }

    #[test]
    fn info_line_has_every_field_in_order() {
        let mut info = sample_info(2);
        assert_eq!(
            info_line(&info, Notation::Numeric),
            "info depth 7 seldepth 19 multipv 2 score cp -35 wdl 310 250 440 nodes 123456 \
             nps 500000 time 246912 pv 11-15 9-13"
        );
        assert!(info_line(&info, Notation::Algebraic).ends_with(" pv f6-e5 b6-a5"));
        info.score = Score::Mate(-3);
        info.wdl = None;
        info.pv.clear();
        assert_eq!(
            info_line(&info, Notation::Numeric),
            "info depth 7 seldepth 19 multipv 2 score mate -3 nodes 123456 nps 500000 time 246912"
        );
    }

    #[test]
    fn bestmove_forms() {
        let a = mv("11-15");
        let b = mv("12-16");
        let o = |best, ponder| SearchOutcome {
            best,
            ponder,
            nodes: 1,
        };
        let n = Notation::Numeric;
        assert_eq!(bestmove_line(&o(None, None), n), "bestmove none");
        assert_eq!(bestmove_line(&o(Some(a), None), n), "bestmove 11-15");
        assert_eq!(
            bestmove_line(&o(Some(a), Some(b)), n),
            "bestmove 11-15 ponder 12-16"
        );
        assert_eq!(
            bestmove_line(&o(Some(a), Some(b)), Notation::Algebraic),
            "bestmove f6-e5 ponder h6-g5"
        );
    }

    #[test]
    fn lines_stay_single_and_errors_are_bounded() {
        let (out, buf) = Output::memory();
        out.line("info string a\nb\rc");
        out.error(&"x".repeat(5000));
        let lines = buf.lines();
        assert_eq!(buf.take_lines(), lines);
        assert!(buf.take_lines().is_empty());
        out.line("readyok");
        assert_eq!(buf.lines(), ["readyok"]);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "info string a?b?c");
        assert_eq!(
            lines[1],
            format!("info string error: {}...", "x".repeat(2000))
        );
    }
}
