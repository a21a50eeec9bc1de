//! Block codecs for compressed endgame tables, measured on a directory of plain tables: per
//! block size, the bytes and the compression and decompression CPU time of zstd at several
//! levels and of lz4, and the best an own coder could do, as bounds: an order-0 entropy coder
//! per block (the block's empirical entropy, no table cost) and a run-length coder (two bytes
//! a run). Decompression is timed block by block, as a probe decompresses one.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_codec -- DIR [--every S] [block sizes...]`
//! (`--every S`: only every S-th block of each slice, for a quick estimate).

use std::path::PathBuf;
use std::time::Duration;

use buffgreen::tablebase::format;
use buffgreen_testkit::clock::thread_cpu_time;

/// One codec's totals over every block.
#[derive(Default)]
struct Totals {
    bytes: u64,
    compress: Duration,
    decompress: Duration,
    blocks: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1).map(PathBuf::from) else {
        eprintln!("usage: tb_codec DIR [block sizes...]");
        std::process::exit(2);
    };
    let every: usize = args
        .iter()
        .position(|a| a == "--every")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut sizes: Vec<usize> = args
        .iter()
        .skip(2)
        .filter(|a| Some(*a) != args.get(args.iter().position(|a| a == "--every").unwrap_or(0) + 1))
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![4096, 8192, 16384, 32768];
    }
    let files = match format::scan(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut slices = Vec::new();
    for (_, h) in &files {
        match format::read(&dir, h.material, &h.rules).map(|s| s.data) {
            Ok(d) => slices.push(d),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
    }
    let all: u64 = slices.iter().map(|s| s.len() as u64).sum();
    println!(
        "{} slices, {all} entries, every {every} block measured",
        slices.len()
    );
    let levels = [3, 9, 19];
    for &block in &sizes {
        let chunks: Vec<&[u8]> = slices
            .iter()
            .flat_map(|d| d.chunks(block).step_by(every))
            .collect();
        let plain: u64 = chunks.iter().map(|c| c.len() as u64).sum();
        // Each codec over every block in one timed loop (the clock is too coarse for one
        // block), compression then decompression.
        let mut out = vec![0u8; block];
        let mut measure = |compress: &dyn Fn(&[u8]) -> Vec<u8>,
                           decompress: &mut dyn FnMut(&[u8], &mut [u8]) -> usize|
         -> Totals {
            let c0 = thread_cpu_time();
            let packed: Vec<Vec<u8>> = chunks.iter().map(|c| compress(c)).collect();
            let compress_time = thread_cpu_time() - c0;
            let c0 = thread_cpu_time();
            let mut ok = true;
            for (z, c) in packed.iter().zip(&chunks) {
                let n = decompress(z, &mut out[..c.len()]);
                ok &= out[..n] == **c;
            }
            let decompress_time = thread_cpu_time() - c0;
            assert!(ok, "a block did not round-trip");
            Totals {
                bytes: packed.iter().map(|z| z.len() as u64).sum(),
                compress: compress_time,
                decompress: decompress_time,
                blocks: packed.len() as u64,
            }
        };
        let mut zstd_totals = Vec::new();
        for level in levels {
            let mut d = zstd::bulk::Decompressor::new().expect("context");
            zstd_totals.push(measure(
                &|c| zstd::bulk::compress(c, level).expect("compresses"),
                &mut |z, o| d.decompress_to_buffer(z, o).expect("decompresses"),
            ));
        }
        let lz4 = measure(&|c| lz4_flex::block::compress(c), &mut |z, o| {
            lz4_flex::block::decompress_into(z, o).expect("decompresses")
        });
        let mut entropy_bits = 0f64;
        let mut runs = 0u64;
        for chunk in &chunks {
            let mut counts = [0u64; 256];
            let mut last = None;
            for &b in chunk.iter() {
                counts[b as usize] += 1;
                if last != Some(b) {
                    runs += 1;
                    last = Some(b);
                }
            }
            let n = chunk.len() as f64;
            entropy_bits += counts
                .iter()
                .filter(|&&c| c > 0)
                .map(|&c| -(c as f64) * (c as f64 / n).log2())
                .sum::<f64>();
        }
        let show = |name: String, t: &Totals| {
            println!(
                "block {block}: {name}: {} bytes ({:.1}% of plain), compress {:.1} s CPU, decompress {:.2} us per block",
                t.bytes,
                100.0 * t.bytes as f64 / plain as f64,
                t.compress.as_secs_f64(),
                t.decompress.as_secs_f64() * 1e6 / t.blocks.max(1) as f64
            );
        };
        for (t, level) in zstd_totals.iter().zip(levels) {
            show(format!("zstd -{level}"), t);
        }
        show("lz4".to_string(), &lz4);
        let bound = (entropy_bits / 8.0) as u64;
        println!(
            "block {block}: order-0 entropy bound: {bound} bytes ({:.1}%); run-length (2 bytes a run): {} bytes ({:.1}%)",
            100.0 * bound as f64 / plain as f64,
            2 * runs,
            200.0 * runs as f64 / plain as f64
        );
    }
}
