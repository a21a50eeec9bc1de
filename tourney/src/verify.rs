//! `--verify-pdn`: replays every game of a PDN file with the library and checks its result.

use super::error::TourneyError;
use super::pdn;
use buffgreen::board::GameResult;
use buffgreen::types::Color;

/// Replays every game of a PDN file; the summary line on success.
pub fn verify_pdn(path: &str) -> Result<String, TourneyError> {
    let text = std::fs::read_to_string(path).map_err(|source| TourneyError::Io {
        path: path.to_string(),
        source,
    })?;
    let games = pdn::parse(&text)?;
    let mut plies = 0;
    for (i, g) in games.iter().enumerate() {
        let game = g.replay(i + 1)?;
        plies += game.moves().len();
        let bad = |why: String| TourneyError::Pdn { game: i + 1, why };
        // `1-0`, `0-1` and `1/2-1/2` (English checkers' and py-draughts' form) are the same
        // results as `2-0`, `0-2` and `1-1`.
        let tag = pdn::draughts_result(g.tag("Result").unwrap_or("*"));
        if g.result
            .as_deref()
            .is_some_and(|r| pdn::draughts_result(r) != tag)
        {
            return Err(bad(format!(
                "Result tag {tag} but movetext ends {:?}",
                g.result
            )));
        }
        // A game that ended by the rules must have reached the end its result says.
        if g.tag("Termination")
            .is_some_and(|t| t.starts_with("normal"))
        {
            let want = match game.result() {
                GameResult::Win(Color::White) => "2-0",
                GameResult::Win(Color::Black) => "0-2",
                GameResult::Draw => "1-1",
                GameResult::Ongoing => "*",
            };
            if want != tag {
                return Err(bad(format!(
                    "Result {tag} but the final position gives {want}"
                )));
            }
        }
    }
    Ok(format!(
        "{path}: {} games, {plies} plies, all legal",
        games.len()
    ))
}
