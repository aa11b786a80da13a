//! Markdown and HTML reports from templates.
//!
//! Steps: 1. the [`Report`] is serialized into a tera context together with
//! the plots (inline SVG strings, drawn by [`plot`](super::plot)); 2. the
//! templates (`templates/` — embedded in the binary, each replaceable by a
//! file of the same name in a user's `--templates DIR`) lay it out, using
//! only formatting filters: `sig`, `time`, `tex_num`, `math`, `math_block`,
//! `markdown`; 3. `math` turns LaTeX into MathML with math-core (no
//! JavaScript is needed to read the formulas), `markdown` turns the case's
//! description into HTML with pulldown-cmark, math included.
//!
//! Templates compute nothing: every number comes from the report data.

pub use super::context::{
    PDF_PT_PER_UNIT, PDF_TEXT_WIDTH_PT, ROUNDOFF, SHEET_ROWS, TypstFile, index_entry, pdf_width_pt,
    quantity_words, unit_text, zero_roundoff,
};
use super::context::{context, link_path, plots_to_files, standalone, svg_to_files};
use super::number::{sig, time};
use crate::number::Round;
use crate::report::Report;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;

/// The built-in templates, by name.
pub const BUILTIN: &[(&str, &str)] = &[
    ("report.html", include_str!("../../templates/report.html")),
    ("report.md", include_str!("../../templates/report.md")),
    ("index.html", include_str!("../../templates/index.html")),
    ("index.md", include_str!("../../templates/index.md")),
    ("style.css", include_str!("../../templates/style.css")),
    ("report.typ", include_str!("../../templates/report.typ")),
    ("index.typ", include_str!("../../templates/index.typ")),
];

/// Files written beside the reports (the math font and its licence).
pub const ASSETS: &[(&str, &[u8])] = &[
    (
        "STIXMath-Regular.otf",
        include_bytes!("../../assets/STIXMath-Regular.otf"),
    ),
    ("OFL.txt", include_bytes!("../../assets/OFL.txt")),
];

/// A template set: the built-in ones with a user's overrides applied.
pub struct Templates {
    tera: tera::Tera,
}

/// Why templates could not be loaded or rendered.
#[derive(Debug)]
pub struct TemplateError(pub String);

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

fn err(e: tera::Error) -> TemplateError {
    use std::error::Error;
    let mut msg = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    TemplateError(msg)
}

/// A value as plain text (strings without quotes).
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn digits(args: &HashMap<String, Value>) -> usize {
    args.get("d")
        .and_then(Value::as_u64)
        .map_or(4, |d| d as usize)
}

pub use crate::number::pretty;

pub use crate::notation::tex_number;

pub use crate::notation::tex_time;

/// LaTeX → MathML; on failure the LaTeX is shown as code (never an error
/// page). `\boxed{…}` (which math-core does not know) becomes a CSS box.
pub fn math(latex: &str, block: bool) -> String {
    let trimmed = latex.trim();
    if let Some(inner) = trimmed
        .strip_prefix("\\boxed{")
        .and_then(|s| s.strip_suffix('}'))
    {
        return format!("<span class=\"boxed\">{}</span>", math(inner, block));
    }
    // Nesting beyond what any sheet writes is shown as source: the
    // converter recurses per level.
    if super::layout::too_deep(trimmed) {
        return format!("<code class=\"latex\">{}</code>", html_escape(trimmed));
    }
    let config = math_core::MathCoreConfig::default();
    let display = if block {
        math_core::MathDisplay::Block
    } else {
        math_core::MathDisplay::Inline
    };
    // The converter asserts on some malformed input (a `&` outside an
    // environment, found by fuzzing): a panic there is a formula shown as
    // source, never a failed report.
    let converted = std::panic::catch_unwind(|| {
        math_core::LatexToMathML::new(config)
            .ok()
            .and_then(|c| c.convert_with_local_state(trimmed, display).ok())
    })
    .ok()
    .flatten();
    match converted {
        // Whatever the converter returns is re-emitted from an allow-list:
        // a formula can never carry a script into the page.
        Some(r) => safe::sanitize_mathml(&r.mathml),
        None => format!("<code class=\"latex\">{}</code>", html_escape(trimmed)),
    }
}

use super::safe::{self, html_escape};

