//! The page's messages (docs/gui.md) as types: what the page may ask ([`Request`], read and
//! checked whole from its JSON before anything is done) and what it is told ([`Message`],
//! written as JSON). The session ([`super::session`]) acts on the one and sends the other.

use serde_json::{json, Value};

use buffgreen_client::rules::Variant;
use buffgreen_client::{pdn, Info, Rules};

use crate::engine::LogLine;
use crate::error::GuiError;
use crate::game::{self, checked_fen, checked_move, Level, Record, Side};

/// The longest message the page may send (a pasted PDN game fits many times over).
pub const MAX_MESSAGE: usize = 256 * 1024;
/// The most `MultiPV` lines the page may ask for.
pub const MAX_MULTIPV: u64 = 8;
/// The most moves a game from the page may hold (a `resume`); far beyond any real game.
const MAX_MOVES: usize = 2000;
/// Variations kept (the oldest go first).
pub const MAX_VARIATIONS: usize = 32;

/// A time control: base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: i64,
    /// Added after each move.
    pub inc: i64,
}

fn bad(why: impl Into<String>) -> GuiError {
    GuiError::BadMessage(why.into())
}

/// A message to the page.
#[derive(Debug)]
pub enum Message {
    /// `hello`: the engine started and named itself (`id name`).
    Hello(String),
    /// `state`: the board, the game and the engine.
    State(Box<State>),
    /// `analysis`: the lines of `go infinite`, best first.
    Analysis {
        /// The side to move, whose view the scores take.
        turn: Side,
        /// The lines by `multipv` rank.
        lines: Vec<Info>,
    },
    /// `error`: a request refused, or the engine's complaint.
    Error(String),
    /// `engine_dead`: the engine exited or hung; a restart is offered.
    EngineDead(String),
    /// `pdn`: the game as PDN.
    Pdn(String),
    /// `diagnostics`.
    Diagnostics(Box<Diagnostics>),
}

/// What a `state` message says.
#[derive(Debug)]
pub struct State {
    /// The position's canonical FEN.
    pub fen: String,
    /// The game's start.
    pub start: String,
    /// The side to move.
    pub turn: Side,
    /// `ongoing`, `black wins`, `white wins` or `draw`.
    pub result: String,
    /// Why the game ended, in words.
    pub reason: Option<String>,
    /// Half-moves since the last capture or crowning.
    pub halfmoves: u32,
    /// The legal moves.
    pub legal: Vec<String>,
    /// The game's moves.
    pub moves: Vec<String>,
    /// Each variation from where it leaves the game's line: its index, that ply, its moves.
    pub variations: Vec<(usize, usize, Vec<String>)>,
    /// How many of the moves are on the board.
    pub ply: usize,
    /// The rules.
    pub rules: Rules,
    /// Whether the engine plays Black, White.
    pub sides: [bool; 2],
    /// How long the engine thinks.
    pub level: Level,
    /// The engine is choosing a move.
    pub thinking: bool,
    /// The engine analyses.
    pub analysing: bool,
    /// Under a time control: Black's and White's time left (ms) and the side whose clock runs.
    pub clocks: Option<([i64; 2], Option<Side>)>,
    /// The engine's name.
    pub engine: String,
    /// Why the engine is dead, if it is.
    pub dead: Option<String>,
    /// The engine is starting.
    pub starting: bool,
    /// Why nobody moves although the engine plays the side to move.
    pub waiting: Option<&'static str>,
}

/// What a `diagnostics` message says.
#[derive(Debug)]
pub struct Diagnostics {
    /// The engine's name.
    pub engine: String,
    /// Its `id name`.
    pub id: String,
    /// Its program and arguments.
    pub command: Vec<String>,
    /// The options the command line set, `name=value`.
    pub options: Vec<String>,
    /// Its `option` lines.
    pub announced: Vec<String>,
    /// `running`, `starting` or `dead`.
    pub state: &'static str,
    /// Why it is dead, if it is.
    pub dead: Option<String>,
    /// The protocol lines both ways.
    pub lines: Vec<LogLine>,
    /// The errors reported, with their times (ms since the epoch).
    pub errors: Vec<(u64, String)>,
}

impl Message {
    /// The message as the page reads it.
    pub fn to_json(&self) -> Value {
        match self {
            Message::Hello(id) => json!({"type": "hello", "engine": id}),
            Message::State(s) => s.to_json(),
            Message::Analysis { turn, lines } => analysis_json(lines, *turn),
            Message::Error(text) => json!({"type": "error", "message": text}),
            Message::EngineDead(text) => json!({"type": "engine_dead", "message": text}),
            Message::Pdn(text) => json!({"type": "pdn", "text": text}),
            Message::Diagnostics(d) => d.to_json(),
        }
    }
}

