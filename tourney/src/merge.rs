//! `--merge A.pdn B.pdn ...`: the table (and with `--sprt` the SPRT) of the games of one run
//! spread over several PDN files, typically the shards of a run (`--shard K/N`).
//!
//! The run is rebuilt from the games themselves: its engines and pairings from the `Black` and
//! `White` tags, game pairs from the `Round` tags (round `r` is game `r - 1` of the schedule:
//! pairing `(r - 1) mod P`, pair `(r - 1) div 2P`, `P` the number of pairings), the rules
//! from the `Rules` tags and the limits from `TimeControl`. The games are counted in round
//! order, so the table is the one the unsplit run prints. A round found twice (overlapping
//! shards, or a file given twice) is an error. The SPRT is judged on all the games.

use std::collections::BTreeMap;
use std::time::Duration;

use super::error::TourneyError;
use super::pdn::{self, PdnGame};
use super::report::{Report, Setup};
use super::resume::{recorded, Recorded};
use super::schedule::{limits_summary, Job};
use super::sprt::Decision;
use super::tc::Limit;
use super::MatchArgs;

/// Reads the files of `args.merge` and returns the table of all their games and, under
/// `--sprt`, the decision on all of them.
pub fn merge(args: &MatchArgs) -> Result<(String, Option<(Decision, f64)>), TourneyError> {
    let mut games: BTreeMap<usize, (Recorded, Option<Limits>, String)> = BTreeMap::new();
    let mut rules = None;
    for path in &args.merge {
        let text = pdn::read_file(path).map_err(|source| TourneyError::Io {
            path: path.clone(),
            source,
        })?;
        for (g, game) in pdn::checked_games(path, &text)? {
            let these = *game.rules();
            let r = recorded(&g, game)?;
            if *rules.get_or_insert(these) != these {
                return Err(TourneyError::Config(format!(
                    "{path}: game {} is played under {these}, other games under {}",
                    g.number,
                    rules.unwrap_or(these)
                )));
            }
            let tc = time_control(&g)?;
            if let Some((_, _, first)) = games.get(&r.round) {
                return Err(TourneyError::Config(format!(
                    "round {} is both in {first} and in {path} (game {}): the files overlap",
                    r.round, g.number
                )));
            }
            games.insert(r.round, (r, tc, path.clone()));
        }
    }
    let Some(rules) = rules else {
        return Err(TourneyError::Config(
            "--merge: the files hold no games".to_string(),
        ));
    };
    // The pairings: unordered pairs of names; then each pairing's first engine from a game
    // with it as Black in an even game pair of rounds (the schedule's order).
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (r, _, _) in games.values() {
        let key = ordered(&r.black, &r.white);
        if !pairs.contains(&key) {
            pairs.push(key);
        }
    }
    let np = pairs.len();
    let mut first: Vec<Option<(String, String)>> = vec![None; np];
    for (r, _, _) in games.values() {
        let i = r.round - 1;
        let (p, k) = (i % np, i / np);
        let seat = if k % 2 == 0 {
            (r.black.clone(), r.white.clone())
        } else {
            (r.white.clone(), r.black.clone())
        };
        match &first[p] {
            None => first[p] = Some(seat),
            Some(s) if *s == seat => {}
            Some(s) => {
                return Err(TourneyError::Config(format!(
                    "round {} ({} against {}) does not fit the schedule of the other games \
                     (its pairing is {} against {}): the files are not from one run",
                    r.round, r.black, r.white, s.0, s.1
                )))
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    for (a, b) in first.iter().flatten() {
        for n in [a, b] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let index = |n: &str| names.iter().position(|x| x == n).unwrap_or(0);
    let pairings: Vec<(usize, usize)> = first
        .iter()
        .map(|s| s.as_ref().map_or((0, 0), |(a, b)| (index(a), index(b))))
        .collect();
    if pairings.iter().any(|(a, b)| a == b) {
        return Err(TourneyError::Config(
            "--merge: some pairing has no game in the files' schedule order".to_string(),
        ));
    }
    let mut limits: Vec<Option<Limit>> = vec![None; names.len()];
    for (r, tc, _) in games.values() {
        let Some((b, w)) = tc else { continue };
        for (name, limit) in [(&r.black, b), (&r.white, w)] {
            let slot = &mut limits[index(name)];
            if slot.is_none() {
                *slot = Some(*limit);
            }
        }
    }
    let sprt = super::schedule::parse_sprt(&args.sprt, names.len())?;
    let limits: Vec<Limit> = limits
        .into_iter()
        .map(|l| l.unwrap_or(Limit::Nodes(1)))
        .collect();
    let mut report = Report::new(Setup {
        limit: limits_summary(&names, &limits),
        names: names.clone(),
        pairings,
        sprt,
        rules,
        total: games.len(),
        quiet: true,
    });
    for (r, _, _) in games.into_values() {
        let i = r.round - 1;
        let job = Job {
            round: r.round,
            pairing: i % np,
            pair_no: i / np / 2,
            black: index(&r.black),
            white: index(&r.white),
        };
        report.add(&job, &r.played);
    }
    // All the games count: the test is judged where they end, not where a sequential run
    // would have stopped.
    report.decision = sprt.and_then(|s| {
        let llr = s.llr(&report.tallies[0]);
        s.decide(llr).map(|d| (d, llr))
    });
    // The time on the first line is the merge's own, which says nothing: name the files instead.
    let table = report.table();
    let files = format!(" merged from {} files, ", args.merge.len());
    let table = match (table.find(" in "), table.find(" games/s), ")) {
        (Some(a), Some(b)) if a < b => {
            format!(
                "{}{files}{}",
                &table[..a],
                &table[b + " games/s), ".len()..]
            )
        }
        _ => table,
    };
    Ok((table, report.decision))
}

/// The names in a fixed order, for a pairing's key.
fn ordered(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// Black's and White's limits in a game.
type Limits = (Limit, Limit);

/// The limits of Black and White in a game's `TimeControl` tag (`Black <limit>, White
/// <limit>` when they differ); `None` without the tag. A value that is not a limit is an
/// error at the tag.
fn time_control(g: &PdnGame) -> Result<Option<Limits>, TourneyError> {
    let Some(tc) = g.tag("TimeControl") else {
        return Ok(None);
    };
    let (b, w) = match tc.split_once(", White ") {
        Some((b, w)) => (b.trim_start_matches("Black "), w),
        None => (tc, tc),
    };
    let limit = |text: &str| {
        parse_limit(text).ok_or_else(|| {
            g.tag_error(
                "TimeControl",
                format!(
                    "TimeControl '{text}' is not nodes=N, movetime=S (above 0, at most a \
                     day) or a time control"
                ),
            )
        })
    };
    Ok(Some((limit(b)?, limit(w)?)))
}

/// A `TimeControl` value back to its limit: `nodes=N`, `movetime=S` (seconds, above 0 and at
/// most a day, as a clock's times) or a clock.
fn parse_limit(text: &str) -> Option<Limit> {
    if let Some(n) = text.strip_prefix("nodes=") {
        return n.parse().ok().filter(|&n| n > 0).map(Limit::Nodes);
    }
    if let Some(s) = text.strip_prefix("movetime=") {
        let secs: f64 = s.parse().ok()?;
        if !(secs > 0.0 && secs <= 86_400.0) {
            return None;
        }
        return Duration::try_from_secs_f64(secs).ok().map(Limit::MoveTime);
    }
    text.parse().ok().map(Limit::Clock)
}
