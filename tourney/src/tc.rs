//! Time controls and the clocks the runner keeps for each side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::error::TourneyError;

/// A per-game time control: `base` seconds for `moves` moves (or the whole game), plus
/// `increment` after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40` in `40/60+0.6`); `None` for sudden death with increment.
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = TourneyError;

    /// `40/60+0.6`, `60+0.6`, `60`, `40/60` (seconds, decimals allowed).
    fn from_str(text: &str) -> Result<TimeControl, TourneyError> {
        let bad = || TourneyError::TimeControl(text.to_string());
        let t = text.trim();
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.parse().map_err(|_| bad())?;
                if m == 0 {
                    return Err(bad());
                }
                (Some(m), r)
            }
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).ok_or_else(bad)?, seconds(i).ok_or_else(bad)?),
            None => (seconds(rest).ok_or_else(bad)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base,
            increment: inc,
        })
    }
}

/// Non-negative decimal seconds, at most a day.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.trim().parse().ok()?;
    (v.is_finite() && (0.0..=86_400.0).contains(&v)).then(|| Duration::from_secs_f64(v))
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// The form it was given in: `40/60+0.6`, `60+0.6` (increment omitted when zero).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", fmt_secs(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", fmt_secs(self.increment))?;
        }
        Ok(())
    }
}

/// What limits each search of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Clocks per side: `go wtime .. btime .. winc .. binc .. [movestogo ..]`.
    Clock(TimeControl),
    /// A fixed time per move: `go movetime <ms>`.
    MoveTime(Duration),
    /// A fixed number of search iterations per move: `go nodes <n>`.
    Nodes(u64),
}

impl Limit {
    /// The limit named by an engine spec field or command-line option: `tc` (a time control),
    /// `movetime` (milliseconds, > 0) or `nodes` (> 0); `None` for other keys.
    pub fn from_field(key: &str, value: &str) -> Option<Result<Limit, TourneyError>> {
        let positive = |v: &str| v.parse::<u64>().ok().filter(|&n| n > 0);
        let bad =
            || TourneyError::Config(format!("bad {key} '{value}': expected a number above 0"));
        Some(match key {
            "tc" => value.parse().map(Limit::Clock),
            "movetime" => positive(value)
                .map(|ms| Limit::MoveTime(Duration::from_millis(ms)))
                .ok_or_else(bad),
            "nodes" => positive(value).map(Limit::Nodes).ok_or_else(bad),
            _ => return None,
        })
    }
}

impl fmt::Display for Limit {
    /// The PDN `TimeControl` value: `40/60+0.6`, `movetime=0.1`, `nodes=1000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock(tc) => write!(f, "{tc}"),
            Limit::MoveTime(d) => write!(f, "movetime={}", fmt_secs(*d)),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// One side's clock under a [`TimeControl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    remaining: Duration,
    moves_left: Option<u32>,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            remaining: tc.base,
            moves_left: tc.moves,
        }
    }

    /// Time left now.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Moves to the next time control (`movestogo`), for repeating controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    /// The increment.
    pub fn increment(&self) -> Duration {
        self.tc.increment
    }

    /// The longest a move may take before the side loses on time: what is left plus `margin`.
    pub fn allowance(&self, margin: Duration) -> Duration {
        self.remaining + margin
    }

    /// Charges a move that took `elapsed`. Over the allowance it is a loss on time and the
    /// overrun is returned. Otherwise the time is taken off (down to zero when it ate into the
    /// margin), the increment is added and, at the end of a period, the next period's time.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Duration> {
        if elapsed > self.allowance(margin) {
            return Err(elapsed - self.remaining);
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.tc.increment;
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.tc.moves.unwrap_or(1);
                self.remaining += self.tc.base;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_prints_time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base: ms(60_000),
                increment: ms(600)
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "1+0.01".parse().unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (None, ms(1000), ms(10)));
        assert_eq!(tc.to_string(), "1+0.01");
        assert_eq!("0.5".parse::<TimeControl>().unwrap().to_string(), "0.5");
        for bad in [
            "",
            "x",
            "0/60",
            "40/",
            "60+",
            "-1",
            "0",
            "1e9",
            "inf",
            "40/60+0.6+1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(Limit::MoveTime(ms(100)).to_string(), "movetime=0.1");
        assert_eq!(Limit::Nodes(7).to_string(), "nodes=7");
        assert_eq!(
            Limit::from_field("movetime", "250").unwrap().unwrap(),
            Limit::MoveTime(ms(250))
        );
        assert!(Limit::from_field("nodes", "0").unwrap().is_err());
        assert!(Limit::from_field("tc", "x").unwrap().is_err());
        assert!(Limit::from_field("depth", "3").is_none());
    }

    #[test]
    fn clock_charges_increments_and_periods() {
        let mut c = Clock::new("2/1+0.1".parse().unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(300), ms(10)).unwrap();
        assert_eq!(c.remaining(), ms(800));
        assert_eq!(c.moves_to_go(), Some(1));
        // The second move ends the period: 800 - 500 + 100 + 1000.
        c.charge(ms(500), ms(10)).unwrap();
        assert_eq!(c.remaining(), ms(1400));
        assert_eq!(c.moves_to_go(), Some(2));
        // Eating into the margin leaves zero, not a negative clock.
        c.charge(ms(1405), ms(10)).unwrap();
        assert_eq!(c.remaining(), ms(100));
        // Past the margin: a loss, with the overrun.
        assert_eq!(c.charge(ms(111), ms(10)), Err(ms(11)));
    }

    #[test]
    fn sudden_death_with_increment() {
        let mut c = Clock::new("1+0.01".parse().unwrap());
        for _ in 0..10 {
            c.charge(ms(50), Duration::ZERO).unwrap();
        }
        assert_eq!(c.remaining(), ms(600));
        assert_eq!(c.moves_to_go(), None);
        assert_eq!(c.charge(ms(601), Duration::ZERO), Err(ms(1)));
    }
}
