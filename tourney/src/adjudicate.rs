//! Adjudication by the engines' scores, as cutechess-cli does it (`-resign`, `-draw`).
//!
//! - `--resign movecount=N score=S [twosided=B]`: a side whose own score is at least `S`
//!   centipawns below zero after each of `N` consecutive moves of its own loses. With
//!   `twosided=true` the opponent must agree: its score was at least `S` above zero after each
//!   of its last `N` moves.
//! - `--draw movenumber=N movecount=M score=S`: the game is drawn once at least `N` full moves
//!   (pairs of plies, the opening's included) were played and the scores of both sides stayed
//!   within `S` centipawns of zero for `M` consecutive moves each (`2M` plies). A capture or a
//!   crowning (what restarts the draw rule's clock here, as captures and pawn moves do in
//!   chess for cutechess-cli) resets the count.
//!
//! A move that came with no score (the engine printed no `info ... score`) resets the counts
//! of its side and the draw count, as cutechess-cli does for moves it has no evaluation of. A
//! mate score counts as beyond any threshold, in its direction.

use super::error::TourneyError;
use buffgreen::types::Color;

/// What a `score mate N` counts as, in centipawns (less the distance, so nearer mates are
/// larger); beyond any threshold a user gives.
const MATE_CP: i64 = 1_000_000;

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreRules {
    /// `--resign`: moves, centipawns, two-sided.
    pub resign: Option<(u32, i64, bool)>,
    /// `--draw`: full move number, moves, centipawns.
    pub draw: Option<(u32, u32, i64)>,
}

impl ScoreRules {
    /// Parses the words of `--resign` and `--draw` (each empty when not given).
    pub fn parse(resign: &[String], draw: &[String]) -> Result<ScoreRules, TourneyError> {
        let mut rules = ScoreRules::default();
        if !resign.is_empty() {
            let f = fields("--resign", resign, &["movecount", "score", "twosided"])?;
            let twosided = match f.get("twosided") {
                None => false,
                Some(v) => match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("--resign", "twosided is true or false")),
                },
            };
            rules.resign = Some((
                count("--resign", &f, "movecount")?,
                centipawns("--resign", &f)?,
                twosided,
            ));
        }
        if !draw.is_empty() {
            let f = fields("--draw", draw, &["movenumber", "movecount", "score"])?;
            let movenumber = match f.get("movenumber") {
                None => 0,
                Some(v) => v
                    .parse()
                    .map_err(|_| bad("--draw", "movenumber is a number of moves"))?,
            };
            rules.draw = Some((
                movenumber,
                count("--draw", &f, "movecount")?,
                centipawns("--draw", &f)?,
            ));
        }
        Ok(rules)
    }

    /// True when neither is on.
    pub fn is_off(&self) -> bool {
        self.resign.is_none() && self.draw.is_none()
    }
}

fn bad(option: &str, why: &str) -> TourneyError {
    TourneyError::Config(format!("bad {option}: {why}"))
}

/// `key=value` words, keys from `allowed`, each at most once.
fn fields(
    option: &str,
    words: &[String],
    allowed: &[&str],
) -> Result<std::collections::BTreeMap<String, String>, TourneyError> {
    let mut map = std::collections::BTreeMap::new();
    for w in words.iter().flat_map(|w| w.split_whitespace()) {
        let Some((k, v)) = w.split_once('=') else {
            return Err(bad(option, &format!("'{w}' is not key=value")));
        };
        if !allowed.contains(&k) {
            return Err(bad(option, &format!("keys are {}", allowed.join(", "))));
        }
        if map.insert(k.to_string(), v.to_string()).is_some() {
            return Err(bad(option, &format!("{k} given twice")));
        }
    }
    Ok(map)
}

fn count(
    option: &str,
    f: &std::collections::BTreeMap<String, String>,
    key: &str,
) -> Result<u32, TourneyError> {
    f.get(key)
        .and_then(|v| v.parse().ok())
        .filter(|&n: &u32| n > 0)
        .ok_or_else(|| bad(option, &format!("{key}=N with N at least 1 is required")))
}