impl State {
    fn to_json(&self) -> Value {
        let r = &self.rules;
        let variant = r.variant();
        let level = match self.level {
            Level::Nodes(n) => json!({"kind": "nodes", "value": n}),
            Level::Movetime(n) => json!({"kind": "movetime", "value": n}),
            Level::Elo(n) => json!({"kind": "elo", "value": n}),
        };
        json!({
            "type": "state",
            "fen": self.fen,
            "start": self.start,
            "turn": self.turn.name(),
            "result": self.result,
            "reason": self.reason,
            "halfmoves": self.halfmoves,
            "legal": self.legal,
            "moves": self.moves,
            "variations": self.variations.iter().map(|(i, ply, moves)| {
                json!({"index": i, "ply": ply, "moves": moves})
            }).collect::<Vec<_>>(),
            "ply": self.ply,
            "rules": {"variant": variant.key(), "name": variant.name(),
                      "notation": variant.notation().key(), "whiteFirst": r.white_first,
                      "backwardCapture": r.backward_capture, "longKings": r.long_kings,
                      "drawHalfMoves": r.draw_half_moves, "losing": r.losing},
            "sides": {"black": self.sides[0], "white": self.sides[1]},
            "level": level,
            "thinking": self.thinking,
            "analysing": self.analysing,
            "clocks": self.clocks.map(|([black, white], running)| {
                json!({"black": black, "white": white, "running": running.map(Side::name)})
            }),
            "engine": self.engine,
            "dead": self.dead,
            "starting": self.starting,
            "waiting": self.waiting,
        })
    }
}

