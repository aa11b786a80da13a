//! Diagnostics: problems in a case file as data.
//!
//! Every stage that reads user input returns [`Diagnostic`]s (a byte span in
//! the case file, a message, hints) instead of failing on the first problem,
//! so one run reports everything wrong with a file. Only the binary prints
//! them; [`render`] turns them into the `file:line:col` / source line / caret
//! form of SPEC §3 as a string.

use std::ops::Range;

/// One problem in a source file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Byte range in the source file (may be empty: points at a position).
    pub span: Range<usize>,
    /// What is wrong, one sentence.
    pub message: String,
    /// What was expected, suggestions ("did you mean …").
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic without hints.
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            message: message.into(),
            hints: Vec::new(),
        }
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// Adds a hint when there is one.
    pub fn maybe_hint(mut self, hint: Option<String>) -> Self {
        self.hints.extend(hint);
        self
    }
}

/// Bad input: the file it came from, its text and every problem found.
#[derive(Clone, Debug)]
pub struct SourceError {
    /// Path as given by the user.
    pub path: String,
    /// The whole source text.
    pub source: String,
    /// Problems, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render(&self.path, &self.source, &self.diagnostics, false))
    }
}

impl std::error::Error for SourceError {}

/// Line and column (1-based, columns in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..floor_char_boundary(source, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders diagnostics as `error: message`, ` --> file:line:col`, the source
/// line and a caret under the span, then the hints.
pub fn render(path: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, Config, termcolor::Buffer};

    let file = SimpleFile::new(path, source);
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config::default();
    for d in diagnostics {
        let start = floor_char_boundary(source, d.span.start.min(source.len()));
        let end = floor_char_boundary(source, d.span.end.clamp(start, source.len()));
        let cs = CsDiagnostic::error()
            .with_message(&d.message)
            .with_labels(vec![Label::primary((), start..end)])
            .with_notes(d.hints.iter().map(|h| format!("help: {h}")).collect());
        // Writing to an in-memory buffer cannot fail for a span inside the file.
        let _ = term::emit(&mut buffer, &config, &file, &cs);
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, c)| d <= limit && d < c.chars().count())
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let src = "a = 1\nbé = \"x\"\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        let x = src.find('"').unwrap();
        assert_eq!(line_col(src, x), (2, 6));
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            closest("stifness", ["stiffness", "damping"]),
            Some("stiffness")
        );
        assert_eq!(closest("xyz", ["stiffness", "damping"]), None);
    }
}
