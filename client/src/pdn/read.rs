//! The PDN reader: every game of a text with its tags, moves and result, each placed (line,
//! column), and one placed error for each game that does not read; nothing is replayed here
//! (the match runner replays games with the engine library, the front ends have the engine
//! check them).

use std::cell::Cell;

use nom::branch::alt;
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, digit1, multispace1, not_line_ending, one_of};
use nom::combinator::{recognize, value};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0_count, many1_count};
use nom::sequence::{pair, terminated};
use nom::IResult;
use thiserror::Error;

use crate::rules::{Rules, Variant};
use crate::{printable, START_FEN};

/// Where something stands in a PDN file: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

/// Why one game of a PDN file was refused: the file, the game's number in it, where, and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: PDN game {game}: {why}")]
pub struct PdnError {
    /// The file as given.
    pub file: String,
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub why: String,
}

/// A game as read from PDN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// The file it was read from (named in errors).
    pub file: String,
    /// 1-based number of the game in its file.
    pub number: usize,
    /// Where the game starts.
    pub place: Place,
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Where each tag starts.
    pub tag_places: Vec<Place>,
    /// Move texts in order, as written.
    pub moves: Vec<String>,
    /// Where each move stands.
    pub move_places: Vec<Place>,
    /// The game termination marker (`2-0`, `0-2`, `1-1`, `1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
    /// Where the termination marker stands.
    pub result_place: Place,
}

const RESULTS: [&str; 8] = ["1/2-1/2", "2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "*"];

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

/// py-draughts' `Variant` for its American checkers (English checkers on a board where the
/// side on squares 21-32, White, moves first).
const PY_DRAUGHTS_AMERICAN: &str = "American checkers";

impl PdnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// An error of this game at `at`.
    pub fn error_at(&self, at: Place, why: impl Into<String>) -> PdnError {
        PdnError {
            file: self.file.clone(),
            game: self.number,
            line: at.line,
            column: at.column,
            why: why.into(),
        }
    }

    /// An error of this game about tag `name`: at the tag, or at the game's start when it
    /// has no such tag.
    pub fn tag_error(&self, name: &str, why: impl Into<String>) -> PdnError {
        let at = self
            .tags
            .iter()
            .position(|(n, _)| n == name)
            .and_then(|i| self.tag_places.get(i).copied())
            .unwrap_or(self.place);
        self.error_at(at, why)
    }

    /// True for py-draughts' American checkers (GameType 23 with its Variant name).
    pub fn is_py_draughts_american(&self) -> bool {
        let game_type = self
            .tag("GameType")
            .map(|g| g.split(',').next().unwrap_or("").trim());
        game_type == Some("23")
            && self
                .tag("Variant")
                .is_some_and(|v| v.eq_ignore_ascii_case(PY_DRAUGHTS_AMERICAN))
    }

    /// The rules of the game: the `Rules` tag if present, else English move rules for
    /// GameType 21 (and for py-draughts' GameType 23 "American checkers") and Buff and Green
    /// otherwise (80-half-move draw rule unless told).
    pub fn rules(&self) -> Result<Rules, PdnError> {
        let rules = if self.is_py_draughts_american() {
            Rules::ENGLISH
        } else {
            Variant::of_game_type(self.tag("GameType").unwrap_or("")).rules()
        };
        match self.tag("Rules") {
            Some(text) => rules
                .with_tag(text)
                .map_err(|e| self.tag_error("Rules", e.to_string())),
            None => Ok(rules),
        }
    }

    /// The start position's FEN: the `FEN` tag's, else `None` for the standard start with
    /// Black to move, or the standard start with White to move in py-draughts' American
    /// checkers (its convention: the side on 21-32 moves first when no FEN says otherwise).
    pub fn start_fen(&self) -> Option<String> {
        match self.tag("FEN") {
            Some(f) => Some(f.to_string()),
            None if self.is_py_draughts_american() => {
                START_FEN.strip_prefix('B').map(|rest| format!("W{rest}"))
            }
            None => None,
        }
    }
}

/// Variations nested deeper than this are refused (the reader recurses into them).
const MAX_DEPTH: usize = 64;

/// A parse failure: where, and what is wrong there.
#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    why: String,
}

impl<'a> ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, kind: ErrorKind) -> Self {
        Fail {
            at,
            why: format!("{kind:?}"),
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// A committed failure at `at`.
fn fail<T>(at: &str, why: impl Into<String>) -> Res<'_, T> {
    Err(nom::Err::Failure(Fail {
        at,
        why: why.into(),
    }))
}

