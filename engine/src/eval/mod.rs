//! A fast static evaluation for cut playouts: men and kings valued by square and game phase,
//! mobility, tempo and the patterns of [`knowledge`] (the parameters of [`weights`], fitted to
//! game outcomes under each rule set), mapped to a win probability by a logistic.
//!
//! Random playouts to the end of a checkers game are very noisy; stopping a playout after a
//! few plies and scoring the position with material is a much better estimate per unit of
//! time. The evaluation is table lookups and a few shifts and popcounts: no allocation, no
//! move generation.
//!
//! Layout: [`weights`] holds the parameters, [`knowledge`] the patterns, [`losing`] the
//! evaluation of losing checkers and [`net`] the learned network; this file is the hand-set
//! evaluation itself.

pub mod knowledge;
pub mod losing;
pub mod net;
pub mod weights;

use crate::board::{generate_moves, has_captures, MoveList, Position, Rules, WeightSet};
use crate::types::{Bitboard, Color, Direction};
use weights::{Tables, PHASE_PIECES};

/// The evaluation's unit: the hand-set man of the first stops (the fitted ones are worth
/// 40-360 by rules, square and phase).
pub const MAN: i32 = 100;
/// `drawish`: how much less an advantage of one or two pieces against a king is worth.
const DEAD_DRAW: i32 = 8;
/// `drawish`: how much less three against a lone king is worth.
const HARD_WIN: i32 = 2;
/// The evaluation difference (in man units x 100) that gives about 73% (logistic scale).
pub const LOGISTIC_SCALE: f64 = 120.0;

/// The parameter tables of `rules`: the weight set its rule set names.
#[inline]
fn tables_for(rules: &Rules) -> &'static Tables {
    match rules.variant().weights() {
        WeightSet::LongKings => &weights::LONG_TABLES,
        WeightSet::ShortKings => &weights::SHORT_TABLES,
    }
}

/// Free steps of `pieces` in `dirs`.
#[inline]
fn steps(pieces: Bitboard, empty: Bitboard, dirs: &[Direction]) -> i32 {
    dirs.iter()
        .map(|&d| (pieces.shift(d) & empty).count() as i32)
        .sum()
}

/// The sum of `table` over the padded bits of `pieces`.
#[inline]
fn sum(pieces: Bitboard, table: &[i32; 64]) -> i32 {
    let mut bits = pieces.bits();
    let mut total = 0;
    while bits != 0 {
        total += table[(bits.trailing_zeros() & 63) as usize];
        bits &= bits - 1;
    }
    total
}

/// One side's terms: `(square values packed by phase, untapered)`, in hundredths of a man.
#[inline]
fn side_terms(pos: &Position, color: Color, t: &Tables) -> (i32, i32) {
    let men = pos.men(color);
    let kings = pos.kings(color);
    let packed = sum(men, &t.man[color.index()]) + sum(kings, &t.king);
    let empty = pos.empty();
    let flat = t.man_mobility * steps(men, empty, &Direction::forward(color))
        + t.king_mobility * steps(kings, empty, &Direction::ALL);
    (packed, flat)
}

/// The static evaluation from the view of the side to move, in hundredths of a man: the
/// parameters of [`weights`] for these rules, tapered by the pieces on the board.
#[inline]
pub fn evaluate(pos: &Position, rules: &Rules) -> i32 {
    if rules.losing {
        return losing::evaluate(pos, rules);
    }
    handset(pos, rules)
}

/// The hand-written evaluation of normal checkers (the fitted parameters of [`weights`]): what
/// a network ([`net`]) is trained to correct.
#[inline]
pub fn handset(pos: &Position, rules: &Rules) -> i32 {
    let score = linear(pos, rules);
    drawish(pos, rules, pos.side_to_move(), score)
}

/// The terms of [`evaluate`], for showing (`eval`): each from the view of the side to move,
/// in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Men and kings valued by square, tapered by the game phase.
    pub squares: i32,
    /// Free steps of men and kings.
    pub mobility: i32,
    /// The side to move's bonus.
    pub tempo: i32,
    /// The patterns of [`knowledge`]: runaway men, trapped kings, back rows ...
    pub knowledge: i32,
    /// What `drawish` divides the sum by (1: material tells the truth).
    pub divisor: i32,
    /// The evaluation: the sum of the terms, divided by `divisor`.
    pub total: i32,
}

