//! The house's structure, checked from the sources: no import circle among the modules of a
//! crate, the engine library depends on neither the match runner nor the web stack, the
//! protocol client on no engine library, and every module map ("Layout:" paragraph) names the
//! files that exist.
//!
//! A module's imports are the `crate::` and `super::` paths in its code (comments left out),
//! each resolved to the deepest module file it names (and a name a module re-exports with
//! `pub use` to the file that defines it). A module may use its ancestors and its
//! descendants (a parent declares and re-exports its children; a child reads its parent's
//! contract): those edges are the module tree itself, not imports between rooms, and are not
//! counted. Every other edge between two files is, and a cycle of them fails the test with
//! the files and the names that tie them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The module path of a source file below `src`: `lib.rs` is `[]`, `a/mod.rs` and `a.rs` are
/// `["a"]`, `a/b.rs` is `["a", "b"]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file below src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    match last.as_str() {
        "lib.rs" | "main.rs" | "mod.rs" => {}
        name => parts.push(name.trim_end_matches(".rs").to_string()),
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments and string literals (their text is not code).
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Every path the code names from `crate` or `super`, with one level of `{...}` groups
/// expanded: `crate::a::{b, c::D}` gives `crate::a::b` and `crate::a::c::D`.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let word_start = |i: usize| {
        i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':')
    };
    for key in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(key) {
            let at = from + k;
            from = at + key.len();
            if !word_start(at) {
                continue;
            }
            let head: String = key.trim_end_matches("::").to_string();
            let mut path = vec![head];
            let mut i = at + key.len();
            loop {
                let rest = &code[i..];
                if rest.starts_with('{') {
                    let end = rest.find('}').map_or(rest.len(), |e| e);
                    for item in rest[1..end].split(',') {
                        let item = item.trim();
                        let mut p = path.clone();
                        p.extend(
                            item.split("::")
                                .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
                                .filter(|s| !s.is_empty() && s != "self" && s != "*"),
                        );
                        found.push(p);
                    }
                    break;
                }
                let len = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                if len == 0 {
                    found.push(path.clone());
                    break;
                }
                path.push(rest[..len].to_string());
                i += len;
                if code[i..].starts_with("::") {
                    i += 2;
                } else {
                    found.push(path.clone());
                    break;
                }
            }
        }
    }
    found
}

/// The import graph of the crate whose sources are in `src`: file -> (file -> names).
fn graph(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let shown = f
                .strip_prefix(ROOT)
                .or_else(|_| f.strip_prefix(src.parent().unwrap_or(src)))
                .unwrap_or(f);
            (module_of(src, f), shown.display().to_string())
        })
        .collect();
    let reexports = reexports(src, &files, &modules);
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for f in &files {
        let me = module_of(src, f);
        let name = &modules[&me];
        let text = std::fs::read_to_string(f).unwrap();
        // Unit tests may reach anywhere: only the module's own code counts.
        let code = code_of(text.split("#[cfg(test)]").next().unwrap_or(""));
        for path in paths_in(&code) {
            // Absolute module path of the import.
            let mut abs: Vec<String> = if path[0] == "crate" {
                Vec::new()
            } else {
                // Each `super` is the parent module (of `a/x.rs`: `a`; of `a/mod.rs`: the crate).
                let mut base = me.clone();
                for _ in path.iter().take_while(|p| *p == "super") {
                    base.pop();
                }
                base
            };
            abs.extend(
                path.iter()
                    .filter(|p| *p != "crate" && *p != "super")
                    .cloned(),
            );
            // The deepest module file the path names.
            let Some(mut target) = (0..=abs.len())
                .rev()
                .map(|n| abs[..n].to_vec())
                .find(|m| modules.contains_key(m))
            else {
                continue;
            };
            // A name a module re-exports (`pub use probe::Tablebase;`) is an import of the
            // module that defines it: a circle through a parent's re-export is a circle.
            let mut hops = 0;
            while let Some(next) = abs
                .get(target.len())
                .and_then(|n| reexports.get(&(target.clone(), n.clone())))
            {
                if *next == target || hops == 8 {
                    break;
                }
                let name = abs[target.len()].clone();
                abs = next.clone();
                abs.push(name);
                target = next.clone();
                hops += 1;
            }
            let related = target.starts_with(&me) || me.starts_with(&target);
            if related {
                continue;
            }
            // The name taken, or the module itself (`use super::json;`).
            let what = abs
                .get(target.len())
                .or(target.last())
                .cloned()
                .unwrap_or_default();
            edges
                .entry(name.clone())
                .or_default()
                .entry(modules[&target].clone())
                .or_default()
                .insert(what);
        }
    }
    edges
}

