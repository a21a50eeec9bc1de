//! A short in-process match: the engine at a fixed time a move against the plain UCT baseline
//! (the original app's AI) at a fixed iteration budget, over the 3-move openings, each opening
//! played with both colours. Both sides go through the `Searcher` API.
//!
//! `cargo run --release --example vs_baseline [openings] [LIMIT] [baseline-iterations]
//! [exploration] [first-opening] [eval-cut] [english]`
//!
//! LIMIT is our side's: `20` (ms a move), `n7000` (iterations a move) or `c2000+20` (a game
//! clock in ms plus an increment, kept by this runner; running out ends the run with an error).
//! Defaults: 30 openings = 60 games, 20 ms, 20,000 iterations, the engine's defaults, 0.

use std::time::{Duration, Instant};

use buffgreen::board::{fen, Game, GameResult, Rules};
use buffgreen::search::{Control, Limits, SearchConfig, Searcher};
use buffgreen::tourney::openings;
use buffgreen::types::Color;

/// The 3-move openings, read by the match runner's own loader.
const OPENINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/3move.tsv");

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let openings: usize = arg(&args, 1, 30);
    // "20" is 20 ms a move; "n5000" is 5,000 iterations a move (load-independent tuning).
    let ours_limit: String = arg(&args, 2, "20".to_string());
    let budget: u64 = arg(&args, 3, 20_000);
    // In process there is no communication delay to keep in reserve.
    let ours_config = SearchConfig {
        exploration: arg(&args, 4, SearchConfig::default().exploration),
        move_overhead_ms: 0,
        ..SearchConfig::default()
    };
    let skip: usize = arg(&args, 5, 0);
    let ours_config = SearchConfig {
        eval_cut: arg(&args, 6, ours_config.eval_cut),
        ..ours_config
    };
    let base_config = SearchConfig {
        plain_uct: true,
        ..SearchConfig::default()
    };
    // "english" as the 7th argument plays English rules (both switches off).
    let rules = match args.get(7).map(String::as_str) {
        Some("english") => Rules::ENGLISH,
        _ => Rules::default(),
    };
    let mut ours = Searcher::new(&ours_config);
    let mut base = Searcher::new(&base_config);
    let control = Control::default();
    // "c2000+20": a clock of 2,000 ms for the game plus 20 ms a move, kept by this runner.
    let clock: Option<(Duration, Duration)> = ours_limit.strip_prefix('c').and_then(|c| {
        let (base, inc) = c.split_once('+')?;
        let ms = |t: &str| t.parse().ok().map(Duration::from_millis);
        Some((ms(base)?, ms(inc)?))
    });
    let fixed_limits = match ours_limit.strip_prefix('n') {
        Some(n) => Limits {
            nodes: Some(n.parse().unwrap_or(20_000)),
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(Duration::from_millis(ours_limit.parse().unwrap_or(20))),
            ..Limits::default()
        },
    };
    let ours_label = match (ours_limit.strip_prefix('n'), clock) {
        (Some(n), _) => format!("{n} iterations/move"),
        (None, Some((base, inc))) => format!("clock {base:?}+{inc:?}"),
        (None, None) => format!("{ours_limit} ms/move"),
    };
    let mut least_left = Duration::MAX;
    let (mut our_moves, mut our_iterations) = (0u64, 0u64);
    let base_limits = Limits {
        nodes: Some(budget),
        ..Limits::default()
    };
    let starts = match openings::load(OPENINGS, &rules) {
        Ok(list) => list,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    for opening in starts.iter().skip(skip).take(openings) {
        let start = *opening.game.position();
        for ours_color in [Color::Black, Color::White] {
            let mut game = Game::new(start, 0, rules);
            ours.new_game();
            base.new_game();
            let mut left = clock.map(|c| c.0);
            while game.result() == GameResult::Ongoing {
                let out = if game.position().side_to_move() == ours_color {
                    let limits = match (left, clock) {
                        (Some(time), Some((_, inc))) => Limits {
                            btime: Some(time),
                            wtime: Some(time),
                            binc: Some(inc),
                            winc: Some(inc),
                            ..Limits::default()
                        },
                        _ => fixed_limits.clone(),
                    };
                    let t = Instant::now();
                    let out = ours.search(&game, &limits, &control, &mut |_| {});
                    our_moves += 1;
                    our_iterations += out.nodes;
                    if let (Some(time), Some((_, inc))) = (left, clock) {
                        let Some(rest) = time.checked_sub(t.elapsed()) else {
                            println!("ours lost on time");
                            std::process::exit(1);
                        };
                        least_left = least_left.min(rest);
                        left = Some(rest + inc);
                    }
                    out
                } else {
                    base.search(&game, &base_limits, &control, &mut |_| {})
                };
                let Some(mv) = out.best else { break };
                if !game.play(mv) {
                    eprintln!("illegal move {mv} in {}", fen::write(game.position()));
                    std::process::exit(1);
                }
            }
            let result = game.result();
            let tag = match result {
                GameResult::Win(c) if c == ours_color => {
                    wins += 1;
                    "win"
                }
                GameResult::Win(_) => {
                    losses += 1;
                    "loss"
                }
                _ => {
                    draws += 1;
                    "draw"
                }
            };
            println!(
                "{} as {:?}: {tag} after {} plies",
                opening.label,
                ours_color,
                game.moves().len()
            );
        }
    }
    if clock.is_some() {
        println!("least time left on our clock after a move: {least_left:?}");
    }
    println!(
        "ours: {:.0} iterations a move on average (forced moves count 0)",
        our_iterations as f64 / our_moves.max(1) as f64
    );
    let games = wins + draws + losses;
    let score = (wins as f64 + draws as f64 / 2.0) / games.max(1) as f64;
    println!(
        "ours ({ours_label}) vs plain UCT ({budget} iterations/move): +{wins} ={draws} -{losses} \
         in {games} games, score {:.1}%",
        score * 100.0
    );
}
