//! A small learned evaluation: a network of two hidden layers over the pieces, seen from the
//! side to move, in integer arithmetic.
//!
//! Inputs: 128, one per (kind, square) — the mover's men and kings, the opponent's men and
//! kings — on the board turned so that the side to move always plays "up" (Black as it stands;
//! White's squares turned half round, square `s` to `33 - s`). The same position with the
//! colours swapped is then the same input, and the network learns one game, not two.
//!
//! Layers: inputs to `h1` clipped units (each file says how many: one of [`WIDTHS`]), to [`H2`]
//! clipped units, to one output, the logit of the side to move's expected result. Arithmetic:
//! the first layer's weights and the activations are in units of 1/[`QA`], the other weights
//! likewise; products of the second and third layers are in 1/`QA`², so every layer is exact
//! integer sums, the same on every machine, and the search's node counts do not depend on the
//! floating-point unit.
//!
//! `tune/src/bin/train.rs` fits the network in floating point and writes it in the format
//! [`Network::parse`] reads, rounded to this fixed point. The network of a rule set is a file
//! compiled into the binary (`nets/`, whose README names the data, the command and the commit
//! that made each one); rules without one keep the hand-set evaluation alone.

use multiversion::multiversion;
use thiserror::Error;

use std::sync::OnceLock;

use crate::board::{Position, Rules};
use crate::types::Color;

/// Inputs: four kinds of piece on 32 squares.
pub const INPUTS: usize = 128;
/// The units of the first hidden layer a network file may have. Each width has its own
/// forward pass with fixed-size arrays ([`Network::raw_inputs`]), so that a 64-wide network
/// runs the same code as when 64 was the only width, and a wider one costs only itself.
pub const WIDTHS: [usize; 2] = [64, 128];
/// Units of the second hidden layer.
pub const H2: usize = 32;
/// The fixed-point scale of weights and activations (an activation of 1.0 is `QA`).
pub const QA: i32 = 64;
/// The largest first-layer weight magnitude, in float units: with [`QA`] and at most 32 pieces,
/// every first-layer sum fits an `i16`.
pub const W1_LIMIT: f32 = 8.0;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"BGNN0001";

/// Why bytes are not a network.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    #[error("not a network file (no BGNN0001 header)")]
    Magic,
    /// The layer sizes are not this build's.
    #[error("layer sizes {0}x{1}x{2}, this build reads {shapes}", shapes = shapes())]
    Shape(usize, usize, usize),
    /// The file ends before its weights do, or goes on after them.
    #[error("{0} bytes of weights, {1} expected")]
    Length(usize, usize),
}

/// The layer sizes this build reads, as [`NetError::Shape`] names them: "128x64x32 or
/// 128x128x32".
fn shapes() -> String {
    let each: Vec<String> = WIDTHS
        .iter()
        .map(|h1| format!("{INPUTS}x{h1}x{H2}"))
        .collect();
    each.join(" or ")
}

/// The integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Units of the first hidden layer: one of [`WIDTHS`] (the evaluation panics on another).
    pub h1: usize,
    /// First layer, input-major: the `h1` weights of input `i` start at `i * h1`.
    pub w1: Vec<i16>,
    /// First layer biases.
    pub b1: Vec<i16>,
    /// Second layer, unit-major: the `h1` weights of unit `j` start at `j * h1`.
    pub w2: Vec<i16>,
    /// Second layer biases, in 1/`QA`².
    pub b2: Vec<i32>,
    /// Output weights.
    pub w3: Vec<i16>,
    /// Output bias, in 1/`QA`².
    pub b3: i32,
}

/// The bytes of a network file whose first layer has `h1` units: header, then little-endian
/// `i16` weights (w1, b1, w2), `i32` (b2), `i16` (w3), `i32` (b3).
const fn file_len(h1: usize) -> usize {
    8 + 6 + 2 * (INPUTS * h1 + h1 + h1 * H2) + 4 * H2 + 2 * H2 + 4
}

