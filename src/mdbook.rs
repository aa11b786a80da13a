//! `meff mdbook`: an mdBook preprocessor, so that a book's numbers are
//! computed when the book is built.
//!
//! Protocol (mdBook's, for any external preprocessor): `meff mdbook
//! supports RENDERER` exits 0 (every renderer is supported); `meff mdbook`
//! reads `[context, book]` as JSON on standard input and writes the book,
//! changed, as JSON on standard output. A failure (bad case, failing or
//! undecided claim) is a message on standard error and a nonzero exit,
//! which fails the build.
//!
//! In a chapter:
//!
//! * `{{#meff path/to/case.toml}}` — the case's Markdown report, the path
//!   relative to the chapter's file (as mdBook's `{{#include}}`);
//!   `{{#meff case.toml claims}}` only that section (the ids of
//!   `render::sheet::SECTIONS`; several may be given); `no-verify` skips
//!   the simulations, `no-title` leaves out the title and description.
//!   `\{{#meff …}}` is left as text.
//! * `{{#meff-value case.toml QUANTITY}}` — one value with its unit
//!   (`report::value`: the names claims use, `omega_max`, `stable_dt`, a
//!   parameter).
//! * a fenced block with the info string `meff` (and the same options)
//!   holding a whole case file inline.
//!
//! The book is walked as JSON without assuming its exact shape (mdBook 0.4
//! and 0.5 differ): every object with a `content` string and a `path` or
//! `source_path` is a chapter. For the HTML renderer formulas are emitted
//! as MathML (no MathJax needed); for other renderers they stay `$…$`.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Why a book could not be preprocessed: the message mdBook shows.
#[derive(Debug)]
pub enum BookError {
    /// Bad input: the book JSON, a directive, a case, a path (exit 2).
    Input(String),
    /// A claim failed or could not be decided (exit 1).
    Claim(String),
}

impl BookError {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            BookError::Input(m) | BookError::Claim(m) => m,
        }
    }
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// Every renderer is supported (MathML for `html`, `$…$` math otherwise).
pub fn supports(_renderer: &str) -> bool {
    true
}

/// What a directive asks for.
struct Request {
    sections: Vec<String>,
    verify: bool,
    /// Leave out the case's title and description.
    no_title: bool,
}

/// The sections a directive may select: the sheet's own (one list).
const SECTIONS: &[(&str, &str)] = crate::render::sheet::SECTIONS;

fn request(words: &[&str], place: &str) -> Result<Request, BookError> {
    let mut r = Request {
        sections: Vec::new(),
        verify: true,
        no_title: false,
    };
    for w in words {
        if *w == "no-verify" {
            r.verify = false;
        } else if *w == "no-title" {
            r.no_title = true;
        } else if SECTIONS.iter().any(|(k, _)| k == w) {
            r.sections.push((*w).to_string());
        } else {
            let known: Vec<&str> = SECTIONS.iter().map(|(k, _)| *k).collect();
            return Err(BookError::Input(format!(
                "{place}: unknown meff option `{w}` (sections: {}; or no-verify, no-title)",
                known.join(", ")
            )));
        }
    }
    Ok(r)
}

/// Runs the preprocessor on mdBook's JSON input; returns the book JSON.
pub fn run(input: &str) -> Result<String, BookError> {
    let v: Value = serde_json::from_str(input)
        .map_err(|e| BookError::Input(format!("mdbook input is not JSON: {e}")))?;
    let Value::Array(mut parts) = v else {
        return Err(BookError::Input(
            "mdbook input is not [context, book]".into(),
        ));
    };
    if parts.len() != 2 {
        return Err(BookError::Input(
            "mdbook input is not [context, book]".into(),
        ));
    }
    let mut book = parts.pop().unwrap_or(Value::Null);
    let ctx = parts.pop().unwrap_or(Value::Null);
    let root = PathBuf::from(ctx.get("root").and_then(Value::as_str).unwrap_or("."));
    let src = ctx
        .pointer("/config/book/src")
        .and_then(Value::as_str)
        .unwrap_or("src");
    let html = ctx.get("renderer").and_then(Value::as_str) == Some("html");
    let templates = crate::render::templates::Templates::load(None)
        .map_err(|e| BookError::Input(format!("templates: {e}")))?;
    let confine = book_confine(&root, &ctx)?;
    let env = Env {
        src: root.join(src),
        html,
        templates,
        confine,
        values: Default::default(),
    };
    walk(&mut book, &env)?;
    serde_json::to_string(&book).map_err(|e| BookError::Input(e.to_string()))
}

