//! Labels made deeper: a sample of a data file's positions scored again by a longer search of
//! the engine's UCT, written to a second data file of the same format.
//!
//! `datagen run` labels each position by the score of the fast search that moved there (a few
//! hundred iterations, so that games are cheap). A network fitted to those scores learns what
//! such a search sees and no more; scored again at many more iterations, with the network the
//! engine already has at its leaves, the same positions teach what a deeper search sees.
//!
//! The output is resumable like the generator's: the run takes the input's records
//! `offset, offset + every, ...` in order and appends each, rescored, to the output; a run
//! started again cuts a half-written record off the output and goes on after the records it
//! holds. Each position is searched from a fresh tree with the engine's default seed, so a
//! resumed run writes what an unbroken one would have.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use buffgreen::board::{Game, Rules};
use buffgreen::search::tables::Endgame;
use buffgreen::search::{Control, Limits, Score, SearchConfig, SearchEvent, Searcher};

use crate::data::{self, DataError, Reader, Record};

/// Which records to rescore and how hard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Take every `every`-th record of the input (at least 1).
    pub every: u64,
    /// The first record taken.
    pub offset: u64,
    /// The UCT's iterations for each position.
    pub nodes: u64,
    /// Search threads, one position each at a time.
    pub threads: usize,
    /// Stop once the output holds this many records.
    pub limit: u64,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// Records the output held when the run started.
    pub before: u64,
    /// Records it holds now.
    pub after: u64,
}

/// A search's score for the side to move as a record stores it: centi-men, proven results
/// near the ends of the `i16` range.
pub fn record_score(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-20_000, 20_000) as i16,
        Score::Mate(n) if n > 0 => (30_000 - n.min(9_999)) as i16,
        Score::Mate(n) => (-30_000 - n.max(-9_999)) as i16,
    }
}

/// The UCT's score for the side to move of `game` after `nodes` iterations from a fresh tree
/// (`None` when the position has no move).
pub fn uct_score(uct: &mut Searcher, game: &Game, nodes: u64) -> Option<i16> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut score = None;
    uct.new_game();
    let found = uct.search(game, &limits, &Control::default(), &mut |event| {
        if let SearchEvent::Info(info) = event {
            if info.multipv == 1 {
                score = Some(record_score(info.score));
            }
        }
    });
    found.best.and(score)
}

/// Rescores `input` into `output` by `plan`, with `tables` in the searches when given;
/// `progress` hears the output's record count after each batch. Records the tables labelled
/// exactly are copied as they are: a search cannot know them better.
pub fn run(
    input: &Path,
    output: &Path,
    plan: &Plan,
    tables: Option<Arc<Endgame>>,
    progress: &mut dyn FnMut(u64),
) -> Result<Done, DataError> {
    let mut reader = Reader::open(input)?;
    let rules: Rules = reader.rules();
    let (mut file, before) = data::open_append(output, &rules, None)?;
    let every = plan.every.max(1);
    let config = SearchConfig {
        hash_mib: 64,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    };
    let mut searchers: Vec<Searcher> = (0..plan.threads.max(1))
        .map(|_| {
            let mut s = Searcher::new(&config);
            s.set_tables(tables.clone());
            s
        })
        .collect();
    let skip = plan.offset + before * every;
    let batch = 16 * searchers.len();
    let mut index = 0u64;
    let mut after = before;
    loop {
        let mut todo: Vec<Record> = Vec::with_capacity(batch);
        while todo.len() < batch && after + (todo.len() as u64) < plan.limit {
            let Some(record) = reader.next_record() else {
                break;
            };
            let record = record?;
            let take = index >= skip && (index - plan.offset).is_multiple_of(every);
            index += 1;
            if take {
                todo.push(record);
            }
        }
        if todo.is_empty() {
            break;
        }
        let chunk = todo.len().div_ceil(searchers.len());
        std::thread::scope(|s| {
            for (part, searcher) in todo.chunks_mut(chunk).zip(searchers.iter_mut()) {
                s.spawn(move || {
                    for r in part.iter_mut().filter(|r| !r.exact) {
                        let game = Game::new(r.pos, u32::from(r.clock), rules);
                        if let Some(score) = uct_score(searcher, &game, plan.nodes) {
                            r.score = Some(score);
                            r.alpha_beta = false;
                        }
                    }
                });
            }
        });
        let bytes: Vec<u8> = todo.iter().flat_map(|r| r.encode()).collect();
        let io = |source| DataError::Io {
            path: output.to_path_buf(),
            source,
        };
        file.write_all(&bytes).map_err(io)?;
        file.sync_data().map_err(io)?;
        after += todo.len() as u64;
        progress(after);
    }
    Ok(Done { before, after })
}
