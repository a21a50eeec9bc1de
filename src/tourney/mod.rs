//! Match runner: plays engine-vs-engine games between processes that speak the protocol, in
//! the spirit of cutechess-cli.
//!
//! Layout: [`spec`] parses `--engine` specifications, [`tc`] time controls and clocks,
//! [`process`] drives one engine process (a reader thread timestamps its lines), [`openings`]
//! loads or generates start positions, [`referee`] plays and judges one game, [`pdn`] writes
//! and reads PDN, [`stats`] and [`sprt`] turn results into figures. This file holds the
//! command line, the schedule, the worker threads and the reports.

pub mod error;
pub mod openings;
pub mod pdn;
pub mod process;
pub mod referee;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod tc;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::board::GameResult;
use crate::cli::GameRuleFlags;
use crate::types::Color;
use error::TourneyError;
use openings::Opening;
use referee::{Played, RefereeConfig};
use spec::EngineSpec;
use sprt::{Decision, Sprt};
use stats::{fmt_elo, fmt_err, Record};
use tc::Limit;

/// Command-line arguments of `buffgreen match`. The options live behind a box so that the
/// binary's subcommand enum stays small; fields are reached through `Deref`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    options: Box<MatchOptions>,
}

impl std::ops::Deref for MatchArgs {
    type Target = MatchOptions;

    fn deref(&self) -> &MatchOptions {
        &self.options
    }
}

impl std::ops::DerefMut for MatchArgs {
    fn deref_mut(&mut self) -> &mut MatchOptions {
        &mut self.options
    }
}

/// The options of `buffgreen match` (see [`MatchArgs`]).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchOptions {
    /// An engine: `cmd=PROGRAM [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [tc=TC | movetime=MS | nodes=N]` (quote values with spaces; a limit here overrides the
    /// match's). Give two, or more for a round robin.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Fields given to every engine before its own, e.g. "option.Hash=16 option.Threads=1".
    #[arg(long, value_name = "SPEC", default_value = "")]
    pub each: String,
    /// Time control per game: moves/seconds+increment or seconds+increment (40/60+0.6, 60+0.6).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds (`go movetime`).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search iterations per move (`go nodes`).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The rules, sent to every engine by setoption and used by the referee.
    #[command(flatten)]
    pub rules: GameRuleFlags,
    /// Openings file: per line moves from the start and/or a FEN (tab-separated; the
    /// 3-move deck format). Each opening is played twice, colours reversed.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Instead of a file: random openings of this many plies, reproducible from --seed.
    #[arg(long, value_name = "PLIES", conflicts_with = "openings")]
    pub random_plies: Option<usize>,
    /// Play the openings file in a random order drawn from --seed (else file order).
    #[arg(long)]
    pub shuffle: bool,
    /// Games per pair of engines (default: twice the number of openings in the file, else 2).
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Games played at once, each worker with its own engine processes.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Seed for random openings and --shuffle.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Adjudicate a draw after this many plies played by the engines.
    #[arg(long, value_name = "PLIES")]
    pub adjudicate_draw_after: Option<u32>,
    /// Write the games to this PDN file.
    #[arg(long = "pdn", visible_alias = "pgn-out", value_name = "FILE")]
    pub pdn: Option<String>,
    /// Write the FEN tag also for games from the standard start (for py-draughts, whose
    /// American board otherwise lets the side on 21-32 move first).
    #[arg(long)]
    pub pdn_always_fen: bool,
    /// The PDN Event tag.
    #[arg(long, default_value = "buffgreen match")]
    pub event: String,
    /// Stop early by SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]
    /// (two engines only).
    #[arg(long, value_name = "PARAM", num_args = 1..)]
    pub sprt: Vec<String>,
    /// Tolerance in ms on the clock and on movetime before a move loses on time.
    #[arg(long, value_name = "MS", default_value_t = 10)]
    pub time_margin: u64,
    /// How long to wait in ms for uciok, readyok, and for bestmove under --nodes.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub reply_timeout: u64,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// Instead of playing: read this PDN file, replay every game with the library and check
    /// its result; exit status 1 on the first bad game.
    #[arg(long, value_name = "FILE")]
    pub verify_pdn: Option<String>,
}

