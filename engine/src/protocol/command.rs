//! Parsing one input line into a typed [`Command`].
//!
//! Tokens are separated by any run of whitespace; command names and keywords are
//! case-sensitive. Parsing is strict: an unknown token anywhere refuses the whole line, unlike
//! chess UCI, which skips unknown tokens (a GUI must learn of a typo, not get half a command).
//! Only the syntax is checked here; whether a FEN, move or option value makes sense is the
//! engine's business.

use std::time::Duration;

use thiserror::Error;

use crate::engine::{GoRequest, StartPosition};
use crate::search::Limits;

/// Deepest `go perft` accepted: far beyond what finishes in reasonable time, small enough to
/// keep the perft buffers tiny.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Most characters of an offending token repeated in an error message.
const SHOWN_CHARS: usize = 40;

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <N> [value <V>]`.
    SetOption {
        /// The option name (matched case-insensitively later).
        name: String,
        /// The value, if `value` was given.
        value: Option<String>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <FEN> [moves ...]`.
    Position {
        /// Where the game starts.
        start: StartPosition,
        /// The moves played from there.
        moves: Vec<String>,
    },
    /// `go ...` (a search).
    Go(GoRequest),
    /// `go perft <depth>`.
    Perft {
        /// Plies to count.
        depth: u32,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board and game state.
    Display,
    /// `bench [<nodes>]`: the bench workload under the current settings.
    Bench {
        /// Iterations per position (default: the bench default).
        nodes: Option<u64>,
    },
    /// `eval`: the static evaluation of the current position, term by term.
    Eval,
    /// `debug on|off`: extra `info string debug:` diagnostics.
    Debug(bool),
}

/// Why a line is not a valid command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A token that does not belong where it stands.
    #[error("{command}: unexpected '{token}'")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The token (shortened).
        token: String,
    },
    /// The line ended where something was required.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What was required.
        what: &'static str,
    },
    /// A number or keyword argument that is not acceptable.
    #[error("{command}: bad value '{text}' for {what}: expected {expected}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The parameter.
        what: &'static str,
        /// What was given (shortened).
        text: String,
        /// What is accepted.
        expected: String,
    },
    /// A parameter given twice.
    #[error("{command}: '{what}' given twice")]
    Twice {
        /// The command.
        command: &'static str,
        /// The parameter.
        what: &'static str,
    },
}

/// Parses one line. Empty and whitespace-only lines give `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&name, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let bare = |command: &'static str, cmd: Command| match args.first() {
        None => Ok(cmd),
        Some(t) => Err(unexpected(command, t)),
    };
    let cmd = match name {
        "uci" => bare("uci", Command::Uci)?,
        "isready" => bare("isready", Command::IsReady)?,
        "ucinewgame" => bare("ucinewgame", Command::UciNewGame)?,
        "stop" => bare("stop", Command::Stop)?,
        "ponderhit" => bare("ponderhit", Command::PonderHit)?,
        "quit" => bare("quit", Command::Quit)?,
        "d" => bare("d", Command::Display)?,
        "eval" => bare("eval", Command::Eval)?,
        "debug" => debug(args)?,
        "setoption" => setoption(line, args)?,
        "position" => position(args)?,
        "go" => go(args)?,
        "bench" => bench(args)?,
        _ => return Err(CommandError::Unknown(shown(name))),
    };
    Ok(Some(cmd))
}

