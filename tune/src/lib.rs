//! Training positions for fitting the evaluation (`tune/src/bin/datagen.rs` writes them,
//! `tune/src/bin/tune.rs` reads them): the line format and the labels.
//!
//! A line is `FEN<TAB>clock<TAB>result[<TAB>source]`: the result from Black's view (`1`,
//! `0.5`, `0`) and where it comes from, `game` (the outcome of the self-play game, or of its
//! adjudication by the tables) or `table` (the endgame tables' exact result of this very
//! position at its clock). Files without the source column (the first fits') read as `game`.

use std::fmt;

use buffgreen::board::{fen, Position};
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

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// The position.
    pub pos: Position,
    /// Its no-progress clock.
    pub clock: u32,
    /// The result from Black's view: 1 win, 0.5 draw, 0 loss.
    pub black: f64,
    /// Where [`Labelled::black`] comes from.
    pub source: Source,
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

/// The tables' result of `pos` at `clock` from Black's view; `None` when the tables do not
/// cover it or its slice cannot be read.
pub fn table_label(tb: &Tablebase, pos: &Position, clock: u32) -> Option<f64> {
    if !tb.covers(pos) {
        return None;
    }
    let value = tb.probe_at(pos, clock).ok()?;
    Some(black_result(value, pos.side_to_move()))
}

impl fmt::Display for Labelled {
    /// The line, without its end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match self.source {
            Source::Game => "game",
            Source::Table => "table",
        };
        write!(
            f,
            "{}\t{}\t{}\t{source}",
            fen::write(&self.pos),
            self.clock,
            self.black
        )
    }
}

/// Reads one line; `None` for a line that is not one (a cut last line, a bad FEN, a result
/// outside 0..=1, an unknown source).
pub fn parse_line(line: &str) -> Option<Labelled> {
    let mut fields = line.split('\t');
    let pos = fen::parse(fields.next()?).ok()?;
    let clock = fields.next()?.parse().ok()?;
    let black: f64 = fields.next()?.parse().ok()?;
    if !(0.0..=1.0).contains(&black) {
        return None;
    }
    let source = match fields.next() {
        None | Some("game") => Source::Game,
        Some("table") => Source::Table,
        Some(_) => return None,
    };
    Some(Labelled {
        pos,
        clock,
        black,
        source,
    })
}