/// [`evaluate`] term by term.
pub fn terms(pos: &Position, rules: &Rules) -> Terms {
    let [squares, mobility, tempo, knowledge] = parts(pos, rules);
    let sum = squares + mobility + tempo + knowledge;
    let divisor = drawish_divisor(pos, rules, pos.side_to_move(), sum);
    Terms {
        squares,
        mobility,
        tempo,
        knowledge,
        divisor,
        total: sum / divisor,
    }
}

/// [`evaluate`] before `drawish`: the parameters' dot product with [`features`] (rounded
/// toward zero in the taper).
#[inline]
fn linear(pos: &Position, rules: &Rules) -> i32 {
    parts(pos, rules).iter().sum()
}

/// A packed middle-game and endgame value tapered by `phase` (pieces on the board, at most
/// [`PHASE_PIECES`]), rounded toward zero.
#[inline]
fn taper(packed: i32, phase: i32) -> i32 {
    let (mg, eg) = weights::unpack(packed);
    (mg * phase + eg * (PHASE_PIECES - phase)) / PHASE_PIECES
}

/// One side's [`knowledge`] terms: `(packed by phase, untapered)`.
#[inline]
fn side_knowledge(pos: &Position, color: Color, t: &Tables) -> (i32, i32) {
    let k = knowledge::side(pos, color);
    let caught = usize::from(pos.kings(!color).any());
    let flat =
        t.runaway[caught] * k.runaway + t.trapped_king * k.trapped_kings + t.dog_hole * k.dog_hole;
    (t.back_rank[k.back_rank], flat)
}

/// The trade-down feature: the piece difference from the side to move's view over the pieces
/// on the board, times [`PHASE_PIECES`]: `(numerator, denominator)`.
#[inline]
fn trade_down(pos: &Position) -> (i32, i32) {
    let me = pos.side_to_move();
    let (mine, theirs) = (
        pos.pieces(me).count() as i32,
        pos.pieces(!me).count() as i32,
    );
    ((mine - theirs) * PHASE_PIECES, (mine + theirs).max(1))
}

/// The terms of [`linear`]: square values (tapered), mobility, tempo and knowledge. The
/// knowledge term is what the patterns add to the rounded taper of the squares, so that the
/// four add up to the evaluation with the rounding of one taper.
#[inline]
fn parts(pos: &Position, rules: &Rules) -> [i32; 4] {
    let t = tables_for(rules);
    let me = pos.side_to_move();
    let (packed0, flat0) = side_terms(pos, me, t);
    let (packed1, flat1) = side_terms(pos, !me, t);
    let (kp0, kf0) = side_knowledge(pos, me, t);
    let (kp1, kf1) = side_knowledge(pos, !me, t);
    let phase = (pos.occupied().count() as i32).min(PHASE_PIECES);
    let squares = packed0 - packed1;
    let patterns = kp0 - kp1 + t.the_move * knowledge::the_move(pos);
    let tapered = taper(squares, phase);
    let all = taper(squares + patterns, phase);
    let (num, den) = trade_down(pos);
    let knowledge = all - tapered + kf0 - kf1
        + t.first_king * knowledge::first_king(pos)
        + t.trade_down * num / den;
    [tapered, flat0 - flat1, t.tempo, knowledge]
}

/// The features of `pos` for fitting the parameters, from the view of the side to move:
/// `(parameter index, count)` pairs whose dot product with the parameter vector is
/// [`evaluate`] before its roundings and before `drawish`. Repeated indices add up.
pub fn features(pos: &Position, out: &mut Vec<(usize, f64)>) {
    out.clear();
    let me = pos.side_to_move();
    let phase = (pos.occupied().count() as i32).min(PHASE_PIECES) as f64;
    let mg = phase / PHASE_PIECES as f64;
    let eg = 1.0 - mg;
    let empty = pos.empty();
    for (color, sign) in [(me, 1.0), (!me, -1.0)] {
        let men = pos.men(color);
        for sq in men {
            let i = weights::man_index(color, sq.index());
            out.push((weights::MAN_MG + i, sign * mg));
            out.push((weights::MAN_EG + i, sign * eg));
        }
        let kings = pos.kings(color);
        for sq in kings {
            let i = weights::king_index(sq.index());
            out.push((weights::KING_MG + i, sign * mg));
            out.push((weights::KING_EG + i, sign * eg));
        }
        let m = steps(men, empty, &Direction::forward(color));
        out.push((weights::MAN_MOBILITY, sign * m as f64));
        let k = steps(kings, empty, &Direction::ALL);
        out.push((weights::KING_MOBILITY, sign * k as f64));
        let know = knowledge::side(pos, color);
        let runaway = if pos.kings(!color).any() {
            weights::RUNAWAY_VS_KINGS
        } else {
            weights::RUNAWAY
        };
        out.push((runaway, sign * know.runaway as f64));
        out.push((weights::TRAPPED_KING, sign * know.trapped_kings as f64));
        out.push((weights::DOG_HOLE, sign * know.dog_hole as f64));
        out.push((weights::BACK_RANK + know.back_rank, sign * mg));
    }
    out.push((weights::TEMPO, 1.0));
    out.push((weights::FIRST_KING, knowledge::first_king(pos) as f64));
    out.push((weights::THE_MOVE, knowledge::the_move(pos) as f64 * eg));
    let (num, den) = trade_down(pos);
    out.push((weights::TRADE_DOWN, num as f64 / den as f64));
}

