//! The rule options of protocol.md as plain data: the two rule switches, the draw rule and
//! the losing variant, with their option names and the PDN `Rules` tag that writes and reads
//! them.

use std::fmt;

use crate::printable;
use crate::variant::Variant;

/// The names of the rule options (protocol.md), as `setoption`, the PDN `Rules` tag and the
/// tables' headers write them.
pub mod option {
    /// Men may capture backward as well as forward.
    pub const BACKWARD_CAPTURE: &str = "BackwardCapture";
    /// Kings fly along empty diagonals and capture from a distance.
    pub const LONG_KINGS: &str = "LongKings";
    /// Half-moves without a capture or a crowning that draw the game (0: never).
    pub const DRAW_HALF_MOVES: &str = "DrawHalfMoves";
    /// The side to move without a legal move wins.
    pub const LOSING: &str = "Losing";
    /// The named rule set (its key: `buffgreen`, `english`, `pool`, `russian`, `brazilian`).
    pub const VARIANT: &str = "Variant";
}

/// When a man that reaches its crowning row during a capture becomes a king.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Crowning {
    /// At the end of the move, if it touched the row on the way (Buff and Green, English:
    /// an English man's capture ends there, since it cannot jump backward).
    Touched,
    /// At once: it continues the capture as a king (Russian).
    AtOnce,
    /// Only if the move ends on the row; a man that jumps on, away from it, stays a man (Pool,
    /// Brazilian).
    AtEnd,
}

/// The draw rules a rule set is played under, beside `DrawHalfMoves` (which every rule set
/// keeps as a cap on the game's length). The engine's game state and search count them (the
/// engine library's `DrawCount`); docs/rules-8x8.md words them and says how each count runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawRules {
    /// `DrawHalfMoves` alone (Buff and Green, English).
    HalfMoves,
    /// The Russian federation's rules 7.2.3-7.2.8 as lidraughts enforces them, which
    /// lidraughts also applies to Brazilian: threefold repetition; 15 moves of kings only
    /// without capture; three or more kings against a lone king, 15 moves; kings on both sides
    /// with the balance unchanged, 30 moves in 4 and 5 piece endings, 60 in 6 and 7 piece
    /// ones; a lone king on the long diagonal against three pieces with a king, 5 moves; a
    /// lone king against one or two pieces with a king, 5 moves.
    Russian,
    /// The American Pool Checker Association's: three kings against a lone king must win
    /// within their 13th move (counted from when the forces stand so); threefold repetition.
    Pool,
}

/// The rule set a game is played under. The default is Buff and Green checkers; both switches
/// off gives the move rules of English/American checkers. Which named rule set the rules
/// make is [`Rules::variant`]: every value the options can make is a row of the table.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Rules {
    /// Men may capture backward as well as forward (`BackwardCapture`).
    pub backward_capture: bool,
    /// Kings fly along empty diagonals and capture from a distance (`LongKings`).
    pub long_kings: bool,
    /// Half-moves without capture or promotion after which the game is drawn; 0 turns the
    /// rule off (`DrawHalfMoves`).
    pub draw_half_moves: u32,
    /// Losing (misere, "reverse") checkers: the side to move that has no legal move WINS;
    /// moves, captures and the draw rule are unchanged (`Losing`).
    pub losing: bool,
    /// Captured pieces leave the board at the end of the move, not at once: a piece cannot be
    /// jumped twice and blocks until then, and a flying king lands on any empty square beyond
    /// the piece it takes (Pool, Russian, Brazilian). Set by `Variant` alone.
    pub remove_at_end: bool,
    /// When a man crowned during a capture becomes a king. Set by `Variant` alone.
    pub crowning: Crowning,
    /// The capture that takes the most pieces is compulsory (Brazilian). Set by `Variant`
    /// alone.
    pub majority: bool,
    /// White moves first from the start position (Russian, Brazilian). Set by `Variant` alone.
    pub white_first: bool,
    /// The draw rules beside `DrawHalfMoves`. Set by `Variant` alone.
    pub draws: DrawRules,
}

