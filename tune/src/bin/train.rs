//! Trains the network of [`buffgreen::eval::net`] on data files of `datagen`, and writes it in
//! the engine's format.
//!
//! The model is the engine's, in floating point: inputs as [`net::active`] gives them, two
//! clipped hidden layers, a logit; the loss is the cross-entropy of the logistic of the logit
//! against the target `lambda * result + (1 - lambda) * logistic(score / LOGISTIC_SCALE)` (the
//! searcher's score where the record has one; the tables' exact value where it has that). Adam,
//! mini-batches, a held-out share of the records (every `valid`-th block of 1024 records is not
//! mixed into training: records are taken in file order by blocks) to check the fit, and at the
//! end the loss of the integer network the engine will run, on the same held-out records.
//!
//! `train --data FILE [--data FILE ...] --out engine/src/eval/nets/english.bgnn [--epochs N]
//! [--lambda L] [--lr R] [--batch B] [--seed S] [--max N] [--h1 64|128] [--compare NET ...]
//! [--init NET]`

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::board::{Position, Rules};
use buffgreen::eval::net::{self, Network, H2, INPUTS, QA, W1_LIMIT, WIDTHS};
use buffgreen::eval::{self, LOGISTIC_SCALE};
use buffgreen_tune::data::Reader;
use buffgreen_tune::say;

#[derive(Parser)]
#[command(
    name = "train",
    about = "Trains the evaluation network on datagen's files"
)]
struct Cli {
    /// Data files (all of the same rules).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training records.
    #[arg(long, default_value_t = 8)]
    epochs: u32,
    /// Weight of the game's result in the target (the rest is the search's score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Adam's step size (halved for each of the last third of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Records a step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Decoupled weight decay (AdamW) a step, times the step size.
    #[arg(long, default_value_t = 0.0001)]
    decay: f32,
    /// Use at most this many records (the first ones of the files).
    #[arg(long)]
    max: Option<usize>,
    /// One block of 1024 records in this many is held out.
    #[arg(long, default_value_t = 50)]
    valid: usize,
    /// Units of the first hidden layer: 64 or 128 (the widths the engine reads).
    #[arg(long, default_value_t = 64, value_parser = width)]
    h1: usize,
    /// Network files (the engine's format) whose held-out loss on the same records is printed
    /// before the fit, so that a new network is weighed against the one it would replace.
    #[arg(long)]
    compare: Vec<PathBuf>,
    /// Start from this network file's weights (of the width `--h1` gives) instead of random
    /// ones: a network fitted on data since lost goes on learning from new data.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// A first-layer width the engine has a pass for ([`net::WIDTHS`]).
fn width(text: &str) -> Result<usize, String> {
    let w: usize = text.parse().map_err(|e| format!("{text}: {e}"))?;
    if WIDTHS.contains(&w) {
        Ok(w)
    } else {
        Err(format!(
            "{w} units: the engine reads networks {WIDTHS:?} wide"
        ))
    }
}

/// A training record: active inputs and the target.
#[derive(Clone, Copy)]
struct Sample {
    inputs: [u16; 32],
    n: u8,
    target: f32,
    /// The game's result alone, for the held-out loss against results.
    result: f32,
    /// The position, for the hand-set evaluation's loss.
    pos: Position,
    /// The hand-set evaluation's logit: the network learns what to add to it.
    base: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of `p` against `t`.
fn loss(p: f32, t: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

fn load(cli: &Cli) -> Result<(Vec<Sample>, Rules), String> {
    let mut out = Vec::new();
    let mut rules = None;
    for path in &cli.data {
        let reader = Reader::open(path).map_err(|e| e.to_string())?;
        if *rules.get_or_insert(reader.rules()) != reader.rules() {
            return Err(format!(
                "{}: other rules than the first file",
                path.display()
            ));
        }
        let file_rules = reader.rules();
        for record in reader {
            let r = record.map_err(|e| format!("{}: {e}", path.display()))?;
            let result = r.mover_score() as f32;
            let target = match r.score {
                _ if r.exact => result,
                Some(s) if s.unsigned_abs() >= 20_000 => f32::from(u8::from(s > 0)),
                Some(s) => {
                    let searched = sigmoid(f32::from(s) / LOGISTIC_SCALE as f32);
                    cli.lambda * result + (1.0 - cli.lambda) * searched
                }
                None => result,
            };
            let mut inputs = [0u16; 32];
            let n = net::active(&r.pos, &mut inputs) as u8;
            out.push(Sample {
                inputs,
                n,
                target,
                result,
                pos: r.pos,
                base: eval::handset(&r.pos, &file_rules) as f32 / LOGISTIC_SCALE as f32,
            });
            if cli.max.is_some_and(|m| out.len() >= m) {
                return Ok((out, reader_rules(rules)));
            }
        }
    }
    Ok((out, reader_rules(rules)))
}

/// The float model, `N` units in the first layer: the width is a constant so that one
/// record's activations are arrays on the stack, as fast as when 64 was the only width.
#[derive(Clone)]
struct Model<const N: usize> {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: f32,
}

/// One forward pass's activations.
struct Pass<const N: usize> {
    a1: [f32; N],
    a2: [f32; H2],
    z: f32,
}

impl<const N: usize> Model<N> {
    fn new(rng: &mut Xoshiro256PlusPlus) -> Self {
        let mut u =
            |n: usize, a: f32| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-a..a)).collect() };
        Model {
            w1: u(INPUTS * N, 0.1),
            b1: vec![0.2; N],
            w2: u(H2 * N, 1.0 / (N as f32).sqrt()),
            b2: vec![0.2; H2],
            // Small: the untrained network adds almost nothing to the hand-set evaluation.
            w3: u(H2, 0.01),
            b3: 0.0,
        }
    }

