//! Probe latency of a tablebase directory (plain or compressed), as the engine uses it:
//! opening (headers read), checking every slice (`Tablebase::verify`, what `setoption` does),
//! the first probe of each slice after that, then random probes over every slice three ways:
//! with a block cache larger than the tables, after a pass that filled it ("cached"); with the
//! smallest cache, so that nearly every probe reads and (compressed) decompresses its block
//! from the page cache ("cold block"); and, for plain files, by a memory map of each file as
//! the engine probed before it read blocks ("mmap"). Times are CPU time of this thread, so
//! that a busy machine does not inflate them, except the single first probes (below that
//! clock's resolution: wall time); opening and checking also in wall time.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_probe -- DIR [--english] [probes]`

use std::path::PathBuf;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen_testkit::clock::thread_cpu_time;

use buffgreen::board::{Position, Rules};
use buffgreen::tablebase::index::SliceIndex;
use buffgreen::tablebase::{Material, Tablebase};
use buffgreen::types::Color;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1).map(PathBuf::from) else {
        eprintln!("usage: tb_probe DIR [--english] [probes]");
        std::process::exit(2);
    };
    let english = args.iter().any(|a| a == "--english");
    let probes: usize = args
        .iter()
        .skip(2)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let rules = if english {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    let tb = match Tablebase::open(&dir, &rules) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let (open_wall, open_cpu) = (wall.elapsed(), thread_cpu_time() - cpu);
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    if let Err(e) = tb.verify() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    let (verify_wall, verify_cpu) = (wall.elapsed(), thread_cpu_time() - cpu);
    // Random positions of every slice, half of them handed over to White to move.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let slices = Material::slices(tb.max_pieces());
    let mut by_slice: Vec<Vec<Position>> = Vec::new();
    for &m in &slices {
        let mut list = Vec::new();
        for mat in m.halves() {
            let ix = SliceIndex::new(mat);
            for _ in 0..probes / slices.len() / 2 + 1 {
                if let Some(p) = ix.board(rng.gen_range(0..ix.size())).position() {
                    list.push(if rng.gen_bool(0.5) {
                        p
                    } else {
                        p.with_side_to_move(Color::White)
                    });
                }
            }
        }
        by_slice.push(list);
    }
    // One probe is below the resolution of the thread's CPU clock: wall time, median and
    // largest over the slices.
    let mut cold = Vec::new();
    let mut failures = 0;
    for list in &by_slice {
        let t = Instant::now();
        failures += usize::from(tb.probe(&list[0]).is_err());
        cold.push(t.elapsed());
    }
    cold.sort();
    let mut all: Vec<Position> = by_slice.into_iter().flatten().collect();
    // Shuffle, so that consecutive probes hit different slices and cache lines.
    for i in (1..all.len()).rev() {
        all.swap(i, rng.gen_range(0..=i));
    }
    let t = thread_cpu_time();
    let mut wins = 0u64;
    for p in &all {
        match tb.probe(p) {
            Ok(buffgreen::tablebase::Value::Win(_)) => wins += 1,
            Ok(_) => {}
            Err(_) => failures += 1,
        }
    }
    let warm = thread_cpu_time() - t;
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e9 / all.len() as f64;
    // Cached blocks: a working set of 2,000 positions, probed 50 times over, under a cache of
    // 16 times their blocks (so that few share a slot), after a pass that filled it.
    let (bytes, compressed) = tb.files();
    let set = &all[..all.len().min(2000)];
    let big =
        Tablebase::open_with_cache(&dir, &rules, 16 * 4096 * set.len() as u64).expect("opens");
    let mut sum = 0u64;
    for p in set {
        sum += u64::from(big.probe(p).is_ok());
    }
    let t = thread_cpu_time();
    for _ in 0..50 {
        for p in set {
            sum += u64::from(big.probe(p).is_ok());
        }
    }
    let cached = (thread_cpu_time() - t) / 50 * all.len() as u32 / set.len() as u32;
    // Nearly no block cached: the smallest cache, random probes over every slice.
    let small = Tablebase::open_with_cache(&dir, &rules, 0).expect("opens");
    let t = thread_cpu_time();
    for p in &all {
        sum += u64::from(small.probe(p).is_ok());
    }
    let cold_block = thread_cpu_time() - t;
    println!(
        "{} probes over {} files ({compressed} compressed, {bytes} bytes): cached {:.0} ns, cold block {:.0} ns per probe ({sum} answers)",
        all.len(),
        slices.len(),
        per(cached),
        per(cold_block)
    );
    if compressed == 0 {
        mapped(&dir, &rules, &all, "every slice");
        mapped(&dir, &rules, set, "the cached working set");
    }
    println!(
        "open (headers, maps): {:.1} ms wall, {:.1} ms CPU; checksums of every slice: {:.0} ms wall, {:.0} ms CPU",
        open_wall.as_secs_f64() * 1e3,
        open_cpu.as_secs_f64() * 1e3,
        verify_wall.as_secs_f64() * 1e3,
        verify_cpu.as_secs_f64() * 1e3
    );
    println!(
        "{} slices: first probe of a slice after opening (cold, wall): median {:.0} ns, largest {:.0} ns",
        slices.len(),
        cold[cold.len() / 2].as_secs_f64() * 1e9,
        cold.last().copied().unwrap_or_default().as_secs_f64() * 1e9
    );
    println!(
        "{} probes at random over every slice, default cache: {:.0} ns per probe ({wins} wins, {failures} errors)",
        all.len(),
        warm.as_secs_f64() * 1e9 / all.len() as f64
    );
}

/// The probe of a memory map, as the engine read plain tables before it read blocks: the
/// move check, the index and one byte of the mapped file.
fn mapped(dir: &std::path::Path, rules: &Rules, all: &[Position], what: &str) {
    use buffgreen::tablebase::format;
    use buffgreen::tablebase::material::Masks;
    let mut maps = std::collections::HashMap::new();
    for (path, h) in format::scan(dir).expect("scans") {
        let file = std::fs::File::open(&path).expect("opens");
        // SAFETY: a measurement on files nothing writes while it runs.
        let map = unsafe { memmap2::Mmap::map(&file) }.expect("maps");
        let halves: Vec<(Material, SliceIndex)> = h
            .material
            .halves()
            .into_iter()
            .map(|m| (m, SliceIndex::new(m)))
            .collect();
        maps.insert(h.material, (map, halves));
    }
    let probe = |p: &Position| -> Option<u8> {
        if !buffgreen::board::has_moves(p, rules) {
            return Some(128);
        }
        let masks = Masks::of(p);
        let mat = Material::of(&masks);
        let (map, halves) = maps.get(&mat.canonical())?;
        let h = usize::from(halves[0].0 != mat);
        let g = h as u64 * halves[0].1.size() + halves[h].1.index(&masks);
        map.get(format::HEADER_LEN + g as usize).copied()
    };
    let mut sum = 0u64;
    for p in all {
        sum += u64::from(probe(p).unwrap_or(0));
    }
    let t = thread_cpu_time();
    for p in all {
        sum += u64::from(probe(p).unwrap_or(0));
    }
    let took = thread_cpu_time() - t;
    println!(
        "{} probes of {what} by a memory map, pages resident: {:.0} ns per probe ({sum})",
        all.len(),
        took.as_secs_f64() * 1e9 / all.len() as f64
    );
}
