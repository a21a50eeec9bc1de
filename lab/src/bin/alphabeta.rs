//! `alphabeta`: the lab's classic alpha-beta engine (`buffgreen_lab::alphabeta`) behind the
//! subset of protocol.md a match runner needs, as an opponent that sees the forced lines of
//! the passage from middle game to ending (lab/vs_alphabeta.sh).
//!
//! Commands: `uci`, `isready`, `setoption` (`BackwardCapture`, `LongKings`, `Losing`,
//! `DrawHalfMoves`, `Hash`, `TablebasePath`, `MoveOverhead`; others are accepted and ignored, so
//! that a runner's common options do no harm), `ucinewgame`, `position`, `go` (`movetime`,
//! `nodes`, `depth`, `wtime`/`btime`/`winc`/`binc`/`movestogo`, `infinite`), `stop`, `quit`.
//! A mistake gets one `info string error: ...` line and changes nothing.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use buffgreen::board::{fen, Game, Position, Rules};
use buffgreen::engine::{GoRequest, StartPosition};
use buffgreen::protocol::command::{self, Command};
use buffgreen::protocol::input::{LineError, LineReader, MAX_LINE_BYTES};
use buffgreen::search::tables::Endgame;
use buffgreen::tablebase::Tablebase;
use buffgreen_lab::alphabeta::{Budget, Iteration, Searcher, MATE, PROVEN};

/// Share of the remaining clock one move may take when no `movestogo` is given.
const MOVES_LEFT: u32 = 25;

struct State {
    rules: Rules,
    hash_mib: usize,
    overhead: Duration,
    tables: Option<String>,
    game: Game,
    /// The searcher while no search runs; a running search has it on its thread.
    searcher: Option<Searcher>,
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn main() {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        // The engine's own line reader: a line that never ends cannot grow memory, and bytes
        // that are not UTF-8 are read lossily (that line then fails to parse, one error), not
        // the end of the input.
        let mut reader = LineReader::new(std::io::stdin().lock(), MAX_LINE_BYTES);
        while let Ok(Some(line)) = reader.next_line() {
            if line.cut {
                say(&format!("info string error: {}", LineError::TooLong));
                continue;
            }
            if tx
                .send(String::from_utf8_lossy(line.text).into_owned())
                .is_err()
            {
                break;
            }
        }
    });
    let rules = Rules::default();
    let mut s = State {
        rules,
        hash_mib: 64,
        overhead: Duration::from_millis(10),
        tables: None,
        game: Game::new(Position::startpos(), 0, rules),
        searcher: None,
        running: None,
    };
    while let Ok(line) = rx.recv() {
        match command::parse(&line) {
            Ok(Some(Command::Quit)) => break,
            Ok(Some(cmd)) => s.execute(cmd),
            Ok(None) => {}
            Err(e) => say(&format!("info string error: {e}")),
        }
    }
    s.finish(true);
}

