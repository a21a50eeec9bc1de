//! One page's session: its own engine, game and clocks, driven by the page's JSON messages
//! (docs/gui.md lists them) and by the engine's lines.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::engine::{Engine, EngineCommand};
use crate::game::{
    self, describe, resolve, stop_search, Info, Level, Record, Rules, Side, Snapshot,
};
use crate::pdn;
use crate::GuiError;

/// The longest message the page may send (a pasted PDN game fits many times over).
pub const MAX_MESSAGE: usize = 256 * 1024;
/// Analysis lines are sent to the page at most this often.
const ANALYSIS_EVERY: Duration = Duration::from_millis(150);
/// The most `MultiPV` lines the page may ask for.
const MAX_MULTIPV: u64 = 8;

/// What the engine is doing for the page.
#[derive(Clone, Debug, PartialEq)]
enum Search {
    Idle,
    /// Choosing a move for the side to move; `auto`: continue with the next engine move.
    Move {
        auto: bool,
    },
    /// `go infinite` with these lines so far.
    Analysis {
        lines: Vec<Info>,
    },
}

/// A time control: base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TimeControl {
    base: i64,
    inc: i64,
}

/// A page's session.
pub struct Page {
    cmd: EngineCommand,
    engine: Option<Engine>,
    dead: Option<String>,
    record: Record,
    snap: Snapshot,
    /// Whether the engine plays Black, White.
    sides: [bool; 2],
    level: Level,
    tc: Option<TimeControl>,
    clocks: [i64; 2],
    turn_started: Instant,
    forfeit: Option<Side>,
    search: Search,
    last_analysis: Instant,
    out: Vec<Value>,
}