/// Runs a match (or a PDN check); returns the process exit code: 0 done, 1 a PDN check
/// failed, 2 bad arguments or an engine that cannot be started.
pub fn run(args: &MatchArgs) -> i32 {
    if let Some(path) = &args.verify_pdn {
        return match verify_pdn(path) {
            Ok(summary) => {
                println!("{summary}");
                0
            }
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        };
    }
    match play(args) {
        Ok(summary) => {
            print!("{}", summary.table);
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Games played and scored.
    pub games: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// Per pairing of engines `(i, j)` (indices in `--engine` order), the results of `i`.
    pub pairings: Vec<((usize, usize), Record)>,
    /// How many games ended each way, by [`referee::Termination::kind`].
    pub terminations: BTreeMap<&'static str, u32>,
    /// The SPRT decision and the LLR when it was reached.
    pub decision: Option<(Decision, f64)>,
    /// The final table as printed on stdout.
    pub table: String,
}

/// Plays a match as `args` say (progress on stderr) and returns its summary.
pub fn play(args: &MatchArgs) -> Result<Summary, TourneyError> {
    Match::new(args)?.run()
}

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
        let tag = g.tag("Result").unwrap_or("*");
        if g.result.as_deref().is_some_and(|r| r != tag) {
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

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
struct Job {
    round: usize,
    pairing: usize,
    pair_no: usize,
    black: usize,
    white: usize,
    opening: usize,
}

enum Msg {
    Done(Job, Box<Played>),
    Fatal(TourneyError),
}

#[derive(Debug)]
struct Match {
    specs: Vec<EngineSpec>,
    /// Each engine's search limit (its own, else the match's).
    limits: Vec<Limit>,
    cfg: RefereeConfig,
    openings: Vec<Opening>,
    jobs: Vec<Job>,
    pairings: Vec<(usize, usize)>,
    sprt: Option<Sprt>,
    concurrency: usize,
    pdn: Option<String>,
    always_fen: bool,
    event: String,
    quiet: bool,
}

impl Match {
    fn new(a: &MatchArgs) -> Result<Match, TourneyError> {
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
        if let Some(plies) = a.random_plies {
            openings = openings::random(games.div_ceil(2), plies, a.seed, &rules);
        } else if openings.is_empty() {
            openings = openings::random(1, 0, 0, &rules);
        } else if a.shuffle {
            use rand::seq::SliceRandom;
            use rand::SeedableRng;
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(a.seed);
            openings.shuffle(&mut rng);
        }
        let sprt = if a.sprt.is_empty() {
            None
        } else {
            if specs.len() != 2 {
                return Err(TourneyError::Config(
                    "--sprt needs exactly two engines".to_string(),
                ));
            }
            Some(a.sprt.join(" ").parse()?)
        };
        if a.concurrency == 0 {
            return Err(TourneyError::Config(
                "--concurrency must be at least 1".to_string(),
            ));
        }
        let mut pairings = Vec::new();
        for i in 0..specs.len() {
            for j in i + 1..specs.len() {
                pairings.push((i, j));
            }
        }
        // Round by round over the pairings, so a round robin cut short stays balanced.
        let mut jobs = Vec::new();
        for k in 0..games {
            for (p, &(i, j)) in pairings.iter().enumerate() {
                let (black, white) = if k % 2 == 0 { (i, j) } else { (j, i) };
                jobs.push(Job {
                    round: jobs.len() + 1,
                    pairing: p,
                    pair_no: k / 2,
                    black,
                    white,
                    opening: (k / 2) % openings.len(),
                });
            }
        }
        Ok(Match {
            specs,
            limits,
            cfg: RefereeConfig {
                rules,
                margin: Duration::from_millis(a.time_margin),
                reply_timeout: Duration::from_millis(a.reply_timeout.max(1)),
                adjudicate_draw_after: a.adjudicate_draw_after,
            },
            openings,
            jobs,
            pairings,
            sprt,
            concurrency: a.concurrency,
            pdn: a.pdn.clone(),
            always_fen: a.pdn_always_fen,
            event: a.event.clone(),
            quiet: a.quiet,
        })
    }

    fn run(self) -> Result<Summary, TourneyError> {
        let mut out = match &self.pdn {
            Some(path) => Some(BufWriter::new(File::create(path).map_err(|source| {
                TourneyError::Io {
                    path: path.clone(),
                    source,
                }
            })?)),
            None => None,
        };
        let stop = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        let mut report = Report::new(&self);
        let date = today();
        let mut fatal = None;
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency.min(self.jobs.len()) {
                let tx = tx.clone();
                let (stop, next, this) = (&stop, &next, &self);
                scope.spawn(move || this.worker(next, stop, tx));
            }
            drop(tx);
            for msg in rx {
                match msg {
                    Msg::Fatal(e) => {
                        stop.store(true, Ordering::Relaxed);
                        fatal.get_or_insert(e);
                    }
                    // Workers run ahead of this loop: games that finish after the match was
                    // decided (or failed) are dropped, so the result is the same as if it had
                    // stopped at once.
                    Msg::Done(..) if stop.load(Ordering::Relaxed) => {}
                    Msg::Done(job, played) => {
                        if let Some(w) = out.as_mut() {
                            let text = self.pdn_text(&job, &played, &date);
                            let ok = w.write_all(text.as_bytes()).and_then(|_| w.flush());
                            if let Err(source) = ok {
                                stop.store(true, Ordering::Relaxed);
                                fatal.get_or_insert(TourneyError::Io {
                                    path: self.pdn.clone().unwrap_or_default(),
                                    source,
                                });
                            }
                        }
                        if report.add(&self, &job, &played) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        });
        report.finish_progress();
        if let Some(e) = fatal {
            return Err(e);
        }
        Ok(Summary {
            games: report.done,
            scheduled: report.total,
            pairings: self
                .pairings
                .iter()
                .copied()
                .zip(report.tallies.iter().copied())
                .collect(),
            terminations: report.terminations.clone(),
            decision: report.decision,
            table: report.table(&self),
        })
    }

    /// One worker: takes the next job until none are left or `stop`; owns its engines.
    fn worker(&self, next: &AtomicUsize, stop: &AtomicBool, tx: mpsc::Sender<Msg>) {
        let mut seats: Vec<Option<process::EngineProcess>> =
            (0..self.specs.len()).map(|_| None).collect();
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&job) = self.jobs.get(i) else {
                break;
            };
            let mut b = seats[job.black].take();
            let mut w = seats[job.white].take();
            let r = referee::play_game(
                &self.cfg,
                [&self.specs[job.black], &self.specs[job.white]],
                [self.limits[job.black], self.limits[job.white]],
                [&mut b, &mut w],
                &self.openings[job.opening],
                stop,
            );
            seats[job.black] = b;
            seats[job.white] = w;
            let msg = match r {
                Ok(Some(played)) => Msg::Done(job, Box::new(played)),
                Ok(None) => break,
                Err(e) => Msg::Fatal(e),
            };
            if tx.send(msg).is_err() {
                break;
            }
        }
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
    fn limits_summary(&self) -> String {
        if self.limits.iter().all(|l| *l == self.limits[0]) {
            self.limits[0].to_string()
        } else {
            let each: Vec<String> = self
                .specs
                .iter()
                .zip(&self.limits)
                .map(|(s, l)| format!("{} {l}", s.name))
                .collect();
            each.join(", ")
        }
    }

    fn pdn_text(&self, job: &Job, p: &Played, date: &str) -> String {
        pdn::write_game(
            &pdn::GameHeader {
                event: &self.event,
                date,
                round: job.round,
                white: &self.specs[job.white].name,
                black: &self.specs[job.black].name,
                result: p.outcome.pdn(),
                time_control: self.limit_text(job.black, job.white),
                termination: p.termination.describe(&self.cfg.rules),
                opening: &self.openings[job.opening].label,
                always_fen: self.always_fen,
            },
            &p.game,
        )
    }
}

/// Running totals, the progress line and the final table.
struct Report {
    start: Instant,
    total: usize,
    done: usize,
    tallies: Vec<Record>,
    halves: HashMap<(usize, usize), f64>,
    terminations: BTreeMap<&'static str, u32>,
    faults: Vec<BTreeMap<&'static str, u32>>,
    plies: usize,
    seen_warnings: HashSet<String>,
    tty: bool,
    quiet: bool,
    last_line: Option<Instant>,
    decision: Option<(Decision, f64)>,
}

impl Report {
    fn new(m: &Match) -> Report {
        Report {
            start: Instant::now(),
            total: m.jobs.len(),
            done: 0,
            tallies: vec![Record::default(); m.pairings.len()],
            halves: HashMap::new(),
            terminations: BTreeMap::new(),
            faults: vec![BTreeMap::new(); m.specs.len()],
            plies: 0,
            seen_warnings: HashSet::new(),
            tty: std::io::stderr().is_terminal(),
            quiet: m.quiet,
            last_line: None,
            decision: None,
        }
    }

    /// Counts a game; true when the SPRT has decided and the match should stop.
    fn add(&mut self, m: &Match, job: &Job, p: &Played) -> bool {
        self.done += 1;
        self.plies += p.game.moves().len() - p.opening_plies;
        *self.terminations.entry(p.termination.kind()).or_default() += 1;
        if let Some(side) = p.termination.culprit() {
            let who = if side == Color::Black {
                job.black
            } else {
                job.white
            };
            *self.faults[who].entry(p.termination.kind()).or_default() += 1;
        }
        for w in &p.warnings {
            if self.seen_warnings.insert(w.clone()) {
                self.clear_line();
                eprintln!("warning: {w}");
            }
        }
        // Points of the pairing's first engine.
        let (first, _) = m.pairings[job.pairing];
        let first_color = if job.black == first {
            Color::Black
        } else {
            Color::White
        };
        let points = p.outcome.score(first_color);
        let t = &mut self.tallies[job.pairing];
        t.add_game(points);
        if let Some(other) = self.halves.remove(&(job.pairing, job.pair_no)) {
            t.add_pair(points + other);
        } else {
            self.halves.insert((job.pairing, job.pair_no), points);
        }
        let mut stop = false;
        if let Some(s) = &m.sprt {
            let llr = s.llr(&self.tallies[0]);
            if let Some(d) = s.decide(llr) {
                self.decision = Some((d, llr));
                stop = true;
            }
        }
        self.progress(m, stop || self.done == self.total);
        stop
    }

    fn clear_line(&self) {
        if self.tty && !self.quiet && self.last_line.is_some() {
            eprint!("\r\x1b[K");
        }
    }

    fn progress(&mut self, m: &Match, last: bool) {
        if self.quiet {
            return;
        }
        let now = Instant::now();
        // On a terminal the line is redrawn after every game; in a log, once a second.
        if !self.tty
            && !last
            && self
                .last_line
                .is_some_and(|t| now - t < Duration::from_secs(1))
        {
            return;
        }
        self.last_line = Some(now);
        let elapsed = now - self.start;
        let eta = elapsed.mul_f64((self.total - self.done) as f64 / self.done.max(1) as f64);
        let mut line = format!("[{}/{}]", self.done, self.total);
        if m.specs.len() == 2 {
            let t = &self.tallies[0];
            let (elo, err) = t.elo();
            line += &format!(
                " {} vs {}: +{} ={} -{} ({:.1}%) Elo {} ±{}",
                m.specs[0].name,
                m.specs[1].name,
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                fmt_elo(elo),
                fmt_err(err)
            );
            if let Some(s) = &m.sprt {
                let (lo, hi) = s.bounds();
                line += &format!(" LLR {:.2} [{lo:.2}, {hi:.2}]", s.llr(t));
            }
        }
        line += &format!(" elapsed {} ETA {}", hms(elapsed), hms(eta));
        if self.tty {
            eprint!("\r\x1b[K{line}");
        } else {
            eprintln!("{line}");
        }
    }

    fn finish_progress(&self) {
        if self.tty && !self.quiet && self.last_line.is_some() {
            eprintln!();
        }
    }

    fn table(&self, m: &Match) -> String {
        let n = m.specs.len();
        let mut per: Vec<Record> = vec![Record::default(); n];
        for (p, &(i, j)) in m.pairings.iter().enumerate() {
            let t = self.tallies[p];
            let add = |a: &mut Record, b: Record| {
                a.wins += b.wins;
                a.draws += b.draws;
                a.losses += b.losses;
                for k in 0..5 {
                    a.pairs[k] += b.pairs[k];
                }
            };
            add(&mut per[i], t);
            add(&mut per[j], t.flipped());
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| per[b].points().total_cmp(&per[a].points()));
        let secs = self.start.elapsed().as_secs_f64();
        let mut s = format!(
            "Games: {} of {} in {:.1} s ({:.1} games/s), {} engine plies; limit {}; rules {}\n",
            self.done,
            self.total,
            secs,
            self.done as f64 / secs.max(1e-9),
            self.plies,
            m.limits_summary(),
            pdn::rules_tag(&m.cfg.rules)
        );
        let width = m
            .specs
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        s += &format!(
            "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}\n",
            "Rank",
            "Name",
            "Games",
            "Wins",
            "Draws",
            "Losses",
            "Points",
            "Score",
            "Elo",
            "±95%",
            "LOS"
        );
        for (rank, &i) in order.iter().enumerate() {
            let t = &per[i];
            let (elo, err) = t.elo();
            s += &format!(
                "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}  {:>5.1}%  {:>7}  {:>6}  {:>5.1}%\n",
                rank + 1,
                m.specs[i].name,
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                t.points(),
                100.0 * t.score(),
                fmt_elo(elo),
                fmt_err(err),
                100.0 * t.los()
            );
        }
        if n == 2 {
            let p = self.tallies[0].pairs;
            s += &format!(
                "Pairs for {} (LL LD DD/WL DW WW): {} {} {} {} {}\n",
                m.specs[0].name, p[0], p[1], p[2], p[3], p[4]
            );
        } else {
            for (p, &(i, j)) in m.pairings.iter().enumerate() {
                let t = &self.tallies[p];
                s += &format!(
                    "{} vs {}: +{} ={} -{} ({:.1}%)\n",
                    m.specs[i].name,
                    m.specs[j].name,
                    t.wins,
                    t.draws,
                    t.losses,
                    100.0 * t.score()
                );
            }
        }
        if let Some(sp) = &m.sprt {
            let (lo, hi) = sp.bounds();
            let llr = sp.llr(&self.tallies[0]);
            let verdict = match self.decision {
                Some((Decision::H1, _)) => "H1 accepted".to_string(),
                Some((Decision::H0, _)) => "H0 accepted".to_string(),
                None => "no decision".to_string(),
            };
            s += &format!("SPRT ({sp}): LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict}\n");
        }
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s += &format!("Terminations: {}\n", ends.join(", "));
        for (i, f) in self.faults.iter().enumerate() {
            if !f.is_empty() {
                let v: Vec<String> = f.iter().map(|(k, c)| format!("{k} {c}")).collect();
                s += &format!("Faults of {}: {}\n", m.specs[i].name, v.join(", "));
            }
        }
        s
    }
}

/// `h:mm:ss`.
fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Today's date (UTC) as `YYYY.MM.DD`.
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
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
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(hms(Duration::from_secs(3723)), "1:02:03");
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
        assert_eq!(m.jobs.len(), 12);
        let j: Vec<_> = m
            .jobs
            .iter()
            .filter(|j| j.pairing == 0)
            .map(|j| (j.black, j.white, j.pair_no, j.opening))
            .collect();
        assert_eq!(
            j,
            vec![(0, 1, 0, 0), (1, 0, 0, 0), (0, 1, 1, 1), (1, 0, 1, 1)]
        );
        assert_eq!(m.openings.len(), 2);
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
