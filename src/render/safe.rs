//! Output safety: what a case file's author writes must never run in a
//! reader's browser or break the layout of a report.
//!
//! Case files come from other people (CI, documentation builds), so every
//! string that reaches an output goes through one of these:
//! - [`sanitize_mathml`]: whatever a LaTeX converter returns is re-emitted
//!   from an allow-list of MathML (and a few inline HTML) elements and
//!   attributes, text escaped; anything else is dropped or shown as text.
//! - [`allowed_url`]: links in descriptions may be relative, `#fragment`,
//!   `http(s):` or `mailto:`; anything else is rendered as text.
//! - [`markdown_text`], [`markdown_code`], [`markdown_description`]:
//!   strings copied into Markdown reports are escaped (tables included);
//!   raw HTML and unsafe links in descriptions are neutralised.
//! - [`url_segment`]: file names become percent-encoded relative links.

pub use super::md_inline::{allowed_url, markdown_code, markdown_math};

/// MathML elements (and the inline HTML that converters use for `\text`
/// styles) that may appear in a report.
const ELEMENTS: &[&str] = &[
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "mspace",
    "mfrac",
    "msqrt",
    "mroot",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mmultiscripts",
    "mprescripts",
    "none",
    "mtable",
    "mtr",
    "mtd",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
    "mstyle",
    "b",
    "i",
    "em",
    "code",
    "s",
    "u",
    "span",
];

/// Attributes that carry layout only (no URLs, no scripts).
const ATTRIBUTES: &[&str] = &[
    "display",
    "class",
    "style",
    "mathvariant",
    "stretchy",
    "form",
    "fence",
    "separator",
    "lspace",
    "rspace",
    "displaystyle",
    "scriptlevel",
    "linethickness",
    "width",
    "height",
    "depth",
    "voffset",
    "minsize",
    "maxsize",
    "accent",
    "accentunder",
    "notation",
    "movablelimits",
    "symmetric",
    "largeop",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "columnspan",
    "rowspan",
    "encoding",
];

/// Escapes text for HTML element content and attribute values.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The length of a character reference (`&amp;`, `&#955;`, `&#x3bb;`) at
/// the start of `s`, if there is one.
fn entity_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first() != Some(&b'&') {
        return None;
    }
    let (start, ok): (usize, fn(u8) -> bool) = match (b.get(1), b.get(2)) {
        (Some(b'#'), Some(b'x' | b'X')) => (3, |c: u8| c.is_ascii_hexdigit()),
        (Some(b'#'), _) => (2, |c: u8| c.is_ascii_digit()),
        _ => (1, |c: u8| c.is_ascii_alphanumeric()),
    };
    let mut i = start;
    while i < b.len() && i - start < 32 && ok(b[i]) {
        i += 1;
    }
    (i > start && b.get(i) == Some(&b';')).then_some(i + 1)
}

/// Text content: character references kept, everything else escaped.
fn push_text(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(n) = entity_len(rest) {
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            continue;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
}

/// A `style` value is kept only when it is plain layout: no URLs, imports,
/// escapes or expressions.
fn safe_style(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    v.chars()
        .all(|c| c.is_ascii_alphanumeric() || " :;.,%#()-_".contains(c))
        && !lower.contains("url")
        && !lower.contains("expression")
        && !lower.contains("image")
}

struct Tag<'a> {
    name: &'a str,
    closing: bool,
    self_closing: bool,
    attributes: Vec<(&'a str, Option<&'a str>)>,
    len: usize,
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b':'
}

/// Parses a tag at the start of `s` (which begins with `<`); `None` when it
/// is not a well-formed tag (then the `<` is text).
fn parse_tag(s: &str) -> Option<Tag<'_>> {
    let b = s.as_bytes();
    let mut i = 1;
    let closing = b.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let name_start = i;
    while i < b.len() && is_name_byte(b[i]) {
        i += 1;
    }
    if i == name_start || !b[name_start].is_ascii_alphabetic() {
        return None;
    }
    let name = &s[name_start..i];
    let mut attributes = Vec::new();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        match b.get(i)? {
            b'>' => {
                return Some(Tag {
                    name,
                    closing,
                    self_closing: false,
                    attributes,
                    len: i + 1,
                });
            }
            b'/' if b.get(i + 1) == Some(&b'>') => {
                return Some(Tag {
                    name,
                    closing,
                    self_closing: true,
                    attributes,
                    len: i + 2,
                });
            }
            _ => {}
        }
        if closing {
            return None;
        }
        let a_start = i;
        while i < b.len() && is_name_byte(b[i]) {
            i += 1;
        }
        if i == a_start {
            return None;
        }
        let a_name = &s[a_start..i];
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            attributes.push((a_name, None));
            continue;
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let quote = *b.get(i)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let v_start = i + 1;
        let v_len = s[v_start..].find(quote as char)?;
        attributes.push((a_name, Some(&s[v_start..v_start + v_len])));
        i = v_start + v_len + 1;
    }
}