struct Env {
    src: PathBuf,
    html: bool,
    templates: crate::render::templates::Templates,
    /// Where cases (and the models and scenes they name) may be read from.
    confine: crate::confine::Confine,
    /// Cases evaluated for `{{#meff-value}}` (without verification), by path.
    values: std::cell::RefCell<std::collections::HashMap<PathBuf, crate::Evaluated>>,
}

/// A book reads inside its root only, unless its `book.toml` names more
/// directories (`[preprocessor.meff] allow-read = ["../cases"]`, relative
/// to the root): a book built from a stranger's pull request must not be
/// able to read, and print, a file of the machine that builds it.
fn book_confine(root: &Path, ctx: &Value) -> Result<crate::confine::Confine, BookError> {
    let mut dirs = vec![root.to_path_buf()];
    match ctx.pointer("/config/preprocessor/meff/allow-read") {
        None => {}
        Some(Value::Array(extra)) => {
            for d in extra {
                let Some(d) = d.as_str() else {
                    return Err(BookError::Input(
                        "book.toml: [preprocessor.meff] allow-read is a list of directories".into(),
                    ));
                };
                dirs.push(root.join(d));
            }
        }
        Some(_) => {
            return Err(BookError::Input(
                "book.toml: [preprocessor.meff] allow-read is a list of directories".into(),
            ));
        }
    }
    crate::confine::Confine::new(&dirs).map_err(|e| BookError::Input(format!("book.toml: {e}")))
}

