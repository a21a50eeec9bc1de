//! PDN: the writer for finished games and a small reader that replays games with the library.
//!
//! Written games follow PDN so that both Python draughts libraries read them back move by move
//! (scripts/pdn_interop.sh checks pydraughts 0.6.7 and py-draughts 1.10.1, docs/match.md says
//! why each choice):
//! - tags `[Name "value"]`, one a line: Event, Date, Round, White, Black, Result, GameType,
//!   Variant, Rules, TimeControl, Termination, PlyCount, Opening, then SetUp and FEN;
//! - Result is White's score first, draughts-style: `2-0` White won, `0-2` Black won, `1-1`
//!   draw (the reader also takes `1-0`, `0-1`, `1/2-1/2`);
//! - GameType `21` (English checkers) when both rule switches are off; otherwise
//!   `32,B,8,8,N1,0`: the first number PDN 3.0 leaves free for new draughts games, then the
//!   board as English checkers has it (Black first, 8x8, numbers from the top-left corner). Not
//!   `23` (American pool checkers), which py-draughts writes for its American checkers, that is
//!   English checkers: a reader could not tell the two apart. The `Variant` tag names the rules
//!   in words and the `Rules` tag (`BackwardCapture=.. LongKings=.. DrawHalfMoves=..`) is exact;
//!   this reader uses `Rules`;
//! - every game has a FEN tag, since py-draughts' American board otherwise lets the side on
//!   21-32 move first. From the standard start (Black to move) the FEN line is indented by a
//!   tab: pydraughts 0.6.7 reads tags only from lines that begin with `[`, and a FEN with Black
//!   to move makes it read the first move twice; without the tag it starts from the standard
//!   position, which is right. Other starts get a plain FEN line;
//! - movetext numbered per pair of plies from the start position (`1. 11-15 23-19 2. ...`),
//!   captures in long form (`9x18x27`), then the result. Games from an openings file given as
//!   moves start from the standard position, the opening moves included.

use std::fmt::Write as _;

use super::error::TourneyError;
use buffgreen::board::{fen, Game, Position, Rules};

/// What the writer needs besides the game itself.
#[derive(Clone, Debug)]
pub struct GameHeader<'a> {
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

/// The `Rules` tag value for `rules`.
pub fn rules_tag(rules: &Rules) -> String {
    rules.to_string()
}

/// The `GameType` value for `rules` (see the module notes).
pub fn game_type(rules: &Rules) -> &'static str {
    if is_english(rules) {
        "21"
    } else {
        "32,B,8,8,N1,0"
    }
}

/// The `Variant` value for `rules`: the rules in words.
pub fn variant(rules: &Rules) -> &'static str {
    match (rules.backward_capture, rules.long_kings) {
        (false, false) => "English checkers",
        (true, true) => "Buff and Green checkers",
        (true, false) => "Buff and Green checkers, short kings",
        (false, true) => "Buff and Green checkers, men capture forward only",
    }
}

fn is_english(rules: &Rules) -> bool {
    !rules.backward_capture && !rules.long_kings
}

/// A tag value with the characters PDN readers split on made harmless.
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

/// One game as PDN text, ending with a blank line.
pub fn write_game(h: &GameHeader<'_>, game: &Game) -> String {
    let mut s = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(s, "[{name} \"{}\"]", clean(value));
    };
    tag("Event", h.event);
    tag("Date", h.date);
    tag("Round", &h.round.to_string());
    tag("White", h.white);
    tag("Black", h.black);
    tag("Result", h.result);
    tag("GameType", game_type(game.rules()));
    tag("Variant", variant(game.rules()));
    tag("Rules", &rules_tag(game.rules()));
    tag("TimeControl", &h.time_control);
    tag("Termination", &h.termination);
    tag("PlyCount", &game.moves().len().to_string());
    tag("Opening", h.opening);
    tag("SetUp", "1");
    let fen_tag = format!("[FEN \"{}\"]\n", fen::write(game.start()));
    if *game.start() == Position::startpos() {
        // Hidden from pydraughts (see the module notes); last, so that no tag follows it.
        s.push('\t');
    }
    s.push_str(&fen_tag);
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
    for (i, mv) in game.moves().enumerate() {
        // A move number stays on the line of its move.
        let token = if i % 2 == 0 {
            format!("{}. {mv}", i / 2 + 1)
        } else {
            mv.to_string()
        };
        push(token, &mut s);
    }
    push(h.result.to_string(), &mut s);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game as read from PDN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts in order, as written.
    pub moves: Vec<String>,
    /// The game termination marker (`2-0`, `0-2`, `1-1`, `1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "0-0", "*"];

