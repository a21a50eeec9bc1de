//! The UCT search through its library API: forced moves, wins, the solver, reuse,
//! reproducibility, memory bounds, stop and ponder. No timing assertions: limits are node
//! counts, and waits end by `stop`.

use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use crate::search_support;

use buffgreen::board::{fen, Game, Position, Rules};
use buffgreen::search::{
    Control, Limits, Score, SearchConfig, SearchEvent, SearchInfo, SearchOutcome, Searcher,
};
use search_support::{last_info, nodes, run};

fn game(text: &str) -> Game {
    Game::new(fen::parse(text).expect("test FEN"), 0, Rules::default())
}

/// Starts a search on another thread and runs `during` while it searches (with the control
/// block and a "has it returned?" probe); returns the search's outcome.
fn in_background(
    g: &Game,
    limits: Limits,
    during: impl FnOnce(&Control, &dyn Fn() -> bool),
) -> SearchOutcome {
    let control = Control::default();
    let mut s = Searcher::new(&SearchConfig::default());
    thread::scope(|scope| {
        let h = scope.spawn(|| s.search(g, &limits, &control, &mut |_| {}));
        during(&control, &|| h.is_finished());
        h.join().expect("the search thread")
    })
}

/// A searcher with the default configuration as changed by `set`.
fn searcher(set: impl FnOnce(&mut SearchConfig)) -> Searcher {
    let mut config = SearchConfig::default();
    set(&mut config);
    Searcher::new(&config)
}

fn mv(out: &SearchOutcome) -> String {
    out.best.map(|m| m.to_string()).unwrap_or_default()
}

