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
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

mod budget;
mod guard;
mod sections;

pub use guard::has_directive;

use crate::report::value;

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
    let budget = budget::Budget::start(&ctx)?;
    let env = Env {
        src: root.join(src),
        html,
        templates,
        confine,
        budget,
        evaluated: Default::default(),
        rendered: Default::default(),
    };
    walk(&mut book, &env)?;
    serde_json::to_string(&book).map_err(|e| BookError::Input(e.to_string()))
}

/// A case file by its canonical path, and whether it was verified.
type Key = (PathBuf, bool);

struct Env {
    src: PathBuf,
    html: bool,
    templates: crate::render::templates::Templates,
    /// Where cases (and the models and scenes they name) may be read from.
    confine: crate::confine::Confine,
    /// The book's work: directives, evaluations, time.
    budget: budget::Budget,
    /// Every case evaluated in this build, once per canonical path and
    /// verification (`../src/x.toml` and `../src/../src/x.toml` are one).
    /// (Their reports only: the models and matrices are dropped.)
    evaluated: RefCell<HashMap<Key, Rc<crate::report::Report>>>,
    /// Their reports cut into sections, once per case (and renderer).
    rendered: RefCell<HashMap<Key, Rc<sections::Rendered>>>,
}

/// A book reads inside its root only. Its `book.toml` may name more
/// directories (`[preprocessor.meff] allow-read = ["../cases"]`, relative
/// to the root), but only inside ones the builder allows in the
/// environment (`MEFF_BOOK_ALLOW_READ`, a path list): a stranger's pull
/// request writes `book.toml` too, and must not be able to read, and
/// print, a file of the machine that builds it (`allow-read = ["/"]` once
/// let a chapter show the first line of `/etc/passwd` in a TOML error).
fn book_confine(root: &Path, ctx: &Value) -> Result<crate::confine::Confine, BookError> {
    const ENV: &str = "MEFF_BOOK_ALLOW_READ";
    let list_error = || {
        BookError::Input(
            "book.toml: [preprocessor.meff] allow-read is a list of directories".into(),
        )
    };
    let asked: Vec<&str> = match ctx.pointer("/config/preprocessor/meff/allow-read") {
        None => Vec::new(),
        Some(Value::Array(extra)) => extra
            .iter()
            .map(|d| d.as_str().ok_or_else(list_error))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(list_error()),
    };
    let mut dirs = vec![root.to_path_buf()];
    if !asked.is_empty() {
        let mut allowed = dirs.clone();
        if let Some(v) = std::env::var_os(ENV) {
            allowed.extend(std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()));
        }
        let allowed = crate::confine::Confine::new(&allowed)
            .map_err(|e| BookError::Input(format!("{ENV}: {e}")))?;
        for d in asked {
            let dir = root.join(d);
            if allowed.admit(&dir).is_err() {
                return Err(BookError::Input(format!(
                    "book.toml: allow-read `{}` is outside the book's root, and the builder allows no directory holding it ({ENV})",
                    crate::diag::escape_controls(d)
                )));
            }
            dirs.push(dir);
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

/// One chapter's text with its directives replaced; what meff wrote is
/// guarded against forming an mdBook directive as the very last step
/// ([`guard`]).
fn chapter(text: &str, file: &Path, env: &Env) -> Result<String, BookError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let shown = file.display().to_string();
    let mut out = guard::Chapter::default();
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
                env.budget.directive(&place)?;
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
                    .map_err(|e| input_error(crate::pipeline::Error::Input(e)))?;
                let ev = evaluate(parsed, req.verify, &place, env)?;
                let cut = sections::render(&env.templates, &ev.report, env.html)
                    .map_err(|e| BookError::Input(format!("{place}: {e}")))?;
                out.meff(&quoted(&cut, &req));
                continue;
            }
            // Any other fenced block is copied untouched.
            out.author(line);
            for (_, l) in lines.by_ref() {
                out.author(l);
                if l.trim_start().starts_with(f) {
                    break;
                }
            }
            continue;
        }
        inline_directives(&mut out, line, n + 1, dir, &shown, env)?;
    }
    Ok(out.finish())
}

/// The end of a directive that starts at `body`: the first `}}` outside a
/// double-quoted string (so that a quoted name may hold `}}`).
fn directive_end(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    let (mut quoted, mut k) = (false, 0);
    while k < b.len() {
        match b[k] {
            b'\\' if quoted => k += 1,
            b'"' => quoted = !quoted,
            b'}' if !quoted && b.get(k + 1) == Some(&b'}') => return Some(k),
            _ => {}
        }
        k += 1;
    }
    None
}

fn inline_directives(
    out: &mut guard::Chapter,
    line: &str,
    number: usize,
    dir: &Path,
    shown: &str,
    env: &Env,
) -> Result<(), BookError> {
    let mut rest = line;
    while let Some(at) = rest.find("{{#meff") {
        let escaped = rest[..at].ends_with('\\');
        let place = format!("{shown}:{number}");
        let Some(end) = directive_end(&rest[at + 7..]).map(|e| e + 7) else {
            if !escaped && rest[at..].contains("}}") {
                return Err(BookError::Input(format!(
                    "{place}: a `\"` in the meff directive is not closed (a quoted name ends with `\"`)"
                )));
            }
            break;
        };
        let body = &rest[at + 7..at + end];
        if escaped {
            // `\{{#meff …}}` (and `\{{#meff-value …}}`): the directive as text.
            out.author(&rest[..at - 1]);
            out.author(&rest[at..at + end + 2]);
        } else if let Some(args) = body.strip_prefix("-value") {
            out.author(&rest[..at]);
            env.budget.directive(&place)?;
            out.meff(&value_directive(args, &place, dir, env)?);
        } else {
            out.author(&rest[..at]);
            env.budget.directive(&place)?;
            let words =
                value::words(body).map_err(|e| BookError::Input(format!("{place}: {e}")))?;
            let Some((path, opts)) = words.split_first() else {
                return Err(BookError::Input(format!(
                    "{place}: {{{{#meff}}}} needs a case path"
                )));
            };
            let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
            let req = request(&opts, &place)?;
            let key = (admit(&dir.join(path), path, &place, env)?, req.verify);
            let cut = rendered(&key, path, &place, env)?;
            out.meff(&quoted(&cut, &req));
        }
        rest = &rest[at + end + 2..];
    }
    out.author(rest);
    Ok(())
}

