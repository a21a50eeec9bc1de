//! The referee: plays one game between two engine processes and judges it with the library.
//!
//! Faults lose: an illegal move (or `bestmove none` while moves exist), a crash (the process
//! closes its output or input), no reply (no `uciok`/`readyok`, or no `bestmove` under a
//! `nodes` limit, within the reply timeout), running out of time (a move that takes longer
//! than the clock, or the `movetime`, plus the time margin), and a protocol violation (a
//! `bestmove` when no search runs). The game also ends by the rules (no legal move, draw
//! clock) and by draw adjudication after a number of plies.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::adjudicate::{info_score, Adjudicator, ScoreRules, Verdict};
use super::error::TourneyError;
use super::iolog::IoLog;
use buffgreen_client::info::{bestmove, first_word, info_after, info_nodes, seed_option_max};

use super::process::{EngineProcess, Fault};
use super::spec::EngineSpec;
use super::tc::{Clock, Limit};
use buffgreen::board::{fen, Game, GameResult, Position, Rules};
use buffgreen::openings::Opening;
use buffgreen::tablebase::{Tablebase, TbError, Value};
use buffgreen::types::Color;

/// How games are played and judged.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// The rules, sent to both engines and used to judge.
    pub rules: Rules,
    /// Tolerance on the clock and on `movetime`, for the runner's own measuring and pipe
    /// delays: a move may take this much longer than the time left before it loses.
    pub margin: Duration,
    /// How long to wait for `uciok`, `readyok`, and for `bestmove` under a `nodes` limit.
    pub reply_timeout: Duration,
    /// Adjudicate a draw once this many plies were played after the opening.
    pub adjudicate_draw_after: Option<u32>,
    /// Resign and draw adjudication by the engines' scores (`--resign`, `--draw`).
    pub score_rules: ScoreRules,
    /// Endgame tables for the match's rules (`--tb`): a tabled position ends the game.
    pub tablebase: Option<Arc<Tablebase>>,
    /// The engine I/O log (`--debug-log`).
    pub log: Option<Arc<IoLog>>,
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PDN result: White's score first, draughts-style: `2-0`, `0-2`, `1-1`.
    pub fn pdn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "2-0",
            Outcome::Win(Color::Black) => "0-2",
            Outcome::Draw => "1-1",
        }
    }

    /// The points `side` scored: 1, 0.5 or 0.
    pub fn score(self, side: Color) -> f64 {
        match self {
            Outcome::Win(c) if c == side => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// Why a game ended; becomes the PDN `Termination` tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: a side has no legal move, or the draw clock ran out.
    Normal(GameResult),
    /// Drawn by adjudication after this many plies.
    Adjudication(u32),
    /// The side sent a move that is not legal (`text` as sent).
    IllegalMove(Color, String),
    /// The side's engine exited, or closed its input or output.
    Crash(Color),
    /// The side's engine did not answer (`what` it did not send) in time.
    NoReply(Color, &'static str),
    /// The side exceeded its time by this much.
    TimeForfeit(Color, Duration),
    /// The side sent this line where the protocol does not allow it.
    Protocol(Color, String),
    /// The side's engine, started earlier in the match, could not be started again (why):
    /// it forfeits the game and the match goes on.
    StartFailure(Color, String),
    /// The game reached a position of the endgame tables (`--tb`), which gave its result.
    Tablebase,
    /// The side resigned by `--resign` adjudication.
    Resign(Color),
    /// Drawn by `--draw` adjudication.
    ScoreDraw,
    /// A game read back from a PDN (`--resume`, `--merge`): its `Termination` tag.
    Recorded(String),
}

fn cap(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl Termination {
    /// The category: `normal`, `adjudication`, `illegal move`, `crash`, `no reply`,
    /// `time forfeit`, `protocol violation`.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Normal(_) => "normal",
            Termination::Adjudication(_) => "adjudication",
            Termination::IllegalMove(..) => "illegal move",
            Termination::Crash(_) => "crash",
            Termination::NoReply(..) => "no reply",
            Termination::TimeForfeit(..) => "time forfeit",
            Termination::Protocol(..) => "protocol violation",
            Termination::StartFailure(..) => "start failure",
            Termination::Tablebase | Termination::Resign(_) | Termination::ScoreDraw => {
                "adjudication"
            }
            Termination::Recorded(tag) => recorded_kind(tag),
        }
    }

    /// The side at fault, if a fault ended the game.
    pub fn culprit(&self) -> Option<Color> {
        match self {
            Termination::Normal(_)
            | Termination::Adjudication(_)
            | Termination::Tablebase
            | Termination::Resign(_)
            | Termination::ScoreDraw => None,
            // A fault's tag names the side at fault first: `crash: White's engine exited`.
            Termination::Recorded(tag) => {
                let fault = !matches!(recorded_kind(tag), "normal" | "adjudication" | "other");
                let detail = tag.split_once(": ").map_or("", |(_, d)| d);
                match detail.split(['\'', ' ']).next() {
                    Some("Black") if fault => Some(Color::Black),
                    Some("White") if fault => Some(Color::White),
                    _ => None,
                }
            }
            Termination::IllegalMove(c, _)
            | Termination::Crash(c)
            | Termination::NoReply(c, _)
            | Termination::TimeForfeit(c, _)
            | Termination::Protocol(c, _)
            | Termination::StartFailure(c, _) => Some(*c),
        }
    }

    /// The tag text: the category, a colon, and what happened.
    pub fn describe(&self, rules: &Rules) -> String {
        let detail = match self {
            // The side with no legal move lost, or under `losing` won.
            Termination::Normal(GameResult::Win(c)) if rules.losing => {
                format!("{} has no legal move (losing checkers)", cap(*c))
            }
            Termination::Normal(GameResult::Win(c)) => format!("{} has no legal move", cap(!*c)),
            Termination::Normal(_) => {
                format!("draw by the {}-half-move rule", rules.draw_half_moves)
            }
            Termination::Adjudication(n) => format!("draw after {n} plies"),
            Termination::IllegalMove(c, t) => format!("{} sent '{t}'", cap(*c)),
            Termination::Crash(c) => format!("{}'s engine exited", cap(*c)),
            Termination::NoReply(c, what) => format!("{} sent no {what}", cap(*c)),
            Termination::TimeForfeit(c, over) => {
                format!("{} exceeded its time by {} ms", cap(*c), over.as_millis())
            }
            Termination::Protocol(c, line) => format!("{} sent '{line}' unasked", cap(*c)),
            Termination::StartFailure(c, why) => format!("{}'s engine: {why}", cap(*c)),
            Termination::Tablebase => "tablebase".to_string(),
            Termination::Resign(c) => format!("{} resigns by score", cap(*c)),
            Termination::ScoreDraw => "draw by score".to_string(),
            Termination::Recorded(tag) => return tag.clone(),
        };
        format!("{}: {detail}", self.kind())
    }
}

/// The category of a recorded `Termination` tag: its text before the colon when that is one
/// of [`Termination::kind`]'s, else `other`.
fn recorded_kind(tag: &str) -> &'static str {
    const KINDS: [&str; 8] = [
        "normal",
        "adjudication",
        "illegal move",
        "crash",
        "no reply",
        "time forfeit",
        "protocol violation",
        "start failure",
    ];
    let head = tag.split(':').next().unwrap_or("");
    KINDS.into_iter().find(|k| *k == head).unwrap_or("other")
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The whole game: its start and every move, the opening's included.
    pub game: Game,
    /// Moves that came from the opening.
    pub opening_plies: usize,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub termination: Termination,
    /// Engine complaints (`info string error ...`) seen during the game, for the log.
    pub warnings: Vec<String>,
}

