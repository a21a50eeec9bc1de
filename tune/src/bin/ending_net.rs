//! Fits the ending network ([`buffgreen::eval::net`]) to scores of a full-width search
//! (written by the lab's `distill`: `FEN<TAB>clock<TAB>score`, the score for the side to move).
//!
//! The network corrects the evaluation: its prediction is the logistic of (evaluation +
//! network) at [`LOGISTIC_SCALE`], fitted by cross-entropy to the logistic of the search's
//! score (a proven result is 1 or 0). It starts near zero, so the fit begins from the present
//! evaluation. Adam on mini-batches; the last tenth of the file is held out and the epoch with
//! the best held-out loss is kept.
//!
//! `cargo run --release -p buffgreen-tune --bin ending_net -- FILE [english] [EPOCHS] > engine/src/eval/net_weights.rs`

use std::io::{BufRead, BufReader};

use buffgreen::board::{fen, Rules};
use buffgreen::eval::net::{self, HIDDEN, INPUTS, QA, QB};
use buffgreen::eval::{self, LOGISTIC_SCALE};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The output's unit: parameters near 1 give corrections of about a man.
const OUT: f32 = 100.0;

struct Sample {
    inputs: Vec<u8>,
    base: f32,
    target: f32,
}

#[derive(Clone)]
struct Params {
    w1: Vec<[f32; HIDDEN]>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
    b2: f32,
}

impl Params {
    fn zero() -> Params {
        Params {
            w1: vec![[0.0; HIDDEN]; INPUTS],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The hidden activations (before the clip) and the correction in hundredths of a man.
    fn forward(&self, s: &Sample) -> ([f32; HIDDEN], f32) {
        let mut acc = self.b1;
        for &i in &s.inputs {
            for (a, w) in acc.iter_mut().zip(self.w1[i as usize].iter()) {
                *a += w;
            }
        }
        let mut out = self.b2;
        for (a, w) in acc.iter().zip(self.w2.iter()) {
            out += a.clamp(0.0, 1.0) * w;
        }
        (acc, out * OUT)
    }

    fn visit(&mut self, other: &Params, f: impl Fn(&mut f32, f32)) {
        for (r, o) in self.w1.iter_mut().zip(other.w1.iter()) {
            for (x, y) in r.iter_mut().zip(o.iter()) {
                f(x, *y);
            }
        }
        for (x, y) in self.b1.iter_mut().zip(other.b1.iter()) {
            f(x, *y);
        }
        for (x, y) in self.w2.iter_mut().zip(other.w2.iter()) {
            f(x, *y);
        }
        f(&mut self.b2, other.b2);
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(p: &Params, samples: &[Sample]) -> f64 {
    let mut total = 0.0f64;
    for s in samples {
        let (_, out) = p.forward(s);
        let q = sigmoid((s.base + out) / LOGISTIC_SCALE as f32).clamp(1e-6, 1.0 - 1e-6);
        let t = s.target;
        total -= f64::from(t * q.ln() + (1.0 - t) * (1.0 - q).ln());
    }
    total / samples.len().max(1) as f64
}

fn load(path: &str, rules: &Rules) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for line in BufReader::new(file).lines().map_while(Result::ok) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(text), Some(score)) = (f.first(), f.get(2)) else {
            continue;
        };
        let (Ok(pos), Ok(score)) = (fen::parse(text), score.parse::<f32>()) else {
            continue;
        };
        let mut active = [0u8; 32];
        let n = net::inputs(&pos, &mut active);
        out.push(Sample {
            inputs: active[..n].to_vec(),
            base: eval::evaluate(&pos, rules) as f32,
            target: sigmoid(score / LOGISTIC_SCALE as f32),
        });
    }
    Ok(out)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: ending_net FILE [english] [EPOCHS]")?;
    let english = args.iter().any(|a| a == "english");
    let epochs: usize = args
        .iter()
        .skip(2)
        .find_map(|a| a.parse().ok())
        .unwrap_or(30);
    let rules = if english {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    };
    let samples = load(path, &rules)?;
    let split = samples.len() * 9 / 10;
    let (train, held) = samples.split_at(split);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut p = Params::zero();
    for row in p.w1.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.gen_range(-0.1..0.1);
        }
    }
    for b in p.b1.iter_mut() {
        *b = 0.5;
    }
    for w in p.w2.iter_mut() {
        *w = rng.gen_range(-0.01..0.01);
    }
    eprintln!(
        "{} training, {} held out; loss of the evaluation alone: {:.5} / {:.5}",
        train.len(),
        held.len(),
        loss(&Params::zero(), train),
        loss(&Params::zero(), held)
    );
    let (lr, b1m, b2m, eps) = (1e-3f32, 0.9f32, 0.999f32, 1e-8f32);
    let mut m = Params::zero();
    let mut v = Params::zero();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (loss(&p, held), p.clone());
    let mut t = 0i32;
    for epoch in 0..epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(256) {
            let mut g = Params::zero();
            for &k in batch {
                let s = &train[k];
                let (acc, out) = p.forward(s);
                let q = sigmoid((s.base + out) / LOGISTIC_SCALE as f32);
                // d loss / d out-parameter units.
                let d = (q - s.target) * OUT / LOGISTIC_SCALE as f32 / batch.len() as f32;
                g.b2 += d;
                for (j, &a) in acc.iter().enumerate() {
                    g.w2[j] += d * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        let dh = d * p.w2[j];
                        g.b1[j] += dh;
                        for &i in &s.inputs {
                            g.w1[i as usize][j] += dh;
                        }
                    }
                }
            }
            t += 1;
            m.visit(&g, |x, y| *x = b1m * *x + (1.0 - b1m) * y);
            v.visit(&g, |x, y| *x = b2m * *x + (1.0 - b2m) * y * y);
            let (c1, c2) = (1.0 - b1m.powi(t), 1.0 - b2m.powi(t));
            let mut step = m.clone();
            step.visit(&v, |x, y| *x = lr * (*x / c1) / ((y / c2).sqrt() + eps));
            p.visit(&step, |x, y| *x -= y);
        }
        let (lt, lh) = (loss(&p, train), loss(&p, held));
        eprintln!("epoch {epoch}: loss {lt:.5} held out {lh:.5}");
        if lh < best.0 {
            best = (lh, p.clone());
        }
    }
    eprintln!("best held-out loss {:.5}", best.0);
    print(&best.1);
    Ok(())
}

