//! Command-line flags shared by every subcommand that needs the rules (`perft`, `bench`,
//! `match`, and any later one): flatten [`RuleFlags`] (or [`GameRuleFlags`] where games are
//! played, which adds the draw rule) into the subcommand's arguments with
//! `#[command(flatten)]`, and read the result with `rules()`.

use clap::{ArgAction, Args};

use crate::board::{Rules, Variant};

/// The rule set by name, the two rule switches and the `--english` shorthand.
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleFlags {
    /// The rule set by its key (option Variant): buffgreen, english, pool, russian, brazilian;
    /// the switches then apply on top of it as the option's do.
    #[arg(long, value_name = "KEY", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// English checkers: shorthand for --backward-capture false --long-kings false.
    #[arg(long)]
    pub english: bool,
    /// Men capture backward (option BackwardCapture).
    /// Default: the rule set's (true but for English).
    #[arg(long, value_name = "BOOL", action = ArgAction::Set)]
    pub backward_capture: Option<bool>,
    /// Kings fly (option LongKings).
    /// Default: the rule set's (true but for English).
    #[arg(long, value_name = "BOOL", action = ArgAction::Set)]
    pub long_kings: Option<bool>,
}

impl RuleFlags {
    /// The rules these flags give (with the default draw rule).
    pub fn rules(&self) -> Rules {
        let named = self.variant.unwrap_or_default().rules();
        let switches = named.with_switches(
            self.backward_capture.unwrap_or(named.backward_capture),
            self.long_kings.unwrap_or(named.long_kings),
        );
        if self.english {
            switches.with_variant(Variant::English)
        } else {
            switches
        }
    }
}

/// A `--variant` value: one of the `Variant` option's keys.
fn parse_variant(key: &str) -> Result<Variant, String> {
    Variant::from_key(key)
        .filter(|v| Variant::OPTION_KEYS.contains(&v.key()))
        .ok_or_else(|| format!("expected one of {}", Variant::OPTION_KEYS.join(", ")))
}

/// [`RuleFlags`] plus the draw rule, for subcommands that play games.
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRuleFlags {
    /// The rule switches.
    #[command(flatten)]
    pub switches: RuleFlags,
    /// Half-moves without capture or crowning that draw; 0 = never (option DrawHalfMoves).
    #[arg(long, value_name = "N", default_value_t = Rules::BUFF_AND_GREEN.draw_half_moves)]
    pub draw_half_moves: u32,
    /// Losing checkers: the side with no legal move wins (option Losing).
    #[arg(long)]
    pub losing: bool,
}

impl GameRuleFlags {
    /// The rules these flags give.
    pub fn rules(&self) -> Rules {
        Rules {
            draw_half_moves: self.draw_half_moves,
            losing: self.losing,
            ..self.switches.rules()
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        rules: GameRuleFlags,
    }

    fn rules(args: &[&str]) -> Rules {
        let args = std::iter::once("x").chain(args.iter().copied());
        Cli::try_parse_from(args).unwrap().rules.rules()
    }

    #[test]
    fn flags_give_every_setting_of_the_rules() {
        assert_eq!(rules(&[]), Rules::BUFF_AND_GREEN);
        assert_eq!(rules(&["--english"]), Rules::ENGLISH);
        assert_eq!(
            rules(&["--backward-capture", "false", "--long-kings", "false"]),
            Rules::ENGLISH
        );
        assert_eq!(
            rules(&["--long-kings", "false", "--draw-half-moves", "0"]),
            Rules {
                long_kings: false,
                draw_half_moves: 0,
                ..Rules::BUFF_AND_GREEN
            }
        );
        assert_eq!(
            rules(&["--english", "--losing"]),
            Rules {
                losing: true,
                ..Rules::ENGLISH
            }
        );
    }
}