/// Markdown (with `$…$` math) → HTML. Raw HTML is shown as text; links
/// and images whose URL is not allowed ([`safe::allowed_url`]) become their
/// text; images are never loaded (a report makes no requests), they become
/// links to the image.
pub fn markdown(text: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    // Per open link or image: whether its tags are kept.
    let mut kept: Vec<bool> = Vec::new();
    let events = Parser::new_ext(text, options).filter_map(|e| {
        Some(match e {
            Event::InlineMath(m) => Event::InlineHtml(math(&m, false).into()),
            Event::DisplayMath(m) => Event::Html(math(&m, true).into()),
            // No raw HTML from case files: shown as text.
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
            // Images become links to the image: a report loads nothing.
            Event::Start(
                Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }
                | Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                },
            ) => {
                let ok = safe::allowed_url(&dest_url);
                kept.push(ok);
                if !ok {
                    return None;
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if !kept.pop().unwrap_or(false) {
                    return None;
                }
                Event::End(TagEnd::Link)
            }
            other => other,
        })
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

impl Templates {
    /// The built-in templates, with files from `dir` replacing those of the
    /// same name.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec![".html"]);
        for (name, builtin) in BUILTIN {
            let text = match dir.map(|d| d.join(name)).filter(|p| p.is_file()) {
                Some(path) => std::fs::read_to_string(&path)
                    .map_err(|e| TemplateError(format!("{}: {e}", path.display())))?,
                None => (*builtin).to_string(),
            };
            tera.add_raw_template(name, &text).map_err(err)?;
        }
        // Numbers as an engineer writes them: `1.000 × 10⁵`, true minus.
        // `round="down"` for a limit, `"up"` for an upper bound.
        tera.register_filter("sig", |v: &Value, a: &HashMap<String, Value>| {
            Ok(Value::String(num(v).map_or_else(
                || "—".into(),
                |x| pretty(&crate::number::sig_round(x, digits(a), round(a))),
            )))
        });
        tera.register_filter("time", |v: &Value, a: &HashMap<String, Value>| {
            let fixed = fixed_unit(a);
            Ok(Value::String(num(v).map_or_else(
                || "—".into(),
                |x| match &fixed {
                    Some((label, f)) => format!("{} {label}", pretty(&sig(x * f, digits(a)))),
                    None => pretty(&time(x, digits(a))),
                },
            )))
        });
        register_step(&mut tera);
        tera.register_filter("scale", |v: &Value, a: &HashMap<String, Value>| {
            let by = a.get("by").and_then(Value::as_f64).unwrap_or(1.0);
            Ok(num(v).map_or(Value::Null, |x| json!(x * by)))
        });
        // A time as LaTeX in the sheets' unit: `6.325\,\mathrm{ms}`.
        // `round="down"` for a step limit.
        tera.register_filter("tex_time", |v: &Value, a: &HashMap<String, Value>| {
            Ok(Value::String(num(v).map_or_else(
                || "\\infty".into(),
                |x| match round(a) {
                    Round::Down => tex_time(crate::number::at_most(x, digits(a)), digits(a)),
                    Round::Up => tex_time(crate::number::at_least(x, digits(a)), digits(a)),
                    Round::Nearest => tex_time(x, digits(a)),
                },
            )))
        });
        tera.register_filter("tex_num", |v: &Value, a: &HashMap<String, Value>| {
            Ok(Value::String(num(v).map_or_else(
                || "\\infty".into(),
                |x| tex_number(x, digits(a)),
            )))
        });
        tera.register_filter("math", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(math(v.as_str().unwrap_or(""), false)))
        });
        // Display equations are laid out to fit the page first.
        tera.register_filter("math_block", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(math(
                &super::layout::display(v.as_str().unwrap_or("")),
                true,
            )))
        });
        tera.register_filter("layout", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(super::layout::display(
                v.as_str().unwrap_or(""),
            )))
        });
        // Typst (PDF): text escaped for markup, string bodies, math.
        tera.register_filter("typ", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(typ_text(&plain(v))))
        });
        // `image("…", width: …pt)` at the size `report_typ` measured.
        tera.register_filter("typ_image", |v: &Value, a: &HashMap<String, Value>| {
            let name = plain(v);
            let w = a
                .get("sizes")
                .and_then(|m| m.get(name.as_str()))
                .and_then(Value::as_f64)
                .unwrap_or(PDF_TEXT_WIDTH_PT);
            Ok(Value::String(format!(
                "image(\"{}\", width: {w:.1}pt)",
                typ_string(&name)
            )))
        });
        tera.register_filter("typ_string", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(typ_string(&plain(v))))
        });
        tera.register_filter("typ_markdown", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(typ_markdown(&plain(v))))
        });
        tera.register_filter("typ_math", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(typ_math(&plain(v), false)))
        });
        tera.register_filter("typ_block", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(typ_math(&plain(v), true)))
        });
        tera.register_filter("tex_unit", |v: &Value, _: &HashMap<String, Value>| {
            let u = plain(v);
            Ok(Value::String(if u.trim().is_empty() {
                String::new()
            } else {
                format!("\\,{}", crate::symbolic::latex_unit(&u))
            }))
        });
        tera.register_filter("unit", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(unit_text(&plain(v))))
        });
        tera.register_filter("words", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(quantity_words(&plain(v))))
        });
        tera.register_filter("tex_text", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(super::layout::tex_text(&plain(v))))
        });
        tera.register_filter("markdown", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(markdown(v.as_str().unwrap_or(""))))
        });
        // Markdown output: text escaped, code spans fenced, descriptions
        // with raw HTML and unsafe links neutralised.
        tera.register_filter("md", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(safe::markdown_text(&plain(v))))
        });
        tera.register_filter("md_math", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(safe::markdown_math(&plain(v))))
        });
        tera.register_filter("md_code", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(safe::markdown_code(&plain(v))))
        });
        tera.register_filter("md_description", |v: &Value, _: &HashMap<String, Value>| {
            Ok(Value::String(safe::markdown_description(
                v.as_str().unwrap_or(""),
            )))
        });
        // A section's marker line, written only when a book asks for one
        // (`section_mark`, see `report_md_marked`); empty otherwise.
        tera.register_filter("section", |v: &Value, a: &HashMap<String, Value>| {
            let mark = a.get("m").and_then(Value::as_str).unwrap_or("");
            Ok(Value::String(if mark.is_empty() {
                String::new()
            } else {
                format!("{mark} {}\n", v.as_str().unwrap_or(""))
            }))
        });
        Ok(Templates { tera })
    }

    fn render(&self, name: &str, context: &Value) -> Result<String, TemplateError> {
        let ctx = tera::Context::from_serialize(context).map_err(err)?;
        self.tera.render(name, &ctx).map_err(err)
    }

    /// The HTML report of one case.
    pub fn report_html(&self, report: &Report, digits: usize) -> Result<String, TemplateError> {
        self.render("report.html", &context(report, digits, true))
    }

    /// The Markdown report of one case without figures (books quote it;
    /// `meff report` writes [`Templates::report_md_files`]).
    pub fn report_md(&self, report: &Report, digits: usize) -> Result<String, TemplateError> {
        self.render("report.md", &context(report, digits, false))
    }

    /// [`Templates::report_md`] with a line `MARK id` before each section's
    /// heading (`id` from `render::sheet::SECTIONS`): a book selects
    /// sections by these lines, which only the template writes, never by
    /// reading headings out of text a case author wrote into.
    pub fn report_md_marked(
        &self,
        report: &Report,
        digits: usize,
        mark: &str,
    ) -> Result<String, TemplateError> {
        let mut ctx = context(report, digits, false);
        ctx["section_mark"] = Value::String(mark.to_string());
        self.render("report.md", &ctx)
    }

    /// The Markdown report of one case with its figures (the sketch and
    /// the plots) as SVG files beside it, named after `stem`
    /// (`stem.sketch.svg`, `stem.plot-1.svg`, …) and linked relative to
    /// the report. Returns the text and the files (name, bytes).
    pub fn report_md_files(
        &self,
        report: &Report,
        digits: usize,
        stem: &str,
    ) -> Result<(String, Vec<TypstFile>), TemplateError> {
        let mut ctx = context(report, digits, true);
        let mut files = Vec::new();
        if let Some(Value::Object(p)) = ctx.get_mut("plots") {
            // Mode-shape bars stay in the HTML and PDF tables.
            p.remove("modes");
            if let Some(Value::String(svg)) = p.get_mut("sketch") {
                let name = format!("{stem}.sketch.svg");
                let mut doc = standalone(svg);
                doc.push('\n');
                files.push((name.clone(), doc.into_bytes()));
                *svg = link_path(&name);
            }
            let mut n = 0;
            for v in p.values_mut() {
                svg_to_files(v, &mut |svg: &str| {
                    n += 1;
                    let name = format!("{stem}.plot-{n}.svg");
                    let mut doc = standalone(svg);
                    doc.push('\n');
                    files.push((name.clone(), doc.into_bytes()));
                    link_path(&name)
                });
            }
        }
        Ok((self.render("report.md", &ctx)?, files))
    }

    /// The Typst source of one case's PDF and the plots it reads (virtual
    /// SVG files). Built without the `pdf` feature too, so that every
    /// build's tests render the template.
    pub fn report_typ(
        &self,
        report: &Report,
        digits: usize,
    ) -> Result<(String, Vec<TypstFile>), TemplateError> {
        let mut ctx = context(report, digits, true);
        let mut files = Vec::new();
        if let Some(p) = ctx.get_mut("plots") {
            plots_to_files(p, &mut files);
        }
        let sizes: serde_json::Map<String, Value> = files
            .iter()
            .map(|(name, svg)| (name.clone(), json!(pdf_width_pt(svg))))
            .collect();
        ctx["plot_pt"] = Value::Object(sizes);
        Ok((self.render("report.typ", &ctx)?, files))
    }

    /// The PDF report of one case.
    #[cfg(feature = "pdf")]
    pub fn report_pdf(&self, report: &Report, digits: usize) -> Result<Vec<u8>, TemplateError> {
        let (source, files) = self.report_typ(report, digits)?;
        super::pdf::typeset(&source, files, &report.case_sha256).map_err(TemplateError)
    }

    /// The PDF index of several reports.
    #[cfg(feature = "pdf")]
    pub fn index_pdf(&self, entries: &[Value]) -> Result<Vec<u8>, TemplateError> {
        let ctx = json!({ "cases": entries, "version": env!("CARGO_PKG_VERSION") });
        let source = self.render("index.typ", &ctx)?;
        super::pdf::typeset(&source, Vec::new(), "meff index").map_err(TemplateError)
    }

    /// The index of several reports (`entries` from [`index_entry`]).
    pub fn index(&self, entries: &[Value], html: bool) -> Result<String, TemplateError> {
        let ctx = json!({ "cases": entries, "version": env!("CARGO_PKG_VERSION") });
        self.render(if html { "index.html" } else { "index.md" }, &ctx)
    }
}