impl Diagnostics {
    fn to_json(&self) -> Value {
        let lines: Vec<Value> = self
            .lines
            .iter()
            .map(|l| json!({"t": l.at_ms, "dir": if l.to_engine { "out" } else { "in" }, "text": l.text}))
            .collect();
        let errors: Vec<Value> = self
            .errors
            .iter()
            .map(|(t, text)| json!({"t": t, "text": text}))
            .collect();
        json!({
            "type": "diagnostics",
            "engine": self.engine,
            "id": self.id,
            "command": self.command,
            "options": self.options,
            "announced": self.announced,
            "state": self.state,
            "dead": self.dead,
            "lines": lines,
            "errors": errors,
        })
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

/// A message from the page (docs/gui.md), checked whole before anything is done.
#[derive(Debug)]
pub enum Request {
    /// `restart`: a new engine process.
    Restart,
    /// `pdn_export`: the game as PDN.
    PdnExport,
    /// `diagnostics`: the engine, its options, the protocol lines, the errors.
    Diagnostics,
    /// `new`: a new game.
    New {
        /// Its rules.
        rules: Rules,
        /// Whether the engine plays Black, White.
        sides: [bool; 2],
        /// How long the engine thinks.
        level: Level,
        /// The clocks, if any.
        tc: Option<TimeControl>,
        /// Its start, if not the standard one.
        fen: Option<String>,
    },
    /// `move`: a move typed or clicked.
    Move(String),
    /// `undo`.
    Undo,
    /// `redo`.
    Redo,
    /// `jump`: to this ply.
    Jump(usize),
    /// `fen`: a position set up.
    Fen(String),
    /// `pdn_import`: a pasted game, checked.
    Import(Record),
    /// `resume`: the page's saved game, checked.
    Resume {
        /// The game.
        record: Record,
        /// Whether the engine plays Black, White.
        sides: [bool; 2],
        /// How long the engine thinks.
        level: Level,
    },
    /// `analyse` with this many lines.
    Analyse(u64),
    /// `stop`.
    Stop,
    /// `go`: the engine moves now.
    Go,
    /// `sides`: who the engine plays.
    Sides([bool; 2]),
    /// `variation`: this variation becomes the game's line.
    Variation(usize),
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

/// The highest `DrawHalfMoves` a game from the page or a file may set.
const MAX_DRAW_HALF_MOVES: u32 = 1000;

/// The rules of a `new` or `resume` message: the rule set by its key (`variant`, one of the
/// table's), or by the two switches where the page names none, then the draw rule and
/// `losing`.
fn rules_of(r: &Value) -> Result<Rules, GuiError> {
    let named = match r.get("variant") {
        None | Some(Value::Null) => Rules::BUFF_AND_GREEN
            .with_switches(get_bool(r, "backwardCapture")?, get_bool(r, "longKings")?),
        Some(_) => {
            let key = get_str(r, "variant", 32)?;
            Variant::from_key(&key)
                .ok_or_else(|| {
                    let keys: Vec<&str> = Variant::ALL.iter().map(|v| v.key()).collect();
                    bad(format!(
                        "unknown variant '{}' (one of {})",
                        buffgreen_client::printable(&key),
                        keys.join(", ")
                    ))
                })?
                .rules()
        }
    };
    Ok(Rules {
        draw_half_moves: get_u64(r, "drawHalfMoves", 0, MAX_DRAW_HALF_MOVES.into())? as u32,
        losing: get_bool(r, "losing")?,
        ..named
    })
}

fn level_of(l: &Value) -> Result<Level, GuiError> {
    Ok(match get_str(l, "kind", 16)?.as_str() {
        "nodes" => Level::Nodes(get_u64(l, "value", 1, 1_000_000_000)?),
        "movetime" => Level::Movetime(get_u64(l, "value", 1, 3_600_000)?),
        "elo" => Level::Elo(get_u64(l, "value", 800, 2000)? as u32),
        k => return Err(bad(format!("unknown level kind '{k}'"))),
    })
}

/// A game for the engine from a start FEN and move texts that are not the engine's own: each
/// passes [`checked_fen`] or [`checked_move`] (the one check of everything that reaches the
/// engine from the page, a pasted PDN or a saved game), short and algebraic moves are written
/// in long numeric form later, as the engine checks them.
fn checked_record(
    rules: Rules,
    fen: Option<&str>,
    moves: &[String],
    ply: Option<usize>,
) -> Result<Record, String> {
    if moves.len() > MAX_MOVES {
        return Err(format!("{} moves, at most {MAX_MOVES}", moves.len()));
    }
    if rules.draw_half_moves > MAX_DRAW_HALF_MOVES {
        return Err(format!(
            "DrawHalfMoves {} is above {MAX_DRAW_HALF_MOVES}",
            rules.draw_half_moves
        ));
    }
    let start = match fen {
        Some(f) => checked_fen(f)?,
        None => game::start_fen(&rules),
    };
    let mut record = Record::new(rules, start);
    record.moves = moves
        .iter()
        .map(|m| checked_move(m).map(|m| game::to_numeric(&m)))
        .collect::<Result<_, _>>()?;
    record.ply = ply.unwrap_or(record.moves.len());
    if record.ply > record.moves.len() {
        return Err(format!(
            "ply {} beyond {} moves",
            record.ply,
            record.moves.len()
        ));
    }
    Ok(record)
}

impl Request {
    /// Reads one text message from the page: at most [`MAX_MESSAGE`] bytes of JSON with a
    /// `type` string, and the fields that type has, each in its range.
    pub fn parse(text: &str) -> Result<Request, GuiError> {
        if text.len() > MAX_MESSAGE {
            return Err(bad(format!(
                "message too long: {} bytes, at most {MAX_MESSAGE}",
                text.len()
            )));
        }
        let v: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no \"type\" string"))?;
        Request::of(kind, &v)
    }

    fn of(kind: &str, v: &Value) -> Result<Request, GuiError> {
        Ok(match kind {
            "restart" => Request::Restart,
            "pdn_export" => Request::PdnExport,
            "diagnostics" => Request::Diagnostics,
            "new" => {
                let rules = rules_of(get(v, "rules")?)?;
                let level = level_of(get(v, "level")?)?;
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
                Request::New {
                    rules,
                    sides: sides(get(v, "engine")?)?,
                    level,
                    tc,
                    fen,
                }
            }
            "move" => Request::Move(get_str(v, "move", 200)?),
            "undo" => Request::Undo,
            "redo" => Request::Redo,
            "jump" => Request::Jump(get_u64(v, "ply", 0, 1_000_000)? as usize),
            "fen" => Request::Fen(fen_value(v)?),
            "pdn_import" => {
                let text = get_str(v, "text", MAX_MESSAGE)?;
                let refused = |e: String| GuiError::Refused(format!("PDN import: {e}"));
                let game = first_game(&text).map_err(refused)?;
                let rules = game.rules().map_err(|e| refused(placed(&e)))?;
                Request::Import(
                    checked_record(rules, game.start_fen().as_deref(), &game.moves, None)
                        .map_err(refused)?,
                )
            }
            "resume" => {
                let moves = get(v, "moves")?
                    .as_array()
                    .ok_or_else(|| bad("\"moves\" must be a list"))?
                    .iter()
                    .map(|m| m.as_str().map(str::to_string))
                    .collect::<Option<Vec<String>>>()
                    .ok_or_else(|| bad("\"moves\" must be a list of strings"))?;
                let ply = get_u64(v, "ply", 0, MAX_MOVES as u64)? as usize;
                let start = get_str(v, "start", 400)?;
                let record =
                    checked_record(rules_of(get(v, "rules")?)?, Some(&start), &moves, Some(ply))
                        .map_err(bad)?;
                Request::Resume {
                    record,
                    sides: sides(get(v, "engine")?)?,
                    level: level_of(get(v, "level")?)?,
                }
            }
            "analyse" => Request::Analyse(get_u64(v, "multipv", 1, MAX_MULTIPV)?),
            "stop" => Request::Stop,
            "go" => Request::Go,
            "variation" => {
                Request::Variation(get_u64(v, "index", 0, MAX_VARIATIONS as u64)? as usize)
            }
            "sides" => Request::Sides(sides(v)?),
            k => return Err(bad(format!("unknown type '{k}'"))),
        })
    }
}

/// A FEN from the page, through [`checked_fen`].
fn fen_value(v: &Value) -> Result<String, GuiError> {
    checked_fen(&get_str(v, "fen", 400)?).map_err(|e| bad(format!("\"fen\": {e}")))
}

/// The first game of a pasted PDN text, or why it does not read (the reader's error for that
/// game, where it is and why).
fn first_game(text: &str) -> Result<pdn::PdnGame, String> {
    let (games, errors) = pdn::read_games("-", text);
    let good = games.into_iter().next();
    let bad = errors.first();
    match (good, bad) {
        (Some(g), Some(e)) if e.game < g.number => Err(placed(e)),
        (Some(g), _) => Ok(g),
        (None, Some(e)) => Err(placed(e)),
        (None, None) => Err("no game in the PDN text".to_string()),
    }
}

/// A PDN error as the page shows it: where in the pasted text, and why.
fn placed(e: &pdn::PdnError) -> String {
    format!("line {}, column {}: {}", e.line, e.column, e.why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_rules(rules: &str) -> Result<Rules, String> {
        let text = format!(
            r#"{{"type": "new", "rules": {rules}, "engine": {{"black": false, "white": false}},
                "level": {{"kind": "nodes", "value": 100}}}}"#
        );
        match Request::parse(&text) {
            Ok(Request::New { rules, .. }) => Ok(rules),
            Ok(other) => Err(format!("not a new game: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn a_russian_game_as_lidraughts_writes_it_imports() {
        let pdn = "[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n";
        let text = serde_json::json!({"type": "pdn_import", "text": pdn}).to_string();
        let Ok(Request::Import(record)) = Request::parse(&text) else {
            panic!("not imported: {text}");
        };
        assert_eq!(record.rules, Variant::Russian.rules());
        // No FEN: the rule set's start, White to move.
        assert_eq!(
            record.start,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(record.moves, ["22-18", "11-16", "18-15", "10x19", "24x15"]);
    }

    #[test]
    fn a_new_game_names_its_rule_set_by_key() {
        let russian = new_rules(r#"{"variant": "russian", "drawHalfMoves": 40, "losing": false}"#);
        assert_eq!(
            russian,
            Ok(Rules {
                draw_half_moves: 40,
                ..Variant::Russian.rules()
            })
        );
        let english = new_rules(
            r#"{"backwardCapture": false, "longKings": false, "drawHalfMoves": 80, "losing": false}"#,
        );
        assert_eq!(english, Ok(Rules::ENGLISH));
        assert_eq!(
            new_rules(r#"{"variant": "chinese\n", "drawHalfMoves": 80, "losing": false}"#),
            Err("bad message: \"variant\" is too long or holds a line break".to_string())
        );
        assert_eq!(
            new_rules(r#"{"variant": "chinese", "drawHalfMoves": 80, "losing": false}"#),
            Err("bad message: unknown variant 'chinese' (one of buffgreen, shortkings, forwardcapture, english, pool, russian, brazilian)".to_string())
        );
        assert_eq!(
            new_rules(r#"{"variant": 7, "drawHalfMoves": 80, "losing": false}"#),
            Err("bad message: \"variant\" must be a string".to_string())
        );
    }
}
