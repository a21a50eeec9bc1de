//! A game kept by a protocol client: the start position and the moves, checked and described
//! by the engine itself (`position` and `d`), never by a rules library of our own.
//!
//! What a page or a file says about a game reaches the engine only as text that
//! [`checked_fen`] and [`checked_move`] let through: a FEN or a move made of the characters
//! those forms use and nothing else, so that no field can carry a line break or a protocol
//! word; [`crate::engine::Engine::send`] refuses control characters once more, whatever the
//! line.

use std::time::{Duration, Instant};

use buffgreen_client::info::{bestmove, error_text};
use buffgreen_client::pdn;
use buffgreen_client::rules;
pub use buffgreen_client::rules::{start_fen, Notation};
pub use buffgreen_client::{Rules, START_FEN};

use crate::engine::{Engine, REPLY_TIMEOUT};
use crate::error::GuiError;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Black, on 1-12 at the start, moves first.
    Black,
    /// White, on 21-32 at the start.
    White,
}

impl Side {
    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// `Black` or `White`.
    pub fn title(self) -> &'static str {
        match self {
            Side::Black => "Black",
            Side::White => "White",
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

/// What the engine says about the position on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Canonical FEN (`d`'s `Fen:`).
    pub fen: String,
    /// Half-moves since the last capture or crowning (`Clock:`).
    pub clock: u32,
    /// `ongoing`, `black wins`, `white wins` or `draw` (`Result:`).
    pub result: String,
    /// The engine's reason of a finished game (`no move`, `80 half-moves`, `repetition`,
    /// `material rule`), `Result:`'s
    /// parentheses; empty while the game goes on or when the engine gives none.
    pub why: String,
    /// The side to move (`Turn:`).
    pub turn: Side,
    /// Every legal move in long numeric form (`d`'s `Moves:`), empty when the game is over.
    pub legal: Vec<String>,
}

impl Snapshot {
    /// Why the game ended, in words, or `None` while it goes on. The engine's reason decides
    /// (`Result: draw (80 half-moves)`); an engine that gives none is read by the rules.
    pub fn end_reason(&self, rules: &Rules) -> Option<String> {
        if self.result == "ongoing" {
            return None;
        }
        let mover = self.turn.title();
        let draw = self.result == "draw";
        Some(if draw {
            // The 8x8 family's draw rules (protocol.md, `d`), else the half-move rule.
            match self.why.as_str() {
                "repetition" => "the same position a third time with the same side to move".into(),
                "material rule" => "the rule set's move limit for these forces".into(),
                why => {
                    let n = why
                        .strip_suffix(" half-moves")
                        .and_then(|n| n.parse::<u32>().ok())
                        .unwrap_or(rules.draw_half_moves);
                    format!("{n} half-moves without a capture or a crowning")
                }
            }
        } else if rules.losing {
            format!("{mover} has no legal move and wins (losing checkers)")
        } else {
            format!("{mover} has no legal move")
        })
    }

    /// The PDN result from White's side: `2-0`, `0-2`, `1-1` or `*`.
    pub fn pdn_result(&self) -> &'static str {
        match self.result.as_str() {
            "white wins" => "2-0",
            "black wins" => "0-2",
            "draw" => "1-1",
            _ => "*",
        }
    }
}

/// A game: its rules, start, moves and how far along them the board stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The rules it is played under.
    pub rules: Rules,
    /// Its start position (canonical FEN).
    pub start: String,
    /// Every move entered, long numeric form; those after `ply` can be redone.
    pub moves: Vec<String>,
    /// How many of `moves` are on the board.
    pub ply: usize,
}

impl Record {
    /// A new game from `start` under `rules`.
    pub fn new(rules: Rules, start: String) -> Record {
        Record {
            rules,
            start,
            moves: Vec::new(),
            ply: 0,
        }
    }

    /// The `position` command for the board.
    pub fn position_command(&self) -> String {
        let mut s = format!("position fen {}", self.start);
        if self.ply > 0 {
            s.push_str(" moves ");
            s.push_str(&self.moves[..self.ply].join(" "));
        }
        s
    }