#[test]
fn a_forced_move_is_searched_briefly_and_answered() {
    // Black's only legal move is the capture 9x18.
    let g = game("B:W14,30:B1,9");
    let mut s = Searcher::new(&SearchConfig::default());
    let limits = Limits {
        movetime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let (out, events) = run(&mut s, &g, &limits);
    assert_eq!(mv(&out), "9x18");
    // A brief search for its score, not the minute of the movetime.
    assert!(out.nodes > 0 && out.nodes <= buffgreen::search::searcher::FORCED_ITERATIONS);
    assert_eq!(last_info(&events).pv[0].to_string(), "9x18");
}

#[test]
fn a_one_move_win_is_played_and_scored_as_mate_1() {
    // 9x18x27 takes both white men; 10x17 takes one.
    let g = game("B:W14,23:B9,10");
    assert_eq!(g.legal_moves().len(), 2);
    for seed in 0..4 {
        let mut s = searcher(|c| c.seed = seed);
        let (out, events) = run(&mut s, &g, &nodes(50_000));
        assert_eq!(mv(&out), "9x18x27");
        assert_eq!(last_info(&events).score, Score::Mate(1));
        assert_eq!(last_info(&events).wdl, Some([1000, 0, 0]));
        // The solver ends the search once the root is proven.
        assert!(out.nodes < 50_000);
    }
}

#[test]
fn the_only_move_that_does_not_lose_at_once_is_chosen() {
    // 10-15 is answered by 19x10 and Black has nothing left; 10-14 survives.
    let g = game("B:W19:B10");
    for seed in 0..4 {
        let mut s = searcher(|c| c.seed = seed);
        let (out, _) = run(&mut s, &g, &nodes(5_000));
        assert_eq!(mv(&out), "10-14");
    }
}

#[test]
fn the_solver_proves_a_two_move_win() {
    // White's man on 28 can only go to 24, where 19 takes it: Black wins with a waiting move.
    let g = game("B:W28:B1,19");
    let mut s = Searcher::new(&SearchConfig::default());
    let (out, events) = run(&mut s, &g, &nodes(200_000));
    let best = mv(&out);
    assert!(best == "1-5" || best == "1-6", "{best}");
    let info = last_info(&events);
    assert_eq!(info.score, Score::Mate(2));
    assert_eq!(info.pv.len(), 3, "{:?}", info.pv);
    assert_eq!(info.pv[1].to_string(), "28-24");
    assert_eq!(info.pv[2].to_string(), "19x28");
    assert_eq!(out.ponder.map(|m| m.to_string()), Some("28-24".to_string()));
    assert!(out.nodes < 200_000);
}

#[test]
fn the_draw_clock_is_proven_a_draw() {
    // One half-move before the 80 half-move rule, with no capture or crowning possible:
    // every move draws.
    let g = Game::new(fen::parse("W:WK1:BK32").unwrap(), 79, Rules::default());
    let (out, events) = run(
        &mut Searcher::new(&SearchConfig::default()),
        &g,
        &nodes(100_000),
    );
    assert!(out.best.is_some());
    assert!(out.nodes < 1_000, "{}", out.nodes);
    let info = last_info(&events);
    assert_eq!(info.score, Score::Cp(0));
    assert_eq!(info.wdl, Some([0, 1000, 0]));
}

#[test]
fn the_tree_is_reused_after_two_plies() {
    let mut g = Game::new(Position::startpos(), 0, Rules::default());
    let mut s = Searcher::new(&SearchConfig::default());
    let (first, events) = run(&mut s, &g, &nodes(20_000));
    assert!(!events.iter().any(|e| matches!(e, SearchEvent::Message(_))));
    let (best, reply) = (first.best.unwrap(), first.ponder.unwrap());
    assert!(g.play(best) && g.play(reply));
    let (second, events) = run(&mut s, &g, &nodes(20_000));
    let SearchEvent::Message(text) = &events[0] else {
        panic!("expected the reuse message first, got {:?}", events[0]);
    };
    let kept: usize = text
        .strip_prefix("reused ")
        .and_then(|t| t.strip_suffix(" nodes"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bad message {text:?}"));
    assert!(kept > 100, "{text}");
    // A forced reply is answered without searching.
    let expected = if g.legal_moves().len() > 1 { 20_000 } else { 0 };
    assert_eq!(second.nodes, expected);
    // An unrelated position starts afresh.
    let other = game("B:W14,23,30:B9,10,1");
    let (_, events) = run(&mut s, &other, &nodes(1_000));
    assert!(!events.iter().any(|e| matches!(e, SearchEvent::Message(_))));
}

#[test]
fn same_seed_same_search() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let config = SearchConfig {
        seed: 12345,
        ..SearchConfig::default()
    };
    let (a, ea) = run(&mut Searcher::new(&config), &g, &nodes(30_000));
    let (b, eb) = run(&mut Searcher::new(&config), &g, &nodes(30_000));
    assert_eq!(a, b);
    assert_eq!(a.nodes, 30_000);
    let strip = |e: &SearchEvent| match e {
        SearchEvent::Info(i) => Some((i.score, i.wdl, i.pv.clone(), i.depth, i.seldepth)),
        _ => None,
    };
    assert_eq!(
        ea.iter().filter_map(strip).next_back(),
        eb.iter().filter_map(strip).next_back()
    );
    // English rules too.
    let e = Game::new(Position::startpos(), 0, Rules::ENGLISH);
    let (c, _) = run(&mut Searcher::new(&config), &e, &nodes(10_000));
    let (d, _) = run(&mut Searcher::new(&config), &e, &nodes(10_000));
    assert_eq!(c, d);
}

#[test]
fn a_tiny_hash_bounds_the_tree_during_a_long_search() {
    let mut s = searcher(|c| c.hash_mib = 1);
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let (out, _) = run(&mut s, &g, &nodes(300_000));
    assert_eq!(out.nodes, 300_000);
    assert!(out.best.is_some());
    let stats = s.tree_stats();
    assert_eq!(stats.node_bytes, 32);
    assert!(stats.bytes <= 1 << 20, "{stats:?}");
    assert!(stats.used <= stats.capacity, "{stats:?}");
    // The arena filled up and was compacted rather than grown.
    assert!(stats.compactions > 0, "{stats:?}");
}

#[test]
fn a_game_on_a_tiny_hash_reuses_and_compacts_within_bounds() {
    let mut s = searcher(|c| c.hash_mib = 1);
    let mut g = Game::new(Position::startpos(), 0, Rules::default());
    let mut reused = 0;
    for _ in 0..24 {
        if g.legal_moves().is_empty() {
            break;
        }
        let (out, events) = run(&mut s, &g, &nodes(20_000));
        reused += events
            .iter()
            .filter(|e| matches!(e, SearchEvent::Message(m) if m.starts_with("reused ")))
            .count();
        let stats = s.tree_stats();
        assert!(
            stats.bytes <= 1 << 20 && stats.used <= stats.capacity,
            "{stats:?}"
        );
        assert!(g.play(out.best.unwrap()));
    }
    assert!(reused >= 20, "{reused}");
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let out = in_background(&g, Limits::infinite(), |control, _| {
        thread::sleep(Duration::from_millis(50));
        control.stop.store(true, Ordering::Relaxed);
    });
    assert!(g.legal_moves().contains(&out.best.unwrap()));
    assert!(out.nodes > 0);
}

#[test]
fn an_infinite_search_of_a_solved_position_waits_for_stop() {
    let g = game("B:W14,23:B9,10");
    let out = in_background(&g, Limits::infinite(), |control, finished| {
        thread::sleep(Duration::from_millis(30));
        assert!(!finished(), "returned before stop");
        control.stop.store(true, Ordering::Relaxed);
    });
    assert_eq!(mv(&out), "9x18x27");
}

#[test]
fn ponder_waits_for_ponderhit_then_searches_to_its_limit() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let limits = Limits {
        ponder: true,
        nodes: Some(5_000),
        ..Limits::default()
    };
    let out = in_background(&g, limits, |control, finished| {
        thread::sleep(Duration::from_millis(30));
        assert!(!finished(), "a ponder search returned before ponderhit");
        control.ponderhit.store(true, Ordering::Relaxed);
    });
    assert_eq!(out.nodes, 5_000);
    assert!(out.best.is_some());
}

#[test]
fn stop_during_ponder_gives_the_best_move_so_far() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let limits = Limits {
        ponder: true,
        movetime: Some(Duration::from_millis(1)),
        ..Limits::default()
    };
    let out = in_background(&g, limits, |control, finished| {
        thread::sleep(Duration::from_millis(30));
        assert!(!finished(), "a ponder search returned before stop");
        control.stop.store(true, Ordering::Relaxed);
    });
    assert!(g.legal_moves().contains(&out.best.unwrap()));
}

