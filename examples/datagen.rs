//! Self-play games for fitting the evaluation to game outcomes (`examples/tune.rs`).
//!
//! Each game starts from an opening of the rules' deck (the balanced Buff and Green deck, or
//! the English 3-move deck), then a few uniformly random plies (so that the same
//! opening does not give the same game twice), then both sides are the engine at a fixed
//! iteration budget with its own seed. Every position of the game after the random plies is
//! written with the game's result.
//!
//! `cargo run --release --example datagen -- GAMES NODES THREADS OUT [RANDOM_PLIES] [SEED]
//! [english] [losing]`
//!
//! `losing`: losing checkers (`Losing`: the side with no legal move wins), for fitting the
//! losing evaluation.
//!
//! Output: one line a position, `FEN<TAB>clock<TAB>result`, the result from Black's view
//! (`1`, `0.5`, `0`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::board::{fen, Game, GameResult, Rules};
use buffgreen::search::{Control, Limits, SearchConfig, Searcher};
use buffgreen::tourney::openings;
use buffgreen::types::Color;

/// The English 3-move openings, read by the match runner's own loader.
const ENGLISH_OPENINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/3move.tsv");
/// The Buff and Green deck (openings a deep search scores level under these rules).
const BUFFGREEN_OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/openings/buffgreen-balanced.tsv"
);

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = arg(&args, 1, 100);
    let nodes: u64 = arg(&args, 2, 3000);
    let threads: usize = arg(&args, 3, 2);
    let out: String = arg(&args, 4, "datagen.tsv".to_string());
    let random_plies: usize = arg(&args, 5, 2);
    let seed: u64 = arg(&args, 6, 1);
    let words = args.get(7..).unwrap_or_default();
    let (rules, deck) = if words.iter().any(|w| w == "english") {
        (Rules::ENGLISH, ENGLISH_OPENINGS)
    } else {
        (Rules::default(), BUFFGREEN_OPENINGS)
    };
    let rules = Rules {
        losing: words.iter().any(|w| w == "losing"),
        ..rules
    };
    let openings: Vec<_> = match openings::load(deck, &rules) {
        Ok(list) => list.iter().map(|o| *o.game.position()).collect(),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let file = match File::create(&out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot write {out}: {e}");
            std::process::exit(2);
        }
    };
    let sink = Mutex::new(BufWriter::new(file));
    let next = AtomicUsize::new(0);
    let tally = Mutex::new([0usize; 3]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let config = SearchConfig {
                    hash_mib: 32,
                    move_overhead_ms: 0,
                    ..SearchConfig::default()
                };
                let mut searcher = Searcher::new(&config);
                let control = Control::default();
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed);
                    let mut game = Game::new(openings[g % openings.len()], 0, rules);
                    for _ in 0..random_plies {
                        let moves = game.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        game.play(moves[rng.gen_range(0..moves.len())]);
                    }
                    searcher.configure(&SearchConfig {
                        seed: game_seed % 1_000_000,
                        ..config.clone()
                    });
                    searcher.new_game();
                    let mut seen = Vec::new();
                    while game.result() == GameResult::Ongoing {
                        seen.push((fen::write(game.position()), game.clock()));
                        let found = searcher.search(&game, &limits, &control, &mut |_| {});
                        let Some(mv) = found.best else { break };
                        if !game.play(mv) {
                            eprintln!("illegal move {mv}");
                            std::process::exit(1);
                        }
                    }
                    let (label, slot) = match game.result() {
                        GameResult::Win(Color::Black) => ("1", 0),
                        GameResult::Win(Color::White) => ("0", 2),
                        _ => ("0.5", 1),
                    };
                    let mut w = sink.lock().unwrap_or_else(|e| e.into_inner());
                    for (f, clock) in &seen {
                        let _ = writeln!(w, "{f}\t{clock}\t{label}");
                    }
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t[slot] += 1;
                    let done = t.iter().sum::<usize>();
                    if done % 100 == 0 {
                        eprintln!("{done} games: black +{} ={} -{}", t[0], t[1], t[2]);
                    }
                }
            });
        }
    });
    let mut w = sink.lock().unwrap_or_else(|e| e.into_inner());
    let _ = w.flush();
    let t = tally.lock().unwrap_or_else(|e| e.into_inner());
    println!("{games} games: black +{} ={} -{}", t[0], t[1], t[2]);
}
