//! Times the restoration of one sparse slice from its file, the slices below it probed
//! through the directory's tables: `tb_restore --dir D --slice b0m2k-w0m5k [--threads N]`.
//! With `--load-below F`, the slices its captures and crownings reach of at most F times its
//! positions are restored into memory first (their own slices below probed), and the slice's
//! restoration reads them there.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use buffgreen::board::{Position, Rules};
use buffgreen::tablebase::build::plan::{below_first, positions, zeroing_targets};
use buffgreen::tablebase::format::sparse;
use buffgreen::tablebase::format::sparse::Part;
use buffgreen::tablebase::index::SliceIndex;
use buffgreen::tablebase::material::Masks;
use buffgreen::tablebase::{format, Material, Tablebase, TbError, Value};
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
    /// Restore the slices below into memory first, those of at most this share of the
    /// slice's positions (0: none, 1: all).
    #[arg(long, default_value_t = 0.0)]
    load_below: f64,
}

/// Restored slices, each half with its index.
#[derive(Default)]
struct Held {
    halves: HashMap<Material, (SliceIndex, usize, std::sync::Arc<Vec<u8>>)>,
}

impl Held {
    fn code(&self, pos: &Position) -> Option<u8> {
        let masks = Masks::of(pos);
        let (index, offset, data) = self.halves.get(&Material::of(&masks))?;
        data.get(offset + index.index(&masks) as usize).copied()
    }

    fn insert(&mut self, m: Material, data: Vec<u8>) {
        let data = std::sync::Arc::new(data);
        for (k, half) in m.halves().into_iter().enumerate() {
            let index = SliceIndex::new(half);
            let offset = k * index.size() as usize;
            self.halves.insert(half, (index, offset, data.clone()));
        }
    }
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
    let tables = Tablebase::open_with_cache(&args.dir, &rules, 256 << 20)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let mut held = Held::default();
    let restore = |m: Material, held: &Held| -> Result<Vec<u8>, TbError> {
        let stored = format::read(&args.dir, m, &rules)?;
        let probe = |q: &Position| match held.code(q) {
            Some(code) => Ok(code),
            None => tables.probe(q).map(Value::code),
        };
        sparse::restore(m, &rules, stored.data, &probe, args.threads, Part::Whole)
    };
    if args.load_below > 0.0 {
        let start = Instant::now();
        let limit = positions(material) as f64 * args.load_below;
        let mut below = zeroing_targets(material);
        below.retain(|&m| positions(m) as f64 <= limit);
        below_first(&mut below);
        for m in below {
            let t = Instant::now();
            let data = restore(m, &held).unwrap_or_else(|e| fail(&e.to_string()));
            println!(
                "{m}: {} entries restored in {:.1} s",
                data.len(),
                t.elapsed().as_secs_f64()
            );
            held.insert(m, data);
        }
        println!(
            "slices below restored in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    let start = Instant::now();
    let data = restore(material, &held).unwrap_or_else(|e| fail(&e.to_string()));
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