#[test]
fn multipv_reports_distinct_lines() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let mut s = Searcher::new(&SearchConfig {
        multipv: 3,
        ..SearchConfig::default()
    });
    let (out, events) = run(&mut s, &g, &nodes(10_000));
    let end: Vec<&SearchInfo> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Info(i) => Some(i),
            _ => None,
        })
        .collect();
    let last3 = &end[end.len() - 3..];
    assert_eq!(
        last3.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(last3[0].pv[0], out.best.unwrap());
    assert_ne!(last3[0].pv[0], last3[1].pv[0]);
    assert_ne!(last3[1].pv[0], last3[2].pv[0]);
    assert!(last3.iter().all(|i| i.nodes == 10_000));
}

#[test]
fn searchmoves_restricts_the_root() {
    let g = Game::new(Position::startpos(), 0, Rules::default());
    let only = g.legal_moves()[3];
    let mut s = Searcher::new(&SearchConfig::default());
    let limits = Limits {
        nodes: Some(2_000),
        searchmoves: vec![only, g.legal_moves()[5]],
        ..Limits::default()
    };
    let (out, events) = run(&mut s, &g, &limits);
    assert!(out.best == Some(only) || out.best == Some(g.legal_moves()[5]));
    assert!(last_info(&events).pv[0] == out.best.unwrap());
}

#[test]
fn a_finished_game_has_no_best_move() {
    let g = game("W:W:B1,5");
    let (out, events) = run(
        &mut Searcher::new(&SearchConfig::default()),
        &g,
        &nodes(100),
    );
    assert_eq!(out.best, None);
    assert!(events.is_empty());
}

#[test]
fn the_plain_baseline_spends_its_fixed_budget_and_never_reuses() {
    let config = SearchConfig {
        plain_uct: true,
        ..SearchConfig::default()
    };
    let mut s = Searcher::new(&config);
    let mut g = Game::new(Position::startpos(), 0, Rules::default());
    let (out, _) = run(&mut s, &g, &Limits::default());
    assert_eq!(out.nodes, 20_000);
    assert!(g.play(out.best.unwrap()) && g.play(out.ponder.unwrap()));
    let (again, events) = run(&mut s, &g, &nodes(3_000));
    assert_eq!(again.nodes, 3_000);
    assert!(!events.iter().any(|e| matches!(e, SearchEvent::Message(_))));
    // Reproducible as well.
    let (a, _) = run(&mut Searcher::new(&config), &g, &nodes(3_000));
    assert_eq!(a, again);
}
