//! The search's value scale: results summed in fixed point, and the evaluation's score as a
//! win probability on that scale.
//!
//! The tree ([`super::node`]), the solver's proofs ([`super::solver`]), playouts and reports
//! all count on this one scale; the evaluation ([`crate::eval`]) knows nothing of it.

use crate::eval::LOGISTIC_SCALE;

/// Results are summed in fixed point: a win is worth `SCALE`, a draw half of it. Integers keep
/// the sums exact and order-independent (so threads can add them with `fetch_add`).
pub const SCALE: u64 = 10_000;

/// The value of a win for the player being credited.
pub const WIN: u64 = SCALE;
/// The value of a draw.
pub const DRAW: u64 = SCALE / 2;
/// The value of a loss.
pub const LOSS: u64 = 0;

/// The evaluation `score` (for the side to move) as a win probability in `SCALE` units, by
/// the logistic of [`LOGISTIC_SCALE`].
#[inline]
pub fn of_score(score: i32) -> u64 {
    let p = 1.0 / (1.0 + (-(score as f64) / LOGISTIC_SCALE).exp());
    (p * SCALE as f64).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MAN;

    #[test]
    fn a_level_score_is_a_draw_and_the_scale_is_symmetric() {
        assert_eq!(of_score(0), DRAW);
        assert!(of_score(MAN) > DRAW && of_score(MAN) < WIN);
        assert_eq!(of_score(MAN) + of_score(-MAN), SCALE);
    }
}
