//! `buffgreen tb build | probe | verify | compress | plan | status`: the command line of the
//! tablebase.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use crate::board::{fen, DrawCount};
use crate::cli::GameRuleFlags;
use crate::tablebase::build::progress::Progress;
use crate::tablebase::build::{build, BuildOptions, Share, DEFAULT_MEMORY, DEFAULT_SAVE_EVERY};
use crate::tablebase::format::describe_rules;
use crate::tablebase::probe::verify::{verify, SliceChecked};
use crate::tablebase::{counting, solve};
use crate::tablebase::{Material, Tablebase, TbError};

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
    /// Check every entry of every slice against its successors (all slices, whatever fails).
    Verify(VerifyArgs),
    /// Convert the plain tables of a directory to sparse compressed ones, in place.
    Compress(CompressArgs),
    /// Print the build's levels, one line per slice: `LEVEL SLICE`, in dependency order.
    Plan(PlanArgs),
    /// Print how far a build is: `LEVEL SLICE STATE` a slice, then a summary (exit 0 when
    /// every slice is built, 1 when not).
    Status(StatusArgs),
}

/// `tb status`.
#[derive(Args, Debug)]
pub struct StatusArgs {
    #[command(flatten)]
    /// The build.
    pub set: SetArgs,
}

/// A set of tables a build makes: how many pieces, where, for which rules.
#[derive(Args, Debug)]
pub struct SetArgs {
    /// Pieces on the board, both sides together.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
    pub pieces: u32,
    /// Directory of the slice files (default: the rules' folder in the data directory,
    /// where the engine looks, see docs/tablebase.md; `tb build` creates it).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    /// Rules.
    pub rules: GameRuleFlags,
}

/// `tb build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    /// The set to build.
    pub set: SetArgs,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Write sparse compressed tables (blocks, a checksum per block; format version 3).
    #[arg(long)]
    pub compress: bool,
    /// Build only this level of `tb plan` (the levels below must be built).
    #[arg(long)]
    pub level: Option<u32>,
    /// With --level: build only share K of N of the level (K = 1..N).
    #[arg(long, value_name = "K/N", value_parser = parse_shard, requires = "level")]
    pub shard: Option<(u32, u32)>,
    /// Table memory in MiB: the slice built, the slices it reads and those kept to be read
    /// again stay within it (unless the first two alone do not fit: they are held anyway).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEMORY >> 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
    /// Minutes between saves of the work on a slice (a build stopped in the middle of a
    /// slice goes on from its last save; 0 saves after every level).
    #[arg(long, value_name = "MINUTES", default_value_t = DEFAULT_SAVE_EVERY.as_secs() / 60,
          value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub save_every: u64,
}

/// `K/N` of `--shard`.
fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, got {s:?}");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: u32 = k.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// `tb compress`.
#[derive(Args, Debug)]
pub struct CompressArgs {
    /// Directory of the slice files.
    #[arg(long)]
    pub dir: PathBuf,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// `tb plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Pieces on the board, both sides together.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
    pub pieces: u32,
}

/// `tb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Directory of the slice files (default: the data directory's tables).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The position, PDN FEN.
    #[arg(long)]
    pub fen: String,
    /// No-progress clock: half-moves since the last capture or crowning; under Russian and
    /// Brazilian tables the material count instead (plies counted under the material rule
    /// in force, as the game's draw counters have it); under Pool tables the moves the three
    /// kings made against the lone king (the game's 13-move count).
    #[arg(long, default_value_t = 0)]
    pub clock: u32,
    #[command(flatten)]
    /// Rules.
    pub rules: GameRuleFlags,
}

/// `tb verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Directory of the slice files (default: the data directory's tables of the rules given,
    /// where `tb build` writes without --dir).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Start at this slice (a file stem such as b1m2k-w1m2k, or the same material with the
    /// sides swapped) and leave the ones checked before it alone: resumes a check that stopped
    /// after the last slice it printed.
    #[arg(long, value_name = "SLICE")]
    pub from: Option<Material>,
    #[command(flatten)]
    /// Rules: which folder of the data directory's tables to check without --dir.
    pub rules: GameRuleFlags,
}