fn input_error(e: crate::pipeline::Error) -> BookError {
    match &e {
        crate::pipeline::Error::Input(src) => BookError::Input(crate::diag::render(
            &src.path,
            &src.source,
            &src.diagnostics,
            false,
        )),
        other => BookError::Input(other.to_string()),
    }
}

/// A book quotes no case whose claims fail or cannot be decided.
fn claims_hold(ev: &crate::pipeline::Evaluated, place: &str) -> Result<(), BookError> {
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
/// A name with spaces is quoted: `peak_force("on an edge", corner)`.
fn value_directive(args: &str, place: &str, dir: &Path, env: &Env) -> Result<String, BookError> {
    let args = args.trim_start();
    let split = value::first_word(args).map_err(|e| BookError::Input(format!("{place}: {e}")))?;
    let Some((path, quantity)) = split else {
        return Err(BookError::Input(format!(
            "{place}: {{{{#meff-value}}}} needs a case path and a quantity"
        )));
    };
    let quantity = quantity.trim();
    if quantity.is_empty() {
        return Err(BookError::Input(format!(
            "{place}: {{{{#meff-value {path}}}}} needs a quantity, e.g. m_eff(c), omega(c), stable_dt or a parameter"
        )));
    }
    let canonical = admit(&dir.join(&path), &path, place, env)?;
    // A verified evaluation, when the book has one, serves as well.
    let verified = env
        .evaluated
        .borrow()
        .get(&(canonical.clone(), true))
        .cloned();
    let ev = match verified {
        Some(ev) => ev,
        None => evaluated(&(canonical, false), &path, place, env)?,
    };
    let found = crate::report::value::lookup(&ev, quantity)
        .map_err(|e| BookError::Input(format!("{place}: {e}")))?;
    Ok(format_value(&ev, &found))
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

/// The canonical path of a case a chapter names, confined to the book's
/// tree (the key of every cache).
fn admit(full: &Path, path: &str, place: &str, env: &Env) -> Result<PathBuf, BookError> {
    env.confine.admit(full).map_err(|message| {
        let path = crate::diag::escape_controls(path);
        BookError::Input(format!("{place}: cannot read `{path}`: {message}"))
    })
}

/// The evaluation of the case at a canonical path: once per build.
fn evaluated(
    key: &Key,
    path: &str,
    place: &str,
    env: &Env,
) -> Result<Rc<crate::report::Report>, BookError> {
    if let Some(ev) = env.evaluated.borrow().get(key) {
        return Ok(ev.clone());
    }
    let case = crate::case::load_confined(&key.0, crate::case::MAX_INPUT_BYTES, Some(&env.confine))
        .map_err(|e| match e {
            crate::diag::ReadError::Io { message, .. } => {
                let path = crate::diag::escape_controls(path);
                BookError::Input(format!("{place}: cannot read `{path}`: {message}"))
            }
            other => input_error(other.into()),
        })?;
    let ev = Rc::new(evaluate(case, key.1, place, env)?.report);
    env.evaluated.borrow_mut().insert(key.clone(), ev.clone());
    Ok(ev)
}

/// One evaluation, counted against the book's budget; its claims must hold.
fn evaluate(
    case: crate::case::Case,
    verify: bool,
    place: &str,
    env: &Env,
) -> Result<crate::pipeline::Evaluated, BookError> {
    env.budget.evaluation(place)?;
    let ev = crate::pipeline::evaluate_with(
        case,
        crate::pipeline::Options {
            verify,
            progress: None,
            cancel: Some(env.budget.cancel()),
            ..Default::default()
        },
    )
    .map_err(|e| match e {
        crate::pipeline::Error::Cancelled => env.budget.spent(place),
        other => input_error(other),
    })?;
    claims_hold(&ev, place)?;
    Ok(ev)
}

/// The report of the case at a canonical path, cut into sections: once
/// per build.
fn rendered(
    key: &Key,
    path: &str,
    place: &str,
    env: &Env,
) -> Result<Rc<sections::Rendered>, BookError> {
    if let Some(r) = env.rendered.borrow().get(key) {
        return Ok(r.clone());
    }
    let ev = evaluated(key, path, place, env)?;
    let cut = sections::render(&env.templates, &ev, env.html)
        .map_err(|e| BookError::Input(format!("{place}: {e}")))?;
    let cut = Rc::new(cut);
    env.rendered.borrow_mut().insert(key.clone(), cut.clone());
    Ok(cut)
}

/// What a directive shows of a report, as chapter Markdown.
fn quoted(cut: &sections::Rendered, req: &Request) -> String {
    let md = cut.select(&req.sections, req.no_title);
    format!("\n{}\n", md.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

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
