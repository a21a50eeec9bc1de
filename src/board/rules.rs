//! The rule switches.

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
}

impl Rules {
    /// Buff and Green defaults: backward captures, flying kings, draw after 80 half-moves.
    pub const BUFF_AND_GREEN: Rules = Rules {
        backward_capture: true,
        long_kings: true,
        draw_half_moves: 80,
    };

    /// English/American checkers move rules (both switches off), with the same draw rule.
    pub const ENGLISH: Rules = Rules {
        backward_capture: false,
        long_kings: false,
        draw_half_moves: 80,
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

impl Default for Rules {
    fn default() -> Rules {
        Rules::BUFF_AND_GREEN
    }
}
