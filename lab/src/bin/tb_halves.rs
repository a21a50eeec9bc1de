//! Which halves of the slices a table build reads it needs: a capture or a crowning leaves
//! the opponent to move, so a slice reached from another is probed in one half or in both.
//! A sparse slice's half 1 (White to move) is not stored and is the larger part of a
//! restoration; this counts, over every slice of the plan and every slice it reads (without
//! keeping: each pair once), the positions of those halves 1 and of the ones the reading
//! slice reaches; then over the slices read (each once, as if all were kept), those whose
//! half 1 some slice reaches. Restoring only the halves needed saves between the two.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_halves -- --pieces 7 [--from N]`

use buffgreen::tablebase::build::plan::{zeroing_successors, zeroing_targets};
use buffgreen::tablebase::index::SliceIndex;
use buffgreen::tablebase::Material;
use clap::Parser;

/// Halves 1 of the slices a build reads, and those it needs.
#[derive(Parser)]
#[command(name = "tb_halves")]
struct Args {
    /// Every slice up to this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
    pieces: u32,
    /// The first slice counted (1-based, in the build's order: `[N/...]` in its log).
    #[arg(long, value_name = "N", default_value_t = 1)]
    from: usize,
}

fn main() {
    let args = Args::parse();
    let (mut all, mut needed) = (0u64, 0u64);
    let mut read: Vec<Material> = Vec::new();
    let mut halves: Vec<Material> = Vec::new();
    for x in Material::slices(args.pieces)
        .into_iter()
        .skip(args.from.saturating_sub(1))
    {
        let next = zeroing_successors(x);
        for y in zeroing_targets(x).into_iter().filter(|y| y.mirror() != *y) {
            let half1 = SliceIndex::new(y.mirror()).size();
            all += half1;
            if next.contains(&y.mirror()) {
                needed += half1;
            }
            if !read.contains(&y) {
                read.push(y);
            }
        }
        halves.extend(
            next.iter()
                .filter(|q| !halves.contains(q))
                .collect::<Vec<_>>(),
        );
    }
    let share = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "halves 1 of the slices read: {all} positions, reached by the slice reading them: {needed} ({:.1}%)",
        share(needed, all)
    );
    let size = |y: &Material| SliceIndex::new(y.mirror()).size();
    let once: u64 = read.iter().map(size).sum();
    let ever: u64 = read
        .iter()
        .filter(|y| halves.contains(&y.mirror()))
        .map(size)
        .sum();
    println!(
        "each slice read once: {once} positions of halves 1, reached by some slice: {ever} ({:.1}%)",
        share(ever, once)
    );
}