/// The names each module re-exports with `pub use` (module, name) -> the module whose file
/// the path names (for `pub use a::b::{X, Y as Z}`: X and Z from `a::b`, or from `a::b::X`
/// when that is a module).
fn reexports(
    src: &Path,
    files: &[PathBuf],
    modules: &BTreeMap<Vec<String>, String>,
) -> BTreeMap<(Vec<String>, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for f in files {
        let me = module_of(src, f);
        let text = std::fs::read_to_string(f).unwrap();
        let code = code_of(text.split("#[cfg(test)]").next().unwrap_or(""));
        let mut from = 0;
        while let Some(k) = code[from..].find("pub use ") {
            let start = from + k + "pub use ".len();
            let end = code[start..].find(';').map_or(code.len(), |e| start + e);
            from = end;
            let stmt: String = code[start..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let (head, items) = match stmt.split_once('{') {
                Some((h, rest)) => (
                    h.trim_end_matches("::").to_string(),
                    rest.trim_end_matches('}')
                        .split(',')
                        .map(str::trim)
                        .map(String::from)
                        .collect(),
                ),
                None => match stmt.rsplit_once("::") {
                    Some((h, item)) => (h.to_string(), vec![item.to_string()]),
                    None => continue,
                },
            };
            let mut base: Vec<String> = Vec::new();
            let segments: Vec<&str> = head.split("::").filter(|p| !p.is_empty()).collect();
            match segments.first() {
                Some(&"crate") => {}
                Some(&"super") => base = me.clone(),
                _ => base = me.clone(),
            }
            for seg in &segments {
                match *seg {
                    "crate" | "self" => {}
                    "super" => {
                        base.pop();
                    }
                    name => base.push(name.to_string()),
                }
            }
            for item in items {
                let mut words = item.split_whitespace();
                let Some(name) = words.next() else { continue };
                let shown = match (words.next(), words.next()) {
                    (Some("as"), Some(alias)) => alias.to_string(),
                    _ => name.to_string(),
                };
                if name == "self" || name == "*" {
                    continue;
                }
                let mut full = base.clone();
                full.extend(name.split("::").map(String::from));
                let Some(def) = (0..=full.len())
                    .rev()
                    .map(|n| full[..n].to_vec())
                    .find(|m| modules.contains_key(m))
                else {
                    continue;
                };
                if def != me {
                    out.insert((me.clone(), shown), def);
                }
            }
        }
    }
    out
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn circles(edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(out) = s.edges.get(v) {
            for w in out.keys() {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let l = s.low[w].min(s.low[v]);
                    s.low.insert(v, l);
                } else if s.on_stack.contains(w) {
                    let l = s.index[w].min(s.low[v]);
                    s.low.insert(v, l);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn assert_no_circles(crate_src: &str) {
    let edges = graph(&Path::new(ROOT).join(crate_src));
    let found = circles(&edges);
    let mut report = String::new();
    for comp in &found {
        report.push_str("circle:\n");
        for a in comp {
            for (b, names) in edges.get(a).into_iter().flatten() {
                if comp.contains(b) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    report.push_str(&format!("  {a} -> {b}: {}\n", names.join(", ")));
                }
            }
        }
    }
    assert!(found.is_empty(), "import circles in {crate_src}:\n{report}");
}

#[test]
fn the_engine_library_has_no_import_circle() {
    assert_no_circles("engine/src");
}

#[test]
fn the_match_runner_has_no_import_circle() {
    assert_no_circles("tourney/src");
}

#[test]
fn the_protocol_client_and_the_front_ends_have_no_import_circle() {
    assert_no_circles("client/src");
    assert_no_circles("gui/src");
}

/// The protocol client links no engine library: the runner and the front ends share it as
/// clients of engine processes.
#[test]
fn the_protocol_client_does_not_link_the_engine() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("client/Cargo.toml")).unwrap();
    for banned in ["buffgreen-engine", "buffgreen-tourney", "buffgreen-gui"] {
        assert!(
            !manifest.contains(banned),
            "client/Cargo.toml names {banned}"
        );
    }
}

/// The rules crate, which both the engine library and the protocol client read, links no
/// crate of the workspace: the arrows point down to it.
#[test]
fn the_rules_crate_links_no_crate_of_ours() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("rules/Cargo.toml")).unwrap();
    assert!(
        !manifest.contains("path = \"../"),
        "rules/Cargo.toml names a crate of the workspace"
    );
}

