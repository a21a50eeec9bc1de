//! The search's parameter table: every knob of [`SearchConfig`] is one line of
//! `search_params!`, which generates the config field, its default, the protocol `option`
//! line (name, type, range, default) and the `setoption` handling (with the protocol's scale:
//! a weight shown in hundredths is set as `n / 100`).
//!
//! Adding a knob is one line here plus the code that reads the new field. The engine's option
//! table ([`crate::engine::option_table`]) lists these after the rules options.
//!
//! [`Params`] are the knobs of one iteration, the engine's ([`Params::uct`]) or the plain-UCT
//! baseline's ([`Params::plain`]); [`Behaviour`] reads, in one place, what the baseline
//! (`PlainUct`) changes in how a search is driven; [`Skill`] is the strength limit's scale
//! (`UCI_Elo` to a skill level and a search budget).

use crate::board::Rules;
use crate::search::value::{DRAW, SCALE};

/// Largest `Hash` in MiB. The arena is written when it is made, so the whole size must be real
/// memory at once, and a valid option value must never get the engine killed for memory. This
/// much holds about 130 million nodes, far more than a long search fills.
pub const MAX_HASH_MIB: i64 = 4_096;

/// Largest `Seed`: kept within 32-bit signed range because some GUIs store spin values in an
/// `int`.
pub const MAX_SEED: i64 = i32::MAX as i64;

/// The plain baseline's iteration budget per move when `go` names no `nodes`.
pub const PLAIN_ITERATIONS: u64 = 20_000;

/// Plies after which a plain baseline playout stops unfinished.
pub const PLAIN_PLAYOUT_PLIES: u32 = 30;

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
    /// UCT exploration constant `c` in `q + c * sqrt(ln N / n)` where the leaves are valued by
    /// playouts (rules without a network: Losing, the mixed switches).
    exploration: f64 = 0.35, "Exploration", range(0, 1000), scale 100;
    /// The exploration constant where a network values the leaves (English, Buff and Green,
    /// Pool, Russian, Brazilian): its values vary less from leaf to leaf than playouts do.
    learned_exploration: f64 = 0.25, "LearnedExploration", range(0, 1000), scale 100;
    /// Play as the plain UCT baseline (the original app's AI, see [`Params::plain`]): no reuse, no
    /// solver, random playouts cut at depth 30, fixed iteration budget.
    plain_uct: bool = false, "PlainUct";
    /// Plies after which a playout stops and is scored by the static evaluation (0: random
    /// playouts to the end of the game).
    eval_cut: u32 = 8, "EvalCut", range(0, 1000);
    /// Weight `a` of the implicit minimax value of the static evaluation in selection:
    /// `q = (1 - a) * mean + a * minimax` (0: the mean alone).
    minimax_weight: f64 = 0.3, "MinimaxWeight", range(0, 100), scale 100;
    /// Play weaker on purpose, at the strength `UCI_Elo` asks for (see [`Skill`]).
    limit_strength: bool = false, "UCI_LimitStrength";
    /// The strength asked for when `UCI_LimitStrength` is on (the scale of [`Skill`]).
    elo: u32 = MAX_ELO as u32, "UCI_Elo", range(MIN_ELO, MAX_ELO);
}

/// How unvisited children are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPlay {
    /// Before any visited sibling, in generation order (classic UCB1).
    Infinite,
    /// As if visited once with the child's static evaluation (its minimax value at
    /// expansion).
    Evaluation,
}

/// The knobs of the iteration: [`Params::of`] picks the engine's or the baseline's
/// ([`Params::plain`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// UCB1 exploration constant `c` in `q + c * sqrt(ln N / n)`.
    pub exploration: f64,
    /// First-play value of unvisited children.
    pub first_play: FirstPlay,
    /// Prove wins, losses and draws and propagate them (MCTS-Solver).
    pub solver: bool,
    /// Playout length limit in plies.
    pub playout_plies: u32,
    /// What an unfinished (cut) playout is worth, in `SCALE` units, to every node on the path.
    pub unfinished: u64,
    /// Cut playouts after this many plies and score them by the static evaluation
    /// (0: play to the end).
    pub eval_cut: u32,
    /// Weight of the implicit minimax value in selection (0: the mean alone, and no minimax
    /// backups are made).
    pub minimax: f64,
    /// Value a new leaf by the learned evaluation ([`crate::eval::learned_leaf`]) instead of
    /// a playout: the engine's search under rules that have a network.
    pub learned_leaf: bool,
}

impl Params {
    /// The iteration `config` asks for under `rules`: the plain-UCT baseline's, or the
    /// engine's.
    pub fn of(config: &SearchConfig, rules: &Rules) -> Params {
        if config.plain_uct {
            Params::plain()
        } else {
            Params::uct(config, rules)
        }
    }

    /// The engine's search under `rules` with the strength settings of `config`.
    pub fn uct(config: &SearchConfig, rules: &Rules) -> Params {
        let learned = crate::eval::net::for_rules(rules).is_some();
        Params {
            exploration: if learned {
                config.learned_exploration
            } else {
                config.exploration
            },
            first_play: FirstPlay::Evaluation,
            solver: true,
            // Random games end long before this under the draw rule; with the rule switched
            // off, king endings could shuffle for ever: a cut playout counts as a draw.
            playout_plies: 1_000,
            unfinished: DRAW,
            eval_cut: config.eval_cut,
            minimax: config.minimax_weight,
            learned_leaf: learned,
        }
    }

