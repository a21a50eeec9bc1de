//! Audits the games of a match PDN against the tables: every move a named engine made in a
//! covered position, checked for throwing away a tabled result (a win into a draw or loss, a
//! draw into a loss), and the tabled results it reached.
//!
//! `cargo run --release -p buffgreen-lab --bin tb_audit -- PDN DIR ENGINE [--english]`

use std::path::PathBuf;

use buffgreen::board::{fen, Game, GameResult};
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen_lab::pdn;

fn main() {
    let (args, rules, text) = pdn::command_line("tb_audit PDN DIR ENGINE [--english]", 3);
    let tb = Tablebase::open(&PathBuf::from(&args[1]), &rules).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let engine = &args[2];
    let (mut moves_checked, mut spoiled, mut games) = (0, 0, 0);
    let mut entered = [0u32; 3]; // first tabled position reached with the engine to move: W D L
    let mut finals = [0u32; 3];
    for g in pdn::games(&text) {
        let start = g.start().unwrap_or_else(|e| panic!("{e}"));
        let white = g.tag("White").unwrap_or_default();
        let ours_white = &white == engine;
        let result = g.tag("Result").unwrap_or_default();
        let mut game = Game::new(start, 0, rules);
        let mut first = true;
        games += 1;
        for tok in g.moves() {
            let pos = *game.position();
            let (clock, draws) = (game.clock(), game.draws());
            let ours = (pos.side_to_move() == buffgreen::types::Color::White) == ours_white;
            let before = tb
                .covers(&pos)
                .then(|| tb.game_value(&pos, clock, draws).ok().flatten())
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
                    let r = result == "1-1";
                    let won = (result == "2-0" && ours_white) || (result == "0-2" && !ours_white);
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
                    tb.game_value(&after_pos, game.clock(), game.draws())
                        .ok()
                        .flatten()
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
