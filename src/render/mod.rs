//! Rendering: report data → text for people (and JSON for programs).
//!
//! Input: a [`Report`](crate::report::Report). Output: strings. Renderers
//! format numbers and lay out tables; they compute no physics.

pub mod context;
pub mod engine_eqs;
pub mod engine_text;
mod format;
pub use format::Format;
pub mod headline;
mod headline_parts;
mod headline_person;
pub mod impact;
pub mod inert_md;
pub mod layout;
pub mod md_inline;
pub mod notation;
pub use crate::number;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod plot;
pub mod program;
pub mod safe;
pub mod section;
pub mod sheet;
pub mod sketch;
pub mod tangential;
pub mod templates;
pub mod text;
mod text_inputs;
mod text_verify;
pub mod tolerance;
pub mod typ;
pub mod workspace;

/// What `meff report --format pdf` says when the typesetter is not built
/// in (the cargo feature `pdf`, off by default to keep the first build
/// short). One line, quoted in the README.
pub const PDF_NOT_BUILT: &str = "PDF output is not built into this meff: install it with `cargo install --path . --features pdf` (or run `cargo run --features pdf -- report …`)";

use crate::report::{ContactReport, Report};
use serde::Serialize;
use std::io::{self, Write};

/// The report as pretty-printed JSON (docs/json.md), with a final newline.
pub fn json(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(report).expect("report data serializes");
    s.push('\n');
    s
}

/// The same document as [`json`], written to `out` as it is serialised
/// (no copy of the whole text in memory).
pub fn json_to(report: &Report, out: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// One line of a JSON Lines stream: the record's kind, then its keys.
#[derive(Serialize)]
struct Line<'a, T: Serialize> {
    record: &'static str,
    #[serde(flatten)]
    body: &'a T,
}

/// JSON Lines (docs/json.md): a first line `{"record":"case", …}` with the
/// document's keys (its `contacts` list empty), then one line
/// `{"record":"contact", …}` per listed contact, in the listed order.
/// (The contact list is taken out of `report` while the first line is
/// written, and put back.)
pub fn jsonl_to(report: &mut Report, out: &mut impl Write) -> io::Result<()> {
    let contacts = std::mem::take(&mut report.contacts);
    let written = jsonl_lines(report, &contacts, out);
    report.contacts = contacts;
    written
}

fn jsonl_lines(
    report: &Report,
    contacts: &[ContactReport],
    out: &mut impl Write,
) -> io::Result<()> {
    let head = Line {
        record: "case",
        body: report,
    };
    serde_json::to_writer(&mut *out, &head).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    for c in contacts {
        let line: Line<'_, ContactReport> = Line {
            record: "contact",
            body: c,
        };
        serde_json::to_writer(&mut *out, &line).map_err(io::Error::from)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
