//! The PDN writer: one game's tags and movetext, as the match runner and the front ends write
//! them (the module notes of [`crate::pdn`]).

use std::fmt::Write as _;

use crate::rules::Rules;
use crate::START_FEN;

/// What the tags say besides the game itself.
#[derive(Clone, Debug)]
pub struct Header<'a> {
    /// Event name.
    pub event: &'a str,
    /// Date as `YYYY.MM.DD`.
    pub date: &'a str,
    /// Round (1-based game number).
    pub round: usize,
    /// White's engine name.
    pub white: &'a str,
    /// Black's engine name.
    pub black: &'a str,
    /// `2-0`, `0-2` or `1-1`.
    pub result: &'a str,
    /// The `TimeControl` value.
    pub time_control: String,
    /// The `Termination` value.
    pub termination: String,
    /// The opening's label.
    pub opening: &'a str,
}

/// What a tag holds of `v` when read back: `v` with each control character (a line break
/// would end the tag) as a space. Compare read tags with this, not with `v`.
pub fn tag_value(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `v` as a PDN tag value between its quotes: [`tag_value`] with `"` and `\` escaped by a
/// backslash, as PDN has it.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in tag_value(v).chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One game as PDN text, ending with a blank line: its tags (see the module notes), then
/// `moves` (long numeric form) from `start` (a FEN) numbered per pair of plies, then the result.
pub fn write(h: &Header<'_>, rules: &Rules, start: &str, moves: &[String]) -> String {
    let mut s = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(s, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", h.event);
    tag("Date", h.date);
    tag("Round", &h.round.to_string());
    tag("White", h.white);
    tag("Black", h.black);
    tag("Result", h.result);
    tag("GameType", rules.variant().game_type());
    tag("Variant", rules.variant().name());
    tag("Rules", &rules.to_string());
    tag("TimeControl", &h.time_control);
    tag("Termination", &h.termination);
    tag("PlyCount", &moves.len().to_string());
    tag("Opening", h.opening);
    tag("SetUp", "1");
    if start == START_FEN {
        // Hidden from pydraughts (see the module notes); last, so that no tag follows it.
        s.push('\t');
    }
    let _ = writeln!(s, "[FEN \"{start}\"]");
    s.push('\n');
    // Movetext in lines of at most about 80 characters.
    let mut line = String::new();
    let mut push = |token: String, s: &mut String| {
        if !line.is_empty() && line.len() + 1 + token.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    };
    for (i, mv) in moves.iter().enumerate() {
        // A move number stays on the line of its move.
        let token = if i % 2 == 0 {
            format!("{}. {mv}", i / 2 + 1)
        } else {
            mv.clone()
        };
        push(token, &mut s);
    }
    push(h.result.to_string(), &mut s);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::parse;

    #[test]
    fn written_games_read_back() {
        let h = Header {
            event: "e",
            date: "2026.11.26",
            round: 1,
            white: "w \"q\" \\",
            black: "b\nx",
            result: "*",
            time_control: "-".into(),
            termination: "unterminated".into(),
            opening: "none",
        };
        let moves = ["11-15".to_string(), "23-19".into(), "15x24".into()];
        let text = write(&h, &Rules::ENGLISH, START_FEN, &moves);
        assert!(
            text.contains("[White \"w \\\"q\\\" \\\\\"]\n[Black \"b x\"]\n"),
            "{text}"
        );
        assert!(
            text.contains("[GameType \"21\"]\n[Variant \"English checkers\"]\n"),
            "{text}"
        );
        assert!(text.contains("\t[FEN \""), "{text}");
        assert!(text.ends_with("1. 11-15 23-19 2. 15x24 *\n\n"), "{text}");
        let back = &parse(&text).unwrap()[0];
        assert_eq!(back.moves, moves);
        assert_eq!(back.rules(), Ok(Rules::ENGLISH));
        assert_eq!(back.tag("White"), Some(tag_value(h.white).as_str()));
        assert_eq!(back.tag("Black"), Some("b x"));
        assert_eq!(back.start_fen().as_deref(), Some(START_FEN));
        let other = write(&h, &Rules::BUFF_AND_GREEN, "W:W18,K30:BK3,14", &[]);
        assert!(
            other.contains("[SetUp \"1\"]\n[FEN \"W:W18,K30:BK3,14\"]\n\n*\n\n"),
            "{other}"
        );
    }
}
