//! The engine's options: the rules options, `Ponder`, and the search's parameter table (see
//! [`crate::search::params`]), and how a `setoption` value maps onto them.
//!
//! Names are matched case-insensitively; values are checked against the table before anything
//! changes, so a refused value leaves every setting as it was.

use std::sync::OnceLock;

use thiserror::Error;

use crate::board::{option, Notation, Rules, Variant};
use crate::search::{OptionKind, OptionValue, SearchConfig};
use crate::tablebase::home;
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
    /// The `TablebasePath` option: the directory of the endgame tables (empty: none; by
    /// default the root of the default tables, [`tables_default`]).
    pub tablebase_path: String,
    /// The `TablebasePieces` option: positions of at most this many pieces are probed
    /// (0: none; above what the tables hold: all they hold).
    pub tablebase_pieces: u32,
    /// The `TablebaseCache` option: MiB of table blocks the probes keep in memory.
    pub tablebase_cache: u32,
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
            tablebase_path: tables_default().to_string(),
            tablebase_pieces: MAX_PIECES,
            tablebase_cache: TABLEBASE_CACHE_MIB,
            notation: Notation::Numeric,
            own_book: OWN_BOOK,
            book_file: String::new(),
        }
    }
}

/// What a checked value of an option changes: a store of the option's type into the settings
/// or the rules, a knob of the search, or the tree.
#[derive(Clone, Copy)]
pub enum Effect {
    /// Stores a check value.
    Check(fn(&mut Settings, &mut Rules, bool)),
    /// Stores a range-checked spin value.
    Spin(fn(&mut Settings, &mut Rules, i64)),
    /// Stores a combo value (spelled as the option announces it).
    Combo(fn(&mut Settings, &mut Rules, &'static str)),
    /// Stores a string value.
    Text(fn(&mut Settings, &mut Rules, String)),
    /// Stands for the search's knob table (see [`crate::search::params`]), spliced in here.
    Knobs,
    /// A knob of the search's table, stored by its name.
    Knob,
    /// The button that empties the search tree (what the search learned), keeping the game.
    ClearTree,
}

impl std::fmt::Debug for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Effect::Check(_) => "Check",
            Effect::Spin(_) => "Spin",
            Effect::Combo(_) => "Combo",
            Effect::Text(_) => "Text",
            Effect::Knobs => "Knobs",
            Effect::Knob => "Knob",
            Effect::ClearTree => "ClearTree",
        })
    }
}

