//! Which paths name one file: the check that keeps a command's outputs off its inputs and off
//! each other (`match --pdn/--json/--debug-log`, `book build --out`).
//!
//! Paths are compared by what they name, not by their spelling: an existing file by its device
//! and inode (through symlinks and hard links), a file not yet created by its directory's
//! identity and its name (a dangling symlink by the file it would create).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What a path names, for comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FileKey {
    /// An existing file: device and inode.
    Existing(u64, u64),
    /// A file not yet created: its directory's device and inode, and its name.
    New(u64, u64, OsString),
}

/// Device and inode of `path` (following symlinks), if it exists.
#[cfg(unix)]
fn ids(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Without inodes: a hash of the canonical path.
#[cfg(not(unix))]
fn ids(path: &Path) -> Option<(u64, u64)> {
    use std::hash::{Hash, Hasher};
    let canonical = path.canonicalize().ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    canonical.hash(&mut h);
    Some((0, h.finish()))
}

/// What `path` names; `None` when neither it nor its directory exists (no file can be made
/// there, so it can be nobody's output).
fn key(path: &Path) -> Option<FileKey> {
    let mut p: PathBuf = path.to_path_buf();
    // Symlinks to symlinks: as deep as the system follows them.
    for _ in 0..40 {
        if let Some((dev, ino)) = ids(&p) {
            return Some(FileKey::Existing(dev, ino));
        }
        if let Ok(target) = std::fs::read_link(&p) {
            p = match p.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
            continue;
        }
        let name = p.file_name()?.to_os_string();
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let (dev, ino) = ids(dir)?;
        return Some(FileKey::New(dev, ino, name));
    }
    None
}

/// True when paths `a` and `b` name one file (existing, or to be created).
pub fn same_file(a: &str, b: &str) -> bool {
    match (key(Path::new(a)), key(Path::new(b))) {
        (Some(x), Some(y)) => x == y,
        _ => Path::new(a) == Path::new(b),
    }
}

/// A file a command reads or writes: the option that names it, its path, and whether the
/// command writes it.
#[derive(Clone, Debug)]
pub struct Role<'a> {
    /// The option, like `--pdn`.
    pub option: &'a str,
    /// The path as given.
    pub path: &'a str,
    /// Written by the command.
    pub output: bool,
}

/// Refuses `files` when an output is the same file as another of them (an input, or another
/// output): the message names both.
pub fn check_outputs(files: &[Role<'_>]) -> Result<(), String> {
    for (i, out) in files.iter().enumerate().filter(|(_, f)| f.output) {
        for (j, other) in files.iter().enumerate() {
            if i == j || (other.output && j < i) {
                continue;
            }
            if same_file(out.path, other.path) {
                let what = if other.output {
                    "both outputs would write it"
                } else {
                    "the output would destroy the input"
                };
                return Err(format!(
                    "{} {} and {} {} are one file: {what}",
                    out.option, out.path, other.option, other.path
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_other_names_is_found() {
        let dir = std::env::temp_dir().join(format!("bg-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).expect("dir");
        let file = dir.join("deck.txt");
        std::fs::write(&file, "11-15\n").expect("write");
        let s = |p: &Path| p.display().to_string();
        let dotted = s(&dir.join("sub/../deck.txt"));
        let link = dir.join("link.txt");
        let hard = dir.join("hard.txt");
        let dangling = dir.join("dangling.txt");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&file, &link).expect("symlink");
            std::os::unix::fs::symlink(dir.join("new.pdn"), &dangling).expect("symlink");
        }
        std::fs::hard_link(&file, &hard).expect("hard link");
        assert!(same_file(&s(&file), &dotted));
        assert!(same_file(&s(&file), &s(&link)));
        assert!(same_file(&s(&hard), &s(&link)));
        // Not yet created: the same name in the same directory, however spelled.
        assert!(same_file(
            &s(&dir.join("new.pdn")),
            &s(&dir.join("sub/../new.pdn"))
        ));
        assert!(same_file(&s(&dangling), &s(&dir.join("new.pdn"))));
        assert!(!same_file(&s(&file), &s(&dir.join("new.pdn"))));
        let roles = [
            Role {
                option: "--openings",
                path: &s(&file),
                output: false,
            },
            Role {
                option: "--pdn",
                path: &s(&dir.join("a.pdn")),
                output: true,
            },
            Role {
                option: "--debug-log",
                path: &s(&link),
                output: true,
            },
        ];
        assert_eq!(
            check_outputs(&roles),
            Err(format!(
                "--debug-log {} and --openings {} are one file: the output would destroy the \
                 input",
                s(&link),
                s(&file)
            ))
        );
        assert_eq!(check_outputs(&roles[..2]), Ok(()));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
