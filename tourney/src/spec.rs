//! Engine specifications of a match: the protocol client's form (`cmd=./buffgreen name=A
//! option.Hash=16 arg=--flag dir=/tmp`, [`buffgreen_client::spec`]) and a search limit of the
//! engine's own (`tc=`, `movetime=`, `nodes=`).

use std::path::PathBuf;

use buffgreen_client::spec::EngineSpec as Command;

use super::error::TourneyError;
use super::tc::Limit;

/// How to start one engine, what to tell it before the first game, and how it searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program, its arguments, working directory, name (unique within a match) and
    /// `setoption` pairs (sent in this order after the rules options).
    pub command: Command,
    /// This engine's own search limit (`tc=`, `movetime=` or `nodes=`), overriding the match's.
    pub limit: Option<Limit>,
}

impl EngineSpec {
    /// Parses a spec as [`Command::parse`] does, with one of `tc`, `movetime`, `nodes` more
    /// for a limit of its own. `each` holds fields given to every engine (`--each`); the
    /// engine's own fields come after and win.
    pub fn parse(text: &str, each: &str) -> Result<EngineSpec, TourneyError> {
        let mut limit = None;
        let command = Command::parse_with(text, each, |key, value| {
            let parsed = Limit::from_field(key, value)?;
            Some(match parsed {
                Ok(l) => {
                    limit = Some(l);
                    Ok(())
                }
                Err(_) => Err(format!("bad {key}={value}")),
            })
        })?;
        Ok(EngineSpec { command, limit })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.command.name
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
        let c = &self.command;
        let here = |p: &str| match &c.dir {
            Some(d) if std::path::Path::new(p).is_relative() => d.join(p),
            _ => PathBuf::from(p),
        };
        let shown = |p: PathBuf| p.display().to_string();
        let mut out = Vec::new();
        let program = if c.program.contains('/') {
            Some(here(&c.program))
        } else {
            on_path(&c.program)
        };
        out.extend(program.map(|p| EngineInput {
            option: "--engine",
            path: shown(p),
            folder: false,
        }));
        out.extend(
            c.args
                .iter()
                .map(|a| here(a))
                .filter(|p| p.is_file())
                .map(|p| EngineInput {
                    option: "--engine",
                    path: shown(p),
                    folder: false,
                }),
        );
        for (name, value) in &c.options {
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
        let base = specs[i].command.name.clone();
        let mut n = 1;
        while specs[..i]
            .iter()
            .any(|s| s.command.name == specs[i].command.name)
        {
            n += 1;
            specs[i].command.name = format!("{base}#{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_of_their_own_and_unique_names() {
        let s = EngineSpec::parse("cmd=/usr/bin/buffgreen", "").unwrap();
        assert_eq!(s.name(), "buffgreen");
        assert_eq!(s.limit, None);
        let n = EngineSpec::parse("cmd=x nodes=5", "tc=1+0.1").unwrap();
        assert_eq!(n.limit, Some(Limit::Nodes(5)));
        // A bad limit is named with its spec; the client's own keys are its tests'.
        let bad = |spec: &str| EngineSpec::parse(spec, "").map_err(|e| e.to_string());
        assert_eq!(
            bad("cmd=x tc=40/"),
            Err("bad engine spec 'cmd=x tc=40/': bad tc=40/".to_string())
        );
        assert!(bad("cmd=x nodes=0").is_err());
        let mut v = vec![s.clone(), s.clone(), s];
        unique_names(&mut v);
        let names: Vec<_> = v.iter().map(EngineSpec::name).collect();
        assert_eq!(names, ["buffgreen", "buffgreen#2", "buffgreen#3"]);
    }
}
