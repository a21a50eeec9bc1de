//! The strength limit (`UCI_LimitStrength` with `UCI_Elo`, issue 22): its options, its
//! search budget, a move that a fixed `Seed` and `go nodes` reproduce, only legal moves, and
//! the full-strength engine left exactly as it was.

use crate::search_support;

use buffgreen::board::{fen, Game, GameResult, Position, Rules};
use buffgreen::search::params::{Skill, MAX_ELO, MIN_ELO};
use buffgreen::search::{SearchConfig, SearchEvent, Searcher};
use buffgreen_testkit::protocol::{lines, Engine};
use search_support::{last_info, nodes, run};

fn limited(elo: u32, seed: u64) -> SearchConfig {
    SearchConfig {
        limit_strength: true,
        elo,
        seed,
        ..SearchConfig::default()
    }
}

#[test]
fn the_options_are_accepted_and_refused_with_exact_lines() {
    let mut e = Engine::start();
    let bad_elo = |v: &str| {
        format!("info string error: option UCI_Elo: bad value '{v}': expected an integer from 800 to 2000")
    };
    let (low, high) = (bad_elo("799"), bad_elo("2001"));
    e.assert_replies(&[
        ("setoption name UCI_LimitStrength value true", &[]),
        ("setoption name uci_limitstrength value FALSE", &[]),
        ("setoption name UCI_Elo value 800", &[]),
        ("setoption name UCI_Elo value 2000", &[]),
        ("setoption name UCI_Elo value 799", &[&low]),
        ("setoption name UCI_Elo value 2001", &[&high]),
        (
            "setoption name UCI_LimitStrength value 1",
            &["info string error: option UCI_LimitStrength: bad value '1': expected true or false"],
        ),
        (
            "setoption name UCI_Elo",
            &["info string error: option UCI_Elo needs a value"],
        ),
    ]);
}

/// The `info` and `bestmove` lines of a fresh engine's search of the start position.
fn search_lines(setup: &[&str], go: &str) -> Vec<String> {
    let mut e = Engine::start();
    let silent: Vec<(&str, &[&str])> = setup.iter().map(|l| (*l, &[][..])).collect();
    e.assert_replies(&silent);
    e.send("position startpos");
    e.send(go);
    e.until_bestmove()
        .into_iter()
        .map(|l| {
            // Times and speeds vary from run to run; the rest may not.
            let words: Vec<&str> = l.split(' ').collect();
            let mut out = Vec::new();
            let mut skip = false;
            for w in words {
                if skip {
                    skip = false;
                    continue;
                }
                if w == "time" || w == "nps" {
                    skip = true;
                    continue;
                }
                out.push(w);
            }
            out.join(" ")
        })
        .collect()
}

#[test]
fn a_fixed_seed_and_node_limit_give_the_same_move_within_the_budget() {
    let setup = [
        "setoption name Seed value 7",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 800",
    ];
    let first = search_lines(&setup, "go nodes 5000");
    assert_eq!(first, search_lines(&setup, "go nodes 5000"));
    // The lowest level searches 16 iterations whatever `go` allows, and does not play the
    // move its search ranks first.
    assert_eq!(
        first,
        lines(&[
            "info depth 3 seldepth 4 multipv 1 score cp 6 wdl 361 295 344 nodes 16 pv 11-15 24-20 9-13 22-17",
            "bestmove 9-13 ponder 22-17",
        ])
    );
    // A clock does not raise the budget either.
    let timed = search_lines(&setup, "go wtime 60000 btime 60000");
    assert!(timed[0].contains(" nodes 16 "), "{timed:?}");
}

