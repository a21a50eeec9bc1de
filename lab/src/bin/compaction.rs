//! How long pruning a full arena takes: a UCT-shaped tree (visits fall off with depth, eight
//! children a leaf) fills a `Hash`-sized arena, which is then pruned to half, as a search does.
//!
//! `cargo run --release -p buffgreen-lab --bin compaction -- [hash-mib] [rounds]`

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::search::node::PackedMove;
use buffgreen::search::tree::Tree;
use buffgreen::search::value::SCALE;

/// Children a leaf gets when expanded.
const BRANCHING: u32 = 8;

/// Grows the tree as UCT would, roughly: each iteration walks down from the root, mostly to
/// the child with the most visits, sometimes to a random one, adds a visit to every node on
/// the way and expands the leaf it ends on. Stops when the arena is full.
fn grow(tree: &Tree, rng: &mut Xoshiro256PlusPlus) {
    loop {
        let mut index = 0;
        loop {
            let node = tree.node(index);
            node.add(SCALE / 2);
            let children = node.children();
            if children.is_empty() {
                break;
            }
            index = if rng.gen_bool(0.3) {
                rng.gen_range(children)
            } else {
                children
                    .max_by_key(|&c| tree.node(c).visits())
                    .unwrap_or(index)
            };
        }
        let Some(first) = tree.alloc(BRANCHING as usize) else {
            return;
        };
        for c in first..first + BRANCHING {
            tree.node(c).init(PackedMove::default());
        }
        tree.node(index).set_children(first, BRANCHING as u16);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mib: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let rounds: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut tree = Tree::with_budget(mib << 20);
    let mut times = Vec::new();
    for round in 0..rounds {
        grow(&tree, &mut rng);
        let used = tree.used();
        let t = Instant::now();
        let kept = tree.compact(0, tree.capacity() / 2);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        println!("round {round}: pruned {used} nodes to {kept} in {ms:.2} ms");
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    if let Some(median) = times.get(times.len() / 2) {
        println!("Hash {mib} MiB: median {median:.2} ms a pruning of a full arena");
    }
}
