//! The engine's options: their table (name, type, default, range) and how a `setoption` value
//! maps onto [`Settings`].
//!
//! Names are matched case-insensitively; values are checked against the table before anything
//! changes, so a refused value leaves every setting as it was.

use thiserror::Error;

use crate::search::SearchConfig;

/// Largest `Hash` in MiB. The arena is written when it is made, so the whole size must be real
/// memory at once: 16 GiB on this 24 GiB machine was killed by the kernel under load, and a
/// valid option value must never end the engine. 4 GiB holds about 130 million nodes, far
/// more than a long search fills.
pub const MAX_HASH_MIB: i64 = 4_096;

/// Largest `Seed`: kept within 32-bit signed range because some GUIs store spin values in an
/// `int`.
pub const MAX_SEED: i64 = i32::MAX as i64;

/// Every setting an option can change: the search configuration plus what only the engine
/// itself uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// What the search is configured with, the rules included.
    pub config: SearchConfig,
    /// The `Ponder` option: tells the engine the GUI may send `go ponder`. The engine accepts
    /// `go ponder` either way; the option exists so GUIs can show and set it.
    pub ponder: bool,
}

/// Which option a table row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionId {
    /// Men capture backward (rules).
    BackwardCapture,
    /// Flying kings (rules).
    LongKings,
    /// Half-moves without capture or crowning that draw; 0 = never (rules).
    DrawHalfMoves,
    /// Tree memory in MiB.
    Hash,
    /// Search threads.
    Threads,
    /// Random seed.
    Seed,
    /// The GUI may ponder.
    Ponder,
    /// Number of lines reported.
    MultiPv,
    /// Milliseconds kept back per move.
    MoveOverhead,
    /// UCT exploration constant in hundredths.
    Exploration,
    /// Play as the plain-UCT baseline.
    PlainUct,
    /// Plies before a playout is scored by the static evaluation; 0 = play to the end.
    EvalCut,
    /// Greedy playout policy in cut playouts.
    PlayoutPolicy,
    /// Weight of the implicit minimax value in selection, in hundredths.
    MinimaxWeight,
    /// Unvisited moves are valued by their static evaluation.
    EvalFirstPlay,
    /// First-play reduction in hundredths.
    FpuReduction,
    /// Contempt in hundredths of a man per piece on the board.
    Contempt,
}

/// The type of an option as the protocol announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check {
        /// The value at start-up.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// The value at start-up.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
}

/// One row of the option table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Which option.
    pub id: OptionId,
    /// The name as announced (matched case-insensitively).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
}

