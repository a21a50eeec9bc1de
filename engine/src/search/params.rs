//! The search's parameter table: every knob of [`SearchConfig`] is one line of
//! [`search_params!`], which generates the config field, its default, the protocol `option`
//! line (name, type, range, default) and the `setoption` handling (with the protocol's scale:
//! a weight shown in hundredths is set as `n / 100`).
//!
//! Adding a knob is one line here plus the code that reads the new field. The engine's option
//! table ([`crate::engine::option_table`]) lists these after the rules options.
//!
//! [`Behaviour`] reads, in one place, what the plain-UCT baseline (`PlainUct`) changes in how
//! a search is driven.

use crate::search::plain;
use crate::search::skill::{self, Skill};

/// Largest `Hash` in MiB. The arena is written when it is made, so the whole size must be real
/// memory at once, and a valid option value must never get the engine killed for memory. This
/// much holds about 130 million nodes, far more than a long search fills.
pub const MAX_HASH_MIB: i64 = 4_096;

/// Largest `Seed`: kept within 32-bit signed range because some GUIs store spin values in an
/// `int`.
pub const MAX_SEED: i64 = i32::MAX as i64;

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
    /// An action, set without a value (`setoption name <N>`).
    Button,
    /// One of a fixed list of words.
    Combo {
        /// The value at start-up.
        default: &'static str,
        /// Every accepted value, in the order announced.
        vars: &'static [&'static str],
    },
    /// Free text (a path).
    String {
        /// The value at start-up.
        default: &'static str,
    },
}

/// A parsed, range-checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check value.
    Check(bool),
    /// A spin value.
    Spin(i64),
    /// A button was pressed.
    Press,
    /// A combo value, spelled as the option announces it.
    Combo(&'static str),
    /// A string value (empty: none).
    Text(String),
}

/// A type a knob can have: how it is announced and how a protocol value is stored into it.
pub trait Knob: Copy {
    /// The option kind announcing `self` as the default, shown times `scale`, accepting
    /// `range` (spins only).
    fn option(self, range: (i64, i64), scale: f64) -> OptionKind;
    /// The value a range-checked protocol value stands for (`None`: wrong type).
    fn from_option(value: OptionValue, scale: f64) -> Option<Self>;
}

impl Knob for bool {
    fn option(self, _: (i64, i64), _: f64) -> OptionKind {
        OptionKind::Check { default: self }
    }

    fn from_option(value: OptionValue, _: f64) -> Option<bool> {
        match value {
            OptionValue::Check(b) => Some(b),
            _ => None,
        }
    }
}

impl Knob for f64 {
    fn option(self, (min, max): (i64, i64), scale: f64) -> OptionKind {
        OptionKind::Spin {
            default: (self * scale).round() as i64,
            min,
            max,
        }
    }

    fn from_option(value: OptionValue, scale: f64) -> Option<f64> {
        match value {
            OptionValue::Spin(n) => Some(n as f64 / scale),
            _ => None,
        }
    }
}

