//! Helpers of the search tests (basics.rs, threads.rs, strength_limit.rs): each uses all of
//! them.

use buffgreen::board::Game;
use buffgreen::search::{Control, Limits, SearchEvent, SearchInfo, SearchOutcome, Searcher};

/// A search of exactly `n` iterations.
pub fn nodes(n: u64) -> Limits {
    Limits::nodes(n)
}

/// Runs one search, collecting the events.
pub fn run(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
) -> (SearchOutcome, Vec<SearchEvent>) {
    let mut events = Vec::new();
    let out = searcher.search(game, limits, &Control::default(), &mut |e| events.push(e));
    (out, events)
}

/// The last `info` line among `events`.
pub fn last_info(events: &[SearchEvent]) -> &SearchInfo {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Info(i) => Some(i),
            _ => None,
        })
        .expect("an info line at the end")
}
