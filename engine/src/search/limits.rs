//! What a `go` means, read in one place: the [`Limits`] it sets, and what they answer for the
//! side to move: the mover's clock ([`Limits::clock`]), whether a root move may be played
//! ([`Limits::allows`], and the move to play without a search, [`Limits::fallback`]), how
//! the search ends ([`Limits::end`]) and, under a search's [`Behaviour`], the [`Terms`] it
//! runs under (time budget, iteration limit, end). The engine completes a `go` here
//! ([`Limits::complete`]); the job, the driver, the time manager and the debug line take
//! their answers from here rather than reading the fields again.

use std::time::Duration;

use crate::board::Game;
use crate::search::params::Behaviour;
use crate::search::time::{self, Budget};
use crate::types::{Color, Move};

/// Limits of one search (the arguments of `go`). All absent with `infinite` false means
/// "search until stopped" as well; the protocol layer decides what a bare `go` means.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Iteration budget.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Black's remaining clock.
    pub btime: Option<Duration>,
    /// White's remaining clock.
    pub wtime: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Ponder search: no time limit applies until `ponderhit`.
    pub ponder: bool,
    /// Only these root moves are considered (empty: all).
    pub searchmoves: Vec<Move>,
    /// Stop once the average depth of the tree (`info depth`) reaches this.
    pub depth: Option<u32>,
    /// Stop once the solver proves a win for the side to move in at most this many of its
    /// own moves.
    pub mate: Option<u32>,
}

/// The mover's clock: what `go` gives for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnClock {
    /// Its remaining time (`wtime` or `btime`).
    pub time: Option<Duration>,
    /// Its increment per move (`winc` or `binc`).
    pub inc: Option<Duration>,
}

/// How a search ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// By itself, at a limit it always reaches: a time budget or an iteration limit.
    Limit,
    /// When its `depth` or `mate` is reached, which may never happen (then `stop` ends it).
    Target,
    /// On `stop` only: `go infinite`, or no limit at all.
    Stop,
}

impl End {
    /// The end of a search that is `infinite` or not, with a limit it always reaches
    /// (`limited`) or not, and a `depth` or `mate` target or not: the one rule behind
    /// [`Limits::end`] and [`Terms::end`].
    fn of(infinite: bool, limited: bool, target: bool) -> End {
        if infinite {
            End::Stop
        } else if limited {
            End::Limit
        } else if target {
            End::Target
        } else {
            End::Stop
        }
    }
}

/// What a search's limits come to under its [`Behaviour`]: the time budget it keeps, the
/// iterations it may use and how it ends. The driver runs under these and reads no limit
/// again for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The time budget (`None`: no time limit; a search that does not manage clocks has
    /// none).
    pub budget: Option<Budget>,
    /// The iteration limit: `nodes`, or the behaviour's default and cap.
    pub nodes: Option<u64>,
    /// How the search ends.
    pub end: End,
}

impl Limits {
    /// A search of exactly `n` iterations.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A search of `time` for this move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// A search until `stop`.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// The clock of `side`, the side to move.
    pub fn clock(&self, side: Color) -> OwnClock {
        match side {
            Color::Black => OwnClock {
                time: self.btime,
                inc: self.binc,
            },
            Color::White => OwnClock {
                time: self.wtime,
                inc: self.winc,
            },
        }
    }

    /// True when the search may answer `mv`: `searchmoves` lists it, or lists nothing.
    pub fn allows(&self, mv: &Move) -> bool {
        self.searchmoves.is_empty() || self.searchmoves.contains(mv)
    }

    /// The move to answer without a search (the search failed, or could not start): the
    /// first legal move the limits allow; `None` when there is none.
    pub fn fallback(&self, game: &Game) -> Option<Move> {
        game.legal_moves().iter().find(|m| self.allows(m)).copied()
    }

    /// How a search of `side` under these limits ends: at `stop` when `infinite` or when
    /// nothing else can end it, by itself at a `movetime`, `nodes` or the mover's clock,
    /// otherwise at its `depth` or `mate`.
    pub fn end(&self, side: Color) -> End {
        End::of(
            self.infinite,
            self.movetime.is_some() || self.nodes.is_some() || self.clock(side).time.is_some(),
            self.depth.is_some() || self.mate.is_some(),
        )
    }

