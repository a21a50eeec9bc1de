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
}

impl Progress {
    pub(crate) fn new() -> Progress {
        Progress {
            tty: std::io::stderr().is_terminal(),
            slice: None,
            pass: String::new(),
            pass_start: Instant::now(),
            last: Instant::now(),
        }
    }

    pub(crate) fn event(&mut self, e: Event) {
        let mut err = std::io::stderr().lock();
        match e {
            Event::Kept { material } => {
                let _ = writeln!(err, "{material}: kept (already built, checksum good)");
            }
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
                let _ = writeln!(
                    err,
                    "[{number}/{of}] {material}: {positions} positions ({done:.1}% of the build's positions done)"
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
            } => self.line(
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
            ),
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