fn typ_text(s: &str) -> String {
    super::typ::text(s)
}

fn typ_string(s: &str) -> String {
    super::typ::string_body(s)
}

/// LaTeX → Typst math: inline `$…$`, or a display equation laid out to
/// fit the page first.
fn typ_math(latex: &str, block: bool) -> String {
    if block {
        format!("$ {} $", super::typ::math(&super::layout::display(latex)))
    } else {
        format!("${}$", super::typ::math(latex))
    }
}

fn typ_markdown(s: &str) -> String {
    super::typ::markdown(s)
}

#[cfg(test)]
mod tests {
    use super::super::context::trim_for_sheet;
    use super::*;

    #[test]
    fn a_big_sheet_keeps_only_what_it_prints() {
        let big = vec![vec![1.0; 300]; 300];
        let mut v = json!({
            "delassus": {"matrix": big.clone(), "coupling": big.clone()},
            "model": {"jacobian": big.clone()},
            "modes": [{"omega": 1.0, "shape": vec![1.0; 300]}],
        });
        trim_for_sheet(&mut v);
        for m in [
            &v["delassus"]["matrix"],
            &v["delassus"]["coupling"],
            &v["model"]["jacobian"],
        ] {
            let rows = m.as_array().unwrap();
            assert_eq!(rows.len(), SHEET_ROWS);
            assert!(
                rows.iter()
                    .all(|r| r.as_array().unwrap().len() == SHEET_ROWS)
            );
        }
        assert_eq!(v["modes"][0]["shape"], json!([]));
        assert_eq!(v["modes"][0]["omega"], json!(1.0));
    }

