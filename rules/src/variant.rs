//! The one table of rule sets: each [`Variant`] with its move rules and every name the
//! programs give it. Everything that asks "which rule set is this" (the Hub `variant`
//! parameter, PDN's `GameType` and `Variant` tags, the tables' folder, the opening deck, the
//! built-in book, the evaluation's weights and network, the suite files' `rules` field, the
//! front ends' new-game dialog) reads it here; adding a rule set is adding its row.
//!
//! `losing` is not a rule set of its own: it turns any of them into its losing form, and the
//! names say so where they must (the tables' folder gets `-losing`; no book, deck or network
//! is made for it).

use crate::rules::{Crowning, DrawRules, Rules};

/// A named rule set: a setting of the move rules. The draw rule and `losing` are options on
/// top of any of them ([`Rules`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Buff and Green checkers: men capture backward too, kings fly. The engine's default.
    #[default]
    BuffGreen,
    /// Buff and Green with short kings: men capture backward, kings move one square.
    ShortKings,
    /// Buff and Green with men capturing forward only: kings fly.
    ForwardCapture,
    /// English/American checkers: men capture forward only, kings move one square.
    English,
    /// American Pool checkers: Buff and Green's moves, captured pieces removed at the end of
    /// the move, a man crowned only where its move ends.
    Pool,
    /// Russian draughts (shashki): as Pool, but a man crowned during a capture continues it
    /// as a king; White moves first.
    Russian,
    /// Brazilian draughts, the international rules on 8x8: as Pool, but the capture taking
    /// the most pieces is compulsory; White moves first.
    Brazilian,
}

/// The evaluation's fitted weight set a rule set plays with (the engine library holds the
/// numbers): the kings' reach decides which one fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightSet {
    /// Fitted under short kings (English checkers).
    ShortKings,
    /// Fitted under flying kings (Buff and Green).
    LongKings,
}

/// How pydraughts' Hub client (`HubEngine`, which lidraughts-bot drives engines through) writes a
/// rule set's `pos=` strings and moves, against buffgreen's numbering (squares 1-32 from Black's
/// side, White's men starting on 21-32). pydraughts numbers each of its variants its own way;
/// the table says which way once for every rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HubBoard {
    /// As pydraughts writes English checkers (and Buff and Green, played on that board): the
    /// position turned 180 degrees with the colours swapped (its square `n` is square `33 - n`,
    /// its `w` pieces Black's, `W` to move Black to move); moves in buffgreen's numbering.
    Turned,
    /// As pydraughts writes Russian and Brazilian draughts: the position in buffgreen's
    /// numbering, colours as written (`W` to move is White to move); moves numbered from
    /// White's side, row by row from a1 (square 1 is a1, 32 is h8), so the rows come in the
    /// reverse order: square `4r + k + 1` is buffgreen's `4(7 - r) + k + 1`.
    RowsReversed,
}

/// How a rule set's players write squares and moves, and so how the front ends show them: the
/// convention of the site or federation that plays it (docs/gui.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Squares 1-32 from Black's side, `-` for a move and `x` for a capture (`11-15`,
    /// `9x18x27`): English checkers' convention, which Buff and Green and Pool share.
    Numeric,
    /// Squares a1-h8, White's side at the bottom, `-` for a move and `:` between the landings
    /// of a capture (`c3-d4`, `c3:e5:g3`), as lidraughts shows Russian and Brazilian games.
    Algebraic,
}

impl Notation {
    /// `numeric` or `algebraic`: the engine's `Notation` option value that writes it, and the
    /// word the browser page reads.
    pub fn key(self) -> &'static str {
        match self {
            Notation::Numeric => "numeric",
            Notation::Algebraic => "algebraic",
        }
    }

    /// What separates the squares of a capture.
    pub fn capture_separator(self) -> char {
        match self {
            Notation::Numeric => 'x',
            Notation::Algebraic => ':',
        }
    }
}

/// One row of the table.
struct Row {
    variant: Variant,
    backward_capture: bool,
    long_kings: bool,
    remove_at_end: bool,
    crowning: Crowning,
    majority: bool,
    white_first: bool,
    draws: DrawRules,
    key: &'static str,
    hub: bool,
    hub_board: HubBoard,
    notation: Notation,
    name: &'static str,
    game_type: &'static str,
    tables: &'static str,
    suite: Option<&'static str>,
    deck: Option<&'static str>,
    book: Option<&'static str>,
    weights: WeightSet,
    network: Option<&'static str>,
    ending_network: Option<&'static str>,
}

/// The `GameType` written for every rule set PDN has no number for: the first number PDN 3.0
/// leaves free for new draughts games, then the board as English checkers has it (Black
/// first, 8x8, numbers from the top-left corner). Not `23` (American pool checkers), which
/// py-draughts writes for its American checkers, that is English checkers: a reader could not
/// tell the two apart.
const GAME_TYPE_OTHER: &str = "32,B,8,8,N1,0";