/// Decodes the few character references converters put in attribute
/// values, so that the value can be escaped once, uniformly.
fn decode_attribute(v: &str) -> String {
    v.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Re-emits converter output from the allow-list: known elements with known
/// attributes, text escaped, tags balanced. Disallowed tags are dropped
/// (their text content stays, escaped); malformed markup becomes text.
pub fn sanitize_mathml(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut open: Vec<&str> = Vec::new();
    let mut rest = markup;
    while !rest.is_empty() {
        let lt = rest.find('<').unwrap_or(rest.len());
        push_text(&mut out, &rest[..lt]);
        rest = &rest[lt..];
        if rest.is_empty() {
            break;
        }
        let Some(tag) = parse_tag(rest) else {
            out.push_str("&lt;");
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag.len..];
        let name = tag.name.to_ascii_lowercase();
        let Some(&known) = ELEMENTS.iter().find(|e| **e == name) else {
            continue;
        };
        if tag.closing {
            if let Some(pos) = open.iter().rposition(|e| *e == known) {
                while open.len() > pos {
                    let e = open.pop().unwrap_or_default();
                    out.push_str("</");
                    out.push_str(e);
                    out.push('>');
                }
            }
            continue;
        }
        out.push('<');
        out.push_str(known);
        for (a, v) in &tag.attributes {
            let a = a.to_ascii_lowercase();
            if !ATTRIBUTES.contains(&a.as_str()) {
                continue;
            }
            let v = decode_attribute(v.unwrap_or(""));
            if a == "style" && !safe_style(&v) {
                continue;
            }
            out.push(' ');
            out.push_str(&a);
            out.push_str("=\"");
            out.push_str(&html_escape(&v));
            out.push('"');
        }
        if tag.self_closing {
            out.push_str("/>");
        } else {
            out.push('>');
            open.push(known);
        }
    }
    while let Some(e) = open.pop() {
        out.push_str("</");
        out.push_str(e);
        out.push('>');
    }
    out
}

/// Escapes a string for Markdown inline text (also inside table cells):
/// no emphasis, links, HTML, headings or cell breaks come from it.
pub fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // `_` inside a word (`c_pp`) never starts emphasis: left as typed.
        let inside_word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        if c == '_' && inside_word(i.checked_sub(1)) && inside_word(Some(i + 1)) {
            out.push(c);
            continue;
        }
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '$' | '{' | '}' | '^' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.push_str(&crate::diag::escape_char(c)),
            c => out.push(c),
        }
    }
    out
}

/// A case description for a Markdown report: Markdown stays Markdown
/// where its meaning is the same in every renderer; anything else (raw
/// HTML, footnotes, headings, attribute blocks, disallowed URLs) becomes
/// text ([`super::inert_md`]).
pub fn markdown_description(text: &str) -> String {
    super::inert_md::description(text)
}

/// A relative link to a file: `./` and the name percent-encoded (RFC 3986
/// unreserved characters kept), so no name can become a scheme, a query or
/// a fragment.
pub fn url_segment(name: &str) -> String {
    let mut out = String::from("./");
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mathml_allow_list() {
        let hostile =
            "<math><mi></math><script>alert(1)</script><img src=x onerror=alert(1)></mi></math>";
        let s = sanitize_mathml(hostile);
        assert!(!s.contains("<script") && !s.contains("<img"), "{s}");
        let s = sanitize_mathml(
            "<math><mi href=\"javascript:x\" onclick=\"y\" mathvariant=\"bold\">x</mi></math>",
        );
        assert_eq!(s, "<math><mi mathvariant=\"bold\">x</mi></math>");
        let s = sanitize_mathml(
            "<math><mrow style=\"background:url(http://x)\">&lt;&amp;</mrow></math>",
        );
        assert_eq!(s, "<math><mrow>&lt;&amp;</mrow></math>");
        let s = sanitize_mathml("<mfrac><mn>1</mn>");
        assert_eq!(s, "<mfrac><mn>1</mn></mfrac>");
        assert_eq!(
            sanitize_mathml("<mspace width=\"1em\"/>"),
            "<mspace width=\"1em\"/>"
        );
    }

    #[test]
    fn urls() {
        for ok in [
            "https://x.org/a",
            "a/b.html",
            "#top",
            "mailto:a@b.c",
            "x.html?y=1",
        ] {
            assert!(allowed_url(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            " JaVa\tScRiPt:x",
            "data:text/html,x",
            "vbscript:x",
            "file:///etc",
        ] {
            assert!(!allowed_url(bad), "{bad}");
        }
    }

    #[test]
    fn markdown_escapes() {
        assert_eq!(markdown_text("a|b<c>*"), "a\\|b&lt;c&gt;\\*");
        assert_eq!(markdown_text("c_pp _x_"), "c_pp \\_x\\_");
        assert_eq!(markdown_code("x`y|z"), "``x`y\\|z``");
        let d = markdown_description(
            "See [x](javascript:alert(1)) and <script>y</script> and [ok](https://a.b).",
        );
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(&d));
        assert!(
            !html.contains("href=\"javascript")
                && !html.contains("<script")
                && html.contains("href=\"https://a.b\""),
            "{html}"
        );
        assert_eq!(
            url_segment("javascript:alert(1)"),
            "./javascript%3Aalert%281%29"
        );
    }
}
