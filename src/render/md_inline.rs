//! Inline pieces of Markdown that stay inert in every renderer, shared by
//! the escaping of report strings (`safe`) and the re-emission of a case
//! author's description (`inert_md`): the allowed link URLs, a code span,
//! math between `$` signs, and mdBook directives broken.

/// True for a link a report may carry: relative, `#fragment`, `http(s):`
/// or `mailto:`. The scheme is judged as a browser would: ASCII control
/// characters and whitespace are ignored and case does not matter.
pub fn allowed_url(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_ascii_control() && !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    // Text before the first of `:/?#` is a scheme only when a `:` ends it.
    match cleaned.find([':', '/', '?', '#']) {
        Some(i) if cleaned[i..].starts_with(':') => {
            let scheme = &cleaned[..i];
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => !cleaned.starts_with("\\\\") && !url.contains('\\'),
    }
}

/// A Markdown code span holding `s` literally: the fence is longer than
/// any run of backticks inside, and `|` is escaped so that a table cell is
/// not split (GitHub Flavored Markdown removes that backslash in cells).
pub fn markdown_code(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() {
        " "
    } else {
        ""
    };
    let body = break_directives(&s.replace('|', "\\|"));
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// LaTeX placed between `$` signs in Markdown: characters that a
/// Markdown renderer without math support would treat as HTML, table cell
/// breaks or the end of the math are replaced by their LaTeX commands.
pub fn markdown_math(latex: &str) -> String {
    let mut out = String::with_capacity(latex.len());
    let mut chars = latex.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("\\lt "),
            '>' => out.push_str("\\gt "),
            '|' => out.push_str("\\vert "),
            '$' => out.push_str("\\$"),
            // An alignment tab (`&=`, `& \quad`) cannot start an HTML
            // entity; any other `&` is escaped.
            '&' if chars
                .peek()
                .is_some_and(|n| *n == '=' || *n == ' ' || *n == '\\') =>
            {
                out.push('&');
            }
            '&' => out.push_str("\\&"),
            '`' => out.push_str("\\text{`}"),
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    break_directives(&out)
}

/// `{{` that would open an mdBook directive (`{{#include …}}`: two
/// braces, optional white space, `#`) broken by a word joiner (U+2060,
/// invisible), for literal contexts (code, math) where a backslash would
/// show. mdBook's `links` preprocessor runs after `meff mdbook` and would
/// otherwise read the file a case author named.
pub fn break_directives(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at + 1]);
        let after = &rest[at + 1..];
        if after[1..].trim_start().starts_with('#') {
            out.push('\u{2060}');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}
