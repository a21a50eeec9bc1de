//! The schedule of a match, built from the arguments: the engines and their limits, the
//! openings, the pairings and the order of the games ([`Job`]), the run's shard, and the PDN
//! text of a game under it. [`super::runner`] plays it.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::adjudicate::ScoreRules;
use super::args::Tournament;
use super::error::TourneyError;
use super::iolog::IoLog;
use super::outputs::{self, Kind};
use super::pdn;
use super::referee::{Played, RefereeConfig};
use super::shard::Shard;
use super::spec::{self, EngineSpec};
use super::sprt::Sprt;
use super::tc::Limit;
use super::MatchArgs;
use buffgreen::openings::{self, OpeningSource};

/// The random opening's length a match would play under a rule set with no deck and no
/// `--openings` or `--random-plies` (every rule set of the table has a deck, but a new row need
/// not): as long as the built-in decks' shortest lines, so that the games differ from the
/// first moves on without leaving the opening.
pub const DECKLESS_RANDOM_PLIES: usize = 3;

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
pub(super) struct Job {
    pub(super) round: usize,
    pub(super) pairing: usize,
    pub(super) pair_no: usize,
    pub(super) black: usize,
    pub(super) white: usize,
}

#[derive(Debug)]
pub(super) struct Match {
    pub(super) specs: Vec<EngineSpec>,
    /// Each engine's search limit (its own, else the match's).
    pub(super) limits: Vec<Limit>,
    pub(super) cfg: RefereeConfig,
    pub(super) openings: OpeningSource,
    /// Games per pairing.
    pub(super) games: usize,
    pub(super) pairings: Vec<(usize, usize)>,
    pub(super) sprt: Option<Sprt>,
    pub(super) concurrency: usize,
    pub(super) pdn: Option<String>,
    /// `--json`: JSON Lines of the games and the summary.
    pub(super) json: Option<String>,
    pub(super) event: String,
    pub(super) quiet: bool,
    /// Per engine: it was started once in this match, so failing to start it again forfeits
    /// its games instead of ending the match.
    pub(super) started: Vec<AtomicBool>,
    /// The match seed (openings, --shuffle, and each game's engine seeds).
    pub(super) seed: u64,
    /// `--shard`: the slice of the schedule this run plays (all of it without).
    pub(super) shard: Option<Shard>,
    /// `--resume`: count the games of this schedule already in the PDN file.
    pub(super) resume: bool,
}

