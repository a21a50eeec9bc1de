//! An ending deck: from the PDN of real games, the position where each game entered the
//! passage from middle game to ending, as an openings file for `buffgreen match`.
//!
//! `cargo run --release -p buffgreen-lab --bin ending_deck -- [--english] [--max N] [--min N]
//! PDN... > deck.tsv`
//!
//! For each game, the first position with at most `--max` (default 12) and at least `--min`
//! (default 8) pieces that is quiet (no capture for the side to move), leaves a choice (two
//! legal moves or more) and has the same number of pieces on each side; a game that reaches no
//! such position gives none. Positions are deduplicated (a transposition is played once). Each
//! line is `number<TAB><TAB>FEN`, the openings format the match runner reads; a match from it
//! plays the same ending with each engine on each side, so it measures how an engine plays the
//! passage self-play does not show (both sides of a self-play match share the weakness).

use std::collections::HashSet;

use buffgreen::board::{fen, generate_moves, Game, MoveList, Position};
use buffgreen::types::Color;
use buffgreen_lab::pdn;

fn side(pos: &Position, color: Color) -> u32 {
    pos.men(color).count() + pos.kings(color).count()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = pdn::rules_of(&args);
    let (mut max, mut min) = (12, 8);
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--max" | "--min" => {
                let Some(v) = it.next().and_then(|v| v.parse().ok()) else {
                    eprintln!("error: {a} wants a number");
                    std::process::exit(2);
                };
                if a == "--max" {
                    max = v;
                } else {
                    min = v;
                }
            }
            "--english" => {}
            _ => files.push(a.clone()),
        }
    }
    if files.is_empty() {
        eprintln!("usage: ending_deck [--english] [--max N] [--min N] PDN...");
        std::process::exit(2);
    }
    // Quiet, with a choice: two moves or more, none a capture (captures are forced, so one
    // capture in the list means all are).
    let wanted = |pos: &Position, list: &mut MoveList| {
        let pieces = pos.occupied().count();
        if pieces > max || pieces < min || side(pos, Color::White) != side(pos, Color::Black) {
            return false;
        }
        generate_moves(pos, &rules, list);
        list.len() >= 2 && !list[0].is_capture()
    };
    let mut seen = HashSet::new();
    let (mut games, mut none, mut number) = (0, 0, 0);
    let mut list = MoveList::new();
    for file in &files {
        let text = pdn::read_or_exit(file);
        for g in pdn::games(&text) {
            games += 1;
            let Ok(start) = g.start() else {
                eprintln!("note: {file}: game {games}: bad start position");
                continue;
            };
            let mut game = Game::new(start, 0, rules);
            let mut found = None;
            if wanted(game.position(), &mut list) {
                found = Some(*game.position());
            }
            for tok in g.moves() {
                if found.is_some() {
                    break;
                }
                if game.play_str(tok).is_err() {
                    eprintln!("note: {file}: game {games}: cannot play {tok}");
                    break;
                }
                if game.position().occupied().count() < min {
                    break;
                }
                if wanted(game.position(), &mut list) {
                    found = Some(*game.position());
                }
            }
            match found {
                Some(pos) if seen.insert(pos) => {
                    number += 1;
                    println!("{number:03}\t\t{}", fen::write(&pos));
                }
                Some(_) => {}
                None => none += 1,
            }
        }
    }
    eprintln!("{games} games: {number} positions, {none} games without one, the rest repeats");
}
