//! `buffgreen book build | probe`: the command line of the opening book.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::board::{fen, Notation, Position};
use crate::book::build::{build, BuildOptions};
use crate::book::{format, Book, BookRules};
use crate::cli::RuleFlags;
use crate::openings;
use crate::tools::files::{check_outputs, Role};

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

/// Exit status: done (`book probe`: the position has book moves).
pub const EXIT_OK: i32 = 0;
/// Exit status of `book probe` for a position the book has no move for.
pub const EXIT_NOT_FOUND: i32 = 1;
/// Exit status of a command that could not be done: bad arguments, an unreadable or malformed
/// input, an output that cannot be written, a build whose budget gives no book.
pub const EXIT_ERROR: i32 = 2;

/// Runs a book subcommand; returns the exit status ([`EXIT_OK`], [`EXIT_NOT_FOUND`],
/// [`EXIT_ERROR`]).
pub fn run(args: &BookArgs) -> i32 {
    match &args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Probe(a) => run_probe(a),
    }
}

fn run_build(a: &BuildArgs) -> i32 {
    let rules = a.rules.rules();
    let out = a.out.display().to_string();
    if let Some(path) = &a.roots {
        let files = [Role::output("--out", &out), Role::input("--roots", path)];
        if let Err(e) = check_outputs(&files) {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    }
    let mut roots = vec![Position::startpos()];
    if let Some(path) = &a.roots {
        match openings::load(path, &rules) {
            Ok(deck) => roots.extend(deck.iter().map(|o| *o.game.position())),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_ERROR;
            }
        }
    }
    // Each root is searched before anything is expanded: a budget that ends there gives no
    // book at all.
    let distinct: std::collections::HashSet<Position> = roots.iter().copied().collect();
    if a.positions <= distinct.len() {
        eprintln!(
            "error: --positions {} is spent on searching the {} root positions before any is \
             expanded: give more than {}",
            a.positions,
            distinct.len(),
            distinct.len()
        );
        return EXIT_ERROR;
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
    if entries.is_empty() {
        eprintln!(
            "error: no book move within --positions {} (no root has a legal move?): {out} not \
             written",
            a.positions
        );
        return EXIT_ERROR;
    }
    let bytes = format::encode(BookRules::of(&rules), &entries);
    if let Err(e) = std::fs::write(&a.out, &bytes) {
        eprintln!("error: {out}: {e}");
        return EXIT_ERROR;
    }
    println!(
        "wrote {}: {} moves, {} bytes",
        a.out.display(),
        entries.len(),
        bytes.len()
    );
    EXIT_OK
}

fn run_probe(a: &ProbeArgs) -> i32 {
    let rules = a.rules.rules();
    let book = match &a.book {
        Some(path) => match Book::open(path, &rules) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_ERROR;
            }
        },
        None => match crate::book::builtin(&rules) {
            Some(b) => (*b).clone(),
            None => {
                eprintln!("error: no built-in book for {}", BookRules::of(&rules));
                return EXIT_ERROR;
            }
        },
    };
    let pos = match fen::parse_or_start(a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return EXIT_ERROR;
        }
    };
    let moves = book.probe(&pos, &rules);
    if moves.is_empty() {
        eprintln!("not in the book: {}", fen::write(&pos));
        return EXIT_NOT_FOUND;
    }
    // A closed pipe (`| head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    for m in moves {
        if writeln!(out, "{} {}", Notation::Numeric.write(&m.mv), m.score).is_err() {
            break;
        }
    }
    EXIT_OK
}
