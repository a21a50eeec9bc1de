//! Selection: the UCB1 choice among a node's children, with the first-play value of unvisited
//! children, the implicit minimax blend and the solver's proven children, and the tables that
//! make it cheap.

use std::sync::LazyLock;

use crate::search::params::{FirstPlay, Params};
use crate::search::solver::Proof;
use crate::search::tree::Tree;
use crate::search::value::SCALE;

/// Visit counts below which [`select`] reads square roots, reciprocals and logarithms from
/// tables. Computed, they cost two divisions, a square root and (once a call) a logarithm per
/// child: the divider was the search's bottleneck (half its time in a middle game). Most
/// nodes on a path are far from the root and have fewer visits than this.
const TABLED: usize = 2048;

/// The tables of [`select`], for visit counts `0..TABLED`.
struct UcbTables {
    /// `1 / sqrt(v)`.
    inv_sqrt: [f64; TABLED],
    /// `1 / (v * SCALE)`: a value sum times this is a mean in 0..=1.
    inv_scaled: [f64; TABLED],
    /// `sqrt(ln(max(v, 1)))`.
    sqrt_ln: [f64; TABLED],
}

impl UcbTables {
    fn new() -> Box<UcbTables> {
        let mut t = Box::new(UcbTables {
            inv_sqrt: [0.0; TABLED],
            inv_scaled: [0.0; TABLED],
            sqrt_ln: [0.0; TABLED],
        });
        for v in 1..TABLED {
            t.inv_sqrt[v] = 1.0 / (v as f64).sqrt();
            t.inv_scaled[v] = 1.0 / (v as f64 * SCALE as f64);
            t.sqrt_ln[v] = (v as f64).ln().sqrt();
        }
        t
    }

    #[inline]
    fn inv_sqrt(&self, v: u32) -> f64 {
        match self.inv_sqrt.get(v as usize) {
            Some(&x) => x,
            None => 1.0 / (v as f64).sqrt(),
        }
    }

    #[inline]
    fn inv_scaled(&self, v: u32) -> f64 {
        match self.inv_scaled.get(v as usize) {
            Some(&x) => x,
            None => 1.0 / (v as f64 * SCALE as f64),
        }
    }

    /// `ln(v)` for `v >= TABLED` without the library's logarithm: the parents near the root
    /// are past the tables and need one on every iteration, where a profile found the
    /// library call a visible share of a one-thread search (docs/results/). With
    /// `v = m 2^s + r`, `m` in `TABLED/2..TABLED`:
    /// `ln v = ln m + s ln 2 + ln(1 + x)`, `x = r / (m 2^s) < 2 / TABLED`, and two terms of the
    /// series for `ln(1 + x)` leave an error below `x^3 / 3`, about `1e-10`.
    #[inline]
    fn ln_beyond(&self, v: u32) -> f64 {
        let s = (u32::BITS - v.leading_zeros()).saturating_sub(TABLED.trailing_zeros());
        let m = (v >> s) as usize;
        // 2^-s, exactly, from its exponent bits; `inv_scaled[m] * SCALE` is `1 / m`.
        let scale = f64::from_bits((1023 - s as u64) << 52) * SCALE as f64;
        let x = (v - ((m as u32) << s)) as f64 * self.inv_scaled[m] * scale;
        let ln_m = self.sqrt_ln[m] * self.sqrt_ln[m];
        ln_m + s as f64 * std::f64::consts::LN_2 + x - 0.5 * x * x
    }

    #[inline]
    fn sqrt_ln(&self, v: u32) -> f64 {
        match self.sqrt_ln.get(v as usize) {
            Some(&x) => x,
            None => self.ln_beyond(v).sqrt(),
        }
    }
}

static UCB_TABLES: LazyLock<Box<UcbTables>> = LazyLock::new(UcbTables::new);

/// The UCB1 choice among the children of `index`. `allowed`, when not empty, masks children.
/// `in_flight` visits of the parent are the caller's own, not yet finished: they are left out
/// of `N` (other threads' unfinished visits stay in: that is the virtual loss).
#[inline]
pub fn select(tree: &Tree, index: u32, params: &Params, allowed: &[bool], in_flight: u32) -> u32 {
    let tables: &UcbTables = &UCB_TABLES;
    let parent = tree.node(index);
    let c_log = params.exploration * tables.sqrt_ln(parent.visits().saturating_sub(in_flight));
    let eval_first = params.first_play == FirstPlay::Evaluation;
    // For first play by evaluation, each child adds its own evaluation below.
    let first_play = if eval_first { c_log } else { f64::INFINITY };
    let mut best = u32::MAX;
    let mut best_score = f64::NEG_INFINITY;
    let mut fallback = parent.first_child();
    for (k, c) in parent.children().enumerate() {
        if !allowed.is_empty() && !allowed[k] {
            continue;
        }
        fallback = c;
        let child = tree.node(c);
        let visits = child.visits();
        if params.solver {
            match child.proof() {
                Some(Proof::Win(_)) => return c,
                Some(Proof::Loss(_)) => continue,
                _ => {}
            }
        }
        let score = if visits == 0 {
            if eval_first {
                first_play + child.minimax() as f64 / SCALE as f64
            } else {
                first_play
            }
        } else {
            let mean = child.value_sum() as f64 * tables.inv_scaled(visits);
            let q = if params.minimax > 0.0 {
                let minimax = child.minimax() as f64 / SCALE as f64;
                (1.0 - params.minimax) * mean + params.minimax * minimax
            } else {
                mean
            };
            q + c_log * tables.inv_sqrt(visits)
        };
        if score > best_score {
            best_score = score;
            best = c;
        }
    }
    // Every allowed child is a proven loss: any of them will do (the parent is proven too).
    if best == u32::MAX {
        fallback
    } else {
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The logarithm past the tables agrees with the library's to 1e-9 (relative) at every
    /// power of two and its neighbours, and on a spread of counts up to `u32::MAX`.
    #[test]
    fn logarithms_past_the_tables_are_exact_enough() {
        let tables: &UcbTables = &UCB_TABLES;
        let mut checked = 0;
        let powers = (11..32).flat_map(|k| [(1u32 << k) - 1, 1 << k, (1 << k) + 1]);
        let spread = (0..100_000u32).map(|i| i.wrapping_mul(42_937).wrapping_add(2048));
        for v in powers.chain(spread).chain([u32::MAX]) {
            if (v as usize) < TABLED {
                continue;
            }
            let exact = (v as f64).ln();
            let ours = tables.ln_beyond(v);
            assert!(
                (ours - exact).abs() <= 1e-9 * exact,
                "{v}: {ours} vs {exact}"
            );
            assert!((tables.sqrt_ln(v) - exact.sqrt()).abs() <= 1e-9, "{v}");
            checked += 1;
        }
        assert!(checked > 100_000, "{checked}");
    }
}