impl Network {
    /// Reads a network file.
    pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 14 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let dim = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
        let (i, h1, h2) = (dim(8), dim(10), dim(12));
        if i != INPUTS || !WIDTHS.contains(&h1) || h2 != H2 {
            return Err(NetError::Shape(i, h1, h2));
        }
        if bytes.len() != file_len(h1) {
            return Err(NetError::Length(bytes.len() - 14, file_len(h1) - 14));
        }
        let mut at = 14;
        let mut i16s = |n: usize| {
            let v: Vec<i16> = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w1 = i16s(INPUTS * h1);
        let b1 = i16s(h1);
        let w2 = i16s(h1 * H2);
        let b2: Vec<i32> = bytes[at..at + 4 * H2]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        at += 4 * H2;
        let w3: Vec<i16> = bytes[at..at + 2 * H2]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        at += 2 * H2;
        let b3 = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        Ok(Network {
            h1,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.h1));
        out.extend_from_slice(MAGIC);
        for d in [INPUTS, self.h1, H2] {
            out.extend_from_slice(&(d as u16).to_le_bytes());
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.w3 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b3.to_le_bytes());
        out
    }

    /// The logit of the side to move's expected result, in 1/`QA`².
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        let mut inputs = [0u16; 32];
        let n = active(pos, &mut inputs);
        self.raw_inputs(&inputs[..n])
    }

    /// [`Network::raw`] of the position whose active inputs are `inputs` (as [`active`] gives
    /// them).
    ///
    /// # Panics
    ///
    /// If [`Network::h1`] is not one of [`WIDTHS`] ([`Network::parse`] gives no such network).
    #[inline]
    pub fn raw_inputs(&self, inputs: &[u16]) -> i32 {
        // One pass per width, each with arrays of its size on the stack: no allocation in the
        // search, and the 64-wide pass is the same code as before there were two widths. A
        // test evaluates every width of `WIDTHS`, so a width added there without an arm here
        // fails it.
        match self.h1 {
            64 => forward::<64>(self, inputs),
            128 => forward::<128>(self, inputs),
            h1 => panic!("a network {h1} units wide: this build evaluates {WIDTHS:?}"),
        }
    }

    /// The evaluation in the engine's centi-men: the logit times the evaluation's logistic
    /// scale, so that [`crate::search::value::of_score`] turns it back into the expected result.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let raw = i64::from(self.raw(pos));
        (raw * super::LOGISTIC_SCALE as i64 / i64::from(QA * QA)) as i32
    }
}

/// [`Network::raw_inputs`] of a network whose first layer has `N` units. Compiled twice, for
/// the baseline processor and for AVX2 (twice the vector lanes), and the pass the processor
/// has is chosen at run time: one binary runs on every x86-64 processor, and the integer sums
/// give the same result on each.
#[multiversion(targets("x86_64+avx2"))]
fn forward<const N: usize>(net: &Network, inputs: &[u16]) -> i32 {
    let mut acc = [0i16; N];
    acc.copy_from_slice(&net.b1);
    for &i in inputs {
        let row = &net.w1[i as usize * N..][..N];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }
    let mut a1 = [0i16; N];
    for (x, &a) in a1.iter_mut().zip(&acc) {
        *x = a.clamp(0, QA as i16);
    }
    let mut out = net.b3;
    for j in 0..H2 {
        let row = &net.w2[j * N..][..N];
        let sum: i32 = a1
            .iter()
            .zip(row)
            .map(|(&x, &w)| i32::from(x) * i32::from(w))
            .sum();
        let a2 = ((sum + net.b2[j]) / QA).clamp(0, QA);
        out += a2 * i32::from(net.w3[j]);
    }
    out
}

/// The active inputs of `pos` (at most 32: one per piece) into `out`; returns how many.
#[inline]
pub fn active(pos: &Position, out: &mut [u16; 32]) -> usize {
    let me = pos.side_to_move();
    let turn = |s: usize| if me == Color::Black { s } else { 31 - s };
    let mut n = 0;
    for (plane, set) in [pos.men(me), pos.kings(me), pos.men(!me), pos.kings(!me)]
        .into_iter()
        .enumerate()
    {
        for sq in set {
            if n < out.len() {
                out[n] = (plane * 32 + turn(sq.index())) as u16;
                n += 1;
            }
        }
    }
    n
}

/// The networks compiled into the binary, by the file name the rule sets' table gives
/// ([`crate::board::Variant::network`] and [`crate::board::Variant::ending_network`]); a test
/// checks that each parses and that every name the table gives is here.
static NETWORKS: [(&str, &[u8]); 6] = [
    ("english.bgnn", include_bytes!("nets/english.bgnn")),
    (
        "english-ending.bgnn",
        include_bytes!("nets/english-ending.bgnn"),
    ),
    ("buffgreen.bgnn", include_bytes!("nets/buffgreen.bgnn")),
    ("russian.bgnn", include_bytes!("nets/russian.bgnn")),
    ("brazilian.bgnn", include_bytes!("nets/brazilian.bgnn")),
    ("pool.bgnn", include_bytes!("nets/pool.bgnn")),
];

