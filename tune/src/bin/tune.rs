//! Fits the evaluation's parameters ([`buffgreen::eval::weights`]) to game outcomes by
//! logistic regression (Texel's method) over positions written by `tune/src/bin/datagen.rs`.
//!
//! The model is the search's own: the evaluation (the dot product of the parameters with
//! [`eval::features`], scaled down by [`eval::drawish_divisor`] with flying kings) mapped to a
//! win probability by the logistic of [`eval::LOGISTIC_SCALE`]; the loss is the cross-entropy
//! against the result (1, 0.5, 0 from the view of the side to move). Positions whose side to
//! move must capture are left out: the evaluation only ever scores quiet positions. The last
//! tenth of the file is held out to check the fit on games it has not seen.
//!
//! The file is one of `datagen` ([`buffgreen_tune::data`]): a position labelled by the
//! endgame tables' value of itself is fitted to that exact result, the others to their game's
//! outcome; the losses are also shown for each source apart.
//!
//! `cargo run --release -p buffgreen-tune --bin tune -- -- FILE [EPOCHS] [L2] [english] [losing] [base]
//! [keep-scale]`
//!
//! `english` (or another rule set's one-word name, as the Hub's `variant` names it): the rules
//! of the positions, which also pick the weight set fitted; without one, Buff and Green.
//!
//! `losing`: positions of losing checkers (`tune/src/bin/datagen.rs ... losing`), fitted from the
//! material vector of `losing_start` (no drawish divisor: material says nothing of draws
//! there). The engine does not read a fitted losing vector: the one fitted drew almost every
//! game (docs/results/, 2026-11-26).
//!
//! `base` fits only the square, mobility and tempo parameters and leaves the patterns of
//! [`buffgreen::eval::knowledge`] as they are: what the same data gives without them.
//!
//! `keep-scale` fits at the logistic scale that suits the present parameters on this data
//! instead of the search's: games of a short search, and the tables' exact labels, are more
//! decisive than the engine's play at a real clock, and fitted at the search's scale every
//! weight grows with that. So the fit starts from the present parameters' calibration; it can
//! still change the evaluation's overall size (docs/results/, "evaluation refit on two
//! million played-out positions": it shrank it, and the size decided the match).
//!
//! Prints the loss of the present parameters, the best logistic scale for them, the fitted
//! parameters as a Rust array, and the held-out loss of both.

use buffgreen::board::{has_captures, Rules, Variant, WeightSet};
use buffgreen::eval::weights::{self, Weights, PARAMS};
use buffgreen::eval::{self, LOGISTIC_SCALE};
use buffgreen_tune::data::Reader;
use buffgreen_tune::say;
use buffgreen_tune::Source;

/// One training position.
struct Sample {
    features: Vec<(u16, f32)>,
    /// The drawish divisor when the evaluation is positive, and when it is negative.
    div: [f64; 2],
    /// The result from the side to move's view.
    y: f64,
    /// Where the result comes from.
    source: Source,
}