impl Rules {
    /// Buff and Green defaults: backward captures, flying kings, draw after 80 half-moves.
    pub const BUFF_AND_GREEN: Rules = Variant::BuffGreen.rules();

    /// English/American checkers move rules (both switches off), with the same draw rule.
    pub const ENGLISH: Rules = Variant::English.rules();

    /// The four settings of the two switches (with the default draw rule), in the table's
    /// order: Buff and Green, short kings (backward captures only), long kings only, and
    /// English.
    pub const ALL: [Rules; 4] = [
        Variant::BuffGreen.rules(),
        Variant::ShortKings.rules(),
        Variant::ForwardCapture.rules(),
        Variant::English.rules(),
    ];

    /// The named rule set whose move rules these are (the draw rule and `losing` aside).
    #[inline]
    pub fn variant(&self) -> Variant {
        Variant::of_rules(self)
    }

    /// These rules with the move rules of `variant`, `DrawHalfMoves` and `losing` kept.
    pub const fn with_variant(self, variant: Variant) -> Rules {
        let named = variant.rules();
        Rules {
            draw_half_moves: self.draw_half_moves,
            losing: self.losing,
            ..named
        }
    }

    /// These rules with one of the two switches set (`BackwardCapture`, `LongKings`): the
    /// switches name the four Buff and Green settings, so a switch set on a rule set of the
    /// 8x8 family (Pool, Russian, Brazilian) makes the Buff and Green setting with the other
    /// switch as it was. `DrawHalfMoves` and `losing` are kept.
    pub const fn with_switches(self, backward_capture: bool, long_kings: bool) -> Rules {
        if backward_capture == self.backward_capture && long_kings == self.long_kings {
            // A switch set to the value it has changes nothing, in the family too.
            return self;
        }
        self.with_variant(Variant::of_switches(backward_capture, long_kings))
    }

    /// The winner when the side to move, `stuck`, has no legal move: the other side, or under
    /// `losing` the stuck side itself.
    #[inline]
    pub fn winner_when_stuck<C: std::ops::Not<Output = C>>(&self, stuck: C) -> C {
        if self.losing {
            stuck
        } else {
            !stuck
        }
    }

    /// Every rule option with its value, in the order protocol.md lists them.
    pub fn options(&self) -> [(&'static str, String); 4] {
        [
            (option::BACKWARD_CAPTURE, self.backward_capture.to_string()),
            (option::LONG_KINGS, self.long_kings.to_string()),
            (option::DRAW_HALF_MOVES, self.draw_half_moves.to_string()),
            (option::LOSING, self.losing.to_string()),
        ]
    }

    /// The rule options as the PDN `Rules` tag and the match runner name them: every one but
    /// `Losing`, which only when on, and `Variant` first for the rule sets the two switches
    /// do not name (the 8x8 family), so that the four switch settings' games ask nothing new
    /// of other engines and readers.
    pub fn tag_options(&self) -> Vec<(&'static str, String)> {
        let mut o = Vec::with_capacity(5);
        let variant = self.variant();
        if !variant.switches_name_it() {
            o.push((option::VARIANT, variant.key().to_string()));
        }
        o.extend(self.options());
        if !self.losing {
            o.retain(|(name, _)| *name != option::LOSING);
        }
        o
    }

    /// These rules changed by the fields of a PDN `Rules` tag (`Variant=russian
    /// BackwardCapture=true LongKings=false DrawHalfMoves=80 Losing=false`, any of them,
    /// applied in order: a switch changes the rule set as [`Rules::with_switches`] says). The error
    /// is the field that is not one of them, or whose value does not read.
    pub fn with_tag(mut self, tag: &str) -> Result<Rules, RulesTagError> {
        for field in tag.split_whitespace() {
            let bad = || RulesTagError::Value(field.to_string());
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| RulesTagError::Field(field.to_string()))?;
            let flag = || match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(bad()),
            };
            match key {
                option::BACKWARD_CAPTURE => {
                    self = self.with_switches(flag()?, self.long_kings);
                }
                option::LONG_KINGS => self = self.with_switches(self.backward_capture, flag()?),
                option::VARIANT => {
                    let variant = Variant::from_key(value).ok_or_else(bad)?;
                    self = self.with_variant(variant);
                }
                option::LOSING => self.losing = flag()?,
                option::DRAW_HALF_MOVES => {
                    self.draw_half_moves = value.parse().map_err(|_| bad())?
                }
                _ => return Err(RulesTagError::Unknown(field.to_string())),
            }
        }
        Ok(self)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::BUFF_AND_GREEN
    }
}