/// A parsed, range-checked option value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check value.
    Check(bool),
    /// A spin value.
    Spin(i64),
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
    /// A check option got something other than true/false.
    #[error("option {name}: bad value '{value}': expected true or false")]
    NotABool {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
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

/// The exploration default in hundredths, read from the search's own default so that retuning
/// the search retunes the option.
fn exploration_default() -> i64 {
    (SearchConfig::default().exploration * 100.0).round() as i64
}

/// A search weight in hundredths, as the option shows it.
fn hundredths(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// The option table, in the order `uci` announces it.
pub fn table() -> Vec<OptionSpec> {
    let d = SearchConfig::default();
    let check = |id, name, default| OptionSpec {
        id,
        name,
        kind: OptionKind::Check { default },
    };
    let spin = |id, name, default: i64, min, max| OptionSpec {
        id,
        name,
        kind: OptionKind::Spin { default, min, max },
    };
    let int = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    vec![
        check(
            OptionId::BackwardCapture,
            "BackwardCapture",
            d.rules.backward_capture,
        ),
        check(OptionId::LongKings, "LongKings", d.rules.long_kings),
        spin(
            OptionId::DrawHalfMoves,
            "DrawHalfMoves",
            d.rules.draw_half_moves.into(),
            0,
            1000,
        ),
        spin(
            OptionId::Hash,
            "Hash",
            int(d.hash_mib as u64),
            1,
            MAX_HASH_MIB,
        ),
        spin(OptionId::Threads, "Threads", int(d.threads as u64), 1, 256),
        spin(OptionId::Seed, "Seed", int(d.seed), 0, MAX_SEED),
        check(OptionId::Ponder, "Ponder", false),
        spin(OptionId::MultiPv, "MultiPV", int(d.multipv as u64), 1, 32),
        spin(
            OptionId::MoveOverhead,
            "MoveOverhead",
            int(d.move_overhead_ms),
            0,
            5000,
        ),
        spin(
            OptionId::Exploration,
            "Exploration",
            exploration_default(),
            0,
            1000,
        ),
        check(OptionId::PlainUct, "PlainUct", d.plain_uct),
        spin(
            OptionId::EvalCut,
            "EvalCut",
            int(d.eval_cut as u64),
            0,
            1000,
        ),
        check(OptionId::PlayoutPolicy, "PlayoutPolicy", d.playout_policy),
        spin(
            OptionId::MinimaxWeight,
            "MinimaxWeight",
            hundredths(d.minimax_weight),
            0,
            100,
        ),
        check(OptionId::EvalFirstPlay, "EvalFirstPlay", d.eval_first_play),
        spin(
            OptionId::FpuReduction,
            "FpuReduction",
            hundredths(d.fpu_reduction),
            -100,
            100,
        ),
        spin(
            OptionId::Contempt,
            "Contempt",
            i64::from(d.contempt),
            0,
            100,
        ),
    ]
}

/// Finds an option by name, ignoring case.
pub fn lookup(name: &str) -> Result<OptionSpec, OptionError> {
    table()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

/// Checks `value` against the option's type and range.
pub fn parse_value(spec: &OptionSpec, value: Option<&str>) -> Result<OptionValue, OptionError> {
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
    }
}

/// Stores a checked value into `settings`. The value must come from [`parse_value`] for the
/// same option; a value of the other type is ignored.
pub fn store(settings: &mut Settings, id: OptionId, value: OptionValue) {
    let c = &mut settings.config;
    // Spin values are range-checked by the table, so these conversions cannot fail; the
    // fallbacks only keep the code panic-free.
    let as_u32 = |n: i64| u32::try_from(n).unwrap_or(0);
    let as_usize = |n: i64| usize::try_from(n).unwrap_or(1);
    let as_u64 = |n: i64| u64::try_from(n).unwrap_or(0);
    match (id, value) {
        (OptionId::BackwardCapture, OptionValue::Check(b)) => c.rules.backward_capture = b,
        (OptionId::LongKings, OptionValue::Check(b)) => c.rules.long_kings = b,
        (OptionId::Ponder, OptionValue::Check(b)) => settings.ponder = b,
        (OptionId::PlainUct, OptionValue::Check(b)) => c.plain_uct = b,
        (OptionId::PlayoutPolicy, OptionValue::Check(b)) => c.playout_policy = b,
        (OptionId::DrawHalfMoves, OptionValue::Spin(n)) => c.rules.draw_half_moves = as_u32(n),
        (OptionId::Hash, OptionValue::Spin(n)) => c.hash_mib = as_usize(n),
        (OptionId::Threads, OptionValue::Spin(n)) => c.threads = as_usize(n),
        (OptionId::Seed, OptionValue::Spin(n)) => c.seed = as_u64(n),
        (OptionId::MultiPv, OptionValue::Spin(n)) => c.multipv = as_usize(n),
        (OptionId::MoveOverhead, OptionValue::Spin(n)) => c.move_overhead_ms = as_u64(n),
        (OptionId::Exploration, OptionValue::Spin(n)) => c.exploration = n as f64 / 100.0,
        (OptionId::EvalCut, OptionValue::Spin(n)) => c.eval_cut = as_u32(n),
        (OptionId::MinimaxWeight, OptionValue::Spin(n)) => c.minimax_weight = n as f64 / 100.0,
        (OptionId::EvalFirstPlay, OptionValue::Check(b)) => c.eval_first_play = b,
        (OptionId::FpuReduction, OptionValue::Spin(n)) => c.fpu_reduction = n as f64 / 100.0,
        (OptionId::Contempt, OptionValue::Spin(n)) => c.contempt = i32::try_from(n).unwrap_or(0),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(settings: &mut Settings, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = lookup(name)?;
        let v = parse_value(&spec, Some(value))?;
        store(settings, spec.id, v);
        Ok(())
    }

    #[test]
    fn defaults_match_the_search_defaults() {
        let mut s = Settings::default();
        for spec in table() {
            let v = match spec.kind {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
            };
            set(&mut s, spec.name, &v).unwrap();
        }
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn every_option_maps_to_its_field() {
        let mut s = Settings::default();
        set(&mut s, "backwardcapture", "false").unwrap();
        set(&mut s, "LONGKINGS", "False").unwrap();
        set(&mut s, "DrawHalfMoves", "0").unwrap();
        set(&mut s, "Hash", "3").unwrap();
        set(&mut s, "Threads", "2").unwrap();
        set(&mut s, "Seed", "77").unwrap();
        set(&mut s, "Ponder", "true").unwrap();
        set(&mut s, "MultiPV", "4").unwrap();
        set(&mut s, "MoveOverhead", "25").unwrap();
        set(&mut s, "Exploration", "141").unwrap();
        set(&mut s, "PlainUct", "TRUE").unwrap();
        set(&mut s, "MinimaxWeight", "35").unwrap();
        set(&mut s, "EvalFirstPlay", "false").unwrap();
        set(&mut s, "FpuReduction", "-20").unwrap();
        let c = &s.config;
        assert!(!c.eval_first_play);
        assert!((c.fpu_reduction + 0.2).abs() < 1e-12);
        assert!((c.minimax_weight - 0.35).abs() < 1e-12);
        assert!(!c.rules.backward_capture && !c.rules.long_kings);
        assert_eq!(c.rules.draw_half_moves, 0);
        assert_eq!(
            (c.hash_mib, c.threads, c.seed, c.multipv, c.move_overhead_ms),
            (3, 2, 77, 4, 25)
        );
        assert!((c.exploration - 1.41).abs() < 1e-12);
        assert!(c.plain_uct && s.ponder);
    }

    #[test]
    fn refusals_say_why() {
        let mut s = Settings::default();
        assert_eq!(
            set(&mut s, "Hash", "0").unwrap_err().to_string(),
            "option Hash: bad value '0': expected an integer from 1 to 4096"
        );
        assert_eq!(
            set(&mut s, "Ponder", "yes").unwrap_err().to_string(),
            "option Ponder: bad value 'yes': expected true or false"
        );
        assert_eq!(
            set(&mut s, "Nope", "1").unwrap_err().to_string(),
            "unknown option 'Nope'"
        );
        let spec = lookup("threads").unwrap();
        assert_eq!(
            parse_value(&spec, None).unwrap_err().to_string(),
            "option Threads needs a value"
        );
        assert_eq!(s, Settings::default());
    }
}
