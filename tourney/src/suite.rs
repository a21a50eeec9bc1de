//! `buffgreen suite FILE...`: searches test positions and counts those where the engine plays
//! one of the best moves, or none of the moves to avoid.
//!
//! Line format: `FEN ; bm <move> [<move>...] ; id <name>` or `FEN ; am <move> [<move>...] ;
//! id <name>` (EPD's "best move" and "avoid move": a position is solved by a `bm` move, and by
//! any move but an `am` one; a line may have both), plus optional fields `rules
//! default|english|pool|russian|brazilian` (a suite word or a `Variant` key) and any others (`type`, `depth`, ... are ignored). A line with neither
//! `bm` nor `am` is searched and its move, score, depth and iterations printed, without a
//! verdict: a file of bare FENs gets the engine's moves. Blank lines and lines
//! starting with `#` are skipped. Every line is checked before any search: a bad FEN, a `bm` or
//! `am` move that is not legal in the position, a move in both, a position with no legal move
//! or an unknown `rules` value is an error naming `file:line`, and nothing is searched. Moves
//! are compared as moves, not as text: a capture may be given by its ends (`9x25` for
//! `9x18x25`) when that names one capture.
//!
//! The positions are searched in this process by the library's search, or with `--engine
//! SPEC` by another engine program driven through the protocol by the match runner's engine
//! code (`crate::tourney`): the same spec as `buffgreen match --engine`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::adjudicate::{score_text, ScoreRules};
use crate::error::TourneyError;
use crate::outputs::{self, Kind};
use crate::process::EngineProcess;
use crate::referee::{self, RefereeConfig};
use crate::spec::EngineSpec;
use crate::tc::Limit;
use buffgreen::board::{fen, notation, Game, Position, Rules, Variant};
use buffgreen::cli::RuleFlags;
use buffgreen::search::tables::Endgame;
use buffgreen::search::{Control, Limits, Score, SearchConfig, SearchEvent, Searcher};
use buffgreen::tablebase::material::MAX_PIECES;
use buffgreen::tablebase::Tablebase;
use buffgreen::types::Move;

/// The exit status of a suite whose positions were all solved.
pub const EXIT_OK: i32 = 0;

/// The exit status of a suite with unsolved positions (the `Solved:` line gives the count).
pub const EXIT_UNSOLVED: i32 = 1;

/// The exit status of a suite that could not be run (unreadable file, bad line, bad `--json`,
/// an engine that cannot be started).
pub const EXIT_ERROR: i32 = 2;

/// Command-line arguments of `buffgreen suite`.
#[derive(clap::Args, Debug, Clone)]
pub struct SuiteArgs {
    /// Suite files (paths relative to the current directory).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Rules for every line; a line's own `rules` field overrides them.
    #[command(flatten)]
    pub rules: RuleFlags,
    /// Iterations per position (the default limit: 20000).
    #[arg(long, value_name = "N", conflicts_with = "movetime",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Time per position in milliseconds instead of an iteration limit.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, conflicts_with = "engine",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Tree memory in MiB.
    #[arg(long, default_value_t = 64, conflicts_with = "engine",
          value_parser = clap::value_parser!(u32).range(1..=buffgreen::engine::MAX_HASH_MIB))]
    pub hash: u32,
    /// Random seed of the search (same seed and --nodes, same answers).
    #[arg(long, default_value_t = 0, conflicts_with = "engine",
          value_parser = clap::value_parser!(u64).range(0..=buffgreen::engine::MAX_SEED as u64))]
    pub seed: u64,
    /// Run the positions through this engine program instead of searching in this process:
    /// an engine spec as `match --engine` takes it (`cmd=PROGRAM option.Hash=16 ...`;
    /// `nodes=`/`movetime=` in it override --nodes/--movetime). Give it Threads, Hash and
    /// Seed as options.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// With --engine: how long to wait in ms for `uciok`, `readyok` and a `bestmove` (past
    /// the movetime).
    #[arg(long, value_name = "MS", default_value_t = 10_000, requires = "engine")]
    pub reply_timeout: u64,
    /// Also write the results as JSON to this file: one object with `positions` (file, line,
    /// id, rules, fen, bm, am, played, solved, nodes) and `solved`, `total`, `limit`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Endgame tables the search in this process probes (as `TablebasePath`: a folder of
    /// tables, or a root with one sub-folder per rule setting); none without it. With
    /// `--engine`, give `option.TablebasePath=` instead.
    #[arg(long, value_name = "DIR", conflicts_with = "engine")]
    pub tables: Option<String>,
}

