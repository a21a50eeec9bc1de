//! Labels ending positions with the score of the lab's alpha-beta search, for fitting an
//! evaluation of the ending to what a full-width search sees there (issue 39: the UCT judges
//! the passage to the ending by its evaluation, alpha-beta by the forced lines).
//!
//! Reads positions in the line format of the tuning crate (`FEN<TAB>clock<TAB>...`, what
//! `datagen` writes), keeps the quiet ones (no capture pending) with `--min` to `--max` pieces,
//! each position once, and searches each with `--nodes` nodes (so the labels do not depend on
//! the machine's speed) and the tables of `--tables` when given.
//!
//! Output, one line a position: `FEN<TAB>clock<TAB>score`, the score in hundredths of a man
//! for the side to move; a proven result is written as +/-`PROVEN` (its distance dropped).
//!
//! `cargo run --release -p buffgreen-lab --bin distill -- --english --tables DIR IN > OUT`

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use buffgreen::board::{fen, has_captures, Position, Rules};
use buffgreen::search::tables::Endgame;
use buffgreen::tablebase::Tablebase;
use buffgreen_lab::alphabeta::{Budget, Searcher, PROVEN};
use clap::Parser;

#[derive(Parser)]
struct Args {
    /// English rules (default: Buff and Green).
    #[arg(long)]
    english: bool,
    /// Endgame tables for the search.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Fewest pieces kept.
    #[arg(long, default_value_t = 7)]
    min: u32,
    /// Most pieces kept.
    #[arg(long, default_value_t = 12)]
    max: u32,
    /// Nodes a search.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Positions file.
    input: PathBuf,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let rules = if args.english {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let file = std::fs::File::open(&args.input).map_err(|e| format!("{:?}: {e}", args.input))?;
    let mut seen = HashSet::new();
    let mut work: Vec<(Position, u32)> = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut fields = line.split('\t');
        let (Some(text), Some(clock)) = (fields.next(), fields.next()) else {
            continue;
        };
        let (Ok(pos), Ok(clock)) = (fen::parse(text), clock.parse::<u32>()) else {
            continue;
        };
        let pieces = pos.occupied().count();
        if pieces < args.min || pieces > args.max || has_captures(&pos, &rules) {
            continue;
        }
        if seen.insert(text.to_string()) {
            work.push((pos, clock));
        }
    }
    eprintln!("{} positions to label", work.len());
    let tables = match &args.tables {
        Some(dir) => {
            let tb = Tablebase::open(dir, &rules).map_err(|e| e.to_string())?;
            Endgame::new(Arc::new(tb), 32)
        }
        None => None,
    };
    let next = AtomicUsize::new(0);
    let out = Mutex::new(std::io::stdout());
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(rules, 16, tables.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pos, clock)) = work.get(i) else {
                        break;
                    };
                    searcher.clear();
                    let mut score = 0;
                    let budget = Budget {
                        nodes: Some(args.nodes),
                        ..Budget::default()
                    };
                    searcher.search(
                        pos,
                        *clock,
                        budget,
                        Arc::new(AtomicBool::new(false)),
                        |it| score = it.score,
                    );
                    let score = score.clamp(-PROVEN, PROVEN);
                    let line = format!("{}\t{clock}\t{score}\n", fen::write(pos));
                    if let Ok(mut o) = out.lock() {
                        let _ = o.write_all(line.as_bytes());
                    }
                    if i.is_multiple_of(10_000) {
                        eprintln!("{i} of {}", work.len());
                    }
                }
            });
        }
    });
    Ok(())
}
