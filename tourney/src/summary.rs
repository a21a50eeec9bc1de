//! What a finished match reports, to the command line and to the tests.

use std::collections::BTreeMap;

use super::sprt::Decision;
use super::stats::Record;

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Games played and scored.
    pub games: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// Per pairing of engines `(i, j)` (indices in `--engine` order), the results of `i`.
    pub pairings: Vec<((usize, usize), Record)>,
    /// How many games ended each way, by [`super::referee::Termination::kind`].
    pub terminations: BTreeMap<&'static str, u32>,
    /// The SPRT decision and the LLR when it was reached.
    pub decision: Option<(Decision, f64)>,
    /// The final table as printed on stdout.
    pub table: String,
    /// Ctrl-C stopped the match before its end.
    pub interrupted: bool,
}