/// Default iterations per position.
pub const DEFAULT_NODES: u64 = 20_000;

/// One checked line of a suite file.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The file, as given.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// The `id` field, or `line N`.
    pub id: String,
    /// The rules of this position.
    pub rules: Rules,
    /// The position.
    pub position: Position,
    /// The best moves (`bm`), resolved to legal moves of the position; empty: any move not
    /// avoided.
    pub best: Vec<Move>,
    /// The moves to avoid (`am`), resolved likewise.
    pub avoid: Vec<Move>,
}

impl Entry {
    /// True when the line says what solves it (`bm` or `am`); false for a position only to
    /// be searched.
    pub fn is_test(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }
}

/// Reads and checks every line of `text` (from `file`); all errors, one per bad line, each
/// starting `file:line: `.
pub fn parse_suite(file: &str, text: &str, base: Rules) -> Result<Vec<Entry>, Vec<String>> {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line, base) {
            Ok(p) => entries.push(Entry {
                file: file.to_string(),
                line: i + 1,
                id: p.id.unwrap_or_else(|| format!("line {}", i + 1)),
                rules: p.rules,
                position: p.position,
                best: p.best,
                avoid: p.avoid,
            }),
            Err(why) => errors.push(format!("{file}:{}: {why}", i + 1)),
        }
    }
    if errors.is_empty() {
        Ok(entries)
    } else {
        Err(errors)
    }
}

/// The fields of one line.
struct Parsed {
    id: Option<String>,
    rules: Rules,
    position: Position,
    best: Vec<Move>,
    avoid: Vec<Move>,
}