/// A token as repeated in an error: control characters replaced, long tokens cut.
pub fn shown(token: &str) -> String {
    let mut s: String = token
        .chars()
        .take(SHOWN_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if token.chars().nth(SHOWN_CHARS).is_some() {
        s.push_str("...");
    }
    s
}

fn unexpected(command: &'static str, token: &str) -> CommandError {
    CommandError::Unexpected {
        command,
        token: shown(token),
    }
}

/// `setoption`: `args` are the tokens of `line` after the command. The name is its tokens
/// joined by single spaces; the value is the rest of `line` after `value` and the one blank
/// that follows it, whitespace kept (a path may hold runs of spaces).
fn setoption(line: &str, args: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    match args.first() {
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'name'",
            })
        }
        Some(&"name") => {}
        Some(t) => return Err(unexpected(CMD, t)),
    }
    let rest = &args[1..];
    let (name, value) = match rest.iter().position(|t| *t == "value") {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::Missing {
            command: CMD,
            what: "an option name after 'name'",
        });
    }
    let value = match value {
        Some([]) => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "a value after 'value'",
            })
        }
        Some(_) => {
            // The tokens are slices of `line`: the value starts one blank after the keyword.
            let keyword = rest[name.len()];
            let end = keyword.as_ptr() as usize - line.as_ptr() as usize + keyword.len();
            let mut after = line[end..].chars();
            after.next();
            Some(after.as_str().to_string())
        }
        None => None,
    };
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn position(args: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let (start, rest) = match args.split_first() {
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'startpos' or 'fen'",
            })
        }
        Some((&"startpos", rest)) => (StartPosition::StartPos, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "a FEN after 'fen'",
                });
            }
            // The FEN grammar allows whitespace only where any amount is equivalent, so
            // joining its tokens with single spaces keeps its meaning.
            (StartPosition::Fen(rest[..end].join(" ")), &rest[end..])
        }
        Some((t, _)) => return Err(unexpected(CMD, t)),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((t, _)) => return Err(unexpected(CMD, t)),
    };
    Ok(Command::Position { start, moves })
}

/// Parses a `go` parameter value as milliseconds. Negative values mean 0: some GUIs send a
/// slightly negative clock once time has run out.
fn millis(what: &'static str, text: &str) -> Result<Duration, CommandError> {
    match text.parse::<i64>() {
        Ok(n) => Ok(Duration::from_millis(n.max(0).unsigned_abs())),
        Err(_) => Err(CommandError::BadValue {
            command: "go",
            what,
            text: shown(text),
            expected: format!("an integer number of milliseconds up to {}", i64::MAX),
        }),
    }
}

/// Parses an integer argument in `min..=max`.
fn integer(
    command: &'static str,
    what: &'static str,
    text: &str,
    min: u64,
    max: u64,
) -> Result<u64, CommandError> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(CommandError::BadValue {
            command,
            what,
            text: shown(text),
            expected: format!("an integer from {min} to {max}"),
        }),
    }
}

/// The keywords `go` accepts, each introducing its argument (or standing alone).
pub const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
    "depth",
    "mate",
    "perft",
];