/// A fresh folder `name` for a made-up crate, with `src/a/` in it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/a")).unwrap();
    dir
}

/// The checker itself finds a circle and ignores the module tree's own edges.
#[test]
fn a_circle_between_two_rooms_is_found() {
    let dir = scratch("layout");
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("src/lib.rs", "pub mod a;\npub mod b;\n");
    write("src/a/mod.rs", "pub mod x;\npub use x::X;\npub struct A;\n");
    write(
        "src/a/x.rs",
        "use crate::a::A;\n// crate::b::B in a comment\npub struct X;\n",
    );
    write("src/b.rs", "use crate::a::x::X;\npub struct B;\n");
    let edges = graph(&dir.join("src"));
    assert_eq!(circles(&edges), Vec::<Vec<String>>::new());
    write(
        "src/a/x.rs",
        "use crate::a::A;\nuse crate::{b::B};\npub struct X;\n",
    );
    let edges = graph(&dir.join("src"));
    let found = circles(&edges);
    let names: Vec<Vec<&str>> = found
        .iter()
        .map(|c| c.iter().map(|f| f.rsplit('/').next().unwrap()).collect())
        .collect();
    assert_eq!(names, vec![vec!["x.rs", "b.rs"]]);
    // The same circle through the parent's re-export: `crate::a::X` is `a/x.rs`'s X.
    write("src/b.rs", "use crate::a::X;\npub struct B;\n");
    let edges = graph(&dir.join("src"));
    assert_eq!(circles(&edges).len(), 1);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The engine library knows neither the match runner nor the web stack: both drive engines
/// as processes.
#[test]
fn the_engine_library_depends_on_no_runner_and_no_web_stack() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("engine/Cargo.toml")).unwrap();
    for banned in [
        "buffgreen-tourney",
        "buffgreen-gui",
        "tungstenite",
        "tiny_http",
        "axum",
        "tokio",
        "hyper",
    ] {
        assert!(
            !manifest.contains(banned),
            "engine/Cargo.toml names {banned}"
        );
    }
}

/// Every crate of the workspace, by its sources: their module maps are checked.
const CRATES: [&str; 9] = [
    "src",
    "rules/src",
    "engine/src",
    "client/src",
    "tourney/src",
    "gui/src",
    "testkit/src",
    "lab/src",
    "tune/src",
];

/// The child modules of the module whose children live in `dir`: each `x.rs` (but the crate
/// roots, `mod.rs` and a unit tests' `tests.rs`) and each folder with a `mod.rs`; a crate's
/// `bin/` holds programs, not modules.
fn child_modules(dir: &Path, crate_root: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            if path.join("mod.rs").is_file() && !(crate_root && name == "bin") {
                out.insert(name);
            }
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if !["lib", "main", "mod", "tests"].contains(&stem) {
                out.insert(stem.to_string());
            }
        }
    }
    out
}

