//! The rule sets of the buffgreen engine, named once: the rule options as plain data
//! ([`Rules`]) and the one table that names each rule set ([`Variant`]: its words, its PDN
//! `GameType`, its Hub name, its tables folder, its opening deck, its book and which
//! evaluation it plays with).
//!
//! Why a crate of its own: the engine library generates moves by these rules, and the
//! protocol client (`buffgreen-client`, shared by the match runner and the front ends) names
//! them in PDN and `setoption` lines, but the client must not link the engine library. Putting
//! the table in the client and making the engine depend on it would make the engine depend on
//! its own client (process handling, PDN reading); a crate with no code of ours below it,
//! which both depend on, keeps every arrow pointing down.
//!
//! A new rule set (issue 61's Russian, Brazilian and Pool checkers) is one more [`Variant`]
//! and its row in the table (`variant.rs`); the rules themselves live in the engine library's
//! rule engines, which its `board` module's docs list.
//!
//! Layout: [`rules`] holds the rule options (the switches, the draw rule, the losing variant,
//! the 8x8 family's capture, crowning, first-move and draw rules),
//! their option names and the PDN `Rules` tag; [`variant`] is the table of rule sets and their
//! names.

pub mod rules;
pub mod variant;

pub use rules::{option, Crowning, DrawRules, Rules, RulesTagError};
pub use variant::{HubBoard, Notation, Variant, WeightSet};

/// `text` with control characters escaped (`\n`, `\u{0}`), so that an error quoting user
/// input, an engine or a file stays one printable line.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(super::printable("a\nb\u{0}c é"), "a\\nb\\u{0}c é");
    }
}