fn go(args: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "go";
    if args.first() == Some(&"perft") {
        let depth = match args.get(1) {
            None => {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "a depth after 'perft'",
                })
            }
            Some(t) => integer(CMD, "perft", t, 1, MAX_PERFT_DEPTH.into())?,
        };
        if let Some(t) = args.get(2) {
            return Err(unexpected(CMD, t));
        }
        // In range by the check above.
        let depth = u32::try_from(depth).unwrap_or(MAX_PERFT_DEPTH);
        return Ok(Command::Perft { depth });
    }
    let mut limits = Limits::default();
    let mut searchmoves: Option<Vec<String>> = None;
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let Some(&key) = GO_KEYWORDS.iter().find(|k| **k == key) else {
            return Err(unexpected(CMD, key));
        };
        if key == "perft" {
            // `perft` only stands alone, right after `go`.
            return Err(unexpected(CMD, key));
        }
        if seen.contains(&key) {
            return Err(CommandError::Twice {
                command: CMD,
                what: key,
            });
        }
        seen.push(key);
        i += 1;
        match key {
            "infinite" => {
                limits.infinite = true;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                continue;
            }
            "searchmoves" => {
                let end = args[i..]
                    .iter()
                    .position(|t| GO_KEYWORDS.contains(t))
                    .map_or(args.len(), |n| i + n);
                if end == i {
                    return Err(CommandError::Missing {
                        command: CMD,
                        what: "at least one move after 'searchmoves'",
                    });
                }
                searchmoves = Some(args[i..end].iter().map(|m| m.to_string()).collect());
                i = end;
                continue;
            }
            _ => {}
        }
        let Some(value) = args.get(i) else {
            return Err(CommandError::Missing {
                command: CMD,
                what: match key {
                    "wtime" => "a value after 'wtime'",
                    "btime" => "a value after 'btime'",
                    "winc" => "a value after 'winc'",
                    "binc" => "a value after 'binc'",
                    "movestogo" => "a value after 'movestogo'",
                    "movetime" => "a value after 'movetime'",
                    "depth" => "a value after 'depth'",
                    "mate" => "a value after 'mate'",
                    _ => "a value after 'nodes'",
                },
            });
        };
        i += 1;
        match key {
            "wtime" => limits.wtime = Some(millis(key, value)?),
            "btime" => limits.btime = Some(millis(key, value)?),
            "winc" => limits.winc = Some(millis(key, value)?),
            "binc" => limits.binc = Some(millis(key, value)?),
            "movetime" => limits.movetime = Some(millis(key, value)?),
            "movestogo" | "depth" | "mate" => {
                let n = integer(CMD, key, value, 1, u32::MAX.into())?;
                let n = Some(u32::try_from(n).unwrap_or(u32::MAX));
                match key {
                    "movestogo" => limits.movestogo = n,
                    "depth" => limits.depth = n,
                    _ => limits.mate = n,
                }
            }
            _ => limits.nodes = Some(integer(CMD, key, value, 1, u64::MAX)?),
        }
    }
    Ok(Command::Go(GoRequest {
        limits,
        searchmoves: searchmoves.unwrap_or_default(),
    }))
}

fn debug(args: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "debug";
    let on = match args.first() {
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'on' or 'off'",
            })
        }
        Some(&"on") => true,
        Some(&"off") => false,
        Some(t) => return Err(unexpected(CMD, t)),
    };
    match args.get(1) {
        None => Ok(Command::Debug(on)),
        Some(t) => Err(unexpected(CMD, t)),
    }
}