/// Starts an engine and makes it ready: `uci`/`uciok`, the rules and the spec's options by
/// `setoption`, then `isready`/`readyok`. A program that cannot be run at all is an error
/// (the whole match is misconfigured); any later failure is the engine's fault.
pub fn start_engine(
    spec: &EngineSpec,
    cfg: &RefereeConfig,
) -> Result<Result<EngineProcess, (Fault, &'static str)>, TourneyError> {
    let mut p = EngineProcess::spawn_logged(spec, cfg.log.clone())?;
    let r = (|| {
        let sent = p.send("uci").map_err(|f| (f, "uciok"))?;
        let mut seed_max = None;
        p.wait_for(
            sent + cfg.reply_timeout,
            |l| {
                seed_max = seed_max.or(seed_option_max(l));
                (l.trim() == "uciok").then_some(())
            },
            |_| false,
        )
        .map_err(|f| (f, "uciok"))?;
        p.seed_max = seed_max;
        // The rule options as the PDN tag names them: `Losing` only when on, so that normal
        // matches ask nothing new of other engines.
        let opts = cfg
            .rules
            .tag_options()
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .chain(spec.command.options.iter().cloned());
        for (name, value) in opts {
            p.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| (f, "readyok"))?;
        }
        p.sync(cfg.reply_timeout).map_err(|f| (f, "readyok"))
    })();
    Ok(r.map(|_| p))
}

