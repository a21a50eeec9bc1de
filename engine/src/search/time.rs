//! Time management: how long to think, and when to stop early or go on longer.
//!
//! `movetime` is used as given, less the move overhead (but at least half of it is kept). With a clock the manager aims at a
//! soft target (the remaining time spread over the moves to go, plus most of the increment)
//! and a hard limit it never passes (a few targets, and never more than a fixed share of what
//! is left, so the engine cannot flag). Between the two it decides by the root statistics:
//! it stops at the target when the most visited move is also the best valued one, goes on
//! toward the hard limit while they disagree, and stops before the target when the leader
//! cannot be caught in the time left.

use std::time::{Duration, Instant};

/// Moves assumed left in the game when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The hard limit in soft targets.
const HARD_TARGETS: u32 = 3;
/// The most of the remaining time one move may take (per mille), and with `movestogo 1`.
const MAX_SHARE: u32 = 400;
const LAST_MOVE_SHARE: u32 = 900;
/// The increment share added to the target (per mille).
const INCREMENT_SHARE: u32 = 750;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim: stop here when the choice is clear.
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
    /// True for a clock budget (early stops and extensions apply); false for `movetime`.
    pub flexible: bool,
}

/// The budget of a move with `movetime`, or else the mover's remaining `time`, its `inc` and
/// the moves to the next time control (`movestogo`); `None` means no time limit. The limits
/// pick the mover's clock (see [`crate::search::Limits::budget`]).
pub fn budget(
    movetime: Option<Duration>,
    time: Option<Duration>,
    inc: Option<Duration>,
    movestogo: Option<u32>,
    overhead: Duration,
) -> Option<Budget> {
    if let Some(t) = movetime {
        // The overhead comes off, but a short movetime keeps at least half of it.
        let t = t.saturating_sub(overhead).max(t / 2);
        return Some(Budget {
            soft: t,
            hard: t,
            flexible: false,
        });
    }
    let time = time?;
    let usable = time.saturating_sub(overhead);
    let inc = inc.unwrap_or_default();
    let to_go = movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
    let share = if to_go == 1 {
        LAST_MOVE_SHARE
    } else {
        MAX_SHARE
    };
    let cap = usable * share / 1000;
    let soft = (usable / to_go + inc * INCREMENT_SHARE / 1000).min(cap);
    let hard = (soft * HARD_TARGETS).min(cap);
    Some(Budget {
        soft,
        hard,
        flexible: true,
    })
}

/// What the root looks like to the manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootView {
    /// Visits of the most visited move.
    pub best_visits: u64,
    /// Visits of the runner-up.
    pub second_visits: u64,
    /// True when the most visited move also has the best mean value.
    pub agrees: bool,
    /// Iterations done in this search.
    pub iterations: u64,
}

/// A running budget.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    budget: Option<Budget>,
}

impl Clock {
    /// Starts timing `budget` now.
    pub fn start(budget: Option<Budget>) -> Clock {
        Clock::since(Instant::now(), budget)
    }

    /// Times `budget` from `start`: the search charges the move with the work it did before
    /// its loop (re-rooting a large tree), so that work can never make it flag.
    pub fn since(start: Instant, budget: Option<Budget>) -> Clock {
        Clock { start, budget }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the search should stop now; `root` is asked only when the budget is
    /// flexible.
    pub fn should_stop(&self, root: impl FnOnce() -> RootView) -> bool {
        self.should_stop_at(self.elapsed(), root)
    }

    /// The decision of [`Clock::should_stop`] after `elapsed`.
    fn should_stop_at(&self, elapsed: Duration, root: impl FnOnce() -> RootView) -> bool {
        let Some(b) = self.budget else {
            return false;
        };
        if elapsed >= b.hard {
            return true;
        }
        if !b.flexible {
            return false;
        }
        let root = root();
        if elapsed >= b.soft {
            return root.agrees;
        }
        // Could the runner-up still overtake the leader by the soft target, if it got every
        // remaining iteration?
        let secs = elapsed.as_secs_f64();
        if secs <= 0.0 || root.iterations < 1000 {
            return false;
        }
        let rate = root.iterations as f64 / secs;
        let left = rate * (b.soft - elapsed).as_secs_f64();
        root.agrees && (root.best_visits - root.second_visits) as f64 > left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::types::Color;

    fn budget(l: &Limits, side: Color, overhead: Duration) -> Option<Budget> {
        l.budget(side, overhead)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let l = Limits::movetime(ms(1000));
        let b = budget(&l, Color::Black, ms(10)).unwrap();
        assert_eq!((b.soft, b.hard, b.flexible), (ms(990), ms(990), false));
        let short = Limits::movetime(ms(16));
        assert_eq!(budget(&short, Color::White, ms(10)).unwrap().hard, ms(8));
    }

    fn view(best: u64, second: u64, agrees: bool) -> RootView {
        RootView {
            best_visits: best,
            second_visits: second,
            agrees,
            iterations: best + second,
        }
    }

    #[test]
    fn a_clear_choice_stops_early_and_an_unclear_one_goes_on() {
        let flexible = Budget {
            soft: ms(10_000),
            hard: ms(30_000),
            flexible: true,
        };
        let clock = Clock::start(Some(flexible));
        // After 6 s, 4 s before the target; 100,000 iterations so far, ~66,667 more to come.
        let t = ms(6_000);
        assert!(clock.should_stop_at(t, || view(90_000, 10_000, true)));
        assert!(!clock.should_stop_at(t, || view(60_000, 40_000, true)));
        assert!(!clock.should_stop_at(t, || view(90_000, 10_000, false)));
        // Past the target: stop when the most visited move is the best valued one.
        let t = ms(11_000);
        assert!(clock.should_stop_at(t, || view(60_000, 40_000, true)));
        assert!(!clock.should_stop_at(t, || view(60_000, 40_000, false)));
        // Past the hard limit: stop whatever.
        assert!(clock.should_stop_at(ms(30_000), || view(60_000, 40_000, false)));
        // No budget: never.
        assert!(!Clock::start(None).should_stop_at(t, || view(1, 0, true)));
    }

    #[test]
    fn clock_budget_uses_the_side_to_move_and_never_flags() {
        let l = Limits {
            wtime: Some(ms(60_000)),
            btime: Some(ms(1_000)),
            winc: Some(ms(1_000)),
            ..Limits::default()
        };
        let w = budget(&l, Color::White, ms(10)).unwrap();
        assert_eq!(w.soft, ms(59_990) / 30 + ms(750));
        assert_eq!(w.hard, w.soft * 3);
        let b = budget(&l, Color::Black, ms(10)).unwrap();
        assert!(b.hard <= ms(990) * 2 / 5);
        let low = Limits {
            btime: Some(ms(5)),
            ..Limits::default()
        };
        assert_eq!(budget(&low, Color::Black, ms(10)).unwrap().hard, ms(0));
        assert_eq!(budget(&Limits::default(), Color::Black, ms(10)), None);
    }
}
