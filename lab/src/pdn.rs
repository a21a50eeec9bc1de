//! The games of a match's PDN file as the lab's harnesses read them: tags, start position and
//! move tokens, under the rules the command line names.

use buffgreen::board::{fen, Position, Rules};

/// One game's text in a PDN file.
pub struct PdnGame<'a>(&'a str);

impl PdnGame<'_> {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<String> {
        let key = format!("[{name} \"");
        let at = self.0.find(&key)? + key.len();
        let end = self.0[at..].find('"')?;
        Some(self.0[at..at + end].to_string())
    }

    /// The start position: the `FEN` tag's, else the standard one.
    pub fn start(&self) -> Result<Position, String> {
        match self.tag("FEN") {
            Some(f) => fen::parse(&f).map_err(|e| format!("{f}: {e}")),
            None => Ok(Position::startpos()),
        }
    }

    /// The moves' tokens, without move numbers and results (no square is 0, so `2-0` is
    /// never a move).
    pub fn moves(&self) -> impl Iterator<Item = &str> {
        let body = self.0.split("\n\n").nth(1).unwrap_or("");
        body.split_whitespace()
            .filter(|t| !t.ends_with('.') && !["2-0", "0-2", "1-1", "*"].contains(t))
    }
}

/// The games of a PDN file's `text`.
pub fn games(text: &str) -> impl Iterator<Item = PdnGame<'_>> {
    text.split("[Event ").skip(1).map(PdnGame)
}

/// The text of the PDN file at `path`; a harness that cannot read it says why and exits.
pub fn read_or_exit(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("error: {path}: {e}");
        std::process::exit(2);
    })
}

/// A harness's command line read: its words (the PDN file first), the rules they name and the
/// PDN file's text. A harness given fewer than `words` words prints `usage: {usage}` and
/// exits.
pub fn command_line(usage: &str, words: usize) -> (Vec<String>, Rules, String) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < words {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    let rules = rules_of(&args);
    let text = read_or_exit(&args[0]);
    (args, rules, text)
}

/// English rules when `args` hold `--english`, else Buff and Green rules.
pub fn rules_of(args: &[String]) -> Rules {
    if args.iter().any(|a| a == "--english") {
        Rules::ENGLISH
    } else {
        Rules::BUFF_AND_GREEN
    }
}