    /// The float model of an integer network of this width: [`Model::quantize`] undone.
    fn from_network(net: &Network) -> Self {
        let f = |v: &[i16]| -> Vec<f32> { v.iter().map(|&x| f32::from(x) / QA as f32).collect() };
        let big = (QA * QA) as f32;
        Model {
            w1: f(&net.w1),
            b1: f(&net.b1),
            w2: f(&net.w2),
            b2: net.b2.iter().map(|&x| x as f32 / big).collect(),
            w3: f(&net.w3),
            b3: net.b3 as f32 / big,
        }
    }

    fn zeros() -> Self {
        Model {
            w1: vec![0.0; INPUTS * N],
            b1: vec![0.0; N],
            w2: vec![0.0; H2 * N],
            b2: vec![0.0; H2],
            w3: vec![0.0; H2],
            b3: 0.0,
        }
    }

    fn forward(&self, s: &Sample) -> Pass<N> {
        let mut acc = [0f32; N];
        acc.copy_from_slice(&self.b1);
        for &i in &s.inputs[..s.n as usize] {
            let row = &self.w1[i as usize * N..][..N];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        let mut a1 = [0f32; N];
        for (x, &a) in a1.iter_mut().zip(&acc) {
            *x = a.clamp(0.0, 1.0);
        }
        let mut a2 = [0f32; H2];
        let mut z = self.b3 + s.base;
        for (j, (a, row)) in a2.iter_mut().zip(self.w2.chunks_exact(N)).enumerate() {
            let sum: f32 = a1.iter().zip(row).map(|(x, w)| x * w).sum::<f32>() + self.b2[j];
            *a = sum.clamp(0.0, 1.0);
            z += *a * self.w3[j];
        }
        Pass { a1, a2, z }
    }

    /// Adds the gradient of the loss of `s` to `g`; returns the loss.
    fn backward(&self, s: &Sample, g: &mut Self) -> f32 {
        let p = self.forward(s);
        let out = sigmoid(p.z);
        let dz = out - s.target;
        g.b3 += dz;
        let mut d1 = [0f32; N];
        for j in 0..H2 {
            g.w3[j] += dz * p.a2[j];
            // The clipped unit passes a gradient only inside its range.
            if p.a2[j] <= 0.0 || p.a2[j] >= 1.0 {
                continue;
            }
            let d2 = dz * self.w3[j];
            g.b2[j] += d2;
            let row = &self.w2[j * N..][..N];
            let grow = &mut g.w2[j * N..][..N];
            for k in 0..N {
                grow[k] += d2 * p.a1[k];
                d1[k] += d2 * row[k];
            }
        }
        for (k, d) in d1.iter_mut().enumerate() {
            if p.a1[k] <= 0.0 || p.a1[k] >= 1.0 {
                *d = 0.0;
            }
            g.b1[k] += *d;
        }
        for &i in &s.inputs[..s.n as usize] {
            let grow = &mut g.w1[i as usize * N..][..N];
            for (gw, d) in grow.iter_mut().zip(&d1) {
                *gw += d;
            }
        }
        loss(out, s.target)
    }

    fn params_mut(&mut self) -> [&mut [f32]; 6] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            std::slice::from_mut(&mut self.b3),
        ]
    }

    /// The integer network: every weight rounded to the engine's fixed point.
    fn quantize(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round();
        let i16s = |v: &[f32], limit: f32| -> Vec<i16> {
            v.iter()
                .map(|&x| q(x.clamp(-limit, limit), QA) as i16)
                .collect()
        };
        let big = i16::MAX as f32 / QA as f32;
        Network {
            h1: N,
            w1: i16s(&self.w1, W1_LIMIT),
            b1: i16s(&self.b1, W1_LIMIT),
            w2: i16s(&self.w2, big),
            b2: self.b2.iter().map(|&x| q(x, QA * QA) as i32).collect(),
            w3: i16s(&self.w3, big),
            b3: q(self.b3, QA * QA) as i32,
        }
    }
}

