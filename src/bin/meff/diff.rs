//! `meff diff OLD NEW`: what changed between two revisions (meff JSON
//! documents, or case files evaluated here); exit 0 when nothing changed,
//! 1 when something did, 2 on bad input — as diff(1).

use crate::args::EXIT_BAD_INPUT;
use crate::common::{Stdout, error, load_and_evaluate, print_error, shown};
use std::path::Path;
use std::process::ExitCode;

/// What `meff diff` was asked.
pub(crate) struct DiffOptions {
    pub(crate) json: bool,
    pub(crate) tolerance: f64,
    pub(crate) digits: usize,
    pub(crate) verify: bool,
    pub(crate) limit: u64,
}

/// One revision as meff's JSON document: read from a `.json` file, or
/// computed from a case file.
fn document(path: &Path, o: &DiffOptions) -> Result<serde_json::Value, ExitCode> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !is_json {
        return match load_and_evaluate(path, o.verify, o.limit) {
            Ok(ev) => serde_json::to_value(&ev.report).map_err(|e| {
                error(&format!("{}: {e}", shown(path)));
                ExitCode::from(EXIT_BAD_INPUT)
            }),
            Err(e) => {
                print_error(&e);
                Err(ExitCode::from(EXIT_BAD_INPUT))
            }
        };
    }
    let bytes = meff::case::read_bounded(path, o.limit).map_err(|e| {
        error(&format!("cannot read {}: {e}", shown(path)));
        ExitCode::from(EXIT_BAD_INPUT)
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        error(&format!(
            "{}:{}:{}: not a JSON document: {e}",
            shown(path),
            e.line(),
            e.column()
        ));
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

pub(crate) fn diff(old: &Path, new: &Path, o: DiffOptions) -> ExitCode {
    if !(o.tolerance >= 0.0 && o.tolerance.is_finite()) {
        error("--tolerance must be a finite number ≥ 0");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let run = || -> Result<ExitCode, ExitCode> {
        let (a, b) = (document(old, &o)?, document(new, &o)?);
        let d = meff::revision::diff(&a, &b, o.tolerance).map_err(|e| {
            error(&e);
            ExitCode::from(EXIT_BAD_INPUT)
        })?;
        let text = if o.json {
            let mut s = serde_json::to_string_pretty(&d).unwrap_or_default();
            s.push('\n');
            s
        } else {
            // In the new revision's display units (the old one's when the
            // new one is not a sheet's JSON), as its sheet prints them.
            let units = if b.get("display").is_some() {
                meff::revision::Units::of(&b)
            } else {
                meff::revision::Units::of(&a)
            };
            meff::revision::text(&d, o.digits, &units)
        };
        Stdout::new().print(&text)?;
        Ok(if d.changes.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    };
    run().unwrap_or_else(|code| code)
}
