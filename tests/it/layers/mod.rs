//! The declared layer order is a test: ARCHITECTURE.md's `## Layers` list
//! against every import in `src/` and `python/src/`.
//!
//! The list is read from the document (its syntax is described there, beside
//! it). Every `crate::…`, `super::…`, `self::…` path and every path through a
//! child module, in `use` items and in code (comments, doc comments and
//! string literals are skipped), is resolved to the module that defines it
//! (following `pub use` re-exports) and gives an edge:
//!
//! - between top-level modules of the library: it must point down the list,
//!   never between siblings (`|`), and modules on one line (`·`) form no
//!   cycle;
//! - between the files of one folder (the folder's own `mod.rs`, its
//!   interface, aside): they form no cycle — in the library, in `src/bin/meff`
//!   and in `python/src`;
//! - to an item of the crate root (`crate::Error`, `crate::evaluate`…): only
//!   `src/lib.rs` itself may write one; the binary and the Python crate use
//!   `meff::…`, the public API, and sit above every layer.

use crate::support::root;
use std::collections::{BTreeMap, BTreeSet};

mod lex;
use lex::{Written, is_ident, written_paths};

/// One source file: its path from the repository root and its text.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// Which crate a file belongs to: `crate::` means that crate's root.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Krate {
    Lib,
    Bin,
    Python,
}

impl Krate {
    fn folder(self) -> &'static str {
        match self {
            Krate::Lib => "src/",
            Krate::Bin => "src/bin/meff/",
            Krate::Python => "python/src/",
        }
    }
}

/// Where a file sits: its crate and module path (`src/a/b.rs`,
/// `src/a/b/mod.rs` → `[a, b]`).
fn locate(path: &str) -> Option<(Krate, Vec<String>)> {
    let (krate, rel) = if let Some(r) = path.strip_prefix("src/bin/meff/") {
        (Krate::Bin, r)
    } else if path.starts_with("src/bin/") {
        return None;
    } else if let Some(r) = path.strip_prefix("src/") {
        (Krate::Lib, r)
    } else if let Some(r) = path.strip_prefix("python/src/") {
        (Krate::Python, r)
    } else {
        return None;
    };
    let rel = rel.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    let last = parts.last().map(String::as_str);
    if matches!(last, Some("mod")) || (parts.len() == 1 && matches!(last, Some("lib" | "main"))) {
        parts.pop();
    }
    Some((krate, parts))
}

// ---------------------------------------------------------------- lexing

/// The declared order: a module's line (bottom first) and group on it.
pub struct Layers {
    rank: BTreeMap<String, (usize, usize)>,
}

/// Reads the fenced list under `## Layers` in ARCHITECTURE.md.
pub fn parse_layers(doc: &str) -> Result<Layers, String> {
    let after = doc
        .split_once("\n## Layers\n")
        .ok_or("ARCHITECTURE.md has no `## Layers` section")?
        .1;
    let fence = after
        .split_once("```\n")
        .ok_or("no fenced list under `## Layers`")?
        .1;
    let list = fence
        .split_once("```")
        .ok_or("unclosed fence under `## Layers`")?
        .0;
    let mut rank = BTreeMap::new();
    for (line_no, line) in list
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        for (group_no, group) in line.split('|').enumerate() {
            for name in group.split('·').map(str::trim) {
                if name.is_empty() || !name.chars().all(is_ident) {
                    return Err(format!(
                        "`## Layers`: `{name}` is not a module name (line `{line}`)"
                    ));
                }
                if rank.insert(name.to_string(), (line_no, group_no)).is_some() {
                    return Err(format!("`## Layers`: `{name}` is listed twice"));
                }
            }
        }
    }
    Ok(Layers { rank })
}

// ---------------------------------------------------------- the checking

/// A resolved edge between two modules of one crate.
struct Edge {
    krate: Krate,
    from: Vec<String>,
    to: Vec<String>,
    /// The item named in `to`, when the path names one.
    item: Option<String>,
    path: String,
    line: usize,
}