/// What a refused text shows: up to a few characters, control characters escaped.
fn shown(at: &str) -> String {
    printable(&at.chars().take(12).collect::<String>())
}

/// Whitespace, `;` comments to the end of the line and `%` escape lines.
fn space(i: &str) -> Res<'_, ()> {
    value(
        (),
        many0_count(alt((
            multispace1,
            recognize(pair(one_of(";%"), not_line_ending)),
        ))),
    )(i)
}

/// Blanks inside a tag (not line ends: a tag is one line).
fn blanks(i: &str) -> Res<'_, &str> {
    take_while(|c: char| c == ' ' || c == '\t')(i)
}

/// `"value"` with PDN's escapes `\"` and `\\` (a backslash before any other character stands
/// for that character); the value ends on its line.
fn string(i: &str) -> Res<'_, String> {
    let Some(body) = i.strip_prefix('"') else {
        return fail(
            i,
            format!("expected '\"' opening the tag value, found '{}'", shown(i)),
        );
    };
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Ok((&body[k + 1..], out)),
            '\\' => match chars.next() {
                Some((_, '\n' | '\r')) | None => break,
                Some((_, e)) => out.push(e),
            },
            '\n' | '\r' => break,
            c => out.push(c),
        }
    }
    fail(i, "tag value not closed on its line")
}

/// `[Name "value"]`.
fn tag_pair(i: &str) -> Res<'_, (String, String)> {
    let (i, _) = char('[')(i)?;
    let (i, _) = blanks(i)?;
    let (i, name) =
        match take_while1::<_, _, Fail<'_>>(|c: char| c.is_alphanumeric() || c == '_')(i) {
            Ok(r) => r,
            Err(_) => return fail(i, format!("expected a tag name, found '{}'", shown(i))),
        };
    let (i, _) = blanks(i)?;
    let (i, value) = string(i)?;
    let (i, _) = blanks(i)?;
    match i.strip_prefix(']') {
        Some(rest) => Ok((rest, (name.to_string(), value))),
        None => fail(
            i,
            format!("expected ']' closing the tag, found '{}'", shown(i)),
        ),
    }
}

/// Where the comments of one text close: the first `}` at or after a place, remembered from
/// the last search. The reader only goes forward, so each byte is searched once: a file of
/// games that each open a comment and never close it cost one search to the end of the file
/// per game, which grew with the square of the file.
#[derive(Debug, Default)]
struct Closes {
    /// The last search: the remaining length where it started, and the remaining length at
    /// the `}` it found (`None`: no `}` to the end of the text).
    last: Cell<Option<(usize, Option<usize>)>>,
    /// Bytes searched for a `}` so far (a test checks that it never exceeds the text).
    examined: Cell<usize>,
}

impl Closes {
    /// The rest of the text after the first `}` of `body` (a suffix of the text), if any.
    fn after<'a>(&self, body: &'a str) -> Option<&'a str> {
        let here = body.len();
        // A search that started at or before here and found its `}` at or after here (or
        // none) answers for here too: no `}` lies between its start and its answer.
        let found = match self.last.get() {
            Some((from, found)) if from >= here && found.is_none_or(|f| f <= here) => found,
            _ => {
                let k = body.find('}');
                self.examined
                    .set(self.examined.get() + k.map_or(here, |k| k + 1));
                let found = k.map(|k| here - k);
                self.last.set(Some((here, found)));
                found
            }
        };
        found.map(|f| &body[here - f + 1..])
    }
}

/// `{...}`: a comment ends at its first `}` (comments do not nest).
fn comment<'a>(closes: &Closes, i: &'a str) -> Res<'a, ()> {
    match i.strip_prefix('{').map(|b| closes.after(b)) {
        Some(Some(rest)) => Ok((rest, ())),
        Some(None) => fail(i, "comment '{' not closed"),
        None => Err(nom::Err::Error(Fail {
            at: i,
            why: String::new(),
        })),
    }
}

/// A game termination marker, followed by a delimiter.
fn result(i: &str) -> Res<'_, &str> {
    for r in RESULTS {
        if let Some(rest) = i.strip_prefix(r) {
            if rest
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || "[{(;%".contains(c))
            {
                return Ok((rest, &i[..r.len()]));
            }
        }
    }
    Err(nom::Err::Error(Fail {
        at: i,
        why: String::new(),
    }))
}

/// `12.` or `12...`.
fn move_number(i: &str) -> Res<'_, ()> {
    value((), pair(digit1, many1_count(char('.'))))(i)
}