/// Adam's moments.
struct Adam<const N: usize> {
    m: Model<N>,
    v: Model<N>,
    t: i32,
}

impl<const N: usize> Adam<N> {
    fn step(&mut self, model: &mut Model<N>, grad: &mut Model<N>, lr: f32, decay: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let params = model.params_mut();
        let grads = grad.params_mut();
        let ms = self.m.params_mut();
        let vs = self.v.params_mut();
        for (layer, (((p, g), m), v)) in params.into_iter().zip(grads).zip(ms).zip(vs).enumerate() {
            for i in 0..p.len() {
                let gi = g[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                p[i] -= lr * ((m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8) + decay * p[i]);
                // The first layer stays where its integer sums cannot overflow.
                if layer <= 1 {
                    p[i] = p[i].clamp(-W1_LIMIT, W1_LIMIT);
                }
                g[i] = 0.0;
            }
        }
    }
}

/// Mean loss on `set` of the logits `logit` gives, against the targets and against the
/// results alone.
fn held_out(set: &[Sample], logit: impl Fn(&Sample) -> f32) -> (f64, f64) {
    let (mut a, mut b) = (0f64, 0f64);
    for s in set {
        let p = sigmoid(logit(s));
        a += f64::from(loss(p, s.target));
        b += f64::from(loss(p, s.result));
    }
    let n = set.len().max(1) as f64;
    (a / n, b / n)
}

fn main() -> ExitCode {
    match run(&Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::from(2)
        }
    }
}

/// Reads the data, fits, reports and writes the network; the error is the one line `main`
/// prints.
fn run(cli: &Cli) -> Result<(), String> {
    let t0 = Instant::now();
    // The networks named are read before the data, so that a wrong name fails at once.
    let compare = cli
        .compare
        .iter()
        .map(|p| read_network(p))
        .collect::<Result<Vec<_>, _>>()?;
    let init = cli.init.as_deref().map(read_network).transpose()?;
    if let Some(net) = init.as_ref().filter(|net| net.h1 != cli.h1) {
        return Err(format!(
            "--init network is {} units wide, --h1 asks for {}",
            net.h1, cli.h1
        ));
    }
    let (all, rules) = load(cli)?;
    // Held out by blocks, so that the positions of one game mostly fall on one side.
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (b, block) in all.chunks(1024).enumerate() {
        if cli.valid > 0 && b % cli.valid == cli.valid - 1 {
            valid.extend_from_slice(block);
        } else {
            train.extend_from_slice(block);
        }
    }
    drop(all);
    eprintln!(
        "train: {} records to train on, {} held out, read in {:.1} s",
        train.len(),
        valid.len(),
        t0.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err("no records".to_string());
    }
    for (path, net) in cli.compare.iter().zip(&compare) {
        let (a, b) = held_out(&valid, |s| integer_logit(net, s));
        eprintln!(
            "{}: held-out loss {a:.5} (against results {b:.5})",
            path.display()
        );
    }
    // `width` let only the engine's widths through; each has its own compiled fit.
    let net = match cli.h1 {
        64 => fit::<64>(cli, init.as_ref(), train, &valid, &rules, t0),
        128 => fit::<128>(cli, init.as_ref(), train, &valid, &rules, t0),
        h1 => unreachable!("--h1 {h1} passed the check of WIDTHS {WIDTHS:?}"),
    };
    // The integer network on the held-out records: what the engine will see.
    let (a, b) = held_out(&valid, |s| integer_logit(&net, s));
    eprintln!("integer network: held-out loss {a:.5} (against results {b:.5})");
    std::fs::write(&cli.out, net.to_bytes()).map_err(|e| format!("{}: {e}", cli.out.display()))?;
    say!("wrote {}", cli.out.display());
    Ok(())
}