fn threads(t: Option<u32>) -> usize {
    t.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// Runs a `tb` subcommand; returns the exit code (0 ok, 1 a negative answer: inconsistent
/// tables, a position the tables do not hold; 2 error).
pub fn run(args: &TbArgs) -> i32 {
    match &args.command {
        TbCommand::Build(a) => run_build(a),
        TbCommand::Probe(a) => run_probe(a),
        TbCommand::Verify(a) => run_verify(a),
        TbCommand::Compress(a) => run_compress(a),
        TbCommand::Plan(a) => {
            let mut out = std::io::stdout().lock();
            for (level, slice) in crate::tablebase::build::plan::levels(a.pieces) {
                if writeln!(out, "{level} {slice}").is_err() {
                    return 2;
                }
            }
            0
        }
        TbCommand::Status(a) => run_status(a),
    }
}

fn run_status(a: &StatusArgs) -> i32 {
    use crate::tablebase::build::status::{status, State};
    let rules = a.set.rules.rules();
    let Some(dir) = dir_or_default(&a.set.dir, Some(&rules)) else {
        eprintln!("{NO_DEFAULT}");
        return 2;
    };
    // A directory not made yet is a build not started; anything else in its place is wrong.
    if dir.exists() && !dir.is_dir() {
        eprintln!("error: {}: not a directory", dir.display());
        return 2;
    }
    let slices = status(&dir, a.set.pieces, &rules);
    let mut out = std::io::stdout().lock();
    let (mut built, mut done, mut total) = (0, 0u64, 0u64);
    for s in &slices {
        total += s.positions;
        let state = match &s.state {
            State::Built => {
                built += 1;
                done += s.positions;
                "built".to_string()
            }
            State::Saved(levels) => format!("saved after {levels} levels"),
            State::Unusable(why) => format!("unusable: {why}"),
            State::Missing => "missing".to_string(),
        };
        if writeln!(out, "{} {} {state}", s.level, s.material).is_err() {
            return 2;
        }
    }
    let summary = writeln!(
        out,
        "built {built} of {} slices, {done} of {total} positions ({:.1}%), {}",
        slices.len(),
        100.0 * done as f64 / total.max(1) as f64,
        describe_rules(&rules)
    );
    match summary {
        Err(_) => 2,
        Ok(()) if built == slices.len() => 0,
        Ok(()) => 1,
    }
}

fn run_compress(a: &CompressArgs) -> i32 {
    let started = Instant::now();
    match crate::tablebase::format::convert::compress_dir(
        &a.dir,
        threads(a.threads),
        &mut |m, before, after| {
            eprintln!(
                "{m}: {before} -> {after} bytes ({:.1}%)",
                100.0 * after as f64 / before.max(1) as f64
            );
        },
    ) {
        Ok(r) => {
            eprintln!(
                "compressed {} slices, kept {} sparse ones, {} -> {} bytes, {:.1}s",
                r.converted,
                r.kept,
                r.before,
                r.after,
                started.elapsed().as_secs_f64()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// `--dir`, or else the default: the root of the default tables, for `tb build` with the
/// rules' sub-folder.
fn dir_or_default(dir: &Option<PathBuf>, rules: Option<&crate::board::Rules>) -> Option<PathBuf> {
    use crate::tablebase::home;
    dir.clone().or_else(|| {
        let root = home::default_root()?;
        Some(match rules {
            Some(r) => root.join(home::rules_folder(r)),
            None => root,
        })
    })
}

/// The error when no `--dir` is given and there is no default.
const NO_DEFAULT: &str = "error: no data directory on this system: give --dir";

fn run_build(a: &BuildArgs) -> i32 {
    let rules = a.set.rules.rules();
    let Some(dir) = dir_or_default(&a.set.dir, Some(&rules)) else {
        eprintln!("{NO_DEFAULT}");
        return 2;
    };
    if a.set.dir.is_none() {
        eprintln!("building into {}", dir.display());
    }
    let opts = BuildOptions {
        dir,
        pieces: a.set.pieces,
        rules: a.set.rules.rules(),
        threads: threads(a.threads),
        compress: a.compress,
        memory: a.memory << 20,
        save_every: Duration::from_secs(a.save_every * 60),
        share: a.level.map(|level| {
            let (shard, of) = a.shard.unwrap_or((1, 1));
            Share { level, shard, of }
        }),
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
    let Some(dir) = dir_or_default(&a.dir, None) else {
        eprintln!("{NO_DEFAULT}");
        return 2;
    };
    let rules = a.rules.rules();
    let result = Tablebase::open(&dir, &rules).and_then(|tb| {
        let stored = tb.probe(&pos)?;
        // The game's count as the search passes it (Pool's moves become plies).
        let count = u16::try_from(a.clock).unwrap_or(u16::MAX);
        let at = counting::table_count(&rules, a.clock, DrawCount::counted(count, 0));
        Ok((tb.probe_at(&pos, at)?, stored))
    });
    match result {
        Ok((v, stored)) => {
            println!("{v}{}", solve::describe(stored, &pos, &rules));
            0
        }
        // A position the tables do not hold is a negative answer, as a position not in the
        // book is for `book probe`: exit 1, not an error.
        Err(TbError::NotCovered(fen)) => {
            eprintln!("not in the tables: {fen}");
            1
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn run_verify(a: &VerifyArgs) -> i32 {
    let Some(dir) = dir_or_default(&a.dir, Some(&a.rules.rules())) else {
        eprintln!("{NO_DEFAULT}");
        return 2;
    };
    let started = Instant::now();
    let mut on_slice = |checked: SliceChecked| match checked {
        Ok((m, t)) => eprintln!("{m}: consistent ({:.1}s)", t.as_secs_f64()),
        Err(e) => eprintln!("error: {e}"),
    };
    match verify(&dir, threads(a.threads), a.from, &mut on_slice) {
        Ok(r) if r.problems.is_empty() => {
            let skipped = match a.from {
                Some(m) if r.skipped > 0 => {
                    let m = m.canonical();
                    format!(" from {m} ({} before it not checked)", r.skipped)
                }
                _ => String::new(),
            };
            println!(
                "ok: {} slices, {} positions consistent ({}){skipped}, {:.1}s",
                r.slices,
                r.positions,
                describe_rules(&r.rules),
                started.elapsed().as_secs_f64()
            );
            0
        }
        Ok(r) => {
            let inconsistent = r
                .problems
                .iter()
                .filter(|e| matches!(e, TbError::Inconsistent { .. }))
                .count();
            eprintln!(
                "error: {} of {} slices failed ({inconsistent} inconsistent), {} consistent",
                r.problems.len(),
                r.problems.len() + r.slices,
                r.slices
            );
            // Inconsistent tables are the negative answer; unreadable ones an error.
            if inconsistent == r.problems.len() {
                1
            } else {
                2
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
