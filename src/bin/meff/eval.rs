//! `meff eval` and `meff check`.

use crate::args::*;
use crate::common::*;
use meff::render;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `meff eval` prints.
pub(crate) struct EvalOptions {
    pub(crate) format: EvalFormat,
    pub(crate) contacts: Option<meff::report::ContactSelection>,
    pub(crate) engine: Option<meff::case::Engine>,
    pub(crate) dofs: bool,
    pub(crate) digits: usize,
    pub(crate) verify: bool,
    pub(crate) limit: u64,
}

pub(crate) fn eval(path: &std::path::Path, o: EvalOptions) -> ExitCode {
    let listing = Listing {
        contacts: o.contacts,
        dofs: o.dofs,
        engine: o.engine,
        digits: Some(o.digits),
    };
    let evaluated = match load_and_evaluate_listing(path, o.verify, o.limit, listing) {
        Ok(e) => e,
        Err(e) => {
            print_error(&e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    meff::timing::mark("evaluate");
    let mut evaluated = evaluated;
    let failed = evaluated.report.any_claim_failed();
    let report = &mut evaluated.report;
    if let Some(name) = o.engine {
        let Some(e) = report.engines.iter().find(|e| e.engine == name) else {
            error(&format!(
                "{}: engines are translated for systems analysed densely, not on the large-system path",
                shown(path)
            ));
            return ExitCode::from(EXIT_BAD_INPUT);
        };
        let written = match o.format {
            EvalFormat::Text => {
                Stdout::new().print(&meff::diag::terminal_text(&render::text::sections_text(
                    &report.title,
                    &render::engine_text::sections(e, o.digits),
                )))
            }
            _ => Stdout::new().stream(|w| {
                serde_json::to_writer_pretty(&mut *w, e).map_err(std::io::Error::other)?;
                writeln!(w)
            }),
        };
        if let Err(code) = written {
            return code;
        }
        return if failed {
            ExitCode::from(EXIT_CLAIM_FAILED)
        } else {
            ExitCode::SUCCESS
        };
    }
    let written = match o.format {
        EvalFormat::Text => Stdout::new().print(&meff::diag::terminal_text(
            &render::text::summary(report, o.digits),
        )),
        EvalFormat::Json => Stdout::new().stream(|w| render::json_to(report, w)),
        EvalFormat::Jsonl => Stdout::new().stream(|w| render::jsonl_to(report, w)),
    };
    if let Err(code) = written {
        return code;
    }
    meff::timing::mark("output");
    // The process ends here: the evaluated case is left for the operating
    // system to reclaim (freeing 10⁷ small allocations one by one took
    // longer than writing the output at 10⁶ contacts). Output is flushed.
    std::mem::forget(evaluated);
    if failed {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// An error as plain text (no colour), for records and logs.
pub(crate) fn plain_error(e: &meff::Error) -> String {
    match e {
        meff::Error::Input(src) => {
            meff::diag::render(&src.path, &src.source, &src.diagnostics, false)
        }
        other => other.to_string(),
    }
}

pub(crate) fn check(paths: &[PathBuf], limit: u64, verbose: bool) -> ExitCode {
    let files = match meff::output::case_files(paths) {
        Ok(f) if !f.is_empty() => f,
        Ok(_) => {
            error("no case files (*.toml) given");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(e) => {
            error(&format!("cannot list cases: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = Stdout::new();
    let mut bad_input = false;
    let mut failed = false;
    for path in &files {
        let evaluated = match load_and_evaluate(path, false, limit) {
            Ok(e) => e,
            Err(e) => {
                print_error(&e);
                bad_input = true;
                continue;
            }
        };
        let claims = &evaluated.report.claims;
        let passed = claims.iter().filter(|c| c.passed == Some(true)).count();
        let mut text = format!(
            "{}: {passed} of {} claims passed\n",
            shown(path),
            claims.len()
        );
        for c in claims {
            let mark = match c.passed {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "UNDECIDED",
            };
            // At most three lines a claim unless --verbose.
            text.push_str(&format!("  {mark}  {} = {}  [{}]\n", c.of, c.equals, c.how));
            if let Some(msg) = &c.message {
                text.push_str(&format!("        {msg}\n"));
            }
            if c.passed != Some(true)
                && let Some(point) = &c.counterexample
            {
                let shown = if verbose {
                    point.len()
                } else {
                    point.len().min(6)
                };
                let mut list: Vec<String> = point[..shown]
                    .iter()
                    .map(|p| {
                        format!(
                            "{} = {}",
                            p.name,
                            meff::number::sig(p.value, meff::number::DEFAULT_DIGITS)
                        )
                    })
                    .collect();
                if shown < point.len() {
                    list.push(format!("… ({} more with --verbose)", point.len() - shown));
                }
                text.push_str(&format!("        where (SI): {}\n", list.join(", ")));
            }
            if verbose && let Some(details) = &c.details {
                text.push_str(&format!("        {details}\n"));
            }
        }
        if let Err(code) = out.print(&meff::diag::terminal_text(&text)) {
            return code;
        }
        failed |= evaluated.report.any_claim_failed();
    }
    if bad_input {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if failed {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}
