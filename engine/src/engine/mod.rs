//! The engine facade the protocol drives: the game being played, the settings, and the search
//! thread.
//!
//! The engine owns one [`Searcher`], which keeps its tree between moves. Each `go` lends it to a
//! new search thread, which hands it back when it ends. The engine never writes text: the
//! caller passes one callback for progress events and one for the final answer, and the search
//! thread calls them.
//!
//! A search is *running* from [`Engine::go`] until the thread has begun to deliver its answer
//! (see `job`, which runs it), so a command that arrives after the GUI has seen `bestmove`
//! always finds the engine idle.
//!
//! Layout: `options` holds the settings and their table, `stores` the endgame tables and the
//! book from opening to replacement, `job` the search thread's lifecycle, `answer` the move
//! the engine answers when the search gives none or names a move the list asked for by
//! another path; this file is the facade. What a go command means is read in
//! [`crate::search::limits`].

mod answer;
mod job;
mod options;
mod stores;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

pub use crate::search::params::{MAX_HASH_MIB, MAX_SEED};
pub use crate::search::{OptionKind, OptionValue};
pub use options::{
    documented_table as documented_option_table, lookup as lookup_option, table as option_table,
    tables_default, Effect as OptionEffect, OptionError, OptionSpec, Settings, CLEAR_HASH,
    EMPTY as EMPTY_OPTION, TABLES_HOME,
};

use crate::board::fen::{self, FenError};
use crate::board::notation::{self, NotationError};
use crate::board::{Game, GameResult, PlayError, Position, Rules};
use crate::book::{Book, BookError};
use crate::search::choice::{Candidate, Chooser};
use crate::search::{
    Behaviour, End, Limits, SearchConfig, SearchEvent, SearchOutcome, Searcher, Terms,
};
use crate::tablebase::{Tablebase, TbError};
use crate::tools::bench::{self, BenchReport};
use crate::tools::perft;
use crate::types::Move;
use job::{Ending, Job};
use stores::Stores;

/// Why the engine refused a command. Nothing changed when one of these is returned.
#[derive(Debug, Error)]
pub enum EngineError {
    /// `go` (or `go perft`, `bench`) while a search is running.
    #[error("a search is already running; send stop first")]
    Busy,
    /// The FEN of `position fen` is bad.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// A move of `position ... moves` cannot be played.
    #[error("move {number} '{text}': {source}")]
    Move {
        /// 1-based index in the move list.
        number: usize,
        /// The move as given.
        text: String,
        /// Why it cannot be played.
        source: PlayError,
    },
    /// A move of `go searchmoves` is not legal here.
    #[error("searchmoves: {0}")]
    SearchMove(NotationError),
    /// `setoption` with an unknown name or a bad value.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// `TablebasePath` names no usable tables for the current rules.
    #[error("TablebasePath: {0}")]
    Tablebase(#[from] TbError),
    /// `BookFile` names no usable book for the current rules.
    #[error("BookFile: {0}")]
    Book(#[from] BookError),
    /// The operating system would not start the search thread.
    #[error("cannot start the search thread: {0}")]
    Thread(std::io::Error),
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The standard start position.
    StartPos,
    /// A position in PDN FEN (any form [`fen::parse`] accepts).
    Fen(String),
}

/// Something the engine did that the user should hear about, though nothing went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A rules option changed and a move of the current game cannot be replayed under the new
    /// rules, so the game went back to its start position.
    GameRestarted {
        /// 1-based index of the move that failed.
        number: usize,
        /// The move in long form.
        mv: String,
        /// Why it failed.
        reason: PlayError,
    },
    /// A rules option changed and the tables of `TablebasePath` are not built for the new
    /// rules: the engine plays without tables until the rules or the path fit again.
    TablesOff(TbError),
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::GameRestarted { number, mv, reason } => {
                let why = match reason {
                    PlayError::GameOver(r) => {
                        format!("the game was already over ({})", r.describe())
                    }
                    PlayError::Notation(_) => "it is illegal".to_string(),
                };
                write!(
                    f,
                    "rules changed: move {number} ({mv}) cannot be replayed: {why}; \
                     the game is back at its start position"
                )
            }
            Notice::TablesOff(e) => {
                write!(f, "error: TablebasePath: {e}; playing without tables")
            }
        }
    }
}

