//! `buffgreen book build | probe`: the command line of the opening book.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::board::{fen, Notation, Position};
use crate::book::build::{build, BuildOptions};
use crate::book::{format, Book, BookRules};
use crate::cli::RuleFlags;
use crate::openings;

/// `buffgreen book ...`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The book subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book by drop-out expansion from deep searches of the engine.
    Build(BuildArgs),
    /// Print the book moves of one position, best first: `<move> <score>` a line.
    Probe(ProbeArgs),
}

/// `book build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Rules.
    #[command(flatten)]
    pub rules: RuleFlags,
    /// Positions to score by search in all (the budget).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Iterations of each scoring search.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed of the scoring searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tree memory of each scoring search, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// Drop-out cost in plies per centi-man that a move is worse than the best.
    #[arg(long, default_value_t = 0.1)]
    pub penalty: f64,
    /// Store moves at most this many centi-men worse than the position's best.
    #[arg(long, default_value_t = 50)]
    pub keep_within: i32,
    /// Also start from every opening of this deck (moves and/or FEN a line, as `match
    /// --openings` reads), at cost 0 like the start position.
    #[arg(long, value_name = "FILE")]
    pub roots: Option<String>,
}

/// `book probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The book file (default: the built-in book of the rules).
    #[arg(long)]
    pub book: Option<String>,
    /// The position, PDN FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Rules.
    #[command(flatten)]
    pub rules: RuleFlags,
}

/// Runs a book subcommand; returns the exit status.
pub fn run(args: &BookArgs) -> i32 {
    match &args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Probe(a) => run_probe(a),
    }
}

fn run_build(a: &BuildArgs) -> i32 {
    let rules = a.rules.rules();
    let mut roots = vec![Position::startpos()];
    if let Some(path) = &a.roots {
        match openings::load(path, &rules) {
            Ok(deck) => roots.extend(deck.iter().map(|o| *o.game.position())),
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
    let opts = BuildOptions {
        rules,
        roots,
        positions: a.positions,
        nodes: a.nodes,
        seed: a.seed,
        hash_mib: a.hash as usize,
        penalty: a.penalty,
        keep_within: a.keep_within,
    };
    let entries = build(&opts, &mut |p| {
        eprintln!(
            "searched {} expanded {} root {} cost {:.2}",
            p.searched, p.expanded, p.root_value, p.cost
        );
    });
    let bytes = format::encode(BookRules::of(&rules), &entries);
    if let Err(e) = std::fs::write(&a.out, &bytes) {
        eprintln!("error: {}: {e}", a.out.display());
        return 1;
    }
    println!(
        "wrote {}: {} moves, {} bytes",
        a.out.display(),
        entries.len(),
        bytes.len()
    );
    0
}

fn run_probe(a: &ProbeArgs) -> i32 {
    let rules = a.rules.rules();
    let book = match &a.book {
        Some(path) => match Book::open(path, &rules) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        },
        None => match crate::book::builtin(&rules) {
            Some(b) => (*b).clone(),
            None => {
                eprintln!("error: no built-in book for {}", BookRules::of(&rules));
                return 1;
            }
        },
    };
    let pos = match fen::parse_or_start(a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return 1;
        }
    };
    // A closed pipe (`| head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    for m in book.probe(&pos, &rules) {
        if writeln!(out, "{} {}", Notation::Numeric.write(&m.mv), m.score).is_err() {
            break;
        }
    }
    0
}