impl State {
    fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => {
                say("id name alphabeta (buffgreen lab)");
                say("id author the buffgreen developers");
                say("option name Hash type spin default 64 min 1 max 4096");
                say("option name BackwardCapture type check default true");
                say("option name LongKings type check default true");
                say("option name Losing type check default false");
                say("option name DrawHalfMoves type spin default 80 min 0 max 1000");
                say("option name TablebasePath type string default <empty>");
                say("option name MoveOverhead type spin default 10 min 0 max 5000");
                say("uciok");
            }
            Command::IsReady => {
                // The table is allocated here rather than on the clock of the first move.
                if self.running.is_none() && self.searcher.is_none() {
                    self.searcher = Some(self.searcher());
                }
                say("readyok")
            }
            Command::Stop => self.finish(true),
            Command::UciNewGame => {
                self.finish(true);
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            Command::SetOption { name, value } => {
                self.finish(true);
                if let Err(e) = self.set(&name, value.as_deref().unwrap_or("")) {
                    say(&format!("info string error: {e}"));
                }
            }
            Command::Position { start, moves } => {
                self.finish(true);
                match self.game_of(&start, &moves) {
                    Ok(g) => self.game = g,
                    Err(e) => say(&format!("info string error: {e}")),
                }
            }
            Command::Go(req) => {
                self.finish(true);
                self.go(&req);
            }
            _ => say("info string error: not supported by this engine"),
        }
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let flag = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{name}: expected true or false, not '{value}'")),
        };
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{name}: expected a number, not '{value}'"))
        };
        let mut rules = self.rules;
        match name.to_ascii_lowercase().as_str() {
            "backwardcapture" => rules.backward_capture = flag()?,
            "longkings" => rules.long_kings = flag()?,
            "losing" => rules.losing = flag()?,
            "drawhalfmoves" => rules.draw_half_moves = number()?.min(1000),
            "hash" => self.hash_mib = number()?.clamp(1, 4096) as usize,
            "moveoverhead" => self.overhead = Duration::from_millis(number()?.min(5000) as u64),
            "tablebasepath" => {
                self.tables = (!value.is_empty() && value != "<empty>").then(|| value.to_string())
            }
            _ => return Ok(()),
        }
        if rules != self.rules {
            self.rules = rules;
            self.game = Game::new(Position::startpos(), 0, rules);
        }
        // Rebuilt at the next search for the new settings.
        self.searcher = None;
        Ok(())
    }

    fn game_of(&self, start: &StartPosition, moves: &[String]) -> Result<Game, String> {
        let pos = match start {
            StartPosition::StartPos => Position::startpos(),
            StartPosition::Fen(text) => fen::parse(text).map_err(|e| e.to_string())?,
        };
        let mut game = Game::new(pos, 0, self.rules);
        for text in moves {
            game.play_str(text)
                .map_err(|e| format!("move '{text}': {e}"))?;
        }
        Ok(game)
    }

    fn searcher(&mut self) -> Searcher {
        if let Some(s) = self.searcher.take() {
            return s;
        }
        let tables = self.tables.as_ref().and_then(|dir| {
            match Tablebase::open(Path::new(dir), &self.rules) {
                Ok(tb) => Endgame::new(Arc::new(tb), 32),
                Err(e) => {
                    say(&format!("info string error: tables {dir}: {e}"));
                    None
                }
            }
        });
        Searcher::new(self.rules, self.hash_mib, tables)
    }

    fn go(&mut self, req: &GoRequest) {
        let start = Instant::now();
        let l = &req.limits;
        let white = self.game.position().side_to_move() == buffgreen::types::Color::White;
        let (time, inc) = if white {
            (l.wtime, l.winc)
        } else {
            (l.btime, l.binc)
        };
        let budget_time = match (l.movetime, time) {
            _ if l.infinite || l.ponder => None,
            (Some(t), _) => Some(t.saturating_sub(self.overhead)),
            (None, Some(t)) => {
                let inc = inc.unwrap_or_default();
                let share = t / l.movestogo.unwrap_or(MOVES_LEFT).max(1) + inc * 3 / 4;
                Some(share.min(t / 3).saturating_sub(self.overhead))
            }
            (None, None) => None,
        };
        let budget = Budget {
            deadline: budget_time.map(|t| start + t.max(Duration::from_millis(1))),
            nodes: l.nodes,
            depth: l.depth,
        };
        let mut searcher = self.searcher();
        let pos = *self.game.position();
        let clock = self.game.clock();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let report = |it: &Iteration| {
                let ms = start.elapsed().as_millis().max(1);
                let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
                say(&format!(
                    "info depth {} score {} nodes {} nps {} time {} pv {}",
                    it.depth,
                    score_text(it.score),
                    it.nodes,
                    it.nodes as u128 * 1000 / ms,
                    ms,
                    pv.join(" ")
                ));
            };
            let (best, _) = searcher.search(&pos, clock, budget, flag, report);
            match best {
                Some(mv) => say(&format!("bestmove {mv}")),
                None => say("bestmove none"),
            }
            searcher
        });
        self.running = Some((handle, stop));
    }

    /// Ends a running search (stopping it first when `stop`), keeping its searcher.
    fn finish(&mut self, stop: bool) {
        if let Some((handle, flag)) = self.running.take() {
            if stop {
                flag.store(true, Ordering::Relaxed);
            }
            if let Ok(s) = handle.join() {
                self.searcher = Some(s);
            }
        }
    }
}

/// `cp X` or `mate N` (N in the side to move's own moves, negative when it loses).
fn score_text(score: i32) -> String {
    if score.abs() >= PROVEN && score.abs() > MATE - 1000 {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {}", score.clamp(-PROVEN + 1, PROVEN - 1))
    }
}
