//! Parsing one Hub input line into a typed [`Command`].
//!
//! Every Hub line is `<command> <arg>=<value> <arg>=<value> ...`; a value is a run of
//! non-blank characters or a double-quoted string (required when it holds a blank or `=`, or
//! is empty); an argument without `=value` is a flag. As the Hub specification asks, unknown
//! commands and unknown arguments are ignored, so a GUI may extend the protocol; a known
//! argument with a value that makes no sense is refused with an error instead.

use std::time::Duration;

use thiserror::Error;

use crate::protocol::command::shown;

/// Longest time a `level` may give, in seconds: far beyond any game, small enough to stay a
/// valid duration whatever the search adds to it.
const MAX_SECONDS: f64 = 1e9;

/// One argument of a line: `name`, or `name=value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The name (before `=`).
    pub name: String,
    /// The value, unquoted; `None` for a flag.
    pub value: Option<String>,
}

/// The search limits of `level`, as given (seconds, not yet turned into a clock).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    /// `nodes=<n>`: iteration budget.
    pub nodes: Option<u64>,
    /// `move-time=<s>`: time for this move.
    pub move_time: Option<Duration>,
    /// `moves=<n>`: moves to the next time control (0: the rest of the game).
    pub moves: Option<u32>,
    /// `time=<s>`: the engine's remaining time, before this move's increment is added.
    pub time: Option<Duration>,
    /// `inc=<s>`: increment per move, added before every move.
    pub inc: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

impl Level {
    /// Overwrites the limits `other` gives and keeps the rest: several `level` lines before a
    /// `go` add up, as in Scan.
    pub fn merge(&mut self, other: Level) {
        self.nodes = other.nodes.or(self.nodes);
        self.move_time = other.move_time.or(self.move_time);
        self.moves = other.moves.or(self.moves);
        self.time = other.time.or(self.time);
        self.inc = other.inc.or(self.inc);
        self.infinite |= other.infinite;
    }
}

/// What `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// `go think` (also a bare `go`): find a move to play.
    Think,
    /// `go ponder`: search the position after the expected reply until `ponder-hit` or `stop`.
    Ponder,
    /// `go analyze`: a search for its information; treated as `think` with the same level.
    Analyze,
}

/// One Hub command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `hub`: identify, list the parameters, `wait`.
    Hub,
    /// `init`: set up, answer `ready`.
    Init,
    /// `set-param name=<N> value=<V>`.
    SetParam {
        /// The parameter name (matched case-insensitively).
        name: String,
        /// Its new value.
        value: String,
    },
    /// `new-game`: the next search is unrelated to the previous ones.
    NewGame,
    /// `pos [pos=<position>|start] [moves="<m1> <m2> ..."]`.
    Pos {
        /// The encoded position; `None` for the start position.
        pos: Option<String>,
        /// The moves played from there, in Hub notation.
        moves: Vec<String>,
    },
    /// `level ...`: limits for the next search.
    Level(Level),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ponder-hit`.
    PonderHit,
    /// `stop`.
    Stop,
    /// `ping`: answer `pong`.
    Ping,
    /// `quit`.
    Quit,
    /// A command this engine does not know: ignored, as the specification asks.
    Unknown,
}

/// Why a line is not a valid Hub command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    /// A double quote opens a value that never closes.
    #[error("unterminated quoted value for '{0}'")]
    Unterminated(String),
    /// `=value` without a name before it.
    #[error("an argument has no name before '='")]
    NoName,
    /// A required argument is missing.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is required.
        what: &'static str,
    },
    /// A value that is not acceptable.
    #[error("{command}: bad value '{text}' for {arg}: expected {expected}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The argument.
        arg: &'static str,
        /// What was given (shortened).
        text: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// `level depth=...`: a tree search has no fixed depth to stop at.
    #[error(
        "level: depth limits are not supported (the search has no fixed depth); \
         use nodes, move-time or time"
    )]
    Depth,
}

/// Splits a line into its command word and arguments; `Ok(None)` for a blank line.
pub fn tokenize(line: &str) -> Result<Option<(String, Vec<Arg>)>, CommandError> {
    let mut rest = line.trim_start();
    if rest.is_empty() {
        return Ok(None);
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let command = rest[..end].to_string();
    rest = rest[end..].trim_start();
    let mut args = Vec::new();
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = rest[..end].to_string();
        rest = &rest[end..];
        if name.is_empty() {
            return Err(CommandError::NoName);
        }
        let value = match rest.strip_prefix('=') {
            None => None,
            Some(after) => {
                if let Some(quoted) = after.strip_prefix('"') {
                    let close = quoted
                        .find('"')
                        .ok_or_else(|| CommandError::Unterminated(shown(&name)))?;
                    rest = &quoted[close + 1..];
                    Some(quoted[..close].to_string())
                } else {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    rest = &after[end..];
                    Some(after[..end].to_string())
                }
            }
        };
        args.push(Arg { name, value });
        rest = rest.trim_start();
    }
    Ok(Some((command, args)))
}

/// Parses one line. Blank lines give `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let Some((command, args)) = tokenize(line)? else {
        return Ok(None);
    };
    let cmd = match command.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "ping" => Command::Ping,
        "quit" => Command::Quit,
        "set-param" => set_param(&args)?,
        "pos" => pos(&args),
        "level" => Command::Level(level(&args)?),
        "go" => go(&args),
        _ => Command::Unknown,
    };
    Ok(Some(cmd))
}

