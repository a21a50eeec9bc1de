//! The engine's options: the rules options, `Ponder`, and the search's parameter table (see
//! [`crate::search::params`]), and how a `setoption` value maps onto them.
//!
//! Names are matched case-insensitively; values are checked against the table before anything
//! changes, so a refused value leaves every setting as it was.

use thiserror::Error;

use crate::board::{Notation, Rules};
use crate::search::{OptionKind, OptionValue, SearchConfig};
use crate::tablebase::material::MAX_PIECES;

/// Every setting an option can change besides the rules (which belong to the game): the
/// search configuration plus what only the engine itself uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// What the search is configured with.
    pub config: SearchConfig,
    /// The `Ponder` option: tells the engine the GUI may send `go ponder`. The engine accepts
    /// `go ponder` either way; the option exists so GUIs can show and set it.
    pub ponder: bool,
    /// How moves are written in replies (option `Notation`).
    pub notation: Notation,
    /// The `TablebasePath` option: the directory of the endgame tables (empty: none).
    pub tablebase_path: String,
    /// The `TablebasePieces` option: positions of at most this many pieces are probed
    /// (0: none; above what the tables hold: all they hold).
    pub tablebase_pieces: u32,
    /// The `OwnBook` option: play book moves (see [`crate::book`]).
    pub own_book: bool,
    /// The `BookFile` option: the book file to play (empty: the built-in book of the rules).
    pub book_file: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            config: SearchConfig::default(),
            ponder: false,
            tablebase_path: String::new(),
            tablebase_pieces: MAX_PIECES,
            notation: Notation::Numeric,
            own_book: OWN_BOOK,
            book_file: String::new(),
        }
    }
}

/// Which setting an option changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionId {
    /// Men capture backward (rules).
    BackwardCapture,
    /// Flying kings (rules).
    LongKings,
    /// Half-moves without capture or crowning that draw; 0 = never (rules).
    DrawHalfMoves,
    /// Losing checkers: the side with no move wins (rules).
    Losing,
    /// The GUI may ponder.
    Ponder,
    /// A button: empty the search tree (what the search learned), keep the game.
    ClearHash,
    /// How moves are written in replies.
    Notation,
    /// A knob of the search's parameter table (by its name).
    Search,
    /// The directory of the endgame tables (an engine resource, like `Hash`).
    TablebasePath,
    /// The most pieces of a position the search probes.
    TablebasePieces,
    /// Play book moves.
    OwnBook,
    /// The book file (an engine resource, like `TablebasePath`).
    BookFile,
}

/// One row of the option table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Which setting.
    pub id: OptionId,
    /// The name as announced (matched case-insensitively).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
}

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The option needs `value <V>`.
    #[error("option {0} needs a value")]
    MissingValue(&'static str),
    /// A button got `value <V>`.
    #[error("option {0} is a button: it takes no value")]
    ButtonValue(&'static str),
    /// A check option got something other than true/false.
    #[error("option {name}: bad value '{value}': expected true or false")]
    NotABool {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
    },
    /// A combo option got a word it does not offer.
    #[error("option {name}: bad value '{value}': expected one of {}", .vars.join(", "))]
    NotAChoice {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
        /// The accepted values.
        vars: &'static [&'static str],
    },
    /// A spin option got a non-integer or an integer out of range.
    #[error("option {name}: bad value '{value}': expected an integer from {min} to {max}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
}

/// The default of `OwnBook`: off. Checkers engines play their book by default (KingsRow
/// does), and that is what a user expects of a strong book; the books built so far measured
/// no stronger than searching at 10,000 iterations a move (docs/results/, 2026-11-26
/// "opening book"), so the engine searches unless told to play its book. Turn it on here once a book
/// measures stronger.
pub const OWN_BOOK: bool = false;

/// The name of the button that empties the search tree.
pub const CLEAR_HASH: &str = "Clear Hash";

