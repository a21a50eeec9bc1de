//! The rule set of a game as a protocol client holds it: the rules crate's [`Rules`] (the four
//! rule options of protocol.md as plain data, with the PDN `Rules` tag) and [`Variant`] (the
//! table that names each rule set: PDN `GameType` and `Variant` tags, Hub names), the same
//! values the engine library generates moves by; this module adds the `setoption` lines that
//! send them to an engine.

pub use buffgreen_rules::{option, Notation, Rules, RulesTagError, Variant};

/// The `setoption` lines that set `rules` in an engine: `Variant` first for a rule set the two
/// switches do not name (the 8x8 family), then every rule option, `Losing` too, so that an
/// engine that played losing checkers before plays normal checkers again. The four switch
/// settings' lines ask nothing new of engines that have no `Variant` option.
pub fn setoptions(rules: &Rules) -> Vec<String> {
    let variant = rules.variant();
    let named = (!variant.switches_name_it()).then_some(variant);
    lines(named, rules)
}

/// As [`setoptions`], for an engine that announced the `Variant` option: `Variant` always
/// comes first, so that an engine that played a family rule set before leaves it (its
/// switches alone would change nothing there). A rule set the option has no key for is sent
/// as the default rule set, which the switches then turn into it.
pub fn setoptions_with_variant(rules: &Rules) -> Vec<String> {
    let variant = rules.variant();
    let named = if Variant::OPTION_KEYS.contains(&variant.key()) {
        variant
    } else {
        Variant::default()
    };
    lines(Some(named), rules)
}

fn lines(variant: Option<Variant>, rules: &Rules) -> Vec<String> {
    let named = variant.map(|v| format!("setoption name {} value {}", option::VARIANT, v.key()));
    named
        .into_iter()
        .chain(
            rules
                .options()
                .iter()
                .map(|(name, value)| format!("setoption name {name} value {value}")),
        )
        .collect()
}

/// The canonical FEN of the start position under `rules`: [`crate::START_FEN`]'s pieces, with
/// the side the rule set says moves first.
pub fn start_fen(rules: &Rules) -> String {
    match crate::START_FEN.strip_prefix('B') {
        Some(rest) if rules.white_first => format!("W{rest}"),
        _ => crate::START_FEN.to_string(),
    }
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

    #[test]
    fn the_family_is_named_by_the_variant_option() {
        let russian = Variant::Russian.rules();
        assert_eq!(
            setoptions(&russian),
            [
                "setoption name Variant value russian",
                "setoption name BackwardCapture value true",
                "setoption name LongKings value true",
                "setoption name DrawHalfMoves value 80",
                "setoption name Losing value false",
            ]
        );
        assert_eq!(setoptions_with_variant(&russian), setoptions(&russian));
        let short = Variant::ShortKings.rules();
        assert_eq!(
            setoptions_with_variant(&short)[..3],
            [
                "setoption name Variant value buffgreen",
                "setoption name BackwardCapture value true",
                "setoption name LongKings value false",
            ]
        );
        assert_eq!(
            start_fen(&russian),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(start_fen(&Rules::ENGLISH), crate::START_FEN);
    }
}
