//! `buffgreen tb build | probe | verify`: the command line of the tablebase.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::board::fen;
use crate::cli::GameRuleFlags;
use crate::tablebase::build::{build, BuildOptions};
use crate::tablebase::format::describe_rules;
use crate::tablebase::progress::Progress;
use crate::tablebase::verify::verify;
use crate::tablebase::Tablebase;

/// `buffgreen tb ...`.
#[derive(Args, Debug)]
pub struct TbArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TbCommand,
}

/// The tablebase subcommands.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build every slice up to N pieces (slices already built and intact are kept).
    Build(BuildArgs),
    /// Print `win <d>`, `loss <d>` or `draw` for one position.
    Probe(ProbeArgs),
    /// Check every entry against its successors.
    Verify(VerifyArgs),
}

/// `tb build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Pieces on the board, both sides together.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
    pub pieces: u32,
    /// Directory for the slice files (created if missing).
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    /// Rules.
    pub rules: GameRuleFlags,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// `tb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Directory of the slice files.
    #[arg(long)]
    pub dir: PathBuf,
    /// The position, PDN FEN.
    #[arg(long)]
    pub fen: String,
    /// No-progress clock: half-moves since the last capture or crowning.
    #[arg(long, default_value_t = 0)]
    pub clock: u32,
    #[command(flatten)]
    /// Rules.
    pub rules: GameRuleFlags,
}

/// `tb verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Directory of the slice files.
    #[arg(long)]
    pub dir: PathBuf,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

fn threads(t: Option<u32>) -> usize {
    t.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// Runs a `tb` subcommand; returns the exit code (0 ok, 1 inconsistent tables, 2 error).
pub fn run(args: &TbArgs) -> i32 {
    match &args.command {
        TbCommand::Build(a) => run_build(a),
        TbCommand::Probe(a) => run_probe(a),
        TbCommand::Verify(a) => run_verify(a),
    }
}

fn run_build(a: &BuildArgs) -> i32 {
    let opts = BuildOptions {
        dir: a.dir.clone(),
        pieces: a.pieces,
        rules: a.rules.rules(),
        threads: threads(a.threads),
    };
    let started = Instant::now();
    let mut progress = Progress::new();
    match build(&opts, &mut |e| progress.event(e)) {
        Ok(r) => {
            eprintln!(
                "built {} slices, kept {}, {} bytes on disk, peak table memory {:.1} MiB, {:.1}s ({})",
                r.built,
                r.kept,
                r.bytes,
                r.peak_memory as f64 / (1024.0 * 1024.0),
                started.elapsed().as_secs_f64(),
                describe_rules(&opts.rules)
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn run_probe(a: &ProbeArgs) -> i32 {
    let pos = match fen::parse(&a.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return 2;
        }
    };
    let result =
        Tablebase::open(&a.dir, &a.rules.rules()).and_then(|tb| tb.probe_at(&pos, a.clock));
    match result {
        Ok(v) => {
            println!("{v}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn run_verify(a: &VerifyArgs) -> i32 {
    let started = Instant::now();
    let mut on_slice = |m, t: std::time::Duration| {
        eprintln!("{m}: consistent ({:.1}s)", t.as_secs_f64());
    };
    match verify(&a.dir, threads(a.threads), &mut on_slice) {
        Ok(r) => {
            println!(
                "ok: {} slices, {} positions consistent ({}), {:.1}s",
                r.slices,
                r.positions,
                describe_rules(&r.rules),
                started.elapsed().as_secs_f64()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            if matches!(e, crate::tablebase::TbError::Inconsistent { .. }) {
                1
            } else {
                2
            }
        }
    }
}
