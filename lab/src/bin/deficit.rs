//! Where a match's lost games were lost: for every game ENGINE lost, the point where the
//! material deficit that lasted to the end began, and how many pieces were on the board then.
//!
//! `cargo run --release -p buffgreen-lab --bin deficit -- PDN ENGINE [--english]`
//!
//! Material counts a man 100 and a king 130 (a king conceded is a deficit), read only in
//! positions without a capture pending (never in the middle of an exchange). A game lost
//! with the material level at its end (a blocked side, or a tabled ending adjudicated) has no
//! lasting deficit and is counted apart.

use buffgreen::board::{has_captures, Game, Position};
use buffgreen::types::Color;
use buffgreen_lab::pdn;

const MAN: i32 = 100;
const KING: i32 = 130;

/// Pieces on the board where the lasting deficit began, by band.
const BANDS: [(u32, u32); 4] = [(0, 8), (9, 12), (13, 16), (17, 24)];

fn material(pos: &Position, color: Color) -> i32 {
    MAN * pos.men(color).count() as i32 + KING * pos.kings(color).count() as i32
}

fn main() {
    let (args, rules, text) = pdn::command_line("deficit PDN ENGINE [--english]", 2);
    let engine = &args[1];
    let (mut lost, mut level, mut games) = (0, 0, 0);
    let mut bands = [0u32; BANDS.len()];
    for g in pdn::games(&text) {
        games += 1;
        let ours = if g.tag("White").as_deref() == Some(engine) {
            Color::White
        } else if g.tag("Black").as_deref() == Some(engine) {
            Color::Black
        } else {
            continue;
        };
        let result = g.tag("Result").unwrap_or_default();
        let lost_it = match ours {
            Color::White => result == "0-2",
            Color::Black => result == "2-0",
        };
        if !lost_it {
            continue;
        }
        lost += 1;
        let start = match g.start() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("note: game {games}: {e}");
                continue;
            }
        };
        let mut game = Game::new(start, 0, rules);
        // (ply, pieces, our deficit) at each quiet position.
        let mut trace: Vec<(usize, u32, i32)> = Vec::new();
        let mut ply = 0;
        let look = |pos: &Position, ply: usize, trace: &mut Vec<(usize, u32, i32)>| {
            if !has_captures(pos, &rules) {
                let deficit = material(pos, !ours) - material(pos, ours);
                trace.push((ply, pos.occupied().count(), deficit));
            }
        };
        look(game.position(), ply, &mut trace);
        for tok in g.moves() {
            if game.play_str(tok).is_err() {
                eprintln!("note: game {games}: cannot play {tok}");
                break;
            }
            ply += 1;
            look(game.position(), ply, &mut trace);
        }
        let lasting = trace
            .iter()
            .rposition(|t| t.2 <= 0)
            .map_or(Some(0), |i| (i + 1 < trace.len()).then_some(i + 1));
        match lasting.map(|i| trace[i]) {
            Some((at, pieces, deficit)) => {
                let band = BANDS
                    .iter()
                    .position(|&(lo, hi)| (lo..=hi).contains(&pieces))
                    .unwrap_or(BANDS.len() - 1);
                bands[band] += 1;
                println!(
                    "game {games}: lost as {ours:?}, lasting deficit from ply {at} with {pieces} pieces ({deficit:+} at first, {:+} at the end)",
                    trace.last().map_or(0, |t| t.2)
                );
            }
            None => {
                level += 1;
                println!(
                    "game {games}: lost as {ours:?} with the material level or better at the end"
                );
            }
        }
    }
    println!("{engine}: {lost} of {games} games lost; lasting deficit began with:");
    for (&(lo, hi), n) in BANDS.iter().zip(bands) {
        println!("  {lo:>2}-{hi:<2} pieces: {n}");
    }
    println!("  no lasting deficit: {level}");
}