#[test]
fn the_budget_grows_with_the_elo() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let mut last = 0;
    for elo in [800, 1100, 1400, 1700, 2000] {
        let mut s = Searcher::new(&limited(elo, 0));
        let (out, events) = run(&mut s, &g, &nodes(1_000_000));
        assert_eq!(out.nodes, Skill::from_elo(elo).nodes(), "{elo}");
        assert_eq!(last_info(&events).nodes, out.nodes);
        assert!(out.nodes > last);
        last = out.nodes;
    }
    assert_eq!(last, 16_384);
    // A smaller `go nodes` is kept.
    let mut s = Searcher::new(&limited(2000, 0));
    assert_eq!(run(&mut s, &g, &nodes(100)).0.nodes, 100);
}

#[test]
fn the_weak_levels_vary_their_moves_with_the_seed() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let chosen = |elo: u32| {
        let mut moves: Vec<String> = (0..24)
            .map(|seed| {
                let mut s = Searcher::new(&limited(elo, seed));
                run(&mut s, &g, &nodes(10_000)).0.best.unwrap().to_string()
            })
            .collect();
        moves.sort();
        moves.dedup();
        moves
    };
    assert!(chosen(800).len() >= 3, "{:?}", chosen(800));
}

#[test]
fn a_proven_win_is_always_played() {
    // 9x18x27 takes both white men; 10x17 takes one.
    let g = Game::new(fen::parse("B:W14,23:B9,10").unwrap(), 0, Rules::default());
    for seed in 0..16 {
        let mut s = Searcher::new(&limited(MIN_ELO as u32, seed));
        let (out, _) = run(&mut s, &g, &nodes(10_000));
        assert_eq!(out.best.unwrap().to_string(), "9x18x27", "seed {seed}");
    }
}

#[test]
fn the_limited_engine_plays_only_legal_moves_to_the_end_of_its_games() {
    let mut plies = 0;
    for (k, elo) in [800, 950, 1100, 1300].into_iter().enumerate() {
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            let mut g = Game::new(Position::startpos(), 0, rules);
            let mut s = Searcher::new(&limited(elo, k as u64));
            while g.result() == GameResult::Ongoing && g.moves().len() < 300 {
                let (out, _) = run(&mut s, &g, &nodes(1_000));
                let mv = out.best.expect("a move in an ongoing game");
                assert!(g.legal_moves().contains(&mv), "{mv} in {g:?}");
                assert!(g.play(mv));
                plies += 1;
            }
        }
    }
    assert!(plies > 200, "{plies}");
}

#[test]
fn searchmoves_bound_the_choice() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let legal = g.legal_moves();
    let listed = vec![legal[0], legal[3]];
    for seed in 0..16 {
        let mut s = Searcher::new(&limited(800, seed));
        let limits = buffgreen::search::Limits {
            searchmoves: listed.clone(),
            ..nodes(200)
        };
        let (out, _) = run(&mut s, &g, &limits);
        assert!(listed.contains(&out.best.unwrap()), "seed {seed}");
    }
}

#[test]
fn full_strength_is_left_exactly_as_it_was() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let events = |config: &SearchConfig| {
        let mut s = Searcher::new(config);
        let (out, events) = run(&mut s, &g, &nodes(3_000));
        let infos: Vec<_> = events
            .into_iter()
            .filter_map(|e| match e {
                SearchEvent::Info(mut i) => {
                    i.time = Default::default();
                    i.nps = 0;
                    Some(i)
                }
                _ => None,
            })
            .collect();
        (out, infos)
    };
    let full = events(&SearchConfig::default());
    // `UCI_Elo` alone changes nothing, nor does the limit for the plain baseline.
    let elo_only = SearchConfig {
        elo: 800,
        ..SearchConfig::default()
    };
    assert_eq!(events(&elo_only), full);
    // The top level is the full engine held to its budget, which this search is within.
    assert_eq!(events(&limited(MAX_ELO as u32, 0)), full);
    let plain = SearchConfig {
        plain_uct: true,
        ..SearchConfig::default()
    };
    let plain_limited = SearchConfig {
        plain_uct: true,
        ..limited(800, 0)
    };
    assert_eq!(events(&plain_limited), events(&plain));
}