/// `$12`: a numeric annotation glyph.
fn nag(i: &str) -> Res<'_, ()> {
    value((), pair(char('$'), digit1))(i)
}

/// A move (`11-15`, `9x18x27`, `a3-b4`) and its annotation (`!`, `?!`), which is dropped.
fn move_text(i: &str) -> Res<'_, &str> {
    terminated(
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == ':'),
        take_while(|c: char| c == '!' || c == '?'),
    )(i)
}

/// Why a character cannot start a movetext element.
fn stray(i: &str) -> String {
    match i.chars().next() {
        Some('}') => "stray '}' (a comment ends at its first '}': comments do not nest)".into(),
        Some(c @ (']' | ')')) => format!("stray '{c}'"),
        _ => format!(
            "expected a move, a move number, a comment or a result, found '{}'",
            shown(i)
        ),
    }
}

/// `(...)`: a variation, skipped; it may hold comments and other variations.
fn variation<'a>(closes: &Closes, i: &'a str, depth: usize) -> Res<'a, ()> {
    let open = i;
    if depth >= MAX_DEPTH {
        return fail(i, format!("variations nested deeper than {MAX_DEPTH}"));
    }
    let (mut i, _) = char('(')(i)?;
    loop {
        (i, _) = space(i)?;
        if let Some(rest) = i.strip_prefix(')') {
            return Ok((rest, ()));
        }
        if i.is_empty() {
            return fail(open, "variation '(' not closed");
        }
        if i.starts_with('(') {
            (i, _) = variation(closes, i, depth + 1)?;
            continue;
        }
        if i.starts_with('{') {
            (i, _) = comment(closes, i)?;
            continue;
        }
        i = match alt((nag, move_number, value((), result), value((), move_text)))(i) {
            Ok((rest, ())) => rest,
            Err(nom::Err::Error(_)) if i.starts_with('[') => {
                return fail(open, "variation '(' not closed before the next tag")
            }
            Err(nom::Err::Error(_)) => return fail(i, stray(i)),
            Err(e) => return Err(e),
        };
    }
}

/// One game: its tag section, then movetext up to a termination marker, the next tag section
/// or the end. `loc` gives the places in the whole text.
fn game<'a>(loc: &mut Locator<'_>, i: &'a str, g: &mut PdnGame) -> Res<'a, ()> {
    let mut i = i;
    let mut movetext = false;
    loop {
        (i, _) = space(i)?;
        let Some(c) = i.chars().next() else {
            return Ok((i, ()));
        };
        let at = loc.place(i);
        match c {
            '[' if movetext => return Ok((i, ())),
            '[' => {
                let (rest, t) = tag_pair(i)?;
                g.tags.push(t);
                g.tag_places.push(at);
                i = rest;
            }
            '{' => (i, _) = comment(&loc.closes, i)?,
            '(' => (i, _) = variation(&loc.closes, i, 0)?,
            '$' => match nag(i) {
                Ok((rest, ())) => i = rest,
                Err(_) => return fail(i, stray(i)),
            },
            _ => {
                if let Ok((rest, r)) = result(i) {
                    g.result = Some(r.to_string());
                    g.result_place = at;
                    return Ok((rest, ()));
                }
                if let Ok((rest, ())) = move_number(i) {
                    movetext = true;
                    i = rest;
                    continue;
                }
                match move_text(i) {
                    Ok((rest, m)) => {
                        movetext = true;
                        g.moves.push(m.to_string());
                        g.move_places.push(at);
                        i = rest;
                    }
                    Err(_) => return fail(i, stray(i)),
                }
            }
        }
    }
}

/// Lines and columns of places in a text, found by walking forward from the last place asked
/// for (or from a checkpoint, the start of the current game), so that reading a file costs
/// one pass, not one pass per place.
struct Locator<'t> {
    text: &'t str,
    /// The last place asked for: byte offset, and its place.
    offset: usize,
    at: Place,
    /// The start of the current game.
    checkpoint: (usize, Place),
    /// Where comments close.
    closes: Closes,
}

impl<'t> Locator<'t> {
    fn new(text: &'t str) -> Locator<'t> {
        let start = Place { line: 1, column: 1 };
        Locator {
            text,
            offset: 0,
            at: start,
            checkpoint: (0, start),
            closes: Closes::default(),
        }
    }

    /// The place of `at`, a suffix of the text.
    fn place(&mut self, at: &str) -> Place {
        let offset = self.text.len() - at.len();
        if offset < self.offset {
            (self.offset, self.at) = if offset >= self.checkpoint.0 {
                self.checkpoint
            } else {
                (0, Place { line: 1, column: 1 })
            };
        }
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.at.line += 1;
                self.at.column = 1;
            } else {
                self.at.column += 1;
            }
        }
        self.offset = offset;
        self.at
    }

    /// Marks the start of a game at `at`, where a later place before it is searched from.
    fn checkpoint(&mut self, at: &str) -> Place {
        let place = self.place(at);
        self.checkpoint = (self.offset, place);
        place
    }
}

