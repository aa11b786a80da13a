//! Code structure: no Rust file in `src/`, `python/src/` or `tests/` is
//! longer than [`MAX_FILE_LINES`] lines, and no function longer than
//! [`MAX_FN_LINES`] (from its `fn` line to its closing brace), so that a
//! file is one subject and a function one step a reader can hold. A
//! failure names the file, the line and the length.

use crate::support::root;
use std::path::{Path, PathBuf};

/// The longest a Rust file may be, in lines.
const MAX_FILE_LINES: usize = 800;

/// The longest a function may be, in lines.
const MAX_FN_LINES: usize = 150;

/// Functions over [`MAX_FN_LINES`] still being split, as `(file, name)`.
/// Empty: every function is short. Kept for a function that must wait
/// for a split (with its reason): whoever splits one
/// removes its entry; the test fails on an entry that is no longer long,
/// so the list only shrinks. It is meant to be empty.
const LONG_FNS_BEING_SPLIT: &[(&str, &str)] = &[];

/// Files over [`MAX_FILE_LINES`] still to split, as for
/// [`LONG_FNS_BEING_SPLIT`].
const LONG_FILES_BEING_SPLIT: &[&str] = &[];

#[test]
fn files_and_functions_stay_short() {
    let mut long = Vec::new();
    let mut seen_fns = Vec::new();
    let mut seen_files = Vec::new();
    for path in rust_files() {
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            if LONG_FILES_BEING_SPLIT.contains(&rel.as_str()) {
                seen_files.push(rel.clone());
            } else {
                long.push(format!("{rel}: {lines} lines (at most {MAX_FILE_LINES})"));
            }
        }
        for f in functions(&text) {
            if f.lines <= MAX_FN_LINES {
                continue;
            }
            if LONG_FNS_BEING_SPLIT.contains(&(rel.as_str(), f.name.as_str())) {
                seen_fns.push((rel.clone(), f.name.clone()));
            } else {
                long.push(format!(
                    "{rel}:{}: fn {} is {} lines (at most {MAX_FN_LINES})",
                    f.line, f.name, f.lines
                ));
            }
        }
    }
    for (file, name) in LONG_FNS_BEING_SPLIT {
        if !seen_fns.iter().any(|(f, n)| f == file && n == name) {
            long.push(format!(
                "{file}: fn {name} is no longer over {MAX_FN_LINES} lines \
                 (or is gone): remove it from LONG_FNS_BEING_SPLIT"
            ));
        }
    }
    for file in LONG_FILES_BEING_SPLIT {
        if !seen_files.iter().any(|f| f == file) {
            long.push(format!(
                "{file} is no longer over {MAX_FILE_LINES} lines (or is gone): \
                 remove it from LONG_FILES_BEING_SPLIT"
            ));
        }
    }
    assert!(long.is_empty(), "split by meaning:\n{}", long.join("\n"));
}

/// The scanner finds what the test relies on: one-line functions, trait
/// declarations without a body, braces in strings, characters and
/// comments, nested functions, and lengths counted from `fn` to `}`.
#[test]
fn the_function_scanner_measures_functions() {
    let text = r##"
/// doc { with a brace
pub(crate) fn one() -> u8 { 1 }
trait T {
    fn declared(&self) -> u8;
    fn provided(&self) {
        let s = "}}}";
        let r = r#"{ "#;
        let c = '}';
        let l: &'static str = "";
        // }
        /* } */
    }
}
fn outer<'a>(x: &'a str)
where
    'a: 'static,
{
    fn inner() {}
    let f: fn(u8) -> u8 = |y| y;
}
"##;
    let got: Vec<(String, usize, usize)> = functions(text)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    let want = [
        ("one", 3, 1),
        ("provided", 6, 8),
        ("outer", 15, 7),
        ("inner", 19, 1),
    ];
    let want: Vec<(String, usize, usize)> = want
        .iter()
        .map(|&(n, l, c)| (n.to_string(), l, c))
        .collect();
    assert_eq!(got, want);
}

/// Every `.rs` file under `src/`, `python/src/` and `tests/`.
fn rust_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["src", "python/src", "tests"] {
        walk(&root().join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 100, "the walk found the sources");
    files
}

/// A function found in a file: its name, the line of its `fn` (from 1)
/// and its length in lines, `fn` line and closing-brace line included.
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// The functions with a body in Rust source `text`. A small lexer: braces
/// in comments, strings (raw ones too) and character literals do not
/// count; a `fn` followed by a name starts an item, whose body is the
/// first `{` before any `;`.
fn functions(text: &str) -> Vec<Function> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    // (name, fn line, depth at the `fn`), waiting for the body's `{`.
    let mut pending: Option<(String, usize, usize)> = None;
    // (name, fn line, depth of the body's `{`).
    let mut open: Vec<(String, usize, usize)> = Vec::new();
    let (mut i, mut line, mut depth) = (0, 1, 0usize);
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut nest = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        nest += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        nest -= 1;
                        i += 2;
                        if nest == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(b[i] == b'\n');
                        i += 1;
                    }
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    line += usize::from(b.get(i) == Some(&b'\n'));
                    i += 1;
                }
            }
            b'r' if !ident_byte(prev(b, i)) && raw_string_start(b, i).is_some() => {
                let (hashes, body) = raw_string_start(b, i).unwrap();
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                i = body;
                while i < b.len() && !b[i..].starts_with(&close) {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
                i += close.len();
                continue;
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{7f}'), not a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 2;
                } else if let Some(ch) = text[i + 1..].chars().next()
                    && text[i + 1 + ch.len_utf8()..].starts_with('\'')
                {
                    i += ch.len_utf8() + 1;
                }
            }
            b'{' => {
                if let Some((name, at, _)) = pending.take() {
                    open.push((name, at, depth));
                }
                depth += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if open.last().is_some_and(|o| o.2 == depth) {
                    let (name, at, _) = open.pop().unwrap();
                    found.push(Function {
                        name,
                        line: at,
                        lines: line - at + 1,
                    });
                }
            }
            b';' if pending.as_ref().is_some_and(|p| p.2 == depth) => pending = None,
            b'f' if !ident_byte(prev(b, i)) && b[i..].starts_with(b"fn") => {
                let mut j = i + 2;
                if b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                    while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                        j += 1;
                    }
                    let start = j;
                    while b.get(j).is_some_and(|&c| ident_byte(c)) {
                        j += 1;
                    }
                    if j > start {
                        pending = Some((text[start..j].to_string(), line, depth));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    found.sort_by_key(|f| f.line);
    found
}

fn prev(b: &[u8], i: usize) -> u8 {
    if i == 0 { b' ' } else { b[i - 1] }
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// At `r"`, `r#"`, `br##"`…: the number of `#`s and where the text begins.
fn raw_string_start(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut j = i + 1;
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    (b.get(j) == Some(&b'"')).then_some((hashes, j + 1))
}
