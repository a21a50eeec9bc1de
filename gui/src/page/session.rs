//! One page's session: its own engine, game and clocks, driven by the page's requests
//! ([`super::message`]; docs/gui.md lists them) and by the engine's lines.

use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use serde_json::Value;

use buffgreen_client::info::{bestmove, error_text};
use buffgreen_client::{EngineSpec, Info};

use super::message::{
    Diagnostics, Message, Request, State, TimeControl, MAX_MULTIPV, MAX_VARIATIONS,
};
use crate::engine::{now_ms, Engine, LogLine, LOG_LINES};
use crate::error::GuiError;
use crate::game::{self, describe, resolve, stop_search, Level, Record, Rules, Side, Snapshot};

/// Analysis lines are sent to the page at most this often.
const ANALYSIS_EVERY: Duration = Duration::from_millis(150);
/// Errors kept for the diagnostics.
const ERRORS_KEPT: usize = 100;

/// What the engine is doing for the page.
#[derive(Clone, Debug, PartialEq)]
enum Search {
    Idle,
    /// Choosing a move for the side to move.
    Move,
    /// `go infinite` with these lines so far.
    Analysis {
        lines: Vec<Info>,
    },
}

/// An engine being started on a thread of its own, so that the page is answered meanwhile.
type Starting = Receiver<Result<Engine, crate::error::GuiError>>;

