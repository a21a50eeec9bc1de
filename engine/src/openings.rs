//! Openings: read from a file (moves, a FEN, or both per line), the built-in decks, or
//! generated at random.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use thiserror::Error;

use crate::board::{fen, Game, GameResult, Position, Rules};

/// Why openings cannot be had: the file, a line of it, or the request.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system error.
        source: std::io::Error,
    },
    /// A line of an openings file is not a legal opening.
    #[error("{file}:{line}: {why}")]
    Opening {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The request cannot be met (random openings that the rules do not allow).
    #[error("{0}")]
    Config(String),
}

/// A starting point: the game after the opening moves (its start is the standard position
/// when the opening was given as moves, so the moves go into the PDN record too).
#[derive(Clone, Debug)]
pub struct Opening {
    /// A short label for the PDN `Opening` tag (the moves, or the FEN).
    pub label: String,
    /// The game so far.
    pub game: Game,
}

/// Reads an openings file. Each line holds tab- or `;`-separated fields; a field with a `:` is
/// a FEN, a field of moves (`9-13 22-18 10-15`) is played from the standard start, other
/// fields (a number) are ignored. With both, the moves are played and must reach the FEN.
/// Blank lines and lines starting with `#` are skipped.
pub fn load(path: &str, rules: &Rules) -> Result<Vec<Opening>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Io {
        path: path.to_string(),
        source,
    })?;
    parse_deck(&text, path, rules)
}

/// The 174 three-move openings of English checkers (`openings/3move.tsv`), balanced for
/// English rules.
pub const THREE_MOVE_DECK: &str = include_str!("../../openings/3move.tsv");

/// The Buff and Green balanced deck (`openings/buffgreen-balanced.tsv`): positions 3 to 6
/// plies from the start that a deep search of the engine scores level under the default rules
/// (made by `lab/balanced_deck.py`).
pub const BALANCED_DECK: &str = include_str!("../../openings/buffgreen-balanced.tsv");

/// The Russian draughts balanced deck (`openings/russian-balanced.tsv`): lines from Russian
/// draughts' start (White moves first) that the engine's search scores level under Russian
/// rules (made by `lab/balanced_deck.py --variant russian`).
pub const RUSSIAN_DECK: &str = include_str!("../../openings/russian-balanced.tsv");

/// The Brazilian draughts balanced deck (`openings/brazilian-balanced.tsv`): lines from
/// Brazilian draughts' start (White moves first) that the engine's search scores level under
/// Brazilian rules (made by `lab/balanced_deck.py --variant brazilian`).
pub const BRAZILIAN_DECK: &str = include_str!("../../openings/brazilian-balanced.tsv");

/// The decks compiled into the binary, by the path the rule sets' table gives
/// ([`crate::board::Variant::deck`]); a test checks that every path the table gives is here.
const DECKS: [(&str, &str); 4] = [
    ("openings/3move.tsv", THREE_MOVE_DECK),
    ("openings/buffgreen-balanced.tsv", BALANCED_DECK),
    ("openings/russian-balanced.tsv", RUSSIAN_DECK),
    ("openings/brazilian-balanced.tsv", BRAZILIAN_DECK),
];

/// The deck a match plays when it is given no openings: the one the rule set names (the 3-move
/// deck under English rules, where it is balanced; the Buff and Green balanced deck under the
/// other Black-first settings, the 3-move deck losing men by force when men capture backward;
/// Russian's and Brazilian's own decks, whose lines start with White's move); empty for a rule
/// set that names none, whose games would start from the start position and random plies.
pub fn default_deck(rules: &Rules) -> Vec<Opening> {
    let Some(name) = rules.variant().deck() else {
        return Vec::new();
    };
    let text = DECKS
        .iter()
        .find(|(path, _)| *path == name)
        .map_or("", |(_, text)| text);
    // Every deck is legal under the rule sets that name it (unit tests read each under them),
    // so this cannot fail in a tested build; an empty list would still be handled by the caller.
    parse_deck(text, name, rules).unwrap_or_default()
}