/// The option table, in the order `uci` announces it: the rules, the search's table, the
/// endgame tables, the book, `Ponder`, `Notation`, `Clear Hash`.
pub fn table() -> Vec<OptionSpec> {
    let rules = Rules::default();
    let spec = |id, name, kind| OptionSpec { id, name, kind };
    let mut table = vec![
        spec(
            OptionId::BackwardCapture,
            "BackwardCapture",
            OptionKind::Check {
                default: rules.backward_capture,
            },
        ),
        spec(
            OptionId::LongKings,
            "LongKings",
            OptionKind::Check {
                default: rules.long_kings,
            },
        ),
        spec(
            OptionId::DrawHalfMoves,
            "DrawHalfMoves",
            OptionKind::Spin {
                default: rules.draw_half_moves.into(),
                min: 0,
                max: 1000,
            },
        ),
        spec(
            OptionId::Losing,
            "Losing",
            OptionKind::Check {
                default: rules.losing,
            },
        ),
    ];
    let search = SearchConfig::default().options();
    table.extend(
        search
            .into_iter()
            .map(|(name, kind)| spec(OptionId::Search, name, kind)),
    );
    table.push(spec(
        OptionId::TablebasePath,
        "TablebasePath",
        OptionKind::String { default: "" },
    ));
    table.push(spec(
        OptionId::TablebasePieces,
        "TablebasePieces",
        OptionKind::Spin {
            default: MAX_PIECES.into(),
            min: 0,
            max: MAX_PIECES.into(),
        },
    ));
    table.push(spec(
        OptionId::OwnBook,
        "OwnBook",
        OptionKind::Check { default: OWN_BOOK },
    ));
    table.push(spec(
        OptionId::BookFile,
        "BookFile",
        OptionKind::String { default: "" },
    ));
    table.push(spec(
        OptionId::Ponder,
        "Ponder",
        OptionKind::Check { default: false },
    ));
    table.push(spec(
        OptionId::Notation,
        "Notation",
        OptionKind::Combo {
            default: Notation::Numeric.name(),
            vars: &Notation::NAMES,
        },
    ));
    table.push(spec(OptionId::ClearHash, CLEAR_HASH, OptionKind::Button));
    table
}

/// Finds an option by name, ignoring case.
pub fn lookup(name: &str) -> Result<OptionSpec, OptionError> {
    table()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

/// Checks `value` against the option's type and range (a button takes none).
pub fn parse_value(spec: &OptionSpec, value: Option<&str>) -> Result<OptionValue, OptionError> {
    if spec.kind == OptionKind::Button {
        return match value {
            None => Ok(OptionValue::Press),
            Some(_) => Err(OptionError::ButtonValue(spec.name)),
        };
    }
    if let OptionKind::String { .. } = spec.kind {
        // No value, or UCI's `<empty>`, is the empty string.
        let text = value.map(str::trim).unwrap_or("");
        let text = if text == EMPTY { "" } else { text };
        return Ok(OptionValue::Text(text.to_string()));
    }
    let value = match value.map(str::trim) {
        Some(v) if !v.is_empty() => v,
        _ => return Err(OptionError::MissingValue(spec.name)),
    };
    match spec.kind {
        OptionKind::Check { .. } => {
            if value.eq_ignore_ascii_case("true") {
                Ok(OptionValue::Check(true))
            } else if value.eq_ignore_ascii_case("false") {
                Ok(OptionValue::Check(false))
            } else {
                Err(OptionError::NotABool {
                    name: spec.name,
                    value: value.to_string(),
                })
            }
        }
        OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Spin(n)),
            _ => Err(OptionError::OutOfRange {
                name: spec.name,
                value: value.to_string(),
                min,
                max,
            }),
        },
        OptionKind::Combo { vars, .. } => vars
            .iter()
            .find(|v| v.eq_ignore_ascii_case(value))
            .map(|v| OptionValue::Combo(v))
            .ok_or_else(|| OptionError::NotAChoice {
                name: spec.name,
                value: value.to_string(),
                vars,
            }),
        OptionKind::Button | OptionKind::String { .. } => Ok(OptionValue::Press),
    }
}

/// How an empty string option is shown and set (`setoption ... value <empty>`).
pub const EMPTY: &str = "<empty>";