impl PartialEq for Effect {
    fn eq(&self, other: &Effect) -> bool {
        // Rows are told apart by name; the effect's kind is enough here.
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// One row of the option table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionSpec {
    /// The name as announced (matched case-insensitively).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// What a value changes.
    pub effect: Effect,
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

/// The default of `TablebaseCache`, in MiB: the tables' default block cache
/// ([`DEFAULT_CACHE`](crate::tablebase::probe::DEFAULT_CACHE)).
pub const TABLEBASE_CACHE_MIB: u32 = (crate::tablebase::probe::DEFAULT_CACHE >> 20) as u32;

/// `TablebasePath`'s default as protocol.md writes it, whatever the machine: the root of the
/// default tables (see [`home::default_root`]). [`table`] announces this machine's path
/// instead, [`tables_default`].
pub const TABLES_HOME: &str = "<data folder>/buffgreen/tables";

/// `TablebasePath`'s default on this machine: the root of the default tables, where
/// `tb build` writes without `--dir`, found once per process; empty when there is none (no
/// data folder, `BUFFGREEN_TABLES` empty, or a path that is not UTF-8, which a text protocol
/// cannot name).
pub fn tables_default() -> &'static str {
    static ROOT: OnceLock<String> = OnceLock::new();
    ROOT.get_or_init(|| {
        home::default_root()
            .and_then(|p| p.into_os_string().into_string().ok())
            .unwrap_or_default()
    })
}

/// The name of the button that empties the search tree.
pub const CLEAR_HASH: &str = "Clear Hash";

/// The engine's own options, one row each, in the order `uci` announces them; the search's
/// knobs come where the [`Effect::Knobs`] row stands. Adding an option is one row here plus
/// its field in [`Settings`] (or [`Rules`]).
#[rustfmt::skip]
const ROWS: &[OptionSpec] = &[
    combo(option::VARIANT, &Variant::OPTION_KEYS, |_, r, v| *r = r.with_variant(Variant::from_key(v).unwrap_or_default())),
    check(option::BACKWARD_CAPTURE, RULES.backward_capture, |_, r, b| *r = r.with_switches(b, r.long_kings)),
    check(option::LONG_KINGS, RULES.long_kings, |_, r, b| *r = r.with_switches(r.backward_capture, b)),
    spin(option::DRAW_HALF_MOVES, RULES.draw_half_moves as i64, 1000, |_, r, n| r.draw_half_moves = int(n)),
    check(option::LOSING, RULES.losing, |_, r, b| r.losing = b),
    special("", OptionKind::Button, Effect::Knobs),
    text("TablebasePath", TABLES_HOME, |s, _, t| s.tablebase_path = t),
    spin("TablebasePieces", MAX_PIECES as i64, MAX_PIECES as i64, |s, _, n| s.tablebase_pieces = int(n)),
    spin("TablebaseCache", TABLEBASE_CACHE_MIB as i64, 65536, |s, _, n| s.tablebase_cache = int(n)),
    check("OwnBook", OWN_BOOK, |s, _, b| s.own_book = b),
    text("BookFile", "", |s, _, t| s.book_file = t),
    check("Ponder", false, |s, _, b| s.ponder = b),
    combo("Notation", &Notation::NAMES, |s, _, v| s.notation = Notation::from_name(v).unwrap_or_default()),
    special(CLEAR_HASH, OptionKind::Button, Effect::ClearTree),
];

/// The rules a fresh engine plays: the default rule set's.
const RULES: Rules = Variant::BuffGreen.rules();

const fn check(
    name: &'static str,
    default: bool,
    f: fn(&mut Settings, &mut Rules, bool),
) -> OptionSpec {
    special(name, OptionKind::Check { default }, Effect::Check(f))
}

/// A spin option from 0 to `max`.
const fn spin(
    name: &'static str,
    default: i64,
    max: i64,
    f: fn(&mut Settings, &mut Rules, i64),
) -> OptionSpec {
    special(
        name,
        OptionKind::Spin {
            default,
            min: 0,
            max,
        },
        Effect::Spin(f),
    )
}

/// A combo option whose default is its first value.
const fn combo(
    name: &'static str,
    vars: &'static [&'static str],
    f: fn(&mut Settings, &mut Rules, &'static str),
) -> OptionSpec {
    special(
        name,
        OptionKind::Combo {
            default: vars[0],
            vars,
        },
        Effect::Combo(f),
    )
}

const fn text(
    name: &'static str,
    default: &'static str,
    f: fn(&mut Settings, &mut Rules, String),
) -> OptionSpec {
    special(name, OptionKind::String { default }, Effect::Text(f))
}

const fn special(name: &'static str, kind: OptionKind, effect: Effect) -> OptionSpec {
    OptionSpec { name, kind, effect }
}

/// A range-checked spin value as the field's type (the fallback only keeps the code
/// panic-free).
fn int<T: TryFrom<i64> + Default>(n: i64) -> T {
    T::try_from(n).unwrap_or_default()
}

/// The option table, in the order `uci` announces it: the rules, the search's knobs, the
/// endgame tables, the book, `Ponder`, `Notation`, `Clear Hash`; with this machine's defaults
/// (`TablebasePath`'s is [`tables_default`]).
pub fn table() -> Vec<OptionSpec> {
    documented_table()
        .into_iter()
        .map(|row| match row.kind {
            OptionKind::String {
                default: TABLES_HOME,
            } => OptionSpec {
                kind: OptionKind::String {
                    default: tables_default(),
                },
                ..row
            },
            _ => row,
        })
        .collect()
}

/// The option table as protocol.md documents it: [`table`] with a machine's defaults written
/// as they are on any machine (`TablebasePath`'s is [`TABLES_HOME`]).
pub fn documented_table() -> Vec<OptionSpec> {
    let mut table = Vec::new();
    for row in ROWS {
        match row.effect {
            Effect::Knobs => table.extend(SearchConfig::default().options().into_iter().map(
                |(name, kind)| OptionSpec {
                    name,
                    kind,
                    effect: Effect::Knob,
                },
            )),
            _ => table.push(*row),
        }
    }
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
        // No value, or UCI's `<empty>`, is the empty string. The value is kept as given: a
        // path may begin, hold or end with spaces.
        let text = value.unwrap_or("");
        let text = if text.trim() == EMPTY { "" } else { text };
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
    match (spec.effect, value) {
        (Effect::Check(f), OptionValue::Check(b)) => f(settings, rules, b),
        (Effect::Spin(f), OptionValue::Spin(n)) => f(settings, rules, n),
        (Effect::Combo(f), OptionValue::Combo(v)) => f(settings, rules, v),
        (Effect::Text(f), OptionValue::Text(t)) => f(settings, rules, t),
        (Effect::Knob, value) => {
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
    fn tablebase_path_defaults_to_this_machines_tables_home() {
        let (doc, this) = (documented_table(), table());
        assert_eq!(doc.len(), this.len());
        for (d, t) in doc.iter().zip(&this) {
            let want = match d.kind {
                OptionKind::String {
                    default: TABLES_HOME,
                } => OptionKind::String {
                    default: tables_default(),
                },
                kind => kind,
            };
            assert_eq!((d.name, want), (t.name, t.kind));
        }
        let row = doc.iter().find(|o| o.name == "TablebasePath");
        assert_eq!(
            row.map(|o| o.kind),
            Some(OptionKind::String {
                default: TABLES_HOME
            })
        );
        assert_eq!(Settings::default().tablebase_path, tables_default());
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
