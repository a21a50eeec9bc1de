//! The rule switches, the draw rule and the losing variant: the rules crate's [`Rules`] (plain
//! data with its option names and PDN tag) and [`Variant`] (the one table that names each rule
//! set), which the protocol client shares.
//!
//! The rules are played by four rule engines, which must change together when a rule changes
//! (a new switch, a new variant's capture or crowning rule): the move generator
//! ([`super::movegen`], with the 8x8 family's captures in `family`), perft's count on raw bitboards ([`super::count`]), the tests'
//! independent reference generator (`testkit`'s `reference`), and the tables' un-moves
//! (`tablebase`'s `unmove`, the predecessors the tables are built backward through). The
//! tests hold them to each other (perft against the reference, random positions' move lists,
//! the un-moves against the moves); a rule that only one of them learns fails them.

pub use buffgreen_rules::{option, Crowning, DrawRules, HubBoard, Rules, Variant, WeightSet};