/// The weights as the Rust source of `engine/src/eval/net_weights.rs`.
fn print(p: &Params) {
    let qa = QA as f32;
    let q1 = |x: f32| (x * qa).round().clamp(-32767.0, 32767.0) as i16;
    println!("//! The weights of [`super::net`] (written by `tune/src/bin/ending_net.rs`).\n");
    println!("use super::net::{{HIDDEN, INPUTS}};\n");
    println!("/// Input weights, one row an input.\n#[rustfmt::skip]");
    println!("pub const W1: [[i16; HIDDEN]; INPUTS] = [");
    for row in &p.w1 {
        let r: Vec<String> = row.iter().map(|&x| q1(x).to_string()).collect();
        println!("    [{}],", r.join(", "));
    }
    println!("];");
    let b: Vec<String> = p.b1.iter().map(|&x| q1(x).to_string()).collect();
    println!(
        "/// Hidden biases.\n#[rustfmt::skip]\npub const B1: [i16; HIDDEN] = [{}];",
        b.join(", ")
    );
    let w: Vec<String> =
        p.w2.iter()
            .map(|&x| ((x * OUT * QB as f32).round() as i32).to_string())
            .collect();
    println!(
        "/// Output weights.\n#[rustfmt::skip]\npub const W2: [i32; HIDDEN] = [{}];",
        w.join(", ")
    );
    println!(
        "/// Output bias.\npub const B2: i32 = {};",
        (p.b2 * OUT * (QA * QB) as f32).round() as i32
    );
}
