//! The text of every Hub reply: `id`, `param`, `info`, `done`, `error`.
//!
//! Lines go out through the same line-atomic [`crate::protocol::Output`] as the main
//! protocol. Every argument is `name=value`, quoted when the value holds a blank or is empty;
//! a double quote inside a value (which the Hub syntax cannot escape) becomes `'`, so a reply
//! always splits into its arguments the way pydraughts splits them.

use crate::board::option;
use crate::engine::{OptionKind, OptionSpec};
use crate::hub::notation::{Encoding, Numbering};
use crate::hub::{Choice, Variant};
use crate::protocol::output::{ENGINE_AUTHOR, ENGINE_NAME};
use crate::search::{Score, SearchInfo, SearchOutcome};
use crate::types::Move;

/// Most characters of an error message (it may repeat a huge input line).
const MAX_ERROR_CHARS: usize = 2000;

/// Largest score in men that is not a proven result: pydraughts reads a score above 90 men as
/// a win in `10000 - 100 * score` plies, as Scan reports them.
const MAX_MEN_CENTIS: i32 = 8999;

/// `name=value`, quoted when needed.
fn pair(name: &str, value: &str) -> String {
    let value = value.replace('"', "'");
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=') {
        format!("{name}=\"{value}\"")
    } else {
        format!("{name}={value}")
    }
}

/// An `enum` parameter line.
fn enum_param(name: &str, value: &str, values: &[&str]) -> String {
    format!(
        "param {} {} type=enum {}",
        pair("name", name),
        pair("value", value),
        pair("values", &values.join(" "))
    )
}

/// The reply to `hub`, up to and including `wait`: `id`, the `variant` and `pos-encoding`
/// parameters, then one `param` line per engine option except the two rules switches, which
/// `variant` sets.
pub fn hub_lines(options: &[OptionSpec], variant: Variant, encoding: Encoding) -> Vec<String> {
    let mut v = vec![format!(
        "id {} {} {}",
        pair("name", ENGINE_NAME),
        pair("version", env!("CARGO_PKG_VERSION")),
        pair("author", ENGINE_AUTHOR)
    )];
    v.push(enum_param("variant", variant.word(), &Variant::words()));
    v.push(enum_param(
        "pos-encoding",
        encoding.word(),
        &Encoding::words(),
    ));
    for spec in options.iter().filter(|s| !is_variant_option(s)) {
        // The Hub protocol has no button type: a button option (Clear Hash) is not offered;
        // it fixes its own move notation, so `Notation` (the only combo) is not offered either.
        v.push(match spec.kind {
            OptionKind::Button | OptionKind::Combo { .. } => continue,
            OptionKind::Check { default } => format!(
                "param {} {} type=bool",
                pair("name", spec.name),
                pair("value", &default.to_string())
            ),
            OptionKind::Spin { default, min, max } => format!(
                "param {} {} type=int min={min} max={max}",
                pair("name", spec.name),
                pair("value", &default.to_string())
            ),
            OptionKind::String { default } => format!(
                "param {} {} type=string",
                pair("name", spec.name),
                pair("value", default)
            ),
        });
    }
    v.push("wait".to_string());
    v
}

/// True for the options that `variant` sets (`Variant`, `BackwardCapture`, `LongKings`).
pub fn is_variant_option(spec: &OptionSpec) -> bool {
    [
        option::VARIANT,
        option::BACKWARD_CAPTURE,
        option::LONG_KINGS,
    ]
    .iter()
    .any(|n| spec.name.eq_ignore_ascii_case(n))
}

/// A score in men with two decimals, Scan's way: a proven win in `p` plies is
/// `100 - p / 100` (99.97 wins in 3 plies), a proven loss its negative.
pub fn score_men(score: Score) -> String {
    let centis = match score {
        Score::Cp(cp) => cp.clamp(-MAX_MEN_CENTIS, MAX_MEN_CENTIS),
        // `n` of the winner's own moves are `2n - 1` plies; a loss in `n` moves is `2n`.
        Score::Mate(n) if n > 0 => 10_000 - (2 * n - 1).min(999),
        Score::Mate(n) => -(10_000 - (2 * n.saturating_neg()).min(999)),
    };
    let sign = if centis < 0 { "-" } else { "" };
    let a = centis.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// `info depth=.. mean-depth=.. score=.. nodes=.. time=.. nps=.. [pv=".."]`: `depth` is the
/// deepest line of the tree, `mean-depth` its average depth, `score` in men, `time` in
/// seconds, `nps` in millions of iterations per second (as Scan's MNPS), the pv in Hub
/// notation of `numbering`.
pub fn info_line(info: &SearchInfo, numbering: Numbering) -> String {
    let mut s = format!(
        "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={:.3}",
        info.seldepth,
        info.depth,
        score_men(info.score),
        info.nodes,
        info.time.as_secs_f64(),
        info.nps as f64 / 1e6
    );
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(|m| numbering.write_move(*m)).collect();
        s.push(' ');
        s.push_str(&pair("pv", &pv.join(" ")));
    }
    s
}