/// Pieces on the board at or below which a rule set's ending network, where it has one,
/// values a position in place of its main network. A main network fitted on games that end
/// where the 6-piece tables begin has seen few such positions; the ending network is fitted on
/// games played to their end.
pub const ENDING_PIECES: u32 = 6;

/// The compiled network of the file `file`, read once; `None` when no such file is compiled
/// in or it is not a network (a test checks that each is).
fn compiled(file: &str) -> Option<&'static Network> {
    static READ: [OnceLock<Option<Network>>; NETWORKS.len()] =
        [const { OnceLock::new() }; NETWORKS.len()];
    let i = NETWORKS.iter().position(|(name, _)| *name == file)?;
    READ[i]
        .get_or_init(|| Network::parse(NETWORKS[i].1).ok())
        .as_ref()
}

/// The network of `rules`, read once; `None` where none has been trained (losing checkers,
/// the mixed rule settings) or the compiled file is not one (a test checks that it is).
#[inline]
pub fn for_rules(rules: &Rules) -> Option<&'static Network> {
    if rules.losing {
        return None;
    }
    compiled(rules.variant().network()?)
}

/// The ending network of `rules` (for positions of [`ENDING_PIECES`] pieces or fewer), read
/// once; `None` where the rule set has none, and under losing checkers.
#[inline]
pub fn ending_for_rules(rules: &Rules) -> Option<&'static Network> {
    if rules.losing {
        return None;
    }
    compiled(rules.variant().ending_network()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    /// A network `h1` units wide with every weight drawn from a small fixed generator.
    fn network(h1: usize) -> Network {
        let mut x = 12345u32;
        let mut next = |m: i32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 16) as i32 % (2 * m + 1)) - m
        };
        Network {
            h1,
            w1: (0..INPUTS * h1).map(|_| next(40) as i16).collect(),
            b1: (0..h1).map(|_| next(30) as i16).collect(),
            w2: (0..h1 * H2).map(|_| next(60) as i16).collect(),
            b2: (0..H2).map(|_| next(2000)).collect(),
            w3: (0..H2).map(|_| next(60) as i16).collect(),
            b3: next(500),
        }
    }

    /// The integer pass written out plainly, as the file format describes it, for any width:
    /// the first layer's sums clipped, the second's divided back to the fixed point and
    /// clipped, the output's dot product.
    fn by_hand(net: &Network, inputs: &[u16]) -> i32 {
        let a1: Vec<i32> = (0..net.h1)
            .map(|k| {
                let sum: i32 = inputs
                    .iter()
                    .map(|&i| i32::from(net.w1[i as usize * net.h1 + k]))
                    .sum();
                (i32::from(net.b1[k]) + sum).clamp(0, QA)
            })
            .collect();
        let mut want = net.b3;
        for j in 0..H2 {
            let sum: i32 = (0..net.h1)
                .map(|k| a1[k] * i32::from(net.w2[j * net.h1 + k]))
                .sum();
            want += ((sum + net.b2[j]) / QA).clamp(0, QA) * i32::from(net.w3[j]);
        }
        want
    }

    #[test]
    fn the_compiled_network_is_read_for_its_rules_only() {
        for (_, bytes) in NETWORKS {
            assert_eq!(Network::parse(bytes).map(|_| ()), Ok(()));
        }
        for variant in crate::board::Variant::ALL {
            for file in [variant.network(), variant.ending_network()]
                .into_iter()
                .flatten()
            {
                assert!(NETWORKS.iter().any(|(name, _)| *name == file), "{file}");
            }
        }
        // Each rule set with a network has its own, and its ending network if any, read from
        // the files its row names.
        let mut seen: Vec<&'static Network> = Vec::new();
        for variant in crate::board::Variant::ALL {
            let net = for_rules(&variant.rules());
            assert_eq!(net.is_some(), variant.network().is_some(), "{variant:?}");
            let ending = ending_for_rules(&variant.rules());
            assert_eq!(
                ending.is_some(),
                variant.ending_network().is_some(),
                "{variant:?}"
            );
            for net in [net, ending].into_iter().flatten() {
                assert!(seen.iter().all(|other| !std::ptr::eq(*other, net)));
                seen.push(net);
            }
        }
        assert_eq!(seen.len(), NETWORKS.len());
        assert!(ending_for_rules(&Rules::ENGLISH).is_some());
        assert!(ending_for_rules(&Rules {
            losing: true,
            ..Rules::ENGLISH
        })
        .is_none());
        let english = for_rules(&Rules::ENGLISH).expect("English network");
        let buffgreen = for_rules(&Rules::BUFF_AND_GREEN).expect("Buff and Green network");
        assert!(!std::ptr::eq(english, buffgreen));
        let russian = crate::board::Variant::Russian.rules();
        assert!(for_rules(&russian).is_some());
        assert!(for_rules(&Rules {
            losing: true,
            ..russian
        })
        .is_none());
        for rules in [Rules::ENGLISH, Rules::BUFF_AND_GREEN] {
            let losing = Rules {
                losing: true,
                ..rules
            };
            assert!(for_rules(&losing).is_none());
        }
        let mixed = Rules {
            long_kings: false,
            ..Rules::BUFF_AND_GREEN
        };
        assert!(for_rules(&mixed).is_none());
    }

    #[test]
    fn networks_round_trip_through_their_file_format() {
        for h1 in WIDTHS {
            let net = network(h1);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_len(h1));
            assert_eq!(bytes[10..12], (h1 as u16).to_le_bytes());
            assert_eq!(Network::parse(&bytes), Ok(net));
            assert_eq!(
                Network::parse(&bytes[..bytes.len() - 1]),
                Err(NetError::Length(file_len(h1) - 15, file_len(h1) - 14))
            );
        }
        assert_eq!((file_len(64), file_len(128)), (20_818, 41_426));
        assert_eq!(Network::parse(b"BGNN0002"), Err(NetError::Magic));
        // The other width's header over these weights is the wrong length, not a network.
        let mut other = network(64).to_bytes();
        other[10] = 128;
        assert_eq!(
            Network::parse(&other),
            Err(NetError::Length(file_len(64) - 14, file_len(128) - 14))
        );
        // A width this build has no pass for is refused by its header, whatever follows.
        let mut wide = network(64).to_bytes();
        wide[10] = 96;
        let refused = Network::parse(&wide);
        assert_eq!(refused, Err(NetError::Shape(INPUTS, 96, H2)));
        assert_eq!(
            refused.unwrap_err().to_string(),
            "layer sizes 128x96x32, this build reads 128x64x32 or 128x128x32"
        );
        wide[10] = 200;
        assert_eq!(Network::parse(&wide), Err(NetError::Shape(INPUTS, 200, H2)));
    }

    #[test]
    fn every_width_evaluates_as_the_integer_pass_by_hand() {
        let positions = [
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16",
            "W:W29,30,K9:B25,K5",
            "B:W18,19,K1:B10,14,K32",
            "W:WK4:B28",
        ];
        for h1 in WIDTHS {
            let net = network(h1);
            let mut seen = Vec::new();
            for text in positions {
                let pos = fen::parse(text).unwrap();
                let mut inputs = [0u16; 32];
                let n = active(&pos, &mut inputs);
                let want = by_hand(&net, &inputs[..n]);
                assert_eq!(net.raw(&pos), want, "{h1} wide, {text}");
                seen.push(want);
            }
            // The weights make the positions differ, so the comparison above sees every layer.
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), positions.len(), "{h1} wide: {seen:?}");
        }
        // The wide network reads all its units: its value is not the narrow one's.
        let pos = fen::parse(positions[0]).unwrap();
        assert_ne!(network(64).raw(&pos), network(128).raw(&pos));
    }

    #[test]
    fn inputs_see_the_board_from_the_side_to_move() {
        // The same position turned half round with the colours swapped is the same input.
        let pos = fen::parse("W:W29,30,K9:B25,K5").unwrap();
        let turned = fen::parse("B:W8,K28:B3,4,K24").unwrap();
        let (mut a, mut b) = ([0u16; 32], [0u16; 32]);
        let n = active(&pos, &mut a);
        assert_eq!(n, active(&turned, &mut b));
        a[..n].sort_unstable();
        b[..n].sort_unstable();
        assert_eq!(a[..n], b[..n]);
        // White men on 29 and 30 are the mover's men on 4 and 3 (indices 3 and 2).
        assert_eq!(a[..n], [2, 3, 32 + 23, 64 + 7, 96 + 27]);
        let net = network(64);
        assert_eq!(net.raw(&pos), net.raw(&turned));
        assert_eq!(net.raw_inputs(&[5]), by_hand(&net, &[5]));
    }
}
