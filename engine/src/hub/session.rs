//! One Hub session: the engine facade driven by Hub commands, the pending `level`, and the
//! Hub-only settings (`variant`, `pos-encoding`).
//!
//! The input thread executes commands in order; searches run on the engine's search thread and
//! report through callbacks that format Hub lines. While a search runs only `ping`, `stop`,
//! `ponder-hit` and `quit` are accepted, as the specification says the GUI will send no other;
//! anything else gets one `error` line and changes nothing.

use thiserror::Error;

use crate::board::option;
use crate::board::{fen, generate_moves, Game, GameResult, MoveList, Position};
use crate::engine::{Engine, EngineError, GoRequest, StartPosition};
use crate::hub::command::{self, Command, CommandError, GoMode, Level};
use crate::hub::notation::{Encoding, MoveError, Numbering, PosError};
use crate::hub::output::{book_line, done_line, error_line, hub_lines, info_line};
use crate::hub::{Choice, Variant, DEFAULT_VARIANT};
use crate::protocol::{Flow, Output};
use crate::search::{Limits, SearchEvent};

/// Why a Hub command was refused. Nothing changed when one of these is answered.
#[derive(Debug, Error)]
pub enum HubError {
    /// The line does not parse.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// A command other than `ping`, `stop`, `ponder-hit` or `quit` during a search.
    #[error(
        "a search is running: only ping, stop, ponder-hit and quit are accepted until its done"
    )]
    Busy,
    /// The `pos=` string is bad.
    #[error(transparent)]
    Pos(#[from] PosError),
    /// A move of `moves=` names no legal move.
    #[error("move {number}: {source}")]
    Move {
        /// 1-based index in the move list.
        number: usize,
        /// Why.
        source: MoveError,
    },
    /// An enum parameter got a value outside its list.
    #[error("parameter {name}: bad value '{value}': expected one of {expected}")]
    Enum {
        /// The parameter.
        name: &'static str,
        /// What was given (shortened).
        value: String,
        /// The accepted values.
        expected: String,
    },
    /// A number parameter got something else.
    #[error("parameter {name}: bad value '{value}': expected a number of seconds")]
    Number {
        /// The parameter.
        name: &'static str,
        /// What was given (shortened).
        value: String,
    },
    /// The engine refused (an unknown option or a bad value, a search that cannot start).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The parameter lidraughts-bot sends with the game's starting clock, in seconds.
const INITIAL_TIME: &str = "initial-time";

/// A Hub session: the engine and where its replies go. [`crate::hub::run`] feeds it the lines
/// of its input; a test can feed it lines one at a time (with an [`Output`] over memory).
pub struct Session {
    engine: Engine,
    out: Output,
    level: Level,
    variant: Variant,
    encoding: Encoding,
}

impl Session {
    /// A fresh engine playing English checkers, replying to `out`.
    pub fn new(out: Output) -> Session {
        let mut s = Session {
            engine: Engine::new(),
            out,
            level: Level::default(),
            variant: DEFAULT_VARIANT,
            encoding: Encoding::default(),
        };
        // The rules switches are options of every engine; the session test checks that the
        // default variant is in force.
        let _ = s.set_variant(DEFAULT_VARIANT);
        s
    }

    /// The engine, to inspect its game and settings between lines.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Where the replies go.
    pub(super) fn out(&self) -> &Output {
        &self.out
    }

    /// Handles one input line (with or without its line end). Bytes that are not UTF-8 are
    /// replaced, never a panic.
    pub fn handle_line(&mut self, line: &[u8]) -> Flow {
        let result = command::parse(&String::from_utf8_lossy(line))
            .map_err(HubError::from)
            .and_then(|cmd| match cmd {
                None => Ok(Flow::Continue),
                Some(cmd) => self.execute(cmd),
            });
        result.unwrap_or_else(|e| {
            self.out.line(&error_line(&e));
            Flow::Continue
        })
    }

    /// Ends the session as end of input does: a running search is stopped (the GUI is gone,
    /// so the engine quits as directly as it can); returns once its `done` has been written.
    pub fn finish(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// Waits until a running search has written its `done` (for tests that need the search
    /// over before the next line, as a GUI waits for `done`).
    pub fn wait(&mut self) {
        self.engine.wait();
    }

    /// Executes a parsed command.
    pub fn execute(&mut self, cmd: Command) -> Result<Flow, HubError> {
        match cmd {
            Command::Ping => {
                // As `isready` does: a search that has answered is joined first (never one that
                // runs), so a GUI that synchronises with ping finds the engine idle, its
                // searcher at home, before the next search starts.
                self.engine.is_searching();
                self.out.line("pong");
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.finish();
                return Ok(Flow::Quit);
            }
            Command::Unknown => {}
            _ if self.engine.is_searching() => return Err(HubError::Busy),
            Command::Hub => self.out.lines(&hub_lines(
                &crate::engine::option_table(),
                self.variant,
                self.encoding,
            )),
            Command::Init => {
                self.engine.prepare();
                self.out.line("ready");
            }
            Command::SetParam { name, value } => self.set_param(&name, &value)?,
            Command::NewGame => self.engine.new_game(),
            Command::Pos { pos, moves } => {
                self.set_pos(pos.as_deref(), &moves)?;
                // As in Scan, a position starts a new search set-up: its level comes after it.
                self.level = Level::default();
            }
            Command::Level(level) => self.level.merge(level),
            Command::Go(mode) => self.go(mode)?,
        }
        Ok(Flow::Continue)
    }

    /// How this session's positions and moves are written: its `pos-encoding` under the rule
    /// set in force (the rules switches, still accepted by name, may have changed it since
    /// `variant` was set).
    fn numbering(&self) -> Numbering {
        Numbering::new(self.encoding, Variant::of_rules(self.engine.game().rules()))
    }

    fn set_variant(&mut self, variant: Variant) -> Result<(), HubError> {
        // Every rule set the Hub offers is a value of the `Variant` option (the rules table
        // makes it so). A rules change may send the current game back to its start position;
        // the GUI sends `pos` before every search, so the notice is not worth a line.
        self.engine
            .set_option(option::VARIANT, Some(variant.key()))?;
        self.variant = variant;
        Ok(())
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        fn choice<T: Choice>(name: &'static str, value: &str) -> Result<T, HubError> {
            T::from_word(value).ok_or_else(|| HubError::Enum {
                name,
                value: crate::protocol::command::shown(value),
                expected: T::words().join(" "),
            })
        }
        if name.eq_ignore_ascii_case("variant") {
            self.set_variant(choice("variant", value)?)
        } else if name.eq_ignore_ascii_case("pos-encoding") {
            self.encoding = choice("pos-encoding", value)?;
            Ok(())
        } else if name.eq_ignore_ascii_case(INITIAL_TIME) {
            // lidraughts-bot sends the game's starting clock to every Hub engine. The clock
            // that counts comes with each `level`, so a number is taken and not kept.
            match value.trim().parse::<f64>() {
                Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => Ok(()),
                _ => Err(HubError::Number {
                    name: INITIAL_TIME,
                    value: crate::protocol::command::shown(value),
                }),
            }
        } else {
            self.engine.set_option(name, Some(value))?;
            Ok(())
        }
    }

    /// Sets the game to the decoded position followed by the moves, all checked first.
    ///
    /// The GUI is the arbiter of the game's end: when the engine's no-progress rule would
    /// already have drawn the game (pydraughts counts only king moves, and repetitions), the
    /// game is set up again from the position reached, with the clock at 0, so that the engine
    /// still answers with a move.
    fn set_pos(&mut self, pos: Option<&str>, moves: &[String]) -> Result<(), HubError> {
        let numbering = self.numbering();
        let rules = *self.engine.game().rules();
        let start = match pos {
            None => Position::start(&rules),
            Some(text) => numbering.parse_pos(text)?,
        };
        let mut game = Game::new(start, 0, rules);
        let mut played: Vec<String> = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            if game.result() == GameResult::Draw {
                game = Game::new(*game.position(), 0, rules);
                played.clear();
            }
            let mut legal = MoveList::new();
            generate_moves(game.position(), &rules, &mut legal);
            let mv = numbering
                .parse_move(text, &legal)
                .map_err(|source| HubError::Move {
                    number: i + 1,
                    source,
                })?;
            game.play(mv);
            played.push(mv.to_string());
        }
        if game.result() == GameResult::Draw {
            game = Game::new(*game.position(), 0, rules);
            played.clear();
        }
        let start = StartPosition::Fen(fen::write(game.start()));
        self.engine.set_position(&start, &played)?;
        Ok(())
    }

    fn go(&mut self, mode: GoMode) -> Result<(), HubError> {
        let level = &self.level;
        let mut limits = Limits {
            nodes: level.nodes,
            movetime: level.move_time,
            infinite: level.infinite,
            ponder: mode == GoMode::Ponder,
            movestogo: level.moves.filter(|&m| m > 0),
            ..Limits::default()
        };
        if let Some(time) = level.time {
            // Hub adds the increment before the move, UCI after it: the clock now holds
            // both, and the increment still comes after every later move.
            let inc = level.inc.unwrap_or_default();
            let clock = Some(time.saturating_add(inc));
            (limits.wtime, limits.btime) = (clock, clock);
            (limits.winc, limits.binc) = (level.inc, level.inc);
        }
        let events = self.out.clone();
        let answer = self.out.clone();
        let numbering = self.numbering();
        self.engine.go(
            GoRequest {
                limits,
                searchmoves: Vec::new(),
            },
            Box::new(move |ev| match ev {
                // Hub has one line of search information; a note is no Hub reply, except
                // the search's own error report.
                SearchEvent::Info(info) if info.multipv == 1 => {
                    events.line(&info_line(&info, numbering))
                }
                SearchEvent::Book { mv, score, .. } => {
                    events.line(&book_line(mv, score, numbering))
                }
                SearchEvent::Message(text) => {
                    if let Some(e) = text.strip_prefix("error: ") {
                        events.line(&error_line(&e));
                    }
                }
                _ => {}
            }),
            Box::new(move |outcome| answer.line(&done_line(&outcome, numbering))),
        )?;
        // As in Scan, a level applies to one search.
        self.level = Level::default();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;

    fn session() -> (Session, crate::protocol::output::Captured) {
        let (out, captured) = Output::memory();
        (Session::new(out), captured)
    }

    #[test]
    fn default_variant_is_english_and_params_switch_it() {
        let (mut s, out) = session();
        let rules = |s: &Session| *s.engine().game().rules();
        assert_eq!(rules(&s), Rules::ENGLISH);
        s.handle_line(b"set-param name=variant value=buffgreen");
        assert_eq!(rules(&s), Rules::BUFF_AND_GREEN);
        s.handle_line(b"set-param name=Variant value=ENGLISH");
        assert_eq!(rules(&s), Rules::ENGLISH);
        s.handle_line(b"set-param name=variant value=international");
        assert_eq!(rules(&s), Rules::ENGLISH);
        assert_eq!(
            out.take_lines(),
            ["error message=\"parameter variant: bad value 'international': expected one of english buffgreen russian brazilian\""]
        );
    }

    #[test]
    fn draw_by_the_engines_clock_restarts_from_the_position_reached() {
        let (mut s, out) = session();
        s.handle_line(b"set-param name=DrawHalfMoves value=2");
        // Kings only (no capture, no crowning): after two half-moves the engine's rule draws.
        s.handle_line(b"pos pos=WWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB moves=\"32-28 1-5 28-32\"");
        assert!(out.take_lines().is_empty());
        let g = s.engine().game();
        assert_eq!(g.moves().count(), 1);
        assert_eq!(g.result(), GameResult::Ongoing);
    }

    #[test]
    fn lidraughts_bots_initial_time_is_taken_quietly() {
        let (mut s, out) = session();
        s.handle_line(b"set-param name=initial-time value=180");
        s.handle_line(b"set-param name=initial-time value=0.5");
        assert!(out.take_lines().is_empty());
        s.handle_line(b"set-param name=initial-time value=soon");
        assert_eq!(
            out.take_lines(),
            ["error message=\"parameter initial-time: bad value 'soon': expected a number of seconds\""]
        );
    }

    #[test]
    fn russian_and_brazilian_games_in_pydraughts_notation() {
        for (word, variant) in [
            ("russian", Variant::Russian),
            ("brazilian", Variant::Brazilian),
        ] {
            let (mut s, out) = session();
            s.handle_line(format!("set-param name=variant value={word}").as_bytes());
            assert_eq!(*s.engine().game().rules(), variant.rules());
            // pydraughts' start position and moves: White's 9-13 is buffgreen's 21-17, Black's
            // 21-18 buffgreen's 9-14.
            s.handle_line(b"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13 21-18\"");
            let g = s.engine().game();
            assert_eq!(*g.start(), Position::start(&variant.rules()));
            let played: Vec<String> = g.moves().map(|m| m.to_string()).collect();
            assert_eq!(played, ["21-17", "9-14"]);
            // Without `pos=` the start position is the variant's: White to move.
            s.handle_line(b"pos moves=\"9-13\"");
            assert_eq!(
                s.engine().game().position().side_to_move(),
                crate::types::Color::Black
            );
            s.handle_line(b"pos moves=\"21-17\"");
            assert_eq!(
                out.take_lines(),
                [
                    "error message=\"move 1: illegal move '21-17'; legal moves: \
                  9-13 10-13 10-14 11-14 11-15 12-15 12-16\""
                ]
            );
            s.handle_line(b"pos");
            s.handle_line(b"level nodes=50");
            s.handle_line(b"go think");
            s.wait();
            let lines = out.take_lines();
            let done = lines.last().and_then(|l| l.strip_prefix("done move="));
            let best = done.map(|d| d.split(' ').next().unwrap_or_default());
            let legal = ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"];
            assert!(best.is_some_and(|b| legal.contains(&b)), "{lines:?}");
            // A rules switch set by name makes a Buff and Green rule set, written as English.
            s.handle_line(b"set-param name=LongKings value=false");
            s.handle_line(b"pos moves=\"9-14\"");
            assert!(out.take_lines().is_empty());
            let played: Vec<String> = s.engine().game().moves().map(|m| m.to_string()).collect();
            assert_eq!(played, ["9-14"]);
        }
    }
}