impl Match {
    pub(super) fn new(a: &MatchArgs) -> Result<Match, TourneyError> {
        let mut specs = a
            .engines
            .iter()
            .map(|s| EngineSpec::parse(s, &a.each))
            .collect::<Result<Vec<_>, _>>()?;
        if specs.len() < 2 {
            return Err(TourneyError::Config(
                "give at least two --engine specs".to_string(),
            ));
        }
        spec::unique_names(&mut specs);
        let mut given = Vec::new();
        if let Some(t) = &a.tc {
            given.push(Limit::Clock(t.parse()?));
        }
        for (key, v) in [("movetime", a.movetime), ("nodes", a.nodes)] {
            if let Some(v) = v {
                if let Some(l) = Limit::from_field(key, &v.to_string()) {
                    given.push(l?);
                }
            }
        }
        if given.len() > 1 {
            return Err(TourneyError::Config(
                "give at most one of --tc, --movetime and --nodes".to_string(),
            ));
        }
        let limit = given.pop();
        if limit.is_none() && specs.iter().any(|s| s.limit.is_none()) {
            return Err(TourneyError::Config(
                "give one of --tc, --movetime and --nodes (or tc=, movetime=, nodes= in every --engine)"
                    .to_string(),
            ));
        }
        let limits = specs
            .iter()
            .map(|s| s.limit.or(limit).unwrap_or(Limit::Nodes(1)))
            .collect();
        let rules = a.rules.rules();
        check_files(a, &specs)?;
        let mut openings = match &a.openings {
            Some(path) => openings::load(path, &rules)?,
            None => Vec::new(),
        };
        let games = a.games.unwrap_or(2 * openings.len().max(1));
        if games == 0 {
            return Err(TourneyError::Config(
                "--games must be at least 1".to_string(),
            ));
        }
        // A rule set without a deck of its own (the table's row says so) plays random lines
        // instead of the start position over and over.
        let deckless = a.openings.is_none() && rules.variant().deck().is_none();
        let random_plies = a
            .random_plies
            .or_else(|| deckless.then_some(DECKLESS_RANDOM_PLIES));
        let openings = if let Some(plies) = random_plies {
            let source = OpeningSource::Random {
                plies,
                seed: a.seed,
                rules,
            };
            // The first opening now, so that a length no game reaches fails before any game.
            source.get(0)?;
            source
        } else {
            if openings.is_empty() {
                openings = openings::default_deck(&rules);
            }
            if openings.is_empty() {
                openings = openings::random(1, 0, 0, &rules)?;
            }
            if a.shuffle {
                use rand::seq::SliceRandom;
                use rand::SeedableRng;
                let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(a.seed);
                openings.shuffle(&mut rng);
            }
            OpeningSource::Deck(openings)
        };
        let sprt = parse_sprt(&a.sprt, specs.len())?;
        if sprt.is_some() && a.shard.is_some() {
            return Err(TourneyError::Config(
                "--sprt judges the whole run: give it to --merge, not to a --shard".to_string(),
            ));
        }
        if a.concurrency == 0 {
            return Err(TourneyError::Config(
                "--concurrency must be at least 1".to_string(),
            ));
        }
        let pairings = pairings(specs.len(), a.tournament);
        let shard = a.shard.as_deref().map(str::parse).transpose()?;
        let tablebase = match &a.tb {
            Some(dir) => Some(Arc::new(
                buffgreen::tablebase::Tablebase::open(Path::new(dir), &rules)
                    .map_err(|e| TourneyError::Config(format!("--tb {dir}: {e}")))?,
            )),
            None => None,
        };
        let log = match &a.debug_log {
            Some(path) => Some(Arc::new(IoLog::create(path)?)),
            None => None,
        };
        warn_concurrency(a.concurrency);
        let started = specs.iter().map(|_| AtomicBool::new(false)).collect();
        Ok(Match {
            specs,
            limits,
            cfg: RefereeConfig {
                rules,
                margin: Duration::from_millis(a.time_margin),
                reply_timeout: Duration::from_millis(a.reply_timeout.max(1)),
                adjudicate_draw_after: a.adjudicate_draw_after,
                score_rules: ScoreRules::parse(&a.resign, &a.draw)?,
                tablebase,
                log,
            },
            openings,
            games,
            pairings,
            sprt,
            concurrency: a.concurrency,
            pdn: a.pdn.clone(),
            json: a.json.clone(),
            event: a.event.clone(),
            quiet: a.quiet,
            started,
            seed: a.seed,
            shard,
            resume: a.resume,
        })
    }

    /// Games this run plays: its shard's, or all.
    pub(super) fn planned(&self) -> usize {
        match self.shard {
            Some(s) => s.games(self.block(), self.total()),
            None => self.total(),
        }
    }

    /// Games per block of the schedule: one pair of games of every pairing.
    fn block(&self) -> usize {
        2 * self.pairings.len()
    }

    /// Whether game `round` of the schedule is this run's (in its shard, if any).
    pub(super) fn planned_round(&self, round: usize) -> bool {
        self.shard
            .is_none_or(|s| (round - 1) / self.block() % s.count == s.index)
    }

    /// This run's `j`-th game (from 0): the `j`-th of the schedule, or of its shard.
    pub(super) fn planned_job(&self, j: usize) -> Option<Job> {
        match self.shard {
            Some(s) => self.job(s.global(j, self.block(), self.total())?),
            None => self.job(j),
        }
    }

    /// Games scheduled in all.
    pub(super) fn total(&self) -> usize {
        self.games.saturating_mul(self.pairings.len())
    }

    /// The `i`-th game of the schedule (from 0), made on demand so that a long run holds no
    /// list of its games. Round by round over the pairings, so that a round robin cut short
    /// stays balanced; each pair of games of a pairing shares an opening, colours reversed.
    pub(super) fn job(&self, i: usize) -> Option<Job> {
        if i >= self.total() {
            return None;
        }
        let k = i / self.pairings.len();
        let p = i % self.pairings.len();
        let (a, b) = self.pairings[p];
        let (black, white) = if k.is_multiple_of(2) { (a, b) } else { (b, a) };
        Some(Job {
            round: i + 1,
            pairing: p,
            pair_no: k / 2,
            black,
            white,
        })
    }

    /// The PDN TimeControl value: the limit, or each side's when they differ.
    fn limit_text(&self, black: usize, white: usize) -> String {
        let (b, w) = (self.limits[black], self.limits[white]);
        if b == w {
            b.to_string()
        } else {
            format!("Black {b}, White {w}")
        }
    }

    /// The limit for the summary: the common one, or each engine's.
    pub(super) fn limits_summary(&self) -> String {
        let names: Vec<&str> = self.specs.iter().map(EngineSpec::name).collect();
        limits_summary(&names, &self.limits)
    }

