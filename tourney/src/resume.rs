//! `--resume`: the games of a run's schedule already in its PDN file, so that an interrupted
//! run goes on where it stopped. Games are matched to the schedule by their `Round` tag (the
//! game's number in the schedule); each must be that game (same event, same engines in the
//! same colours, the same opening), otherwise the arguments differ from the interrupted run's
//! and the resume is refused rather than mixing two schedules.

use std::collections::HashSet;

use super::error::TourneyError;
use super::pdn::{self, PdnGame};
use super::referee::{Outcome, Played, Termination};
use super::schedule::{Job, Match};
use buffgreen::board::Game;
use buffgreen::types::Color;

/// A game read back from a PDN: its round and the game as the runner would have reported it.
pub(super) struct Recorded {
    /// The `Round` tag: the game's number in the schedule, from 1.
    pub(super) round: usize,
    /// The engine with Black.
    pub(super) black: String,
    /// The engine with White.
    pub(super) white: String,
    /// The game, its result and its `Termination` tag.
    pub(super) played: Played,
}

/// Reads a game of a PDN, `game` its replay (checked by [`PdnGame::check`]): tags Round,
/// Black, White, Result and Termination are required.
pub(super) fn recorded(g: &PdnGame, game: Game) -> Result<Recorded, TourneyError> {
    let tag = |name: &str| {
        g.tag(name)
            .ok_or_else(|| g.error_at(g.place, format!("no {name} tag")))
    };
    let round: usize = tag("Round")?
        .parse()
        .ok()
        .filter(|&r| r > 0)
        .ok_or_else(|| g.tag_error("Round", "Round is not a game number"))?;
    let outcome = match tag("Result")? {
        "2-0" | "1-0" => Outcome::Win(Color::White),
        "0-2" | "0-1" => Outcome::Win(Color::Black),
        "1-1" | "1/2-1/2" => Outcome::Draw,
        r => {
            return Err(g
                .tag_error("Result", format!("result {r} is not a finished game"))
                .into())
        }
    };
    // The opening's moves, when the Opening tag lists the game's first moves (a FEN opening
    // has none).
    let label: Vec<&str> = g.tag("Opening").unwrap_or("").split_whitespace().collect();
    let opening_plies = if game
        .moves()
        .take(label.len())
        .map(|m| m.to_string())
        .eq(label.iter().map(|s| s.to_string()))
    {
        label.len()
    } else {
        0
    };
    Ok(Recorded {
        round,
        black: tag("Black")?.to_string(),
        white: tag("White")?.to_string(),
        played: Played {
            game,
            opening_plies,
            outcome,
            termination: Termination::Recorded(tag("Termination")?.to_string()),
            warnings: Vec::new(),
        },
    })
}

/// The games of `m`'s schedule (its shard's, with `--shard`) found in the PDN at `path`, in
/// file order, each with its job. A missing or empty file holds none; any other file must
/// hold games that read and check ([`pdn::checked_games`]). Games of another event are
/// passed over; a game of this event that is not the schedule's game of its round is an
/// error. Tags are compared with what the writer wrote ([`pdn::tag_value`]).
pub(super) fn finished_games(m: &Match, path: &str) -> Result<Vec<(Job, Played)>, TourneyError> {
    let text = match pdn::read_file(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(TourneyError::Io {
                path: path.to_string(),
                source,
            })
        }
    };
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return Ok(out);
    }
    let mut seen = HashSet::new();
    let event = pdn::tag_value(&m.event);
    for (g, game) in pdn::checked_games(path, &text)? {
        if g.tag("Event") != Some(event.as_str()) {
            continue;
        }
        let mut r = recorded(&g, game)?;
        let bad = |why: String| {
            TourneyError::from(g.error_at(
                g.place,
                format!(
                    "round {} {why}; resume with the arguments of the interrupted run",
                    r.round
                ),
            ))
        };
        let job = m
            .job(r.round - 1)
            .filter(|j| m.planned_round(j.round))
            .ok_or_else(|| bad("is not in this run's schedule".to_string()))?;
        let (black, white) = (
            pdn::tag_value(m.specs[job.black].name()),
            pdn::tag_value(m.specs[job.white].name()),
        );
        if (black.as_str(), white.as_str()) != (r.black.as_str(), r.white.as_str()) {
            return Err(bad(format!(
                "has {} (Black) against {} (White), the schedule {} against {}",
                r.black, r.white, black, white
            )));
        }
        let opening = m.openings.get(job.pair_no)?;
        let plies = opening.game.moves().len();
        let played = &r.played.game;
        if played.start() != opening.game.start()
            || !played.moves().take(plies).eq(opening.game.moves())
        {
            return Err(bad(format!(
                "does not start with the schedule's opening {}",
                opening.label
            )));
        }
        if !seen.insert(r.round) {
            super::note(&format!(
                "warning: {path}: round {} appears again (game {}): the first one counts\n",
                r.round, g.number
            ));
            continue;
        }
        r.played.opening_plies = plies;
        out.push((job, r.played));
    }
    Ok(out)
}
