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

/// Why an input could not be read: the file itself, or what it says.
#[derive(Debug)]
pub enum ReadError {
    /// A file could not be read.
    Io {
        /// Path as given.
        path: String,
        /// What the operating system said.
        message: String,
    },
    /// The text has problems (each with a span).
    Input(SourceError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            ReadError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {}

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

/// Lines longer than this many bytes are quoted clipped around the span.
const MAX_QUOTED_LINE: usize = 240;
/// Characters of context kept on each side of a span in a clipped line.
const CLIP_CONTEXT: usize = 60;

/// The part of one long source line around a span, quoted in place of the
/// whole line (a one-line model of megabytes must not become a message of
/// megabytes), with the line and column numbers of the original.
struct Clipped<'a> {
    name: &'a str,
    text: String,
    line: usize,
    /// Characters of the original line before the window.
    column_base: usize,
}

impl<'a> Clipped<'a> {
    /// `None` when the span's line is short enough to quote whole. Offsets
    /// are in `text`; the span returned is in the clipped text.
    fn around(
        name: &'a str,
        text: &str,
        start: usize,
        end: usize,
    ) -> Option<(Clipped<'a>, std::ops::Range<usize>)> {
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        if line_end - line_start <= MAX_QUOTED_LINE {
            return None;
        }
        let end = end.min(line_end).max(start);
        let back = |from: usize, chars: usize| {
            text[line_start..from]
                .char_indices()
                .rev()
                .nth(chars.saturating_sub(1))
                .map_or(line_start, |(i, _)| line_start + i)
        };
        let ahead = |from: usize, chars: usize| {
            text[from..line_end]
                .char_indices()
                .nth(chars)
                .map_or(line_end, |(i, _)| from + i)
        };
        let w_start = back(start, CLIP_CONTEXT);
        // A long span is shown by its first characters.
        let end = end.min(ahead(start, CLIP_CONTEXT));
        let w_end = ahead(end, CLIP_CONTEXT);
        let lead = if w_start > line_start { "…" } else { "" };
        let tail = if w_end < line_end { "…" } else { "" };
        let clipped = Clipped {
            name,
            text: format!("{lead}{}{tail}", &text[w_start..w_end]),
            line: text[..line_start].matches('\n').count() + 1,
            column_base: text[line_start..w_start].chars().count(),
        };
        let shift = |o: usize| o - w_start + lead.len();
        Some((clipped, shift(start)..shift(end)))
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Clipped<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line)
    }

    fn column_number(
        &'a self,
        (): (),
        _: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let lead = if self.text.starts_with('…') {
            '…'.len_utf8()
        } else {
            0
        };
        let byte = floor_char_boundary(&self.text, byte.max(lead));
        Ok(self.column_base + self.text[lead..byte].chars().count() + 1)
    }

    fn line_range(
        &'a self,
        (): (),
        _: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        Ok(0..self.text.len())
    }
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
        let cs = |span: std::ops::Range<usize>| {
            CsDiagnostic::error()
                .with_message(escape_controls(&d.message))
                .with_labels(vec![Label::primary((), span)])
                .with_notes(
                    d.hints
                        .iter()
                        .map(|h| format!("help: {}", escape_controls(h)))
                        .collect(),
                )
        };
        // Writing to an in-memory buffer cannot fail for a span inside the file.
        match Clipped::around(path.as_ref(), &shown, start, end) {
            Some((clipped, span)) => {
                let _ = term::emit(&mut buffer, &config, &clipped, &cs(span));
            }
            None => {
                let _ = term::emit(&mut buffer, &config, &file, &cs(start..end));
            }
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// Work left for "did you mean" hints (character comparisons), per
/// thread; [`reset_hint_budget`] refills it for each file read. A file with
/// thousands of unknown names among thousands of candidates would
/// otherwise spend minutes on hints nobody reads past the first hundred.
const HINT_BUDGET: u64 = 20_000_000;

thread_local! {
    static HINT_WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(HINT_BUDGET) };
}

/// Refills the hint budget (at the start of reading a file).
pub fn reset_hint_budget() {
    HINT_WORK.with(|w| w.set(HINT_BUDGET));
}

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a plausible typo (within a third of its length). Words over 64
/// characters get no hint; candidates whose length alone rules them out are
/// skipped, the distance stops once it exceeds the limit, and the work is
/// bounded per file: past the budget there is no hint, never a slow run.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w: Vec<char> = word.chars().collect();
    if w.len() > 64 {
        return None;
    }
    let limit = (w.len() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        // Length bounds the distance from below: a cheap test first.
        if c.len() > 4 * 64 || c.chars().count().abs_diff(w.len()) > limit {
            continue;
        }
        let cost = (w.len() as u64 + 1) * (c.len() as u64 + 1);
        let left = HINT_WORK.with(|h| {
            let left = h.get().saturating_sub(cost);
            h.set(left);
            left
        });
        if left == 0 {
            return None;
        }
        let bound = best.map_or(limit, |(d, _)| d.saturating_sub(1).min(limit));
        if let Some(d) = bounded_distance(&w, c, bound)
            && d < c.chars().count()
            && best.is_none_or(|(b, _)| d < b)
        {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    bounded_distance(&a, b, usize::MAX).unwrap_or(usize::MAX)
}

/// The edit distance when it is at most `bound` (rows stop as soon as every
/// entry exceeds it).
fn bounded_distance(a: &[char], b: &str, bound: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut row_min = cur[0];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            row_min = row_min.min(cur[j + 1]);
        }
        if row_min > bound {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= bound).then_some(d)
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
    fn a_long_line_is_quoted_clipped_with_its_true_position() {
        let mut src = String::from("first\n");
        src.push_str(&"x".repeat(1_000_000));
        let at = src.len() - 500_000;
        src.replace_range(at..at + 3, "BAD");
        src.push_str("\nlast\n");
        let out = render("m.xml", &src, &[Diagnostic::new(at..at + 3, "here")], false);
        assert!(out.len() < 2_000, "{} bytes", out.len());
        let col = at - 6 + 1;
        assert!(out.contains(&format!("m.xml:2:{col}")), "{out}");
        assert!(out.contains("…") && out.contains("BAD"), "{out}");
        let caret = out.lines().find(|l| l.contains("^^^")).unwrap();
        let quoted = out.lines().find(|l| l.contains("BAD")).unwrap();
        let chars_before = |l: &str, i: usize| l[..i].chars().count();
        assert_eq!(
            chars_before(caret, caret.find('^').unwrap()),
            chars_before(quoted, quoted.find("BAD").unwrap()),
            "{out}"
        );
        // A short line is quoted whole, as before.
        let out = render("m.xml", "a = 1\n", &[Diagnostic::new(4..5, "x")], false);
        assert!(out.contains("m.xml:1:5") && out.contains("a = 1"), "{out}");
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
