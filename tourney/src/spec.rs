//! Engine specifications: `cmd=./buffgreen name=A option.Hash=16 arg=--flag dir=/tmp`.

use std::path::PathBuf;

use super::error::TourneyError;
use super::tc::Limit;

/// How to start one engine and what to tell it before the first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in tables and PDN tags (unique within a match).
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// `setoption` name/value pairs, sent in this order after the rules options.
    pub options: Vec<(String, String)>,
    /// This engine's own search limit (`tc=`, `movetime=` or `nodes=`), overriding the match's.
    pub limit: Option<Limit>,
}

impl EngineSpec {
    /// Parses a spec: whitespace-separated `key=value` fields, split as a POSIX shell splits
    /// words (`shlex`), so a value may be quoted with `"` or `'` to hold spaces. Keys: `cmd`
    /// (program, plus arguments, split the same way again, so that
    /// `cmd="'/opt/my engine/bg' --x"` runs `/opt/my engine/bg`), `arg` (one more argument,
    /// repeatable), `name`, `dir`, `option.<Name>` (repeatable), and one of `tc`,
    /// `movetime` (ms), `nodes` for a limit of its own. `each` holds fields
    /// given to every engine (`--each`); the engine's own fields come after and win.
    pub fn parse(text: &str, each: &str) -> Result<EngineSpec, TourneyError> {
        let bad = |why: String| TourneyError::Spec {
            spec: text.to_string(),
            why,
        };
        let mut program = None;
        let mut args = Vec::new();
        let mut name = None;
        let mut dir = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut limit = None;
        let mut fields = tokens(each).map_err(&bad)?;
        fields.extend(tokens(text).map_err(&bad)?);
        let words = |v: &str| tokens(v).map_err(&bad);
        for field in fields {
            let Some((key, value)) = field.split_once('=') else {
                return Err(bad(format!("field '{field}' is not key=value")));
            };
            match key {
                "cmd" => {
                    let mut words = words(value)?.into_iter();
                    program = words.next();
                    args = words.collect();
                }
                "arg" => args.push(value.to_string()),
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                _ if Limit::from_field(key, value).is_some() => {
                    let parsed = Limit::from_field(key, value).and_then(Result::ok);
                    limit = Some(parsed.ok_or_else(|| bad(format!("bad {key}={value}")))?);
                }
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        // A later value for the same option replaces the earlier one (so an
                        // engine's own option overrides `--each`).
                        options.retain(|(n, _)| !n.eq_ignore_ascii_case(opt));
                        options.push((opt.to_string(), value.to_string()));
                    }
                    _ => return Err(bad(format!("unknown key '{key}'"))),
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
            limit,
        })
    }
}

/// A file or folder an engine reads, as [`EngineSpec::inputs`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInput {
    /// What names it, like `--engine` or `--engine option.BookFile`.
    pub option: &'static str,
    /// The path, resolved as the engine sees it.
    pub path: String,
    /// A folder: every file inside it is read.
    pub folder: bool,
}

impl EngineSpec {
    /// The files this engine reads, so that no output is written onto them: its program as
    /// the runner starts it (found on `PATH` when named without a `/`, else relative to
    /// `dir=`), every argument of its command that names an existing file (a script given to
    /// an interpreter, `cmd="python3 engine.py"`), its `BookFile` and its `TablebasePath`
    /// folder. Paths relative to the engine's working directory (`dir=`) are resolved there,
    /// where the engine opens them.
    pub fn inputs(&self) -> Vec<EngineInput> {
        let here = |p: &str| match &self.dir {
            Some(d) if std::path::Path::new(p).is_relative() => d.join(p),
            _ => PathBuf::from(p),
        };
        let shown = |p: PathBuf| p.display().to_string();
        let mut out = Vec::new();
        let program = if self.program.contains('/') {
            Some(here(&self.program))
        } else {
            on_path(&self.program)
        };
        out.extend(program.map(|p| EngineInput {
            option: "--engine",
            path: shown(p),
            folder: false,
        }));
        out.extend(
            self.args
                .iter()
                .map(|a| here(a))
                .filter(|p| p.is_file())
                .map(|p| EngineInput {
                    option: "--engine",
                    path: shown(p),
                    folder: false,
                }),
        );
        for (name, value) in &self.options {
            let (option, folder) = if name.eq_ignore_ascii_case("BookFile") {
                ("--engine option.BookFile", false)
            } else if name.eq_ignore_ascii_case("TablebasePath") {
                ("--engine option.TablebasePath", true)
            } else {
                continue;
            };
            if !value.trim().is_empty() && value.trim() != buffgreen::engine::EMPTY_OPTION {
                out.push(EngineInput {
                    option,
                    path: shown(here(value)),
                    folder,
                });
            }
        }
        out
    }
}

/// The file a program named without a `/` runs, found as the system finds it: the first
/// regular file of that name in a folder of `PATH`.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Makes names unique by appending `#2`, `#3`, ... to repeats (self-play of one program).
pub fn unique_names(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        let base = specs[i].name.clone();
        let mut n = 1;
        while specs[..i].iter().any(|s| s.name == specs[i].name) {
            n += 1;
            specs[i].name = format!("{base}#{n}");
        }
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
        assert_eq!(s.limit, None);
        let n = EngineSpec::parse("cmd=x nodes=5", "tc=1+0.1").unwrap();
        assert_eq!(n.limit, Some(Limit::Nodes(5)));
        assert!(EngineSpec::parse("cmd=x nodes=0", "").is_err());
        assert!(EngineSpec::parse("cmd=x tc=40/", "").is_err());
        assert!(EngineSpec::parse("name=x", "").is_err());
        assert!(EngineSpec::parse("cmd=x bogus", "").is_err());
        assert!(EngineSpec::parse("cmd=x color=red", "").is_err());
        assert!(EngineSpec::parse("cmd='x", "").is_err());
        // A program whose path holds a space, quoted inside the quoted cmd value.
        let sp = EngineSpec::parse("cmd=\"'/opt/my engine/bg' --x 'a b'\" arg=y", "").unwrap();
        assert_eq!(sp.program, "/opt/my engine/bg");
        assert_eq!(sp.args, ["--x", "a b", "y"]);
        assert_eq!(sp.name, "bg");
        assert!(EngineSpec::parse("cmd=\"'/opt/x\"", "").is_err());
        let mut v = vec![s.clone(), s.clone(), s];
        unique_names(&mut v);
        let names: Vec<_> = v.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["buffgreen", "buffgreen#2", "buffgreen#3"]);
    }
}