fn walk(v: &mut Value, env: &Env) -> Result<(), BookError> {
    match v {
        Value::Object(map) => {
            let chapter_path = map
                .get("source_path")
                .or_else(|| map.get("path"))
                .and_then(Value::as_str)
                .map(str::to_string);
            if let (Some(path), Some(Value::String(content))) = (chapter_path, map.get("content")) {
                let new = chapter(content, &env.src.join(&path), env)?;
                map.insert("content".into(), Value::String(new));
            }
            for (k, x) in map.iter_mut() {
                if k != "content" {
                    walk(x, env)?;
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                walk(x, env)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// One chapter's text with its directives replaced.
fn chapter(text: &str, file: &Path, env: &Env) -> Result<String, BookError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let shown = file.display().to_string();
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_start();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        if let Some(f) = fence {
            let info = trimmed[3..].trim();
            let mut words = info.split_whitespace();
            if words.next() == Some("meff") {
                let opts: Vec<&str> = words.collect();
                let place = format!("{shown}:{}", n + 1);
                let req = request(&opts, &place)?;
                let mut case = String::new();
                let mut closed = false;
                for (_, l) in lines.by_ref() {
                    if l.trim_start().starts_with(f) {
                        closed = true;
                        break;
                    }
                    case.push_str(l);
                }
                if !closed {
                    return Err(BookError::Input(format!(
                        "{place}: the meff block is not closed"
                    )));
                }
                let name = format!("{shown} (meff block at line {})", n + 1);
                let parsed = crate::case::parse_case(&name, &case)
                    .map_err(|e| input_error(crate::Error::Input(e)))?;
                out.push_str(&render(parsed, &req, &place, env)?);
                continue;
            }
            // Any other fenced block is copied untouched.
            out.push_str(line);
            for (_, l) in lines.by_ref() {
                out.push_str(l);
                if l.trim_start().starts_with(f) {
                    break;
                }
            }
            continue;
        }
        out.push_str(&inline_directives(line, n + 1, dir, &shown, env)?);
    }
    Ok(out)
}

fn inline_directives(
    line: &str,
    number: usize,
    dir: &Path,
    shown: &str,
    env: &Env,
) -> Result<String, BookError> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("{{#meff") {
        let escaped = rest[..at].ends_with('\\');
        let Some(end) = rest[at..].find("}}") else {
            break;
        };
        let body = &rest[at + 7..at + end];
        if escaped {
            // `\{{#meff …}}` (and `\{{#meff-value …}}`): the directive as text.
            out.push_str(&rest[..at - 1]);
            out.push_str(&rest[at..at + end + 2]);
        } else if let Some(args) = body.strip_prefix("-value") {
            out.push_str(&rest[..at]);
            let place = format!("{shown}:{number}");
            out.push_str(&value_directive(args, &place, dir, env)?);
        } else {
            out.push_str(&rest[..at]);
            let place = format!("{shown}:{number}");
            let mut words = body.split_whitespace();
            let Some(path) = words.next() else {
                return Err(BookError::Input(format!(
                    "{place}: {{{{#meff}}}} needs a case path"
                )));
            };
            let opts: Vec<&str> = words.collect();
            let req = request(&opts, &place)?;
            let case = load(&dir.join(path), path, &place, env)?;
            out.push_str(&render(case, &req, &place, env)?);
        }
        rest = &rest[at + end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn input_error(e: crate::Error) -> BookError {
    match &e {
        crate::Error::Input(src) => BookError::Input(crate::diag::render(
            &src.path,
            &src.source,
            &src.diagnostics,
            false,
        )),
        other => BookError::Input(other.to_string()),
    }
}

/// A book quotes no case whose claims fail or cannot be decided.
fn claims_hold(ev: &crate::Evaluated, place: &str) -> Result<(), BookError> {
    let failed: Vec<String> = ev
        .report
        .claims
        .iter()
        .filter(|c| c.passed != Some(true))
        .map(|c| {
            format!(
                "claim `{} = {}` {}: {}",
                c.of,
                c.equals,
                if c.passed == Some(false) {
                    "failed"
                } else {
                    "could not be decided"
                },
                c.message.as_deref().unwrap_or("")
            )
        })
        .collect();
    if !failed.is_empty() {
        return Err(BookError::Claim(format!(
            "{place}: {} ({})\n  {}",
            ev.report.title,
            ev.case.path,
            failed.join("\n  ")
        )));
    }
    Ok(())
}

/// `{{#meff-value CASE QUANTITY}}`: one value with its unit, formatted as
/// the sheets format it (4 significant figures, the case's display units).
fn value_directive(args: &str, place: &str, dir: &Path, env: &Env) -> Result<String, BookError> {
    let mut words = args.split_whitespace();
    let (Some(path), quantity) = (words.next(), words.collect::<Vec<_>>().join(" ")) else {
        return Err(BookError::Input(format!(
            "{place}: {{{{#meff-value}}}} needs a case path and a quantity"
        )));
    };
    if quantity.is_empty() {
        return Err(BookError::Input(format!(
            "{place}: {{{{#meff-value {path}}}}} needs a quantity, e.g. m_eff(c), omega(c), stable_dt or a parameter"
        )));
    }
    let full = dir.join(path);
    let cached = env.values.borrow().contains_key(&full);
    if !cached {
        let case = load(&full, path, place, env)?;
        let ev = crate::evaluate_with(
            case,
            crate::Options {
                verify: false,
                progress: None,
                ..Default::default()
            },
        )
        .map_err(input_error)?;
        claims_hold(&ev, place)?;
        env.values.borrow_mut().insert(full.clone(), ev);
    }
    let values = env.values.borrow();
    let report = &values[&full].report;
    let found = crate::report::value::lookup(report, &quantity)
        .map_err(|e| BookError::Input(format!("{place}: {e}")))?;
    Ok(format_value(report, &found))
}

/// A found value as text: number and unit.
fn format_value(report: &crate::report::Report, f: &crate::report::value::Found) -> String {
    use crate::number::sig;
    use crate::render::templates::{pretty, unit_text};
    use crate::report::value::Kind;
    let num = |x: f64| pretty(&sig(x, crate::number::DEFAULT_DIGITS));
    let d = &report.display;
    match f.kind {
        Kind::Mass => format!("{} {}", num(f.si * d.mass.factor), d.mass.unit),
        Kind::InverseMass => format!("{} kg⁻¹", num(f.si)),
        Kind::Omega => format!("{} {}", num(f.si * d.omega.factor), d.omega.unit),
        Kind::Frequency => format!("{} Hz", num(f.si)),
        Kind::Time => match &d.time {
            Some(t) => format!("{} {}", num(f.si * t.factor), t.unit),
            None => pretty(&crate::number::time(f.si, crate::number::DEFAULT_DIGITS)),
        },
        Kind::Si if f.unit.trim().is_empty() => num(f.si),
        Kind::Si => format!("{} {}", num(f.si), unit_text(&f.unit)),
    }
}

/// Loads a case a chapter names, confined to the book's tree.
fn load(full: &Path, path: &str, place: &str, env: &Env) -> Result<crate::case::Case, BookError> {
    crate::case::load_confined(full, crate::case::MAX_INPUT_BYTES, Some(&env.confine)).map_err(
        |e| match e {
            crate::Error::Io { message, .. } => {
                let path = crate::diag::escape_controls(path);
                BookError::Input(format!("{place}: cannot read `{path}`: {message}"))
            }
            other => input_error(other),
        },
    )
}

/// The report of one case as chapter Markdown.
fn render(
    case: crate::case::Case,
    req: &Request,
    place: &str,
    env: &Env,
) -> Result<String, BookError> {
    let ev = crate::evaluate_with(
        case,
        crate::Options {
            verify: req.verify,
            progress: None,
            ..Default::default()
        },
    )
    .map_err(input_error)?;
    claims_hold(&ev, place)?;
    let md = env
        .templates
        .report_md(&ev.report, 4)
        .map_err(|e| BookError::Input(format!("{place}: {e}")))?;
    let md = select(&md, &req.sections, req.no_title);
    let md = demote(&md);
    let md = if env.html { mathml(&md) } else { md };
    Ok(format!("\n{}\n", md.trim_end()))
}

/// The title (unless `no_title`) and the chosen `##` sections (all when
/// none is chosen).
fn select(md: &str, sections: &[String], no_title: bool) -> String {
    let wanted: Vec<&str> = SECTIONS
        .iter()
        .filter(|(k, _)| sections.is_empty() || sections.iter().any(|s| s == k))
        .map(|(_, h)| *h)
        .collect();
    let mut out = String::new();
    let mut keep = !no_title;
    for line in md.split_inclusive('\n') {
        if let Some(h) = line.strip_prefix("## ") {
            keep = wanted.iter().any(|w| h.trim() == *w);
        }
        if keep {
            out.push_str(line);
        }
    }
    out
}

/// Headings one level down: the report sits inside a chapter.
fn demote(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + 64);
    let mut in_code = false;
    for line in md.split_inclusive('\n') {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
    }
    out
}

/// `$…$` and `$$…$$` replaced by MathML, found by the same Markdown parser
/// (pulldown-cmark with math) that reads the report's own Markdown.
fn mathml(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let mut out = String::with_capacity(md.len());
    let mut at = 0;
    for (event, range) in
        Parser::new_ext(md, Options::ENABLE_MATH | Options::ENABLE_TABLES).into_offset_iter()
    {
        let (latex, block) = match event {
            Event::InlineMath(m) => (m, false),
            Event::DisplayMath(m) => (m, true),
            _ => continue,
        };
        if range.start < at {
            continue;
        }
        out.push_str(&md[at..range.start]);
        let latex = if block {
            crate::render::layout::display(&latex)
        } else {
            latex.to_string()
        };
        // `\vert`, `\lt`, `\gt` stand for characters a table would break on.
        out.push_str(&crate::render::templates::math(&latex, block));
        at = range.end;
    }
    out.push_str(&md[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_selected_and_headings_demoted() {
        let md = "# T\n\n## Summary\n\ns\n\n## Claims\n\nc\n\n## Sweeps\n\nw\n";
        let s = select(md, &["claims".into()], false);
        assert_eq!(s, "# T\n\n## Claims\n\nc\n\n");
        assert_eq!(
            demote("# A\n```\n# not\n```\n## B\n"),
            "## A\n```\n# not\n```\n### B\n"
        );
    }

    #[test]
    fn unknown_options_are_refused() {
        assert!(request(&["claims", "no-verify"], "x").is_ok());
        let e = request(&["clams"], "ch.md:3").err().unwrap();
        assert!(
            e.message().contains("ch.md:3") && e.message().contains("clams"),
            "{e}"
        );
    }
}
