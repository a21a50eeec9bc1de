//! The rule switches, the draw rule and the losing variant.

/// The rule set a game is played under. The default is Buff and Green checkers; both switches
/// off gives the move rules of English/American checkers.
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
}

impl Rules {
    /// Buff and Green defaults: backward captures, flying kings, draw after 80 half-moves.
    pub const BUFF_AND_GREEN: Rules = Rules {
        backward_capture: true,
        long_kings: true,
        draw_half_moves: 80,
        losing: false,
    };

    /// English/American checkers move rules (both switches off), with the same draw rule.
    pub const ENGLISH: Rules = Rules {
        backward_capture: false,
        long_kings: false,
        draw_half_moves: 80,
        losing: false,
    };

    /// The four settings of the two switches (with the default draw rule): Buff and Green,
    /// short kings (backward captures only), long kings only, and English.
    pub const ALL: [Rules; 4] = [
        Rules::BUFF_AND_GREEN,
        Rules {
            long_kings: false,
            ..Rules::BUFF_AND_GREEN
        },
        Rules {
            backward_capture: false,
            ..Rules::BUFF_AND_GREEN
        },
        Rules::ENGLISH,
    ];
}

impl Rules {
    /// The winner when the side to move, `stuck`, has no legal move: the other side, or under
    /// `losing` the stuck side itself.
    #[inline]
    pub fn winner_when_stuck(&self, stuck: crate::types::Color) -> crate::types::Color {
        if self.losing {
            stuck
        } else {
            !stuck
        }
    }
}

/// `BackwardCapture=true LongKings=true DrawHalfMoves=80`, then ` Losing=true` under the
/// losing variant: the option names and values, as PDN's `Rules` tag and table headers show
/// them.
impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BackwardCapture={} LongKings={} DrawHalfMoves={}",
            self.backward_capture, self.long_kings, self.draw_half_moves
        )?;
        if self.losing {
            write!(f, " Losing=true")?;
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::BUFF_AND_GREEN
    }
}
