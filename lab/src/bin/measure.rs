//! Search figures for the closing notes: iterations per second from the start position,
//! bytes per node, and how much of the tree survives the two plies to our next move.
//!
//! `cargo run --release -p buffgreen-lab --bin measure -- [iterations] [seconds-per-move]`

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen_testkit::clock::thread_cpu_time;

use buffgreen::board::{Game, Position, Rules};
use buffgreen::search::playout::Playout;
use buffgreen::search::{Control, Limits, SearchConfig, SearchEvent, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let movetime: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let config = SearchConfig::default();
    let control = Control::default();

    // Speed: a fixed number of iterations from the start position.
    let mut searcher = Searcher::new(&config);
    let game = Game::new(Position::startpos(), 0, Rules::default());
    let limits = Limits {
        nodes: Some(iterations),
        ..Limits::default()
    };
    let (t, cpu) = (Instant::now(), thread_cpu_time());
    let out = searcher.search(&game, &limits, &control, &mut |_| {});
    let secs = t.elapsed().as_secs_f64();
    let cpu = (thread_cpu_time() - cpu).as_secs_f64();
    let stats = searcher.tree_stats();
    println!(
        "start position: {} iterations in {:.3} s = {:.0} iterations/s ({:.0}/s of CPU time); best {}",
        out.nodes,
        secs,
        out.nodes as f64 / secs,
        out.nodes as f64 / cpu,
        out.best.map(|m| m.to_string()).unwrap_or_default()
    );
    println!(
        "tree: {} bytes per node, {} nodes used of {} ({} bytes allocated for Hash {} MiB)",
        stats.node_bytes, stats.used, stats.capacity, stats.bytes, config.hash_mib
    );

    // The bench workload (the signature is its total node count).
    let bench = buffgreen::tools::bench::run(
        &config,
        &Rules::default(),
        buffgreen::tools::bench::DEFAULT_NODES,
    );
    println!("bench: {} nodes, {} nodes/s", bench.nodes, bench.nps());

    // The playout alone: random games from the start position.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut playout = Playout::new();
    let cpu = thread_cpu_time();
    let (mut plies, games) = (0u64, 200_000u64);
    for _ in 0..games {
        plies += playout
            .run(Position::startpos(), 0, &Rules::default(), &mut rng, 10_000)
            .1 as u64;
    }
    let secs = (thread_cpu_time() - cpu).as_secs_f64();
    println!(
        "playouts alone: {:.0}/s of CPU time, {:.1} plies each, {:.1} ns a ply",
        games as f64 / secs,
        plies as f64 / games as f64,
        secs * 1e9 / plies as f64
    );

    // Reuse: search, play the best move and the expected reply, search again.
    let mut searcher = Searcher::new(&config);
    let mut game = Game::new(Position::startpos(), 0, Rules::default());
    let timed = Limits {
        movetime: Some(Duration::from_millis(movetime)),
        ..Limits::default()
    };
    let mut fractions = Vec::new();
    for _ in 0..6 {
        let out = searcher.search(&game, &timed, &control, &mut |_| {});
        let before = searcher.tree_stats().used;
        let (Some(best), Some(reply)) = (out.best, out.ponder) else {
            break;
        };
        game.play(best);
        game.play(reply);
        let mut kept = None;
        searcher.search(
            &game,
            &Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            &control,
            &mut |e| {
                if let SearchEvent::Message(m) = e {
                    kept = m
                        .strip_prefix("reused ")
                        .and_then(|r| r.strip_suffix(" nodes"))
                        .and_then(|n| n.parse::<usize>().ok());
                }
            },
        );
        let kept = kept.unwrap_or(0);
        println!(
            "after {best} {reply}: reused {kept} of {before} nodes ({:.1}%)",
            100.0 * kept as f64 / before as f64
        );
        fractions.push(kept as f64 / before as f64);
    }
    if !fractions.is_empty() {
        let mean = fractions.iter().sum::<f64>() / fractions.len() as f64;
        println!("mean fraction kept after two plies: {:.1}%", 100.0 * mean);
    }
}
