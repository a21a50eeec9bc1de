//! The search's speed with two sets of tables (issue 42: the 7-piece tables against the
//! 6-piece ones at the start of an ending): iterations per second of thread CPU time, each
//! position of a deck searched with set A and with set B in turn, A and B alternating first.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_speed -- --a DIR --b DIR [--english]
//!  [--nodes N] [--positions K] [--cache MIB] DECK.tsv`
//!
//! DECK is a deck as the match runner reads it (`name<TAB>moves<TAB>FEN` lines, `#` comments;
//! `lab/decks/endings-*.tsv`). Prints, per set, the total iterations and CPU seconds, the
//! iterations per second, the share of iterations that ended in a probe (tbhits per
//! iteration), and the median of the per-position ratios B/A.

use clap::Parser;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use buffgreen::board::{fen, Game, Rules};
use buffgreen::search::tables::Endgame;
use buffgreen::search::{Control, Limits, SearchConfig, SearchEvent, Searcher};
use buffgreen::tablebase::Tablebase;
use buffgreen_testkit::clock::thread_cpu_time;

/// Compares the search's speed with two sets of endgame tables.
#[derive(Parser)]
#[command(name = "tb_speed")]
struct Args {
    /// The first set of tables (A).
    #[arg(long, value_name = "DIR")]
    a: PathBuf,
    /// The second set of tables (B).
    #[arg(long, value_name = "DIR")]
    b: PathBuf,
    /// English rules (default: Buff and Green).
    #[arg(long)]
    english: bool,
    /// Iterations per position.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Only the first K positions of the deck.
    #[arg(long, value_name = "K", default_value_t = usize::MAX, hide_default_value = true)]
    positions: usize,
    /// Block cache of each set, MiB.
    #[arg(long, value_name = "MIB", default_value_t = 32)]
    cache: u64,
    /// The deck of positions (a match runner's openings file).
    #[arg(value_name = "DECK.tsv")]
    deck: PathBuf,
}

impl Args {
    fn rules(&self) -> Rules {
        if self.english {
            Rules::ENGLISH
        } else {
            Rules::BUFF_AND_GREEN
        }
    }
}

fn die(why: String) -> ! {
    eprintln!("error: {why}");
    std::process::exit(2);
}

/// The search's view of the tables of `dir`, every piece count they hold.
fn tables(dir: &Path, rules: &Rules, cache_mib: u64) -> Arc<Endgame> {
    let tb = Tablebase::open_with_cache(dir, rules, cache_mib << 20)
        .unwrap_or_else(|e| die(format!("{}: {e}", dir.display())));
    Endgame::new(Arc::new(tb), 32)
        .map(Arc::new)
        .unwrap_or_else(|| die(format!("{}: no tables to probe", dir.display())))
}

#[derive(Default)]
struct Totals {
    nodes: u64,
    tbhits: u64,
    cpu: f64,
}

fn main() {
    let a = Args::parse();
    let text = std::fs::read_to_string(&a.deck)
        .unwrap_or_else(|e| die(format!("{}: {e}", a.deck.display())));
    let games: Vec<Game> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(2))
        .filter_map(|f| fen::parse(f.trim()).ok())
        .map(|pos| Game::new(pos, 0, a.rules()))
        .take(a.positions)
        .collect();
    if games.is_empty() {
        die(format!("{}: no positions", a.deck.display()));
    }
    let sets = [
        tables(&a.a, &a.rules(), a.cache),
        tables(&a.b, &a.rules(), a.cache),
    ];
    let config = SearchConfig::default();
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let control = Control::default();
    let mut totals = [Totals::default(), Totals::default()];
    let mut ratios = Vec::new();
    for (k, game) in games.iter().enumerate() {
        let mut rate = [0.0f64; 2];
        // Alternate which set goes first, so a drift of the machine falls on both.
        let order = if k % 2 == 0 { [0, 1] } else { [1, 0] };
        for s in order {
            let mut searcher = Searcher::new(&config);
            searcher.set_tables(Some(Arc::clone(&sets[s])));
            let mut tbhits = 0;
            let cpu = thread_cpu_time();
            let out = searcher.search(game, &limits, &control, &mut |e| {
                if let SearchEvent::Info(i) = e {
                    tbhits = i.tbhits.unwrap_or(0);
                }
            });
            let secs = (thread_cpu_time() - cpu).as_secs_f64();
            totals[s].nodes += out.nodes;
            totals[s].tbhits += tbhits;
            totals[s].cpu += secs;
            rate[s] = out.nodes as f64 / secs.max(1e-9);
        }
        ratios.push(rate[1] / rate[0]);
    }
    for (name, t) in ["A", "B"].iter().zip(&totals) {
        println!(
            "{name}: {} iterations in {:.2} s of CPU: {:.0} iterations/s, {:.3} probes an iteration",
            t.nodes,
            t.cpu,
            t.nodes as f64 / t.cpu,
            t.tbhits as f64 / t.nodes as f64
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "B/A iterations per second: median {:.3} over {} positions (quartiles {:.3} {:.3})",
        ratios[ratios.len() / 2],
        ratios.len(),
        ratios[ratios.len() / 4],
        ratios[ratios.len() * 3 / 4]
    );
}