/// `text` as an error message quotes it: control characters escaped, so that the message
/// stays one printable line.
fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn parse_line(line: &str, base: Rules) -> Result<Parsed, String> {
    let mut fields = line.split(';').map(str::trim);
    let fen_text = fields.next().unwrap_or("");
    let position =
        fen::parse(fen_text).map_err(|e| format!("bad FEN '{}': {e}", shown(fen_text)))?;
    let (mut bm, mut am, mut id, mut rules) = (None, None, None, base);
    for field in fields {
        let (key, value) = field.split_once(char::is_whitespace).unwrap_or((field, ""));
        let value = value.trim();
        match key {
            "bm" => bm = Some(value),
            "am" => am = Some(value),
            "id" => id = Some(value.to_string()),
            "rules" => {
                // The suite words first (`default` is no key), then the `Variant` option's
                // keys, so that a line names any rule set of the table.
                let named = Variant::from_suite_name(value).or_else(|| {
                    Variant::from_key(value).filter(|v| Variant::OPTION_KEYS.contains(&v.key()))
                });
                let Some(variant) = named else {
                    return Err(format!(
                        "unknown rules '{}' ({} or a Variant key: {})",
                        shown(value),
                        Variant::suite_names().join(" or "),
                        Variant::OPTION_KEYS.join(", ")
                    ));
                };
                rules = base.with_variant(variant);
            }
            _ => {}
        }
    }
    let (bm, am) = (bm.unwrap_or(""), am.unwrap_or(""));
    let legal = Game::new(position, 0, rules).legal_moves();
    if legal.is_empty() {
        return Err("the side to move has no legal move".to_string());
    }
    let moves = |key: &str, text: &str| {
        text.split_whitespace()
            .map(|m| {
                notation::parse_move(&position, &rules, m).map_err(|e| format!("{key} {m}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let best = moves("bm", bm)?;
    let avoid = moves("am", am)?;
    if let Some(m) = best.iter().find(|m| avoid.contains(m)) {
        return Err(format!("{m} is in both bm and am"));
    }
    // Such a position could never be solved: a mistake of the file, not a test.
    if legal.iter().all(|m| avoid.contains(m)) {
        return Err("am names every legal move".to_string());
    }
    Ok(Parsed {
        id,
        rules,
        position,
        best,
        avoid,
    })
}

/// What one position gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The engine's move.
    pub played: Option<Move>,
    /// Iterations searched (with `--engine`: the last `nodes` it reported, if any).
    pub nodes: Option<u64>,
    /// The last score reported, as `info` wrote it (`cp 12`, `mate 3`), if any.
    pub score: Option<String>,
    /// The last `depth` reported, if any.
    pub depth: Option<u64>,
}

impl Outcome {
    /// No move (the engine failed on the position).
    fn none() -> Outcome {
        Outcome {
            played: None,
            nodes: None,
            score: None,
            depth: None,
        }
    }
}

impl Outcome {
    /// Whether the move played is one of `entry`'s best moves (any, if it names none) and
    /// not one it says to avoid.
    pub fn solved(&self, entry: &Entry) -> bool {
        self.played.is_some_and(|m| {
            (entry.best.is_empty() || entry.best.contains(&m)) && !entry.avoid.contains(&m)
        })
    }
}

/// The tables of `--tables` for each rule setting met so far, each opened (and every file
/// checked) once; a rule setting whose tables cannot be opened is said once on stderr and
/// searched without tables, as the engine plays on after a rules change.
#[derive(Default)]
struct Tables {
    opened: Vec<(Rules, Option<Arc<Endgame>>)>,
}

impl Tables {
    /// The tables of `dir` for `rules`, if they open.
    fn of(&mut self, dir: &str, rules: &Rules) -> Option<Arc<Endgame>> {
        if let Some((_, t)) = self.opened.iter().find(|(r, _)| r == rules) {
            return t.clone();
        }
        let opened = Tablebase::open(Path::new(dir), rules)
            .and_then(|tb| tb.verify_plain().map(|()| tb))
            .map(|tb| Endgame::new(Arc::new(tb), MAX_PIECES).map(Arc::new));
        let t = opened.unwrap_or_else(|e| {
            eprintln!("warning: --tables {dir}: {e}; its positions are searched without tables");
            None
        });
        self.opened.push((*rules, t.clone()));
        t
    }
}

/// Searches one position with `searcher`'s tree emptied first, as an engine does after
/// `ucinewgame`. One searcher serves every position: a new one per position allocated and
/// freed its whole tree memory each time, which cost more than the searches themselves.
pub fn search(entry: &Entry, searcher: &mut Searcher, limits: &Limits) -> Outcome {
    let game = Game::new(entry.position, 0, entry.rules);
    searcher.new_game();
    let mut last = None;
    let out = searcher.search(&game, limits, &Control::default(), &mut |event| {
        if let SearchEvent::Info(info) = event {
            if info.multipv == 1 {
                last = Some(info);
            }
        }
    });
    Outcome {
        played: out.best,
        nodes: Some(out.nodes),
        score: last.as_ref().map(|i| match i.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        }),
        depth: last.map(|i| u64::from(i.depth)),
    }
}

/// Another engine program that searches the positions (`--engine`), started at the first
/// position and again after it fails.
struct External {
    spec: EngineSpec,
    limit: Limit,
    cfg: RefereeConfig,
    process: Option<EngineProcess>,
    /// It started once: a later failure to start is its fault, not a bad `--engine`.
    started: bool,
}

impl External {
    fn new(a: &SuiteArgs, text: &str, limit: Limit) -> Result<External, String> {
        let spec = EngineSpec::parse(text, "").map_err(|e| e.to_string())?;
        let limit = match spec.limit.unwrap_or(limit) {
            Limit::Clock(_) => {
                return Err(format!(
                    "--engine {text}: a suite takes nodes= or movetime=, not a clock"
                ))
            }
            l => l,
        };
        let wait = Duration::from_millis(a.reply_timeout.max(1));
        Ok(External {
            spec,
            limit,
            cfg: RefereeConfig {
                rules: Rules::default(),
                // A suite judges moves, not time: a slow answer is waited for.
                margin: wait,
                reply_timeout: wait,
                adjudicate_draw_after: None,
                score_rules: ScoreRules::default(),
                tablebase: None,
                log: None,
            },
            process: None,
            started: false,
        })
    }

    /// The engine's move for `entry`; a failure on this position is a warning and no move.
    /// `Err` when the program cannot be run at all: the suite stops.
    fn search(&mut self, entry: &Entry) -> Result<Outcome, String> {
        Ok(self.try_search(entry)?.unwrap_or_else(|why| {
            eprintln!("warning: {}:{}: {why}", entry.file, entry.line);
            Outcome::none()
        }))
    }

    /// [`External::search`], with why this position has no move as the inner `Err`.
    fn try_search(&mut self, entry: &Entry) -> Result<Result<Outcome, String>, String> {
        self.cfg.rules = entry.rules;
        let p = match self.process.take().filter(EngineProcess::alive) {
            Some(p) => p,
            None => match referee::start_engine(&self.spec, &self.cfg) {
                Ok(Ok(p)) => p,
                Ok(Err((fault, what))) => return Ok(Err(format!("no {what}: {fault}"))),
                Err(e) if self.started => return Ok(Err(e.to_string())),
                Err(e) => return Err(e.to_string()),
            },
        };
        self.started = true;
        let p = self.process.insert(p);
        let options = entry.rules.tag_options();
        for (name, value) in options {
            let _ = p.send(&format!("setoption name {name} value {value}"));
        }
        let _ = p.send("ucinewgame");
        let game = Game::new(entry.position, 0, entry.rules);
        let reply = match referee::search_position(p, &self.cfg, &self.limit, &game) {
            Ok(r) => r,
            Err(t) => return Ok(Err(t.describe(&entry.rules))),
        };
        let played = notation::parse_move(&entry.position, &entry.rules, &reply.text)
            .map_err(|e| format!("bestmove {}: {e}", reply.text));
        Ok(played.map(|m| Outcome {
            played: Some(m),
            nodes: reply.nodes,
            score: reply.score.map(score_text),
            depth: reply.depth,
        }))
    }
}

/// The library's limits for a suite's `limit` (nodes or movetime).
fn limits_of(limit: Limit) -> Limits {
    match limit {
        Limit::MoveTime(d) => Limits::movetime(d),
        Limit::Nodes(n) => Limits::nodes(n),
        Limit::Clock(_) => Limits::nodes(DEFAULT_NODES),
    }
}

/// The limit as the `Solved:` line names it.
fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::MoveTime(d) => format!("movetime {} ms", d.as_millis()),
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::Clock(tc) => tc.to_string(),
    }
}

/// The word a suite file names the rule set of `r` with: its suite word, else its `Variant`
/// key where the option names it, else `custom`.
fn rules_name(r: &Rules) -> &'static str {
    let v = r.variant();
    v.suite_name()
        .or_else(|| Variant::OPTION_KEYS.contains(&v.key()).then(|| v.key()))
        .unwrap_or("custom")
}