/// What `go` asks for: the limits and the root moves to restrict the search to, as text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoRequest {
    /// The limits; its `searchmoves` is filled in by the engine from `searchmoves` below.
    pub limits: Limits,
    /// Root moves in 1-32 notation (empty: all moves).
    pub searchmoves: Vec<String>,
}

/// Receives the search's progress events, on the search thread.
pub type EventSink = Box<dyn FnMut(SearchEvent) + Send>;

/// Receives the search's answer, exactly once, on the search thread.
pub type AnswerSink = Box<dyn FnOnce(SearchOutcome) + Send>;

/// Receives the `go perft` counts (sorted, see [`sort_divide`]) and whether they are complete
/// (false: `stop` ended the count early), once, on the search thread.
pub type PerftSink = Box<dyn FnOnce(Vec<(Move, u64)>, bool) + Send>;

/// Receives the `bench` report (partial when `stop` ended it), once, on the search thread.
pub type BenchSink = Box<dyn FnOnce(BenchReport) + Send>;

/// The engine: settings, game, and the searcher (at home or lent to a search thread).
pub struct Engine {
    settings: Settings,
    /// The tables and the book, for the game's rules.
    stores: Stores,
    game: Game,
    searcher: Option<Searcher>,
    /// The work on the search thread, until it is reaped.
    job: Option<Job>,
    /// What the engine found at start-up that no command asked about (see
    /// [`Engine::take_notices`]).
    notices: Vec<Notice>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default settings at the start position.
    /// The default tables (`TablebasePath`'s default, see [`tables_default`]) are opened
    /// for the default rules when their folder holds tables; a folder that cannot be read is
    /// a [`Notice::TablesOff`] for [`Engine::take_notices`].
    pub fn new() -> Engine {
        let settings = Settings::default();
        let game = Game::new(Position::startpos(), 0, Rules::default());
        let (stores, error) = Stores::at_start(&settings, game.rules());
        Engine {
            // The tree (`Hash` MiB) is made when first needed, at `isready` or the first
            // search: a GUI sets `Hash` after start-up, and the default size would otherwise
            // be reserved for nothing.
            searcher: None,
            settings,
            stores,
            game,
            job: None,
            notices: error.map(Notice::TablesOff).into_iter().collect(),
        }
    }

    /// What the engine has to say that no command asked about, once: why the default tables
    /// could not be opened at start-up (a folder that does not exist or holds no tables for
    /// the rules is not worth a word).
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The search configuration (the rules are the game's, see [`Engine::game`]).
    pub fn config(&self) -> &SearchConfig {
        &self.settings.config
    }

    /// The game `go` would search.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True while a search runs and has not yet started to deliver its answer.
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.job.is_some()
    }

    /// The book `OwnBook` plays under the game's rules: the `BookFile` book when it is for
    /// these rules, otherwise the built-in book of the rules (if there is one). Switching the
    /// rules switches the book.
    pub fn book(&self) -> Option<Arc<Book>> {
        self.stores.book(self.game.rules())
    }