/// A page's session.
pub struct Page {
    cmd: EngineSpec,
    engine: Option<Engine>,
    starting: Option<Starting>,
    dead: Option<String>,
    /// The engine's name from `id name`.
    id_name: String,
    /// Its announced options (`option` lines).
    announced: Vec<String>,
    /// The protocol lines of this page's engines both ways, the last [`LOG_LINES`].
    log: VecDeque<LogLine>,
    /// The errors reported to the page, with their times (ms since the epoch).
    errors: VecDeque<(u64, String)>,
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
    /// Other lines of the game, each whole from the start: a move played at an earlier ply
    /// keeps the moves it replaced here.
    variations: Vec<Vec<String>>,
    last_analysis: Instant,
    out: Vec<Message>,
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
    pub fn new(cmd: EngineSpec) -> Page {
        let mut page = Page {
            cmd,
            engine: None,
            starting: None,
            dead: None,
            id_name: String::new(),
            announced: Vec::new(),
            log: VecDeque::new(),
            errors: VecDeque::new(),
            record: Record::new(Rules::default(), game::START_FEN.to_string()),
            snap: Snapshot {
                fen: game::START_FEN.to_string(),
                clock: 0,
                result: "ongoing".to_string(),
                why: String::new(),
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
            variations: Vec::new(),
            last_analysis: Instant::now(),
            out: Vec::new(),
        };
        page.restart();
        page
    }

    /// Messages for the page since the last call, as JSON.
    pub fn take_output(&mut self) -> Vec<Value> {
        self.out.drain(..).map(|m| m.to_json()).collect()
    }

    /// Handles one text message from the page; a bad one gets an error reply and changes
    /// nothing.
    pub fn handle(&mut self, text: &str) {
        if let Err(e) = Request::parse(text).and_then(|r| self.dispatch(r)) {
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
            // A hung engine is ended like a dead one: it cannot be trusted to resume in step.
            e @ GuiError::Hung(_) => self.died(e.to_string()),
            e => {
                let text = e.to_string();
                self.note_error(&text);
                self.out.push(Message::Error(text));
            }
        }
    }

    fn note_error(&mut self, text: &str) {
        if self.errors.len() >= ERRORS_KEPT {
            self.errors.pop_front();
        }
        self.errors.push_back((now_ms(), text.to_string()));
    }

    fn died(&mut self, msg: String) {
        self.drain_log();
        // Dropping the engine ends its process (killed if `quit` is not enough).
        self.engine = None;
        self.starting = None;
        self.search = Search::Idle;
        self.dead = Some(msg.clone());
        self.note_error(&msg);
        self.out.push(Message::EngineDead(msg));
        self.push_state();
    }

    /// Moves the engine's protocol lines into the page's bounded log.
    fn drain_log(&mut self) {
        if let Some(engine) = self.engine.as_mut() {
            for line in engine.take_log() {
                if self.log.len() >= LOG_LINES {
                    self.log.pop_front();
                }
                self.log.push_back(line);
            }
        }
    }

    /// The diagnostics: the engine, its options, the protocol lines both ways, the errors.
    fn diagnostics(&mut self) -> Diagnostics {
        self.drain_log();
        let mut command = vec![self.cmd.program.clone()];
        command.extend(self.cmd.args.iter().cloned());
        Diagnostics {
            engine: self.cmd.name.clone(),
            id: self.id_name.clone(),
            command,
            options: self
                .cmd
                .options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect(),
            announced: self.announced.clone(),
            state: if self.engine.is_some() {
                "running"
            } else if self.starting.is_some() {
                "starting"
            } else {
                "dead"
            },
            dead: self.dead.clone(),
            lines: self.log.iter().cloned().collect(),
            errors: self.errors.iter().cloned().collect(),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<(), GuiError> {
        // These three need no engine and move nothing on the board.
        let aside = matches!(
            request,
            Request::Restart | Request::PdnExport | Request::Diagnostics
        );
        if aside {
            return self.apply(request);
        }
        if self.engine.is_none() {
            return Err(GuiError::Engine(match (&self.starting, &self.dead) {
                (Some(_), _) => "the engine is starting; try again in a moment".to_string(),
                (None, dead) => format!(
                    "no engine: {}; restart it",
                    dead.as_deref().unwrap_or("not started")
                ),
            }));
        }
        self.apply(request)?;
        self.settle()
    }

    /// Never stuck: when the engine plays the side to move at the end of the game's record
    /// and nothing else is going on, it moves. At an earlier ply (the user is looking back)
    /// it does not, so as not to cut the moves after it: `state.waiting` says so instead.
    fn settle(&mut self) -> Result<(), GuiError> {
        if self.engine.is_some() && self.record.ply == self.record.moves.len() {
            self.maybe_engine_move()?;
        }
        Ok(())
    }

    fn apply(&mut self, request: Request) -> Result<(), GuiError> {
        match request {
            Request::Restart => {
                self.restart();
                Ok(())
            }
            Request::PdnExport => {
                self.out.push(Message::Pdn(self.pdn()));
                Ok(())
            }
            Request::Diagnostics => {
                let d = self.diagnostics();
                self.out.push(Message::Diagnostics(Box::new(d)));
                Ok(())
            }
            Request::New {
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
                let start = fen.unwrap_or_else(|| game::start_fen(&rules));
                self.engine()?.send("ucinewgame")?;
                if let Err(e) = self.load(Record::new(rules, start)) {
                    (self.record, self.sides, self.level, self.tc) = old;
                    return Err(e);
                }
                self.reset_game();
                self.push_state();
                Ok(())
            }
            Request::Move(typed) => {
                if self.snap.result != "ongoing" || self.forfeit.is_some() {
                    return Err(GuiError::Refused("the game is over".into()));
                }
                if self.search == Search::Move {
                    return Err(GuiError::Refused("the engine is thinking".into()));
                }
                let mv = resolve(&typed, &self.snap.legal).map_err(GuiError::Refused)?;
                let analysing = self.halt()?;
                self.play(mv)?;
                if analysing {
                    self.analyse(None)?;
                }
                Ok(())
            }
            Request::Undo => self.navigate(-1, 0),
            Request::Redo => self.navigate(1, 0),
            Request::Jump(ply) => self.navigate(0, ply),
            Request::Fen(fen) => {
                self.halt()?;
                self.load(Record::new(self.record.rules, fen))?;
                self.reset_game();
                self.push_state();
                Ok(())
            }
            Request::Import(record) => {
                self.halt()?;
                let record = self.long_captures(record)?;
                self.load(record)
                    .map_err(|e| GuiError::Refused(format!("PDN import: {e}")))?;
                self.tc = None;
                self.reset_game();
                self.push_state();
                Ok(())
            }
            Request::Resume {
                record,
                sides,
                level,
            } => {
                self.halt()?;
                self.load(record)?;
                (self.sides, self.level, self.tc) = (sides, level, None);
                self.reset_game();
                self.push_state();
                Ok(())
            }
            Request::Analyse(multipv) => {
                self.halt()?;
                self.analyse(Some(multipv))
            }
            Request::Stop => {
                match self.search {
                    Search::Analysis { .. } => {
                        self.halt()?;
                        self.push_state();
                    }
                    // A move search answers at once with its best move so far.
                    Search::Move => self.engine()?.send("stop")?,
                    Search::Idle => {}
                }
                Ok(())
            }
            Request::Go => {
                self.halt()?;
                self.engine_move()
            }
            Request::Sides(sides) => {
                self.sides = sides;
                self.push_state();
                Ok(())
            }
            Request::Variation(i) => self.switch_variation(i),
        }
    }

    fn engine(&mut self) -> Result<&mut Engine, GuiError> {
        self.engine
            .as_mut()
            .ok_or_else(|| GuiError::Engine("no engine".into()))
    }

    /// Starts (or restarts) the engine on a thread of its own; [`Page::tick`] takes it when
    /// it is ready and sets it to the game. The page is shown the board meanwhile.
    fn restart(&mut self) {
        self.drain_log();
        self.engine = None;
        self.search = Search::Idle;
        let (tx, rx) = channel();
        let cmd = self.cmd.clone();
        // A page closed meanwhile drops the receiver, and with the result the engine.
        std::thread::spawn(move || {
            let _ = tx.send(Engine::start(&cmd));
        });
        self.starting = Some(rx);
        self.push_state();
    }

    /// Takes the engine once it has started.
    fn poll_start(&mut self) {
        let Some(rx) = &self.starting else { return };
        match rx.try_recv() {
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => self.died("the engine's start failed".into()),
            Ok(Err(e)) => self.died(e.to_string()),
            Ok(Ok(e)) => {
                self.starting = None;
                self.dead = None;
                self.id_name = e.id_name.clone();
                self.announced = e.option_lines.clone();
                self.out.push(Message::Hello(e.id_name.clone()));
                self.engine = Some(e);
                let record = self.record.clone();
                let loaded = self.load(record).and_then(|()| {
                    self.push_state();
                    self.settle()
                });
                if let Err(e) = loaded {
                    self.fail(e);
                }
            }
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

    /// `record` with each capture written by its ends (`9x27`) in its long form (`9x18x27`),
    /// as the engine lists it at that ply, so that the move list and the PDN show every
    /// landing square. The engine is left on the game it had.
    fn long_captures(&mut self, mut record: Record) -> Result<Record, GuiError> {
        let keep = record.ply;
        for i in 0..record.moves.len() {
            if !record.moves[i].contains('x') {
                continue;
            }
            record.ply = i;
            let snap = describe(self.engine()?, &record)
                .map_err(|e| GuiError::Refused(format!("PDN import: {e}")))?;
            record.moves[i] = resolve(&record.moves[i], &snap.legal)
                .map_err(|e| GuiError::Refused(format!("PDN import: move {}: {e}", i + 1)))?;
        }
        record.ply = keep;
        let current = self.record.clone();
        describe(self.engine()?, &current)?;
        Ok(record)
    }

    fn play(&mut self, mv: String) -> Result<(), GuiError> {
        let mover = self.snap.turn;
        let mut record = self.record.clone();
        let replaced = match record.moves.get(record.ply) {
            // The move the record goes on with: its continuation stays.
            Some(next) if *next == mv => None,
            Some(_) => Some(record.moves.clone()),
            None => None,
        };
        if replaced.is_some() || record.ply == record.moves.len() {
            record.moves.truncate(record.ply);
            record.moves.push(mv);
        }
        record.ply += 1;
        self.load(record)?;
        if let Some(line) = replaced {
            self.keep_variation(line);
        }
        if let Some(tc) = self.tc {
            let spent = self.turn_started.elapsed().as_millis() as i64;
            self.clocks[idx(mover)] += tc.inc - spent;
            self.turn_started = Instant::now();
        }
        self.push_state();
        Ok(())
    }

    /// Keeps `line` (a whole game from the start) among the variations, once, bounded.
    fn keep_variation(&mut self, line: Vec<String>) {
        if line == self.record.moves || self.variations.contains(&line) {
            return;
        }
        if self.variations.len() >= MAX_VARIATIONS {
            self.variations.remove(0);
        }
        self.variations.push(line);
    }

    /// Makes variation `i` the game's line, the line it replaces a variation, and shows the
    /// first move where they part.
    fn switch_variation(&mut self, i: usize) -> Result<(), GuiError> {
        let Some(line) = self.variations.get(i).cloned() else {
            return Err(GuiError::Refused(format!("no variation {i}")));
        };
        let analysing = self.halt()?;
        let mut record = self.record.clone();
        let shared = common(&line, &record.moves);
        record.moves = line;
        record.ply = (shared + 1).min(record.moves.len());
        let old = std::mem::replace(&mut self.variations[i], self.record.moves.clone());
        if let Err(e) = self.load(record) {
            self.variations[i] = old;
            return Err(e);
        }
        self.shown_again(analysing)
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
        self.shown_again(analysing)
    }

    /// After the board moved along the game's moves: no flag fallen, the clock of the side to
    /// move starts now, and an analysis that ran goes on on the new position.
    fn shown_again(&mut self, analysing: bool) -> Result<(), GuiError> {
        self.forfeit = None;
        self.turn_started = Instant::now();
        self.push_state();
        if analysing {
            self.analyse(None)?;
        }
        Ok(())
    }

    /// A new game on the board: the clocks from the time control, no variations.
    fn reset_game(&mut self) {
        self.variations.clear();
        self.forfeit = None;
        if let Some(tc) = self.tc {
            self.clocks = [tc.base, tc.base];
        }
        self.turn_started = Instant::now();
    }

    fn maybe_engine_move(&mut self) -> Result<(), GuiError> {
        let over = self.snap.result != "ongoing" || self.forfeit.is_some();
        if !over && self.sides[idx(self.snap.turn)] && self.search == Search::Idle {
            self.engine_move()?;
        }
        Ok(())
    }

    fn engine_move(&mut self) -> Result<(), GuiError> {
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
        self.search = Search::Move;
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
        self.poll_start();
        if let Err(e) = self.tick_inner() {
            self.fail(e);
        }
        self.drain_log();
    }

    fn tick_inner(&mut self) -> Result<(), GuiError> {
        // A search runs on its own: a hung engine is noticed by an unanswered `isready`.
        if self.search != Search::Idle {
            self.engine()?.ping()?;
        }
        if self.tc.is_some()
            && self.forfeit.is_none()
            && self.snap.result == "ongoing"
            && self.remaining()[idx(self.snap.turn)] <= 0
        {
            self.halt()?;
            self.forfeit = Some(self.snap.turn);
            // The flag fell: the clock shows nothing left, not the time at the last move.
            self.clocks[idx(self.snap.turn)] = 0;
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
                self.out.push(Message::Analysis {
                    turn: self.snap.turn,
                    lines: lines.clone(),
                });
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
                // A move search's lines are not shown: the page asked for a move, not analysis.
                Search::Move | Search::Idle => {}
            }
            return Ok(());
        }
        if let Some(mv) = bestmove(line) {
            if self.search == Search::Move {
                self.search = Search::Idle;
                if !mv.is_empty() && mv != "none" && self.forfeit.is_none() {
                    let mv = resolve(mv, &self.snap.legal).map_err(|e| {
                        GuiError::Engine(format!("the engine played a bad move: {e}"))
                    })?;
                    self.play(mv)?;
                    self.settle()?;
                } else {
                    self.push_state();
                }
            }
        } else if let Some(e) = error_text(line) {
            let text = format!("engine: {e}");
            self.note_error(&text);
            self.out.push(Message::Error(text));
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
        let running = (self.tc.is_some() && result == "ongoing").then_some(self.snap.turn);
        // Why nobody moves although the engine plays the side to move: the user looks back.
        let waiting = (result == "ongoing"
            && self.engine.is_some()
            && self.search == Search::Idle
            && self.sides[idx(self.snap.turn)]
            && self.record.ply < self.record.moves.len())
        .then_some("the engine plays this side: \"Engine move\" plays on from here (the later moves are dropped), \">|\" goes back to the end");
        let variations = self
            .variations
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let ply = common(line, &self.record.moves);
                (i, ply, line[ply..].to_vec())
            })
            .collect();
        let state = State {
            fen: self.snap.fen.clone(),
            start: self.record.start.clone(),
            turn: self.snap.turn,
            result,
            reason,
            halfmoves: self.snap.clock,
            legal: self.snap.legal.clone(),
            moves: self.record.moves.clone(),
            variations,
            ply: self.record.ply,
            rules: self.record.rules,
            sides: self.sides,
            level: self.level,
            thinking: self.search == Search::Move,
            analysing: matches!(self.search, Search::Analysis { .. }),
            clocks: self.tc.map(|_| (remaining, running)),
            engine: self.cmd.name.clone(),
            dead: self.dead.clone(),
            starting: self.starting.is_some(),
            waiting,
        };
        self.out.push(Message::State(Box::new(state)));
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
        self.record.pdn(
            "buffgreen gui",
            [name(self.sides[1]), name(self.sides[0])],
            result,
            tc,
            termination,
        )
    }
}

/// How many first moves two lines share.
fn common(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}
