//! Endgame tablebases: exact results of every position with few pieces, under one rule
//! setting and one draw rule, built by retrograde analysis and probed by the engine.
//!
//! A table stores, for each position (side to move included), what gives its exact result at
//! every value `c` of the no-progress clock (see docs/tablebase.md):
//! - `win d`: the side to move forces, within `d` plies, a capture or crowning after which the
//!   position is won at clock 0, or a move that leaves the opponent without a move. At clock
//!   `c` the position is a win iff `d <= D - c`, else a draw (`D` = `DrawHalfMoves`).
//! - `loss d`: the same for the opponent (`loss 0`: the side to move has no move).
//! - `draw`: neither side can force such an event within `D` plies (or ever, with `D` = 0).
//!
//! Tables of Russian and Brazilian draughts and of Pool count their material draw rules
//! instead of the clock: an entry is read at the game's material count with `D` = 127 (Pool's
//! count of the three kings' moves at twice as many plies), a position under a material rule
//! holds no distance below its floor, and Russian 7.2.7's slices are solved over its diagonal
//! count too (see [`counting`] and docs/tablebase.md).
//!
//! Tables of losing checkers (`Rules::losing`, a header flag) hold the same values by the
//! losing results: a side without a move has won (`win 0`, stored in the byte that means
//! `loss 0` in a normal table: see [`solve::STUCK`]), and a winning conversion is one after
//! which the position is won by those results. A table is opened only for its own rules.
//!
//! Layout: the rooms are cut by job, with what they all share beside them.
//! - the positions: [`material`] names the slices and orders them, [`index`] numbers the
//!   positions of a slice, [`unmove`] generates predecessors, [`solve`] is the one-step rule
//!   shared by the builder and the verifier, [`counting`] what a table counts toward a draw
//!   (the clock, or the family's material count), and `work` spreads a pass over threads;
//! - [`build`]: the retrograde analysis, its saved work, its progress, the finished slices it
//!   reads, the plan that cuts a build into levels for many machines and its status;
//! - [`format`](mod@format): the slice files (header, plain and compressed entries, the
//!   entries a sparse file leaves out, checksums, turning plain files into sparse ones);
//! - [`probe`]: answering queries from the slice files by positioned reads (no memory map),
//!   through a block cache, and re-checking a directory;
//! - [`home`] is where tables live when no folder is named, `error` says why a table could not
//!   be built, read or probed, and [`cli`] is the `buffgreen tb` subcommand.

pub mod build;
pub mod cli;
pub mod counting;
mod error;
pub mod format;
pub mod home;
pub mod index;
pub mod material;
pub mod probe;
pub mod solve;
pub mod unmove;
mod work;

pub use error::TbError;
pub use material::Material;
pub use probe::Tablebase;
pub use solve::Value;