    /// The moves on the board.
    pub fn played(&self) -> &[String] {
        &self.moves[..self.ply]
    }

    /// The moves on the board as one PDN game of `event` between `[white, black]`, in the
    /// match runner's format (the front ends' games have no date, round or opening).
    pub fn pdn(
        &self,
        event: &str,
        [white, black]: [&str; 2],
        result: &str,
        time_control: String,
        termination: String,
    ) -> String {
        let header = pdn::Header {
            event,
            date: "????.??.??",
            round: 1,
            white,
            black,
            result,
            time_control,
            termination,
            opening: "none",
        };
        // Written as the rule set's own players read it: lidraughts writes Russian and
        // Brazilian games in squares a1-h8, the FEN included.
        let notation = self.rules.variant().notation();
        let moves: Vec<String> = self
            .played()
            .iter()
            .map(|mv| in_notation(mv, notation))
            .collect();
        pdn::write(
            &header,
            &self.rules,
            &fen_in_notation(&self.start, notation),
            &moves,
        )
    }
}

/// Sets the engine to `record` (its rules, then the position) and reads the position back.
/// Nothing is kept from a refused record: the error names what the engine refused.
pub fn describe(engine: &mut Engine, record: &Record) -> Result<Snapshot, GuiError> {
    let variant = record.rules.variant();
    let lines = if engine.has_option(rules::option::VARIANT) {
        rules::setoptions_with_variant(&record.rules)
    } else if variant.switches_name_it() {
        rules::setoptions(&record.rules)
    } else {
        // Its switches alone would play Buff and Green under the family's name.
        return Err(GuiError::Refused(format!(
            "the engine has no Variant option: it cannot play {}",
            variant.name()
        )));
    };
    for line in lines {
        engine.send(&line)?;
    }
    engine.send(&record.position_command())?;
    engine.send("d")?;
    let lines = engine.sync()?;
    if let Some(e) = lines.iter().find_map(|l| error_text(l)) {
        return Err(GuiError::Refused(e.to_string()));
    }
    let field = |name: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .ok_or_else(|| GuiError::Engine(format!("the engine's `d` has no '{name}' line")))
    };
    let fen = field("Fen:")?.to_string();
    let clock = field("Clock:")?
        .parse()
        .map_err(|_| GuiError::Engine("the engine's `d` has a bad Clock line".into()))?;
    // `black wins (no move)`: the result, then the reason in parentheses.
    let (result, why) = match field("Result:")?.split_once(" (") {
        Some((r, why)) => (r.to_string(), why.trim_end_matches(')').to_string()),
        None => (field("Result:")?.to_string(), String::new()),
    };
    let turn = match field("Turn:")? {
        "white" => Side::White,
        _ => Side::Black,
    };
    let legal = match field("Moves:") {
        _ if result != "ongoing" => Vec::new(),
        Ok("none") => Vec::new(),
        Ok(list) => list.split_whitespace().map(to_numeric).collect(),
        // An engine older than the `Moves:` line: its perft lists them.
        Err(_) => legal_moves(engine)?,
    };
    Ok(Snapshot {
        fen,
        clock,
        result,
        why,
        turn,
        legal,
    })
}

/// A FEN as the engine may be given it: at most 400 characters of the FEN's own alphabet
/// (turn and colour letters, `K`, numbers or algebraic squares, `,` `:` `-` `.` and spaces;
/// protocol.md, FEN), so no line break and no protocol word (`moves` would extend the
/// `position` command). The engine checks the position itself.
pub fn checked_fen(text: &str) -> Result<String, String> {
    let fen = text.trim();
    let ok = |c: char| {
        c.is_ascii_digit()
            || matches!(c, 'a'..='h' | 'A'..='H' | 'K' | 'W' | 'k' | 'w')
            || matches!(c, ',' | ':' | '-' | '.' | ' ')
    };
    if fen.is_empty() || fen.len() > 400 || !fen.chars().all(ok) {
        return Err(format!("not a FEN: '{}'", printable(fen)));
    }
    Ok(fen.to_string())
}

