//! `meff report`: every output rendered before anything is written.

use crate::args::*;
use crate::common::*;
use meff::render;
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) struct ReportOptions<'a> {
    pub(crate) check: bool,
    pub(crate) digits: usize,
    pub(crate) verify: bool,
    pub(crate) templates: Option<&'a std::path::Path>,
    pub(crate) limit: u64,
}

/// `meff report`: every case is read and every output rendered before
/// anything is written; bad input anywhere writes nothing (exit 2).
pub(crate) fn report(
    paths: &[PathBuf],
    out: &std::path::Path,
    formats: &[Format],
    options: ReportOptions,
) -> ExitCode {
    if formats.contains(&Format::Pdf) && !cfg!(feature = "pdf") {
        error(meff::render::PDF_NOT_BUILT);
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    if out.exists() && !out.is_dir() {
        error(&format!(
            "-o {} is a file; it must be a directory (created when missing)",
            shown(out)
        ));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let templates = match meff::render::templates::Templates::load(options.templates) {
        Ok(t) => t,
        Err(e) => {
            error(&format!("templates: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let files = match meff::output::case_files(paths) {
        Ok(f) => f,
        Err(e) => {
            error(&format!("cannot list cases: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if files.is_empty() {
        error(&format!(
            "no case files (*.toml) in {}",
            paths
                .iter()
                .map(|p| shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let stems: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let run = || -> Result<ExitCode, ExitCode> {
        refuse_collisions(&files, &stems, out, formats)?;
        let evaluated = evaluate_all(&files, &options)?;
        let (outputs, failed_claims) = render_all(
            &templates, &evaluated, &files, &stems, out, formats, &options,
        )?;
        let stale = check_or_write(&outputs, options.check)?;
        if stale > 0 {
            error(&format!(
                "{stale} report file(s) out of date: run `meff report` without --check"
            ));
        }
        Ok(if stale > 0 || failed_claims {
            ExitCode::from(EXIT_CLAIM_FAILED)
        } else {
            ExitCode::SUCCESS
        })
    };
    run().unwrap_or_else(|code| code)
}

/// Step 1: names every output and refuses collisions before any work.
fn refuse_collisions(
    files: &[PathBuf],
    stems: &[String],
    out: &std::path::Path,
    formats: &[Format],
) -> Result<(), ExitCode> {
    let mut targets: Vec<(PathBuf, String)> = Vec::new();
    for (file, stem) in files.iter().zip(stems) {
        for format in formats {
            targets.push((
                out.join(format!("{stem}.{}", format.extension())),
                shown(file),
            ));
        }
    }
    if files.len() > 1 {
        for format in [Format::Md, Format::Html, Format::Pdf] {
            if formats.contains(&format) {
                targets.push((
                    out.join(format!("index.{}", format.extension())),
                    "the index".into(),
                ));
            }
        }
    }
    let collisions =
        meff::output::collisions(targets.iter().map(|(t, s)| (t.as_path(), s.as_str())));
    if collisions.is_empty() {
        return Ok(());
    }
    // One message per pair of sources (not per format).
    let mut said = std::collections::BTreeSet::new();
    for c in &collisions {
        if !said.insert((c.first.clone(), c.second.clone())) {
            continue;
        }
        error(&format!(
            "{} and {} would both write {}; rename one of them",
            c.first,
            c.second,
            shown(&c.target)
        ));
    }
    Err(ExitCode::from(EXIT_BAD_INPUT))
}

/// Step 2: reads and evaluates every case; any bad input stops before
/// writing (every case's errors are printed first).
fn evaluate_all(
    files: &[PathBuf],
    options: &ReportOptions,
) -> Result<Vec<meff::Evaluated>, ExitCode> {
    let mut evaluated = Vec::with_capacity(files.len());
    let mut bad: Vec<String> = Vec::new();
    let mut good: Vec<String> = Vec::new();
    for file in files {
        let listing = Listing {
            digits: Some(options.digits),
            ..Listing::default()
        };
        match load_and_evaluate_listing(file, options.verify, options.limit, listing) {
            Ok(e) => {
                good.push(shown(file));
                evaluated.push(e);
            }
            Err(e) => {
                print_error(&e);
                bad.push(bad_case(file, &e));
            }
        }
    }
    if !bad.is_empty() {
        let mut message = format!(
            "bad input in {} of {} case(s), nothing was written (a report run writes every \
             sheet or none):\n{}",
            bad.len(),
            files.len(),
            bad.iter()
                .map(|b| format!("  {b}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        if !good.is_empty() {
            message.push_str(&format!(
                "\nthe other {} case(s) are good; for their sheets, report them on their own: \
                 meff report {} -o DIR",
                good.len(),
                good.join(" ")
            ));
        }
        error(&message);
        return Err(ExitCode::from(EXIT_BAD_INPUT));
    }
    Ok(evaluated)
}

/// A bad case as the batch's closing list names it: the case file and
/// where its first error is (`file:line:col`, which may be a file the case
/// names), with the count of its errors.
fn bad_case(file: &std::path::Path, e: &meff::Error) -> String {
    match e {
        meff::Error::Input(src) => {
            let first = src.diagnostics.first().map_or_else(String::new, |d| {
                let (line, col) =
                    meff::diag::line_col(&src.source, d.span.start.min(src.source.len()));
                format!(
                    " at {}:{line}:{col}",
                    meff::diag::escape_controls(&src.path)
                )
            });
            let more = match src.diagnostics.len() {
                0 | 1 => String::new(),
                k => format!(" ({k} errors)"),
            };
            format!("{}{first}{more}", shown(file))
        }
        other => format!("{}: {other}", shown(file)),
    }
}

/// Files to write: target path and bytes.
type Files = Vec<(PathBuf, Vec<u8>)>;

/// Step 3: renders every report, the index and the assets in memory;
/// returns the files and whether a claim failed.
fn render_all(
    templates: &meff::render::templates::Templates,
    evaluated: &[meff::Evaluated],
    files: &[PathBuf],
    stems: &[String],
    out: &std::path::Path,
    formats: &[Format],
    options: &ReportOptions,
) -> Result<(Files, bool), ExitCode> {
    let mut outputs: Files = Vec::new();
    let mut index = Vec::new();
    let mut failed_claims = false;
    for ((ev, stem), file) in evaluated.iter().zip(stems).zip(files) {
        let report = &ev.report;
        failed_claims |= report.any_claim_failed();
        index.push(meff::render::templates::index_entry(report, stem));
        for format in formats {
            let bytes =
                match format {
                    Format::Md => templates.report_md_files(report, options.digits, stem).map(
                        |(text, files)| {
                            for (name, bytes) in files {
                                outputs.push((out.join(name), bytes));
                            }
                            text.into_bytes()
                        },
                    ),
                    Format::Html => templates
                        .report_html(report, options.digits)
                        .map(String::into_bytes),
                    Format::Json => Ok(render::json(report).into_bytes()),
                    Format::Pdf => pdf_report(templates, report, options.digits),
                };
            match bytes {
                Ok(t) => outputs.push((out.join(format!("{stem}.{}", format.extension())), t)),
                Err(e) => {
                    error(&format!("rendering {}: {e}", shown(file)));
                    return Err(ExitCode::from(EXIT_BAD_INPUT));
                }
            }
        }
    }
    if files.len() > 1 {
        let failed = |e: String| {
            error(&format!("rendering the index: {e}"));
            ExitCode::from(EXIT_BAD_INPUT)
        };
        for (format, html) in [(Format::Md, false), (Format::Html, true)] {
            if formats.contains(&format) {
                let t = templates
                    .index(&index, html)
                    .map_err(|e| failed(e.to_string()))?;
                outputs.push((
                    out.join(format!("index.{}", format.extension())),
                    t.into_bytes(),
                ));
            }
        }
        if formats.contains(&Format::Pdf) {
            let bytes = pdf_index(templates, &index).map_err(|e| failed(e.to_string()))?;
            outputs.push((out.join("index.pdf"), bytes));
        }
    }
    if formats.contains(&Format::Html) {
        for (name, bytes) in meff::render::templates::ASSETS {
            outputs.push((out.join("assets").join(name), bytes.to_vec()));
        }
    }
    Ok((outputs, failed_claims))
}

/// Step 4: checks the files against what is on disk (`--check`; returns
/// how many are stale or missing), or writes them all or nothing.
fn check_or_write(outputs: &[(PathBuf, Vec<u8>)], check: bool) -> Result<usize, ExitCode> {
    let mut stdout = Stdout::new();
    let mut stale = 0;
    let text = if check {
        let mut text = String::new();
        for (target, bytes) in outputs {
            match meff::output::freshness(target, bytes) {
                meff::output::Freshness::Current => {}
                meff::output::Freshness::Stale => {
                    text.push_str(&format!("stale: {}\n", shown(target)));
                    stale += 1;
                }
                meff::output::Freshness::Missing => {
                    text.push_str(&format!("missing: {}\n", shown(target)));
                    stale += 1;
                }
            }
        }
        text
    } else {
        match meff::output::write_all(outputs) {
            Ok(written) => written
                .iter()
                .map(|p| format!("wrote {}\n", shown(p)))
                .collect(),
            Err(e) => {
                error(&format!("{e}; nothing was written"));
                return Err(ExitCode::from(EXIT_BAD_INPUT));
            }
        }
    };
    stdout.print(&text)?;
    Ok(stale)
}

#[cfg(feature = "pdf")]
pub(crate) fn pdf_report(
    templates: &meff::render::templates::Templates,
    report: &meff::report::Report,
    digits: usize,
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    templates.report_pdf(report, digits)
}

#[cfg(feature = "pdf")]
pub(crate) fn pdf_index(
    templates: &meff::render::templates::Templates,
    index: &[serde_json::Value],
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    templates.index_pdf(index)
}

#[cfg(not(feature = "pdf"))]
pub(crate) fn pdf_report(
    _: &meff::render::templates::Templates,
    _: &meff::report::Report,
    _: usize,
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    Err(meff::render::templates::TemplateError(
        meff::render::PDF_NOT_BUILT.into(),
    ))
}

#[cfg(not(feature = "pdf"))]
pub(crate) fn pdf_index(
    _: &meff::render::templates::Templates,
    _: &[serde_json::Value],
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    Err(meff::render::templates::TemplateError(
        meff::render::PDF_NOT_BUILT.into(),
    ))
}