    /// Fills in what `go` leaves implicit for `side`, and returns a note for the GUI when it
    /// had to guess:
    /// - with any clock given (`wtime`, `btime`, `winc`, `binc`) but none for `side` (and no
    ///   `movetime` or `infinite`, which decide instead), the missing own clock counts as zero
    ///   and the engine moves at once (as Stockfish does): a GUI that mixed up the colours
    ///   must not hang on an infinite search;
    /// - a search that nothing but `stop` would end (no `movetime`, `nodes`, clock, `depth`
    ///   or `mate`) is marked `infinite`, as `go infinite`.
    pub fn complete(&mut self, side: Color) -> Option<String> {
        let any_clock = [self.wtime, self.btime, self.winc, self.binc]
            .iter()
            .any(Option::is_some);
        let mut note = None;
        if any_clock && self.clock(side).time.is_none() && !self.infinite && self.movetime.is_none()
        {
            let (own, name, colour) = match side {
                Color::Black => (&mut self.btime, "btime", "black"),
                Color::White => (&mut self.wtime, "wtime", "white"),
            };
            *own = Some(Duration::ZERO);
            note = Some(format!(
                "no {name} for the side to move ({colour}): its clock counts as 0, moving at once"
            ));
        }
        if self.end(side) == End::Stop {
            self.infinite = true;
        }
        note
    }

    /// The time budget of a move of `side` under these limits (`None`: no time limit), with
    /// `overhead` kept back for the GUI's side of a move.
    pub fn budget(&self, side: Color, overhead: Duration) -> Option<Budget> {
        let own = self.clock(side);
        time::budget(self.movetime, own.time, own.inc, self.movestogo, overhead)
    }

    /// The terms a search of `side` under these limits runs under, with `behaviour` and
    /// `overhead` (the time kept back for the GUI's side of a move).
    pub fn terms(&self, side: Color, overhead: Duration, behaviour: &Behaviour) -> Terms {
        let budget = if behaviour.timed {
            self.budget(side, overhead)
        } else {
            None
        };
        let nodes = match self.nodes {
            None if !self.infinite => behaviour.default_nodes,
            n => n,
        };
        let nodes = match behaviour.node_cap {
            Some(cap) if !self.infinite => Some(nodes.map_or(cap, |n| n.min(cap))),
            _ => nodes,
        };
        Terms {
            budget,
            nodes,
            end: End::of(
                self.infinite,
                budget.is_some() || nodes.is_some(),
                self.depth.is_some() || self.mate.is_some(),
            ),
        }
    }
}

impl Terms {
    /// The time budget as the debug line shows it: none for a search that runs until `stop`
    /// whatever its clock says.
    pub fn describe_budget(&self) -> String {
        match self.budget {
            Some(b) if self.end != End::Stop => format!(
                "time budget soft {} ms hard {} ms",
                b.soft.as_millis(),
                b.hard.as_millis()
            ),
            _ => "no time limit".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_end_follows_the_movers_limits() {
        let clock = Limits {
            wtime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(clock.end(Color::White), End::Limit);
        assert_eq!(clock.end(Color::Black), End::Stop);
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(depth.end(Color::Black), End::Target);
        assert_eq!(Limits::movetime(ms(5)).end(Color::Black), End::Limit);
        let endless = Limits {
            infinite: true,
            ..Limits::movetime(ms(5))
        };
        assert_eq!(endless.end(Color::Black), End::Stop);
        assert_eq!(Limits::default().end(Color::White), End::Stop);
    }

    #[test]
    fn a_complete_go_ends_by_stop_only_when_marked_infinite() {
        let mut bare = Limits::default();
        assert_eq!(bare.complete(Color::Black), None);
        assert!(bare.infinite);
        let mut other = Limits {
            wtime: Some(ms(1000)),
            ..Limits::default()
        };
        assert!(other.complete(Color::Black).is_some());
        assert_eq!(other.btime, Some(Duration::ZERO));
        assert_eq!(other.end(Color::Black), End::Limit);
    }
}
