//! Audits the games of a match PDN against the tables: every move a named engine made in a
//! covered position, checked for throwing away a tabled result (a win into a draw or loss, a
//! draw into a loss), and the tabled results it reached.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_audit -- PDN DIR ENGINE [--english]`

use std::path::PathBuf;

use buffgreen::board::{fen, Game, GameResult, Position, Rules};
use buffgreen::tablebase::{Tablebase, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: tb_audit PDN DIR ENGINE [--english]");
        std::process::exit(2);
    }
    let rules = if args.iter().any(|a| a == "--english") {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("error: {}: {e}", args[0]);
        std::process::exit(2);
    });
    let tb = Tablebase::open(&PathBuf::from(&args[1]), &rules).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let engine = &args[2];
    let (mut moves_checked, mut spoiled, mut games) = (0, 0, 0);
    let mut entered = [0u32; 3]; // first tabled position reached with the engine to move: W D L
    let mut finals = [0u32; 3];
    for game_text in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            let key = format!("[{name} \"");
            let at = game_text.find(&key)? + key.len();
            let end = game_text[at..].find('"')?;
            Some(game_text[at..at + end].to_string())
        };
        let start = match tag("FEN") {
            Some(f) => fen::parse(&f).unwrap_or_else(|e| panic!("{f}: {e}")),
            None => Position::startpos(),
        };
        let white = tag("White").unwrap_or_default();
        let ours_white = &white == engine;
        let body = game_text.split("\n\n").nth(1).unwrap_or("");
        let mut game = Game::new(start, 0, rules);
        let mut first = true;
        games += 1;
        for tok in body.split_whitespace() {
            // Move numbers and results (no square is 0, so `2-0` is never a move).
            if tok.ends_with('.') || ["2-0", "0-2", "1-1", "*"].contains(&tok) {
                continue;
            }
            let pos = *game.position();
            let clock = game.clock();
            let ours = (pos.side_to_move() == buffgreen::types::Color::White) == ours_white;
            let before = tb
                .covers(&pos)
                .then(|| tb.probe_at(&pos, clock).ok())
                .flatten();
            if game.play_str(tok).is_err() {
                eprintln!("note: cannot play {tok}");
                break;
            }
            if let (true, Some(before)) = (ours, before) {
                if first {
                    first = false;
                    let k = match before {
                        Value::Win(_) => 0,
                        Value::Draw => 1,
                        Value::Loss(_) => 2,
                    };
                    entered[k] += 1;
                    let r = game_text.contains("[Result \"1-1\"]");
                    let won = (game_text.contains("[Result \"2-0\"]") && ours_white)
                        || (game_text.contains("[Result \"0-2\"]") && !ours_white);
                    finals[if won {
                        0
                    } else if r {
                        1
                    } else {
                        2
                    }] += 1;
                }
                let after_pos = *game.position();
                let after = if game.result() != GameResult::Ongoing {
                    None
                } else {
                    tb.probe_at(&after_pos, game.clock()).ok()
                };
                moves_checked += 1;
                let bad = match (before, after) {
                    (Value::Win(_), Some(Value::Loss(_))) => false,
                    (Value::Win(_), Some(_)) => true,
                    (Value::Draw, Some(Value::Win(_))) => true,
                    _ => false,
                };
                if bad {
                    spoiled += 1;
                    println!(
                        "{}: {tok} turned {before} into {:?} (clock {clock})",
                        fen::write(&pos),
                        after
                    );
                }
            }
        }
    }
    println!(
        "{games} games; {engine}: {moves_checked} moves in tabled positions, {spoiled} spoiled; \
         first tabled position with {engine} to move W/D/L {entered:?}, those games' results W/D/L {finals:?}"
    );
}