/// A move as the page or a file may give it: squares (numbers or algebraic) joined by `-`,
/// `x` or `:`, at most 200 characters ([`to_numeric`] writes it for the engine).
pub fn checked_move(text: &str) -> Result<String, String> {
    let mv = text.trim();
    let ok =
        |c: char| c.is_ascii_digit() || matches!(c, 'a'..='h' | 'A'..='H' | 'x' | 'X' | ':' | '-');
    if mv.is_empty() || mv.len() > 200 || !mv.chars().all(ok) {
        return Err(format!("not a move: '{}'", printable(mv)));
    }
    Ok(mv.to_string())
}

/// `text` for a message: control characters shown as `?`, at most 60 characters.
fn printable(text: &str) -> String {
    let mut s: String = text
        .chars()
        .take(60)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 60 {
        s.push_str("...");
    }
    s
}

/// The legal moves of the engine's current position: `go perft 1`, which divides by root
/// move (protocol.md: one `<move>: <n>` line each, then an empty line and `Nodes searched`).
fn legal_moves(engine: &mut Engine) -> Result<Vec<String>, GuiError> {
    engine.send("go perft 1")?;
    let deadline = Instant::now() + REPLY_TIMEOUT;
    let mut moves = Vec::new();
    loop {
        let line = engine.recv_until(deadline)?;
        if line.starts_with("Nodes searched:") {
            return Ok(moves);
        }
        if let Some(e) = error_text(&line) {
            return Err(GuiError::Engine(e.to_string()));
        }
        if let Some((mv, _)) = line.split_once(": ") {
            moves.push(mv.to_string());
        }
    }
}

/// Stops a running search and drops its lines up to its `bestmove`.
pub fn stop_search(engine: &mut Engine) -> Result<(), GuiError> {
    engine.send("stop")?;
    let deadline = Instant::now() + REPLY_TIMEOUT;
    loop {
        if bestmove(&engine.recv_until(deadline)?).is_some() {
            return Ok(());
        }
    }
}

/// The algebraic name of square `n` (1 is b8, 32 is g1).
pub fn algebraic(n: u8) -> String {
    let row = (n - 1) / 4;
    let col = (n - 1) % 4 * 2 + u8::from(row.is_multiple_of(2));
    format!("{}{}", (b'a' + col) as char, 8 - row)
}

/// The square number of an algebraic name, if it names a dark square.
fn square_of(name: &str) -> Option<u8> {
    let b = name.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let col = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let rank = b[1].checked_sub(b'0')?;
    if col > 7 || !(1..=8).contains(&rank) {
        return None;
    }
    let row = 8 - rank;
    if (row + col) % 2 == 0 {
        return None;
    }
    Some(row * 4 + col / 2 + 1)
}