/// Stores a checked value into `settings` or `rules`. The value must come from
/// [`parse_value`] for the same option; a value of the other type is ignored.
pub fn store(settings: &mut Settings, rules: &mut Rules, spec: &OptionSpec, value: OptionValue) {
    match (spec.id, value) {
        (OptionId::BackwardCapture, OptionValue::Check(b)) => rules.backward_capture = b,
        (OptionId::LongKings, OptionValue::Check(b)) => rules.long_kings = b,
        (OptionId::Losing, OptionValue::Check(b)) => rules.losing = b,
        // Range-checked by the table: the fallback only keeps the code panic-free.
        (OptionId::DrawHalfMoves, OptionValue::Spin(n)) => {
            rules.draw_half_moves = u32::try_from(n).unwrap_or(0)
        }
        (OptionId::Ponder, OptionValue::Check(b)) => settings.ponder = b,
        (OptionId::Notation, OptionValue::Combo(v)) => {
            settings.notation = Notation::from_name(v).unwrap_or_default()
        }
        (OptionId::TablebasePath, OptionValue::Text(t)) => settings.tablebase_path = t,
        (OptionId::TablebasePieces, OptionValue::Spin(n)) => {
            settings.tablebase_pieces = u32::try_from(n).unwrap_or(0)
        }
        (OptionId::OwnBook, OptionValue::Check(b)) => settings.own_book = b,
        (OptionId::BookFile, OptionValue::Text(t)) => settings.book_file = t,
        (OptionId::Search, value) => {
            settings.config.set(spec.name, value);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(
        settings: &mut Settings,
        rules: &mut Rules,
        name: &str,
        value: &str,
    ) -> Result<(), OptionError> {
        let spec = lookup(name)?;
        let v = parse_value(&spec, Some(value))?;
        store(settings, rules, &spec, v);
        Ok(())
    }

    #[test]
    fn defaults_match_the_search_defaults() {
        let (mut s, mut r) = (Settings::default(), Rules::default());
        for spec in table() {
            let v = match spec.kind {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Combo { default, .. } => default.to_string(),
                OptionKind::String { default } => default.to_string(),
                OptionKind::Button => continue,
            };
            set(&mut s, &mut r, spec.name, &v).unwrap();
        }
        assert_eq!((s, r), (Settings::default(), Rules::default()));
    }

    #[test]
    fn every_option_maps_to_its_field() {
        let (mut s, mut r) = (Settings::default(), Rules::default());
        for (name, value) in [
            ("backwardcapture", "false"),
            ("LONGKINGS", "False"),
            ("DrawHalfMoves", "0"),
            ("losing", "true"),
            ("Hash", "3"),
            ("Threads", "2"),
            ("Seed", "77"),
            ("Ponder", "true"),
            ("MultiPV", "4"),
            ("MoveOverhead", "25"),
            ("exploration", "141"),
            ("PlainUct", "TRUE"),
            ("MinimaxWeight", "35"),
            ("notation", "ALGEBRAIC"),
            ("TablebasePieces", "4"),
            ("tablebasepath", "tb/bg5"),
            ("ownbook", "true"),
            ("BookFile", "my.book"),
        ] {
            set(&mut s, &mut r, name, value).unwrap();
        }
        assert_eq!(
            (s.tablebase_path.as_str(), s.tablebase_pieces),
            ("tb/bg5", 4)
        );
        // UCI's `<empty>` (or no value) clears a string option.
        set(&mut s, &mut r, "TablebasePath", EMPTY).unwrap();
        assert_eq!(s.tablebase_path, "");
        let c = &s.config;
        assert!((c.minimax_weight - 0.35).abs() < 1e-12);
        assert!(!r.backward_capture && !r.long_kings);
        assert_eq!(r.draw_half_moves, 0);
        assert!(r.losing);
        assert_eq!(
            (c.hash_mib, c.threads, c.seed, c.multipv, c.move_overhead_ms),
            (3, 2, 77, 4, 25)
        );
        assert!((c.exploration - 1.41).abs() < 1e-12);
        assert!(c.plain_uct && s.ponder);
        assert_eq!(s.notation, Notation::Algebraic);
        assert_eq!((s.own_book, s.book_file.as_str()), (true, "my.book"));
    }

    #[test]
    fn refusals_say_why() {
        let (mut s, mut r) = (Settings::default(), Rules::default());
        assert_eq!(
            set(&mut s, &mut r, "Hash", "0").unwrap_err().to_string(),
            "option Hash: bad value '0': expected an integer from 1 to 4096"
        );
        assert_eq!(
            set(&mut s, &mut r, "Ponder", "yes")
                .unwrap_err()
                .to_string(),
            "option Ponder: bad value 'yes': expected true or false"
        );
        assert_eq!(
            set(&mut s, &mut r, "Nope", "1").unwrap_err().to_string(),
            "unknown option 'Nope'"
        );
        let spec = lookup("threads").unwrap();
        assert_eq!(
            parse_value(&spec, None).unwrap_err().to_string(),
            "option Threads needs a value"
        );
        assert_eq!(
            set(&mut s, &mut r, "Notation", "alpha")
                .unwrap_err()
                .to_string(),
            "option Notation: bad value 'alpha': expected one of numeric, algebraic"
        );
        let button = lookup("clear hash").unwrap();
        assert_eq!(parse_value(&button, None), Ok(OptionValue::Press));
        assert_eq!(
            parse_value(&button, Some("1")).unwrap_err().to_string(),
            "option Clear Hash is a button: it takes no value"
        );
        assert_eq!(s, Settings::default());
    }
}