/// One side's seed for a game, spread from the game's seed (SplitMix64's finaliser).
fn game_seed(seed: u64, side: Color) -> u64 {
    let mut z = seed
        .wrapping_mul(2)
        .wrapping_add(side.index() as u64)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn position_command(game: &Game) -> String {
    let mut s = if *game.start() == Position::startpos() && game.start_clock() == 0 {
        "position startpos".to_string()
    } else {
        format!("position fen {}", fen::write(game.start()))
    };
    if game.moves().len() > 0 {
        s.push_str(" moves");
        for m in game.moves() {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// The `go` command for `side` under its `limit`. On a clock the opponent's time is its own
/// clock's, or a copy of the mover's when the opponent plays without one.
fn go_command(side: Color, limit: &Limit, clocks: &[Option<Clock>; 2]) -> String {
    match (limit, clocks[side.index()]) {
        (Limit::Clock(_), Some(me)) => {
            let other = clocks[(!side).index()].unwrap_or(me);
            let (b, w) = match side {
                Color::Black => (me, other),
                Color::White => (other, me),
            };
            let mut s = format!(
                "go wtime {} btime {} winc {} binc {}",
                w.remaining().as_millis(),
                b.remaining().as_millis(),
                w.increment().as_millis(),
                b.increment().as_millis()
            );
            if let Some(n) = me.moves_to_go() {
                s.push_str(&format!(" movestogo {n}"));
            }
            s
        }
        (Limit::MoveTime(d), _) => format!("go movetime {}", d.as_millis()),
        (Limit::Nodes(n), _) => format!("go nodes {n}"),
        // A clock limit always comes with its clock; nodes is the harmless fallback.
        (Limit::Clock(_), None) => "go nodes 1".to_string(),
    }
}

/// The result the endgame tables give `game` as it stands, as the search reads them
/// ([`Tablebase::game_value`]): at the no-progress clock, or in tables of the 8x8 family at
/// the family's count of the game's moves, which a Russian or Brazilian game carries on
/// through captures and crownings that restart the clock. `None` when the tables do not
/// cover the position, or their entry is no answer at the game's counters (a Russian 7.2.7
/// position at another diagonal count than its entry holds): the game goes on.
pub fn table_outcome(tb: &Tablebase, game: &Game) -> Result<Option<Outcome>, TbError> {
    let pos = game.position();
    if !tb.covers(pos) {
        return Ok(None);
    }
    let stm = pos.side_to_move();
    Ok(tb
        .game_value(pos, game.clock(), game.draws())?
        .map(|value| match value {
            Value::Win(_) => Outcome::Win(stm),
            Value::Loss(_) => Outcome::Win(!stm),
            Value::Draw => Outcome::Draw,
        }))
}

/// One side of a game: the engine, its search limit, and whether it ran before in the match.
#[derive(Clone, Copy, Debug)]
pub struct Entrant<'a> {
    /// How to start it.
    pub spec: &'a EngineSpec,
    /// Its search limit.
    pub limit: Limit,
    /// Set once it was started in this match.
    pub started: &'a AtomicBool,
}

/// Plays one game from `opening`, `engines[0]` with Black and `engines[1]` with White, each
/// searching under its entrant's limit, starting (or restarting) processes that are missing
/// or dead. Returns `Ok(None)` when `stop` was raised during the game (the game is abandoned,
/// not scored). Each engine that offers a `Seed` option and was not given one gets a seed of
/// its own for this game drawn from `seed`, so that repeated openings do not repeat games.
/// A program that cannot be run is an error, unless its entrant's `started` says
/// it ran before in this match: then it forfeits this game instead. A start sets the entry.
pub fn play_game(
    cfg: &RefereeConfig,
    entrants: [Entrant<'_>; 2],
    seed: u64,
    engines: [&mut Option<EngineProcess>; 2],
    opening: &Opening,
    stop: &AtomicBool,
) -> Result<Option<Played>, TourneyError> {
    let specs = entrants.map(|e| e.spec);
    let limits = entrants.map(|e| e.limit);
    let started = entrants.map(|e| e.started);
    let [black, white] = engines;
    let mut seats = [black, white];
    let mut game = opening.game.clone();
    let opening_plies = game.moves().len();
    let mut warnings = Vec::new();
    let finish = |game: Game, outcome, termination, warnings| Played {
        game,
        opening_plies,
        outcome,
        termination,
        warnings,
    };

    // Start and prepare both sides; a side that fails here loses before the first move.
    for side in [Color::Black, Color::White] {
        let seat = &mut seats[side.index()];
        if !seat.as_ref().is_some_and(|p| p.alive()) {
            **seat = None;
            let attempt = match start_engine(specs[side.index()], cfg) {
                Err(e) if started[side.index()].load(Ordering::Relaxed) => {
                    let t = Termination::StartFailure(side, e.to_string());
                    return Ok(Some(finish(game, Outcome::Win(!side), t, warnings)));
                }
                other => other?,
            };
            started[side.index()].store(true, Ordering::Relaxed);
            match attempt {
                Ok(p) => **seat = Some(p),
                Err((fault, what)) => {
                    let t = fault_termination(side, fault, what);
                    return Ok(Some(finish(game, Outcome::Win(!side), t, warnings)));
                }
            }
        }
        let Some(p) = seat.as_mut() else {
            continue;
        };
        let own_seed = specs[side.index()]
            .command
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("Seed"));
        let mut r = p.send("ucinewgame");
        if let (Some(max), false, Ok(_)) = (p.seed_max, own_seed, &r) {
            let s = game_seed(seed, side) % max.saturating_add(1);
            r = p.send(&format!("setoption name Seed value {s}"));
        }
        let r = r.and_then(|_| p.sync(cfg.reply_timeout));
        if let Err(fault) = r {
            kill_unless_alive(seat);
            let t = fault_termination(side, fault, "readyok");
            return Ok(Some(finish(game, Outcome::Win(!side), t, warnings)));
        }
    }

    let mut clocks = limits.map(|l| match l {
        Limit::Clock(tc) => Some(Clock::new(tc)),
        _ => None,
    });
    let mut plies = 0u32;
    let mut judge = Adjudicator::new(cfg.score_rules);
    let mut verdict = None;
    let mut tablebase = cfg.tablebase.as_deref();
    loop {
        let result = game.result();
        if result != GameResult::Ongoing {
            let outcome = match result {
                GameResult::Win(c) => Outcome::Win(c),
                _ => Outcome::Draw,
            };
            return Ok(Some(finish(
                game,
                outcome,
                Termination::Normal(result),
                warnings,
            )));
        }
        if let Some(tb) = tablebase {
            match table_outcome(tb, &game) {
                Ok(Some(outcome)) => {
                    return Ok(Some(finish(
                        game,
                        outcome,
                        Termination::Tablebase,
                        warnings,
                    )));
                }
                Ok(None) => {}
                // A slice that cannot be read (corrupt, missing) ends probing for this game;
                // the game is played out.
                Err(e) => {
                    warnings.push(format!("tablebase: {e}"));
                    tablebase = None;
                }
            }
        }
        if let Some(v) = verdict {
            let (outcome, t) = match v {
                Verdict::Resign(side) => (Outcome::Win(!side), Termination::Resign(side)),
                Verdict::Draw => (Outcome::Draw, Termination::ScoreDraw),
            };
            return Ok(Some(finish(game, outcome, t, warnings)));
        }
        if cfg.adjudicate_draw_after.is_some_and(|n| plies >= n) {
            return Ok(Some(finish(
                game,
                Outcome::Draw,
                Termination::Adjudication(plies),
                warnings,
            )));
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let side = game.position().side_to_move();
        let seat = &mut seats[side.index()];
        let Some(p) = seat.as_mut() else {
            return Ok(Some(finish(
                game,
                Outcome::Win(!side),
                Termination::Crash(side),
                warnings,
            )));
        };
        let limit = limits[side.index()];
        let reply = ask_move(p, cfg, &limit, &game, &clocks, side, stop);
        warnings.extend(
            p.take_complaints()
                .into_iter()
                .map(|c| format!("{}: {c}", p.name())),
        );
        let Reply {
            text,
            elapsed,
            score,
            ..
        } = match reply {
            Ok(r) => r,
            // Stopped while the engine thought (Ctrl-C): the game is abandoned, not scored.
            Err(_) if stop.load(Ordering::Relaxed) => return Ok(None),
            Err(t) => {
                kill_unless_alive(seat);
                return Ok(Some(finish(game, Outcome::Win(!side), t, warnings)));
            }
        };
        let charged = match (limit, clocks[side.index()].as_mut()) {
            (Limit::Clock(_), Some(clock)) => clock.charge(elapsed, cfg.margin),
            (Limit::MoveTime(d), _) if elapsed > d + cfg.margin => Err(elapsed - d),
            _ => Ok(()),
        };
        if let Err(over) = charged {
            return Ok(Some(finish(
                game,
                Outcome::Win(!side),
                Termination::TimeForfeit(side, over),
                warnings,
            )));
        }
        if game.play_str(&text).is_err() {
            return Ok(Some(finish(
                game,
                Outcome::Win(!side),
                Termination::IllegalMove(side, text),
                warnings,
            )));
        }
        plies += 1;
        if !cfg.score_rules.is_off() {
            verdict = judge.after_move(side, score, game.moves().len(), game.clock() == 0);
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move of its `bestmove` line, as sent.
    pub text: String,
    /// From sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
    /// The last `score` it reported for this search (centipawns, mates beyond any).
    pub score: Option<i64>,
    /// The last `nodes` count it reported for this search.
    pub nodes: Option<u64>,
    /// The last `depth` it reported for this search.
    pub depth: Option<u64>,
}

/// Asks the engine for its move in `game`'s current position under `limit` (`nodes` or
/// `movetime`; a clock limit needs a game's clocks): the referee's own exchange, for a test
/// suite. On a fault the process may be dead (see [`EngineProcess::alive`]).
pub fn search_position(
    p: &mut EngineProcess,
    cfg: &RefereeConfig,
    limit: &Limit,
    game: &Game,
) -> Result<Reply, Termination> {
    let side = game.position().side_to_move();
    ask_move(
        p,
        cfg,
        limit,
        game,
        &[None, None],
        side,
        &AtomicBool::new(false),
    )
}

/// How often a wait for `bestmove` looks at the match's stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// One move: sync, `position`, `go`, wait for `bestmove`. When `stop` is raised during the
/// wait (Ctrl-C), it gives up at once with an error the caller drops: a long move does not
/// hold up the end of the match.
fn ask_move(
    p: &mut EngineProcess,
    cfg: &RefereeConfig,
    limit: &Limit,
    game: &Game,
    clocks: &[Option<Clock>; 2],
    side: Color,
    stop: &AtomicBool,
) -> Result<Reply, Termination> {
    p.sync(cfg.reply_timeout)
        .map_err(|f| fault_termination(side, f, "readyok"))?;
    p.send(&position_command(game))
        .map_err(|f| fault_termination(side, f, "bestmove"))?;
    let sent = p
        .send(&go_command(side, limit, clocks))
        .map_err(|f| fault_termination(side, f, "bestmove"))?;
    let clock = clocks[side.index()];
    let budget = match (limit, clock) {
        (Limit::Clock(_), Some(c)) => c.allowance(cfg.margin),
        (Limit::MoveTime(d), _) => *d + cfg.margin,
        _ => cfg.reply_timeout,
    };
    let (mut score, mut nodes, mut depth) = (None, None, None);
    let mut accept = |l: &str| {
        score = info_score(l).or(score);
        nodes = info_nodes(l).or(nodes);
        depth = info_after(l, "depth")
            .and_then(|mut w| w.next()?.parse().ok())
            .or(depth);
        bestmove(l).map(str::to_string)
    };
    let deadline = sent + budget;
    let got = loop {
        let until = deadline.min(Instant::now() + STOP_POLL);
        match p.wait_for(until, &mut accept, |_| false) {
            Err(Fault::Timeout) if until < deadline => {
                if stop.load(Ordering::Relaxed) {
                    return Err(Termination::NoReply(side, "bestmove"));
                }
            }
            got => break got,
        }
    };
    match got {
        Ok((text, at)) => Ok(Reply {
            text,
            elapsed: at.saturating_duration_since(sent),
            score,
            nodes,
            depth,
        }),
        Err(Fault::Timeout) => {
            // Out of time (or no reply): stop the search and keep the process if it answers.
            let late = Instant::now().saturating_duration_since(sent);
            let _ = p.send("stop");
            let recovered = p.wait_for(
                Instant::now() + cfg.reply_timeout.min(Duration::from_secs(1)),
                |l| (first_word(l) == Some("bestmove")).then_some(()),
                |_| false,
            );
            if recovered.is_err() {
                p.kill();
            }
            Err(match (limit, clock) {
                (Limit::Clock(_), Some(c)) => {
                    Termination::TimeForfeit(side, late.saturating_sub(c.remaining()))
                }
                (Limit::MoveTime(d), _) => Termination::TimeForfeit(side, late.saturating_sub(*d)),
                _ => Termination::NoReply(side, "bestmove"),
            })
        }
        Err(f) => Err(fault_termination(side, f, "bestmove")),
    }
}

fn fault_termination(side: Color, fault: Fault, what: &'static str) -> Termination {
    match fault {
        Fault::Crashed => Termination::Crash(side),
        Fault::Timeout => Termination::NoReply(side, what),
        Fault::Protocol(line) => Termination::Protocol(side, line),
    }
}

/// Drops a process that is dead so that the next game starts a fresh one.
fn kill_unless_alive(seat: &mut Option<EngineProcess>) {
    if seat.as_ref().is_some_and(|p| !p.alive()) {
        *seat = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buffgreen::board::Game;

    #[test]
    fn commands() {
        let mut g = Game::new(Position::startpos(), 0, Rules::default());
        assert_eq!(position_command(&g), "position startpos");
        g.play_str("11-15").unwrap();
        g.play_str("23-19").unwrap();
        assert_eq!(position_command(&g), "position startpos moves 11-15 23-19");
        let g = Game::new(fen::parse("W:W18:B14").unwrap(), 0, Rules::default());
        assert_eq!(position_command(&g), "position fen W:W18:B14");
        let tc: super::super::tc::TimeControl = "40/60+0.6".parse().unwrap();
        let clocks = [Some(Clock::new(tc)), Some(Clock::new(tc))];
        assert_eq!(
            go_command(Color::Black, &Limit::Clock(tc), &clocks),
            "go wtime 60000 btime 60000 winc 600 binc 600 movestogo 40"
        );
        assert_eq!(
            go_command(Color::White, &Limit::Nodes(5), &clocks),
            "go nodes 5"
        );
        assert_eq!(
            go_command(
                Color::Black,
                &Limit::MoveTime(Duration::from_millis(80)),
                &clocks
            ),
            "go movetime 80"
        );
        // Black on a clock, White searching a fixed number of nodes.
        let mut mine = Clock::new("10+0.1".parse().unwrap());
        mine.charge(Duration::from_millis(500), Duration::ZERO)
            .unwrap();
        let mixed = [Some(mine), None];
        assert_eq!(
            go_command(Color::Black, &Limit::Clock(tc), &mixed),
            "go wtime 9600 btime 9600 winc 100 binc 100"
        );
    }

    #[test]
    fn termination_texts() {
        let r = Rules::default();
        assert_eq!(
            Termination::Normal(GameResult::Win(Color::White)).describe(&r),
            "normal: Black has no legal move"
        );
        assert_eq!(
            Termination::Normal(GameResult::Draw).describe(&r),
            "normal: draw by the 80-half-move rule"
        );
        assert_eq!(
            Termination::IllegalMove(Color::Black, "1-5".into()).describe(&r),
            "illegal move: Black sent '1-5'"
        );
        assert_eq!(
            Termination::TimeForfeit(Color::White, Duration::from_millis(12)).describe(&r),
            "time forfeit: White exceeded its time by 12 ms"
        );
        assert_eq!(Outcome::Win(Color::Black).pdn(), "0-2");
        assert_eq!(Outcome::Draw.score(Color::White), 0.5);
    }
}