/// A move written in algebraic squares, in numbers (`d6xb4` and `d6:b4` are `10x17`); a
/// numeric move as it is.
pub fn to_numeric(mv: &str) -> String {
    let sep = if mv.contains(['x', 'X', ':']) {
        "x"
    } else {
        "-"
    };
    mv.split(['x', 'X', ':', '-'])
        .map(|sq| square_of(sq).map_or_else(|| sq.to_string(), |n| n.to_string()))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A long numeric move in algebraic squares.
pub fn to_algebraic(mv: &str) -> String {
    let sep = if mv.contains('x') { "x" } else { "-" };
    mv.split(['x', '-'])
        .map(|sq| sq.parse().map_or_else(|_| sq.to_string(), algebraic))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A long numeric move as `notation` writes it: as it is in numbers, in squares a1-h8 with
/// `:` between a capture's landings in algebraic notation (`22x15` is `c3:e5`).
pub fn in_notation(mv: &str, notation: Notation) -> String {
    match notation {
        Notation::Numeric => mv.to_string(),
        Notation::Algebraic => {
            to_algebraic(mv).replace('x', &notation.capture_separator().to_string())
        }
    }
}

/// A FEN in square numbers (`W:W21,K22:B1-3`) as `notation` writes it: as it is in numbers,
/// each square by its name a1-h8 in algebraic notation (`W:Wc3,Ke3:Bb8,d8,f8`). A field that
/// names no square is kept as it is, so the engine still says what is wrong with it.
pub fn fen_in_notation(fen: &str, notation: Notation) -> String {
    if notation == Notation::Numeric {
        return fen.to_string();
    }
    let square = |token: &str| -> Option<String> {
        let (king, number) = match token.strip_prefix('K') {
            Some(rest) => ("K", rest),
            None => ("", token),
        };
        let named = |n: &str| {
            n.parse::<u8>()
                .ok()
                .filter(|n| (1..=32).contains(n))
                .map(|n| format!("{king}{}", algebraic(n)))
        };
        match number.split_once('-') {
            // A range of squares names each of them.
            Some((a, b)) => {
                let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
                if !(1..=32).contains(&a) || !(a..=32).contains(&b) {
                    return None;
                }
                Some(
                    (a..=b)
                        .map(|n| format!("{king}{}", algebraic(n)))
                        .collect::<Vec<_>>()
                        .join(","),
                )
            }
            None => named(number),
        }
    };
    fen.split(':')
        .map(|field| match field.chars().next() {
            Some(colour @ ('W' | 'B')) if field.len() > 1 => {
                let squares: Vec<String> = field[1..]
                    .split(',')
                    .map(|t| square(t.trim()).unwrap_or_else(|| t.to_string()))
                    .collect();
                format!("{colour}{}", squares.join(","))
            }
            _ => field.to_string(),
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// The legal move meant by `typed` (long form or a capture's two ends, numbers or algebraic),
/// or why none is.
pub fn resolve(typed: &str, legal: &[String]) -> Result<String, String> {
    let mv = to_numeric(typed.trim());
    if legal.contains(&mv) {
        return Ok(mv);
    }
    fn ends(m: &str) -> (Option<&str>, Option<&str>) {
        (m.split(['x', '-']).next(), m.split(['x', '-']).next_back())
    }
    let candidates: Vec<&String> = if mv.contains('x') {
        legal
            .iter()
            .filter(|m| m.contains('x') && ends(m) == ends(&mv))
            .collect()
    } else {
        Vec::new()
    };
    match candidates.as_slice() {
        [one] => Ok((*one).clone()),
        [] if legal.is_empty() => Err("the game is over".to_string()),
        [] => Err(format!(
            "illegal move '{}'; legal moves: {}",
            typed.trim(),
            legal.join(" ")
        )),
        many => Err(format!(
            "ambiguous move '{}': it matches {}",
            typed.trim(),
            many.iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

/// A search limit for the engine's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
    /// `UCI_LimitStrength` at `UCI_Elo`, searched as `go movetime 1000` (the level caps the
    /// iterations itself).
    Elo(u32),
}

impl Level {
    /// The options this level needs before the search.
    pub fn setoptions(&self) -> Vec<String> {
        match self {
            Level::Elo(elo) => vec![
                "setoption name UCI_LimitStrength value true".to_string(),
                format!("setoption name UCI_Elo value {elo}"),
            ],
            _ => vec!["setoption name UCI_LimitStrength value false".to_string()],
        }
    }

    /// The `go` parameters without a clock.
    pub fn go_params(&self) -> String {
        match self {
            Level::Nodes(n) => format!("nodes {n}"),
            Level::Movetime(ms) => format!("movetime {ms}"),
            Level::Elo(_) => "movetime 1000".to_string(),
        }
    }
}

/// Waits for a finite search's `bestmove`, passing its `info` lines to `on_info`.
pub fn wait_bestmove(
    engine: &mut Engine,
    limit: Duration,
    mut on_info: impl FnMut(&str),
) -> Result<String, GuiError> {
    let deadline = Instant::now() + limit;
    loop {
        let line = engine.recv_until(deadline)?;
        if let Some(mv) = bestmove(&line) {
            return Ok(if mv.is_empty() { "none" } else { mv }.to_string());
        }
        if let Some(e) = error_text(&line) {
            return Err(GuiError::Engine(e.to_string()));
        }
        on_info(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_says_which_rule_drew_it() {
        let snap = |why: &str| Snapshot {
            fen: "W:WK1:BK32".into(),
            clock: 8,
            result: "draw".into(),
            why: why.into(),
            turn: Side::White,
            legal: Vec::new(),
        };
        let rules = Rules::default();
        let reason = |why: &str| snap(why).end_reason(&rules).expect("over");
        assert_eq!(
            reason("repetition"),
            "the same position a third time with the same side to move"
        );
        assert_eq!(
            reason("material rule"),
            "the rule set's move limit for these forces"
        );
        assert_eq!(
            reason("4 half-moves"),
            "4 half-moves without a capture or a crowning"
        );
    }

    #[test]
    fn squares_and_moves_convert_both_ways() {
        assert_eq!(algebraic(1), "b8");
        assert_eq!(algebraic(10), "d6");
        assert_eq!(algebraic(14), "c5");
        assert_eq!(algebraic(29), "a1");
        assert_eq!(algebraic(32), "g1");
        for n in 1..=32 {
            assert_eq!(square_of(&algebraic(n)), Some(n));
        }
        assert_eq!(square_of("a8"), None);
        assert_eq!(to_numeric("D6XB4XD2"), "10x17x26");
        assert_eq!(to_algebraic("10x17x26"), "d6xb4xd2");
        assert_eq!(to_algebraic("11-15"), "f6-e5");
        assert_eq!(in_notation("22x15", Notation::Algebraic), "c3:e5");
        assert_eq!(in_notation("22-18", Notation::Algebraic), "c3-d4");
        assert_eq!(in_notation("22x15", Notation::Numeric), "22x15");
        assert_eq!(to_numeric("c3:e5:g7"), "22x15x8");
        let russian = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        assert_eq!(
            fen_in_notation(russian, Notation::Algebraic),
            "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
        );
        assert_eq!(
            fen_in_notation("B:WK22,3-5:B33,K1", Notation::Algebraic),
            "B:WKc3,f8,h8,a7:B33,Kb8"
        );
        assert_eq!(fen_in_notation(russian, Notation::Numeric), russian);
    }

    #[test]
    fn a_russian_game_is_written_in_squares_a1_h8() {
        let rules = buffgreen_client::rules::Variant::Russian.rules();
        let mut record = Record::new(rules, start_fen(&rules));
        record.moves = ["22-18", "11-16", "18-15", "10x19", "24x15"]
            .map(String::from)
            .to_vec();
        record.ply = 5;
        let text = record.pdn("e", ["w", "b"], "*", "-".into(), "unterminated".into());
        assert!(
            text.contains("[FEN \"W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6\"]"),
            "{text}"
        );
        assert!(
            text.contains("\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n"),
            "{text}"
        );
        let game = &pdn::parse(&text).expect("reads back")[0];
        assert_eq!(game.moves, ["c3-d4", "f6-g5", "d4-e5", "d6:f4", "g3:e5"]);
    }

    #[test]
    fn typed_moves_resolve_against_the_legal_list() {
        let legal = vec!["9x18x27".to_string(), "11-15".to_string()];
        assert_eq!(resolve("9x27", &legal), Ok("9x18x27".to_string()));
        assert_eq!(resolve("f6-e5", &legal), Ok("11-15".to_string()));
        assert_eq!(
            resolve("11-16", &legal),
            Err("illegal move '11-16'; legal moves: 9x18x27 11-15".to_string())
        );
        let loop2 = vec!["26x17x10x19x26".to_string(), "26x19x10x17x26".to_string()];
        assert_eq!(
            resolve("26x26", &loop2),
            Err("ambiguous move '26x26': it matches 26x17x10x19x26 26x19x10x17x26".to_string())
        );
    }
}