/// The divisor `drawish` applies to an evaluation of `pos` (from `me`'s view) of sign
/// `score` under `rules`: 1 when material tells the truth.
#[inline]
pub fn drawish_divisor(pos: &Position, rules: &Rules, me: Color, score: i32) -> i32 {
    let (strong, weak) = if score > 0 { (me, !me) } else { (!me, me) };
    if pos.kings(weak).is_empty() {
        return 1;
    }
    let strong_n = pos.pieces(strong).count();
    let weak_n = pos.pieces(weak).count();
    match (rules.long_kings, strong_n, weak_n) {
        (true, 0..=2, _) => DEAD_DRAW,
        (true, 3, 1) => HARD_WIN,
        // A short king holds a lone piece: neither one king nor one man wins against it.
        (false, 0..=1, _) => DEAD_DRAW,
        _ => 1,
    }
}

/// True when the material cannot win by force for either side ([`drawish_divisor`] rates it
/// a dead draw whichever side is ahead): the draw model of `wdl` and the search read it. Never
/// under `losing`, where what cannot be won by force in normal checkers says nothing.
pub fn dead_draw(pos: &Position, rules: &Rules) -> bool {
    if rules.losing {
        return false;
    }
    let me = pos.side_to_move();
    drawish_divisor(pos, rules, me, 1) == DEAD_DRAW
        && drawish_divisor(pos, rules, me, -1) == DEAD_DRAW
}

/// `score` (from `me`'s view) scaled down in endings that material overrates: with flying
/// kings, one or two pieces cannot win against a king (a lone flying king holds two kings),
/// and three against a lone king win only with exact technique. Without it the search sees a
/// king up in 2 v 1 as a near win: the stronger side trades down into dead draws and the
/// weaker side does not look for them. English kings do not fly: 2 v 1 wins there, but one
/// piece against a king still cannot (the square tables alone made king against king look
/// like a win of three men).
#[inline]
fn drawish(pos: &Position, rules: &Rules, me: Color, score: i32) -> i32 {
    score / drawish_divisor(pos, rules, me, score)
}

/// Capture plies [`quiescent`] looks ahead at most (the move lists a worker keeps for it).
pub const CAPTURE_LOOKAHEAD: usize = 4;

/// The static evaluation once pending captures are played out, from the view of the side to
/// move. Captures are forced, so a position whose side to move must capture is worth the best
/// of its captures for that side (there is no standing pat), not its material as it stands:
/// after a sacrifice or an exchange, [`evaluate`] alone is off by a man. Looks as many capture
/// plies ahead as `lists` has move lists (one each), then evaluates statically.
pub fn quiescent(pos: &Position, rules: &Rules, lists: &mut [MoveList]) -> i32 {
    quiescent_by(pos, rules, lists, &|p| evaluate(p, rules))
}

/// The value of a search leaf where the rules have a learned network ([`net::for_rules`]):
/// the hand-set evaluation plus the network's correction, once pending captures are played
/// out as in [`quiescent`]; `None` for rules without a network. A position of
/// [`net::ENDING_PIECES`] pieces or fewer takes the rule set's ending network's correction
/// where it has one ([`net::ending_for_rules`]). It costs more than [`evaluate`], so the
/// search spends it on leaves and orders moves by the hand-set one.
pub fn learned_leaf(pos: &Position, rules: &Rules, lists: &mut [MoveList]) -> Option<i32> {
    let main = net::for_rules(rules)?;
    let ending = net::ending_for_rules(rules);
    Some(quiescent_by(pos, rules, lists, &|p| {
        let net = match ending {
            Some(e) if p.occupied().count() <= net::ENDING_PIECES => e,
            _ => main,
        };
        evaluate(p, rules) + net.evaluate(p)
    }))
}