fn idx(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

fn bad(why: impl Into<String>) -> GuiError {
    GuiError::BadMessage(why.into())
}

impl Page {
    /// Starts the page's engine and shows the start position. An engine that does not start
    /// is reported to the page, which can ask for a restart.
    pub fn new(cmd: EngineCommand) -> Page {
        let mut page = Page {
            cmd,
            engine: None,
            dead: None,
            record: Record::new(Rules::default(), game::START_FEN.to_string()),
            snap: Snapshot {
                fen: game::START_FEN.to_string(),
                clock: 0,
                result: "ongoing".to_string(),
                turn: Side::Black,
                legal: Vec::new(),
            },
            sides: [false, true],
            level: Level::Movetime(1000),
            tc: None,
            clocks: [0, 0],
            turn_started: Instant::now(),
            forfeit: None,
            search: Search::Idle,
            last_analysis: Instant::now(),
            out: Vec::new(),
        };
        page.restart();
        page
    }

    /// Messages for the page since the last call.
    pub fn take_output(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.out)
    }

    /// Handles one text message from the page; a bad one gets an error reply and changes
    /// nothing.
    pub fn handle(&mut self, text: &str) {
        let result = if text.len() > MAX_MESSAGE {
            Err(bad(format!(
                "message too long: {} bytes, at most {MAX_MESSAGE}",
                text.len()
            )))
        } else {
            match serde_json::from_str::<Value>(text) {
                Ok(v) => self.dispatch(&v),
                Err(e) => Err(bad(format!("not JSON: {e}"))),
            }
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    /// Answers a message that cannot be handled with an error; nothing changes.
    pub fn reject(&mut self, why: &str) {
        self.fail(bad(why));
    }

    fn fail(&mut self, e: GuiError) {
        match e {
            GuiError::EngineDied(msg) => self.died(msg),
            e => self
                .out
                .push(json!({"type": "error", "message": e.to_string()})),
        }
    }

    fn died(&mut self, msg: String) {
        self.engine = None;
        self.search = Search::Idle;
        self.dead = Some(msg.clone());
        self.out
            .push(json!({"type": "engine_dead", "message": msg}));
        self.push_state();
    }

    fn dispatch(&mut self, v: &Value) -> Result<(), GuiError> {
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no \"type\" string"))?;
        if kind == "restart" {
            self.restart();
            return Ok(());
        }
        if kind == "pdn_export" {
            self.out.push(json!({"type": "pdn", "text": self.pdn()}));
            return Ok(());
        }
        // Everything checked before anything changes.
        let op = Op::parse(kind, v)?;
        if self.engine.is_none() {
            return Err(GuiError::Engine(format!(
                "no engine: {}; restart it",
                self.dead.as_deref().unwrap_or("not started")
            )));
        }
        self.apply(op)
    }

    fn apply(&mut self, op: Op) -> Result<(), GuiError> {
        match op {
            Op::New {
                rules,
                sides,
                level,
                tc,
                fen,
            } => {
                self.halt()?;
                let old = (self.record.clone(), self.sides, self.level, self.tc);
                self.sides = sides;
                self.level = level;
                self.tc = tc;
                let start = fen.unwrap_or_else(|| game::START_FEN.to_string());
                self.engine()?.send("ucinewgame")?;
                if let Err(e) = self.load(Record::new(rules, start)) {
                    (self.record, self.sides, self.level, self.tc) = old;
                    return Err(e);
                }
                self.reset_clocks();
                self.push_state();
                self.maybe_engine_move(true)
            }
            Op::Move(typed) => {
                if self.snap.result != "ongoing" || self.forfeit.is_some() {
                    return Err(GuiError::Refused("the game is over".into()));
                }
                if matches!(self.search, Search::Move { .. }) {
                    return Err(GuiError::Refused("the engine is thinking".into()));
                }
                let mv = resolve(&typed, &self.snap.legal).map_err(GuiError::Refused)?;
                let analysing = self.halt()?;
                self.play(mv)?;
                if analysing {
                    self.analyse(None)?;
                } else {
                    self.maybe_engine_move(true)?;
                }
                Ok(())
            }
            Op::Undo => self.navigate(-1, 0),
            Op::Redo => self.navigate(1, 0),
            Op::Jump(ply) => self.navigate(0, ply),
            Op::Fen(fen) => {
                self.halt()?;
                self.load(Record::new(self.record.rules, fen))?;
                self.reset_clocks();
                self.push_state();
                Ok(())
            }
            Op::Import(text) => {
                let imported =
                    pdn::read(&text).map_err(|e| GuiError::Refused(format!("PDN import: {e}")))?;
                self.halt()?;
                let mut record = Record::new(
                    imported.rules,
                    imported.fen.unwrap_or_else(|| game::START_FEN.to_string()),
                );
                // Short and algebraic moves become long numeric ones as they are checked.
                record.moves = imported.moves.iter().map(|m| game::to_numeric(m)).collect();
                record.ply = record.moves.len();
                self.load(record)
                    .map_err(|e| GuiError::Refused(format!("PDN import: {e}")))?;
                self.sides = [false, false];
                self.reset_clocks();
                self.push_state();
                Ok(())
            }
            Op::Analyse(multipv) => {
                self.halt()?;
                self.analyse(Some(multipv))
            }
            Op::Stop => {
                match self.search {
                    Search::Analysis { .. } => {
                        self.halt()?;
                        self.push_state();
                    }
                    // A move search answers at once with its best move so far.
                    Search::Move { .. } => self.engine()?.send("stop")?,
                    Search::Idle => {}
                }
                Ok(())
            }
            Op::Go => {
                self.halt()?;
                self.engine_move(false)
            }
            Op::Sides(sides) => {
                self.sides = sides;
                self.push_state();
                if self.search == Search::Idle {
                    self.maybe_engine_move(true)?;
                }
                Ok(())
            }
        }
    }

    fn engine(&mut self) -> Result<&mut Engine, GuiError> {
        self.engine
            .as_mut()
            .ok_or_else(|| GuiError::Engine("no engine".into()))
    }

    /// Starts (or restarts) the engine and sets it to the game.
    fn restart(&mut self) {
        self.engine = None;
        self.search = Search::Idle;
        match Engine::start(&self.cmd) {
            Ok(e) => {
                self.dead = None;
                self.out
                    .push(json!({"type": "hello", "engine": e.id_name.clone()}));
                self.engine = Some(e);
                let record = self.record.clone();
                if let Err(e) = self.load(record) {
                    self.fail(e);
                }
                self.push_state();
            }
            Err(e) => self.died(e.to_string()),
        }
    }

    /// Ends any search; true when it was an analysis.
    fn halt(&mut self) -> Result<bool, GuiError> {
        let was = std::mem::replace(&mut self.search, Search::Idle);
        if was != Search::Idle {
            stop_search(self.engine()?)?;
        }
        Ok(matches!(was, Search::Analysis { .. }))
    }

    /// Makes `record` the game if the engine accepts it.
    fn load(&mut self, record: Record) -> Result<(), GuiError> {
        let engine = self.engine()?;
        match describe(engine, &record) {
            Ok(snap) => {
                self.record = record;
                if self.record.ply == 0 {
                    // The engine's canonical form of the start.
                    self.record.start = snap.fen.clone();
                }
                self.snap = snap;
                Ok(())
            }
            Err(e) => {
                // Put the engine back on the game it had.
                let keep = self.record.clone();
                if let Ok(snap) = describe(self.engine()?, &keep) {
                    self.snap = snap;
                }
                Err(e)
            }
        }
    }

    fn play(&mut self, mv: String) -> Result<(), GuiError> {
        let mover = self.snap.turn;
        let mut record = self.record.clone();
        record.moves.truncate(record.ply);
        record.moves.push(mv);
        record.ply += 1;
        self.load(record)?;
        if let Some(tc) = self.tc {
            let spent = self.turn_started.elapsed().as_millis() as i64;
            self.clocks[idx(mover)] += tc.inc - spent;
            self.turn_started = Instant::now();
        }
        self.push_state();
        Ok(())
    }

    /// Moves the board along the record: `step` -1 (undo), +1 (redo) or 0 with `to` (jump).
    /// Against the engine an undo or redo takes its reply along, so the human moves next.
    fn navigate(&mut self, step: i64, to: usize) -> Result<(), GuiError> {
        let len = self.record.moves.len() as i64;
        let target = if step == 0 {
            to as i64
        } else {
            self.record.ply as i64 + step
        };
        if !(0..=len).contains(&target) {
            return Err(GuiError::Refused(if step < 0 {
                "nothing to undo".to_string()
            } else {
                "nothing to redo".to_string()
            }));
        }
        let analysing = self.halt()?;
        let mut record = self.record.clone();
        record.ply = target as usize;
        self.load(record)?;
        let one_human = self.sides[0] != self.sides[1];
        let next = self.record.ply as i64 + step;
        if step != 0 && one_human && self.sides[idx(self.snap.turn)] && (0..=len).contains(&next) {
            let mut record = self.record.clone();
            record.ply = next as usize;
            self.load(record)?;
        }
        self.forfeit = None;
        self.turn_started = Instant::now();
        self.push_state();
        if analysing {
            self.analyse(None)?;
        }
        Ok(())
    }

    fn reset_clocks(&mut self) {
        self.forfeit = None;
        if let Some(tc) = self.tc {
            self.clocks = [tc.base, tc.base];
        }
        self.turn_started = Instant::now();
    }

    fn maybe_engine_move(&mut self, auto: bool) -> Result<(), GuiError> {
        let over = self.snap.result != "ongoing" || self.forfeit.is_some();
        if !over && self.sides[idx(self.snap.turn)] && self.search == Search::Idle {
            self.engine_move(auto)?;
        }
        Ok(())
    }

    fn engine_move(&mut self, auto: bool) -> Result<(), GuiError> {
        if self.snap.result != "ongoing" || self.forfeit.is_some() {
            return Err(GuiError::Refused("the game is over".into()));
        }
        let level = self.level;
        let go = match self.tc {
            Some(tc) => {
                let [b, w] = self.remaining();
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    w.max(0),
                    b.max(0),
                    tc.inc,
                    tc.inc
                )
            }
            None => format!("go {}", level.go_params()),
        };
        let has_elo = self.engine()?.has_option("UCI_LimitStrength");
        let position = self.record.position_command();
        let engine = self.engine()?;
        engine.send("setoption name MultiPV value 1")?;
        if has_elo {
            for line in level.setoptions() {
                engine.send(&line)?;
            }
        }
        engine.send(&position)?;
        engine.send(&go)?;
        self.search = Search::Move { auto };
        self.push_state();
        Ok(())
    }

    fn analyse(&mut self, multipv: Option<u64>) -> Result<(), GuiError> {
        let has_elo = self.engine()?.has_option("UCI_LimitStrength");
        let position = self.record.position_command();
        let engine = self.engine()?;
        if let Some(n) = multipv {
            engine.send(&format!("setoption name MultiPV value {n}"))?;
        }
        if has_elo {
            engine.send("setoption name UCI_LimitStrength value false")?;
        }
        engine.send(&position)?;
        engine.send("go infinite")?;
        self.search = Search::Analysis { lines: Vec::new() };
        self.push_state();
        Ok(())
    }

    /// The clocks now: the side to move's running one counted down.
    fn remaining(&self) -> [i64; 2] {
        let mut c = self.clocks;
        if self.tc.is_some() && self.snap.result == "ongoing" && self.forfeit.is_none() {
            c[idx(self.snap.turn)] -= self.turn_started.elapsed().as_millis() as i64;
        }
        c
    }

    /// Reads what the engine wrote and checks the clocks; call it often.
    pub fn tick(&mut self) {
        if let Err(e) = self.tick_inner() {
            self.fail(e);
        }
    }

    fn tick_inner(&mut self) -> Result<(), GuiError> {
        if self.tc.is_some()
            && self.forfeit.is_none()
            && self.snap.result == "ongoing"
            && self.remaining()[idx(self.snap.turn)] <= 0
        {
            self.halt()?;
            self.forfeit = Some(self.snap.turn);
            self.push_state();
        }
        while let Some(engine) = self.engine.as_mut() {
            let Some(line) = engine.recv_timeout(Duration::ZERO)? else {
                break;
            };
            self.on_line(&line)?;
        }
        if let Search::Analysis { lines } = &self.search {
            if !lines.is_empty() && self.last_analysis.elapsed() >= ANALYSIS_EVERY {
                self.last_analysis = Instant::now();
                let msg = analysis_json(lines, self.snap.turn);
                self.out.push(msg);
            }
        }
        Ok(())
    }

    fn on_line(&mut self, line: &str) -> Result<(), GuiError> {
        if let Some(info) = Info::parse(line) {
            match &mut self.search {
                Search::Analysis { lines } => {
                    let k = info.multipv.saturating_sub(1) as usize;
                    if k < MAX_MULTIPV as usize {
                        if lines.len() <= k {
                            lines.resize(k + 1, Info::default());
                        }
                        lines[k] = info;
                    }
                }
                Search::Move { .. } => {
                    let msg = analysis_json(&[info], self.snap.turn);
                    self.out.push(msg);
                }
                Search::Idle => {}
            }
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("bestmove ") {
            if let Search::Move { auto } = self.search {
                self.search = Search::Idle;
                let mv = rest.split_whitespace().next().unwrap_or("none");
                if mv != "none" && self.forfeit.is_none() {
                    let mv = resolve(mv, &self.snap.legal).map_err(|e| {
                        GuiError::Engine(format!("the engine played a bad move: {e}"))
                    })?;
                    self.play(mv)?;
                    if auto {
                        self.maybe_engine_move(true)?;
                    }
                } else {
                    self.push_state();
                }
            }
        } else if let Some(e) = crate::engine::error_text(line) {
            self.out
                .push(json!({"type": "error", "message": format!("engine: {e}")}));
        }
        Ok(())
    }

    fn push_state(&mut self) {
        let remaining = self.remaining();
        let (result, reason) = match self.forfeit {
            Some(loser) => (
                format!("{} wins", loser.other().name()),
                Some(format!("{} lost on time", loser.title())),
            ),
            None => (
                self.snap.result.clone(),
                self.snap.end_reason(&self.record.rules),
            ),
        };
        let r = &self.record.rules;
        let level = match self.level {
            Level::Nodes(n) => json!({"kind": "nodes", "value": n}),
            Level::Movetime(n) => json!({"kind": "movetime", "value": n}),
            Level::Elo(n) => json!({"kind": "elo", "value": n}),
        };
        let running = (self.tc.is_some() && result == "ongoing").then(|| self.snap.turn.name());
        self.out.push(json!({
            "type": "state",
            "fen": self.snap.fen,
            "start": self.record.start,
            "turn": self.snap.turn.name(),
            "result": result,
            "reason": reason,
            "halfmoves": self.snap.clock,
            "legal": self.snap.legal,
            "moves": self.record.moves,
            "ply": self.record.ply,
            "rules": {"backwardCapture": r.backward_capture, "longKings": r.long_kings,
                      "drawHalfMoves": r.draw_half_moves, "losing": r.losing},
            "sides": {"black": self.sides[0], "white": self.sides[1]},
            "level": level,
            "thinking": matches!(self.search, Search::Move { .. }),
            "analysing": matches!(self.search, Search::Analysis { .. }),
            "clocks": self.tc.map(|_| json!({"black": remaining[0], "white": remaining[1], "running": running})),
            "engine": self.cmd.name,
            "dead": self.dead,
        }));
    }

    /// The game on the board as PDN in the match runner's format.
    pub fn pdn(&self) -> String {
        let (result, termination) = match self.forfeit {
            Some(loser) => (
                if loser == Side::White { "0-2" } else { "2-0" },
                format!("time forfeit: {} lost on time", loser.title()),
            ),
            None => match self.snap.end_reason(&self.record.rules) {
                Some(reason) => (self.snap.pdn_result(), format!("normal: {reason}")),
                None => ("*", "unterminated".to_string()),
            },
        };
        let name = |engine: bool| {
            if engine {
                self.cmd.name.as_str()
            } else {
                "human"
            }
        };
        let tc = self.tc.map_or_else(
            || "-".to_string(),
            |tc| format!("{}+{}", tc.base as f64 / 1000.0, tc.inc as f64 / 1000.0),
        );
        pdn::write(
            &pdn::Header {
                event: "buffgreen gui",
                date: "????.??.??",
                white: name(self.sides[1]),
                black: name(self.sides[0]),
                result,
                time_control: &tc,
                termination: &termination,
            },
            &self.record,
        )
    }
}

