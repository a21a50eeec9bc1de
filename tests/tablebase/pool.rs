//! Pool tables: built with `--draw-half-moves 0` and refused with Pool's own clock, consistent
//! by `tb verify`, probed by `tb probe` at a count of the three kings' moves, and read by the
//! search at the count the game state keeps.

use std::sync::Arc;

use buffgreen::board::{fen, Game, Position, Rules, Variant};
use buffgreen::search::tables::Endgame;
use buffgreen::tablebase::{Tablebase, Value};

use crate::scenarios::run;
use crate::tables;

/// Pool with no clock beside the 13-move rule: the rules its tables are built for.
fn pool() -> Rules {
    Rules {
        draw_half_moves: 0,
        ..Variant::Pool.rules()
    }
}

fn text(dir: &std::path::Path) -> &str {
    dir.to_str().expect("utf-8 path")
}

/// The three kings in their corner need nine moves to take the lone king: a win at every
/// count of at most four moves, a draw from five on.
const CORNERED: &str = "W:WK1,K2,K3:BK32";

#[test]
fn pool_tables_verify_and_probe_at_the_three_kings_count() {
    let dir = tables(4, &pool());
    let (code, out, err) = run(&["tb", "verify", "--dir", text(&dir), "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "ok: 23 slices, 6408836 positions consistent (Variant=pool BackwardCapture=true \
             LongKings=true DrawHalfMoves=0)"
        ),
        "{out}"
    );
    let probe = |fen: &str, count: &str| {
        let (code, out, err) = run(&[
            "tb",
            "probe",
            "--variant",
            "pool",
            "--draw-half-moves",
            "0",
            "--dir",
            text(&dir),
            "--fen",
            fen,
            "--clock",
            count,
        ]);
        assert_eq!(code, 0, "{err}");
        out.trim_end().to_string()
    };
    let holds = "(win 118 while the three kings have made at most 4 moves)";
    assert_eq!(probe(CORNERED, "0"), format!("win 118 {holds}"));
    assert_eq!(probe(CORNERED, "4"), format!("win 118 {holds}"));
    assert_eq!(probe(CORNERED, "5"), format!("draw {holds}"));
    // Two kings against one: no rule, and the count is never above 0 there.
    assert_eq!(probe("W:WK1,K2:BK32", "0"), "draw");
    // Pool's default clock beside the 13 moves is refused before anything is written.
    let (code, out, err) = run(&[
        "tb",
        "build",
        "--variant",
        "pool",
        "--pieces",
        "2",
        "--dir",
        text(&dir.join("never")),
    ]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err.trim_end(),
        "error: tables for American Pool checkers count its material rules alone: build them \
         with --draw-half-moves 0 (the rule set's own draw rules), not 80"
    );
    assert!(!dir.join("never").exists());
}

/// A small pseudo-random sequence (xorshift), fixed so that the test plays the same line.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A game from `start` of `plies` quiet moves (no capture ever on offer, no position twice),
/// chosen by `rng`; `None` when the walk runs into a capture.
fn walk(start: Position, plies: usize, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new(start, 0, pool());
    let mut seen = vec![start];
    for _ in 0..plies {
        let moves: Vec<_> = game.legal_moves().iter().copied().collect();
        if moves.is_empty() || moves.iter().any(|m| m.is_capture()) {
            return None;
        }
        let mv = moves[rng.below(moves.len())];
        assert!(game.play(mv));
        if seen.contains(game.position()) {
            return None;
        }
        seen.push(*game.position());
    }
    Some(game)
}

#[test]
fn the_search_reads_pool_tables_at_the_games_count_of_moves() {
    let dir = tables(4, &pool());
    let tb = Arc::new(Tablebase::open(&dir, &pool()).expect("tables open"));
    let endgame = Endgame::new(tb.clone(), 4).expect("tables");
    let start = fen::parse(CORNERED).expect("fen");
    // Ten quiet plies from three kings against one: the three kings' five moves are counted,
    // so a win that needs more than eight of their moves from where the line ends is a draw
    // there, though a win from the same position set up by a FEN (count 0).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut found = 0;
    for _ in 0..2000 {
        let Some(game) = walk(start, 10, &mut rng) else {
            continue;
        };
        let end = *game.position();
        assert_eq!(game.draws().count(), 5, "{}", fen::write(&end));
        let fresh = Game::new(end, 0, pool());
        let at_zero = endgame.probe(&end, 0, fresh.draws());
        let at_five = endgame.probe(&end, game.clock(), game.draws());
        let stored = tb.probe(&end).expect("covered");
        match stored {
            // The last count of moves at which the win or loss holds (see `tb probe`).
            Value::Win(d) | Value::Loss(d) if (127 - d) / 2 < 5 => {
                assert_eq!(at_zero, Some(stored), "{}", fen::write(&end));
                assert_eq!(at_five, Some(Value::Draw), "{}", fen::write(&end));
                found += 1;
            }
            _ => assert_eq!(at_five, at_zero, "{}", fen::write(&end)),
        }
    }
    assert!(found > 0, "no line ends where the count decides");
}