fn centipawns(
    option: &str,
    f: &std::collections::BTreeMap<String, String>,
) -> Result<i64, TourneyError> {
    f.get("score")
        .and_then(|v| v.parse().ok())
        .filter(|&n: &i64| (0..MATE_CP).contains(&n))
        .ok_or_else(|| bad(option, "score=S in centipawns (0 or more) is required"))
}

/// The score of an `info` line, in centipawns from the side to move's view (mate scores
/// mapped beyond any threshold); `None` for other lines.
pub fn info_score(line: &str) -> Option<i64> {
    let mut w = buffgreen_client::info::info_after(line, "score")?;
    let kind = w.next()?;
    let n: i64 = w.next()?.parse().ok()?;
    match kind {
        "cp" => Some(n),
        // `mate -3`: mated in 3; `mate 0` is mated now.
        "mate" if n > 0 => Some(MATE_CP - n),
        "mate" => Some(-MATE_CP - n),
        _ => None,
    }
}

/// A score of [`info_score`] written back as the `info` line gave it: `cp <X>` or
/// `mate <N>`.
pub fn score_text(score: i64) -> String {
    // Mate scores sit beyond any centipawn score an engine reports.
    let mates = MATE_CP / 2;
    if score > mates {
        format!("mate {}", MATE_CP - score)
    } else if score < -mates {
        format!("mate {}", -MATE_CP - score)
    } else {
        format!("cp {score}")
    }
}

/// Why score adjudication ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side resigned (it loses).
    Resign(Color),
    /// Drawn by both scores.
    Draw,
}

/// The running counts of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: ScoreRules,
    /// Per side: consecutive own moves scored at or below -S.
    losing: [u32; 2],
    /// Per side: consecutive own moves scored at or above S.
    winning: [u32; 2],
    /// Consecutive plies (both sides) scored within S of zero.
    drawish: u32,
}

