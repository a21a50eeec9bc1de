//! Plays a match's schedule ([`super::schedule`]): the worker threads that play its games,
//! and the loop that collects results, writes the PDN and feeds the report.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::date::today;
use super::error::TourneyError;
use super::json;
use super::ordered::RoundOrder;
use super::process;
use super::referee::{self, Played};
use super::report::{Report, Setup};
use super::resume;
use super::schedule::{Job, Match};
use super::summary::Summary;

/// Raised by Ctrl-C (see [`interrupt`]): the match stops, and its table counts the games
/// finished.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks the running match to stop at once (the Ctrl-C handler).
pub(super) fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

enum Msg {
    Done(Job, Box<Played>, String),
    Fatal(TourneyError),
}

impl Match {
    /// What the report of this run needs.
    fn report_setup(&self) -> Setup {
        Setup {
            names: self.specs.iter().map(|s| s.name().to_string()).collect(),
            pairings: self.pairings.clone(),
            sprt: self.sprt,
            limit: self.limits_summary(),
            rules: self.cfg.rules,
            total: self.planned(),
            quiet: self.quiet,
        }
    }

    pub(super) fn run(self) -> Result<Summary, TourneyError> {
        // Appended, as cutechess-cli does: the games of earlier runs stay.
        let mut out = self.pdn.as_deref().map(append).transpose()?;
        let mut json_out = self.json.as_deref().map(append).transpose()?;
        // Games wait here until the games of every earlier round are written.
        let mut order = RoundOrder::new();
        let stop = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        let mut report = Report::new(self.report_setup());
        let date = today();
        let mut fatal = None;
        // `--resume`: the games already in the PDN are counted first and not played again.
        let mut finished = HashSet::new();
        if let (true, Some(path)) = (self.resume, &self.pdn) {
            for (job, played) in resume::finished_games(&self, path)? {
                finished.insert(job.round);
                if report.add(&job, &played) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency.min(self.planned()) {
                let tx = tx.clone();
                let (stop, next, this, skip) = (&stop, &next, &self, &finished);
                scope.spawn(move || this.worker(next, stop, skip, tx));
            }
            drop(tx);
            loop {
                let got = rx.recv_timeout(Duration::from_millis(100));
                if INTERRUPTED.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                    // Games under way (and one just received) are abandoned, not scored.
                    stop.store(true, Ordering::Relaxed);
                    report.interrupted = true;
                }
                let msg = match got {
                    Ok(m) => m,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                match msg {
                    Msg::Fatal(e) => {
                        stop.store(true, Ordering::Relaxed);
                        fatal.get_or_insert(e);
                    }
                    // Workers run ahead of this loop: games that finish after the match was
                    // decided (or failed) are dropped, so the result is the same as if it had
                    // stopped at once.
                    Msg::Done(..) if stop.load(Ordering::Relaxed) => {}
                    Msg::Done(job, played, label) => {
                        let texts = self.texts(&job, &played, &label, &date);
                        let absent = |r: usize| {
                            r <= self.total() && (!self.planned_round(r) || finished.contains(&r))
                        };
                        let due = order.push(job.round, texts, absent);
                        if let Err(e) = self.write_out(&due, &mut out, &mut json_out) {
                            stop.store(true, Ordering::Relaxed);
                            fatal.get_or_insert(e);
                        }
                        if report.add(&job, &played) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        });
        report.finish_progress();
        let rest = self.write_out(&order.drain(), &mut out, &mut json_out);
        if let Some(e) = fatal.or(rest.err()) {
            // The games played so far are still a result: their table goes with the error.
            report.stopped = true;
            return Err(TourneyError::Stopped {
                table: report.table(),
                cause: Box::new(e),
            });
        }
        let summary = Summary {
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
            interrupted: report.interrupted,
            table: report.table(),
        };
        if let Some(w) = json_out.as_mut() {
            let line = json::summary(&self, &summary).to_string() + "\n";
            write_to(w, &line, self.json.as_deref())?;
        }
        Ok(summary)
    }

    /// A finished game's PDN text and, under `--json`, its JSON line.
    fn texts(&self, job: &Job, p: &Played, opening: &str, date: &str) -> (String, String) {
        let pdn = if self.pdn.is_some() {
            self.pdn_text(job, p, opening, date)
        } else {
            String::new()
        };
        let json = if self.json.is_some() {
            json::game(self, job, p, opening).to_string() + "\n"
        } else {
            String::new()
        };
        (pdn, json)
    }

    /// Writes games (in the order given) to the PDN and the JSON file.
    fn write_out(
        &self,
        games: &[(String, String)],
        pdn: &mut Option<BufWriter<std::fs::File>>,
        json: &mut Option<BufWriter<std::fs::File>>,
    ) -> Result<(), TourneyError> {
        for (p, j) in games {
            if let Some(w) = pdn.as_mut() {
                write_to(w, p, self.pdn.as_deref())?;
            }
            if let Some(w) = json.as_mut() {
                write_to(w, j, self.json.as_deref())?;
            }
        }
        Ok(())
    }

    /// One worker: takes the next job until none are left or `stop`; owns its engines. Jobs
    /// whose round is in `skip` (finished in an earlier run) are passed over.
    fn worker(
        &self,
        next: &AtomicUsize,
        stop: &AtomicBool,
        skip: &HashSet<usize>,
        tx: mpsc::Sender<Msg>,
    ) {
        let mut seats: Vec<Option<process::EngineProcess>> =
            (0..self.specs.len()).map(|_| None).collect();
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = self.planned_job(i) else {
                break;
            };
            if skip.contains(&job.round) {
                continue;
            }
            let opening = match self.openings.get(job.pair_no) {
                Ok(o) => o,
                Err(e) => {
                    let _ = tx.send(Msg::Fatal(e.into()));
                    break;
                }
            };
            let mut b = seats[job.black].take();
            let mut w = seats[job.white].take();
            let r = referee::play_game(
                &self.cfg,
                [job.black, job.white].map(|e| referee::Entrant {
                    spec: &self.specs[e],
                    limit: self.limits[e],
                    started: &self.started[e],
                }),
                self.seed.wrapping_add(job.round as u64),
                [&mut b, &mut w],
                &opening,
                stop,
            );
            seats[job.black] = b;
            seats[job.white] = w;
            let msg = match r {
                Ok(Some(played)) => Msg::Done(job, Box::new(played), opening.label),
                Ok(None) => break,
                Err(e) => Msg::Fatal(e),
            };
            if tx.send(msg).is_err() {
                break;
            }
        }
    }
}

/// Opens `path` for appending, creating it if missing.
fn append(path: &str) -> Result<BufWriter<std::fs::File>, TourneyError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(BufWriter::new)
        .map_err(|source| TourneyError::Io {
            path: path.to_string(),
            source,
        })
}

/// Writes and flushes `text`, so that a run cut short keeps every game written.
fn write_to(
    w: &mut BufWriter<std::fs::File>,
    text: &str,
    path: Option<&str>,
) -> Result<(), TourneyError> {
    w.write_all(text.as_bytes())
        .and_then(|_| w.flush())
        .map_err(|source| TourneyError::Io {
            path: path.unwrap_or_default().to_string(),
            source,
        })
}
