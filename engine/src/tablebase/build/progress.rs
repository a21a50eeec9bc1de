//! The build's progress on stderr: a bar with an ETA for the pass under way when stderr is a
//! terminal, a line every few seconds otherwise, and one line per finished slice.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::tablebase::build::Event;
use crate::tablebase::Material;

/// Turns build events into stderr lines.
pub(crate) struct Progress {
    tty: bool,
    slice: Option<(usize, usize, Material)>,
    pass: String,
    pass_start: Instant,
    last: Instant,
    /// This run's rate, from its first slice built on.
    run: Option<Run>,
}

/// What a run of the build has done: the whole build's rate in this run.
#[derive(Clone, Copy)]
struct Run {
    /// When it started its first slice.
    started: Instant,
    /// Positions of the slices it has built.
    built: u64,
    /// Positions of the slice under way.
    current: u64,
}

/// The time the rest of a build takes, `left` positions at the rate of `built` positions in
/// `spent`; `None` before anything was built.
fn build_left(built: u64, spent: Duration, left: u64) -> Option<Duration> {
    (built > 0).then(|| spent.mul_f64(left as f64 / built as f64))
}

impl Progress {
    pub(crate) fn new() -> Progress {
        Progress {
            tty: std::io::stderr().is_terminal(),
            slice: None,
            pass: String::new(),
            pass_start: Instant::now(),
            last: Instant::now(),
            run: None,
        }
    }

    pub(crate) fn event(&mut self, e: Event) {
        let mut err = std::io::stderr().lock();
        match e {
            Event::Kept { material } => self.line(
                &mut err,
                format_args!("{material}: kept (already built, checksum good)"),
            ),
            Event::Start {
                number,
                of,
                material,
                positions,
                before,
                total,
            } => {
                self.slice = Some((number, of, material));
                let done = 100.0 * before as f64 / total.max(1) as f64;
                let run = self.run.get_or_insert(Run {
                    started: Instant::now(),
                    built: 0,
                    current: 0,
                });
                run.current = positions;
                // A multi-session build wants to know how many sessions it still needs.
                let left = total.saturating_sub(before);
                let left = build_left(run.built, run.started.elapsed(), left)
                    .map(|t| format!(", about {} left at this run's rate", span(t)))
                    .unwrap_or_default();
                self.line(
                    &mut err,
                    format_args!(
                        "[{number}/{of}] {material}: {positions} positions ({done:.1}% of the build's positions done{left})"
                    ),
                );
            }
            Event::Progress { pass, done, total } => {
                let now = Instant::now();
                if pass != self.pass {
                    self.pass = pass;
                    self.pass_start = now;
                }
                let every = if self.tty {
                    Duration::from_millis(250)
                } else {
                    Duration::from_secs(10)
                };
                if now.duration_since(self.last) < every && (done < total || !self.tty) {
                    return;
                }
                self.last = now;
                let frac = if total == 0 {
                    1.0
                } else {
                    done as f64 / total as f64
                };
                let spent = now.duration_since(self.pass_start).as_secs_f64();
                let eta = if frac > 0.0 {
                    spent * (1.0 - frac) / frac
                } else {
                    0.0
                };
                let width = 30;
                let filled = (frac * width as f64) as usize;
                let bar: String = "#".repeat(filled) + &".".repeat(width - filled.min(width));
                let (n, of, m) = self
                    .slice
                    .map_or((0, 0, String::new()), |(n, of, m)| (n, of, m.to_string()));
                let line = format!(
                    "[{n}/{of}] {m} {:<9} [{bar}] {:>3.0}% ETA {:.0}s",
                    self.pass,
                    frac * 100.0,
                    eta
                );
                if self.tty {
                    let _ = write!(err, "\r{line}\x1b[K");
                } else {
                    let _ = writeln!(err, "{line}");
                }
            }
            Event::Resumed { material, level } => self.line(
                &mut err,
                format_args!("{material}: resumed from its save, {level} levels done"),
            ),
            Event::ResumeRefused { why } => {
                self.line(&mut err, format_args!("{why}; the slice starts over"));
            }
            Event::Saved {
                material,
                level,
                bytes,
                elapsed,
            } => self.line(
                &mut err,
                format_args!(
                    "{material}: saved after {level} levels ({bytes} bytes, {:.1}s)",
                    elapsed.as_secs_f64()
                ),
            ),
            Event::Done {
                material,
                elapsed,
                reading,
                writing,
                bytes,
                memory,
                counts,
            } => {
                if let Some(run) = &mut self.run {
                    run.built += run.current;
                }
                self.line(
                    &mut err,
                    format_args!(
                    "{material}: done in {:.1}s (reading {:.1}s, writing {:.1}s), {bytes} bytes, \
                     {:.1} MiB of tables in memory, wins {} losses {} draws {}",
                    elapsed.as_secs_f64(),
                    reading.as_secs_f64(),
                    writing.as_secs_f64(),
                    memory as f64 / (1024.0 * 1024.0),
                    counts[0],
                    counts[1],
                    counts[2]
                ),
                )
            }
        }
    }

    /// Writes `text` as a line of its own, first clearing the progress bar a terminal shows.
    fn line(&self, err: &mut impl Write, text: std::fmt::Arguments) {
        if self.tty {
            let _ = write!(err, "\r\x1b[K");
        }
        let _ = writeln!(err, "{text}");
    }
}

/// `t` for a reader: hours to a tenth, minutes, or seconds.
fn span(t: Duration) -> String {
    let s = t.as_secs_f64();
    if s >= 3600.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s >= 60.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{s:.0} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rest_of_a_build_takes_its_positions_at_the_rate_of_this_run() {
        let hour = Duration::from_secs(3600);
        assert_eq!(build_left(0, hour, 10), None);
        assert_eq!(build_left(2_000, hour, 6_000), Some(3 * hour));
        assert_eq!(build_left(2_000, hour, 0), Some(Duration::ZERO));
        assert_eq!(span(Duration::from_secs(79_560)), "22.1 h");
        assert_eq!(span(Duration::from_secs(1_290)), "22 min");
        assert_eq!(span(Duration::from_millis(4_400)), "4 s");
    }
}
