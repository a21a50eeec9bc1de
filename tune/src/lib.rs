//! The evaluation's fitting pipeline: training positions (`tune/src/bin/datagen.rs` writes
//! them in the format of [`data`], with its [`progress`]), the labels the endgame tables give,
//! and the fits that read them (`tune/src/bin/tune.rs`, the hand-set evaluation's parameters;
//! `tune/src/bin/train.rs`, the network of `buffgreen::eval::net`).
//!
//! Layout: [`data`] is the training data's format, [`progress`] says how far a generation
//! is, [`rescore`] labels a sample of a data file again by a longer search; the labels the
//! tables give are here.

/// `println!` that does not panic when stdout is closed: `datagen status FILE | head -1` and
/// `tune ... | head` close the pipe before the last line, and a reader going away is no error
/// of ours.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod data;
pub mod progress;
pub mod rescore;

use buffgreen::board::{DrawCount, Position};
use buffgreen::tablebase::{Tablebase, Value};
use buffgreen::types::Color;

/// Where a position's label comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game's outcome (played out, or adjudicated by the tables once it reached them).
    Game,
    /// The tables' result of the position itself.
    Table,
}

/// A table value (for the side to move) as a result from Black's view.
pub fn black_result(value: Value, side_to_move: Color) -> f64 {
    let mine = match value {
        Value::Win(_) => 1.0,
        Value::Draw => 0.5,
        Value::Loss(_) => 0.0,
    };
    match side_to_move {
        Color::Black => mine,
        Color::White => 1.0 - mine,
    }
}

/// The tables' result of `pos` at `clock` (and the 8x8 family's counters `draws`, which
/// tables of the 8x8 family read) from Black's view; `None` when the tables do not
/// cover it (or a 7.2.7 entry does not hold at the game's diagonal count) or its slice cannot
/// be read.
pub fn table_label(tb: &Tablebase, pos: &Position, clock: u32, draws: DrawCount) -> Option<f64> {
    if !tb.covers(pos) {
        return None;
    }
    // The reading the search and the match runner make: one function, so they cannot differ.
    let value = tb.game_value(pos, clock, draws).ok()??;
    Some(black_result(value, pos.side_to_move()))
}
