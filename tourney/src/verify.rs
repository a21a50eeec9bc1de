//! `--verify-pdn`: replays every game of a PDN file with the library and checks its result.

use super::error::TourneyError;
use super::pdn;

/// Replays every game of a PDN file and checks its result ([`pdn::Replay::check`]); the
/// summary line on success, one error for each game that fails otherwise. A file with no game
/// fails.
pub fn verify_pdn(path: &str) -> Result<String, TourneyError> {
    let text = pdn::read_file(path).map_err(|source| TourneyError::Io {
        path: path.to_string(),
        source,
    })?;
    let games = pdn::checked_games(path, &text)?;
    let plies: usize = games.iter().map(|(_, g)| g.moves().len()).sum();
    Ok(format!(
        "{path}: {} games, {plies} plies, all legal",
        games.len()
    ))
}