/// The "Layout:" paragraph of a module's own docs (`//!`): from the line that says
/// "Layout:" to the next empty `//!` line or the end of the docs.
fn layout_paragraph(text: &str) -> Option<String> {
    let docs: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("//!"))
        .collect();
    let start = docs.iter().position(|l| l.contains("Layout:"))?;
    let paragraph: Vec<&str> = docs[start..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .copied()
        .collect();
    Some(paragraph.join("\n"))
}

/// The plain names a paragraph puts in backticks (`name`, [`name`]); a path (`a::b`), a
/// command or a flag is no module name.
fn names_in(paragraph: &str) -> BTreeSet<String> {
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && w.starts_with(|c: char| c.is_ascii_lowercase())
        })
        .map(String::from)
        .collect()
}

/// What is wrong with the module maps of the crate whose sources are in `src`: every module
/// with child modules has a "Layout:" paragraph, which names each child that exists (in
/// backticks, linked or not) and no plain name in backticks that is not one of them.
fn layout_errors(src: &Path) -> Vec<String> {
    let mut errors = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let crate_root = dir == src;
        let children = child_modules(&dir, crate_root);
        for child in &children {
            if dir.join(child).join("mod.rs").is_file() {
                dirs.push(dir.join(child));
            }
        }
        if children.is_empty() {
            continue;
        }
        let file = if crate_root {
            ["lib.rs", "main.rs"]
                .iter()
                .map(|f| dir.join(f))
                .find(|f| f.is_file())
                .unwrap_or_else(|| dir.join("lib.rs"))
        } else {
            dir.join("mod.rs")
        };
        let shown = file
            .strip_prefix(ROOT)
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let Some(paragraph) = layout_paragraph(&text) else {
            errors.push(format!(
                "{shown}: no \"Layout:\" paragraph for {children:?}"
            ));
            continue;
        };
        let named = names_in(&paragraph);
        let missing: Vec<&String> = children.difference(&named).collect();
        if !missing.is_empty() {
            errors.push(format!("{shown}: the layout leaves out {missing:?}"));
        }
        let stale: Vec<&String> = named.difference(&children).collect();
        if !stale.is_empty() {
            errors.push(format!(
                "{shown}: the layout names {stale:?}, which are no files"
            ));
        }
    }
    errors
}

#[test]
fn every_module_map_names_the_files_that_exist() {
    let errors: Vec<String> = CRATES
        .iter()
        .flat_map(|c| layout_errors(&Path::new(ROOT).join(c)))
        .collect();
    assert!(errors.is_empty(), "module maps:\n{}", errors.join("\n"));
}

/// The checker itself finds a map without a paragraph, one that leaves a file out and one that
/// names a file that is gone.
#[test]
fn a_stale_module_map_is_found() {
    let dir = scratch("layout-map");
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write(
        "src/lib.rs",
        "//! A crate.\n//!\n//! Layout: [`a`] and `b`.\n\npub mod a;\nmod b;\n",
    );
    write("src/b.rs", "");
    write(
        "src/a/mod.rs",
        "//! No map.\n\nmod x;\n#[cfg(test)]\nmod tests;\n",
    );
    write("src/a/x.rs", "");
    write("src/a/tests.rs", "");
    let src = dir.join("src");
    let errors = layout_errors(&src);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].ends_with("no \"Layout:\" paragraph for {\"x\"}"));
    write(
        "src/a/mod.rs",
        "//! Layout: `x` and `y`, see `crate::b` and `go`.\n\nmod x;\n",
    );
    let errors = layout_errors(&src);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].ends_with("the layout names [\"go\", \"y\"], which are no files"));
    std::fs::remove_file(dir.join("src/b.rs")).unwrap();
    write("src/c.rs", "");
    write("src/a/mod.rs", "//! Layout: `x`.\n\nmod x;\n");
    let errors = layout_errors(&src);
    assert_eq!(
        errors,
        [
            format!(
                "{}: the layout leaves out [\"c\"]",
                src.join("lib.rs").display()
            ),
            format!(
                "{}: the layout names [\"b\"], which are no files",
                src.join("lib.rs").display()
            ),
        ]
    );
    std::fs::remove_dir_all(dir).unwrap();
}
