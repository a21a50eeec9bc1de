//! Running totals of a match, its progress line on stderr and its final table.
//!
//! On a terminal the progress line is an `indicatif` bar on stderr, redrawn in place (rate
//! limited by the crate); warnings are printed above it. When stderr is not a terminal (a log
//! file, a pipe) the same text is written as plain lines, at most one a second and the last
//! one always. Write errors (a closed pipe) lose the text, never the match.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{FormattedDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::note;
use super::referee::Played;
use super::schedule::Job;
use super::sprt::{elo_under, Decision, Sprt};
use super::stats::{fmt_elo, fmt_err, Record};
use buffgreen::board::{fen, Rules};
use buffgreen::types::Color;

/// What the report knows of a run: enough to count its games and print its table, whether
/// they are played now (the runner) or read back from PDN files (`--merge`).
#[derive(Clone, Debug)]
pub(super) struct Setup {
    /// The engines' names, by index.
    pub(super) names: Vec<String>,
    /// The pairings of engine indices; a game's [`Job::pairing`] indexes this.
    pub(super) pairings: Vec<(usize, usize)>,
    /// The SPRT between the first two engines, if any.
    pub(super) sprt: Option<Sprt>,
    /// The search limit as the table's first line gives it.
    pub(super) limit: String,
    /// The rules the games are played under.
    pub(super) rules: Rules,
    /// Games this run counts in all.
    pub(super) total: usize,
    /// No progress line.
    pub(super) quiet: bool,
}

/// How progress is shown.
enum Progress {
    /// `--quiet`.
    Off,
    /// stderr is a terminal: a bar redrawn in place.
    Bar(ProgressBar),
    /// stderr is a file or a pipe: plain lines, the last written at this moment.
    Lines(Option<Instant>),
}

/// How many game fingerprints a match keeps for spotting repeats (8 bytes and a round each).
const GAMES_REMEMBERED: usize = 1_000_000;

/// How many repeated games get a warning line of their own (the table counts them all).
const REPEATS_SHOWN: usize = 10;

/// Running totals, the progress line and the final table.
pub(super) struct Report {
    setup: Setup,
    start: Instant,
    pub(super) total: usize,
    pub(super) done: usize,
    pub(super) tallies: Vec<Record>,
    halves: HashMap<(usize, usize), f64>,
    pub(super) terminations: BTreeMap<&'static str, u32>,
    faults: Vec<BTreeMap<&'static str, u32>>,
    plies: usize,
    seen_warnings: HashSet<String>,
    /// A fingerprint of each game (start and moves) with its round, to spot repeated games;
    /// at most [`GAMES_REMEMBERED`] of them.
    seen_games: HashMap<u64, usize>,
    /// Games that repeat an earlier game move for move.
    pub(super) repeats: usize,
    /// Ctrl-C stopped the match.
    pub(super) interrupted: bool,
    /// An error stopped the match (an output that cannot be written, an engine that cannot be
    /// started): the table counts the games finished before it.
    pub(super) stopped: bool,
    progress: Progress,
    pub(super) decision: Option<(Decision, f64)>,
}

impl Report {
    pub(super) fn new(setup: Setup) -> Report {
        let progress = if setup.quiet {
            Progress::Off
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(
                Some(setup.total as u64),
                ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = ProgressStyle::with_template(
                "[{pos}/{len}] {msg}elapsed {elapsed_precise} ETA {eta_precise}",
            ) {
                bar.set_style(style);
            }
            Progress::Bar(bar)
        } else {
            Progress::Lines(None)
        };
        Report {
            start: Instant::now(),
            total: setup.total,
            done: 0,
            tallies: vec![Record::default(); setup.pairings.len()],
            halves: HashMap::new(),
            terminations: BTreeMap::new(),
            faults: vec![BTreeMap::new(); setup.names.len()],
            plies: 0,
            seen_warnings: HashSet::new(),
            seen_games: HashMap::new(),
            repeats: 0,
            interrupted: false,
            stopped: false,
            progress,
            decision: None,
            setup,
        }
    }

    /// Counts a game; true when the SPRT has decided and the match should stop.
    pub(super) fn add(&mut self, job: &Job, p: &Played) -> bool {
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
        let mut warnings = p.warnings.clone();
        if let Some(first) = self.repeat_of(job.round, p) {
            self.repeats += 1;
            if self.repeats <= REPEATS_SHOWN {
                warnings.push(format!(
                    "game {} repeats game {first} move for move: it is not an independent result",
                    job.round
                ));
            }
        }
        for w in &warnings {
            if self.seen_warnings.insert(w.clone()) {
                self.note(&format!("warning: {w}\n"));
            }
        }
        // Points of the pairing's first engine.
        let (first, _) = self.setup.pairings[job.pairing];
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
        if let Some(s) = &self.setup.sprt {
            let llr = s.llr(&self.tallies[0]);
            if let Some(d) = s.decide(llr) {
                self.decision = Some((d, llr));
                stop = true;
            }
        }
        self.progress(stop || self.done == self.total);
        stop
    }

    /// The round of an earlier game that `p` repeats, remembering `p` otherwise.
    fn repeat_of(&mut self, round: usize, p: &Played) -> Option<usize> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        fen::write(p.game.start()).hash(&mut h);
        for m in p.game.moves() {
            m.to_string().hash(&mut h);
        }
        let key = h.finish();
        if let Some(&first) = self.seen_games.get(&key) {
            return Some(first);
        }
        if self.seen_games.len() < GAMES_REMEMBERED {
            self.seen_games.insert(key, round);
        }
        None
    }

