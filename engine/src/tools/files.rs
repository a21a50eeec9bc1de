//! Which paths name one file: the check that keeps a command's outputs off its inputs and off
//! each other (`match --pdn/--json/--debug-log`, `suite --json`, `book build --out`), off the
//! files of an input folder (`match --tb`), and off existing files of another kind.
//!
//! Paths are compared by what they name, not by their spelling: an existing file by its device
//! and inode (through symlinks and hard links), a file not yet created by its directory's
//! identity and its name (a dangling symlink by the file it would create); an output that is
//! a hard link to a file inside an input folder is found by walking the folder.

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

/// Where `path` lies: its canonical path, or for a file not yet created its directory's
/// canonical path and its name.
fn located(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(dir.canonicalize().ok()?.join(name))
}

/// True when `path` (existing or to be created) lies inside folder `dir`, at any depth.
pub fn inside(dir: &str, path: &str) -> bool {
    match (Path::new(dir).canonicalize(), located(Path::new(path))) {
        (Ok(d), Some(p)) => p.starts_with(d),
        _ => false,
    }
}

/// How deep [`linked_into`] looks into a folder: a tables folder holds a sub-folder per rule
/// setting, so a few levels reach every slice.
const LINK_DEPTH: usize = 4;

/// How many entries [`linked_into`] looks at at most: a folder of tables holds hundreds of
/// slices, and a folder the user named by mistake must not make the check walk a disk.
const LINK_ENTRIES: usize = 100_000;

/// The file inside folder `dir` that is `path` under another name (a hard link made outside
/// the folder), if any. Only an existing regular file with more than one link is looked for,
/// so the folder is walked only when a hard link could lead into it.
#[cfg(unix)]
pub fn linked_into(dir: &str, path: &str) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.nlink() < 2 {
        return None;
    }
    let target = (meta.dev(), meta.ino());
    let mut seen = 0usize;
    let mut stack = vec![(PathBuf::from(dir), 0usize)];
    while let Some((folder, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > LINK_ENTRIES {
                return None;
            }
            // Not through symlinks: a link to a folder above would loop.
            let Ok(m) = entry.path().symlink_metadata() else {
                continue;
            };
            if m.is_dir() && depth + 1 < LINK_DEPTH {
                stack.push((entry.path(), depth + 1));
            } else if m.is_file() && (m.dev(), m.ino()) == target {
                return Some(entry.path());
            }
        }
    }
    None
}

/// Without inodes there are no hard links to find.
#[cfg(not(unix))]
pub fn linked_into(_dir: &str, _path: &str) -> Option<PathBuf> {
    None
}

/// A file (or folder) a command reads or writes: the option that names it, its path, and what
/// the command does with it.
#[derive(Clone, Debug)]
pub struct Role<'a> {
    /// The option, like `--pdn`.
    pub option: &'a str,
    /// The path as given.
    pub path: &'a str,
    /// Written by the command.
    pub output: bool,
    /// An input folder: every file inside it is an input (`--tb`).
    pub folder: bool,
}

impl<'a> Role<'a> {
    /// A file the command reads.
    pub fn input(option: &'a str, path: &'a str) -> Role<'a> {
        Role {
            option,
            path,
            output: false,
            folder: false,
        }
    }

    /// A file the command writes.
    pub fn output(option: &'a str, path: &'a str) -> Role<'a> {
        Role {
            output: true,
            ..Role::input(option, path)
        }
    }

    /// A folder whose files the command reads.
    pub fn folder(option: &'a str, path: &'a str) -> Role<'a> {
        Role {
            folder: true,
            ..Role::input(option, path)
        }
    }
}

/// Refuses `files` when an output is the same file as another of them (an input, or another
/// output) or lies inside an input folder: the message names both.
pub fn check_outputs(files: &[Role<'_>]) -> Result<(), String> {
    for (i, out) in files.iter().enumerate().filter(|(_, f)| f.output) {
        for (j, other) in files.iter().enumerate() {
            if i == j || (other.output && j < i) {
                continue;
            }
            if other.folder {
                if inside(other.path, out.path) {
                    return Err(format!(
                        "{} {} is inside {} {}: the output would destroy its files",
                        out.option, out.path, other.option, other.path
                    ));
                }
                if let Some(file) = linked_into(other.path, out.path) {
                    return Err(format!(
                        "{} {} and {} (in {} {}) are one file: the output would destroy the \
                         input",
                        out.option,
                        out.path,
                        file.display(),
                        other.option,
                        other.path
                    ));
                }
            } else if same_file(out.path, other.path) {
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

/// True when `path` is an existing regular file, not empty, whose first `head` bytes (or fewer
/// in a shorter file) `ours` does not recognise: a file an output must not append to or
/// replace. Only a regular file is looked into: opening a FIFO to read would wait for a
/// writer, and a device is not a file of anyone's. A file that cannot be read is left to the
/// writer, whose error says why.
pub fn foreign(path: &str, head: usize, ours: impl Fn(&[u8]) -> bool) -> bool {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    if file.take(head as u64).read_to_end(&mut bytes).is_err() {
        return false;
    }
    !bytes.is_empty() && !ours(&bytes)
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
        let (deck, pdn, log) = (s(&file), s(&dir.join("a.pdn")), s(&link));
        let roles = [
            Role::input("--openings", &deck),
            Role::output("--pdn", &pdn),
            Role::output("--debug-log", &log),
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
        // Inside a folder of inputs, at any depth and however spelled; beside it is fine.
        let inner = s(&dir.join("sub/new.pdn"));
        let tables = s(&dir.join("sub"));
        assert!(inside(&tables, &inner));
        assert!(inside(&s(&dir), &s(&dir.join("sub/../sub/x"))));
        assert!(!inside(&tables, &s(&dir.join("new.pdn"))));
        assert_eq!(
            check_outputs(&[
                Role::folder("--tb", &tables),
                Role::output("--json", &inner)
            ]),
            Err(format!(
                "--json {inner} is inside --tb {tables}: the output would destroy its files"
            ))
        );
        // A hard link made outside the folder to a file inside it.
        let slice = dir.join("sub/kk.tb");
        std::fs::write(&slice, "TABLE").expect("write");
        let twin = dir.join("twin.pdn");
        std::fs::hard_link(&slice, &twin).expect("hard link");
        assert_eq!(linked_into(&tables, &s(&twin)), Some(slice.clone()));
        assert_eq!(linked_into(&tables, &deck), None);
        assert_eq!(
            check_outputs(&[
                Role::folder("--tb", &tables),
                Role::output("--pdn", &s(&twin))
            ]),
            Err(format!(
                "--pdn {} and {} (in --tb {tables}) are one file: the output would destroy the \
                 input",
                s(&twin),
                s(&slice)
            ))
        );
        // Another kind of file: recognised by its first bytes; empty, missing and non-regular
        // files are nobody's.
        let ours = |b: &[u8]| b.starts_with(b"11-");
        assert!(!foreign(&deck, 3, ours));
        std::fs::write(dir.join("empty"), "").expect("write");
        assert!(!foreign(&s(&dir.join("empty")), 3, ours));
        assert!(!foreign(&s(&dir.join("missing")), 3, ours));
        assert!(!foreign(&tables, 3, ours));
        std::fs::write(dir.join("other"), "#!/bin/sh\n").expect("write");
        assert!(foreign(&s(&dir.join("other")), 3, ours));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