/// The value of the last argument called `name` (later arguments override earlier ones).
fn value<'a>(args: &'a [Arg], name: &str) -> Option<&'a str> {
    args.iter()
        .rev()
        .find(|a| a.name == name)
        .map(|a| a.value.as_deref().unwrap_or(""))
}

fn has_flag(args: &[Arg], name: &str) -> bool {
    args.iter().any(|a| a.name == name)
}

fn set_param(args: &[Arg]) -> Result<Command, CommandError> {
    let missing = |what| CommandError::Missing {
        command: "set-param",
        what,
    };
    let name = value(args, "name").filter(|n| !n.is_empty());
    let name = name.ok_or(missing("name=<parameter>"))?;
    let value = value(args, "value").ok_or(missing("value=<value>"))?;
    Ok(Command::SetParam {
        name: name.to_string(),
        value: value.to_string(),
    })
}

fn pos(args: &[Arg]) -> Command {
    // `start` and a missing `pos=` both mean the start position, as in Scan; the last of
    // `start` and `pos=` given wins.
    let pos = args
        .iter()
        .rev()
        .find(|a| a.name == "pos" || a.name == "start")
        .and_then(|a| (a.name == "pos").then(|| a.value.clone().unwrap_or_default()));
    let moves = value(args, "moves")
        .map(|m| m.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    Command::Pos { pos, moves }
}

/// Seconds as a real number; a negative time counts as 0 (a clock that just ran out).
fn seconds(arg: &'static str, text: &str) -> Result<Duration, CommandError> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s <= MAX_SECONDS => Ok(Duration::from_secs_f64(s.max(0.0))),
        _ => Err(CommandError::BadValue {
            command: "level",
            arg,
            text: shown(text),
            expected: "a number of seconds up to 1000000000",
        }),
    }
}

fn level(args: &[Arg]) -> Result<Level, CommandError> {
    if value(args, "depth").is_some() {
        return Err(CommandError::Depth);
    }
    let mut level = Level {
        infinite: has_flag(args, "infinite"),
        ..Level::default()
    };
    if let Some(t) = value(args, "nodes") {
        level.nodes = Some(match t.parse::<u64>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(CommandError::BadValue {
                    command: "level",
                    arg: "nodes",
                    text: shown(t),
                    expected: "an integer from 1 to 18446744073709551615",
                })
            }
        });
    }
    if let Some(t) = value(args, "moves") {
        level.moves = Some(t.parse::<u32>().map_err(|_| CommandError::BadValue {
            command: "level",
            arg: "moves",
            text: shown(t),
            expected: "an integer from 0 to 4294967295",
        })?);
    }
    if let Some(t) = value(args, "move-time") {
        level.move_time = Some(seconds("move-time", t)?);
    }
    if let Some(t) = value(args, "time") {
        level.time = Some(seconds("time", t)?);
    }
    if let Some(t) = value(args, "inc") {
        level.inc = Some(seconds("inc", t)?);
    }
    Ok(level)
}

