//! What a table build reads, worked out from its plan without building anything: the bytes of
//! the slices it restores (a sparse slice read again is restored again) under two policies of
//! keeping the slices no longer needed between slices: the smallest ones within a fixed budget
//! (the builder until 2026-11-27, 512 MiB), and those read again soonest within a memory
//! budget for everything held (the builder since, `tb build --memory`).
//!
//! `cargo run --release -p buffgreen-lab --bin tb_reads -- --pieces 7 [--from N] [--memory MIB]`
//! (`--from N`: a build that starts, or restarts with nothing loaded, at slice N of the plan).

use std::collections::HashMap;

use buffgreen::tablebase::build::plan::{positions, Schedule};
use buffgreen::tablebase::Material;
use clap::Parser;

/// Bytes a build restores under two keeping policies.
#[derive(Parser)]
#[command(name = "tb_reads")]
struct Args {
    /// Every slice up to this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
    pieces: u32,
    /// The first slice built (1-based), nothing loaded before it.
    #[arg(long, value_name = "N", default_value_t = 1)]
    from: usize,
    /// The memory budget of the second policy, MiB.
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    memory: u64,
    /// The fixed budget of the first policy, MiB.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    keep: u64,
}

/// How slices no longer needed are kept.
enum Policy {
    /// The smallest, within this many bytes.
    Smallest(u64),
    /// The builder's: those read again soonest, with the slice built and the slices it reads
    /// within this many bytes.
    Soonest(u64),
}

/// Bytes restored building `order[from..]`, and the most held at once.
fn simulate(order: &[Material], from: usize, policy: &Policy) -> (u64, u64) {
    let schedule = Schedule::of_build(order);
    let mut loaded: HashMap<Material, u64> = HashMap::new();
    let (mut read, mut peak) = (0, 0);
    for (n, &material) in order.iter().enumerate().skip(from) {
        let needed = schedule.needs(n);
        let work = 2 * positions(material);
        let keep: Vec<Material> = match policy {
            Policy::Smallest(budget) => {
                let mut others: Vec<(u64, Material)> = loaded
                    .iter()
                    .filter(|(m, _)| !needed.contains(m))
                    .map(|(&m, &len)| (len, m))
                    .collect();
                others.sort();
                let mut left = *budget;
                let mut keep = Vec::new();
                for (len, m) in others {
                    if len > left {
                        break;
                    }
                    left -= len;
                    keep.push(m);
                }
                keep
            }
            Policy::Soonest(memory) => {
                let held: Vec<(Material, u64)> = loaded.iter().map(|(&m, &l)| (m, l)).collect();
                schedule.keep(n, &held, memory.saturating_sub(work))
            }
        };
        loaded.retain(|m, _| needed.contains(m) || keep.contains(m));
        for &m in needed {
            loaded.entry(m).or_insert_with(|| {
                read += positions(m);
                positions(m)
            });
        }
        peak = peak.max(loaded.values().sum::<u64>() + work);
    }
    (read, peak)
}

fn main() {
    let a = Args::parse();
    let order = Material::slices(a.pieces);
    let from = a.from.clamp(1, order.len()) - 1;
    let built: u64 = order[from..].iter().map(|&m| positions(m)).sum();
    println!(
        "{} slices from slice {} ({} to {}), {:.2} G positions built",
        order.len() - from,
        from + 1,
        order[from],
        order[order.len() - 1],
        built as f64 / 1e9
    );
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    for (name, policy) in [
        (
            format!("smallest within {} MiB", a.keep),
            Policy::Smallest(a.keep << 20),
        ),
        (
            format!("soonest within {} MiB", a.memory),
            Policy::Soonest(a.memory << 20),
        ),
    ] {
        let (read, peak) = simulate(&order, from, &policy);
        println!(
            "{name}: {:.2} GiB restored ({:.2} bytes a position built), peak held {:.2} GiB",
            gib(read),
            read as f64 / built as f64,
            gib(peak)
        );
    }
}
