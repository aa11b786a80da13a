//! A case author's Markdown (a description) re-emitted as Markdown that no
//! renderer turns into markup.
//!
//! Markdown renderers differ in what they recognise: mdBook's parser
//! (pulldown-cmark with footnotes, heading attributes, tables, task lists,
//! …) turns `[^n]: <img onerror=…>` into live HTML and
//! `# x {onmouseover=…}` into an attribute, where a parser with fewer
//! options saw a link definition and a plain heading. So the description is
//! parsed with every option pulldown-cmark has, and written again from its
//! events using only constructs whose meaning is the same everywhere:
//! paragraphs, emphasis, strong, strikethrough, code, math, lists, block
//! quotes, fenced code, rules, tables, and links and images whose URL is
//! allowed. Everything else — raw HTML, footnotes, headings, definition
//! lists, attribute blocks — becomes text, and text escapes every character
//! that could open a construct in any of those parsers (`{` included, so
//! neither a heading attribute nor an mdBook `{{#include}}` can form).

pub use super::md_inline::break_directives;
use super::md_inline::{allowed_url, markdown_code, markdown_math};
use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// The inert re-emission of `text` (see the module documentation).
pub fn description(text: &str) -> String {
    let mut w = Writer::default();
    // Every option but smart punctuation, which changes text, not markup.
    let options = Options::all().difference(Options::ENABLE_SMART_PUNCTUATION);
    for event in Parser::new_ext(text, options) {
        w.event(event);
    }
    w.finish()
}

/// Escapes text so that no character of it opens an inline construct: the
/// ASCII punctuation that some common Markdown dialect gives a meaning
/// inside a line is backslash-escaped (CommonMark lets any ASCII
/// punctuation be escaped); what matters only at the start of a line
/// (`-`, `+`, `>`, `:`, `=`, `1.`) is handled where lines start; line
/// breaks become spaces; control characters are dropped.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // `_` inside a word (`m_eff`) opens nothing in any dialect.
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        if c == '_' && word(i.checked_sub(1)) && word(Some(i + 1)) {
            out.push(c);
            continue;
        }
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '$' | '{' | '}' | '^' | '<'
            | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A URL as a link destination: percent-encoded where it could end the
