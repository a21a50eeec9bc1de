//! PDN in the match runner's format (docs/match.md), written from a [`Record`] and read back
//! for import; `buffgreen match --verify-pdn` accepts what this writes.

use std::fmt::Write as _;

use crate::game::{Record, Rules, START_FEN};

/// What the PDN tags say besides the game.
#[derive(Clone, Debug)]
pub struct Header<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Date` as `YYYY.MM.DD`, or `????.??.??`.
    pub date: &'a str,
    /// `White`'s name.
    pub white: &'a str,
    /// `Black`'s name.
    pub black: &'a str,
    /// `2-0`, `0-2`, `1-1` or `*`.
    pub result: &'a str,
    /// `TimeControl`.
    pub time_control: &'a str,
    /// `Termination`: `normal: ...` for a game ended by the rules (the runner's form).
    pub termination: &'a str,
}

/// The `Rules` tag value, as the engine library writes rules.
fn rules_tag(rules: &Rules) -> String {
    let mut s = format!(
        "BackwardCapture={} LongKings={} DrawHalfMoves={}",
        rules.backward_capture, rules.long_kings, rules.draw_half_moves
    );
    if rules.losing {
        s.push_str(" Losing=true");
    }
    s
}

/// A tag value with the characters PDN readers split on replaced.
fn clean(v: &str) -> String {
    v.chars()
        .map(|c| match c {
            '"' => '\'',
            '\\' => '/',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// The moves on the board of `record` as one PDN game, ending with a blank line.
pub fn write(h: &Header<'_>, record: &Record) -> String {
    let rules = &record.rules;
    let english = !rules.backward_capture && !rules.long_kings;
    let played = record.played();
    let mut s = String::new();
    let tags = [
        ("Event", h.event.to_string()),
        ("Date", h.date.to_string()),
        ("Round", "1".to_string()),
        ("White", h.white.to_string()),
        ("Black", h.black.to_string()),
        ("Result", h.result.to_string()),
        (
            "GameType",
            if english { "21" } else { "32,B,8,8,N1,0" }.to_string(),
        ),
        ("Variant", rules.variant().to_string()),
        ("Rules", rules_tag(rules)),
        ("TimeControl", h.time_control.to_string()),
        ("Termination", h.termination.to_string()),
        ("PlyCount", played.len().to_string()),
        ("Opening", "none".to_string()),
        ("SetUp", "1".to_string()),
    ];
    for (name, value) in tags {
        let _ = writeln!(s, "[{name} \"{}\"]", clean(&value));
    }
    // The runner indents the FEN line of the standard start by a tab (pydraughts reads it
    // wrongly otherwise; see the runner's PDN notes).
    if record.start == START_FEN {
        s.push('\t');
    }
    let _ = writeln!(s, "[FEN \"{}\"]\n", record.start);
    let mut line = String::new();
    let tokens = played
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            if i % 2 == 0 {
                format!("{}. {mv}", i / 2 + 1)
            } else {
                mv.clone()
            }
        })
        .chain(std::iter::once(h.result.to_string()));
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// The first game of a PDN text: its rules, start FEN (`None`: the start position) and moves
/// as written. The engine checks the moves when the game is loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// From the `Rules` tag, else from `GameType` (21: English).
    pub rules: Rules,
    /// The `FEN` tag.
    pub fen: Option<String>,
    /// Move tokens in order.
    pub moves: Vec<String>,
}

/// Reads the first game of `text`. Comments `{...}`, `;` to the end of the line, variations
/// `(...)`, move numbers and `$n` annotations are skipped.
pub fn read(text: &str) -> Result<Imported, String> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut moves = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 => {
                if !moves.is_empty() {
                    break;
                }
                let inner: String = chars.by_ref().take_while(|&c| c != ']').collect();
                let (name, rest) = inner
                    .trim()
                    .split_once(char::is_whitespace)
                    .unwrap_or((&inner, ""));
                tags.push((name.to_string(), rest.trim().trim_matches('"').to_string()));
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            c => {
                let mut token = c.to_string();
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "{}();[".contains(n) {
                        break;
                    }
                    token.push(n);
                    chars.next();
                }
                if depth > 0 || token.starts_with('$') {
                    continue;
                }
                if ["2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"]
                    .contains(&token.as_str())
                {
                    break;
                }
                // `12.` (or `12...`) alone is a move number; `12.11-15` one glued to its move.
                let token = match token.rfind('.') {
                    Some(i)
                        if token[..i]
                            .trim_end_matches('.')
                            .bytes()
                            .all(|b| b.is_ascii_digit()) =>
                    {
                        &token[i + 1..]
                    }
                    _ => token.as_str(),
                };
                if !token.is_empty() {
                    moves.push(token.to_string());
                }
            }
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut rules = match tag("GameType").map(|g| g.split(',').next().unwrap_or("").trim()) {
        Some("21") => Rules {
            backward_capture: false,
            long_kings: false,
            ..Rules::default()
        },
        _ => Rules::default(),
    };
    if let Some(text) = tag("Rules") {
        for field in text.split_whitespace() {
            let bad = || format!("bad Rules field '{field}'");
            let (k, v) = field.split_once('=').ok_or_else(bad)?;
            let flag = || v.parse::<bool>().map_err(|_| bad());
            match k {
                "BackwardCapture" => rules.backward_capture = flag()?,
                "LongKings" => rules.long_kings = flag()?,
                "Losing" => rules.losing = flag()?,
                "DrawHalfMoves" => rules.draw_half_moves = v.parse().map_err(|_| bad())?,
                _ => return Err(format!("unknown Rules field '{field}'")),
            }
        }
    }
    if tags.is_empty() && moves.is_empty() {
        return Err("no game in the PDN text".to_string());
    }
    Ok(Imported {
        rules,
        fen: tag("FEN").map(str::to_string),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_games_read_back() {
        let mut r = Record::new(Rules::default(), START_FEN.to_string());
        r.moves = vec!["11-15".into(), "23-19".into(), "15x24".into()];
        r.ply = 3;
        let h = Header {
            event: "e",
            date: "2026.11.26",
            white: "w",
            black: "b",
            result: "*",
            time_control: "-",
            termination: "unterminated",
        };
        let text = write(&h, &r);
        assert!(text.contains("\t[FEN \""), "{text}");
        assert!(text.ends_with("1. 11-15 23-19 2. 15x24 *\n\n"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(back.rules, r.rules);
        assert_eq!(back.fen.as_deref(), Some(START_FEN));
        let en = read("[GameType \"21\"]\n1. 9-14 {hi} 22-18 (1... 23-19) 2.5-9 1-0").unwrap();
        assert_eq!(en.moves, ["9-14", "22-18", "5-9"]);
        assert!(!en.rules.long_kings);
    }
}
