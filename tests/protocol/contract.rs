//! protocol.md is the whole contract (issue 40 item 9): every reply form and every option the
//! engine prints is checked against the grammar and the tables parsed from protocol.md itself,
//! so that the document and the engine cannot drift apart again.
//!
//! The grammar is protocol.md's own notation (section "Commands"): `<x>` a value of one or more
//! tokens, `[ ... ]` optional, `( a | b )` alternatives, `...` the item before repeated. Inside
//! a token, `<x>` is any text (`name=<N>`, `<move>:`).

use buffgreen::engine::{documented_option_table, option_table, OptionKind};
use buffgreen::hub::{self, command::tokenize};
use buffgreen::protocol::{self, output, Flow, Output};

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    std::fs::read_to_string(path).expect("protocol.md")
}

/// The lines of the section that starts with the heading `title` (up to the next heading of
/// the same or a higher level).
fn section<'a>(doc: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = doc.lines().skip_while(|l| l.trim() != title);
    let head = lines.next().unwrap_or_else(|| panic!("no section {title}"));
    let level = head.chars().take_while(|c| *c == '#').count();
    lines
        .take_while(|l| {
            let hashes = l.chars().take_while(|c| *c == '#').count();
            hashes == 0 || hashes > level
        })
        .collect()
}

/// The cells of a table row (`|` escaped as `\|` kept inside a cell).
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|').trim_end_matches('|');
    row.replace("\\|", "\u{1}")
        .split('|')
        .map(|c| c.trim().replace('\u{1}', "|"))
        .collect()
}

/// The table rows of a section (header and rule left out).
fn rows(lines: &[&str]) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| cells(l))
        .collect()
}

/// The code spans of a cell.
fn spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The lines of the first code block of a section.
fn block(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.to_string())
        .collect()
}

/// One item of a pattern.
#[derive(Clone, Debug)]
enum Item {
    /// A token: literal text with `<x>` holes (a hole matches any non-empty text).
    Token(String),
    /// A whole token `<x>`: one token; the rest of the line when it ends the pattern; one or
    /// more tokens for an option name (`<N>`), which may hold spaces.
    Value(bool),
    Optional(Vec<Item>),
    Choice(Vec<Vec<Item>>),
    Repeat(Box<Item>),
}

fn compile(tokens: &[String]) -> Vec<Item> {
    let mut pos = 0;
    let mut items = seq(tokens, &mut pos);
    assert_eq!(pos, tokens.len(), "unbalanced pattern {tokens:?}");
    if let Some(Item::Value(multi)) = items.last_mut() {
        *multi = true;
    }
    items
}

fn seq(tokens: &[String], pos: &mut usize) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    while let Some(t) = tokens.get(*pos) {
        match t.as_str() {
            "]" | ")" | "|" => break,
            "[" => {
                *pos += 1;
                let inner = seq(tokens, pos);
                assert_eq!(tokens.get(*pos).map(String::as_str), Some("]"));
                *pos += 1;
                items.push(Item::Optional(inner));
            }
            "(" => {
                *pos += 1;
                let mut alts = vec![seq(tokens, pos)];
                while tokens.get(*pos).map(String::as_str) == Some("|") {
                    *pos += 1;
                    alts.push(seq(tokens, pos));
                }
                assert_eq!(tokens.get(*pos).map(String::as_str), Some(")"));
                *pos += 1;
                items.push(Item::Choice(alts));
            }
            "..." => {
                *pos += 1;
                let last = items.pop().expect("... after an item");
                items.push(Item::Repeat(Box::new(last)));
            }
            _ => {
                *pos += 1;
                let whole = t.starts_with('<') && t.ends_with('>') && t.matches('<').count() == 1;
                items.push(if whole {
                    Item::Value(t == "<N>")
                } else if t.contains("...") && t.contains('<') {
                    // A list inside one token (`pv="<m1> <m2> ..."`): any text.
                    let i = t.find('<').unwrap_or(0);
                    Item::Token(format!("{}<list>", &t[..i]))
                } else {
                    Item::Token(t.clone())
                });
            }
        }
    }
    items
}

