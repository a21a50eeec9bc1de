//! Self-play games for fitting the evaluation to game outcomes (`tune/src/bin/tune.rs`).
//!
//! Each game starts from an opening of the rules' deck (the balanced Buff and Green deck, or
//! the English 3-move deck), then a few uniformly random plies (so that the same
//! opening does not give the same game twice), then both sides are the engine at a fixed
//! iteration budget with its own seed. Every position of the game after the random plies is
//! written with the game's result.
//!
//! `losing`: losing checkers (`Losing`: the side with no legal move wins), for fitting the
//! losing evaluation.
//!
//! With `tables=DIR` (endgame tables of these rules) a game ends at its first position the
//! tables cover, with their result: the plies of a tabled ending cost searches and teach
//! nothing the tables do not know exactly. The positions before it take that result; the
//! covered position and up to `tabled-plies=N` (default 8) more, played from it by the
//! tables (a random move among those that keep the result, the fastest conversions of a
//! win), are labelled by the tables' result of each position itself (source `table`).
//!
//! With `tables=DIR` and `play-out`, the game is not ended there: the engine (searching
//! without the tables) plays it to its end, every position the tables cover is labelled by the
//! tables' result of itself, and the positions before the first covered one by that one's
//! result. So the endings the engine plays by its evaluation when it has no tables are in the
//! data, with exact labels.
//!
//! `cargo run --release -p buffgreen-tune --bin datagen -- -- GAMES NODES THREADS OUT [RANDOM_PLIES] [SEED]
//! [english] [losing] [tables=DIR] [tabled-plies=N] [play-out]`
//!
//! Output: one line a position in the format of [`buffgreen_tune`]:
//! `FEN<TAB>clock<TAB>result<TAB>source`, the result from Black's view (`1`, `0.5`, `0`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use std::path::Path;
use std::sync::Arc;

use buffgreen::board::{Game, GameResult, Rules};
use buffgreen::openings;
use buffgreen::search::tables::Endgame;
use buffgreen::search::{Control, Limits, SearchConfig, Searcher};
use buffgreen::tablebase::Tablebase;
use buffgreen::types::Color;
use buffgreen_tune::{self as texel, Labelled, Source};

/// The English 3-move openings, read by the match runner's own loader.
const ENGLISH_OPENINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../openings/3move.tsv");
/// The Buff and Green deck (openings a deep search scores level under these rules).
const BUFFGREEN_OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../openings/buffgreen-balanced.tsv"
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
    let keyword = |name: &str| {
        args.iter()
            .skip(7)
            .find_map(|a| a.strip_prefix(name).map(str::to_string))
    };
    let (rules, deck) = if keyword("english").is_some() {
        (Rules::ENGLISH, ENGLISH_OPENINGS)
    } else {
        (Rules::default(), BUFFGREEN_OPENINGS)
    };
    let rules = Rules {
        losing: keyword("losing").is_some(),
        ..rules
    };
    let tabled_plies: usize = keyword("tabled-plies=")
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    let tables = keyword("tables=").map(|dir| {
        match Tablebase::open(Path::new(&dir), &rules)
            .ok()
            .and_then(|tb| Endgame::new(Arc::new(tb), u32::MAX))
        {
            Some(t) => t,
            None => {
                eprintln!("cannot open the tables of these rules in {dir}");
                std::process::exit(2);
            }
        }
    });
    let tables = tables.as_ref();
    let play_out = keyword("play-out").is_some();
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
                    let mut adjudicated = None;
                    // Played out: the covered positions, each with its own tables' label.
                    let mut covered = Vec::new();
                    while game.result() == GameResult::Ongoing {
                        let (pos, clock) = (*game.position(), game.clock());
                        if let Some(t) = tables.filter(|t| t.covers(&pos)) {
                            let label = texel::table_label(t.tablebase(), &pos, clock);
                            if play_out {
                                if let Some(black) = label {
                                    adjudicated = adjudicated.or(label);
                                    covered.push(Labelled {
                                        pos,
                                        clock,
                                        black,
                                        source: Source::Table,
                                    });
                                }
                            } else if label.is_some() {
                                adjudicated = label;
                                break;
                            }
                        }
                        if covered.is_empty() {
                            seen.push((pos, clock));
                        }
                        let found = searcher.search(&game, &limits, &control, &mut |_| {});
                        let Some(mv) = found.best else { break };
                        if !game.play(mv) {
                            eprintln!("illegal move {mv}");
                            std::process::exit(1);
                        }
                    }
                    let black = match (adjudicated, game.result()) {
                        (Some(label), _) => label,
                        (None, GameResult::Win(Color::Black)) => 1.0,
                        (None, GameResult::Win(Color::White)) => 0.0,
                        _ => 0.5,
                    };
                    let mut lines: Vec<Labelled> = seen
                        .iter()
                        .map(|&(pos, clock)| Labelled {
                            pos,
                            clock,
                            black,
                            source: Source::Game,
                        })
                        .collect();
                    if play_out {
                        lines.append(&mut covered);
                    } else if let (Some(t), Some(_)) = (tables, adjudicated) {
                        lines.extend(tabled_line(t, &mut game, &mut rng, tabled_plies));
                    }
                    let slot = if black == 1.0 {
                        0
                    } else if black == 0.0 {
                        2
                    } else {
                        1
                    };
                    let mut w = sink.lock().unwrap_or_else(|e| e.into_inner());
                    for line in &lines {
                        let _ = writeln!(w, "{line}");
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

/// The covered position `game` stands on and up to `plies` more, each a random move among
/// those that keep the tables' result, each labelled by the tables' result of itself.
fn tabled_line(
    t: &Endgame,
    game: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    plies: usize,
) -> Vec<Labelled> {
    let mut out = Vec::new();
    for ply in 0..=plies {
        let (pos, clock) = (*game.position(), game.clock());
        let Some(black) = texel::table_label(t.tablebase(), &pos, clock) else {
            break;
        };
        out.push(Labelled {
            pos,
            clock,
            black,
            source: Source::Table,
        });
        if ply == plies || game.result() != GameResult::Ongoing {
            break;
        }
        let Some(root) = t.root(&pos, game.rules(), clock) else {
            break;
        };
        if root.moves.is_empty() || !game.play(root.moves[rng.gen_range(0..root.moves.len())]) {
            break;
        }
    }
    out
}