/// A result in the draughts form this writer uses: `1-0` is `2-0`, `0-1` is `0-2` and
/// `1/2-1/2` is `1-1` (the chess form, which English checkers PDN and py-draughts write).
pub fn draughts_result(result: &str) -> &str {
    match result {
        "1-0" => "2-0",
        "0-1" => "0-2",
        "1/2-1/2" => "1-1",
        r => r,
    }
}

impl PdnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The rules of the game: the `Rules` tag if present, else English move rules for
    /// GameType 21 (and for py-draughts' GameType 23 "American checkers") and Buff and Green
    /// otherwise (80-half-move draw rule unless told).
    pub fn rules(&self, game_no: usize) -> Result<Rules, TourneyError> {
        let bad = |why: String| TourneyError::Pdn { game: game_no, why };
        let game_type = self
            .tag("GameType")
            .map(|g| g.split(',').next().unwrap_or("").trim());
        let mut rules = match (game_type, self.tag("Variant")) {
            (Some("21"), _) => Rules::ENGLISH,
            // py-draughts writes 23 for its American checkers, which are English checkers.
            (Some("23"), Some(v)) if v.eq_ignore_ascii_case("American checkers") => Rules::ENGLISH,
            _ => Rules::BUFF_AND_GREEN,
        };
        if let Some(text) = self.tag("Rules") {
            for field in text.split_whitespace() {
                let (k, v) = field
                    .split_once('=')
                    .ok_or_else(|| bad(format!("bad Rules field '{field}'")))?;
                let flag = || match v {
                    "true" => Ok(true),
                    "false" => Ok(false),
                    _ => Err(bad(format!("bad Rules value '{field}'"))),
                };
                match k {
                    "BackwardCapture" => rules.backward_capture = flag()?,
                    "LongKings" => rules.long_kings = flag()?,
                    "Losing" => rules.losing = flag()?,
                    "DrawHalfMoves" => {
                        rules.draw_half_moves = v
                            .parse()
                            .map_err(|_| bad(format!("bad Rules value '{field}'")))?
                    }
                    _ => return Err(bad(format!("unknown Rules field '{field}'"))),
                }
            }
        }
        Ok(rules)
    }

    /// Replays the game move by move with the library: every move must be legal.
    pub fn replay(&self, game_no: usize) -> Result<Game, TourneyError> {
        let bad = |why: String| TourneyError::Pdn { game: game_no, why };
        let rules = self.rules(game_no)?;
        let start = match self.tag("FEN") {
            Some(f) => fen::parse(f).map_err(|e| bad(format!("FEN: {e}")))?,
            None => Position::startpos(),
        };
        let mut game = Game::new(start, 0, rules);
        for (i, mv) in self.moves.iter().enumerate() {
            game.play_str(mv)
                .map_err(|e| bad(format!("ply {}: {mv}: {e}", i + 1)))?;
        }
        Ok(game)
    }
}