/// All problems with `sources` against `layers`; `known_cycles`: folders
/// whose cycles are tolerated (and must still have one).
pub fn check(sources: &[Source], layers: &Layers, known_cycles: &[(&str, &str)]) -> Vec<String> {
    let mut problems = Vec::new();
    let files: Vec<File<'_>> = sources
        .iter()
        .filter_map(|s| {
            let (k, m) = locate(&s.path)?;
            Some((k, m, s, written_paths(&s.text)))
        })
        .collect();
    let modules: BTreeSet<(Krate, Vec<String>)> =
        files.iter().map(|(k, m, ..)| (*k, m.clone())).collect();

    let edges = resolve_edges(&files, &modules, &mut problems);

    // Folder graphs: (crate, folder) → node → node → first place.
    type Graph = BTreeMap<String, BTreeMap<String, (String, usize)>>;
    let mut folders: BTreeMap<(Krate, Vec<String>), Graph> = BTreeMap::new();
    let mut top_modules: BTreeSet<String> = BTreeSet::new();
    for (k, m) in &modules {
        if *k == Krate::Lib && !m.is_empty() {
            top_modules.insert(m[0].clone());
        }
    }
    for name in &top_modules {
        if !layers.rank.contains_key(name) {
            problems.push(format!(
                "src/{name}: module `{name}` is not in ARCHITECTURE.md's `## Layers` list"
            ));
        }
    }
    for name in layers.rank.keys() {
        if !top_modules.contains(name) {
            problems.push(format!(
                "ARCHITECTURE.md `## Layers` lists `{name}`, which is not a module of src/"
            ));
        }
    }
    for e in &edges {
        let common = e.from.iter().zip(&e.to).take_while(|(a, b)| a == b).count();
        // Edges to or from the folder's own file (its interface) and within
        // one file are not folder edges.
        if common == e.from.len() || common == e.to.len() {
            continue;
        }
        let (a, b) = (&e.from[common], &e.to[common]);
        if e.krate == Krate::Lib && common == 0 {
            let (Some(&(la, ga)), Some(&(lb, gb))) = (layers.rank.get(a), layers.rank.get(b))
            else {
                continue;
            };
            if lb > la {
                problems.push(format!(
                    "{}:{}: {a} -> {b} ({b} is above {a})",
                    e.path, e.line
                ));
                continue;
            }
            if lb == la && ga != gb {
                problems.push(format!(
                    "{}:{}: {a} -> {b} ({a} and {b} are siblings: they never import each other)",
                    e.path, e.line
                ));
                continue;
            }
            if lb < la {
                continue;
            }
        }
        let _ = &e.item;
        folders
            .entry((e.krate, e.to[..common].to_vec()))
            .or_default()
            .entry(a.clone())
            .or_default()
            .entry(b.clone())
            .or_insert((e.path.clone(), e.line));
    }
    let mut known_seen = BTreeSet::new();
    for ((k, folder), graph) in &folders {
        for scc in cycles(graph) {
            let place = format!(
                "{}{}",
                k.folder(),
                folder.iter().map(|f| format!("{f}/")).collect::<String>()
            );
            if known_cycles.iter().any(|(f, _)| *f == place) {
                known_seen.insert(place);
                continue;
            }
            let members: BTreeSet<&String> = scc.iter().collect();
            let mut line = format!("{place}: cycle among {}:", scc.join(", "));
            for a in &scc {
                for (b, (path, l)) in &graph[a] {
                    if members.contains(b) {
                        line.push_str(&format!(" {path}:{l}: {a} -> {b};"));
                    }
                }
            }
            problems.push(line);
        }
    }
    for (f, _) in known_cycles {
        if !known_seen.contains(*f) {
            problems.push(format!("{f}: no cycle left: take it off KNOWN_CYCLES"));
        }
    }
    problems
}

/// A source file with its module path and the paths written in it.
type File<'s> = (Krate, Vec<String>, &'s Source, Vec<Written>);