/// Parses the text of an openings file (see [`load`]); `name` labels errors.
pub fn parse_deck(text: &str, name: &str, rules: &Rules) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| OpeningsError::Opening {
            file: name.to_string(),
            line: i + 1,
            why,
        };
        out.push(parse_line(line, rules).map_err(bad)?);
    }
    if out.is_empty() {
        return Err(OpeningsError::Opening {
            file: name.to_string(),
            line: 0,
            why: "no openings".to_string(),
        });
    }
    Ok(out)
}

fn parse_line(line: &str, rules: &Rules) -> Result<Opening, String> {
    let mut fen_field = None;
    let mut moves_field = None;
    for field in line.split(['\t', ';']).map(str::trim) {
        if field.contains(':') {
            fen_field = Some(field);
        } else if field.contains('-') || field.contains('x') {
            moves_field = Some(field);
        }
    }
    let game = match (moves_field, fen_field) {
        (Some(moves), fen_text) => {
            let mut game = Game::new(Position::start(rules), 0, *rules);
            for mv in moves.split_whitespace() {
                game.play_str(mv).map_err(|e| format!("move {mv}: {e}"))?;
            }
            if let Some(f) = fen_text {
                let want = fen::parse(f).map_err(|e| e.to_string())?;
                if want != *game.position() {
                    return Err(format!(
                        "the moves reach {}, not the FEN {f}",
                        fen::write(game.position())
                    ));
                }
            }
            game
        }
        (None, Some(f)) => Game::new(fen::parse(f).map_err(|e| e.to_string())?, 0, *rules),
        (None, None) => return Err("neither moves nor a FEN".to_string()),
    };
    if game.result() != GameResult::Ongoing {
        return Err(format!(
            "the game is already over ({})",
            game.result().describe()
        ));
    }
    // The label names the moves in canonical long form (the deck writes some captures as 13-22).
    let label = match moves_field {
        Some(_) => move_list(&game),
        None => fen_field.unwrap_or_default().to_string(),
    };
    Ok(Opening { label, game })
}

fn move_list(game: &Game) -> String {
    game.moves()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many random lines are drawn for one opening before giving up: a line is thrown away
/// when the game ends before `plies` moves, which past some length happens nearly always.
pub const RANDOM_ATTEMPTS: usize = 1000;

/// Where the openings of a match come from, opening `k` for the `k`-th pair of games.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// A deck, played in order and cycled.
    Deck(Vec<Opening>),
    /// Random lines of `plies` moves, opening `k` drawn from its own stream of `seed`, so
    /// that any opening is made without the ones before it (no list of the whole match).
    Random {
        /// Moves per opening.
        plies: usize,
        /// The match seed.
        seed: u64,
        /// The rules the moves are legal under.
        rules: Rules,
    },
}

impl OpeningSource {
    /// The opening of pair `k`.
    pub fn get(&self, k: usize) -> Result<Opening, OpeningsError> {
        match self {
            OpeningSource::Deck(deck) => Ok(deck[k % deck.len()].clone()),
            OpeningSource::Random { plies, seed, rules } => random_one(*plies, *seed, k, rules),
        }
    }
}

/// Opening `index` of `plies` uniformly random legal moves from the rules' start position
/// (White to move first where the rule set says so), the same
/// for the same seed and index. A line that ends the game early is drawn again, at most
/// [`RANDOM_ATTEMPTS`] times.
pub fn random_one(
    plies: usize,
    seed: u64,
    index: usize,
    rules: &Rules,
) -> Result<Opening, OpeningsError> {
    // Each index gets its own generator; SplitMix64 inside seed_from_u64 spreads the sum.
    let stream = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index as u64);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(stream);
    for _ in 0..RANDOM_ATTEMPTS {
        let mut game = Game::new(Position::start(rules), 0, *rules);
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(mv);
        }
        if ok && game.result() == GameResult::Ongoing {
            return Ok(Opening {
                label: move_list(&game),
                game,
            });
        }
    }
    Err(OpeningsError::Config(format!(
        "--random-plies {plies}: {RANDOM_ATTEMPTS} random lines all ended the game before \
         {plies} moves; give fewer plies"
    )))
}