/// Every rule set, in the order [`Rules::ALL`] and the front ends list them.
const TABLE: [Row; 7] = [
    Row {
        variant: Variant::BuffGreen,
        backward_capture: true,
        long_kings: true,
        remove_at_end: false,
        crowning: Crowning::Touched,
        majority: false,
        white_first: false,
        draws: DrawRules::HalfMoves,
        key: "buffgreen",
        hub: true,
        hub_board: HubBoard::Turned,
        notation: Notation::Numeric,
        name: "Buff and Green checkers",
        game_type: GAME_TYPE_OTHER,
        tables: "buff-and-green",
        suite: Some("default"),
        deck: Some("openings/buffgreen-balanced.tsv"),
        book: Some("books/buffgreen.book"),
        weights: WeightSet::LongKings,
        network: Some("buffgreen.bgnn"),
        ending_network: None,
    },
    Row {
        variant: Variant::ShortKings,
        backward_capture: true,
        long_kings: false,
        remove_at_end: false,
        crowning: Crowning::Touched,
        majority: false,
        white_first: false,
        draws: DrawRules::HalfMoves,
        key: "shortkings",
        hub: false,
        hub_board: HubBoard::Turned,
        notation: Notation::Numeric,
        name: "Buff and Green checkers, short kings",
        game_type: GAME_TYPE_OTHER,
        tables: "backward-capture",
        suite: None,
        deck: Some("openings/buffgreen-balanced.tsv"),
        book: None,
        weights: WeightSet::ShortKings,
        network: None,
        ending_network: None,
    },
    Row {
        variant: Variant::ForwardCapture,
        backward_capture: false,
        long_kings: true,
        remove_at_end: false,
        crowning: Crowning::Touched,
        majority: false,
        white_first: false,
        draws: DrawRules::HalfMoves,
        key: "forwardcapture",
        hub: false,
        hub_board: HubBoard::Turned,
        notation: Notation::Numeric,
        name: "Buff and Green checkers, men capture forward only",
        game_type: GAME_TYPE_OTHER,
        tables: "long-kings",
        suite: None,
        deck: Some("openings/buffgreen-balanced.tsv"),
        book: None,
        weights: WeightSet::LongKings,
        network: None,
        ending_network: None,
    },
    Row {
        variant: Variant::English,
        backward_capture: false,
        long_kings: false,
        remove_at_end: false,
        crowning: Crowning::Touched,
        majority: false,
        white_first: false,
        draws: DrawRules::HalfMoves,
        key: "english",
        hub: true,
        hub_board: HubBoard::Turned,
        notation: Notation::Numeric,
        name: "English checkers",
        game_type: "21",
        tables: "english",
        suite: Some("english"),
        deck: Some("openings/3move.tsv"),
        book: Some("books/english.book"),
        weights: WeightSet::ShortKings,
        network: Some("english.bgnn"),
        ending_network: Some("english-ending.bgnn"),
    },
    // The family has no book yet, and Pool no tables (issue 61). Pool, where Black moves
    // first, plays Buff and Green's deck; Russian and Brazilian, where White moves first and
    // Buff and Green's lines (Black's first moves) do not fit, each have a deck of their own,
    // made as Buff and Green's was by the engine's search under their rules, since their
    // captures and crowning make other openings level. Each has a network fitted on its own
    // games.
    Row {
        variant: Variant::Pool,
        backward_capture: true,
        long_kings: true,
        remove_at_end: true,
        crowning: Crowning::AtEnd,
        majority: false,
        white_first: false,
        draws: DrawRules::Pool,
        key: "pool",
        // No Hub client plays Pool (pydraughts and lidraughts have no such variant), so no
        // client defines how its positions and moves would be written, nor referees them; the
        // `Variant` option of the main protocol plays it.
        hub: false,
        hub_board: HubBoard::Turned,
        notation: Notation::Numeric,
        name: "American Pool checkers",
        game_type: GAME_TYPE_OTHER,
        tables: "pool",
        suite: None,
        deck: Some("openings/buffgreen-balanced.tsv"),
        book: None,
        weights: WeightSet::LongKings,
        network: Some("pool.bgnn"),
        ending_network: None,
    },
    Row {
        variant: Variant::Russian,
        backward_capture: true,
        long_kings: true,
        remove_at_end: true,
        crowning: Crowning::AtOnce,
        majority: false,
        white_first: true,
        draws: DrawRules::Russian,
        key: "russian",
        hub: true,
        hub_board: HubBoard::RowsReversed,
        notation: Notation::Algebraic,
        name: "Russian draughts",
        game_type: "25",
        tables: "russian",
        suite: None,
        deck: Some("openings/russian-balanced.tsv"),
        book: None,
        weights: WeightSet::LongKings,
        network: Some("russian.bgnn"),
        ending_network: None,
    },
    Row {
        variant: Variant::Brazilian,
        backward_capture: true,
        long_kings: true,
        remove_at_end: true,
        crowning: Crowning::AtEnd,
        majority: true,
        white_first: true,
        draws: DrawRules::Russian,
        key: "brazilian",
        hub: true,
        hub_board: HubBoard::RowsReversed,
        notation: Notation::Algebraic,
        name: "Brazilian draughts",
        game_type: "26",
        tables: "brazilian",
        suite: None,
        deck: Some("openings/brazilian-balanced.tsv"),
        book: None,
        weights: WeightSet::LongKings,
        network: Some("brazilian.bgnn"),
        ending_network: None,
    },
];

