//! Typst source for the PDF reports: text escaped for Typst markup, and
//! the LaTeX subset meff writes translated into Typst math.
//!
//! The translation is total: every token becomes something Typst reads
//! (an unknown command is shown as its name in a string), so a case
//! author's `symbol` cannot inject Typst code — text and strings are
//! escaped, and nothing is emitted in code mode.

use super::layout::{Tok, tokens};

/// Text for Typst markup: every ASCII punctuation character escaped with a
/// backslash (so nothing is markup), line breaks folded to spaces.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A Typst string literal's body (quotes and backslashes escaped).
pub fn string_body(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "exp", "ln", "log", "arcsin", "arccos", "arctan", "max", "min", "det",
];

/// LaTeX (meff's subset) → Typst math, without the `$` delimiters.
pub fn math(latex: &str) -> String {
    // Deeper than any sheet's formula: its source as text (the
    // translation recurses per level).
    if super::layout::too_deep(latex) {
        return format!("\"{}\"", string_body(latex));
    }
    group(&tokens(latex), false)
}

/// A token list being translated, with which of its brackets Typst may
/// see as brackets.
///
/// Typst's math parser opens a delimited group at any character of the
/// Unicode math class "opening" and closes it at the next "closing" one;
/// one left open inside a call's arguments swallows the call's `)` and the
/// sheet fails to compile, without a location. So a `(` or `[` is written
/// as a bracket only when it pairs up with a `)` or `]` in the same list
/// (stack order, as Typst pairs them); every other opening or closing
/// character is written escaped (`\(`), which Typst shows as the
/// character and never pairs.
struct List<'t, 'a> {
    toks: &'t [Tok<'a>],
    paired: Vec<bool>,
}

impl<'t, 'a> List<'t, 'a> {
    fn new(toks: &'t [Tok<'a>]) -> Self {
        let mut paired = vec![false; toks.len()];
        let mut open: Vec<usize> = Vec::new();
        for (j, t) in toks.iter().enumerate() {
            match t {
                Tok::Char('(' | '[') => open.push(j),
                Tok::Char(')' | ']') => {
                    if let Some(k) = open.pop() {
                        paired[k] = true;
                        paired[j] = true;
                    }
                }
                _ => {}
            }
        }
        List { toks, paired }
    }

    /// Whether token `j` is a bracket written as one.
    fn bracket(&self, j: usize) -> bool {
        self.paired.get(j).copied().unwrap_or(false)
    }
}

