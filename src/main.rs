use std::time::Instant;

use buffgreen::board::{fen, Position, Rules};
use buffgreen::tools::perft;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let rules = if args.get(3).map(|s| s.as_str()) == Some("english") {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let pos = args
        .get(4)
        .map(|f| fen::parse(f).expect("fen"))
        .unwrap_or_else(Position::startpos);
    let t = Instant::now();
    let d = perft::divide(&pos, &rules, depth, 2);
    let n: u64 = d.iter().map(|x| x.1).sum();
    for (m, c) in &d {
        println!("{m}: {c}");
    }
    println!("\nNodes searched: {n}");
    let s = t.elapsed().as_secs_f64();
    eprintln!("{s:.3}s {:.1} M/s", n as f64 / s / 1e6);
}
