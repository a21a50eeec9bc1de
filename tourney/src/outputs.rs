//! Outputs never destroy inputs, also those not named on the command line: the files a
//! `match` or a `suite` writes are checked, before anything is written, against each other,
//! against the files named on the command line, against the files the engines read (their
//! programs and scripts, `BookFile`, `TablebasePath`), against the folder of `--tb` and the
//! default tables folder, and against what an existing file holds (an output appends to or replaces only a file of its
//! own kind).

use buffgreen::tools::files::{check_outputs, foreign, Role};

use super::error::TourneyError;
use super::spec::EngineSpec;

/// What an output file holds, so that an existing file of another kind is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// PDN games (`match --pdn`), appended to.
    Pdn,
    /// `match --json`: JSON Lines records, appended to.
    MatchJson,
    /// `suite --json`: one JSON document, replaced.
    SuiteJson,
    /// `match --debug-log`, appended to.
    DebugLog,
}

impl Kind {
    /// How much of an existing file is read to tell its kind: enough for a PDN's first tag
    /// after blank lines, for the first line of a `--json` file (a game's record, moves
    /// included), for a suite's whole results, and for a log's first line.
    fn head(self) -> usize {
        match self {
            Kind::Pdn => 1 << 12,
            Kind::MatchJson => 1 << 20,
            Kind::SuiteJson => 1 << 24,
            Kind::DebugLog => 64,
        }
    }

    /// The kind in the error's words.
    fn what(self) -> &'static str {
        match self {
            Kind::Pdn => "a PDN file",
            Kind::MatchJson => "a JSON Lines file of buffgreen match",
            Kind::SuiteJson => "a JSON file of buffgreen suite",
            Kind::DebugLog => "a debug log",
        }
    }

    /// Whether `head`, the start of an existing file, is of this kind.
    fn recognises(self, head: &[u8]) -> bool {
        match self {
            Kind::Pdn => starts_with_tag(head),
            Kind::MatchJson => {
                let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
                serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| {
                    matches!(
                        v.get("type").and_then(|t| t.as_str()),
                        Some("game" | "summary")
                    )
                })
            }
            Kind::SuiteJson => serde_json::from_slice::<serde_json::Value>(head)
                .is_ok_and(|v| v.get("positions").is_some_and(|p| p.is_array())),
            Kind::DebugLog => is_log(head),
        }
    }
}

/// A PDN text starts (after a byte order mark and blanks) with a tag pair `[Name "`.
fn starts_with_tag(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    let Some(rest) = start.and_then(|k| head[k..].strip_prefix(b"[")) else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after = &rest[name..];
    let blanks = after
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    name > 0 && after[blanks..].first() == Some(&b'"')
}

/// Whether `head` starts like a debug log: `seconds.mmm` then a space and `>`, `<` or `#`.
fn is_log(head: &[u8]) -> bool {
    let digits = head.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = &head[digits..];
    digits > 0
        && rest.len() >= 6
        && rest[0] == b'.'
        && rest[1..4].iter().all(u8::is_ascii_digit)
        && rest[4] == b' '
        && matches!(rest[5], b'>' | b'<' | b'#')
}

/// How the error names the default tables folder, which no option names.
const DEFAULT_TABLES: &str = "the default tables folder";

/// The default tables folder ([`buffgreen::tablebase::home::default_root`]) as text, when
/// there is one.
fn default_tables() -> Option<String> {
    buffgreen::tablebase::home::default_root().map(|p| p.display().to_string())
}

/// Refuses `buffgreen play --pdn` (`option`, `path`) when it would destroy what `engine` reads
/// or the default tables, or an existing file that is not a PDN: the checks of a match's
/// `--pdn`.
pub fn check_pdn(option: &str, path: &str, engine: &EngineSpec) -> Result<(), TourneyError> {
    check(
        &[(option, path, Kind::Pdn)],
        &[],
        &[],
        std::slice::from_ref(engine),
    )
}

/// Refuses an existing file at `path` that is not of `kind`, for output `option`.
pub(crate) fn check_kind(option: &str, path: &str, kind: Kind) -> Result<(), TourneyError> {
    if foreign(path, kind.head(), |head| kind.recognises(head)) {
        return Err(TourneyError::Config(format!(
            "{option} {path} exists and is not {}: give a new file",
            kind.what()
        )));
    }
    Ok(())
}

/// Refuses the outputs of a command (option, path, kind) that would be written onto one
/// another, onto a named input (`inputs`: option, path), inside an input folder (`folders`),
/// onto a file an engine of `engines` reads, or onto an existing file of another kind.
pub(crate) fn check(
    outputs: &[(&str, &str, Kind)],
    inputs: &[(&str, &str)],
    folders: &[(&str, &str)],
    engines: &[EngineSpec],
) -> Result<(), TourneyError> {
    let read: Vec<_> = engines.iter().flat_map(EngineSpec::inputs).collect();
    let mut files: Vec<Role<'_>> = outputs
        .iter()
        .map(|&(option, path, _)| Role::output(option, path))
        .collect();
    files.extend(
        inputs
            .iter()
            .map(|&(option, path)| Role::input(option, path)),
    );
    files.extend(
        folders
            .iter()
            .map(|&(option, path)| Role::folder(option, path)),
    );
    // An engine without `TablebasePath` reads the default tables (protocol.md), a folder no
    // command line names.
    let home = default_tables();
    files.extend(home.as_deref().map(|p| Role::folder(DEFAULT_TABLES, p)));
    files.extend(read.iter().map(|i| {
        if i.folder {
            Role::folder(i.option, &i.path)
        } else {
            Role::input(i.option, &i.path)
        }
    }));
    check_outputs(&files).map_err(TourneyError::Config)?;
    for &(option, path, kind) in outputs {
        check_kind(option, path, kind)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_by_their_first_bytes() {
        assert!(Kind::Pdn.recognises(b"\xef\xbb\xbf\n [Event \"x\"]"));
        assert!(Kind::Pdn.recognises(b"[GameType\t\"21\"]"));
        assert!(!Kind::Pdn.recognises(b"#!/bin/sh\n"));
        assert!(!Kind::Pdn.recognises(b"[]"));
        assert!(!Kind::Pdn.recognises(b"[Event"));
        assert!(Kind::MatchJson.recognises(b"{\"round\":1,\"type\":\"game\"}\nrest"));
        assert!(!Kind::MatchJson.recognises(b"{\"type\":\"other\"}\n"));
        assert!(!Kind::MatchJson.recognises(b"[Event \"x\"]\n"));
        assert!(Kind::SuiteJson.recognises(b"{\n  \"positions\": [],\n  \"solved\": 0\n}\n"));
        assert!(!Kind::SuiteJson.recognises(b"{\"type\":\"game\"}\n"));
        assert!(is_log(b"0.000 # buffgreen match 0.1.0\n"));
        assert!(is_log(b"12.345 >A(77): uci\n"));
        assert!(!is_log(b"[Event \"x\"]\n"));
        assert!(!is_log(b"{\"type\":\"game\"}\n"));
        assert!(!is_log(b"11-15 23-19\n"));
        assert!(!is_log(b"0.00 >A: uci"));
    }
}