    /// Writes `text` to stderr, above the progress bar when there is one.
    fn note(&self, text: &str) {
        match &self.progress {
            Progress::Bar(bar) => bar.suspend(|| note(text)),
            _ => note(text),
        }
    }

    /// The progress line's middle: the two engines' result and the SPRT's state.
    fn progress_text(&self) -> String {
        let mut line = String::new();
        if self.setup.names.len() == 2 {
            line += &self.pair_line((0, 1), &self.tallies[0]);
            if let Some(s) = &self.setup.sprt {
                let (lo, hi) = s.bounds();
                line += &format!(" LLR {:.2} [{lo:.2}, {hi:.2}]", s.llr(&self.tallies[0]));
            }
            line += " ";
        }
        line
    }

    fn progress(&mut self, last: bool) {
        match &self.progress {
            Progress::Off => {}
            Progress::Bar(bar) => {
                // The count first: the message's figures are drawn with it.
                bar.set_position(self.done as u64);
                bar.set_message(self.progress_text());
            }
            Progress::Lines(shown) => {
                // In a log, once a second and the last line.
                let now = Instant::now();
                if !last && shown.is_some_and(|t| now - t < Duration::from_secs(1)) {
                    return;
                }
                let elapsed = now - self.start;
                let left = (self.total - self.done) as f64 / self.done.max(1) as f64;
                note(&format!(
                    "[{}/{}] {}elapsed {} ETA {}\n",
                    self.done,
                    self.total,
                    self.progress_text(),
                    FormattedDuration(elapsed),
                    FormattedDuration(elapsed.mul_f64(left))
                ));
                self.progress = Progress::Lines(Some(now));
            }
        }
    }

    /// Leaves the progress bar's last state on its line (not filled up: a match cut short
    /// shows the games it played) and ends the line, so that the table starts on its own.
    pub(super) fn finish_progress(&self) {
        if let Progress::Bar(bar) = &self.progress {
            bar.abandon();
            if !bar.is_hidden() {
                note("\n");
            }
        }
    }

    pub(super) fn table(&self) -> String {
        let m = &self.setup;
        let n = m.names.len();
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
            m.limit,
            m.rules
        );
        let width = m.names.iter().map(|e| e.len()).max().unwrap_or(4).max(4);
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
            let (elo, err) = self.elo_of(t);
            s += &format!(
                "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}  {:>5.1}%  {:>7}  {:>6}  {:>5.1}%\n",
                rank + 1,
                m.names[i],
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
                m.names[0], p[0], p[1], p[2], p[3], p[4]
            );
        } else {
            for (p, &pair) in m.pairings.iter().enumerate() {
                s += &self.pair_line(pair, &self.tallies[p]);
                s += "\n";
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
        if self.interrupted {
            s += &format!(
                "Interrupted: the table counts the {} games finished\n",
                self.done
            );
        }
        if self.stopped {
            s += &format!(
                "Stopped by an error: the table counts the {} games finished\n",
                self.done
            );
        }
        if self.repeats > 0 {
            s += &format!(
                "Repeated games: {} (a game played move for move before counts again)\n",
                self.repeats
            );
        }
        for (i, f) in self.faults.iter().enumerate() {
            if !f.is_empty() {
                let v: Vec<String> = f.iter().map(|(k, c)| format!("{k} {c}")).collect();
                s += &format!("Faults of {}: {}\n", m.names[i], v.join(", "));
            }
        }
        s
    }

    /// Elo and its 95% error bar under the run's SPRT model: from game pairs (pentanomial,
    /// the default, also without `--sprt`), or from single games with `--sprt
    /// model=trinomial`.
    fn elo_of(&self, t: &Record) -> (f64, f64) {
        elo_under(t, self.setup.sprt.map(|s| s.model))
    }

    /// One pairing's result: `a vs b: +W =D -L (score%) Elo E ±err`, from the first engine's
    /// side.
    fn pair_line(&self, (i, j): (usize, usize), t: &Record) -> String {
        let (elo, err) = self.elo_of(t);
        let names = &self.setup.names;
        format!(
            "{} vs {}: +{} ={} -{} ({:.1}%) Elo {} ±{}",
            names[i],
            names[j],
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            fmt_elo(elo),
            fmt_err(err)
        )
    }
}