/// How many rule sets the `Variant` option names ([`Variant::OPTION_KEYS`]).
const OPTION_COUNT: usize = {
    let (mut i, mut n) = (0, 0);
    while i < TABLE.len() {
        if TABLE[i].hub || TABLE[i].remove_at_end {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The number of a `GameType` value: what comes before its first comma.
fn game_type_number(game_type: &str) -> &str {
    game_type.split(',').next().unwrap_or("").trim()
}

impl Variant {
    /// Every rule set, in the table's order.
    pub const ALL: [Variant; TABLE.len()] = {
        let mut all = [Variant::BuffGreen; TABLE.len()];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].variant;
            i += 1;
        }
        all
    };

    /// The values of the `Variant` option, in the table's order: the rule sets the two
    /// switches do not name, and those the Hub offers (the switches name the other two).
    pub const OPTION_KEYS: [&'static str; OPTION_COUNT] = {
        let mut keys = [""; OPTION_COUNT];
        let (mut i, mut k) = (0, 0);
        while i < TABLE.len() {
            if TABLE[i].hub || TABLE[i].remove_at_end {
                keys[k] = TABLE[i].key;
                k += 1;
            }
            i += 1;
        }
        keys
    };

    /// This rule set's row. The table lists the variants in their declaration order (a test
    /// checks it), so the row is found by index.
    #[inline]
    const fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// The rule set of a setting of the two switches: one of the first four rows (the 8x8
    /// family shares Buff and Green's switches and is named by the `Variant` option).
    #[inline]
    pub const fn of_switches(backward_capture: bool, long_kings: bool) -> Variant {
        let mut i = 0;
        while i < TABLE.len() {
            let row = &TABLE[i];
            if row.backward_capture == backward_capture
                && row.long_kings == long_kings
                && !row.remove_at_end
            {
                return row.variant;
            }
            i += 1;
        }
        Variant::BuffGreen
    }

    /// The rule set whose move rules `rules` are (the draw half-moves and `losing` aside):
    /// the row whose rules they are, or the switches' row for a mix no row has (only a
    /// hand-made value can be one: the options make rows).
    pub fn of_rules(rules: &Rules) -> Variant {
        TABLE
            .iter()
            .find(|r| rules.with_variant(r.variant) == *rules)
            .map_or(
                Variant::of_switches(rules.backward_capture, rules.long_kings),
                |r| r.variant,
            )
    }

    /// Whether the two switches alone name this rule set (the first four rows), so that the
    /// PDN `Rules` tag and `setoption` need no `Variant` for it.
    pub const fn switches_name_it(self) -> bool {
        !self.row().remove_at_end
    }

    /// This rule set's move rules, with the default draw rule (80 half-moves), not losing.
    pub const fn rules(self) -> Rules {
        let row = self.row();
        Rules {
            backward_capture: row.backward_capture,
            long_kings: row.long_kings,
            draw_half_moves: 80,
            losing: false,
            remove_at_end: row.remove_at_end,
            crowning: row.crowning,
            majority: row.majority,
            white_first: row.white_first,
            draws: row.draws,
        }
    }

    /// The one-word name: the Hub `variant` value (`buffgreen`, `english`, `russian`), the
    /// `Variant` option's value and the front ends' choice.
    pub fn key(self) -> &'static str {
        self.row().key
    }

    /// The rule set a one-word name names (case-insensitive).
    pub fn from_key(key: &str) -> Option<Variant> {
        TABLE
            .iter()
            .find(|r| r.key.eq_ignore_ascii_case(key))
            .map(|r| r.variant)
    }

    /// Whether the Hub dialect offers this rule set as a `variant` value (its key, the word
    /// pydraughts and lidraughts-bot send: `english`, `russian`, `brazilian`).
    pub fn on_hub(self) -> bool {
        self.row().hub
    }

    /// How pydraughts' Hub client writes this rule set's positions and moves (the Hub's
    /// `pos-encoding` `pydraughts`).
    pub fn hub_board(self) -> HubBoard {
        self.row().hub_board
    }

    /// How this rule set's players write moves, and so how the front ends show them.
    pub fn notation(self) -> Notation {
        self.row().notation
    }

    /// The rules in words, as the PDN `Variant` tag and the front ends name them.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The PDN `GameType` tag: `21` for English checkers, `25` Russian, `26` Brazilian (PDN
    /// 3.0's numbers, as lidraughts writes them), `32,B,8,8,N1,0` for the rule sets PDN has
    /// no number for, and for Pool (its `23` is what py-draughts writes for English checkers;
    /// the `Rules` tag's `Variant` names Pool).
    pub fn game_type(self) -> &'static str {
        self.row().game_type
    }

    /// The rule set a PDN `GameType` tag names (the number before the first comma decides):
    /// the first in the table with that number, Buff and Green for a number none has.
    pub fn of_game_type(game_type: &str) -> Variant {
        let number = game_type_number(game_type);
        TABLE
            .iter()
            .find(|r| game_type_number(r.game_type) == number)
            .map_or(Variant::BuffGreen, |r| r.variant)
    }

    /// The tables' sub-folder stem: `buff-and-green`, `english`, `backward-capture`,
    /// `long-kings` (the tables' home adds the draw rule and `-losing`).
    pub fn tables_folder(self) -> &'static str {
        self.row().tables
    }

    /// The word a suite file's `rules` field names this rule set with (`default`,
    /// `english`), if it has one.
    pub fn suite_name(self) -> Option<&'static str> {
        self.row().suite
    }

    /// The rule set a suite file's `rules` word names.
    pub fn from_suite_name(word: &str) -> Option<Variant> {
        TABLE
            .iter()
            .find(|r| r.suite == Some(word))
            .map(|r| r.variant)
    }

    /// The words a suite file's `rules` field takes, in the table's order.
    pub fn suite_names() -> Vec<&'static str> {
        TABLE.iter().filter_map(|r| r.suite).collect()
    }

    /// The repository's opening deck for matches and training games under this rule set (a
    /// path from the repository's root; the engine library compiles the file in), if it has
    /// one. Its lines start from the rule set's own start position (White moves first under
    /// Russian and Brazilian rules); a rule set without one would start from its start
    /// position and random plies.
    pub fn deck(self) -> Option<&'static str> {
        self.row().deck
    }

    /// The repository's opening book, if there is one (a path from the repository's root).
    pub fn book(self) -> Option<&'static str> {
        self.row().book
    }

    /// The evaluation's fitted weights this rule set plays with.
    #[inline]
    pub const fn weights(self) -> WeightSet {
        self.row().weights
    }

    /// The learned network's file (in the engine library's `eval/nets/`), if one has been
    /// trained for this rule set (none for losing checkers).
    pub fn network(self) -> Option<&'static str> {
        self.row().network
    }

    /// The file of a second network that values this rule set's endings in place of
    /// [`Variant::network`]'s (the engine library says from how few pieces), if one has been
    /// trained.
    pub fn ending_network(self) -> Option<&'static str> {
        self.row().ending_network
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_declaration_order_and_each_setting_is_named_once() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.variant as usize, i);
            if !row.remove_at_end {
                assert_eq!(
                    Variant::of_switches(row.backward_capture, row.long_kings),
                    row.variant
                );
            }
            assert_eq!(Variant::from_key(row.key), Some(row.variant));
            assert_eq!(row.variant.rules().variant(), row.variant);
            assert_eq!(row.variant.switches_name_it(), i < Rules::ALL.len());
        }
    }

    #[test]
    fn names_read_back() {
        assert_eq!(Variant::English.game_type(), "21");
        assert_eq!(Variant::BuffGreen.game_type(), "32,B,8,8,N1,0");
        assert_eq!(Variant::of_game_type(" 21 ,x"), Variant::English);
        assert_eq!(Variant::of_game_type("23"), Variant::BuffGreen);
        assert_eq!(Variant::of_game_type("25"), Variant::Russian);
        assert_eq!(Variant::of_game_type("32,B"), Variant::BuffGreen);
        assert_eq!(Variant::English.name(), "English checkers");
        assert_eq!(Variant::from_key("ENGLISH"), Some(Variant::English));
        assert_eq!(
            Variant::from_suite_name("default"),
            Some(Variant::BuffGreen)
        );
        assert_eq!(Variant::suite_names(), ["default", "english"]);
        assert_eq!(
            Variant::OPTION_KEYS,
            ["buffgreen", "english", "pool", "russian", "brazilian"]
        );
    }
}