/// Reads every game of a PDN text. Comments `{...}`, `;` to end of line, variations `(...)`,
/// move numbers (`12.`, `12...`) and `$n` annotations are skipped; a result token or a new tag
/// section after movetext ends a game.
pub fn parse(text: &str) -> Result<Vec<PdnGame>, TourneyError> {
    let mut games = Vec::new();
    let mut cur = PdnGame::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let bad = |games: &Vec<PdnGame>, why: String| TourneyError::Pdn {
        game: games.len() + 1,
        why,
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '{' {
            i = skip_to(&chars, i, '}')?;
        } else if c == ';' || c == '%' {
            i = skip_to(&chars, i, '\n').unwrap_or(chars.len());
        } else if c == '(' {
            let mut depth = 0;
            while i < chars.len() {
                match chars[i] {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        } else if c == '[' {
            if !cur.moves.is_empty() || cur.result.is_some() {
                games.push(std::mem::take(&mut cur));
            }
            let (name, value, end) =
                read_tag(&chars, i).ok_or_else(|| bad(&games, "malformed tag".to_string()))?;
            cur.tags.push((name, value));
            i = end;
        } else {
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && !"{}[]();".contains(chars[i]) {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            if RESULTS.contains(&token.as_str()) {
                cur.result = Some(token);
                games.push(std::mem::take(&mut cur));
            } else if token.starts_with('$') {
                // A numeric annotation glyph.
            } else {
                // `12.` `12...` `12.11-15` all start with a move number.
                let body = match token.find('.') {
                    Some(dot) if token[..dot].chars().all(|d| d.is_ascii_digit()) => {
                        token[dot..].trim_start_matches('.')
                    }
                    _ => token.as_str(),
                };
                let body = body.trim_end_matches(['!', '?', '*']);
                if !body.is_empty() {
                    cur.moves.push(body.to_string());
                }
            }
        }
    }
    if !cur.moves.is_empty() || !cur.tags.is_empty() {
        games.push(cur);
    }
    Ok(games)
}

/// Reads `[Name "value"]` at `from`: name, unescaped value, and the index past the `]`.
fn read_tag(chars: &[char], from: usize) -> Option<(String, String, usize)> {
    let mut i = from + 1;
    let start = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    let name: String = chars[start..i].iter().collect();
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    if name.is_empty() || chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    let mut value = String::new();
    loop {
        match chars.get(i)? {
            '\\' => {
                value.push(*chars.get(i + 1)?);
                i += 2;
            }
            '"' => break,
            &c => {
                value.push(c);
                i += 1;
            }
        }
    }
    i += 1;
    while i < chars.len() && chars[i].is_whitespace() && chars[i] != '\n' {
        i += 1;
    }
    (chars.get(i) == Some(&']')).then(|| (name, value, i + 1))
}

/// The index just past the next `close` at or after `from + 1`.
fn skip_to(chars: &[char], from: usize, close: char) -> Result<usize, TourneyError> {
    chars[from + 1..]
        .iter()
        .position(|&c| c == close)
        .map(|p| from + 1 + p + 1)
        .ok_or(TourneyError::Pdn {
            game: 0,
            why: format!("missing '{close}'"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header<'a>(result: &'a str) -> GameHeader<'a> {
        GameHeader {
            event: "t",
            date: "2024.01.02",
            round: 3,
            white: "W \"q\"",
            black: "B",
            result,
            time_control: "nodes=1".into(),
            termination: "normal: White has no legal move".into(),
            opening: "11-15",
        }
    }

    #[test]
    fn writes_and_reads_back() {
        let mut g = Game::new(Position::startpos(), 0, Rules::ENGLISH);
        for m in [
            "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14",
        ] {
            g.play_str(m).unwrap();
        }
        let text = write_game(&header("1-1"), &g);
        assert!(text.starts_with(
            "[Event \"t\"]\n[Date \"2024.01.02\"]\n[Round \"3\"]\n[White \"W 'q'\"]\n"
        ));
        assert!(text.contains("[GameType \"21\"]\n[Variant \"English checkers\"]\n[Rules \"BackwardCapture=false LongKings=false DrawHalfMoves=80\"]\n"));
        // The standard start's FEN comes last, on a line indented by a tab.
        assert!(text.contains("[Opening \"11-15\"]\n[SetUp \"1\"]\n\t[FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n\n1. "));
        assert!(
            text.ends_with("\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-1\n\n")
        );
        let games = parse(&(text.clone() + &text)).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].result.as_deref(), Some("1-1"));
        let back = games[0].replay(1).unwrap();
        assert_eq!(back, g);
        // py-draughts' own header for American checkers.
        let theirs = "[GameType \"23\"]\n[Variant \"American checkers\"]\n[Result \"1-0\"]\n\
                      [FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n\
                      1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-0";
        let theirs = &parse(theirs).unwrap()[0];
        assert_eq!(theirs.rules(1).unwrap(), Rules::ENGLISH);
        assert_eq!(theirs.replay(1).unwrap(), g);
        assert_eq!(draughts_result("1-0"), "2-0");
        assert_eq!(draughts_result("0-1"), "0-2");
        assert_eq!(draughts_result("1/2-1/2"), "1-1");
    }

    #[test]
    fn fen_start_and_tolerant_reading() {
        let start = fen::parse("W:W18,K30:B14,K3").unwrap();
        let mut g = Game::new(start, 0, Rules::default());
        g.play_str("18x9").unwrap();
        let text = write_game(&header("2-0"), &g);
        assert!(
            text.contains("[GameType \"32,B,8,8,N1,0\"]\n[Variant \"Buff and Green checkers\"]\n")
        );
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"W:W18,K30:BK3,14\"]\n\n"));
        assert_eq!(parse(&text).unwrap()[0].replay(1).unwrap(), g);
        let loose = "[GameType \"21\"]\n{c} 1.11-15 (1... 23-18) 23-19 ; note\n2... 8-11! $1 *";
        let games = parse(loose).unwrap();
        assert_eq!(games[0].moves, ["11-15", "23-19", "8-11"]);
        assert_eq!(games[0].result.as_deref(), Some("*"));
        let err = parse("[GameType \"21\"]\n1. 11-17").unwrap()[0].replay(4);
        assert!(err
            .unwrap_err()
            .to_string()
            .starts_with("PDN game 4: ply 1: 11-17"));
        assert!(
            parse("[Event \"x\"]\n[Rules \"LongKings=maybe\"]\n1-0").unwrap()[0]
                .rules(1)
                .is_err()
        );
    }
}
