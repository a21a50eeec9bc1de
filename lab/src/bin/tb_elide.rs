//! Which entries compressed tables need not store, measured on a directory of plain tables:
//! the share of capture positions (their value follows from the slices below, as a probe
//! can work out), and zstd's bytes over blocks when their entries are replaced by a filler
//! (the entry before them, or a draw) against storing every entry.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_elide -- DIR`

use std::path::PathBuf;

use buffgreen::board::{has_captures, Rules};
use buffgreen::tablebase::format;
use buffgreen::tablebase::format::compress::{BLOCK, LEVEL};
use buffgreen::tablebase::index::SliceIndex;

fn zstd_bytes(data: &[u8]) -> u64 {
    data.chunks(BLOCK as usize)
        .map(|c| zstd::bulk::compress(c, LEVEL).map_or(c.len(), |z| z.len()) as u64)
        .sum()
}

fn main() {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: tb_elide DIR");
        std::process::exit(2);
    };
    let files = format::scan(&dir).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let (mut plain, mut captures, mut whole, mut prev, mut draw) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut one, mut smaller) = (0u64, 0u64);
    for (_, h) in &files {
        let data = format::read(&dir, h.material, &h.rules)
            .map(|s| s.data)
            .unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(2)
            });
        let rules: Rules = h.rules;
        let halves: Vec<SliceIndex> = h
            .material
            .halves()
            .into_iter()
            .map(SliceIndex::new)
            .collect();
        let n = halves[0].size();
        let mut elided = vec![false; data.len()];
        for (g, e) in elided.iter_mut().enumerate() {
            let (k, i) = ((g as u64) / n, (g as u64) % n);
            if let Some(pos) = halves[k as usize].board(i).position() {
                *e = has_captures(&pos, &rules);
            }
        }
        let mut by_prev = data.clone();
        let mut by_draw = data.clone();
        let mut last = 0u8;
        for g in 0..data.len() {
            if elided[g] {
                by_prev[g] = last;
                by_draw[g] = 0;
            } else {
                last = data[g];
            }
        }
        let c = elided.iter().filter(|&&e| e).count() as u64;
        let half = n as usize;
        let halves_bytes: Vec<u64> = by_prev.chunks(half).map(zstd_bytes).collect();
        let h0 = halves_bytes[0];
        let best = halves_bytes.iter().copied().min().unwrap_or(0);
        one += h0;
        smaller += best;
        println!("{}: halves {:?} bytes", h.material, halves_bytes);
        let (w, p, d) = (zstd_bytes(&data), zstd_bytes(&by_prev), 0);
        let _ = by_draw;
        println!(
            "{}: {} entries, {:.1}% captures, zstd {:.2}% -> prev {:.2}%, draw {:.2}%",
            h.material,
            data.len(),
            100.0 * c as f64 / data.len() as f64,
            100.0 * w as f64 / data.len() as f64,
            100.0 * p as f64 / data.len() as f64,
            100.0 * d as f64 / data.len() as f64
        );
        plain += data.len() as u64;
        captures += c;
        whole += w;
        prev += p;
        draw += d;
    }
    let pct = |x: u64| 100.0 * x as f64 / plain as f64;
    println!(
        "total: {plain} entries, {:.1}% capture positions; zstd every entry {whole} bytes ({:.2}%), captures as the entry before {prev} ({:.2}%), as draws {draw} ({:.2}%)",
        pct(captures), pct(whole), pct(prev), pct(draw)
    );
    println!(
        "one half only, captures as the entry before: half 0 {one} ({:.2}%), the smaller half {smaller} ({:.2}%)",
        pct(one), pct(smaller)
    );
}