    #[test]
    fn roundoff_entries_print_as_zero() {
        let mut m = json!([[1.603e-17, -0.4869], [0.0, 2.0]]);
        zero_roundoff(&mut m);
        assert_eq!(m, json!([[0.0, -0.4869], [0.0, 2.0]]));
        // A small matrix is scaled by its own largest entry.
        let mut v = json!([1e-18, 3e-9]);
        zero_roundoff(&mut v);
        assert_eq!(v, json!([1e-18, 3e-9]));
        let mut w = json!([1e-22, 3e-9]);
        zero_roundoff(&mut w);
        assert_eq!(w, json!([0.0, 3e-9]));
    }

    #[test]
    fn math_and_markdown() {
        let m = math("\\frac{1}{m} + \\frac{r^{2}}{I}", false);
        assert!(m.starts_with("<math") && m.contains("<mfrac>"), "{m}");
        let boxed = math("\\boxed{m_{\\rm eff}=\\frac1{JM^{-1}J^{\\mathsf T}}}", true);
        assert!(boxed.starts_with("<span class=\"boxed\"><math"), "{boxed}");
        let bad = math("\\frac{", false);
        assert!(bad.starts_with("<code"), "{bad}");
        let md = markdown("A *block* with $a = 1/m$ and <script>x</script>.");
        assert!(
            md.contains("<math") && md.contains("<em>block</em>") && !md.contains("<script>"),
            "{md}"
        );
        assert_eq!(tex_number(1e5, 4), "1.000\\times10^{5}");
    }
}