/// Where reading goes on after an error at byte `offset` of `text`: the next line that opens
/// a tag section (starts with `[`, after a line that does not), so the rest of the broken
/// game, its tags included, is passed over.
fn recover(text: &str, offset: usize) -> usize {
    let mut at = text[offset..]
        .find('\n')
        .map_or(text.len(), |k| offset + k + 1);
    let line_start = text[..offset].rfind('\n').map_or(0, |k| k + 1);
    let mut previous_is_tag = text[line_start..].trim_start().starts_with('[');
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |k| at + k + 1);
        let line = text[at..end].trim_start();
        let is_tag = line.starts_with('[');
        if is_tag && !previous_is_tag {
            return at;
        }
        if !line.is_empty() {
            previous_is_tag = is_tag;
        }
        at = end;
    }
    text.len()
}

/// The text of PDN bytes: UTF-8, and a line that is not UTF-8 read as Latin-1 (ISO 8859-1).
///
/// Why read rather than refuse: PDN is built on PGN, whose standard prescribes Latin-1, so
/// old PDN files (player names, events, comments) are Latin-1 while today's tools write UTF-8;
/// refusing them would refuse files that follow their standard. Serious readers take them:
/// PGN tools read such files as Latin-1, and a Python draughts reader detects the encoding
/// (charset_normalizer) rather than fail. Decoding line by line keeps a file that mixes both
/// (games of a UTF-8 writer appended to an old Latin-1 file) exact in both parts. Every byte
/// is a Latin-1 character, so nothing is lost or refused; moves, tags and markers are ASCII
/// either way, and columns in errors count characters as before.
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.into();
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(l) => out.push_str(l),
            Err(_) => out.extend(line.iter().map(|&b| char::from(b))),
        }
    }
    out.into()
}

/// The text of the PDN file `path`, decoded by [`decode`].
pub fn read_file(path: &str) -> std::io::Result<String> {
    Ok(decode(&std::fs::read(path)?).into_owned())
}

/// Reads every game of the PDN text of `file` (named in errors): the games that read, and one
/// error for each game that does not (where, and why). Comments `{...}`, `;` to the end of the
/// line, `%` lines, variations `(...)`, move numbers (`12.`, `12...`), `$n` glyphs and move
/// annotations (`!`, `?`) are passed over; a termination marker or a new tag section after
/// movetext ends a game. After an error, reading goes on at the next tag section.
pub fn read_games(file: &str, text: &str) -> (Vec<PdnGame>, Vec<PdnError>) {
    let (games, errors, _) = read_counted(file, text);
    (games, errors)
}

/// [`read_games`], and the bytes searched for the end of a comment.
fn read_counted(file: &str, text: &str) -> (Vec<PdnGame>, Vec<PdnError>, usize) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    // A byte order mark is no part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rest = text;
    let mut number = 0;
    let mut loc = Locator::new(text);
    loop {
        rest = match space(rest) {
            Ok((r, ())) => r,
            Err(_) => rest,
        };
        if rest.is_empty() {
            break;
        }
        let mut g = PdnGame {
            file: file.to_string(),
            number: number + 1,
            place: loc.checkpoint(rest),
            ..PdnGame::default()
        };
        match game(&mut loc, rest, &mut g) {
            Ok((r, ())) => {
                rest = r;
                if !g.tags.is_empty() || !g.moves.is_empty() || g.result.is_some() {
                    number += 1;
                    games.push(g);
                }
            }
            Err(nom::Err::Error(f) | nom::Err::Failure(f)) => {
                number += 1;
                let at = loc.place(f.at);
                errors.push(g.error_at(at, f.why));
                let offset = text.len() - f.at.len();
                rest = &text[recover(text, offset)..];
            }
            Err(nom::Err::Incomplete(_)) => break,
        }
    }
    let examined = loc.closes.examined.get();
    (games, errors, examined)
}

/// Why the games of a PDN text cannot be had.
#[derive(Debug, Error)]
pub enum PdnFileError {
    /// PDN games do not read back: one error for each such game, one line each.
    #[error("{}", lines(.0))]
    Games(Vec<PdnError>),
    /// A PDN file holds no game (an empty file, or another format given by mistake).
    #[error("{0}: no PDN game in the file")]
    NoGames(String),
}

