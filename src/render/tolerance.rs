//! The Tolerances and "Changes since the previous revision" sections of
//! `meff eval`'s text (the sheets' is a block of
//! each template, from the same `report.tolerances`).

use super::section::Section;
use crate::number::sig;
use crate::report::Report;

/// The section, when the case has tolerances.
pub fn section(report: &Report, d: usize) -> Vec<Section> {
    let Some(t) = &report.tolerances else {
        return Vec::new();
    };
    let inputs = Section {
        title: "Tolerances: inputs".into(),
        header: ["parameter", "as typed", "unit", "low", "nominal", "high"]
            .map(String::from)
            .to_vec(),
        rows: t
            .inputs
            .iter()
            .map(|i| {
                vec![
                    i.parameter.clone(),
                    i.written.clone(),
                    i.shown_unit.clone(),
                    sig(i.lo * i.shown_scale, d),
                    sig(i.nominal * i.shown_scale, d),
                    sig(i.hi * i.shown_scale, d),
                ]
            })
            .collect(),
        notes: t.notes.clone(),
    };
    let mut notes = Vec::new();
    for b in &t.results {
        notes.extend(b.notes.iter().map(|n| format!("{}: {n}", b.quantity)));
    }
    let results = Section {
        title: "Tolerances: results".into(),
        header: [
            "result",
            "unit",
            "nominal",
            "lowest (exact)",
            "highest (exact)",
            "first order low",
            "first order high",
            "first order off (%)",
            "driven by",
        ]
        .map(String::from)
        .to_vec(),
        rows: t
            .results
            .iter()
            .map(|b| {
                // A step limit rounded down in the sheet's time unit, as
                // the stable-step table prints it.
                let cell = |x: f64| {
                    if !b.step {
                        return sig(x, d);
                    }
                    match &report.display.time {
                        Some(u) => format!(
                            "{} {}",
                            sig(crate::number::at_most(x * u.factor, d), d),
                            u.unit
                        ),
                        None => crate::number::time_at_most(x, d),
                    }
                };
                vec![
                    b.quantity.clone(),
                    if b.step {
                        String::new()
                    } else {
                        b.unit.to_string()
                    },
                    cell(b.nominal),
                    cell(b.lo),
                    cell(b.hi),
                    cell(b.first_order_lo),
                    cell(b.first_order_hi),
                    sig(b.first_order_gap * 100.0, 2),
                    b.driver.clone().unwrap_or_else(|| "—".into()),
                ]
            })
            .collect(),
        notes,
    };
    vec![inputs, results]
}

/// What changed since the previous revision, when the case names one.
pub fn changes(report: &Report, d: usize) -> Vec<Section> {
    let Some(ch) = &report.changes else {
        return Vec::new();
    };
    let flips = ch.diff.flips().count();
    let note = format!(
        "Since {}{}: {} of {} quantities changed{}.",
        ch.previous,
        ch.previous_revision
            .as_ref()
            .map_or(String::new(), |r| format!(" (revision {r})")),
        ch.diff.changes.len(),
        ch.diff.changes.len() + ch.diff.unchanged,
        if flips > 0 {
            format!(", {flips} verdict(s) flipped")
        } else {
            String::new()
        }
    );
    vec![Section {
        title: "Changes since the previous revision".into(),
        header: ["quantity", "old", "new", "change"]
            .map(String::from)
            .to_vec(),
        rows: crate::revision::rows(&ch.diff, d)
            .into_iter()
            .map(Vec::from)
            .collect(),
        notes: vec![note],
    }]
}
