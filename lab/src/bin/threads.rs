//! Thread scaling of the search: iterations per second with 1 and N threads, from the start
//! position and from a middle game, repeated and reported as medians. Also gives iterations
//! per second of process CPU time, which shows whether a poor wall-clock figure came from a
//! busy machine (the threads did not get their cores) or from the search itself.
//!
//! `cargo run --release -p buffgreen-lab --bin threads -- [iterations] [repeats] [threads] [hash MiB]`

use std::time::{Duration, Instant};

use buffgreen::board::{fen, Game, Rules};
use buffgreen::search::{Control, Limits, SearchConfig, Searcher};

/// CPU time of the whole process so far (user + system, all threads, finished ones included),
/// from `/proc/self/stat` in clock ticks of 10 ms; zero where that file does not exist.
fn process_cpu() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name (which is in parentheses): utime is the 12th.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500_000);
    let repeats: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    let many: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2);
    let hash_mib: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(64);
    let positions = [
        ("start", "B:W21-32:B1-12"),
        (
            "middle game",
            "B:W14,19,21,22,24,25,27,28,29,30,32:B1,2,3,5,6,7,9,10,11,12",
        ),
    ];
    let limits = Limits {
        nodes: Some(iterations),
        ..Limits::default()
    };
    for (name, text) in positions {
        let Ok(pos) = fen::parse(text) else {
            continue;
        };
        let game = Game::new(pos, 0, Rules::default());
        // [threads index][wall or cpu] -> samples, runs alternating between thread counts.
        let mut wall = [Vec::new(), Vec::new()];
        let mut cpu = [Vec::new(), Vec::new()];
        for _ in 0..repeats {
            for (k, threads) in [1, many].into_iter().enumerate() {
                let config = SearchConfig {
                    threads,
                    hash_mib,
                    ..SearchConfig::default()
                };
                let mut searcher = Searcher::new(&config);
                let (t, c) = (Instant::now(), process_cpu());
                let out = searcher.search(&game, &limits, &Control::default(), &mut |_| {});
                let secs = t.elapsed().as_secs_f64();
                let cpu_secs = (process_cpu() - c).as_secs_f64().max(0.01);
                wall[k].push(out.nodes as f64 / secs);
                cpu[k].push(out.nodes as f64 / cpu_secs);
            }
        }
        let (w1, wn) = (median(&mut wall[0]), median(&mut wall[1]));
        let (c1, cn) = (median(&mut cpu[0]), median(&mut cpu[1]));
        println!(
            "{name}: 1 thread {w1:.0} it/s, {many} threads {wn:.0} it/s: x{:.2} \
             (per CPU second: {c1:.0} and {cn:.0}, x{:.2}); medians of {repeats}",
            wn / w1,
            cn / c1
        );
    }
}
