//! Openings: read from a file (moves, a FEN, or both per line) or generated at random.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::error::TourneyError;
use crate::board::{fen, Game, GameResult, Position, Rules};

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
pub fn load(path: &str, rules: &Rules) -> Result<Vec<Opening>, TourneyError> {
    let text = std::fs::read_to_string(path).map_err(|source| TourneyError::Io {
        path: path.to_string(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| TourneyError::Opening {
            file: path.to_string(),
            line: i + 1,
            why,
        };
        out.push(parse_line(line, rules).map_err(bad)?);
    }
    if out.is_empty() {
        return Err(TourneyError::Opening {
            file: path.to_string(),
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
            let mut game = Game::new(Position::startpos(), 0, *rules);
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

/// `count` openings of `plies` uniformly random legal moves from the standard start, the
/// same for the same seed. A line that ends the game early is thrown away and drawn again.
pub fn random(count: usize, plies: usize, seed: u64, rules: &Rules) -> Vec<Opening> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut game = Game::new(Position::startpos(), 0, *rules);
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
            out.push(Opening {
                label: move_list(&game),
                game,
            });
        }
    }
    out
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
    fn shared_deck_is_legal_under_both_rule_sets() {
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            let deck = load(
                concat!(env!("CARGO_MANIFEST_DIR"), "/openings/3move.tsv"),
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
        let a = random(20, 8, 42, &r);
        let b = random(20, 8, 42, &r);
        let c = random(20, 8, 43, &r);
        let labels = |v: &[Opening]| v.iter().map(|o| o.label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&a), labels(&b));
        assert_ne!(labels(&a), labels(&c));
        assert!(a.iter().all(|o| o.game.moves().len() == 8));
    }
}
