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

const GREEK: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega",
];

/// LaTeX (meff's subset) → Typst math, without the `$` delimiters.
pub fn math(latex: &str) -> String {
    // Deeper than any sheet's formula: its source as text (the
    // translation recurses per level).
    if super::layout::too_deep(latex) {
        return format!("\"{}\"", string_body(latex));
    }
    let toks = tokens(latex);
    let mut out = String::new();
    let mut i = 0;
    while i < toks.len() {
        item(&toks, &mut i, &mut out, false);
    }
    out.trim().to_string()
}

fn group(toks: &[Tok<'_>], in_args: bool) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < toks.len() {
        item(toks, &mut i, &mut out, in_args);
    }
    out.trim().to_string()
}

/// The next token (with what it takes) as an argument.
fn argument(toks: &[Tok<'_>], i: &mut usize) -> String {
    // `\hat F`: the argument is the next token after any spaces; a
    // command with nothing after it gets an empty one (Typst refuses a
    // call without its argument: `hat()`).
    while matches!(toks.get(*i), Some(Tok::Char(c)) if c.is_whitespace()) {
        *i += 1;
    }
    let a = argument_at(toks, i);
    if a.trim().is_empty() {
        "\"\"".to_string()
    } else {
        a
    }
}

fn argument_at(toks: &[Tok<'_>], i: &mut usize) -> String {
    match toks.get(*i) {
        Some(Tok::Group(g)) => {
            *i += 1;
            group(g, true)
        }
        Some(_) => {
            let mut out = String::new();
            item(toks, i, &mut out, true);
            out.trim().to_string()
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod argument_tests {
    #[test]
    fn a_bare_or_missing_argument_still_gives_a_call() {
        assert!(super::math("t_{\\hat F}").contains("hat(F)"));
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

fn item(toks: &[Tok<'_>], i: &mut usize, out: &mut String, in_args: bool) {
    let Some(t) = toks.get(*i) else { return };
    *i += 1;
    match t {
        Tok::Group(g) => {
            out.push(' ');
            out.push_str(&group(g, in_args));
            out.push(' ');
        }
        Tok::Char(c) => match c {
            '^' | '_' => {
                // Typst drops the parentheses around a script.
                let arg = argument(toks, i);
                out.push(*c);
                out.push('(');
                out.push_str(&arg);
                out.push_str(") ");
            }
            ' ' => {}
            '&' => out.push_str(" & "),
            ',' if in_args => out.push_str("\\, "),
            '/' | '#' | '$' | '"' | '@' | '*' | '\\' | '~' | '`' => {
                out.push('\\');
                out.push(*c);
                out.push(' ');
            }
            '+' | '-' | '=' | '<' | '>' | ':' | '|' | ',' | ';' | '!' | '.' | '\'' => {
                out.push(' ');
                out.push(*c);
                out.push(' ');
            }
            c if c.is_ascii_alphabetic() => {
                out.push(*c);
                out.push(' ');
            }
            c if c.is_ascii_digit() => {
                out.push(*c);
                // A digit run stays one number; anything else is separated.
                if !matches!(toks.get(*i), Some(Tok::Char(d)) if d.is_ascii_digit() || *d == '.') {
                    out.push(' ');
                }
            }
            c => {
                out.push(*c);
                out.push(' ');
            }
        },
        Tok::Cmd(name) => {
            let name = *name;
            match name {
                "frac" | "dfrac" | "tfrac" => {
                    let n = argument(toks, i);
                    let d = argument(toks, i);
                    out.push_str(&format!(" frac({n}, {d}) "));
                }
                "sqrt" => {
                    let a = argument(toks, i);
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
                    let a = argument(toks, i);
                    let f = match name {
                        "mathsf" => "sans",
                        "mathcal" => "cal",
                        "mathbf" => "bold",
                        "mathit" => "italic",
                        _ => "",
                    };
                    out.push_str(&format!(" {f}({a}) "));
                }
                "left" | "right" | "bigl" | "bigr" | "big" | "Big" => {
                    // Typst scales matched delimiters itself.
                    if let Some(Tok::Char(d)) = toks.get(*i) {
                        *i += 1;
                        match d {
                            '.' => {}
                            '|' => out.push_str(" | "),
                            d => {
                                out.push(*d);
                                out.push(' ');
                            }
                        }
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
                "vert" => out.push_str(" | "),
                "sim" => out.push_str(" tilde.op "),
                "hat" => {
                    let a = argument(toks, i);
                    out.push_str(&format!(" hat({a}) "));
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
                g if GREEK.contains(&g) => {
                    out.push(' ');
                    out.push_str(g);
                    out.push(' ');
                }
                other => {
                    out.push_str(&format!(" \"\\\\{}\" ", string_body(other)));
                }
            }
        }
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
    for event in Parser::new_ext(md, options) {
        match event {
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
            Event::Start(Tag::CodeBlock(_)) => out.push_str("\n#raw(block: true, \""),
            Event::End(TagEnd::CodeBlock) => out.push_str("\")\n"),
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

    #[test]
    fn text_is_inert() {
        assert_eq!(text("a #b [c] *d* $e$"), "a \\#b \\[c\\] \\*d\\* \\$e\\$");
    }
}