fn bench(args: &[&str]) -> Result<Command, CommandError> {
    let nodes = match args.first() {
        None => None,
        Some(t) => Some(integer("bench", "nodes", t, 1, u64::MAX)?),
    };
    if let Some(t) = args.get(1) {
        return Err(unexpected("bench", t));
    }
    Ok(Command::Bench { nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    /// Each line is refused with its message.
    fn assert_errors(cases: &[(&str, &str)]) {
        for (line, message) in cases {
            assert_eq!(err(line), *message, "{line:?}");
        }
    }

    fn go_limits(line: &str) -> GoRequest {
        match parse(line) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse(" \t \r"), Ok(None));
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse("  isready  \r"), Ok(Some(Command::IsReady)));
        assert_eq!(parse("d"), Ok(Some(Command::Display)));
        assert_eq!(parse("eval"), Ok(Some(Command::Eval)));
        assert_eq!(parse("debug on"), Ok(Some(Command::Debug(true))));
        assert_eq!(parse("debug  off"), Ok(Some(Command::Debug(false))));
        assert_errors(&[
            ("debug", "debug: missing 'on' or 'off'"),
            ("debug yes", "debug: unexpected 'yes'"),
            ("debug on off", "debug: unexpected 'off'"),
            ("eval now", "eval: unexpected 'now'"),
            ("quit now", "quit: unexpected 'now'"),
            ("UCI", "unknown command 'UCI'"),
        ]);
    }

    #[test]
    fn setoption_grammar() {
        assert_eq!(
            parse("setoption  name Hash   value 32"),
            Ok(Some(Command::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert_errors(&[
            ("setoption", "setoption: missing 'name'"),
            ("setoption Hash 3", "setoption: unexpected 'Hash'"),
            (
                "setoption name value 3",
                "setoption: missing an option name after 'name'",
            ),
            (
                "setoption name Hash value",
                "setoption: missing a value after 'value'",
            ),
        ]);
        // Issue 40 item 8: the value is the rest of the line after `value` and one blank,
        // whitespace kept, the line end stripped.
        for (line, value) in [
            (
                "setoption name TablebasePath value /t/my  tables\n",
                "/t/my  tables",
            ),
            (
                "setoption name TablebasePath value  lead\tand trail \r\n",
                " lead\tand trail ",
            ),
            ("setoption name X value\tv", "v"),
        ] {
            let Ok(Some(Command::SetOption { value: Some(v), .. })) = parse(line) else {
                panic!("{line:?}");
            };
            assert_eq!(v, value, "{line:?}");
        }
    }

    #[test]
    fn position_grammar() {
        assert_eq!(
            parse("position fen [FEN  \"B:W21-32:B1-12\"] moves 11-15 22-18"),
            Ok(Some(Command::Position {
                start: StartPosition::Fen("[FEN \"B:W21-32:B1-12\"]".into()),
                moves: vec!["11-15".into(), "22-18".into()]
            }))
        );
        assert_eq!(
            parse("position startpos moves"),
            Ok(Some(Command::Position {
                start: StartPosition::StartPos,
                moves: vec![]
            }))
        );
        assert_errors(&[
            ("position", "position: missing 'startpos' or 'fen'"),
            ("position fen", "position: missing a FEN after 'fen'"),
            (
                "position fen moves 1-5",
                "position: missing a FEN after 'fen'",
            ),
            ("position startpos 11-15", "position: unexpected '11-15'"),
            ("position start", "position: unexpected 'start'"),
        ]);
    }

    #[test]
    fn go_parameters() {
        let g = go_limits("go wtime 1000 btime -5 winc 10 binc 0 movestogo 20");
        assert_eq!(g.limits.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(g.limits.btime, Some(Duration::ZERO));
        assert_eq!(g.limits.winc, Some(Duration::from_millis(10)));
        assert_eq!(g.limits.movestogo, Some(20));
        let g = go_limits("go searchmoves 11-15 9x18 nodes 7 ponder");
        assert_eq!(g.searchmoves, ["11-15", "9x18"]);
        assert_eq!(g.limits.nodes, Some(7));
        assert!(g.limits.ponder && !g.limits.infinite);
        assert_eq!(go_limits("go"), GoRequest::default());
        let g = go_limits("go depth 12 mate 3");
        assert_eq!((g.limits.depth, g.limits.mate), (Some(12), Some(3)));
        assert_eq!(parse("go perft 3"), Ok(Some(Command::Perft { depth: 3 })));
    }

    #[test]
    fn go_errors() {
        assert_errors(&[
            ("go movetime", "go: missing a value after 'movetime'"),
            ("go nodes 0", "go: bad value '0' for nodes: expected an integer from 1 to 18446744073709551615"),
            ("go movetime 1e3", "go: bad value '1e3' for movetime: expected an integer number of milliseconds up to 9223372036854775807"),
            ("go infinite infinite", "go: 'infinite' given twice"),
            ("go depth 0", "go: bad value '0' for depth: expected an integer from 1 to 4294967295"),
            ("go mate", "go: missing a value after 'mate'"),
            ("go mate 2 mate 3", "go: 'mate' given twice"),
            ("go nodes 5 perft 2", "go: unexpected 'perft'"),
            ("go perft 2 nodes 5", "go: unexpected 'nodes'"),
            ("go perft 0", "go: bad value '0' for perft: expected an integer from 1 to 30"),
            ("go searchmoves", "go: missing at least one move after 'searchmoves'"),
        ]);
    }

    #[test]
    fn shown_tokens_are_short_and_printable() {
        assert_eq!(shown("a\u{7}b"), "a?b");
        let long = "x".repeat(100);
        assert_eq!(shown(&long), format!("{}...", "x".repeat(40)));
    }
}