fn load(path: &str, rules: &Rules) -> Vec<Sample> {
    let reader = match Reader::open(std::path::Path::new(path)) {
        Ok(r) if r.rules() == *rules => r,
        Ok(_) => {
            eprintln!("{path}: positions of other rules than asked for");
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut out = Vec::new();
    let mut f = Vec::new();
    for record in reader {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let pos = record.pos;
        let black = record.outcome.black_score();
        let source = if record.exact {
            Source::Table
        } else {
            Source::Game
        };
        if has_captures(&pos, rules) {
            continue;
        }
        let me = pos.side_to_move();
        let y = match me {
            buffgreen::types::Color::Black => black,
            buffgreen::types::Color::White => 1.0 - black,
        };
        eval::features(&pos, &mut f);
        let div = if rules.losing {
            [1.0, 1.0]
        } else {
            [
                eval::drawish_divisor(&pos, rules, me, 1) as f64,
                eval::drawish_divisor(&pos, rules, me, -1) as f64,
            ]
        };
        out.push(Sample {
            features: f.iter().map(|&(i, v)| (i as u16, v as f32)).collect(),
            div,
            y,
            source,
        });
    }
    out
}

/// The dot product of `w` with the sample's features, and the drawish divisor for its sign.
fn raw(s: &Sample, w: &[f64]) -> (f64, f64) {
    let raw: f64 = s
        .features
        .iter()
        .map(|&(i, v)| w[i as usize] * v as f64)
        .sum();
    (raw, if raw > 0.0 { s.div[0] } else { s.div[1] })
}

/// The model's evaluation of a sample.
fn score(s: &Sample, w: &[f64]) -> f64 {
    let (raw, div) = raw(s, w);
    raw / div
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy at logistic scale `k`.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    loss_of(&samples.iter().collect::<Vec<_>>(), w, k)
}

/// [`loss`] of some of the samples.
fn loss_of(samples: &[&Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(score(s, w) / k).clamp(1e-9, 1.0 - 1e-9);
            -(s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Where a losing fit starts: material only, as `engine/src/eval/losing.rs` counts it (a man 100,
/// a king 60, a burden; with short kings an asset until the ending, roughly: 150 and 90 in
/// the middle game); the rest 0.
fn losing_start(short_kings: bool) -> Weights {
    let (man, king) = if short_kings {
        ((150, -100), (90, -60))
    } else {
        ((-100, -100), (-60, -60))
    };
    let mut w = [0; PARAMS];
    w[weights::MAN_MG..weights::MAN_EG].fill(man.0);
    w[weights::MAN_EG..weights::KING_MG].fill(man.1);
    w[weights::KING_MG..weights::KING_EG].fill(king.0);
    w[weights::KING_EG..weights::MAN_MOBILITY].fill(king.1);
    w
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| "datagen.bin".into());
    let epochs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let l2: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1e-7);
    let losing = args.iter().skip(4).any(|a| a == "losing");
    let fitted = if args.iter().skip(4).any(|a| a == "base") {
        weights::RUNAWAY
    } else {
        PARAMS
    };
    // A rule set's one-word name among the words (`english`; none: the default rule set).
    let variant = args
        .iter()
        .skip(4)
        .find_map(|a| Variant::from_key(a))
        .unwrap_or_default();
    let rules = Rules {
        losing,
        ..variant.rules()
    };
    let set = variant.weights();
    let start: Weights = match (losing, set) {
        (true, _) => losing_start(set == WeightSet::ShortKings),
        (false, WeightSet::ShortKings) => weights::SHORT,
        (false, WeightSet::LongKings) => weights::LONG,
    };
    let all = load(&path, &rules);
    let cut = all.len() * 9 / 10;
    let (train, test) = all.split_at(cut);
    eprintln!(
        "{} quiet positions ({} labelled by the tables): {} to fit, {} held out",
        all.len(),
        all.iter().filter(|s| s.source == Source::Table).count(),
        train.len(),
        test.len()
    );
    let w0: Vec<f64> = start.iter().map(|&x| x as f64).collect();
    let best_k = (40..=400)
        .step_by(10)
        .map(|k| (k, loss(train, &w0, k as f64)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(120, |x| x.0);
    eprintln!("best logistic scale for them: {best_k}");
    let k = if args.iter().skip(4).any(|a| a == "keep-scale") {
        best_k as f64
    } else {
        LOGISTIC_SCALE
    };
    eprintln!(
        "present parameters at scale {k}: loss {:.5} (held out {:.5})",
        loss(train, &w0, k),
        loss(test, &w0, k)
    );

    // Adam over full batches; the L2 term pulls toward the present parameters so that rare
    // squares keep sane values.
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let n = train.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut g = vec![0.0; PARAMS];
        for s in train {
            let (raw, div) = raw(s, &w);
            let p = sigmoid(raw / div / k);
            let d = (p - s.y) / (div * k);
            for &(i, x) in &s.features {
                g[i as usize] += d * x as f64;
            }
        }
        for i in 0..fitted {
            let gi = g[i] / n + l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - f64::powi(b1, epoch as i32));
            let vh = v[i] / (1.0 - f64::powi(b2, epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 {
            eprintln!(
                "epoch {epoch}: loss {:.5} (held out {:.5})",
                loss(train, &w, k),
                loss(test, &w, k)
            );
        }
    }
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    eprintln!(
        "fitted (rounded): loss {:.5} (held out {:.5})",
        loss(train, &rounded, k),
        loss(test, &rounded, k)
    );
    for (name, source) in [("game", Source::Game), ("table", Source::Table)] {
        let part: Vec<&Sample> = test.iter().filter(|s| s.source == source).collect();
        eprintln!(
            "held out, labelled by the {name}: {} positions, loss {:.5} -> {:.5}",
            part.len(),
            loss_of(&part, &w0, k),
            loss_of(&part, &rounded, k)
        );
    }
    // The fitted vector as Rust source for `engine/src/eval/weights.rs`.
    let name = match (set, losing) {
        (WeightSet::ShortKings, true) => "LOSING_SHORT",
        (WeightSet::LongKings, true) => "LOSING_LONG",
        (WeightSet::ShortKings, false) => "SHORT",
        (WeightSet::LongKings, false) => "LONG",
    };
    say!("#[rustfmt::skip]");
    say!("pub const {name}: Weights = [");
    let show = |label: &str, from: usize, len: usize| {
        say!("    // {label}");
        for chunk in rounded[from..from + len].chunks(4) {
            let line: Vec<String> = chunk.iter().map(|x| format!("{},", *x as i64)).collect();
            say!("    {}", line.join(" "));
        }
    };
    show(
        "Men, middle game: own back row first, a row of 4 a line.",
        weights::MAN_MG,
        28,
    );
    show("Men, endgame.", weights::MAN_EG, 28);
    show(
        "Kings, middle game: squares 1-16 (and 32-17).",
        weights::KING_MG,
        16,
    );
    show("Kings, endgame.", weights::KING_EG, 16);
    show(
        "Man mobility, king mobility, tempo.",
        weights::MAN_MOBILITY,
        3,
    );
    show(
        "Runaway men (enemy without kings, with kings), trapped king, dog-hole, first king,\n    // the move, trade-down.",
        weights::RUNAWAY,
        weights::BACK_RANK - weights::RUNAWAY,
    );
    show("Back-row patterns, middle game.", weights::BACK_RANK, 16);
    say!("];");
}
