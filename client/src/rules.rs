//! The rule set of a game as a protocol client holds it: the rules crate's [`Rules`] (the four
//! rule options of protocol.md as plain data, with the PDN `Rules` tag) and [`Variant`] (the
//! table that names each rule set: PDN `GameType` and `Variant` tags, Hub names), the same
//! values the engine library generates moves by; this module adds the `setoption` lines that
//! send them to an engine.

pub use buffgreen_rules::{Rules, RulesTagError, Variant};

/// The `setoption` lines that set `rules` in an engine: every rule option, `Losing` too, so
/// that an engine that played losing checkers before plays normal checkers again.
pub fn setoptions(rules: &Rules) -> Vec<String> {
    rules
        .options()
        .iter()
        .map(|(name, value)| format!("setoption name {name} value {value}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_option_is_sent() {
        assert_eq!(
            setoptions(&Rules::ENGLISH),
            [
                "setoption name BackwardCapture value false",
                "setoption name LongKings value false",
                "setoption name DrawHalfMoves value 80",
                "setoption name Losing value false",
            ]
        );
    }
}