/// [`quiescent`] with `stand` as the static evaluation.
fn quiescent_by<F: Fn(&Position) -> i32>(
    pos: &Position,
    rules: &Rules,
    lists: &mut [MoveList],
    stand: &F,
) -> i32 {
    let Some((list, deeper)) = lists.split_first_mut() else {
        return stand(pos);
    };
    if !has_captures(pos, rules) {
        return stand(pos);
    }
    generate_moves(pos, rules, list);
    let mut best = None;
    for &mv in list.iter() {
        let mut after = *pos;
        after.play_unchecked(mv);
        let value = -quiescent_by(&after, rules, deeper, stand);
        best = Some(best.map_or(value, |b: i32| b.max(value)));
    }
    best.unwrap_or_else(|| stand(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    /// The parameter vector of `rules`.
    fn weights_for(rules: &Rules) -> &'static weights::Weights {
        if rules.long_kings {
            &weights::LONG
        } else {
            &weights::SHORT
        }
    }

    /// The features' dot product with the parameters, unrounded.
    fn dot(pos: &Position, rules: &Rules) -> f64 {
        let w = weights_for(rules);
        let mut f = Vec::new();
        features(pos, &mut f);
        f.iter().map(|&(i, x)| w[i] as f64 * x).sum()
    }

    #[test]
    fn the_start_position_is_level_but_for_the_tempo() {
        for rules in [Rules::default(), Rules::ENGLISH] {
            let tempo = weights_for(&rules)[weights::TEMPO];
            assert_eq!(evaluate(&Position::startpos(), &rules), tempo);
        }
    }

    #[test]
    fn the_evaluation_is_the_features_dot_product_with_the_parameters() {
        let fens = [
            "B:W29,30:B25,K5",
            "W:W18,19,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W9,K14,20,31:B1,3,K22,26",
            "W:WK5,K14,K19,K23:BK28,K32",
            "W:W13,17,21,25,29:B4,8,12,16,20",
        ];
        for text in fens {
            let pos = fen::parse(text).unwrap();
            for rules in [Rules::default(), Rules::ENGLISH] {
                for side in [Color::Black, Color::White] {
                    let p = pos.with_side_to_move(side);
                    let exact = dot(&p, &rules);
                    let got = linear(&p, &rules) as f64;
                    // Two roundings toward zero: the taper and the trade-down quotient.
                    assert!(
                        (got - exact).abs() < 2.0,
                        "{text} {side:?}: {got} vs {exact}"
                    );
                }
            }
        }
        // Colours mirror: the same position turned half round, colours swapped, is worth
        // the same to its side to move.
        let pos = fen::parse("W:W29,30:B25,K5").unwrap();
        let mirrored = fen::parse("B:W8,K28:B3,4").unwrap();
        for rules in [Rules::default(), Rules::ENGLISH] {
            assert_eq!(evaluate(&pos, &rules), evaluate(&mirrored, &rules));
        }
    }

    #[test]
    fn flying_king_endings_that_cannot_be_won_are_scaled_down() {
        let rules = Rules::default();
        // Two kings against one: a draw with flying kings, a win with English kings.
        let two_one = fen::parse("W:WK5,K14:BK28").unwrap();
        let full = linear(&two_one, &rules);
        assert!(full > 100);
        assert_eq!(evaluate(&two_one, &rules), full / DEAD_DRAW);
        assert_eq!(
            evaluate(&two_one, &Rules::ENGLISH),
            linear(&two_one, &Rules::ENGLISH)
        );
        // The same from the weaker side's view.
        let black = two_one.with_side_to_move(Color::Black);
        assert_eq!(evaluate(&black, &rules), linear(&black, &rules) / DEAD_DRAW);
        // Three against a lone king: halved. Against a man (no king yet): full value.
        let three_one = fen::parse("W:WK5,K14,K19:BK28").unwrap();
        assert_eq!(
            evaluate(&three_one, &rules),
            linear(&three_one, &rules) / HARD_WIN
        );
        let two_man = fen::parse("W:WK5,K14:B12").unwrap();
        assert_eq!(evaluate(&two_man, &rules), linear(&two_man, &rules));
        // Enough material on the board: untouched.
        let four_two = fen::parse("W:WK5,K14,K19,K23:BK28,K32").unwrap();
        assert_eq!(evaluate(&four_two, &rules), linear(&four_two, &rules));
        assert_eq!(
            drawish_divisor(&two_one, &rules, Color::White, 1),
            DEAD_DRAW
        );
        assert_eq!(drawish_divisor(&two_man, &rules, Color::White, 1), 1);
        // English kings: king against king is a dead draw, two kings against one are not.
        let english = Rules::ENGLISH;
        let kk = fen::parse("W:WK10:BK23").unwrap();
        assert!(dead_draw(&kk, &english) && dead_draw(&kk, &rules));
        assert_eq!(evaluate(&kk, &english), linear(&kk, &english) / DEAD_DRAW);
        assert!(!dead_draw(&two_one, &english) && dead_draw(&two_one, &rules));
        // Losing checkers knows no dead draws of material.
        let losing = Rules {
            losing: true,
            ..rules
        };
        assert!(!dead_draw(&kk, &losing) && !dead_draw(&two_one, &losing));
        let t = terms(&two_one, &rules);
        assert_eq!(t.total, evaluate(&two_one, &rules));
        assert_eq!(
            (t.squares + t.mobility + t.tempo + t.knowledge) / t.divisor,
            t.total
        );
    }

    #[test]
    fn quiescence_plays_out_forced_captures() {
        let rules = Rules::default();
        let mut lists: Vec<MoveList> = (0..CAPTURE_LOOKAHEAD).map(|_| MoveList::new()).collect();
        // Black must take both white men (14x23x32, crowning): as it stands the material is
        // two men to one against Black, after the capture White has nothing.
        let pos = fen::parse("B:W18,27:B14").unwrap();
        let after = fen::parse("W:W:BK32").unwrap();
        assert!(evaluate(&pos, &rules) < -MAN / 2);
        assert_eq!(
            quiescent(&pos, &rules, &mut lists),
            -evaluate(&after, &rules)
        );
        assert!(quiescent(&pos, &rules, &mut lists) > 2 * MAN);
        // Without lists (no lookahead) and without a capture it is the static evaluation.
        assert_eq!(quiescent(&pos, &rules, &mut []), evaluate(&pos, &rules));
        let quiet = Position::startpos();
        assert_eq!(
            quiescent(&quiet, &rules, &mut lists),
            evaluate(&quiet, &rules)
        );
        // White takes, then loses its man to the recapture (18x9, 5x14): worth the position
        // after both, with White to move.
        let exchange = fen::parse("W:W18:B5,14").unwrap();
        let end = fen::parse("W:W:B14").unwrap();
        assert!(evaluate(&exchange, &rules) < -MAN / 2);
        assert_eq!(
            quiescent(&exchange, &rules, &mut lists),
            evaluate(&end, &rules)
        );
        assert!(evaluate(&end, &rules) < -MAN / 2);
        // One ply ahead only: the capture is seen, the recapture is not (a man each, Black to
        // move in the position scored).
        let halfway = fen::parse("B:W9:B5").unwrap();
        assert_eq!(
            quiescent(&exchange, &rules, &mut lists[..1]),
            -evaluate(&halfway, &rules)
        );
    }

    #[test]
    fn english_endings_take_the_ending_network() {
        let rules = Rules::ENGLISH;
        let mut lists: Vec<MoveList> = (0..CAPTURE_LOOKAHEAD).map(|_| MoveList::new()).collect();
        let main = net::for_rules(&rules).expect("English network");
        let ending = net::ending_for_rules(&rules).expect("English ending network");
        assert!(!std::ptr::eq(main, ending));
        // Quiet positions (no capture for either side) of 6 and 7 pieces.
        let six = fen::parse("W:W21,22,23:B9,10,11").unwrap();
        let seven = fen::parse("W:W21,22,23,24:B9,10,11").unwrap();
        assert_eq!(
            learned_leaf(&six, &rules, &mut lists),
            Some(evaluate(&six, &rules) + ending.evaluate(&six))
        );
        assert_ne!(main.evaluate(&six), ending.evaluate(&six));
        assert_eq!(
            learned_leaf(&seven, &rules, &mut lists),
            Some(evaluate(&seven, &rules) + main.evaluate(&seven))
        );
        // A capture from 7 pieces down to 6 is valued where it lands: by the ending network.
        // (9x18, Black's only capture, and no capture after it.)
        let capture = fen::parse("B:W14,29,30,31:B1,2,9").unwrap();
        let landed = fen::parse("W:W29,30,31:B1,2,18").unwrap();
        assert_eq!(
            learned_leaf(&capture, &rules, &mut lists),
            Some(-(evaluate(&landed, &rules) + ending.evaluate(&landed)))
        );
        // Buff and Green has no ending network: its main one values every position.
        let bg = Rules::BUFF_AND_GREEN;
        let bg_net = net::for_rules(&bg).expect("Buff and Green network");
        assert!(net::ending_for_rules(&bg).is_none());
        assert_eq!(
            learned_leaf(&six, &bg, &mut lists),
            Some(evaluate(&six, &bg) + bg_net.evaluate(&six))
        );
    }
}
