//! The search thread's lifecycle: the one piece of work the engine runs at a time (a search, a
//! book move, `go perft`, `bench`) on its own thread, from spawn to reap.
//!
//! How a job may end is one [`Ending`], fixed when it starts; every job delivers its answer
//! through the one [`Gate`], which holds an answer the GUI may not have yet (an infinite search,
//! a ponder search before `ponderhit`) until `stop` or `ponderhit`. The flag that says the
//! answer is on its way is raised before the answer is written, so a command that arrives after
//! the GUI has seen `bestmove` always finds the job answered.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{answer, AnswerSink, EventSink};
use crate::board::Game;
use crate::search::tables::Endgame;
use crate::search::{Control, End, Limits, SearchConfig, SearchEvent, Searcher};
use crate::types::Color;

/// Stack of the search thread: generous, since it costs address space only when used.
const SEARCH_STACK_BYTES: usize = 16 << 20;

/// How often a held answer looks at its flags again (it is woken at once by `stop` and
/// `ponderhit`; this only bounds a missed wake-up).
const HOLD_POLL: Duration = Duration::from_millis(50);

/// How a job ends: as its search's limits say (work that is no search ends by itself), and a
/// ponder search not before `ponderhit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// How the search ends once it may (see [`End`]).
    end: End,
    /// A ponder search: the answer is held until `ponderhit` (or `stop`); after `ponderhit`
    /// the search ends as `end` says.
    ponder: bool,
}

impl Ending {
    /// Work that ends by itself: a perft, a bench, a book move. A command that needs the
    /// engine idle waits for it.
    pub const LIMIT: Ending = Ending {
        end: End::Limit,
        ponder: false,
    };

    /// How a search under `limits` (completed, see [`Limits::complete`]) of `side` ends. A
    /// search that ends at its `depth` or `mate` may never end by itself (then `stop` ends
    /// it), but a script's commands take effect in order, so a command that needs the engine
    /// idle waits for it as for a limit.
    pub fn of(limits: &Limits, side: Color) -> Ending {
        Ending {
            end: limits.end(side),
            ponder: limits.ponder,
        }
    }

    /// True while only `stop` (or `ponderhit`) ends the job: its answer is held until then.
    fn waits(self, control: &Control) -> bool {
        (self.ponder && !control.ponderhit.load(Ordering::SeqCst)) || self.end == End::Stop
    }
}

/// What the work on the search thread shares with the engine: the stop and ponderhit flags,
/// and the flag raised when the answer is given.
pub struct Gate {
    /// The flags the engine raises.
    pub control: Arc<Control>,
    answered: AtomicBool,
    ending: Ending,
}

impl Gate {
    /// Delivers the job's answer with `deliver`: first holds while the GUI may not have it
    /// yet (see [`Ending`]), then marks the job answered, then calls `deliver`. Called once
    /// per job.
    pub fn deliver(&self, deliver: impl FnOnce()) {
        while !self.control.stopped() && self.ending.waits(&self.control) {
            std::thread::park_timeout(HOLD_POLL);
        }
        self.answered.store(true, Ordering::SeqCst);
        deliver();
    }
}

/// A job running on the search thread.
pub struct Job {
    /// Gives back the searcher when the work had borrowed it.
    handle: JoinHandle<Option<Searcher>>,
    gate: Arc<Gate>,
}

impl Job {
    /// Starts `work` on the search thread. The work answers through the gate it is given, and
    /// returns the searcher when it borrowed one.
    pub fn spawn(
        ending: Ending,
        work: impl FnOnce(&Gate) -> Option<Searcher> + Send + 'static,
    ) -> std::io::Result<Job> {
        let gate = Arc::new(Gate {
            control: Arc::default(),
            answered: AtomicBool::new(false),
            ending,
        });
        let g = Arc::clone(&gate);
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || work(&g))?;
        Ok(Job { handle, gate })
    }

    /// True once the answer is given (or being written).
    pub fn answered(&self) -> bool {
        self.gate.answered.load(Ordering::SeqCst)
    }

    /// True while the job would not end by itself (see [`Ending`]).
    pub fn unbounded(&self) -> bool {
        self.gate.ending.waits(&self.gate.control)
    }

    /// Asks the work to stop; returns at once.
    pub fn stop(&self) {
        self.gate.control.stop.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
    }

    /// Tells a ponder search that the expected move was played; does nothing to other jobs.
    pub fn ponderhit(&self) {
        if self.gate.ending.ponder {
            self.gate.control.ponderhit.store(true, Ordering::SeqCst);
            self.handle.thread().unpark();
        }
    }

    /// Waits for the work to end; returns the searcher it borrowed. A search thread that died
    /// outside its own panic guard lost the searcher: a fresh one is made when next needed.
    pub fn join(self) -> Option<Searcher> {
        self.handle.join().ok().flatten()
    }
}

/// A search: everything the search thread needs.
pub struct SearchWork {
    /// The engine's searcher (none yet: made here, under `config`).
    pub searcher: Option<Searcher>,
    /// The endgame tables the search probes.
    pub tables: Option<Arc<Endgame>>,
    /// The search configuration.
    pub config: SearchConfig,
    /// The game whose current position is searched.
    pub game: Game,
    /// The completed limits.
    pub limits: Limits,
    /// When the move's clock started (the `go` was read).
    pub started: Instant,
    /// Receives the progress events.
    pub events: EventSink,
    /// Receives the one answer.
    pub answer: AnswerSink,
}

impl SearchWork {
    /// Searches, answers through `gate` exactly once, and returns the searcher.
    pub fn run(self, gate: &Gate) -> Searcher {
        let SearchWork {
            searcher,
            tables,
            config,
            game,
            limits,
            started,
            mut events,
            answer,
        } = self;
        let mut searcher = searcher.unwrap_or_else(|| Searcher::new(&config));
        // A table read that failed during the search is said before the answer, once.
        let watched = tables.clone();
        let fault = move || {
            let e = watched.as_ref()?.tablebase().take_fault()?;
            Some(SearchEvent::Message(format!(
                "error: TablebasePath: {e}; its positions are searched without tables"
            )))
        };
        searcher.set_tables(tables);
        // The search may answer before it returns (a `stop` during a compaction): that is the
        // one answer, and nothing it reports afterwards reaches the GUI.
        let mut answer = Some(answer);
        let result =
            catch_unwind(AssertUnwindSafe(|| {
                searcher.search_since(started, &game, &limits, &gate.control, &mut |event| {
                    match event {
                        SearchEvent::Decided(outcome) => {
                            if let Some(answer) = answer.take() {
                                if let Some(note) = fault() {
                                    events(note);
                                }
                                let outcome = answer::listed(outcome, &game, &limits);
                                gate.deliver(|| answer(outcome));
                            }
                        }
                        _ if answer.is_none() => {}
                        event => events(event),
                    }
                })
            }));
        let outcome = match result {
            Ok(outcome) => answer::listed(outcome, &game, &limits),
            Err(_) => {
                // The searcher may be half-updated: replace it, and still answer with a legal
                // move so the GUI gets its one bestmove.
                searcher = Searcher::new(&config);
                if answer.is_some() {
                    events(SearchEvent::Message(
                        "error: the search failed; playing a fallback move".to_string(),
                    ));
                }
                answer::fallback(&game, &limits)
            }
        };
        if let Some(answer) = answer {
            if let Some(note) = fault() {
                events(note);
            }
            gate.deliver(|| answer(outcome));
        }
        searcher
    }
}
