//! How to start an engine: `cmd=./buffgreen name=A option.Hash=16 arg=--flag dir=/tmp`, the
//! specification form the match runner's `--engine` and the front ends' `--engine` share.

use std::path::PathBuf;

/// How to start one engine and what to tell it once it answered `uci`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in tables and on the page, and written in PDN tags.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory, if not ours.
    pub dir: Option<PathBuf>,
    /// `setoption` name/value pairs, sent in this order.
    pub options: Vec<(String, String)>,
}

/// Why an engine specification does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine spec '{spec}': {why}")]
pub struct SpecError {
    /// The specification text.
    pub spec: String,
    /// What is wrong with it.
    pub why: String,
}

impl EngineSpec {
    /// Parses a spec: whitespace-separated `key=value` fields, split as a POSIX shell splits
    /// words (`shlex`), so a value may be quoted with `"` or `'` to hold spaces. Keys: `cmd`
    /// (program, plus arguments, split the same way again, so that
    /// `cmd="'/opt/my engine/bg' --x"` runs `/opt/my engine/bg`), `arg` (one more argument,
    /// repeatable), `name`, `dir`, `option.<Name>` (repeatable). `each` holds fields given to
    /// every engine; the engine's own fields come after and win. Any other key is an error.
    pub fn parse(text: &str, each: &str) -> Result<EngineSpec, SpecError> {
        EngineSpec::parse_with(text, each, |_, _| None)
    }

    /// [`EngineSpec::parse`], with the keys it does not know offered to `other` (the match
    /// runner's search limits): `None` means not one of `other`'s either (an error),
    /// `Some(Err(why))` a bad value.
    pub fn parse_with(
        text: &str,
        each: &str,
        mut other: impl FnMut(&str, &str) -> Option<Result<(), String>>,
    ) -> Result<EngineSpec, SpecError> {
        let bad = |why: String| SpecError {
            spec: text.to_string(),
            why,
        };
        let mut program = None;
        let mut args = Vec::new();
        let mut name = None;
        let mut dir = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut fields = tokens(each).map_err(bad)?;
        fields.extend(tokens(text).map_err(bad)?);
        for field in fields {
            let Some((key, value)) = field.split_once('=') else {
                return Err(bad(format!("field '{field}' is not key=value")));
            };
            match key {
                "cmd" => {
                    let mut words = tokens(value).map_err(bad)?.into_iter();
                    program = words.next();
                    args = words.collect();
                }
                "arg" => args.push(value.to_string()),
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        // A later value for the same option replaces the earlier one (so an
                        // engine's own option overrides `each`).
                        options.retain(|(n, _)| !n.eq_ignore_ascii_case(opt));
                        options.push((opt.to_string(), value.to_string()));
                    }
                    _ => match other(key, value) {
                        Some(known) => known.map_err(bad)?,
                        None => return Err(bad(format!("unknown key '{key}'"))),
                    },
                },
            }
        }
        let Some(program) = program.filter(|p| !p.is_empty()) else {
            return Err(bad("no cmd=<program>".to_string()));
        };
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&program)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.clone())
        });
        Ok(EngineSpec {
            name,
            program,
            args,
            dir,
            options,
        })
    }
}

/// Splits as a POSIX shell splits words (quotes removed, backslash escapes), by `shlex`.
fn tokens(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| "unclosed quote or trailing backslash".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_quotes_and_each() {
        let s = EngineSpec::parse(
            "cmd='./a b/eng --x' name=\"New one\" option.Hash=32 arg=-v",
            "option.hash=16 option.Threads=1",
        )
        .unwrap();
        assert_eq!(s.program, "./a");
        assert_eq!(s.args, vec!["b/eng", "--x", "-v"]);
        assert_eq!(s.name, "New one");
        assert_eq!(
            s.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
    }

    #[test]
    fn default_name_and_errors() {
        let s = EngineSpec::parse("cmd=/usr/bin/buffgreen", "").unwrap();
        assert_eq!(s.name, "buffgreen");
        assert!(EngineSpec::parse("name=x", "").is_err());
        assert!(EngineSpec::parse("cmd=x bogus", "").is_err());
        assert!(EngineSpec::parse("cmd=x color=red", "").is_err());
        assert!(EngineSpec::parse("cmd='x", "").is_err());
        assert_eq!(
            EngineSpec::parse("cmd=x nodes=5", "")
                .unwrap_err()
                .to_string(),
            "bad engine spec 'cmd=x nodes=5': unknown key 'nodes'"
        );
        let mut seen = Vec::new();
        let with = EngineSpec::parse_with("cmd=x nodes=5", "", |k, v| {
            seen.push(format!("{k}={v}"));
            (k == "nodes").then_some(Ok(()))
        });
        assert_eq!(with.map(|s| s.program), Ok("x".to_string()));
        assert_eq!(seen, ["nodes=5"]);
        // A program whose path holds a space, quoted inside the quoted cmd value.
        let sp = EngineSpec::parse("cmd=\"'/opt/my engine/bg' --x 'a b'\" arg=y", "").unwrap();
        assert_eq!(sp.program, "/opt/my engine/bg");
        assert_eq!(sp.args, ["--x", "a b", "y"]);
        assert_eq!(sp.name, "bg");
        assert!(EngineSpec::parse("cmd=\"'/opt/x\"", "").is_err());
    }
}