impl Adjudicator {
    /// A fresh game under `rules`.
    pub fn new(rules: ScoreRules) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Counts the move `side` just played with its `score` (its own view); `plies` is the
    /// game's length now (opening included) and `reset` whether the move restarted the draw
    /// rule's clock. Returns the verdict if the game is adjudicated now.
    pub fn after_move(
        &mut self,
        side: Color,
        score: Option<i64>,
        plies: usize,
        reset: bool,
    ) -> Option<Verdict> {
        let me = side.index();
        let Some(s) = score else {
            self.losing[me] = 0;
            self.winning[me] = 0;
            self.drawish = 0;
            return None;
        };
        if let Some((number, moves, margin)) = self.rules.draw {
            self.drawish = if s.abs() <= margin && !reset {
                self.drawish + 1
            } else {
                0
            };
            if plies / 2 >= number as usize && self.drawish >= 2 * moves {
                return Some(Verdict::Draw);
            }
        }
        if let Some((moves, margin, twosided)) = self.rules.resign {
            let bump = |c: &mut u32, hit: bool| *c = if hit { *c + 1 } else { 0 };
            bump(&mut self.losing[me], s <= -margin);
            bump(&mut self.winning[me], s >= margin);
            if self.losing[me] >= moves && (!twosided || self.winning[1 - me] >= moves) {
                return Some(Verdict::Resign(side));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_like_cutechess() {
        let r = ScoreRules::parse(
            &words("movecount=3 score=400 twosided=true"),
            &words("movenumber=20 movecount=5 score=10"),
        )
        .unwrap();
        assert_eq!(r.resign, Some((3, 400, true)));
        assert_eq!(r.draw, Some((20, 5, 10)));
        assert!(ScoreRules::parse(&[], &[]).unwrap().is_off());
        for (resign, draw, msg) in [
            (
                "score=400",
                "",
                "bad --resign: movecount=N with N at least 1 is required",
            ),
            (
                "movecount=3",
                "",
                "bad --resign: score=S in centipawns (0 or more) is required",
            ),
            (
                "movecount=3 score=4 twosided=yes",
                "",
                "bad --resign: twosided is true or false",
            ),
            (
                "movecount=3 score=4 depth=2",
                "",
                "bad --resign: keys are movecount, score, twosided",
            ),
            (
                "",
                "movecount=0 score=5",
                "bad --draw: movecount=N with N at least 1 is required",
            ),
            (
                "",
                "movecount=2 movecount=3 score=5",
                "bad --draw: movecount given twice",
            ),
            (
                "",
                "movenumber=x movecount=2 score=5",
                "bad --draw: movenumber is a number of moves",
            ),
        ] {
            let e = ScoreRules::parse(&words(resign), &words(draw)).unwrap_err();
            assert_eq!(e.to_string(), msg);
        }
    }

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(info_score("info depth 3 score cp -35 nodes 9"), Some(-35));
        assert_eq!(
            info_score("info depth 3 score mate 2 pv 9-14"),
            Some(999_998)
        );
        assert_eq!(info_score("info depth 3 score mate -3"), Some(-999_997));
        assert_eq!(info_score("info string score cp 5"), None);
        assert_eq!(info_score("bestmove 9-14"), None);
        assert_eq!(info_score("info nodes 5"), None);
    }

    #[test]
    fn resign_needs_consecutive_moves_and_twosided_agreement() {
        let one = ScoreRules::parse(&words("movecount=2 score=300"), &[]).unwrap();
        let mut a = Adjudicator::new(one);
        let b = Color::Black;
        let w = Color::White;
        assert_eq!(a.after_move(b, Some(-300), 1, false), None);
        assert_eq!(a.after_move(w, Some(0), 2, false), None);
        // A better score in between restarts the count.
        assert_eq!(a.after_move(b, Some(-299), 3, false), None);
        assert_eq!(a.after_move(b, Some(-500), 5, false), None);
        assert_eq!(
            a.after_move(b, Some(-500), 7, false),
            Some(Verdict::Resign(b))
        );
        let two = ScoreRules::parse(&words("movecount=2 score=300 twosided=true"), &[]).unwrap();
        let mut a = Adjudicator::new(two);
        a.after_move(b, Some(-400), 1, false);
        a.after_move(w, Some(100), 2, false);
        assert_eq!(a.after_move(b, Some(-400), 3, false), None);
        a.after_move(w, Some(400), 4, false);
        a.after_move(b, Some(-400), 5, false);
        // White agrees for two moves now.
        assert_eq!(a.after_move(w, Some(400), 6, false), None);
        assert_eq!(
            a.after_move(b, Some(-400), 7, false),
            Some(Verdict::Resign(b))
        );
        // A move without a score restarts its side's count.
        let mut a = Adjudicator::new(one);
        a.after_move(w, Some(-400), 2, false);
        a.after_move(w, None, 4, false);
        assert_eq!(a.after_move(w, Some(-400), 6, false), None);
    }

    #[test]
    fn draw_waits_for_the_move_number_and_resets() {
        let r = ScoreRules::parse(&[], &words("movenumber=3 movecount=1 score=20")).unwrap();
        let mut a = Adjudicator::new(r);
        let (b, w) = (Color::Black, Color::White);
        assert_eq!(a.after_move(b, Some(5), 1, false), None);
        // Two plies in the window, but only one full move played.
        assert_eq!(a.after_move(w, Some(-20), 2, false), None);
        assert_eq!(a.after_move(b, Some(0), 3, false), None);
        assert_eq!(a.after_move(w, Some(0), 4, false), None);
        assert_eq!(a.after_move(b, Some(0), 5, false), None);
        assert_eq!(a.after_move(w, Some(0), 6, false), Some(Verdict::Draw));
        let mut a = Adjudicator::new(r);
        for p in 1..=6 {
            a.after_move(b, Some(0), p, false);
        }
        // A capture resets the count; a score outside the window too.
        assert_eq!(a.after_move(w, Some(0), 7, true), None);
        assert_eq!(a.after_move(b, Some(0), 8, false), None);
        assert_eq!(a.after_move(w, Some(21), 9, false), None);
        assert_eq!(a.after_move(b, Some(0), 10, false), None);
        assert_eq!(a.after_move(w, Some(0), 11, false), Some(Verdict::Draw));
    }
}