fn go(args: &[Arg]) -> Command {
    // Scan reads the flags in any order; ponder and analyze outrank think.
    Command::Go(if has_flag(args, "ponder") {
        GoMode::Ponder
    } else if has_flag(args, "analyze") {
        GoMode::Analyze
    } else {
        GoMode::Think
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: &str, value: Option<&str>) -> Arg {
        Arg {
            name: name.into(),
            value: value.map(String::from),
        }
    }

    /// Each line is refused with its message.
    fn assert_errors(cases: &[(&str, &str)]) {
        for (line, message) in cases {
            assert_eq!(parse(line).unwrap_err().to_string(), *message, "{line:?}");
        }
    }

    #[test]
    fn tokens_with_quotes_flags_and_blanks() {
        let (cmd, args) =
            tokenize("  id name=Scan author=\"Fabien  Letouzey\" flag x=\"\" y=a=b\t")
                .unwrap()
                .unwrap();
        assert_eq!(cmd, "id");
        assert_eq!(
            args,
            [
                arg("name", Some("Scan")),
                arg("author", Some("Fabien  Letouzey")),
                arg("flag", None),
                arg("x", Some("")),
                arg("y", Some("a=b")),
            ]
        );
        assert_eq!(tokenize(" \t\r"), Ok(None));
        assert_eq!(
            tokenize("pos moves=\"11-15 23-19"),
            Err(CommandError::Unterminated("moves".into()))
        );
        assert_eq!(tokenize("pos =x"), Err(CommandError::NoName));
    }

    #[test]
    fn commands() {
        assert_eq!(parse("hub"), Ok(Some(Command::Hub)));
        assert_eq!(parse("go"), Ok(Some(Command::Go(GoMode::Think))));
        assert_eq!(
            parse("go think ponder"),
            Ok(Some(Command::Go(GoMode::Ponder)))
        );
        assert_eq!(parse("flip board=1"), Ok(Some(Command::Unknown)));
        assert_eq!(
            parse("pos pos=Wbbb moves=\"11-15  23-19\" extra=1"),
            Ok(Some(Command::Pos {
                pos: Some("Wbbb".into()),
                moves: vec!["11-15".into(), "23-19".into()],
            }))
        );
        assert_eq!(
            parse("pos pos=Wbbb start"),
            Ok(Some(Command::Pos {
                pos: None,
                moves: vec![],
            }))
        );
        assert_eq!(
            parse("set-param name=variant value=english"),
            Ok(Some(Command::SetParam {
                name: "variant".into(),
                value: "english".into(),
            }))
        );
        // As pydraughts sends it for lidraughts' Russian and Brazilian games.
        for word in ["russian", "brazilian"] {
            assert_eq!(
                parse(&format!("set-param name=variant value={word}")),
                Ok(Some(Command::SetParam {
                    name: "variant".into(),
                    value: word.into(),
                }))
            );
        }
        assert_errors(&[
            ("set-param value=1", "set-param: missing name=<parameter>"),
            ("set-param name=Hash", "set-param: missing value=<value>"),
        ]);
    }

    #[test]
    fn levels() {
        let Ok(Some(Command::Level(l))) = parse("level moves=0 time=-0.5 inc=0.25 nodes=9") else {
            panic!("level");
        };
        assert_eq!(l.moves, Some(0));
        assert_eq!(l.time, Some(Duration::ZERO));
        assert_eq!(l.inc, Some(Duration::from_millis(250)));
        assert_eq!(l.nodes, Some(9));
        let mut merged = Level {
            move_time: Some(Duration::from_secs(1)),
            ..Level::default()
        };
        merged.merge(l);
        assert_eq!(merged.move_time, Some(Duration::from_secs(1)));
        assert_eq!(merged.nodes, Some(9));
        assert_errors(&[
            ("level move-time=abc", "level: bad value 'abc' for move-time: expected a number of seconds up to 1000000000"),
            ("level time=inf", "level: bad value 'inf' for time: expected a number of seconds up to 1000000000"),
            ("level nodes=0", "level: bad value '0' for nodes: expected an integer from 1 to 18446744073709551615"),
        ]);
        assert_eq!(parse("level depth=5"), Err(CommandError::Depth));
    }
}