/// destination or start something else.
fn destination(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' | '<' | '>' | '(' | ')' | '\\' | '"' | '\'' | '`' | '{' | '}' | '|' | '[' | ']' => {
                out.push_str(&format!("%{:02X}", c as u32))
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A container whose lines carry a prefix: a block quote (`> `) or a list
/// item (its marker on the first line, spaces after).
struct Container {
    prefix: String,
    first: Option<String>,
}

#[derive(Default)]
struct Writer {
    out: String,
    containers: Vec<Container>,
    /// Inline text of the block being written.
    line: String,
    /// Ordered list counters (None: bullets), innermost last.
    lists: Vec<Option<u64>>,
    /// Links and images open: whether each is written as a link.
    links: Vec<Option<String>>,
    /// Inside a code block: its text.
    code: Option<String>,
    /// Inside a table: rows of cells, the alignment, the cell being written.
    table: Option<(Vec<Alignment>, Vec<Vec<String>>)>,
    /// A blank line is due before the next block.
    gap: bool,
}

impl Writer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some(code) = &mut self.code {
                    code.push_str(&t);
                } else {
                    self.line.push_str(&text(&t));
                }
            }
            Event::Code(c) => self.line.push_str(&break_directives(&markdown_code(&c))),
            Event::InlineMath(m) => self.line.push_str(&format!("${}$", inert_math(&m))),
            Event::DisplayMath(m) => self.line.push_str(&format!("$${}$$", inert_math(&m))),
            Event::Html(h) | Event::InlineHtml(h) => {
                if let Some(code) = &mut self.code {
                    code.push_str(&h);
                } else {
                    self.line.push_str(&text(&h));
                }
            }
            Event::FootnoteReference(label) => {
                self.line.push_str(&text(&format!("[^{label}]")));
            }
            Event::SoftBreak => self.line.push('\n'),
            Event::HardBreak => {
                self.flush_line();
            }
            Event::Rule => {
                self.block_start();
                self.emit_line("---");
                self.gap = true;
            }
            Event::TaskListMarker(done) => {
                self.line
                    .push_str(if done { "\\[x\\] " } else { "\\[ \\] " });
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::DefinitionListTitle | Tag::DefinitionListDefinition => {
                self.block_start()
            }
            // A description has no headings of its own (they would enter
            // the report's outline): the text is written strong.
            Tag::Heading { .. } => {
                self.block_start();
                self.line.push_str("**");
            }
            Tag::BlockQuote(_) => {
                self.block_start();
                self.containers.push(Container {
                    prefix: "> ".into(),
                    first: None,
                });
            }
            Tag::CodeBlock(kind) => {
                self.block_start();
                let info = match kind {
                    CodeBlockKind::Fenced(i) => i
                        .split_whitespace()
                        .next()
                        .filter(|w| {
                            w.chars()
                                .all(|c| c.is_ascii_alphanumeric() || "+-_.".contains(c))
                        })
                        .unwrap_or("")
                        .to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some(info);
                // The info string rides in front of the text until the end.
                if let Some(c) = &mut self.code {
                    c.push('\n');
                }
            }
            Tag::List(start) => {
                self.block_start();
                self.lists.push(start);
            }
            Tag::Item => {
                self.block_start();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".to_string(),
                };
                self.containers.push(Container {
                    prefix: " ".repeat(marker.len()),
                    first: Some(marker),
                });
                self.gap = false;
            }
            Tag::FootnoteDefinition(label) => {
                self.block_start();
                self.line.push_str(&text(&format!("[^{label}]: ")));
            }
            Tag::Table(align) => {
                self.block_start();
                self.table = Some((align, Vec::new()));
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some((_, rows)) = &mut self.table {
                    rows.push(Vec::new());
                }
            }
            Tag::TableCell => self.line.clear(),
            Tag::Emphasis => self.line.push('*'),
            Tag::Strong => self.line.push_str("**"),
            Tag::Strikethrough => self.line.push_str("~~"),
            Tag::Link { dest_url, .. } => {
                if allowed_url(&dest_url) {
                    self.line.push('[');
                    self.links
                        .push(Some(format!("]({})", destination(&dest_url))));
                } else {
                    self.links.push(None);
                }
            }
            Tag::Image { dest_url, .. } => {
                if allowed_url(&dest_url) {
                    self.line.push_str("![");
                    self.links
                        .push(Some(format!("]({})", destination(&dest_url))));
                } else {
                    self.links.push(None);
                }
            }
            // Definition lists, metadata, superscript, subscript, HTML
            // blocks: their content is written as text.
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::DefinitionListTitle | TagEnd::DefinitionListDefinition => {
                self.flush_line();
                self.gap = true;
            }
            TagEnd::Heading(_) => {
                self.line.push_str("**");
                self.flush_line();
                self.gap = true;
            }
            TagEnd::FootnoteDefinition => {
                self.flush_line();
                self.gap = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush_line();
                self.containers.pop();
                self.gap = true;
            }
            TagEnd::CodeBlock => {
                let body = self.code.take().unwrap_or_default();
                let (info, body) = body.split_once('\n').unwrap_or(("", &body));
                let body = break_directives(body);
                let longest = longest_run(&body, '`');
                let fence = "`".repeat(longest.max(2) + 1);
                self.emit_line(&format!("{fence}{info}"));
                for l in body.strip_suffix('\n').unwrap_or(&body).split('\n') {
                    self.emit_line(l);
                }
                self.emit_line(&fence);
                self.gap = true;
            }
            TagEnd::List(_) => {
                self.flush_line();
                self.lists.pop();
                self.gap = true;
            }
            TagEnd::Item => {
                self.flush_line();
                self.containers.pop();
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.line).replace('|', "\\|");
                if let Some((_, rows)) = &mut self.table
                    && let Some(row) = rows.last_mut()
                {
                    row.push(cell);
                }
            }
            TagEnd::Table => {
                if let Some((align, rows)) = self.table.take() {
                    self.write_table(&align, &rows);
                }
                self.gap = true;
            }
            TagEnd::Emphasis => self.line.push('*'),
            TagEnd::Strong => self.line.push_str("**"),
            TagEnd::Strikethrough => self.line.push_str("~~"),
            TagEnd::Link | TagEnd::Image => {
                if let Some(Some(close)) = self.links.pop() {
                    self.line.push_str(&close);
                }
            }
            _ => {}
        }
    }

    fn write_table(&mut self, align: &[Alignment], rows: &[Vec<String>]) {
        let Some(head) = rows.first() else { return };
        let n = head.len().max(1);
        let row_line = |cells: &[String]| {
            let mut l = String::from("|");
            for i in 0..n {
                l.push(' ');
                l.push_str(cells.get(i).map(String::as_str).unwrap_or(""));
                l.push_str(" |");
            }
            l
        };
        self.emit_line(&row_line(head));
        let mut rule = String::from("|");
        for i in 0..n {
            rule.push_str(match align.get(i) {
                Some(Alignment::Left) => ":---|",
                Some(Alignment::Center) => ":---:|",
                Some(Alignment::Right) => "---:|",
                _ => "---|",
            });
        }
        self.emit_line(&rule);
        for r in &rows[1..] {
            self.emit_line(&row_line(r));
        }
    }

    /// A blank line before a block when one is due.
    fn block_start(&mut self) {
        self.flush_line();
        if self.gap && !self.out.is_empty() {
            self.emit_line("");
        }
        self.gap = false;
    }

    /// Writes the block's text, a line per soft break, each line's start
    /// made inert (no list, quote, heading underline or definition).
    fn flush_line(&mut self) {
        if self.table.is_some() {
            return;
        }
        let text = std::mem::take(&mut self.line);
        for l in text.split('\n') {
            let l = l.trim();
            if !l.is_empty() {
                let l = line_start(l);
                self.emit_line(&l);
            }
        }
    }

    /// One output line with the containers' prefixes (a list item's
    /// marker on its first line).
    fn emit_line(&mut self, l: &str) {
        let mut prefix = String::new();
        for c in &mut self.containers {
            match c.first.take() {
                Some(m) => prefix.push_str(&m),
                None => prefix.push_str(&c.prefix),
            }
        }
        let line = format!("{prefix}{l}");
        self.out.push_str(line.trim_end());
        self.out.push('\n');
    }

    fn finish(mut self) -> String {
        self.flush_line();
        self.out.trim_end().to_string()
    }
}

