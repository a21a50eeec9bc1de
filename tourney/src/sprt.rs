//! Sequential probability ratio test on match results.
//!
//! The test is the generalized SPRT with the normal approximation of the log-likelihood ratio
//! (as in fishtest and fastchess): with `N` observations of mean `m` and variance `v`, and the
//! expected scores `s0`, `s1` of the two hypotheses (logistic Elo `elo0`, `elo1`),
//! `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)`. The pentanomial model (the default) observes game
//! pairs (same opening, colours reversed; pair score 0, 1/4, ..., 1), which accounts for the
//! correlation between the two games of a pair; the trinomial model observes single games.
//! Every outcome class gets a pseudo-count of `1/k` (one prior observation spread evenly over
//! the `k` classes): the variance is never zero, and a run of identical results (a strong
//! engine against a random one wins every pair) has to accumulate before the test decides
//! (12 won pairs for elo0=0 elo1=10 at alpha=beta=0.05) instead of deciding on the first pair,
//! as a 0.001 pseudo-count would. With hundreds of observations the prior is negligible.
//! Bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.

use std::fmt;
use std::str::FromStr;

use super::error::TourneyError;
use super::stats::{expected_score, Record};

/// Elo and its 95% error bar as the match reports them everywhere (the table and `--json`):
/// from game pairs ([`Record::elo_pairs`], the pentanomial model, also without an SPRT), or
/// from single games ([`Record::elo`]) under an SPRT of the trinomial model (`model`: the
/// SPRT's, none without one).
pub fn elo_under(record: &Record, model: Option<Model>) -> (f64, f64) {
    match model {
        Some(Model::Trinomial) => record.elo(),
        _ => record.elo_pairs(),
    }
}

/// Which observations the test counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Single games: loss, draw, win.
    Trinomial,
    /// Game pairs: the five pair scores.
    Pentanomial,
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// Observation model.
    pub model: Model,
}

/// What the test says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 (elo1) accepted: the first engine is stronger.
    H1,
    /// H0 (elo0) accepted.
    H0,
}

impl FromStr for Sprt {
    type Err = TourneyError;

    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]`.
    fn from_str(text: &str) -> Result<Sprt, TourneyError> {
        let bad = |why: &str| TourneyError::Sprt {
            text: text.to_string(),
            why: why.to_string(),
        };
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Pentanomial,
        };
        for field in text.split_whitespace() {
            let (k, v) = field
                .split_once('=')
                .ok_or_else(|| bad("expected key=value"))?;
            if k == "model" {
                s.model = match v {
                    "pentanomial" => Model::Pentanomial,
                    "trinomial" => Model::Trinomial,
                    _ => return Err(bad("model is pentanomial or trinomial")),
                };
                continue;
            }
            let x: f64 = v.parse().map_err(|_| bad("values are numbers"))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(bad("keys are elo0, elo1, alpha, beta, model")),
            }
        }
        if !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err(bad("elo0 and elo1 are required"));
        }
        if s.elo0 >= s.elo1 {
            return Err(bad("elo0 must be below elo1"));
        }
        let rate = 0.0..0.5;
        if !rate.contains(&s.alpha) || !rate.contains(&s.beta) || s.alpha == 0.0 || s.beta == 0.0 {
            return Err(bad("alpha and beta must be in (0, 0.5)"));
        }
        Ok(s)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} GSPRT elo0={} elo1={} alpha={} beta={}",
            match self.model {
                Model::Pentanomial => "pentanomial",
                Model::Trinomial => "trinomial",
            },
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta
        )
    }
}

impl Sprt {
    /// Lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `t` (from the first engine's view).
    pub fn llr(&self, t: &Record) -> f64 {
        let (counts, xs): (Vec<f64>, Vec<f64>) = match self.model {
            Model::Trinomial => (
                vec![t.losses as f64, t.draws as f64, t.wins as f64],
                vec![0.0, 0.5, 1.0],
            ),
            Model::Pentanomial => (
                t.pairs.iter().map(|&c| c as f64).collect(),
                vec![0.0, 0.25, 0.5, 0.75, 1.0],
            ),
        };
        if counts.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        let prior = 1.0 / counts.len() as f64;
        let counts: Vec<f64> = counts.into_iter().map(|c| c + prior).collect();
        let n: f64 = counts.iter().sum();
        let mean = counts.iter().zip(&xs).map(|(c, x)| c * x).sum::<f64>() / n;
        let var = counts
            .iter()
            .zip(&xs)
            .map(|(c, x)| c * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision at `llr`, if the bounds are reached.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(Decision::H1)
        } else if llr <= lo {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks() {
        let s: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        assert_eq!(s.model, Model::Pentanomial);
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_98).abs() < 1e-6 && (hi - 2.944_438_98).abs() < 1e-6);
        assert_eq!(
            s.to_string(),
            "pentanomial GSPRT elo0=0 elo1=10 alpha=0.05 beta=0.05"
        );
        for bad in [
            "elo0=0",
            "elo0=5 elo1=5",
            "elo0=0 elo1=5 alpha=0",
            "elo0=0 elo1=5 beta=0.7",
            "elo0=0 elo1=5 model=binomial",
            "elo0=x elo1=5",
            "elo0=0 elo1=5 gamma=1",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn llr_matches_hand_computation() {
        let mut s: Sprt = "elo0=0 elo1=10 model=trinomial".parse().unwrap();
        let t = Record {
            wins: 60,
            draws: 20,
            losses: 20,
            pairs: [5, 10, 20, 10, 15],
        };
        assert!((s.llr(&t) - 1.728_118_38).abs() < 1e-6, "{}", s.llr(&t));
        s.model = Model::Pentanomial;
        assert!((s.llr(&t) - 0.671_060_23).abs() < 1e-6, "{}", s.llr(&t));
        assert_eq!(s.llr(&Record::default()), 0.0);
        // All pairs won: the 12th won pair is the first to pass the upper bound.
        let sweep = |pairs: u32| Record {
            wins: 2 * pairs,
            pairs: [0, 0, 0, 0, pairs],
            ..Record::default()
        };
        assert_eq!(s.decide(s.llr(&sweep(11))), None);
        assert_eq!(s.decide(s.llr(&sweep(12))), Some(Decision::H1));
        assert!((s.llr(&sweep(12)) - 3.105_129_74).abs() < 1e-6);
        assert_eq!(s.decide(s.llr(&sweep(12).flipped())), Some(Decision::H0));
        assert_eq!(s.decide(0.0), None);
    }
}
