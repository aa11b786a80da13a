//! Diagnostics: problems in a case file as data.
//!
//! Every stage that reads user input returns [`Diagnostic`]s (a byte span in
//! the case file, a message, hints) instead of failing on the first problem,
//! so one run reports everything wrong with a file. Only the binary prints
//! them; [`render`] turns them into the `file:line:col` / source line / caret
//! form of the error format as a string.

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

/// A control character as it is shown to a person: `\e`, `\u{9b}`, …
pub fn escape_char(c: char) -> String {
    match c {
        '\t' => "\\t".into(),
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\u{1b}' => "\\e".into(),
        c => format!("\\u{{{:x}}}", c as u32),
    }
}

/// True for characters that must not reach a terminal raw: C0 and C1
/// controls, DEL, and the bidirectional overrides that reorder text.
fn is_unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every control character (line breaks included) shown escaped,
/// so that names and paths from a case cannot drive a terminal.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| {
                if is_unsafe_char(c) {
                    escape_char(c)
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// Text for a terminal: control characters escaped except line breaks.
pub fn terminal_text(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && is_unsafe_char(c)) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.split('\n')
            .map(|l| escape_controls(l).into_owned())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The source with control characters (other than line breaks and tabs)
/// escaped, and a map from byte offsets in the original to the copy.
fn displayable(source: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(source.len());
    // (original offset, shown offset) at each change of shift.
    let mut shifts = vec![(0, 0)];
    for (i, c) in source.char_indices() {
        if c != '\n' && c != '\t' && is_unsafe_char(c) {
            out.push_str(&escape_char(c));
            shifts.push((i + c.len_utf8(), out.len()));
        } else {
            out.push(c);
        }
    }
    (out, shifts)
}

fn shifted(shifts: &[(usize, usize)], offset: usize) -> usize {
    let k = shifts
        .partition_point(|&(o, _)| o <= offset)
        .saturating_sub(1);
    let (o, d) = shifts[k];
    d + (offset - o)
}

/// Renders diagnostics as `error: message`, ` --> file:line:col`, the source
/// line and a caret under the span, then the hints. Control characters in
/// the path, the source and the messages are shown escaped.
pub fn render(path: &str, source: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, Config, termcolor::Buffer};

    let (shown, shifts) = displayable(source);
    let path = escape_controls(path);
    let file = SimpleFile::new(path.as_ref(), shown.as_str());
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config::default();
    for d in diagnostics {
        let start = floor_char_boundary(source, d.span.start.min(source.len()));
        let end = floor_char_boundary(source, d.span.end.clamp(start, source.len()));
        let (start, end) = (shifted(&shifts, start), shifted(&shifts, end));
        let cs = CsDiagnostic::error()
            .with_message(escape_controls(&d.message))
            .with_labels(vec![Label::primary((), start..end)])
            .with_notes(
                d.hints
                    .iter()
                    .map(|h| format!("help: {}", escape_controls(h)))
                    .collect(),
            );
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
    fn control_characters_are_escaped() {
        let src = "name = \"a\u{1b}[31mb\"\nx = 1\n";
        let at = src.find('b').unwrap();
        let out = render(
            "f\u{1b}.toml",
            src,
            &[Diagnostic::new(at..at + 1, "bad \u{1b}[2J")],
            false,
        );
        assert!(!out.contains('\u{1b}'), "{out}");
        assert!(
            out.contains("f\\e.toml:1:") && out.contains("a\\e[31mb"),
            "{out}"
        );
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