/// A line whose first character would make it a list item, a quote, a
/// definition, a table row or a setext underline, escaped.
fn line_start(l: &str) -> String {
    let digits = l.chars().take_while(char::is_ascii_digit).count();
    let mut chars = l.chars();
    let first = chars.next().unwrap_or(' ');
    let second = chars.next().unwrap_or(' ');
    let block = match first {
        '-' | '+' | '>' | ':' | '=' | '|' | '#' => true,
        // Emphasis the writer opened is `*x`; a bullet is `* x`.
        '*' => second.is_whitespace(),
        '~' => l.starts_with("~~~"),
        _ => false,
    };
    if block {
        format!("\\{l}")
    } else if l.starts_with("```") {
        // A code span whose fence is three or more backticks would open a
        // code block here: a word joiner in front keeps it a span.
        format!("\u{2060}{l}")
    } else if digits > 0 && matches!(l[digits..].chars().next(), Some('.' | ')')) {
        format!("{}\\{}", &l[..digits], &l[digits..])
    } else {
        l.to_string()
    }
}

/// Math between `$` signs, inert without a math renderer, with `{{` broken.
fn inert_math(m: &str) -> String {
    break_directives(&markdown_math(m))
}

fn longest_run(s: &str, ch: char) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == ch { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// The first active HTML tag a Markdown renderer with every option on (a
/// superset of mdBook's) would make of `md`: a script, frame, object or
/// embed element, an `on…` event attribute, or a `javascript:` URL.
/// `None` when there is none. For the fuzz target and tests of books.
pub fn live_html(md: &str) -> Option<String> {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(md, Options::all()));
    for tag in html.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or("");
        let lower = tag.to_ascii_lowercase();
        let name = lower
            .trim_start_matches('/')
            .split_whitespace()
            .next()
            .unwrap_or("");
        let active = [
            "script", "iframe", "object", "embed", "frame", "base", "meta", "link",
        ]
        .contains(&name)
            || lower.contains("javascript:")
            || lower
                .split(|c: char| c.is_whitespace() || c == '/' || c == '"' || c == '\'')
                .skip(1)
                .any(|a| a.starts_with("on") && a.contains('='));
        if active {
            return Some(format!("<{tag}>"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_html_is_found() {
        assert!(live_html("<img src=x onerror=alert(1)>").is_some());
        assert!(live_html("[^n]: <script>x</script>").is_some());
        assert!(live_html("a [link](javascript:alert(1))").is_some());
        assert!(live_html("<math><mi>on</mi></math> *x* and `<b onclick=1>`").is_none());
    }

    /// What mdBook's renderer makes of Markdown (pulldown-cmark with every
    /// option on: a superset of mdBook's).
    fn html(md: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, Parser::new_ext(md, Options::all()));
        out
    }

    /// Every tag in the rendered HTML is one the inert constructs make,
    /// with no attribute other than those they make.
    fn inert(md: &str) {
        const TAGS: &[&str] = &[
            "p",
            "em",
            "strong",
            "code",
            "pre",
            "a",
            "ul",
            "ol",
            "li",
            "blockquote",
            "table",
            "thead",
            "tbody",
            "tr",
            "th",
            "td",
            "hr",
            "del",
            "span",
            "br",
        ];
        let out = description(md);
        let h = html(&out);
        for tag in h.split('<').skip(1) {
            let tag = tag.split('>').next().unwrap();
            let name = tag
                .trim_start_matches('/')
                .split_whitespace()
                .next()
                .unwrap_or("");
            assert!(TAGS.contains(&name), "{md:?} → {out:?} → {h:?}: <{tag}>");
            for attr in tag.split_whitespace().skip(1).filter(|a| a.contains('=')) {
                let key = attr.split('=').next().unwrap();
                assert!(
                    ["class", "href", "style", "start"].contains(&key)
                        && (key != "style" || attr.starts_with("style=\"text-align")),
                    "{md:?} → {out:?} → {h:?}: attribute {attr}"
                );
                assert!(!attr.contains("javascript"), "{h}");
            }
        }
        assert!(!out.contains("{{#") && !out.contains("{{ #"), "{out:?}");
    }

    #[test]
    fn hostile_constructs_become_text() {
        for md in [
            "[^n]: <img src=x onerror=alert(1)>\n\ntext[^n]\n",
            "# Notes {onmouseover=alert(1) style=position:fixed;inset:0}\n",
            "Notes\n===== {onmouseover=alert(1)}\n",
            "<script>alert(1)</script>\n",
            "a <img src=x onerror=alert(1)> b\n",
            "[x](javascript:alert(1)) ![y](javascript:alert(1))\n",
            "Term\n: <b onmouseover=alert(1)>def</b>\n",
            "> [!NOTE]\n> <img src=x onerror=alert(1)>\n",
            "- [ ] <img src=x onerror=alert(1)>\n",
            "| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | {onmouseover=x} |\n",
            "{{#include /etc/passwd}} `{{#include /etc/passwd}}` $x{{#include y}}$\n",
            "```\n{{#include /etc/passwd}}\n```\n",
            "text\\\n# heading after a hard break {onmouseover=alert(1)}\n",
            "* a\n\n  # b {onclick=alert(1)}\n",
            "&lt;img src=x onerror=alert(1)&gt; &#60;img&#62;\n",
            "a\n- b\n+ c\n> d\n: e\n===\n1. f\n2) g\n* h\n",
            "x ``` `` ``` ``` y\n``` `` ```\n",
        ] {
            inert(md);
        }
    }

    #[test]
    fn ordinary_markdown_keeps_its_meaning() {
        let md = "A *block* on **two** feet, `code`, $m r^2$ and [a link](https://example.org/a_b).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```toml\nk = \"1e5 N/m\"\n```\n";
        let out = description(md);
        let h = html(&out);
        for want in [
            "<em>block</em>",
            "<strong>two</strong>",
            "<code>code</code>",
            "<a href=\"https://example.org/a_b\">a link</a>",
            "<li>one</li>",
            "<ol>",
            "<blockquote>",
            "<code class=\"language-toml\">",
            "k = \"1e5 N/m\"",
        ] {
            assert!(h.contains(want), "{want} missing from {h}\n{out}");
        }
        // Lines of a paragraph that start like a list, quote, definition or
        // underline stay lines of the paragraph.
        let h = html(&description(
            "a\n\\- b\n\\+ c\n\\> d\n\\: e\n\\===\n1\\. f\n\\* h\n",
        ));
        assert!(h.starts_with("<p>") && h.matches("<p>").count() == 1, "{h}");
        for tag in ["<li", "<blockquote", "<h", "<dl", "<dd"] {
            assert!(!h.contains(tag), "{h}");
        }
        // Plain prose reads as it was written, once rendered.
        assert!(
            html(&description("Off-centre: 0.1 m (r > 0)."))
                .contains("Off-centre: 0.1 m (r &gt; 0).")
        );
    }
}
