//! `--json FILE`: the match as JSON Lines, for scripts. One object a line: a `"game"` record
//! per game in round order, then one `"summary"` record with the table's figures and the SPRT
//! state. Built with serde_json, which escapes names and formats numbers (an infinite Elo is
//! written as `null`).

use serde_json::{json, Value};

use super::referee::Played;
use super::schedule::{Job, Match};
use super::sprt::{elo_under, Decision, Model};
use super::summary::Summary;
use buffgreen::board::fen;

/// The record of one finished game.
pub(super) fn game(m: &Match, job: &Job, p: &Played, opening: &str) -> Value {
    let moves: Vec<String> = p.game.moves().map(|mv| mv.to_string()).collect();
    json!({
        "type": "game",
        "round": job.round,
        "pair": job.pair_no,
        "white": m.specs[job.white].name(),
        "black": m.specs[job.black].name(),
        "result": p.outcome.pdn(),
        "termination": p.termination.kind(),
        "reason": p.termination.describe(&m.cfg.rules),
        "opening": opening,
        "opening_plies": p.opening_plies,
        "rules": m.cfg.rules.to_string(),
        "fen": fen::write(p.game.start()),
        "moves": moves,
    })
}

/// A finite number, or `null` (JSON has no infinity).
fn num(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// The summary record: counts per pairing with Elo, error bar and LOS, terminations, and the
/// SPRT (parameters, LLR, bounds, decision: `"H1"`, `"H0"` or `null`).
pub(super) fn summary(m: &Match, s: &Summary) -> Value {
    let pairings: Vec<Value> = s
        .pairings
        .iter()
        .map(|&((i, j), t)| {
            // The table's figures: one function for both.
            let (elo, err) = elo_under(&t, m.sprt.as_ref().map(|sp| sp.model));
            json!({
                "first": m.specs[i].name(),
                "second": m.specs[j].name(),
                "wins": t.wins,
                "draws": t.draws,
                "losses": t.losses,
                "pairs": t.pairs,
                "score": t.score(),
                "elo": num(elo),
                "elo_error95": num(err),
                "los": t.los(),
            })
        })
        .collect();
    let sprt = m.sprt.as_ref().map(|sp| {
        let llr = s.pairings.first().map_or(0.0, |(_, t)| sp.llr(t));
        let (lower, upper) = sp.bounds();
        json!({
            "elo0": sp.elo0,
            "elo1": sp.elo1,
            "alpha": sp.alpha,
            "beta": sp.beta,
            "model": match sp.model {
                Model::Pentanomial => "pentanomial",
                Model::Trinomial => "trinomial",
            },
            "llr": llr,
            "lower": lower,
            "upper": upper,
            "decision": match s.decision {
                Some((Decision::H1, _)) => Some("H1"),
                Some((Decision::H0, _)) => Some("H0"),
                None => None,
            },
        })
    });
    json!({
        "type": "summary",
        "games": s.games,
        "scheduled": s.scheduled,
        "interrupted": s.interrupted,
        "engines": m.specs.iter().map(|e| e.name().to_string()).collect::<Vec<_>>(),
        "limit": m.limits_summary(),
        "rules": m.cfg.rules.to_string(),
        "pairings": pairings,
        "terminations": s.terminations,
        "sprt": sprt,
    })
}