/// True when `text` matches the token pattern `pat` (`<x>` holes match any non-empty text).
fn glob(pat: &str, text: &str) -> bool {
    match pat.find('<') {
        None => pat == text,
        Some(i) => {
            let Some(j) = pat[i..].find('>') else {
                return pat == text;
            };
            let (lit, rest) = (&pat[..i], &pat[i + j + 1..]);
            let Some(after) = text.strip_prefix(lit) else {
                return false;
            };
            (0..=after.len())
                .filter(|k| after.is_char_boundary(*k))
                .any(|k| glob(rest, &after[k..]))
        }
    }
}

/// Every way `items` can match a prefix of `line`: the lengths matched.
fn ends(items: &[Item], line: &[String]) -> Vec<usize> {
    let Some((first, rest)) = items.split_first() else {
        return vec![0];
    };
    let mut out = Vec::new();
    for n in one(first, line) {
        for m in ends(rest, &line[n..]) {
            out.push(n + m);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn one(item: &Item, line: &[String]) -> Vec<usize> {
    match item {
        Item::Token(t) => match line.first() {
            Some(w) if glob(t, w) => vec![1],
            _ => vec![],
        },
        Item::Value(true) => (1..=line.len()).collect(),
        Item::Value(false) => vec![1].into_iter().filter(|_| !line.is_empty()).collect(),
        Item::Optional(inner) => {
            let mut v = ends(inner, line);
            v.push(0);
            v
        }
        Item::Choice(alts) => alts.iter().flat_map(|a| ends(a, line)).collect(),
        Item::Repeat(inner) => {
            let mut reached = vec![0];
            let mut frontier = vec![0];
            while let Some(at) = frontier.pop() {
                for n in one(inner, &line[at..]) {
                    if n > 0 && !reached.contains(&(at + n)) {
                        reached.push(at + n);
                        frontier.push(at + n);
                    }
                }
            }
            reached
        }
    }
}

fn matches(pattern: &[Item], line: &[String]) -> bool {
    ends(pattern, line).contains(&line.len())
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// A pattern's tokens: `<...>` is one token even with spaces inside, and brackets at a token's
/// ends stand alone (`[ponder <move>]` is `[`, `ponder`, `<move>`, `]`).
fn pattern_words(form: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    for c in form.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if !cur.is_empty() {
                tokens.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    let mut out = Vec::new();
    for mut t in tokens {
        while t.len() > 1 && (t.starts_with('[') || t.starts_with('(')) {
            out.push(t[..1].to_string());
            t.remove(0);
        }
        let mut tail = Vec::new();
        while t.len() > 1 && (t.ends_with(']') || t.ends_with(')')) {
            tail.push(t.split_off(t.len() - 1));
        }
        out.push(t);
        out.extend(tail.into_iter().rev());
    }
    out
}

/// A Hub line as tokens: the command, then `name=value` (unquoted) or a flag per argument.
fn hub_words(line: &str) -> Vec<String> {
    let (cmd, args) = tokenize(line)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .expect("a Hub line");
    let mut v = vec![cmd];
    v.extend(args.into_iter().map(|a| match a.value {
        Some(value) => format!("{}={value}", a.name),
        None => a.name,
    }));
    v
}

/// The protocol's reply forms: the Replies table, the `info` grammar, the `d` block.
fn protocol_patterns(doc: &str) -> Vec<Vec<Item>> {
    let mut forms: Vec<String> = rows(&section(doc, "## Replies"))
        .iter()
        .flat_map(|r| spans(&r[0]))
        .collect();
    forms.push(block(&section(doc, "### `info`")).join(" "));
    forms.extend(block(&section(doc, "### `d`")));
    forms.iter().map(|f| compile(&pattern_words(f))).collect()
}

fn check_lines(patterns: &[Vec<Item>], lines: &[String], split: fn(&str) -> Vec<String>) {
    assert!(!lines.is_empty());
    for line in lines {
        let w = split(line);
        assert!(
            patterns.iter().any(|p| matches(p, &w)),
            "{line:?} matches no reply form of protocol.md"
        );
    }
}

#[test]
fn the_grammar_matcher_works() {
    let p = compile(&pattern_words(
        "info depth <D> score (cp <X> | mate <N>) [wdl <W> <D> <L>] [pv <m> ...]",
    ));
    assert!(matches(&p, &words("info depth 3 score cp -5")));
    assert!(matches(
        &p,
        &words("info depth 3 score mate 2 wdl 1 2 3 pv 11-15 22-18")
    ));
    assert!(!matches(&p, &words("info depth 3 score mate")));
    assert!(!matches(&p, &words("info depth 3 score cp 1 tbhits 4")));
    assert!(glob("name=<N>", "name=Clear Hash"));
    assert_eq!(
        pattern_words("Clock: <a b> [x <y>]"),
        ["Clock:", "<a b>", "[", "x", "<y>", "]"]
    );
    assert!(!glob("<move>:", "11-15"));
}

/// Every `uci` line has a form in Replies, and the Options table lists exactly the options
/// `uci` announces, with their type, default and range (a default that depends on the machine,
/// `TablebasePath`'s, as the table writes it for any machine).
#[test]
fn options_and_uci_lines_are_as_documented() {
    let doc = doc();
    let lines = output::uci_lines(&option_table());
    check_lines(&protocol_patterns(&doc), &lines, words);
    let table = rows(&section(&doc, "## Options"));
    let mut documented: Vec<String> = table
        .iter()
        .map(|r| r[0].trim_matches('`').to_string())
        .collect();
    let mut announced: Vec<&str> = option_table().iter().map(|o| o.name).collect();
    documented.sort();
    announced.sort();
    assert_eq!(
        documented, announced,
        "the Options table and `uci` list other options"
    );
    for spec in documented_option_table() {
        let row = table
            .iter()
            .find(|r| r[0].trim_matches('`') == spec.name)
            .expect("a row");
        let unquote = |s: &str| s.trim_matches('`').to_string();
        let (kind, default, range) = match spec.kind {
            OptionKind::Check { default } => ("check", default.to_string(), String::new()),
            OptionKind::Spin { default, min, max } => {
                ("spin", default.to_string(), format!("{min}-{max}"))
            }
            OptionKind::Button => ("button", String::new(), String::new()),
            OptionKind::Combo { default, vars } => (
                "combo",
                default.to_string(),
                vars.iter()
                    .map(|v| format!("`{v}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            OptionKind::String { default } => (
                "string",
                if default.is_empty() {
                    "<empty>".to_string()
                } else {
                    default.to_string()
                },
                String::new(),
            ),
        };
        assert_eq!(
            (row[1].as_str(), unquote(&row[2]), row[3].as_str()),
            (kind, default, range.as_str()),
            "option {}",
            spec.name
        );
    }
}

/// A session that prints every kind of protocol reply: search `info` (two lines a report),
/// `bestmove`, a book move's note, `go perft`, `bench`, `d`, `eval`, errors and notices.
#[test]
fn every_protocol_reply_has_a_documented_form() {
    let doc = doc();
    let (out, captured) = Output::memory();
    let mut s = protocol::Session::new(out);
    for line in [
        "setoption name Hash value 1",
        "isready",
        "setoption name MultiPV value 2",
        "go nodes 300",
        "setoption name MultiPV value 1",
        "position fen B:W18:B",
        "go nodes 10",
        "position startpos",
        "setoption name OwnBook value true",
        "go nodes 10",
        "go perft 2",
        "bench 10",
        "flip",
        "setoption name BackwardCapture value false",
        "eval",
    ] {
        assert_eq!(s.handle_line(line.as_bytes()), Flow::Continue);
        s.settle();
    }
    let mut lines = captured.take_lines();
    assert!(
        lines.iter().any(|l| l.starts_with("info string book ")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l == "bestmove none"), "{lines:#?}");
    // `d`: the diagram (its lines are shown, not specified token by token), then six lines
    // of the documented forms; a finished game's too (its `Result:` has a reason).
    for position in ["position startpos", "position fen B:W18:B"] {
        s.handle_line(position.as_bytes());
        s.handle_line(b"d");
        let d = captured.take_lines();
        let fen = d.iter().position(|l| l.starts_with("Fen: ")).expect("Fen:");
        assert_eq!(d.len(), fen + 6, "{d:#?}");
        lines.extend_from_slice(&d[fen..]);
    }
    // The empty line of `go perft` is documented in words.
    lines.retain(|l| !l.is_empty());
    check_lines(&protocol_patterns(&doc), &lines, words);
    // `eval`'s lines are the ones the Replies table names, in that order.
    let eval_row = rows(&section(&doc, "## Replies"))
        .into_iter()
        .find(|r| r[1].contains("`eval`"))
        .expect("the eval row");
    let named: Vec<String> = spans(&eval_row[0])
        .iter()
        .map(|s| s.split(':').next().unwrap_or_default().to_string())
        .collect();
    s.handle_line(b"eval");
    let shown: Vec<String> = captured
        .take_lines()
        .iter()
        .map(|l| l.split(':').next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(shown, named);
}

/// Every Hub reply (`hub`'s `id`, `param` and `wait`, `ready`, `pong`, `info`, `done`,
/// `error`) has a form in the Hub Replies table, and `hub` offers exactly the parameters the
/// Hub parameters table names, of the types it says.
#[test]
fn every_hub_reply_and_parameter_is_documented() {
    let doc = doc();
    let hub_section = section(&doc, "## The Hub dialect");
    let replies_at = hub_section
        .iter()
        .position(|l| l.trim() == "### Replies")
        .expect("Hub replies");
    let forms: Vec<Vec<Item>> = rows(&hub_section[replies_at..])
        .iter()
        .take_while(|r| r.len() == 2)
        .flat_map(|r| spans(&r[0]))
        .map(|f| compile(&hub_words(&f)))
        .collect();
    let (out, captured) = Output::memory();
    let mut s = hub::Session::new(out);
    for line in [
        "hub",
        "init",
        "ping",
        "set-param name=Hash value=1",
        "pos",
        "level nodes=200",
        "go think",
        "pos pos=Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        "level nodes=10",
        "go think",
        "flip",
    ] {
        s.handle_line(line.as_bytes());
        s.wait();
    }
    let lines = captured.take_lines();
    assert!(lines.iter().any(|l| l.starts_with("info ")), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "done"), "{lines:#?}");
    check_lines(&forms, &lines, hub_words);
    // The parameters: `variant`, `pos-encoding`, and every option but those the table
    // excludes, with the Hub type of its kind.
    let params = rows(&section(&doc, "### Hub parameters"));
    let every = params
        .iter()
        .find(|r| r[0].starts_with("every "))
        .expect("the every-option row");
    let excluded = spans(every[0].split(" but ").nth(1).expect("but ..."));
    let mut want: Vec<(String, String)> = params
        .iter()
        .filter(|r| !r[0].starts_with("every "))
        .map(|r| (r[0].trim_matches('`').to_string(), "enum".to_string()))
        .collect();
    let types = spans(&every[1]);
    for spec in option_table() {
        if excluded.iter().any(|e| e == spec.name) {
            continue;
        }
        let kind = match spec.kind {
            OptionKind::Check { .. } => "bool",
            OptionKind::Spin { .. } => "int",
            OptionKind::String { .. } => "string",
            OptionKind::Button | OptionKind::Combo { .. } => {
                panic!("{} is offered to Hub but has no Hub type", spec.name)
            }
        };
        assert!(
            types.iter().any(|t| t == kind),
            "{kind} is not in {types:?}"
        );
        want.push((spec.name.to_string(), kind.to_string()));
    }
    let got: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l.starts_with("param "))
        .map(|l| {
            let w = hub_words(l);
            let arg = |k: &str| {
                w.iter()
                    .find_map(|t| t.strip_prefix(&format!("{k}=")).map(str::to_string))
                    .unwrap_or_default()
            };
            (arg("name"), arg("type"))
        })
        .collect();
    assert_eq!(got, want);
}