fn group(toks: &[Tok<'_>], in_args: bool) -> String {
    let list = List::new(toks);
    let mut out = String::new();
    let mut i = 0;
    while i < toks.len() {
        item(&list, &mut i, &mut out, in_args);
    }
    tidy(&out)
}

/// Translated math trimmed, without a line break at its end: a trailing
/// `\` would escape whatever follows it (a call's `)`, the closing `$`).
fn tidy(out: &str) -> String {
    let mut t = out.trim();
    // Several line breaks may end it (`a \\ \\`).
    while (t.len() - t.trim_end_matches('\\').len()) % 2 == 1 {
        t = t[..t.len() - 1].trim_end();
    }
    t.to_string()
}

/// The next token (with what it takes) as an argument.
fn argument(l: &List<'_, '_>, i: &mut usize) -> String {
    // `\hat F`: the argument is the next token after any spaces; a
    // command with nothing after it gets an empty one (Typst refuses a
    // call without its argument: `hat()`).
    while matches!(l.toks.get(*i), Some(Tok::Char(c)) if c.is_whitespace()) {
        *i += 1;
    }
    // A bracket that pairs stays at its list's level (taken into a call's
    // parentheses, it would leave its partner unpaired there).
    let a = if l.bracket(*i) {
        String::new()
    } else {
        argument_at(l, i)
    };
    if a.trim().is_empty() {
        "\"\"".to_string()
    } else {
        a
    }
}

fn argument_at(l: &List<'_, '_>, i: &mut usize) -> String {
    match l.toks.get(*i) {
        Some(Tok::Group(g)) => {
            *i += 1;
            group(g, true)
        }
        Some(_) => {
            let mut out = String::new();
            item(l, i, &mut out, true);
            tidy(&out)
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod argument_tests {
    #[test]
    fn a_bare_or_missing_argument_still_gives_a_call() {
        assert!(super::math("t_{\\hat F}").contains("hat(F)"));
        assert!(super::math("\\tilde{J}_{1}").contains("tilde(J)"));
        assert!(super::math("\\bar{x}").contains("macron(x)"));
        assert!(!super::math("\\hat").contains("hat()"));
        assert!(!super::math("\\sqrt").contains("sqrt()"));
    }
}

/// Plain text of a group (for `\mathrm{…}`).
fn plain(toks: &[Tok<'_>]) -> String {
    let mut out = String::new();
    for t in toks {
        match t {
            Tok::Char(c) => out.push(*c),
            Tok::Group(g) => out.push_str(&plain(g)),
            Tok::Cmd(name) => match *name {
                "," | ";" | ":" | " " => out.push(' '),
                "{" | "}" | "_" | "&" | "%" | "#" | "$" => out.push_str(name),
                "backslash" => out.push('\\'),
                "mu" => out.push('µ'),
                "circ" => out.push('°'),
                "hat" => out.push('^'),
                "sim" => out.push('~'),
                other => {
                    out.push('\\');
                    out.push_str(other);
                }
            },
        }
    }
    out
}

/// The sizing commands: `\left(` is `(` to Typst, which sizes matched
/// brackets itself.
const SIZING: &[&str] = &[
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
    "biggl", "biggr", "Biggl", "Biggr", "bigm", "Bigm", "biggm", "Biggm",
];

fn item(l: &List<'_, '_>, i: &mut usize, out: &mut String, in_args: bool) {
    let toks = l.toks;
    let at = *i;
    let Some(t) = toks.get(at) else { return };
    *i += 1;
    match t {
        Tok::Group(g) => {
            out.push(' ');
            out.push_str(&group(g, in_args));
            out.push(' ');
        }
        Tok::Char(c) => char_item(l, *c, at, i, out, in_args),
        Tok::Cmd(name) => command_item(l, name, i, out),
    }
}

/// One character of the token list: escaped, spaced or dropped.
fn char_item(l: &List<'_, '_>, c: char, at: usize, i: &mut usize, out: &mut String, in_args: bool) {
    let toks = l.toks;
    match c {
        '^' | '_' => {
            // Typst drops the parentheses around a script.
            let arg = argument(l, i);
            out.push(c);
            out.push('(');
            out.push_str(&arg);
            out.push_str(") ");
        }
        '(' | '[' | ')' | ']' => {
            if !l.bracket(at) {
                out.push('\\');
            }
            out.push(c);
            out.push(' ');
        }
        c if c.is_whitespace() => {}
        '&' => out.push_str(" & "),
        ',' if in_args => out.push_str("\\, "),
        '/' | '#' | '$' | '"' | '@' | '*' | '\\' | '~' | '`' => {
            out.push('\\');
            out.push(c);
            out.push(' ');
        }
        '+' | '-' | '=' | '<' | '>' | ':' | '|' | ',' | ';' | '!' | '.' | '\'' => {
            out.push(' ');
            out.push(c);
            out.push(' ');
        }
        c if c.is_alphabetic() => {
            out.push(c);
            out.push(' ');
        }
        c if c.is_ascii_digit() => {
            out.push(c);
            // A digit run stays one number; anything else is separated.
            if !matches!(toks.get(*i), Some(Tok::Char(d)) if d.is_ascii_digit() || *d == '.') {
                out.push(' ');
            }
        }
        c if c.is_control() => {}
        // Anything else (`{`, `%`, `?`, `⟨`, `⌈`, a combining mark, …)
        // escaped: Typst shows it and gives it no meaning (an opening
        // bracket among them would otherwise open a group).
        c => {
            out.push('\\');
            out.push(c);
            out.push(' ');
        }
    }
}

/// One command of the token list: its Typst form, its arguments taken.
fn command_item(l: &List<'_, '_>, name: &str, i: &mut usize, out: &mut String) {
    let toks = l.toks;
    match name {
        "frac" | "dfrac" | "tfrac" => {
            let n = argument(l, i);
            let d = argument(l, i);
            out.push_str(&format!(" frac({n}, {d}) "));
        }
        "sqrt" => {
            let a = argument(l, i);
            out.push_str(&format!(" sqrt({a}) "));
        }
        "mathrm" | "text" | "operatorname" => {
            let body = match toks.get(*i) {
                Some(Tok::Group(g)) => {
                    *i += 1;
                    plain(g)
                }
                _ => String::new(),
            };
            out.push_str(&format!(" upright(\"{}\") ", string_body(&body)));
        }
        "mathsf" | "mathcal" | "mathbf" | "mathit" | "boxed" => {
            let a = argument(l, i);
            let f = match name {
                "mathsf" => "sans",
                "mathcal" => "cal",
                "mathbf" => "bold",
                "mathit" => "italic",
                _ => "",
            };
            out.push_str(&format!(" {f}({a}) "));
        }
        s if SIZING.contains(&s) => {
            // The delimiter after it is translated as itself (a
            // bracket only where it pairs; `\left#` is `\#`, never
            // a character copied raw); `.`, no delimiter, is dropped.
            if let Some(Tok::Char('.')) = toks.get(*i) {
                *i += 1;
            }
        }
        "begin" | "end" => {
            // `aligned`: Typst math aligns at `&` and breaks at `\`.
            if let Some(Tok::Group(_)) = toks.get(*i) {
                *i += 1;
            }
        }
        "\\" => out.push_str(" \\ "),
        "," => out.push_str(" thin "),
        ":" | ">" => out.push_str(" med "),
        ";" => out.push_str(" thick "),
        "!" => {}
        " " => out.push_str(" space "),
        "quad" => out.push_str(" quad "),
        "qquad" => out.push_str(" wide "),
        "cdot" => out.push_str(" dot.op "),
        "times" => out.push_str(" times "),
        "pm" => out.push_str(" plus.minus "),
        "le" | "leq" => out.push_str(" <= "),
        "ge" | "geq" => out.push_str(" >= "),
        "approx" => out.push_str(" approx "),
        "neq" => out.push_str(" != "),
        "to" => out.push_str(" -> "),
        "infty" => out.push_str(" infinity "),
        "partial" => out.push_str(" partial "),
        "circ" => out.push_str(" degree "),
        "lt" => out.push_str(" < "),
        "gt" => out.push_str(" > "),
        "vert" | "lvert" | "rvert" | "mid" => out.push_str(" | "),
        "|" | "Vert" | "lVert" | "rVert" => out.push_str(" ‖ "),
        "langle" => out.push_str(" \\⟨ "),
        "rangle" => out.push_str(" \\⟩ "),
        "lbrace" => out.push_str(" \\{ "),
        "rbrace" => out.push_str(" \\} "),
        "sim" => out.push_str(" tilde.op "),
        // Accents over one atom (`\hat{A}`, a marked parameter's `\tilde{J}`).
        "hat" | "tilde" | "bar" | "overline" | "dot" | "ddot" | "vec" | "check" | "breve" => {
            let a = argument(l, i);
            let accent = match name {
                "bar" => "macron",
                "ddot" => "dot.double",
                "vec" => "arrow",
                "check" => "caron",
                other => other,
            };
            out.push_str(&format!(" {accent}({a}) "));
        }
        "backslash" => out.push_str(" \\\\ "),
        "{" | "}" | "_" | "&" | "%" | "#" | "$" => {
            out.push('\\');
            out.push_str(name);
            out.push(' ');
        }
        f if FUNCTIONS.contains(&f) => {
            out.push(' ');
            out.push_str(f);
            out.push(' ');
        }
        g if g == "pi" || crate::notation::GREEK.contains(&g) => {
            out.push(' ');
            out.push_str(g);
            out.push(' ');
        }
        other => {
            out.push_str(&format!(" \"\\\\{}\" ", string_body(other)));
        }
    }
}

/// Checks Typst math that [`math`] wrote against the rules that keep it
/// inert and parseable: no `#`, `$` or `@` outside an escape, strings
/// closed, every bracket (`(`, `[`, `{` and their closers, calls included)
/// paired, and no raw character outside ASCII that is neither a letter
/// nor a digit (such as `⟨` or `⌈`, which Typst would take as an opening
/// bracket). The fuzz target `typst_text` and the tests hold every
/// translation to it.
pub fn check_math(typ: &str) -> Result<(), String> {
    let mut open: Vec<char> = Vec::new();
    let mut chars = typ.chars();
    while let Some(c) = chars.next() {
        match c {
            // An escape (or, before white space, a line break).
            '\\' if chars.next().is_none() => {
                return Err(format!("a backslash at the end of {typ:?}"));
            }
            '\\' => {}
            '"' => loop {
                match chars.next() {
                    None => return Err(format!("an unclosed string in {typ:?}")),
                    Some('\\') => {
                        chars.next();
                    }
                    Some('"') => break,
                    Some(_) => {}
                }
            },
            '(' | '[' | '{' => open.push(c),
            ')' | ']' | '}' if open.pop().is_none() => {
                return Err(format!("an unpaired `{c}` in {typ:?}"));
            }
            ')' | ']' | '}' => {}
            '#' | '$' | '@' | '`' => return Err(format!("a raw `{c}` in {typ:?}")),
            c if !c.is_ascii() && !c.is_alphanumeric() && c != '‖' => {
                return Err(format!("a raw `{c}` in {typ:?}"));
            }
            _ => {}
        }
    }
    match open.last() {
        Some(c) => Err(format!("an unclosed `{c}` in {typ:?}")),
        None => Ok(()),
    }
}

/// A case's Markdown description as Typst markup: paragraphs, emphasis,
/// strong, code spans, lists and `$…$` math kept; links shown as their
/// text with the address in code; raw HTML shown as text. Everything
/// textual is escaped, so a description cannot reach Typst's code mode.
pub fn markdown(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let options = Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let mut out = String::new();
    let mut links: Vec<String> = Vec::new();
    // Inside a code block the text goes into a string literal, so it is
    // escaped as a string's body (markup escapes such as `\#` are not
    // escapes in a string: Typst refuses them).
    let mut in_code = false;
    for event in Parser::new_ext(md, options) {
        match event {
            Event::Text(t) if in_code => {
                for line in t.split_inclusive('\n') {
                    out.push_str(&string_body(line.trim_end_matches(['\n', '\r'])));
                    if line.ends_with('\n') {
                        out.push_str("\\n");
                    }
                }
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => out.push_str(&text(&t)),
            Event::Code(c) => out.push_str(&format!("#raw(\"{}\")", string_body(&c))),
            Event::InlineMath(m) => out.push_str(&format!("${}$", math(&m))),
            Event::DisplayMath(m) => {
                out.push_str(&format!("\n$ {} $\n", math(&super::layout::display(&m))));
            }
            Event::SoftBreak => out.push(' '),
            Event::HardBreak => out.push_str(" \\\n"),
            Event::Start(Tag::Emphasis) => out.push_str("#emph["),
            Event::Start(Tag::Strong) => out.push_str("#strong["),
            Event::Start(Tag::Strikethrough) => out.push_str("#strike["),
            Event::End(TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough) => {
                out.push(']');
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::End(TagEnd::Link) => {
                if let Some(url) = links.pop() {
                    out.push_str(&format!(" (#raw(\"{}\"))", string_body(&url)));
                }
            }
            Event::Start(Tag::Item) => out.push_str("\n- "),
            Event::End(TagEnd::Heading(_)) => out.push_str("]\n\n"),
            Event::End(TagEnd::Paragraph | TagEnd::List(_)) => out.push_str("\n\n"),
            Event::Start(Tag::Heading { .. }) => out.push_str("\n#strong["),
            Event::Start(Tag::CodeBlock(_)) => {
                in_code = true;
                out.push_str("\n#raw(block: true, \"");
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code = false;
                out.push_str("\")\n");
            }
            _ => {}
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_becomes_typst_math() {
        assert_eq!(math("\\frac{1}{m}"), "frac(1, m)");
        assert_eq!(math("m_{1}"), "m _(1)");
        assert!(math("\\cos\\left(q_{1}\\right)^{2}").contains("cos"));
        assert!(math("12\\,\\mathrm{kg}").contains("upright(\"kg\")"));
        assert!(math("\\mathcal{D}").contains("cal(D)"));
        assert!(math("a \\times10^{5}").contains("times"));
        // Multi-letter runs are separate symbols, not Typst identifiers.
        assert_eq!(math("ab"), "a b");
        // Nothing a case author writes reaches code mode.
        let hostile = math("#import \"@preview/x\" \\evil");
        assert!(hostile.starts_with("\\#"), "{hostile}");
        assert!(hostile.contains("\\\""), "{hostile}");
        let inside = math("\\mathrm{\") #exec(\"x}");
        assert_eq!(inside, "upright(\"\\\") #exec(\\\"x\")");
    }

    #[test]
    fn descriptions_keep_code_math_and_emphasis() {
        let t = markdown("A *block* with `1/m` and $a = 1/m$.\n\nSecond #para.");
        assert!(t.contains("#emph[block]"), "{t}");
        assert!(t.contains("#raw(\"1/m\")"), "{t}");
        // A LaTeX slash stays a slash (not a Typst fraction).
        assert!(t.contains("$a  = 1 \\/ m$"), "{t}");
        assert!(t.contains("\\#para"), "{t}");
    }

    /// The character after `\left`, `\right`, `\big…` once went into the
    /// Typst source as it was (`\left#` switched to code mode, `\left"`
    /// opened a string); brackets that did not pair swallowed a call's `)`.
    #[test]
    fn every_translation_is_total_and_inert() {
        for latex in [
            "\\left#import \"x\"",
            "\\left\"",
            "\\right#",
            "\\bigl# \\Bigr\" \\biggl@ \\Biggr$",
            "\\left\\evil x \\right\\}",
            "\\left",
            "\\right)",
            "\\left( \\frac{a}{b}",
            "\\sqrt{(}",
            "\\frac{[}{)}",
            "x^(a) (a^) (b_]",
            "\\hat ( x )",
            "\\hat{\\left(} x \\right)",
            "⟨x⟩ ⌈y⌉ ⌊z⌋ ⟦w⟧ ｛v｝ （u）",
            "\\mathsf{⟨} \\sqrt ⌈",
            "a}b{c",
            "%?&'!;:",
            "\\left\\langle x \\right\\rangle \\left\\| y \\right\\Vert",
            "x\u{301} \u{200b} \u{1}",
            "(((((((((((( ]]]]]",
            "x_\\\\ y^\\\\",
            "a \\\\",
            "\\frac{\\\\}{\\\\}",
            "\\big( \\big] \\left.\\right[",
        ] {
            let t = math(latex);
            if let Err(e) = check_math(&t) {
                panic!("{latex:?}: {e}");
            }
        }
        // Brackets that pair stay brackets (Typst sizes them); others are
        // shown as characters.
        let sized = math("\\left(\\frac{1}{m}\\right)");
        assert!(
            sized.starts_with("( ") && sized.ends_with(" )") && sized.contains(" frac(1, m) "),
            "{sized}"
        );
        assert_eq!(math("\\left#"), "\\#");
        assert_eq!(math("\\left\""), "\\\"");
        assert!(
            math("\\sqrt{(}").contains("sqrt(\\()"),
            "{}",
            math("\\sqrt{(}")
        );
        assert!(check_math("sqrt(()").is_err() && check_math("#x").is_err());
    }

    #[test]
    fn code_blocks_in_descriptions_are_strings() {
        let t = markdown("```\n#let x = \"a\" // [\n```\n");
        assert!(
            t.contains("#raw(block: true, \"#let x = \\\"a\\\" // [\\n\")"),
            "{t}"
        );
    }

    #[test]
    fn text_is_inert() {
        assert_eq!(text("a #b [c] *d* $e$"), "a \\#b \\[c\\] \\*d\\* \\$e\\$");
    }
}

#[cfg(test)]
mod random_tests {
    /// 40,000 formulas drawn (deterministically) from the tokens that once
    /// reached Typst raw or could: every translation passes `check_math`.
    #[test]
    fn random_formulas_translate_to_safe_typst() {
        const TOKENS: &[&str] = &[
            "\\left",
            "\\right",
            "\\bigl",
            "\\Bigr",
            "\\middle",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "\\{",
            "\\}",
            "^",
            "_",
            "\\frac",
            "\\sqrt",
            "\\hat",
            "\\mathsf",
            "\\mathrm{",
            "\\text{",
            "#",
            "\"",
            "\\\\",
            "\\",
            " ",
            "\u{a0}",
            "a",
            "1",
            "2.5",
            "⟨",
            "⌈",
            "｛",
            "|",
            "\\|",
            "\\langle",
            "&",
            "$",
            "%",
            "@",
            "`",
            "'",
            ".",
            ",",
            "\\,",
            "\\evil",
            "\\begin{aligned}",
            "\\end{aligned}",
            "\n",
            "\u{301}",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..40_000 {
            let n = 1 + (next() % 24) as usize;
            let latex: String = (0..n)
                .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
                .collect();
            for typ in [
                super::math(&latex),
                super::math(&crate::render::layout::display(&latex)),
            ] {
                if let Err(e) = super::check_math(&typ) {
                    panic!("{latex:?}: {e}");
                }
            }
        }
    }
}