/// The logit the engine's integer network `net` gives record `s`: the hand-set evaluation's
/// plus the network's correction.
fn integer_logit(net: &Network, s: &Sample) -> f32 {
    s.base + net.raw_inputs(&s.inputs[..s.n as usize]) as f32 / (QA * QA) as f32
}

/// Fits a network `N` units wide on `train`, reporting the loss on `valid` after each epoch,
/// and returns it rounded to the engine's integers (`t0`: when the run began, for the times it
/// reports).
fn fit<const N: usize>(
    cli: &Cli,
    init: Option<&Network>,
    mut train: Vec<Sample>,
    valid: &[Sample],
    rules: &Rules,
    t0: Instant,
) -> Network {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cli.seed);
    let mut model = match init {
        Some(net) => Model::<N>::from_network(net),
        None => Model::<N>::new(&mut rng),
    };
    let mut grad = Model::zeros();
    let mut adam = Adam {
        m: Model::zeros(),
        v: Model::zeros(),
        t: 0,
    };
    let (hand, hand_r) = held_out(valid, |s| {
        eval::handset(&s.pos, rules) as f32 / LOGISTIC_SCALE as f32
    });
    eprintln!("hand-set evaluation: held-out loss {hand:.5} (against results {hand_r:.5})");
    let (l0, r0) = held_out(valid, |s| model.forward(s).z);
    eprintln!("epoch 0: held-out loss {l0:.5} (against results {r0:.5})");
    for epoch in 1..=cli.epochs {
        let late = epoch as i32 - (2 * cli.epochs as i32) / 3;
        let lr = cli.lr * 0.5f32.powi(late.max(0));
        for i in (1..train.len()).rev() {
            let j = rng.gen_range(0..=i);
            train.swap(i, j);
        }
        let mut total = 0f64;
        for batch in train.chunks(cli.batch) {
            for s in batch {
                total += f64::from(model.backward(s, &mut grad));
            }
            adam.step(
                &mut model,
                &mut grad,
                lr,
                cli.decay,
                1.0 / batch.len() as f32,
            );
        }
        let (l, r) = held_out(valid, |s| model.forward(s).z);
        eprintln!(
            "epoch {epoch}: lr {lr:.5}, training loss {:.5}, held-out loss {l:.5} (against results {r:.5}), {:.0} s",
            total / train.len() as f64,
            t0.elapsed().as_secs_f64()
        );
    }
    model.quantize()
}

/// The network file at `path`, or why it is not one.
fn read_network(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Network::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rules of the files read (English when none was read).
fn reader_rules(rules: Option<Rules>) -> Rules {
    rules.unwrap_or(Rules::ENGLISH)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model `N` wide, rounded, is a file the engine reads back as the same network, and
    /// evaluates it with its pass of that width.
    fn engine_reads<const N: usize>() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let net = Model::<N>::new(&mut rng).quantize();
        assert_eq!(net.h1, N);
        let read = Network::parse(&net.to_bytes()).expect("a network file");
        assert_eq!(read, net);
        let mut inputs = [0u16; 32];
        let n = net::active(&Position::startpos(), &mut inputs);
        assert_eq!(read.raw_inputs(&inputs[..n]), net.raw_inputs(&inputs[..n]));
    }

    /// A network read back as the float model rounds to itself: `--init` starts exactly
    /// where the file is.
    fn init_round_trips<const N: usize>() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let net = Model::<N>::new(&mut rng).quantize();
        assert_eq!(Model::<N>::from_network(&net).quantize(), net);
    }

    #[test]
    fn a_network_file_is_a_starting_point() {
        init_round_trips::<64>();
        init_round_trips::<128>();
    }

    #[test]
    fn each_width_fits_a_network_the_engine_reads() {
        engine_reads::<64>();
        engine_reads::<128>();
    }

    #[test]
    fn only_the_engines_widths_are_accepted() {
        assert_eq!(width("64"), Ok(64));
        assert_eq!(width("128"), Ok(128));
        assert_eq!(
            width("96"),
            Err("96 units: the engine reads networks [64, 128] wide".to_string())
        );
        assert!(width("wide").is_err());
    }
}