/// Every written path resolved to the module (and item) that defines it,
/// re-exports followed; a library module naming a crate-root item is a
/// problem.
fn resolve_edges(
    files: &[File<'_>],
    modules: &BTreeSet<(Krate, Vec<String>)>,
    problems: &mut Vec<String>,
) -> Vec<Edge> {
    // Resolves written segments in module `at` (inline modules `inline`
    // deep) to an absolute path in the crate, or None (another crate).
    let absolute =
        |k: Krate, at: &[String], inline: usize, segs: &[String]| -> Option<Vec<String>> {
            let first = segs[0].as_str();
            let (mut base, rest): (Vec<String>, &[String]) = match first {
                "crate" => (Vec::new(), &segs[1..]),
                "self" => (at.to_vec(), &segs[1..]),
                "super" => {
                    let supers = segs.iter().take_while(|s| *s == "super").count();
                    // `super` inside an inline module first leaves it.
                    let up = supers.saturating_sub(inline);
                    let mut b = at.to_vec();
                    for _ in 0..up {
                        b.pop()?;
                    }
                    (b, &segs[supers..])
                }
                _ => {
                    let mut child = at.to_vec();
                    child.push(first.to_string());
                    if inline == 0 && modules.contains(&(k, child)) {
                        (at.to_vec(), segs)
                    } else {
                        return None;
                    }
                }
            };
            base.extend(rest.iter().cloned());
            Some(base)
        };
    // Splits an absolute path into (module, item).
    let split = |k: Krate, abs: &[String]| -> (Vec<String>, Option<String>) {
        let mut m = abs.to_vec();
        loop {
            if modules.contains(&(k, m.clone())) {
                let item = abs.get(m.len()).filter(|s| *s != "*").cloned();
                return (m, item);
            }
            m.pop();
        }
    };
    // Re-exports: (crate, module, name) → absolute path.
    let mut exports: BTreeMap<(Krate, Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (k, m, _, written) in files {
        for w in written {
            if let Some(name) = &w.exports
                && name != "*"
                && let Some(abs) = absolute(*k, m, w.inline, &w.segments)
            {
                exports.insert((*k, m.clone(), name.clone()), abs);
            }
        }
    }
    let mut edges = Vec::new();
    for (k, m, src, written) in files {
        for w in written {
            let Some(abs) = absolute(*k, m, w.inline, &w.segments) else {
                continue;
            };
            let (mut to, mut item) = split(*k, &abs);
            // The crate root's own items are not for the library's modules.
            if *k == Krate::Lib && to.is_empty() && !m.is_empty() {
                if let Some(it) = &item {
                    problems.push(format!(
                        "{}:{}: {} -> crate::{it} (the crate root's items are its public API: import from the module that defines them)",
                        src.path, w.line, m[0]
                    ));
                }
                continue;
            }
            for _ in 0..8 {
                let Some(it) = &item else { break };
                let Some(target) = exports.get(&(*k, to.clone(), it.clone())) else {
                    break;
                };
                (to, item) = split(*k, target);
            }
            edges.push(Edge {
                krate: *k,
                from: m.clone(),
                to,
                item,
                path: src.path.clone(),
                line: w.line,
            });
        }
    }
    edges
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeMap<String, (String, usize)>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, (String, usize)>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next.keys() {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut c = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                s.out.push(c);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Every `.rs` file under `src/` and `python/src/`, sorted.
fn sources() -> Vec<Source> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let base = root();
    let mut paths = Vec::new();
    walk(&base.join("src"), &mut paths);
    walk(&base.join("python/src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| Source {
            path: p
                .strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/"),
            text: std::fs::read_to_string(&p).unwrap(),
        })
        .collect()
}

/// Folders whose files still form a cycle, each with why: the one
/// exception, which may only shrink (a listed folder without a cycle fails).
pub const KNOWN_CYCLES: &[(&str, &str)] = &[(
    "src/case/",
    "the reader's parts are `impl Reader` blocks that read.rs (the Reader and the table of known keys) \
     names back, and types.rs (Case) holds types defined beside their readers (Document, Engines, \
     Rotation, Check, Scene): the fix moves those types and the Reader down into their own files",
)];

fn declared() -> Layers {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    parse_layers(&doc).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn imports_follow_the_declared_layers() {
    let problems = check(&sources(), &declared(), KNOWN_CYCLES);
    assert!(
        problems.is_empty(),
        "{} import(s) break the layer order of ARCHITECTURE.md `## Layers`:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The test can fail: an upward import planted in a copy of the real
/// sources is named with its file, line and both modules.
#[test]
fn a_planted_upward_import_is_named() {
    let mut sources = sources();
    let units = sources
        .iter_mut()
        .find(|s| s.path == "src/units/mod.rs")
        .unwrap();
    units
        .text
        .push_str("\n// crate::report in a comment is not an import\nuse crate::report::Report;\n");
    let line = units.text.lines().count();
    let problems = check(&sources, &declared(), KNOWN_CYCLES);
    let expected = format!("src/units/mod.rs:{line}: units -> report (report is above units)");
    assert!(
        problems.contains(&expected),
        "expected `{expected}` among:\n{}",
        problems.join("\n")
    );
    eprintln!("{expected}");
}

/// Each rule on a small made-up crate: an upward edge, an edge between
/// siblings, a cycle inside a folder, a use of the root's items; paths in
/// comments, doc comments and strings are not imports.
#[test]
fn each_rule_names_its_edge() {
    let layers =
        parse_layers("x\n## Layers\n```\nlow · base  # comment\nmid | side\ntop\n```\n").unwrap();
    let src = |path: &str, text: &str| Source {
        path: path.into(),
        text: text.into(),
    };
    let sources = [
        src(
            "src/lib.rs",
            "pub mod low; pub mod base; pub mod mid; pub mod side; pub mod top;\npub struct Error;",
        ),
        src(
            "src/low.rs",
            "use crate::base::B;\n/// crate::top::T\nconst S: &str = \"crate::top\";\n",
        ),
        src("src/base.rs", "pub struct B;\nfn f() { crate::mid::g() }\n"),
        src("src/mid/mod.rs", "mod a; mod b;\npub use b::Thing;\n"),
        src("src/mid/a.rs", "use super::Thing;\n"),
        src(
            "src/mid/b.rs",
            "pub struct Thing;\nfn h() { let _ = super::a::X; crate::side::y(); }\n",
        ),
        src("src/side.rs", "fn e() -> crate::Error { todo!() }\n"),
        src(
            "src/top.rs",
            "use crate::{low, mid::{self, Thing}};\n#[cfg(test)]\nmod tests { use super::*; }\n",
        ),
    ];
    let problems = check(&sources, &layers, &[]);
    let expected = [
        "src/base.rs:2: base -> mid (mid is above base)",
        "src/mid/b.rs:2: mid -> side (mid and side are siblings: they never import each other)",
        "src/side.rs:1: side -> crate::Error (the crate root's items are its public API: import from the module that defines them)",
        "src/mid/: cycle among a, b: src/mid/a.rs:1: a -> b; src/mid/b.rs:2: b -> a;",
    ];
    for e in expected {
        assert!(
            problems.iter().any(|p| p == e),
            "expected `{e}` among:\n{}",
            problems.join("\n")
        );
    }
    assert_eq!(problems.len(), expected.len(), "{}", problems.join("\n"));
}
