//! Times the restoration of one sparse slice from its file, the slices below it probed
//! through the directory's tables: `tb_restore --dir D --slice b0m2k-w0m5k [--threads N]`.

use std::path::PathBuf;
use std::time::Instant;

use buffgreen::board::Rules;
use buffgreen::tablebase::{format, sparse, Material, Tablebase, Value};
use clap::Parser;

/// Times one restoration.
#[derive(Parser)]
#[command(name = "tb_restore")]
struct Args {
    /// Directory of the slice files.
    #[arg(long)]
    dir: PathBuf,
    /// The slice, as its file is named.
    #[arg(long)]
    slice: String,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

fn main() {
    let args = Args::parse();
    let files = format::scan_all(&args.dir).unwrap_or_else(|e| fail(&e.to_string()));
    let Some(header) = files
        .into_iter()
        .filter_map(|(_, h)| h.ok())
        .find(|h| h.material.to_string() == args.slice)
    else {
        fail("no such slice")
    };
    let (material, rules): (Material, Rules) = (header.material, header.rules);
    let stored = format::read(&args.dir, material, &rules).unwrap_or_else(|e| fail(&e.to_string()));
    let tables = Tablebase::open_with_cache(&args.dir, &rules, 256 << 20)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let probe = |q: &buffgreen::board::Position| tables.probe(q).map(Value::code);
    let start = Instant::now();
    let data = sparse::restore(material, &rules, stored.data, &probe, args.threads)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let sum: u64 = data.iter().map(|&b| u64::from(b)).sum();
    println!(
        "{material}: {} entries restored in {:.1} s (sum {sum})",
        data.len(),
        start.elapsed().as_secs_f64()
    );
}

fn fail(why: &str) -> ! {
    eprintln!("error: {why}");
    std::process::exit(2)
}