/// `count` random openings (see [`random_one`]), indices `0..count`.
pub fn random(
    count: usize,
    plies: usize,
    seed: u64,
    rules: &Rules,
) -> Result<Vec<Opening>, OpeningsError> {
    (0..count)
        .map(|k| random_one(plies, seed, k, rules))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_moves_fen_or_both() {
        let r = Rules::default();
        let o = parse_line(
            "001\t9-13 21-17 5-9\tW:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13",
            &r,
        )
        .unwrap();
        assert_eq!(o.game.moves().len(), 3);
        assert_eq!(o.label, "9-13 21-17 5-9");
        let o = parse_line("B:W18,24:B6,K27", &r).unwrap();
        assert_eq!(o.game.moves().len(), 0);
        assert_eq!(fen::write(o.game.start()), "B:W18,24:B6,K27");
        assert!(parse_line("9-13 21-17 5-9\tB:W21-32:B1-12", &r)
            .unwrap_err()
            .contains("not the FEN"));
        assert!(parse_line("9-15", &r).unwrap_err().contains("move 9-15"));
        assert!(parse_line("W:W:B1", &r).unwrap_err().contains("over"));
        assert!(parse_line("hello", &r).is_err());
    }

    #[test]
    fn built_in_decks_are_legal_under_every_rule_setting() {
        for rules in Rules::ALL {
            let three = parse_deck(THREE_MOVE_DECK, "3move", &rules).unwrap();
            assert_eq!(three.len(), 174);
            let balanced = parse_deck(BALANCED_DECK, "balanced", &rules).unwrap();
            assert_eq!(balanced.len(), 174);
            assert!(balanced
                .iter()
                .all(|o| (3..=6).contains(&o.game.moves().len())));
            assert_eq!(default_deck(&rules).len(), 174);
        }
        // English rules get the 3-move deck, every other setting the balanced deck.
        assert_eq!(default_deck(&Rules::ENGLISH)[0].label, "9-13 21-17 5-9");
        assert_eq!(
            default_deck(&Rules::BUFF_AND_GREEN)[0].label,
            "10-14 22-18 11-16"
        );
    }

    /// The family decks' sizes and first lines, as `lab/balanced_deck.py` wrote them.
    const RUSSIAN_COUNT: usize = 174;
    const RUSSIAN_FIRST: &str = "21-17 10-15 24-20";
    const RUSSIAN_FIRST_FEN: &str =
        "B:W17,20,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15";
    const BRAZILIAN_COUNT: usize = 174;
    const BRAZILIAN_FIRST: &str = "21-17 10-15 24-20";
    const BRAZILIAN_FIRST_FEN: &str =
        "B:W17,20,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15";

    #[test]
    fn family_decks_start_with_whites_move_and_reach_their_fens() {
        use crate::board::Variant;
        use crate::types::Color;
        // Pool moves Black first: the balanced deck's lines are its own.
        assert_eq!(default_deck(&Variant::Pool.rules()).len(), 174);
        for (v, text, count, first, first_fen) in [
            (
                Variant::Russian,
                RUSSIAN_DECK,
                RUSSIAN_COUNT,
                RUSSIAN_FIRST,
                RUSSIAN_FIRST_FEN,
            ),
            (
                Variant::Brazilian,
                BRAZILIAN_DECK,
                BRAZILIAN_COUNT,
                BRAZILIAN_FIRST,
                BRAZILIAN_FIRST_FEN,
            ),
        ] {
            let rules = v.rules();
            // Every line's moves are legal from the rule set's start and reach its FEN
            // (parse_deck refuses a line that does not).
            let deck = parse_deck(text, v.key(), &rules).unwrap();
            assert_eq!(deck.len(), count, "{v:?}");
            assert_eq!(default_deck(&rules).len(), count, "{v:?}");
            assert_eq!(deck[0].label, first);
            assert_eq!(fen::write(deck[0].game.position()), first_fen);
            let mut fens = std::collections::HashSet::new();
            for o in &deck {
                // White moves first, from the standard pieces.
                assert_eq!(*o.game.start(), Position::start(&rules));
                assert_eq!(o.game.start().side_to_move(), Color::White);
                let plies = o.game.moves().len();
                assert!((3..=6).contains(&plies), "{}", o.label);
                // The FEN's side is the one the moves leave to move.
                let to_move = if plies % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                assert_eq!(o.game.position().side_to_move(), to_move, "{}", o.label);
                assert!(o.game.legal_moves().len() > 1, "{}: a forced move", o.label);
                assert!(fens.insert(fen::write(o.game.position())), "{}", o.label);
            }
            // `--random-plies` lines begin with White's move too.
            let o = random_one(1, 0, 0, &rules).unwrap();
            assert_eq!(o.game.start().side_to_move(), Color::White);
            assert_eq!(o.game.position().side_to_move(), Color::Black);
            // Both sides are to move at some opening, so each engine meets both colours.
            assert!(deck.iter().any(|o| o.game.moves().len() % 2 == 0));
            assert!(deck.iter().any(|o| o.game.moves().len() % 2 == 1));
        }
        // Each deck is its own rule set's: they share 79 lines, the first 19 among them.
        let lines = |text: &str| {
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| l.split('\t').nth(1))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let (russian, brazilian) = (lines(RUSSIAN_DECK), lines(BRAZILIAN_DECK));
        let shared = russian.iter().filter(|l| brazilian.contains(l)).count();
        assert_eq!(shared, 79);
        assert_eq!(russian[..19], brazilian[..19]);
        assert_eq!(russian[19], "22-17 12-16 24-19");
        assert_eq!(brazilian[19], "22-17 9-14 17-13");
    }

    #[test]
    fn every_deck_the_table_names_is_compiled_in_as_on_disk() {
        use crate::board::Variant;
        for v in Variant::ALL {
            let Some(path) = v.deck() else {
                continue;
            };
            let compiled = DECKS
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, text)| *text)
                .unwrap_or_else(|| panic!("{path} is not compiled in"));
            let disk = std::fs::read_to_string(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../").to_string() + path,
            )
            .unwrap();
            assert_eq!(compiled, disk, "{path}");
            assert!(!default_deck(&v.rules()).is_empty(), "{v:?}");
        }
    }

    #[test]
    fn shared_deck_is_legal_under_both_rule_sets() {
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            let deck = load(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../openings/3move.tsv"),
                &rules,
            )
            .unwrap();
            assert_eq!(deck.len(), 174);
            assert!(deck.iter().all(|o| o.game.moves().len() == 3));
        }
    }

    #[test]
    fn random_openings_are_reproducible() {
        let r = Rules::default();
        let a = random(20, 8, 42, &r).unwrap();
        let b = random(20, 8, 42, &r).unwrap();
        let c = random(20, 8, 43, &r).unwrap();
        let labels = |v: &[Opening]| v.iter().map(|o| o.label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&a), labels(&b));
        assert_ne!(labels(&a), labels(&c));
        assert!(a.iter().all(|o| o.game.moves().len() == 8));
        // Any one is made alone, the same as in the list.
        assert_eq!(random_one(8, 42, 17, &r).unwrap().label, a[17].label);
    }

    #[test]
    fn random_openings_too_long_to_exist_are_an_error_not_a_hang() {
        let e = random_one(160, 0, 0, &Rules::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--random-plies 160: 1000 random lines all ended the game before 160 moves; give \
             fewer plies"
        );
    }
}
