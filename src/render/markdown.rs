//! The Markdown report: title, description, inputs, then the summary
//! sections of [`text::sections`](super::text::sections) as tables.

use super::text::sections;
use crate::report::Report;
use std::fmt::Write;

fn escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}

/// Renders a report as Markdown with `digits` significant figures.
pub fn document(report: &Report, digits: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", report.title);
    if !report.description.trim().is_empty() {
        let _ = writeln!(out, "{}\n", report.description.trim());
    }
    let _ = writeln!(out, "*{}*\n", super::text::headline(report));
    if !report.inputs.is_empty() {
        out.push_str("## Inputs\n\n| symbol | value | SI | description |\n|---|---|---|---|\n");
        for p in &report.inputs {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} {} | {} |",
                p.name,
                escape(&p.value),
                super::number::sig(p.si, digits),
                p.si_unit,
                escape(p.description.as_deref().unwrap_or(""))
            );
        }
        out.push('\n');
    }
    for section in sections(report, digits) {
        let _ = writeln!(out, "## {}\n", section.title);
        if !section.header.is_empty() {
            let header: Vec<String> = section.header.iter().map(|h| escape(h)).collect();
            let _ = writeln!(out, "| {} |", header.join(" | "));
            let _ = writeln!(out, "|{}|", vec!["---"; header.len()].join("|"));
            for row in &section.rows {
                let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
            out.push('\n');
        }
        for note in &section.notes {
            let _ = writeln!(out, "{note}\n");
        }
    }
    out.push_str(
        "## Assumptions\n\nFrozen geometry at the stated configuration; small motion about a compressed \
         (preloaded) contact state; linear penalty springs; other forces ignored. The stable timesteps \
         are those of the undamped frozen linear system under symplectic Euler, velocity Verlet or \
         central differences (2/ω).\n",
    );
    let _ = writeln!(
        out,
        "\n---\nmeff {} · case sha256 `{}`",
        env!("CARGO_PKG_VERSION"),
        report.case_sha256
    );
    out
}
