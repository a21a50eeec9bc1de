//! Match statistics: wins/draws/losses, score, Elo difference with a 95% error bar, likelihood
//! of superiority (with `libm::erf`), and the pentanomial count of game pairs.

/// Results from one engine's point of view against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Completed pairs (same opening, colours reversed) by points scored in the pair:
    /// `[0, 0.5, 1, 1.5, 2]`, i.e. LL, LD, LW+DD, DW, WW.
    pub pairs: [u32; 5],
}

/// Expected score of a side that is `elo` logistic Elo stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference that gives score fraction `s` (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl Record {
    /// Adds one game's points (1, 0.5 or 0).
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Adds a completed pair scoring `points` (0, 0.5, ..., 2).
    pub fn add_pair(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[i] += 1;
    }

    /// The same results seen from the opponent.
    pub fn flipped(&self) -> Record {
        let mut pairs = self.pairs;
        pairs.reverse();
        Record {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            pairs,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Elo difference and the half-width of its 95% confidence interval, from the per-game
    /// variance of the score (normal approximation).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let margin = 1.959_964 * (var / n).sqrt();
        let lo = elo_of_score(s - margin);
        let hi = elo_of_score(s + margin);
        (elo_of_score(s), (hi - lo) / 2.0)
    }

    /// Elo difference and the half-width of its 95% confidence interval with the variance
    /// taken from completed game pairs (the pentanomial model of the SPRT): the two games of
    /// a pair share an opening, so their results are correlated and the per-game variance
    /// misstates the error. The estimate is the score of all games; the standard error of the
    /// mean score is `sqrt(var / pairs)`, `var` the variance of a pair's mean score (0, 1/4,
    /// 1/2, 3/4, 1). With fewer than two completed pairs (no variance to measure),
    /// [`Record::elo`].
    pub fn elo_pairs(&self) -> (f64, f64) {
        let n: f64 = self.pairs.iter().map(|&c| c as f64).sum();
        if n < 2.0 {
            return self.elo();
        }
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = self
            .pairs
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * x)
            .sum::<f64>()
            / n;
        let var = self
            .pairs
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        let s = self.score();
        let margin = 1.959_964 * (var / n).sqrt();
        let lo = elo_of_score(s - margin);
        let hi = elo_of_score(s + margin);
        (elo_of_score(s), (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that this side is the stronger, from wins
    /// and losses (draws carry no information about it).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + libm::erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Formats an error bar: `45.2`, or `inf` when the score is 0 or 1.
pub fn fmt_err(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.1}")
    } else {
        "inf".to_string()
    }
}

/// Formats an Elo figure: `+12.3`, `-4.0`, `+inf`, `-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if e.is_nan() {
        "nan".to_string()
    } else {
        // Adding 0.0 turns -0.0 into 0.0, so an even score prints as +0.0.
        format!("{:+.1}", e + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_los() {
        let t = Record {
            wins: 60,
            draws: 20,
            losses: 20,
            pairs: [0; 5],
        };
        assert_eq!(t.games(), 100);
        assert!((t.score() - 0.7).abs() < 1e-12);
        let (elo, err) = t.elo();
        // -400 log10(1/0.7 - 1) = 147.19; sd 0.4, se 0.04, 0.7 +- 0.0784.
        assert!((elo - 147.19).abs() < 0.01, "{elo}");
        let want = (elo_of_score(0.7 + 0.078_398_56) - elo_of_score(0.7 - 0.078_398_56)) / 2.0;
        assert!((err - want).abs() < 1e-6);
        assert!((err - 66.01).abs() < 0.01, "{err}");
        // 0.5 (1 + erf(40 / sqrt(160))).
        assert!(
            (t.los() - 0.999_996_127_891_78).abs() < 1e-12,
            "{}",
            t.los()
        );
        let even = Record {
            wins: 5,
            draws: 3,
            losses: 5,
            pairs: [0; 5],
        };
        assert!((even.los() - 0.5).abs() < 1e-8);
        assert_eq!(even.elo().0, 0.0);
        let all = Record {
            wins: 4,
            ..Record::default()
        };
        assert_eq!(fmt_elo(all.elo().0), "+inf");
        assert_eq!(fmt_elo(-0.0), "+0.0");
        assert_eq!(fmt_elo(all.flipped().elo().0), "-inf");
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn pentanomial_error_bar() {
        // 100 pairs, 200 games scoring 53.75% (60 wins, 95 draws, 45 losses).
        let t = Record {
            wins: 60,
            draws: 95,
            losses: 45,
            pairs: [5, 15, 50, 20, 10],
        };
        assert!((t.score() - 0.5375).abs() < 1e-12);
        // Pair means: mean 0.5375, variance 0.05796875; se sqrt(0.05796875 / 100).
        let (elo, err) = t.elo_pairs();
        let m = 1.959_964 * (0.057_968_75f64 / 100.0).sqrt();
        let want = (elo_of_score(0.5375 + m) - elo_of_score(0.5375 - m)) / 2.0;
        assert!((elo - 26.11).abs() < 0.01, "{elo}");
        assert!((err - want).abs() < 1e-9, "{err} {want}");
        assert!((err - 33.08).abs() < 0.01, "{err}");
        // The per-game bar of the same games is wider here (35.02).
        assert!((t.elo().1 - 35.02).abs() < 0.01, "{}", t.elo().1);
        // No completed pair: the per-game bar.
        let lone = Record {
            wins: 1,
            draws: 1,
            ..Record::default()
        };
        assert_eq!(lone.elo_pairs(), lone.elo());
    }

    #[test]
    fn pairs_and_flip() {
        let mut t = Record::default();
        for p in [1.0, 0.5, 0.0] {
            t.add_game(p);
        }
        t.add_pair(2.0);
        t.add_pair(1.0);
        t.add_pair(1.5);
        assert_eq!((t.wins, t.draws, t.losses), (1, 1, 1));
        assert_eq!(t.pairs, [0, 0, 1, 1, 1]);
        assert_eq!(t.flipped().pairs, [1, 1, 1, 0, 0]);
    }
}