    pub(super) fn pdn_text(&self, job: &Job, p: &Played, opening: &str, date: &str) -> String {
        pdn::write_game(
            &pdn::GameHeader {
                event: &self.event,
                date,
                round: job.round,
                white: self.specs[job.white].name(),
                black: self.specs[job.black].name(),
                result: p.outcome.pdn(),
                time_control: self.limit_text(job.black, job.white),
                termination: p.termination.describe(&self.cfg.rules),
                opening,
            },
            &p.game,
        )
    }
}

/// The limit for the summary: the common one, or each engine's (`names` and `limits` by
/// engine).
pub(super) fn limits_summary(names: &[impl AsRef<str>], limits: &[Limit]) -> String {
    if limits.iter().all(|l| *l == limits[0]) {
        limits[0].to_string()
    } else {
        let each: Vec<String> = names
            .iter()
            .zip(limits)
            .map(|(n, l)| format!("{} {l}", n.as_ref()))
            .collect();
        each.join(", ")
    }
}

/// The pairings of `n` engines, by index: every pair in order (round-robin), or the first
/// engine with each other (gauntlet).
pub(super) fn pairings(n: usize, kind: Tournament) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if i == 0 || kind == Tournament::RoundRobin {
                out.push((i, j));
            }
        }
    }
    out
}

/// Warns on stderr when more games run at once than the machine has cores: the engines then
/// share CPU, and games on a clock are not played at the time control they claim.
fn warn_concurrency(concurrency: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if concurrency > cores {
        super::note(&format!(
            "warning: --concurrency {concurrency} exceeds the {cores} cores of this machine: \
             engines share CPU and time controls are not kept\n"
        ));
    }
}

/// Refuses a match whose outputs (`--pdn`, `--json`, `--debug-log`) would destroy an input
/// or each other ([`outputs::check`]): the openings file, the `--tb` folder, the files the
/// engines read, or an existing file of another kind.
fn check_files(a: &MatchArgs, specs: &[EngineSpec]) -> Result<(), TourneyError> {
    let outputs: Vec<_> = [
        ("--pdn", &a.pdn, Kind::Pdn),
        ("--json", &a.json, Kind::MatchJson),
        ("--debug-log", &a.debug_log, Kind::DebugLog),
    ]
    .into_iter()
    .filter_map(|(option, path, kind)| path.as_deref().map(|p| (option, p, kind)))
    .collect();
    let inputs: Vec<_> = a
        .openings
        .iter()
        .map(|p| ("--openings", p.as_str()))
        .collect();
    let folders: Vec<_> = a.tb.iter().map(|p| ("--tb", p.as_str())).collect();
    outputs::check(&outputs, &inputs, &folders, specs)
}

/// The `--sprt` words, if any, as a test between the two engines of a run.
pub(super) fn parse_sprt(words: &[String], engines: usize) -> Result<Option<Sprt>, TourneyError> {
    if words.is_empty() {
        return Ok(None);
    }
    if engines != 2 {
        return Err(TourneyError::Config(
            "--sprt needs exactly two engines".to_string(),
        ));
    }
    Ok(Some(words.join(" ").parse()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        m: MatchArgs,
    }

    fn args(v: &[&str]) -> MatchArgs {
        Cli::try_parse_from(std::iter::once("match").chain(v.iter().copied()))
            .unwrap()
            .m
    }

    #[test]
    fn schedule_alternates_colours_and_pairs_openings() {
        let a = args(&[
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
            "--engine",
            "cmd=c",
            "--nodes",
            "1",
            "--games",
            "4",
            "--random-plies",
            "4",
        ]);
        let m = Match::new(&a).unwrap();
        assert_eq!(m.pairings, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(m.total(), 12);
        assert!(m.job(12).is_none());
        let j: Vec<_> = (0..12)
            .filter_map(|i| m.job(i))
            .filter(|j| j.pairing == 0)
            .map(|j| (j.round, j.black, j.white, j.pair_no))
            .collect();
        assert_eq!(
            j,
            vec![(1, 0, 1, 0), (4, 1, 0, 0), (7, 0, 1, 1), (10, 1, 0, 1)]
        );
        // A schedule of 10^8 games per pairing costs nothing until its games are played.
        let mut huge = a.clone();
        huge.games = Some(100_000_000);
        let m = Match::new(&huge).unwrap();
        assert_eq!(m.total(), 300_000_000);
        assert_eq!(m.job(299_999_999).unwrap().pair_no, 49_999_999);
        let mut bad = a.clone();
        bad.tc = Some("60+1".into());
        assert!(Match::new(&bad).is_err());
        let mut bad = a;
        bad.sprt = vec!["elo0=0".into(), "elo1=5".into()];
        assert!(Match::new(&bad)
            .unwrap_err()
            .to_string()
            .contains("two engines"));
    }
}