/// Refuses a `--json` output that would destroy an input ([`outputs::check`]): a suite file,
/// the `--tables` folder, a file the `--engine` reads, or an existing file that is not a
/// suite's results.
fn check_json(a: &SuiteArgs, json: &str) -> Result<(), TourneyError> {
    let engines: Vec<EngineSpec> = a
        .engine
        .iter()
        .map(|t| EngineSpec::parse(t, ""))
        .collect::<Result<_, _>>()?;
    let inputs: Vec<_> = a.files.iter().map(|f| ("FILE", f.as_str())).collect();
    let folders: Vec<_> = a.tables.iter().map(|d| ("--tables", d.as_str())).collect();
    outputs::check(
        &[("--json", json, Kind::SuiteJson)],
        &inputs,
        &folders,
        &engines,
    )
}

/// Runs `buffgreen suite`; returns the exit status ([`EXIT_OK`], [`EXIT_UNSOLVED`],
/// [`EXIT_ERROR`]).
pub fn run(a: &SuiteArgs) -> i32 {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    if let Some(json) = &a.json {
        if let Err(e) = check_json(a, json) {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    }
    for file in &a.files {
        match std::fs::read_to_string(file) {
            Ok(text) => match parse_suite(file, &text, a.rules.rules()) {
                Ok(e) => entries.extend(e),
                Err(e) => errors.extend(e),
            },
            Err(e) => errors.push(format!("{file}: {e}")),
        }
    }
    if !errors.is_empty() {
        for e in errors {
            eprintln!("error: {e}");
        }
        return EXIT_ERROR;
    }
    let config = SearchConfig {
        threads: a.threads as usize,
        hash_mib: a.hash as usize,
        seed: a.seed,
        ..SearchConfig::default()
    };
    let limit = match a.movetime {
        Some(ms) => Limit::MoveTime(Duration::from_millis(ms)),
        None => Limit::Nodes(a.nodes.unwrap_or(DEFAULT_NODES)),
    };
    let mut engine = match a.engine.as_deref().map(|t| External::new(a, t, limit)) {
        Some(Ok(e)) => Some(e),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
        None => None,
    };
    if let Some(dir) = a.tables.as_deref().filter(|d| !Path::new(d).is_dir()) {
        eprintln!("error: --tables {dir}: no such directory");
        return EXIT_ERROR;
    }
    let limit_text = limit_text(engine.as_ref().map_or(limit, |e| e.limit));
    let limits = limits_of(limit);
    let mut searcher = engine.is_none().then(|| Searcher::new(&config));
    let mut tables = Tables::default();
    let mut solved = 0;
    let mut records = Vec::new();
    let mut out = std::io::stdout().lock();
    for entry in &entries {
        let o = match engine.as_mut().map(|e| e.search(entry)) {
            None => match searcher.as_mut() {
                Some(searcher) => {
                    if let Some(dir) = &a.tables {
                        searcher.set_tables(tables.of(dir, &entry.rules));
                    }
                    search(entry, searcher, &limits)
                }
                None => Outcome::none(),
            },
            Some(Ok(o)) => o,
            Some(Err(e)) => {
                eprintln!("error: {e}");
                return EXIT_ERROR;
            }
        };
        let test = entry.is_test();
        let ok = o.solved(entry);
        solved += usize::from(test && ok);
        let played = o.played.map_or("none".to_string(), |m| m.to_string());
        let bm: Vec<String> = entry.best.iter().map(Move::to_string).collect();
        let am: Vec<String> = entry.avoid.iter().map(Move::to_string).collect();
        let mut wanted = Vec::new();
        if !bm.is_empty() {
            wanted.push(format!("bm {}", bm.join(" ")));
        }
        if !am.is_empty() {
            wanted.push(format!("am {}", am.join(" ")));
        }
        if !test {
            let found = [
                o.score.as_ref().map(|s| format!("score {s}")),
                o.depth.map(|d| format!("depth {d}")),
                o.nodes.map(|n| format!("nodes {n}")),
            ];
            wanted.extend(found.into_iter().flatten());
        }
        let mut line = String::new();
        let _ = writeln!(
            line,
            "{:<4} {:<14} {:<8} played {:<10} {}",
            match (test, ok) {
                (false, _) => "--",
                (true, true) => "ok",
                (true, false) => "FAIL",
            },
            entry.id,
            rules_name(&entry.rules),
            played,
            wanted.join(if test { " ; " } else { " " })
        );
        // A closed stdout loses the lines, not the count (the exit status).
        let _ = out.write_all(line.as_bytes());
        records.push(json!({
            "file": entry.file,
            "line": entry.line,
            "id": entry.id,
            "rules": entry.rules.to_string(),
            "fen": fen::write(&entry.position),
            "bm": bm,
            "am": am,
            "played": o.played.map(|m| m.to_string()),
            "solved": test.then_some(ok),
            "nodes": o.nodes,
            "score": o.score,
            "depth": o.depth,
        }));
    }
    let total = entries.iter().filter(|e| e.is_test()).count();
    let _ = writeln!(out, "Solved: {solved}/{total} ({limit_text})");
    let _ = out.flush();
    if let Some(path) = &a.json {
        let doc = json!({
            "positions": records,
            "solved": solved,
            "total": total,
            "limit": limit_text,
        });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: --json {path}: {e}");
            return EXIT_ERROR;
        }
    }
    if solved == total {
        EXIT_OK
    } else {
        EXIT_UNSOLVED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_checked_with_file_and_line() {
        let text = "# c\n\nW:W18:B14 ; bm 18x9 ; id a\nnot a fen ; bm 1-5\n\
                    W:W18:B14 ; bm 18-15\nW:W18:B14 ; bm 18x9 ; rules chinese\n";
        let errs = parse_suite("s.txt", text, Rules::BUFF_AND_GREEN).unwrap_err();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(
            errs[0].starts_with("s.txt:4: bad FEN 'not a fen': "),
            "{}",
            errs[0]
        );
        assert!(errs[1].starts_with("s.txt:5: bm 18-15: "), "{}", errs[1]);
        assert_eq!(
            errs[2],
            "s.txt:6: unknown rules 'chinese' (default or english or a Variant key: buffgreen, english, pool, russian, brazilian)"
        );
        // `am` naming every legal move (here the one capture) leaves nothing to solve it.
        let errs = parse_suite("s.txt", "W:W18:B14 ; am 18x9\n", Rules::ENGLISH).unwrap_err();
        assert_eq!(errs, ["s.txt:1: am names every legal move"]);
        let ok = parse_suite("s.txt", "W:W18:B14 ; bm 18x9\n", Rules::ENGLISH).unwrap();
        assert_eq!(ok[0].id, "line 1");
        assert_eq!(ok[0].rules, Rules::ENGLISH);
        assert_eq!(ok[0].best[0].to_string(), "18x9");
    }
}