/// The analysis message: lines best first, scores from the side to move's view.
fn analysis_json(lines: &[Info], turn: Side) -> Value {
    let lines: Vec<Value> = lines
        .iter()
        .filter(|i| i.depth > 0 || !i.pv.is_empty())
        .map(|i| {
            json!({
                "multipv": i.multipv,
                "depth": i.depth,
                "score": i.score_text(),
                "cp": i.cp,
                "mate": i.mate,
                "wdl": i.wdl,
                "nodes": i.nodes,
                "nps": i.nps,
                "tbhits": i.tbhits,
                "pv": i.pv,
            })
        })
        .collect();
    json!({"type": "analysis", "turn": turn.name(), "lines": lines})
}

/// A page request, checked whole before anything is done.
enum Op {
    New {
        rules: Rules,
        sides: [bool; 2],
        level: Level,
        tc: Option<TimeControl>,
        fen: Option<String>,
    },
    Move(String),
    Undo,
    Redo,
    Jump(usize),
    Fen(String),
    Import(String),
    Analyse(u64),
    Stop,
    Go,
    Sides([bool; 2]),
}

fn get<'a>(v: &'a Value, key: &str) -> Result<&'a Value, GuiError> {
    v.get(key).ok_or_else(|| bad(format!("missing \"{key}\"")))
}