/// `BackwardCapture=true LongKings=true DrawHalfMoves=80`, then ` Losing=true` under the
/// losing variant: the option names and values, as PDN's `Rules` tag and table headers show
/// them.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.tag_options().iter().enumerate() {
            let gap = if i == 0 { "" } else { " " };
            write!(f, "{gap}{name}={value}")?;
        }
        Ok(())
    }
}

/// Why a PDN `Rules` tag does not read: the field, quoted with its control characters escaped
/// (the message stays one printable line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesTagError {
    /// A field that is not `name=value`.
    #[error("bad Rules field '{}'", printable(.0))]
    Field(String),
    /// A known field whose value does not read.
    #[error("bad Rules value '{}'", printable(.0))]
    Value(String),
    /// A field of another name.
    #[error("unknown Rules field '{}'", printable(.0))]
    Unknown(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_back() {
        assert_eq!(Rules::default(), Rules::BUFF_AND_GREEN);
        assert_eq!(
            Rules::BUFF_AND_GREEN.to_string(),
            "BackwardCapture=true LongKings=true DrawHalfMoves=80"
        );
        let losing = Rules {
            losing: true,
            long_kings: false,
            draw_half_moves: 0,
            ..Rules::BUFF_AND_GREEN
        };
        let tag = losing.to_string();
        assert_eq!(
            tag,
            "BackwardCapture=true LongKings=false DrawHalfMoves=0 Losing=true"
        );
        assert_eq!(Rules::ENGLISH.with_tag(&tag), Ok(losing));
        assert_eq!(
            Rules::ENGLISH.with_tag("LongKings=maybe"),
            Err(RulesTagError::Value("LongKings=maybe".into()))
        );
        assert_eq!(
            Rules::ENGLISH.with_tag("Kings").unwrap_err().to_string(),
            "bad Rules field 'Kings'"
        );
        assert_eq!(
            Rules::ENGLISH.with_tag("Kings=1").unwrap_err().to_string(),
            "unknown Rules field 'Kings=1'"
        );
    }

    #[test]
    fn the_family_is_named_in_the_tag_and_the_switches_leave_it() {
        let russian = Variant::Russian.rules();
        assert_eq!(
            russian.to_string(),
            "Variant=russian BackwardCapture=true LongKings=true DrawHalfMoves=80"
        );
        assert_eq!(Rules::ENGLISH.with_tag(&russian.to_string()), Ok(russian));
        assert_eq!(russian.with_switches(true, true), russian);
        assert_eq!(russian.with_switches(true, false), Rules::ALL[1]);
        assert_eq!(
            Rules::ENGLISH
                .with_tag("Variant=checkers")
                .unwrap_err()
                .to_string(),
            "bad Rules value 'Variant=checkers'"
        );
    }

    #[test]
    fn the_stuck_side_loses_unless_losing() {
        let losing = Rules {
            losing: true,
            ..Rules::ENGLISH
        };
        assert!(!Rules::ENGLISH.winner_when_stuck(true));
        assert!(losing.winner_when_stuck(true));
    }
}