/// The `info` line of a book move: no search (depth, nodes and time 0), the book's score and
/// the move as the line (Hub has no free-text info), in the notation of `numbering`.
pub fn book_line(mv: Move, score: i32, numbering: Numbering) -> String {
    format!(
        "info depth=0 mean-depth=0 score={} nodes=0 time=0.000 nps=0.000 {}",
        score_men(Score::Cp(score)),
        pair("pv", &numbering.write_move(mv))
    )
}

/// `done move=.. [ponder=..]` in the notation of `numbering`, or a bare `done` when there is
/// no legal move.
pub fn done_line(outcome: &SearchOutcome, numbering: Numbering) -> String {
    let text = |m| numbering.write_move(m);
    match (outcome.best, outcome.ponder) {
        (None, _) => "done".to_string(),
        (Some(b), None) => format!("done move={}", text(b)),
        (Some(b), Some(p)) => format!("done move={} ponder={}", text(b), text(p)),
    }
}

/// `error message="<what>"`, shortened if very long.
pub fn error_line(what: &dyn std::fmt::Display) -> String {
    let mut msg = what.to_string();
    if let Some((cut, _)) = msg.char_indices().nth(MAX_ERROR_CHARS) {
        msg.truncate(cut);
        msg.push_str("...");
    }
    // Always quoted, as the specification writes it.
    format!("error message=\"{}\"", msg.replace('"', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::output::tests::{mv, sample_info};

    fn english() -> Numbering {
        Numbering::new(Encoding::Pydraughts, Variant::English)
    }

    #[test]
    fn handshake_lines() {
        let lines = hub_lines(
            &crate::engine::option_table(),
            Variant::English,
            Encoding::Pydraughts,
        );
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            lines[0],
            format!("id name=buffgreen version={version} author=\"the buffgreen developers\"")
        );
        assert_eq!(
            lines[1],
            "param name=variant value=english type=enum values=\"english buffgreen russian brazilian\""
        );
        assert_eq!(
            lines[2],
            "param name=pos-encoding value=pydraughts type=enum values=\"pydraughts standard\""
        );
        assert!(lines.contains(&"param name=Hash value=64 type=int min=1 max=4096".to_string()));
        assert!(lines.contains(&"param name=Ponder value=false type=bool".to_string()));
        assert!(!lines.iter().any(|l| l.contains("LongKings")));
        assert_eq!(lines.last().map(String::as_str), Some("wait"));
    }

    #[test]
    fn scores_in_men() {
        assert_eq!(score_men(Score::Cp(12)), "0.12");
        assert_eq!(score_men(Score::Cp(-5)), "-0.05");
        assert_eq!(score_men(Score::Cp(-250)), "-2.50");
        assert_eq!(score_men(Score::Cp(20_000)), "89.99");
        assert_eq!(score_men(Score::Mate(2)), "99.97");
        assert_eq!(score_men(Score::Mate(-1)), "-99.98");
    }

    #[test]
    fn info_and_done() {
        let info = sample_info(1);
        assert_eq!(
            info_line(&info, english()),
            "info depth=19 mean-depth=7 score=-0.35 nodes=123456 time=246.912 nps=0.500 \
             pv=\"11-15 9-13\""
        );
        let o = |best, ponder| SearchOutcome {
            best,
            ponder,
            nodes: 1,
        };
        assert_eq!(done_line(&o(None, None), english()), "done");
        assert_eq!(
            done_line(&o(Some(mv("11-15")), None), english()),
            "done move=11-15"
        );
        assert_eq!(
            done_line(&o(Some(mv("11-15")), Some(mv("9-13"))), english()),
            "done move=11-15 ponder=9-13"
        );
    }

    #[test]
    fn russian_moves_as_pydraughts_reads_them() {
        // buffgreen's 9-14, 11-15 and 10-14 are pydraughts' 21-18, 23-19 and 22-18: the rows
        // in reverse order.
        let russian = Numbering::new(Encoding::Pydraughts, Variant::Russian);
        let o = SearchOutcome {
            best: Some(mv("9-14")),
            ponder: Some(mv("11-15")),
            nodes: 1,
        };
        assert_eq!(done_line(&o, russian), "done move=21-18 ponder=23-19");
        assert_eq!(
            book_line(mv("10-14"), 12, russian),
            "info depth=0 mean-depth=0 score=0.12 nodes=0 time=0.000 nps=0.000 pv=22-18"
        );
        let mut info = sample_info(1);
        info.pv = vec![mv("9-14"), mv("11-15")];
        assert_eq!(
            info_line(&info, russian),
            "info depth=19 mean-depth=7 score=-0.35 nodes=123456 time=246.912 nps=0.500 \
             pv=\"21-18 23-19\""
        );
    }

    #[test]
    fn errors_stay_one_parseable_line() {
        assert_eq!(error_line(&"bad \"pos\""), "error message=\"bad 'pos'\"");
        let long = error_line(&"x".repeat(5000));
        assert_eq!(long.len(), "error message=\"\"".len() + 2003);
    }
}