fn get_bool(v: &Value, key: &str) -> Result<bool, GuiError> {
    get(v, key)?
        .as_bool()
        .ok_or_else(|| bad(format!("\"{key}\" must be true or false")))
}

fn get_u64(v: &Value, key: &str, lo: u64, hi: u64) -> Result<u64, GuiError> {
    get(v, key)?
        .as_u64()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| bad(format!("\"{key}\" must be an integer from {lo} to {hi}")))
}

fn get_str(v: &Value, key: &str, max: usize) -> Result<String, GuiError> {
    let s = get(v, key)?
        .as_str()
        .ok_or_else(|| bad(format!("\"{key}\" must be a string")))?;
    if s.len() > max || (max < 1024 && s.contains(['\n', '\r'])) {
        return Err(bad(format!("\"{key}\" is too long or holds a line break")));
    }
    Ok(s.to_string())
}

fn sides(v: &Value) -> Result<[bool; 2], GuiError> {
    Ok([get_bool(v, "black")?, get_bool(v, "white")?])
}

impl Op {
    fn parse(kind: &str, v: &Value) -> Result<Op, GuiError> {
        Ok(match kind {
            "new" => {
                let r = get(v, "rules")?;
                let rules = Rules {
                    backward_capture: get_bool(r, "backwardCapture")?,
                    long_kings: get_bool(r, "longKings")?,
                    draw_half_moves: get_u64(r, "drawHalfMoves", 0, 1000)? as u32,
                    losing: get_bool(r, "losing")?,
                };
                let l = get(v, "level")?;
                let level = match get_str(l, "kind", 16)?.as_str() {
                    "nodes" => Level::Nodes(get_u64(l, "value", 1, 1_000_000_000)?),
                    "movetime" => Level::Movetime(get_u64(l, "value", 1, 3_600_000)?),
                    "elo" => Level::Elo(get_u64(l, "value", 800, 2000)? as u32),
                    k => return Err(bad(format!("unknown level kind '{k}'"))),
                };
                let tc = match v.get("clock") {
                    None | Some(Value::Null) => None,
                    Some(c) => Some(TimeControl {
                        base: get_u64(c, "baseMs", 1000, 36_000_000)? as i64,
                        inc: get_u64(c, "incMs", 0, 600_000)? as i64,
                    }),
                };
                let fen = match v.get("fen") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(fen_value(v)?),
                };
                Op::New {
                    rules,
                    sides: sides(get(v, "engine")?)?,
                    level,
                    tc,
                    fen,
                }
            }
            "move" => Op::Move(get_str(v, "move", 200)?),
            "undo" => Op::Undo,
            "redo" => Op::Redo,
            "jump" => Op::Jump(get_u64(v, "ply", 0, 1_000_000)? as usize),
            "fen" => Op::Fen(fen_value(v)?),
            "pdn_import" => Op::Import(get_str(v, "text", MAX_MESSAGE)?),
            "analyse" => Op::Analyse(get_u64(v, "multipv", 1, MAX_MULTIPV)?),
            "stop" => Op::Stop,
            "go" => Op::Go,
            "sides" => Op::Sides(sides(v)?),
            k => return Err(bad(format!("unknown type '{k}'"))),
        })
    }
}

/// A FEN from the page: one line, no `moves` word (it would extend the `position` command).
fn fen_value(v: &Value) -> Result<String, GuiError> {
    let fen = get_str(v, "fen", 400)?;
    if fen.split_whitespace().any(|w| w == "moves") || fen.trim().is_empty() {
        return Err(bad("\"fen\" must be a FEN"));
    }
    Ok(fen.trim().to_string())
}
