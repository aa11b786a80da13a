//! The layer test's reader: Rust source → the paths it writes (`use`
//! trees and paths in code), comments and string literals skipped.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

struct Token {
    tok: Tok,
    line: usize,
}

pub(super) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Rust text → identifiers, `::` and punctuation with their line; comments,
/// string, byte-string, raw-string and char literals and lifetimes dropped.
fn lex(text: &str) -> Vec<Token> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let n = s.len();
    // Skips a quoted literal starting at s[i] == '"'; returns past its end.
    let skip_string = |mut i: usize, line: &mut usize| {
        i += 1;
        while i < n && s[i] != '"' {
            if s[i] == '\\' {
                i += 1;
            }
            if i < n && s[i] == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i + 1
    };
    while i < n {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && i + 1 < n && s[i + 1] == '/' {
            while i < n && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && i + 1 < n && s[i + 1] == '*' {
            let mut depth = 0;
            while i < n {
                if s[i] == '/' && i + 1 < n && s[i + 1] == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && i + 1 < n && s[i + 1] == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if s[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(i, &mut line);
        } else if c == '\'' {
            if i + 1 < n && s[i + 1] == '\\' {
                i += 2;
                while i < n && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if i + 2 < n && s[i + 2] == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime: its name lexes as an identifier
            }
        } else if is_ident(c) {
            let start = i;
            while i < n && is_ident(s[i]) {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if raw_prefix && i < n && (s[i] == '"' || s[i] == '#') {
                let mut hashes = 0;
                let mut j = i;
                while j < n && s[j] == '#' {
                    hashes += 1;
                    j += 1;
                }
                if j < n && s[j] == '"' {
                    // A raw string: ends at `"` and as many `#`.
                    j += 1;
                    loop {
                        if j >= n {
                            break;
                        }
                        if s[j] == '\n' {
                            line += 1;
                        }
                        if s[j] == '"' && (0..hashes).all(|k| j + 1 + k < n && s[j + 1 + k] == '#')
                        {
                            j += 1 + hashes;
                            break;
                        }
                        j += 1;
                    }
                    i = j;
                    continue;
                }
                if hashes == 1 && j < n && is_ident(s[j]) {
                    // A raw identifier `r#name`.
                    let start = j;
                    while j < n && is_ident(s[j]) {
                        j += 1;
                    }
                    out.push(Token {
                        tok: Tok::Ident(s[start..j].iter().collect()),
                        line,
                    });
                    i = j;
                    continue;
                }
            }
            if (word == "b" || word == "c") && i < n && s[i] == '"' {
                i = skip_string(i, &mut line);
                continue;
            }
            if word == "b" && i < n && s[i] == '\'' {
                continue; // b'x': the quote is handled as a char literal
            }
            out.push(Token {
                tok: Tok::Ident(word),
                line,
            });
        } else if c == ':' && i + 1 < n && s[i + 1] == ':' {
            out.push(Token {
                tok: Tok::Sep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

// --------------------------------------------------------------- parsing

/// A path written in a file.
#[derive(Debug)]
pub(super) struct Written {
    /// Segments as written (`crate`, `super`, …, `*` for a glob).
    pub(super) segments: Vec<String>,
    pub(super) line: usize,
    /// Inline modules (`mod tests { … }`) the path sits in.
    pub(super) inline: usize,
    /// A `pub use` (a re-export): the name it exports.
    pub(super) exports: Option<String>,
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Expands a use tree starting at `toks[*i]` into full paths.
fn use_tree(
    toks: &[Token],
    i: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*i).map(|t| &t.tok) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                path.push("*".into());
                out.push((path, "*".into()));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.tok) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, &path, out),
                    }
                }
            }
            _ => {}
        }
        match toks.get(*i).map(|t| &t.tok) {
            Some(Tok::Sep) => *i += 1,
            _ => break,
        }
    }
    let mut name = path.last().cloned().unwrap_or_default();
    if ident(toks.get(*i)) == Some("as") {
        if let Some(a) = ident(toks.get(*i + 1)) {
            name = a.to_string();
        }
        *i += 2;
    }
    if name == "self" {
        path.pop();
        name = path.last().cloned().unwrap_or_default();
    }
    out.push((path, name));
}

/// Every path a file writes that could name a module of its own crate.
pub(super) fn written_paths(text: &str) -> Vec<Written> {
    let toks = lex(text);
    let mut out = Vec::new();
    // Open inline modules: the brace depth at which each closes.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match &t.tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
            }
            Tok::Ident(w)
                if w == "mod"
                    && ident(toks.get(i + 1)).is_some()
                    && toks.get(i + 2).map(|t| &t.tok) == Some(&Tok::Punct('{')) =>
            {
                inline.push(depth);
                depth += 1;
                i += 3;
                continue;
            }
            Tok::Ident(w) if w == "use" => {
                // `pub use`, `pub(crate) use`: a re-export.
                let public = (i >= 1 && ident(toks.get(i - 1)) == Some("pub"))
                    || (i >= 4
                        && ident(toks.get(i - 4)) == Some("pub")
                        && toks[i - 1].tok == Tok::Punct(')'));
                let line = t.line;
                i += 1;
                let mut paths = Vec::new();
                use_tree(&toks, &mut i, &[], &mut paths);
                for (segments, name) in paths {
                    out.push(Written {
                        segments,
                        line,
                        inline: inline.len(),
                        exports: public.then_some(name),
                    });
                }
                continue;
            }
            Tok::Ident(w) => {
                let after_sep = i >= 1 && toks[i - 1].tok == Tok::Sep;
                let macro_crate = w == "crate" && i >= 1 && toks[i - 1].tok == Tok::Punct('$');
                if !after_sep && toks.get(i + 1).map(|t| &t.tok) == Some(&Tok::Sep) || macro_crate {
                    let line = t.line;
                    let mut segments = vec![w.clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.tok) == Some(&Tok::Sep) {
                        match ident(toks.get(j + 1)) {
                            Some(s) => segments.push(s.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    if segments.len() > 1 {
                        out.push(Written {
                            segments,
                            line,
                            inline: inline.len(),
                            exports: None,
                        });
                    }
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

// ------------------------------------------------------------ the layers
