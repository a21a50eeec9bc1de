//! Reproducible test positions from the tables: `count` positions of one result at clock 0,
//! spread over the slices of `pieces` pieces (a mix of materials, both sides to move), one
//! FEN per line, for match openings (lab/tb_play.sh).
//!
//! `cargo run --release -p buffgreen-lab --bin tb_positions -- DIR win|draw COUNT PIECES [--english] [--seed N]`
//!
//! A win is kept only when it takes at least `MIN_PLIES` plies to convert and the side to
//! move has a move that throws it away (so the game tests technique, not one forced capture).
//! A draw is kept only when the side to move has a losing move.

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::board::{fen, generate_moves, next_clock, MoveList, Position, Rules};
use buffgreen::tablebase::index::SliceIndex;
use buffgreen::tablebase::{Material, Tablebase, Value};
use buffgreen::types::Color;

/// The shortest conversion of a kept win.
const MIN_PLIES: u32 = 5;

fn usage() -> ! {
    eprintln!("usage: tb_positions DIR win|draw COUNT PIECES [--english] [--seed N]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        usage();
    }
    let dir = PathBuf::from(&args[0]);
    let want_win = match args[1].as_str() {
        "win" => true,
        "draw" => false,
        _ => usage(),
    };
    let (Ok(count), Ok(pieces)) = (args[2].parse::<usize>(), args[3].parse::<u32>()) else {
        usage()
    };
    let rules = if args.iter().any(|a| a == "--english") {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(1);
    let tb = Tablebase::open(&dir, &rules).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut slices: Vec<Material> = Material::slices(pieces)
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .flat_map(|m| m.halves())
        .collect();
    let mut out = Vec::new();
    // One slice after the other, round robin, so every material gets its share.
    let mut turn = 0;
    while out.len() < count && !slices.is_empty() {
        let mat = slices[turn % slices.len()];
        let ix = SliceIndex::new(mat);
        let found = (0..20_000).find_map(|_| {
            let pos = ix.board(rng.gen_range(0..ix.size())).position()?;
            let pos = if rng.gen_bool(0.5) {
                pos
            } else {
                pos.with_side_to_move(Color::White)
            };
            keep(&tb, &rules, &pos, want_win).then_some(pos)
        });
        match found {
            Some(pos) => {
                out.push(fen::write(&pos));
                turn += 1;
            }
            // A slice without such positions: skip it from now on.
            None => {
                slices.retain(|&m| m != mat);
            }
        }
    }
    for line in &out {
        println!("{line}");
    }
}

/// True for a position worth a game (see the module comment).
fn keep(tb: &Tablebase, rules: &Rules, pos: &Position, want_win: bool) -> bool {
    let Ok(value) = tb.probe_at(pos, 0) else {
        return false;
    };
    let mut list = MoveList::new();
    generate_moves(pos, rules, &mut list);
    let spoils = |v: Value| {
        if want_win {
            !matches!(v, Value::Loss(_))
        } else {
            matches!(v, Value::Win(_))
        }
    };
    let has_wrong = list.iter().any(|&m| {
        let mut next = *pos;
        next.play_unchecked(m);
        tb.probe_at(&next, next_clock(m, 0)).is_ok_and(spoils)
    });
    let fits = match value {
        Value::Win(d) => want_win && d >= MIN_PLIES,
        Value::Draw => !want_win,
        Value::Loss(_) => false,
    };
    fits && has_wrong
}