#[cfg(test)]
mod layout_tests {
    #[test]
    fn names_with_latex_specials_typeset() {
        let tex = super::super::layout::tex_text("a_b{c}\\d&e%f#g$h^i~j k.θ");
        let out = super::math(&format!("A_{{{tex}}} = 1"), true);
        assert!(!out.contains("<code"), "{tex}: {out}");
        let long: Vec<String> = (1..40).map(|i| format!("m_{{{i}}}")).collect();
        let eq = super::super::layout::display(&format!("a = {}", long.join(" + ")));
        let out = super::math(&eq, true);
        assert!(out.contains("<mtable"), "{out}");
    }
}

#[cfg(test)]
mod number_tests {
    #[test]
    fn numbers_as_an_engineer_writes_them() {
        assert_eq!(super::pretty("2.000e04"), "2.000 × 10⁴");
        assert_eq!(super::pretty("-1.5e-06"), "−1.5 × 10⁻⁶");
        assert_eq!(super::pretty("-0.5000"), "−0.5000");
        assert_eq!(super::pretty("316.2"), "316.2");
        assert_eq!(super::pretty("2.000e-06 s"), "2.000 × 10⁻⁶ s");
        assert_eq!(super::pretty("6.325 ms"), "6.325 ms");
        assert_eq!(super::unit_text("kg m^2"), "kg·m²");
        assert_eq!(super::unit_text("kg^-1 m^-2"), "kg⁻¹·m⁻²");
        assert_eq!(super::unit_text("N s/m"), "N·s/m");
    }
}

/// The `round` argument of a number filter: `"down"`, `"up"`, or
/// nearest when absent.
fn round(a: &HashMap<String, Value>) -> Round {
    match a.get("round").and_then(Value::as_str) {
        Some("down") => Round::Down,
        Some("up") => Round::Up,
        _ => Round::Nearest,
    }
}

/// The `unit` argument of the `time` and `step` filters: a display unit
/// object {unit, factor}, or none (null or absent) for automatic.
fn fixed_unit(a: &HashMap<String, Value>) -> Option<(String, f64)> {
    a.get("unit").and_then(|u| {
        Some((
            u.get("unit")?.as_str()?.to_string(),
            u.get("factor")?.as_f64()?,
        ))
    })
}

/// The `time_unit` filter (the display unit `time` picks for a value)
/// and the `step` filter: a step limit as `time` prints it, rounded down
/// (`number::at_most`): never above the limit it states.
fn register_step(tera: &mut tera::Tera) {
    // The display unit [`time`] picks for a value, as the `unit`
    // argument of `time`: one unit for a whole table column.
    tera.register_filter("time_unit", |v: &Value, _: &HashMap<String, Value>| {
        let (unit, factor) = crate::number::time_unit(num(v).unwrap_or(0.0));
        Ok(json!({ "unit": unit, "factor": factor }))
    });
    tera.register_filter("step", |v: &Value, a: &HashMap<String, Value>| {
        // `as_step=false`: not a step (a Tolerances row of another
        // quantity), printed as `sig` prints it (with its `round`).
        if a.get("as_step").and_then(Value::as_bool) == Some(false) {
            return Ok(Value::String(num(v).map_or_else(
                || "—".into(),
                |x| pretty(&crate::number::sig_round(x, digits(a), round(a))),
            )));
        }
        let fixed = fixed_unit(a);
        Ok(Value::String(num(v).map_or_else(
            || "—".into(),
            |x| match &fixed {
                Some((label, f)) => format!(
                    "{} {label}",
                    pretty(&sig(crate::number::at_most(x * f, digits(a)), digits(a)))
                ),
                None => pretty(&crate::number::time_at_most(x, digits(a))),
            },
        )))
    });
}