/// Integer knobs are shown as they are (scale 1).
macro_rules! integer_knob {
    ($($t:ty),*) => {$(
        impl Knob for $t {
            fn option(self, (min, max): (i64, i64), _: f64) -> OptionKind {
                OptionKind::Spin {
                    default: i64::try_from(self).unwrap_or(i64::MAX),
                    min,
                    max,
                }
            }

            fn from_option(value: OptionValue, _: f64) -> Option<$t> {
                match value {
                    // The table checked the range, so the conversion cannot fail.
                    OptionValue::Spin(n) => <$t>::try_from(n).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
integer_knob!(u32, u64, usize);

/// The parameter table. One line per knob:
/// `field: type = default, "OptionName" [, range(min, max)] [, scale s];`
/// (range for spin options; scale for weights shown in `1/s` units, 1 by default).
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $ty:ty = $default:expr, $name:literal
            $(, range($min:expr, $max:expr))? $(, scale $scale:expr)?;
    )*) => {
        /// Settings that persist between searches (set through `setoption`). Generated from
        /// the parameter table in `search/params.rs`.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchConfig {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Default for SearchConfig {
            fn default() -> SearchConfig {
                SearchConfig { $($field: $default,)* }
            }
        }

        impl SearchConfig {
            /// The protocol options of the table, in order, with these values as defaults.
            pub fn options(&self) -> Vec<(&'static str, OptionKind)> {
                vec![$((
                    $name,
                    Knob::option(
                        self.$field,
                        search_params!(@range $($min, $max)?),
                        search_params!(@scale $($scale)?),
                    ),
                ),)*]
            }

            /// Stores a range-checked protocol value for the option named `name` (exactly
            /// as the table spells it). Returns false when no knob has this name or the value
            /// has the other type.
            pub fn set(&mut self, name: &str, value: OptionValue) -> bool {
                $(if name == $name {
                    return match <$ty as Knob>::from_option(
                        value,
                        search_params!(@scale $($scale)?),
                    ) {
                        Some(v) => {
                            self.$field = v;
                            true
                        }
                        None => false,
                    };
                })*
                false
            }
        }
    };
    (@range) => { (0, 0) };
    (@range $min:expr, $max:expr) => { ($min, $max) };
    (@scale) => { 1.0 };
    (@scale $scale:expr) => { $scale as f64 };
}

search_params! {
    /// Memory for the search tree in MiB; the search never uses more.
    hash_mib: usize = 64, "Hash", range(1, MAX_HASH_MIB);
    /// Search threads.
    threads: usize = 1, "Threads", range(1, 256);
    /// Seed of the random number generators: same seed, position and node limit, same result.
    seed: u64 = 0, "Seed", range(0, MAX_SEED);
    /// How many best lines to report.
    multipv: usize = 1, "MultiPV", range(1, 32);
    /// Milliseconds kept in reserve per move for communication delays.
    move_overhead_ms: u64 = 10, "MoveOverhead", range(0, 5000);
    /// UCT exploration constant `c` in `q + c * sqrt(ln N / n)`.
    exploration: f64 = 0.35, "Exploration", range(0, 1000), scale 100;
    /// Play as the plain UCT baseline (the original app's AI, see [`plain`]): no reuse, no
    /// solver, random playouts cut at depth 30, fixed iteration budget.
    plain_uct: bool = false, "PlainUct";
    /// Plies after which a playout stops and is scored by the static evaluation (0: random
    /// playouts to the end of the game).
    eval_cut: u32 = 8, "EvalCut", range(0, 1000);
    /// Weight `a` of the implicit minimax value of the static evaluation in selection:
    /// `q = (1 - a) * mean + a * minimax` (0: the mean alone).
    minimax_weight: f64 = 0.3, "MinimaxWeight", range(0, 100), scale 100;
    /// Play weaker on purpose, at the strength `UCI_Elo` asks for (see [`skill`]).
    limit_strength: bool = false, "UCI_LimitStrength";
    /// The strength asked for when `UCI_LimitStrength` is on (the scale of [`skill`]).
    elo: u32 = skill::MAX_ELO as u32, "UCI_Elo", range(skill::MIN_ELO, skill::MAX_ELO);
}

/// What the chosen player (the engine, or the plain-UCT baseline) changes in how a search is
/// driven, read off the config in this one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// Keep the tree from one search to the next.
    pub reuse_tree: bool,
    /// Prove results (MCTS-Solver): proven moves rank first, proven roots end the search.
    pub solver: bool,
    /// Search threads.
    pub threads: usize,
    /// Clocks are managed by the time manager (otherwise only `nodes` and `stop` end it).
    pub timed: bool,
    /// Iterations when `go` names no `nodes` (and the search is not infinite).
    pub default_nodes: Option<u64>,
    /// Prune a full arena and search on; otherwise stop expanding and search on in the tree
    /// as it is.
    pub prune_when_full: bool,
    /// The most iterations a move may use, whatever the limits (a strength limit, see
    /// [`skill`]); not applied to `go infinite`.
    pub node_cap: Option<u64>,
}

impl Behaviour {
    /// The behaviour `config` asks for.
    pub fn of(config: &SearchConfig) -> Behaviour {
        if config.plain_uct {
            // The original app's one-thread player with its fixed budget.
            Behaviour {
                reuse_tree: false,
                solver: false,
                threads: 1,
                timed: false,
                default_nodes: Some(plain::PLAIN_ITERATIONS),
                prune_when_full: false,
                node_cap: None,
            }
        } else {
            // A limited strength must not grow with the thinking time: a fixed budget.
            let skill = Skill::of(config);
            Behaviour {
                reuse_tree: true,
                solver: true,
                threads: config.threads.max(1),
                timed: true,
                default_nodes: None,
                prune_when_full: true,
                node_cap: skill.map(|s| s.nodes()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_of_the_table_stores_into_its_field() {
        let mut c = SearchConfig::default();
        for (name, value) in [
            ("Hash", OptionValue::Spin(3)),
            ("Threads", OptionValue::Spin(2)),
            ("Seed", OptionValue::Spin(77)),
            ("MultiPV", OptionValue::Spin(4)),
            ("MoveOverhead", OptionValue::Spin(25)),
            ("Exploration", OptionValue::Spin(141)),
            ("PlainUct", OptionValue::Check(true)),
            ("EvalCut", OptionValue::Spin(5)),
            ("MinimaxWeight", OptionValue::Spin(35)),
            ("UCI_LimitStrength", OptionValue::Check(true)),
            ("UCI_Elo", OptionValue::Spin(1234)),
        ] {
            assert!(c.set(name, value), "{name}");
        }
        assert_eq!(
            (c.hash_mib, c.threads, c.seed, c.multipv, c.move_overhead_ms),
            (3, 2, 77, 4, 25)
        );
        assert!((c.exploration - 1.41).abs() < 1e-12);
        assert!((c.minimax_weight - 0.35).abs() < 1e-12);
        assert!(c.plain_uct && c.eval_cut == 5);
        assert!(c.limit_strength && c.elo == 1234);
        assert!(!c.set("Hash", OptionValue::Check(true)));
        assert!(!c.set("Nope", OptionValue::Spin(1)));
    }

    #[test]
    fn the_defaults_are_announced_in_protocol_units() {
        let options = SearchConfig::default().options();
        let kind = |name: &str| options.iter().find(|o| o.0 == name).map(|o| o.1);
        assert_eq!(
            kind("Exploration"),
            Some(OptionKind::Spin {
                default: 35,
                min: 0,
                max: 1000
            })
        );
        assert_eq!(kind("PlainUct"), Some(OptionKind::Check { default: false }));
        assert_eq!(options.len(), 11);
    }
}