    /// The iteration of the plain UCT baseline: how the original Buff and Green app's AI plays.
    ///
    /// UCB1 with `c = sqrt 2`, every unvisited child tried first (in generation order), no tree
    /// reuse, no solver, a fixed budget of 20,000 iterations a move, and random playouts cut after
    /// 30 plies. Results count on the usual scale (win 1, draw 1/2, loss 0 for the player being
    /// credited) except that a playout cut before the game ended scores 0.01 for *both* sides:
    /// every node on the path gets 0.01, whichever player it belongs to. That is the original's
    /// "almost nothing" for a game that did not end: nearly a loss for everyone, so the baseline
    /// drifts toward lines that end the game quickly, for either side. It exists as an opponent
    /// for matches (`setoption name PlainUct value true`), not as a way to play well.
    pub fn plain() -> Params {
        Params {
            exploration: std::f64::consts::SQRT_2,
            first_play: FirstPlay::Infinite,
            solver: false,
            playout_plies: PLAIN_PLAYOUT_PLIES,
            // 0.01 of a win.
            unfinished: SCALE / 100,
            eval_cut: 0,
            minimax: 0.0,
            learned_leaf: false,
        }
    }

    /// Children get a static evaluation at expansion and minimax values are backed up.
    #[inline]
    pub fn evaluates(&self) -> bool {
        self.minimax > 0.0 || self.first_play == FirstPlay::Evaluation
    }
}

/// Smallest `UCI_Elo`.
pub const MIN_ELO: i64 = 800;
/// Largest `UCI_Elo` (and its default).
pub const MAX_ELO: i64 = 2000;

/// The highest skill level.
pub const MAX_LEVEL: f64 = 20.0;

/// Iterations a move at level 0.
pub const MIN_NODES: f64 = 16.0;
/// Iterations a move at level 20.
pub const MAX_NODES: f64 = 16_384.0;

/// The `UCI_Elo` of skill levels, ascending in both: a value between two points is the level
/// in proportion between them. The points are calibrated by matches (docs/results/).
const ELO_SCALE: [(f64, f64); 2] = [(0.0, MIN_ELO as f64), (MAX_LEVEL, MAX_ELO as f64)];

/// A strength limit: the skill level that `UCI_Elo` asks for, and the search budget it allows.
/// How the weaker move is picked is [`crate::search::choice`]'s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The limit `config` asks for: none at full strength or for the plain baseline.
    pub fn of(config: &SearchConfig) -> Option<Skill> {
        (config.limit_strength && !config.plain_uct).then(|| Skill::from_elo(config.elo))
    }

    /// The skill level of `elo` (clamped to the scale).
    pub fn from_elo(elo: u32) -> Skill {
        let elo = f64::from(elo).clamp(MIN_ELO as f64, MAX_ELO as f64);
        let level = ELO_SCALE
            .windows(2)
            .find(|w| elo <= w[1].1)
            .map_or(MAX_LEVEL, |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
            });
        Skill { level }
    }

    /// The skill level, 0 to 20.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// The most iterations a move may use.
    pub fn nodes(&self) -> u64 {
        let share = self.level / MAX_LEVEL;
        (MIN_NODES * (MAX_NODES / MIN_NODES).powf(share)).round() as u64
    }
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
    /// [`Skill`]); not applied to `go infinite`.
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
                default_nodes: Some(PLAIN_ITERATIONS),
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
    fn the_scale_runs_from_level_0_to_20() {
        let at = |elo: u32| Skill::from_elo(elo);
        assert_eq!(at(MIN_ELO as u32).level(), 0.0);
        assert_eq!(at(0).level(), 0.0);
        assert_eq!(at(MAX_ELO as u32).level(), MAX_LEVEL);
        assert_eq!(at(u32::MAX).level(), MAX_LEVEL);
        assert_eq!(at(MIN_ELO as u32).nodes(), 16);
        assert_eq!(at(MAX_ELO as u32).nodes(), 16_384);
        let mut last = 0;
        for elo in MIN_ELO..=MAX_ELO {
            let n = at(elo as u32).nodes();
            assert!(n >= last, "{elo}");
            last = n;
        }
    }

    #[test]
    fn only_a_limited_engine_has_a_skill() {
        let mut c = SearchConfig::default();
        assert_eq!(Skill::of(&c), None);
        c.limit_strength = true;
        assert_eq!(Skill::of(&c), Some(Skill::from_elo(MAX_ELO as u32)));
        c.plain_uct = true;
        assert_eq!(Skill::of(&c), None);
    }

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
            ("LearnedExploration", OptionValue::Spin(12)),
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
        assert!((c.learned_exploration - 0.12).abs() < 1e-12);
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
        assert_eq!(
            kind("LearnedExploration"),
            Some(OptionKind::Spin {
                default: 25,
                min: 0,
                max: 1000
            })
        );
        assert_eq!(kind("PlainUct"), Some(OptionKind::Check { default: false }));
        assert_eq!(options.len(), 12);
    }

    /// Rules whose leaves a network values explore by `LearnedExploration`, the others by
    /// `Exploration`; the plain baseline keeps its own constant and plays out its leaves.
    #[test]
    fn the_exploration_follows_what_values_the_leaves() {
        let config = SearchConfig {
            exploration: 0.5,
            learned_exploration: 0.2,
            ..SearchConfig::default()
        };
        let losing = Rules {
            losing: true,
            ..Rules::default()
        };
        for (rules, c, learned) in [
            (Rules::ENGLISH, 0.2, true),
            (Rules::BUFF_AND_GREEN, 0.2, true),
            (losing, 0.5, false),
        ] {
            let params = Params::of(&config, &rules);
            assert_eq!(params.exploration, c, "{rules:?}");
            assert_eq!(params.learned_leaf, learned, "{rules:?}");
        }
        let plain = SearchConfig {
            plain_uct: true,
            ..config
        };
        let params = Params::of(&plain, &Rules::ENGLISH);
        assert_eq!(params.exploration, std::f64::consts::SQRT_2);
        assert!(!params.learned_leaf);
    }
}
