//! Probe latency of a tablebase directory, as the engine uses it: opening (headers read, files
//! mapped), checking every checksum (`Tablebase::verify`, what `setoption` does), the first
//! probe of each slice after that ("cold": the engine's first probe of a material during a
//! search) and probes once every slice was probed ("cached"). Times are CPU time of this
//! thread, so that a busy machine does not inflate them, except the single cold probes
//! (below that clock's resolution: wall time); opening and checking also in wall time.
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
        "{} probes, slices touched before (cached): {:.0} ns per probe ({wins} wins, {failures} errors)",
        all.len(),
        warm.as_secs_f64() * 1e9 / all.len() as f64
    );
}