    /// The endgame tables the search uses, if any.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.stores.tablebase()
    }

    /// Checks an option value and applies it. Rules options replay the current game under the
    /// new rules; when a move no longer replays, the game goes back to its start position and
    /// a returned [`Notice`] says so. `TablebasePath` opens the tables for the game's rules
    /// (refused, with nothing changed, when it cannot); a rules change opens them again for
    /// the new rules, and when they do not fit, the engine plays on without tables and a
    /// [`Notice::TablesOff`] says so. A running search is ended first (see
    /// [`Engine::end_search`]), but only once the value has been accepted.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<Vec<Notice>, EngineError> {
        let spec = options::lookup(name)?;
        let value = options::parse_value(&spec, value)?;
        if spec.effect == options::Effect::ClearTree {
            self.end_search();
            if let Some(searcher) = self.searcher.as_mut() {
                searcher.new_game();
            }
            return Ok(Vec::new());
        }
        let mut settings = self.settings.clone();
        let mut rules = *self.game.rules();
        options::store(&mut settings, &mut rules, &spec, value);
        let mut notices = Vec::new();
        // Opened before anything changes: a refused file leaves every setting as it was.
        let stores = self.stores.after(
            (&self.settings, self.game.rules()),
            (&settings, &rules),
            &mut notices,
        )?;
        self.end_search();
        self.stores = stores;
        if rules != *self.game.rules() {
            notices.extend(self.replay_under(rules));
        }
        if settings.config != self.settings.config {
            if let Some(searcher) = self.searcher.as_mut() {
                searcher.configure(&settings.config);
            }
        }
        self.settings = settings;
        Ok(notices)
    }

    /// Starts a new game at the start position and makes the searcher forget the old one.
    pub fn new_game(&mut self) {
        self.end_search();
        self.game = Game::new(Position::startpos(), 0, *self.game.rules());
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.new_game();
        }
    }

    /// Makes the search tree now if it is not made yet (UCI's `isready` is where a GUI waits
    /// for set-up; the tree's memory is only reserved, so this is quick whatever `Hash` is).
    /// Does nothing while a search runs: the tree is in use.
    pub fn prepare(&mut self) {
        if !self.is_searching() && self.searcher.is_none() {
            self.searcher = Some(Searcher::new(&self.settings.config));
        }
    }

    /// Sets the game to `start` followed by `moves`. If the FEN or any move is bad, nothing
    /// changes. A running search is ended first (see [`Engine::end_search`]), but only once the
    /// whole command has been accepted.
    pub fn set_position(
        &mut self,
        start: &StartPosition,
        moves: &[String],
    ) -> Result<(), EngineError> {
        let pos = match start {
            StartPosition::StartPos => Position::start(self.game.rules()),
            StartPosition::Fen(text) => fen::parse(text)?,
        };
        let mut game = Game::new(pos, 0, *self.game.rules());
        for (i, text) in moves.iter().enumerate() {
            game.play_str(text).map_err(|source| EngineError::Move {
                number: i + 1,
                text: text.clone(),
                source,
            })?;
        }
        self.end_search();
        self.game = game;
        Ok(())
    }

    /// Starts a search of the current game on its own thread and returns at once.
    ///
    /// `events` receives progress; `answer` receives the outcome exactly once, also when the
    /// search is stopped. A `go` that gives a clock but none for the side to move counts that
    /// clock as zero (and says so through `events`, before the search starts). A search that
    /// sets no limit for the side to move (no `movetime`, `nodes`, clock of the mover, `depth`
    /// or `mate`) runs until `stop`, as `go infinite`. An infinite search, or a ponder search
    /// before `ponderhit`, holds its answer until then even if the searcher finishes early
    /// (game over, proven result), as UCI requires.
    pub fn go(
        &mut self,
        request: GoRequest,
        events: EventSink,
        answer: AnswerSink,
    ) -> Result<(), EngineError> {
        self.go_since(Instant::now(), request, events, answer)
    }

    /// [`Engine::go`] with the move's clock started at `started` (when the `go` was read), so
    /// that the engine's own set-up (making the search tree) counts against the move.
    pub fn go_since(
        &mut self,
        started: Instant,
        request: GoRequest,
        mut events: EventSink,
        answer: AnswerSink,
    ) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let (limits, note) = self.complete_limits(&request)?;
        if let Some(note) = note {
            events(SearchEvent::Message(note));
        }
        if let Some((event, outcome)) = self.book_move(&limits) {
            return self.spawn(Ending::LIMIT, move |gate| {
                events(event);
                gate.deliver(|| answer(outcome));
                None
            });
        }
        let ending = Ending::of(&limits, self.game.position().side_to_move());
        let work = job::SearchWork {
            // Made on the search thread when not made yet: the input thread reads on meanwhile,
            // and the move's clock already runs.
            searcher: self.searcher.take(),
            tables: self.stores.tables(),
            config: self.settings.config.clone(),
            game: self.game.clone(),
            limits,
            started,
            events,
            answer,
        };
        self.spawn(ending, move |gate| Some(work.run(gate)))
    }

    /// The book move to answer a `go` under (completed) `limits` with, as the event that
    /// reports it and the outcome: only with `OwnBook` on, for a plain search the engine
    /// would end by itself (a `movetime`, `nodes` or clock limit; not `infinite`, `ponder`,
    /// `depth`/`mate` alone or `searchmoves`, which ask for analysis), one `MultiPV` line, at
    /// full strength (a `UCI_LimitStrength` engine plays its level from the first move) and
    /// not as the plain baseline. The expected reply is the reply the book rates best.
    fn book_move(&self, limits: &Limits) -> Option<(SearchEvent, SearchOutcome)> {
        let (config, pos, rules) = (
            &self.settings.config,
            self.game.position(),
            self.game.rules(),
        );
        let analysis = limits.infinite
            || limits.ponder
            || !limits.searchmoves.is_empty()
            || limits.end(pos.side_to_move()) != End::Limit
            || config.multipv > 1;
        if !self.settings.own_book
            || analysis
            || config.limit_strength
            || config.plain_uct
            || self.game.result() != GameResult::Ongoing
        {
            return None;
        }
        let book = self.book()?;
        let candidates = |p: &Position| -> Vec<Candidate> {
            book.probe(p, rules)
                .into_iter()
                .map(|m| Candidate {
                    mv: m.mv,
                    score: m.score.into(),
                })
                .collect()
        };
        let moves = candidates(pos);
        let pick = Chooser::of(config).from_book(&moves, pos)?;
        let mut next = *pos;
        next.play_unchecked(pick.mv);
        let ponder = candidates(&next).first().map(|c| c.mv);
        let event = SearchEvent::Book {
            mv: pick.mv,
            score: pick.score,
            choices: Chooser::book_choices(&moves),
        };
        Some((
            event,
            SearchOutcome {
                best: Some(pick.mv),
                ponder,
                nodes: 0,
            },
        ))
    }

    /// The limits a `go` with `request` searches under: its `searchmoves` resolved in the
    /// current position and what it leaves implicit filled in (see [`Engine::go`]), with the
    /// note to show when the engine had to guess a missing clock.
    pub fn complete_limits(
        &self,
        request: &GoRequest,
    ) -> Result<(Limits, Option<String>), EngineError> {
        let mut limits = request.limits.clone();
        limits.searchmoves = self.resolve_searchmoves(&request.searchmoves)?;
        let note = limits.complete(self.game.position().side_to_move());
        Ok((limits, note))
    }

    /// What completed `limits` come to for the side to move under the current settings: the
    /// time budget, iteration limit and end the search will run under.
    pub fn terms(&self, limits: &Limits) -> Terms {
        let config = &self.settings.config;
        limits.terms(
            self.game.position().side_to_move(),
            Duration::from_millis(config.move_overhead_ms),
            &Behaviour::of(config),
        )
    }

    /// Counts the leaves of the move tree of the current position under the current rules
    /// (`go perft`), `depth` plies deep with the `Threads` setting, on the search thread;
    /// returns at once. `answer` gets the counts per root move once, when the count is done
    /// or `stop` ended it (then they are partial).
    pub fn perft(&mut self, depth: u32, answer: PerftSink) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let (pos, rules) = (*self.game.position(), *self.game.rules());
        let threads = self.settings.config.threads;
        self.spawn(Ending::LIMIT, move |gate| {
            let stop = &gate.control.stop;
            let (mut d, complete) = perft::divide_until(&pos, &rules, depth, threads, stop);
            sort_divide(&mut d);
            gate.deliver(|| answer(d, complete));
            None
        })
    }

    /// Runs the bench workload under the current settings on the search thread; returns at
    /// once. `answer` gets the report once, when the workload is done or `stop` ended it.
    pub fn bench(&mut self, nodes: u64, answer: BenchSink) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let (config, rules) = (self.settings.config.clone(), *self.game.rules());
        self.spawn(Ending::LIMIT, move |gate| {
            let report = bench::run_until(&config, &rules, nodes, &gate.control);
            gate.deliver(|| answer(report));
            None
        })
    }

    /// Starts `work` on the search thread as the running job.
    fn spawn(
        &mut self,
        ending: Ending,
        work: impl FnOnce(&job::Gate) -> Option<Searcher> + Send + 'static,
    ) -> Result<(), EngineError> {
        self.job = Some(Job::spawn(ending, work).map_err(EngineError::Thread)?);
        Ok(())
    }

    /// Asks the running search to stop; returns at once. The answer follows from the search
    /// thread. Without a search this does nothing.
    pub fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
        }
    }

    /// Tells a ponder search that the expected move was played: it goes on as a normal search
    /// under its limits. Without a ponder search this does nothing.
    pub fn ponderhit(&mut self) {
        if let Some(job) = &self.job {
            job.ponderhit();
        }
    }

    /// True when a search is running that would never end by itself: `infinite`, or a ponder
    /// search before `ponderhit` (one bounded only by `depth` or `mate` ends when it gets
    /// there, and is waited for like any finite search).
    pub fn is_unbounded(&mut self) -> bool {
        self.reap();
        self.job.as_ref().is_some_and(Job::unbounded)
    }

    /// Ends a running search: one with a finite limit is waited for, an unbounded one is
    /// stopped. Returns once its answer has been delivered.
    pub fn end_search(&mut self) {
        if self.is_unbounded() {
            self.stop();
        }
        self.wait();
    }

    /// Waits until a running search has finished and delivered its answer.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            if let Some(searcher) = job.join() {
                self.searcher = Some(searcher);
            }
        }
    }

    /// Joins a search that has delivered its answer, so the searcher is home again.
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(Job::answered) {
            self.wait();
        }
    }

    fn resolve_searchmoves(&self, texts: &[String]) -> Result<Vec<Move>, EngineError> {
        texts
            .iter()
            .map(|t| {
                notation::parse_move(self.game.position(), self.game.rules(), t)
                    .map_err(EngineError::SearchMove)
            })
            .collect()
    }

    /// Replays the current game's moves under `rules`; on the first failure the game goes back
    /// to its start position.
    fn replay_under(&mut self, rules: Rules) -> Option<Notice> {
        let mut start = *self.game.start();
        if start == Position::start(self.game.rules()) {
            // A game from the start begins at the new rule set's start (who moves first).
            start = Position::start(&rules);
        }
        let mut game = Game::new(start, self.game.start_clock(), rules);
        let moves: Vec<Move> = self.game.moves().collect();
        for (i, mv) in moves.iter().enumerate() {
            // Replay by text: the long form names a move uniquely under every rule set.
            let text = mv.to_string();
            if let Err(reason) = game.play_str(&text) {
                self.game = Game::new(start, self.game.start_clock(), rules);
                return Some(Notice::GameRestarted {
                    number: i + 1,
                    mv: text,
                    reason,
                });
            }
        }
        self.game = game;
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// Sorts divide output by origin square, then by landing squares, so the order does not depend
/// on the move generator's internals.
pub fn sort_divide(d: &mut [(Move, u64)]) {
    d.sort_by_key(|(m, _)| {
        let path: Vec<u8> = m.path().map(|s| s.number()).collect();
        (m.from().number(), path)
    });
}

#[cfg(test)]
mod tests;