impl From<PdnError> for PdnFileError {
    fn from(e: PdnError) -> PdnFileError {
        PdnFileError::Games(vec![e])
    }
}

/// The errors one a line; each line after the first starts with `error: `, as the first does
/// where it is printed.
fn lines(errors: &[PdnError]) -> String {
    let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
    all.join("\nerror: ")
}

/// Reads every game of a PDN text (named `-` in errors); the first error if any game does not
/// read. Games are not replayed (the match runner replays them with the engine library).
pub fn parse(text: &str) -> Result<Vec<PdnGame>, PdnFileError> {
    let (games, errors) = read_games("-", text);
    if errors.is_empty() {
        Ok(games)
    } else {
        Err(PdnFileError::Games(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games that each open a comment and never close it: every `}` search started over
    /// from the comment to the end of the file, so the work grew with the square of the
    /// games. Each byte is now searched at most once, whatever the number of games.
    #[test]
    fn unclosed_comments_are_read_in_one_pass() {
        let one = "[Event \"e\"]\n[GameType \"21\"]\n1. 11-15 { never closed\n23-19 2-0\n\n";
        for n in [1, 1000, 4000] {
            let text = one.repeat(n);
            let (games, errors, examined) = read_counted("u.pdn", &text);
            assert!(games.is_empty());
            assert_eq!(errors.len(), n);
            assert_eq!(
                errors[n - 1].to_string(),
                format!(
                    "u.pdn:{}:10: PDN game {n}: comment '{{' not closed",
                    5 * n - 2
                )
            );
            assert!(
                examined <= text.len(),
                "{n} games: {examined} bytes searched"
            );
        }
        // A closed comment after unclosed ones is still found (the remembered search says
        // where the next `}` is, not that there is none).
        let text = format!("{one}[Event \"x\"]\n1. 11-15 {{ closed }} 23-19 *\n");
        let (games, errors, _) = read_counted("u.pdn", &text);
        assert_eq!(errors.len(), 0, "{errors:?}");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["11-15", "23-19"]);
    }

    /// A line that is not UTF-8 is read as Latin-1; the other lines as UTF-8.
    #[test]
    fn a_latin1_line_is_read_as_latin1() {
        let mut bytes = b"[Event \"Caf\xe9\"]\n".to_vec();
        bytes.extend("[White \"Jos\u{e9}\"]\n[GameType \"21\"]\n".as_bytes());
        bytes.extend(b"1. 11-15 {Gr\xfc\xdf} 23-19 *\n");
        let text = decode(&bytes);
        let games = parse(&text).unwrap();
        assert_eq!(games[0].tag("Event"), Some("Caf\u{e9}"));
        assert_eq!(games[0].tag("White"), Some("Jos\u{e9}"));
        assert_eq!(games[0].moves, ["11-15", "23-19"]);
        assert_eq!(
            text.lines().nth(3),
            Some("1. 11-15 {Gr\u{fc}\u{df}} 23-19 *")
        );
        assert!(matches!(
            decode(b"plain"),
            std::borrow::Cow::Borrowed("plain")
        ));
    }

    #[test]
    fn loose_games_and_rules_errors() {
        let loose = "[GameType \"21\"]\n{c} 1.11-15 (1... 23-18) 23-19 ; note\n2... 8-11! $1 *";
        let games = parse(loose).unwrap();
        assert_eq!(games[0].moves, ["11-15", "23-19", "8-11"]);
        assert_eq!(games[0].result.as_deref(), Some("*"));
        assert_eq!(games[0].rules(), Ok(Rules::ENGLISH));
        assert_eq!(games[0].start_fen(), None);
        let theirs = "[GameType \"23\"]\n[Variant \"American checkers\"]\n1. 11-15 *";
        let theirs = &parse(theirs).unwrap()[0];
        assert_eq!(theirs.rules(), Ok(Rules::ENGLISH));
        assert_eq!(
            theirs.start_fen().as_deref(),
            Some("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        );
        assert!(
            parse("[Event \"x\"]\n[Rules \"LongKings=maybe\"]\n1-0").unwrap()[0]
                .rules()
                .is_err()
        );
        let text = "[Rules \"LongKings=\u{1}\"]\n1. 11-15 *";
        let err = parse(text).unwrap()[0].rules().unwrap_err().to_string();
        assert_eq!(err, "-:1:1: PDN game 1: bad Rules value 'LongKings=\\u{1}'");
    }
}
