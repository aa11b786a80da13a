//! The Tolerances and "Changes since the previous revision" sections of
//! `meff eval`'s text (the sheets' is a block of
//! each template, from the same `report.tolerances`).

use super::section::Section;
use crate::number::{Round, at_most, sig, sig_round};
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
    let mut notes: Vec<String> = t.definitions.iter().map(|n| n.to_string()).collect();
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
                // Each value rounded as `tolerance::Kind` says (a step down
                // in the sheet's time unit, a limit down, an interval
                // outward), as the summary and the change list print it.
                let cell = |x: f64, round| quantity(report, x, b.step, round, d);
                vec![
                    b.quantity.clone(),
                    if b.step {
                        String::new()
                    } else {
                        b.unit.to_string()
                    },
                    cell(b.nominal, b.round.nominal),
                    cell(b.lo, b.round.lo),
                    cell(b.hi, b.round.hi),
                    cell(b.first_order_lo, b.round.lo),
                    cell(b.first_order_hi, b.round.hi),
                    b.first_order_gap
                        .map_or_else(|| "—".into(), |g| sig(g * 100.0, 2)),
                    b.driver.clone().unwrap_or_else(|| "—".into()),
                ]
            })
            .collect(),
        notes,
    };
    vec![inputs, results]
}

/// A number as the sheet prints it: a step rounded down in the sheet's
/// time unit (`report.display.time`, else s/ms/µs by size), anything else
/// with its significant figures rounded `round` (`number::sig_round`).
pub fn quantity(report: &Report, x: f64, step: bool, round: Round, d: usize) -> String {
    if !step {
        return sig_round(x, d, round);
    }
    match &report.display.time {
        Some(u) => format!("{} {}", sig(at_most(x * u.factor, d), d), u.unit),
        None => crate::number::time_at_most(x, d),
    }
}

/// What changed since the previous revision, when the case names one:
/// the rows every format prints (`revision::rows`, in the sheet's units).
pub fn changes(report: &Report, d: usize) -> Vec<Section> {
    let Some(ch) = &report.changes else {
        return Vec::new();
    };
    let note = format!(
        "Since {}{}: {}.",
        ch.previous,
        ch.previous_revision
            .as_ref()
            .map_or(String::new(), |r| format!(" (revision {r})")),
        crate::revision::summary(&ch.diff)
    );
    // As this text prints its other sections: SI, steps in the sheet's
    // time unit (as the Tolerances rows above).
    let units = crate::revision::Units {
        time: crate::revision::Units::from(&report.display).time,
        ..Default::default()
    };
    vec![Section {
        title: "Changes since the previous revision".into(),
        header: ["quantity", "identifier", "old", "new", "change"]
            .map(String::from)
            .to_vec(),
        rows: crate::revision::rows(&ch.diff, d, &units)
            .into_iter()
            .map(|r| vec![r.label, r.quantity, r.old, r.new, r.change])
            .collect(),
        notes: vec![note],
    }]
}
