//! The change list as a person reads it: each quantity's label in the
//! sheet's words beside its stable identifier, its old and new values
//! printed as the sheet prints that quantity ([`Kind`]: unit and rounding
//! direction), the relative change or what happened. `meff diff`, `meff
//! eval`'s text and every sheet format print these rows.

use super::{Change, Diff, Item, Kind, Status};
use crate::number::{at_most, pretty, sig, sig_round, time_unit};
use serde::Serialize;
use serde_json::Value;

/// The sheet's display units (its `display`): ω, masses, times.
#[derive(Clone, Debug, PartialEq)]
pub struct Units {
    /// ω's unit and its factor from rad/s.
    pub omega: (String, f64),
    /// Masses' unit and its factor from kg.
    pub mass: (String, f64),
    /// Times' unit and its factor from s; `None`: s/ms/µs by size.
    pub time: Option<(String, f64)>,
}

impl Default for Units {
    fn default() -> Units {
        Units {
            omega: ("rad/s".into(), 1.0),
            mass: ("kg".into(), 1.0),
            time: None,
        }
    }
}

impl Units {
    /// A document's display units (its `display` object, as
    /// `case::Display` serialises); SI where it has none.
    pub fn of(doc: &Value) -> Units {
        let pick = |v: &Value| {
            Some((
                v.get("unit")?.as_str()?.to_string(),
                v.get("factor")?.as_f64()?,
            ))
        };
        let d = &doc["display"];
        let si = Units::default();
        Units {
            omega: pick(&d["omega"]).unwrap_or(si.omega),
            mass: pick(&d["mass"]).unwrap_or(si.mass),
            time: pick(&d["time"]),
        }
    }
}

impl From<&crate::case::Display> for Units {
    fn from(d: &crate::case::Display) -> Units {
        Units {
            omega: (d.omega.unit.clone(), d.omega.factor),
            mass: (d.mass.unit.clone(), d.mass.factor),
            time: d.time.as_ref().map(|t| (t.unit.clone(), t.factor)),
        }
    }
}

/// One printed line of the change list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// In the sheet's words.
    pub label: String,
    /// The stable identifier.
    pub quantity: String,
    /// The old value as printed (`—` when added).
    pub old: String,
    /// The new value as printed (`—` when removed).
    pub new: String,
    /// The relative change (`+25.0 %`), or `added`, `removed`, `FLIPPED`,
    /// `changed`.
    pub change: String,
    /// A verdict (printed first, in bold on a sheet).
    pub verdict: bool,
}

/// A number of `kind` with its SI `unit` as the sheet prints it.
fn number(value: f64, unit: &str, kind: Kind, units: &Units, d: usize) -> String {
    let round = kind.round();
    let scaled = |(label, factor): &(String, f64)| {
        format!("{} {}", pretty(&sig_round(value * factor, d, round)), label)
    };
    match (unit, kind) {
        (_, Kind::Input | Kind::Text) => with_unit(pretty(&sig(value, d)), unit),
        ("s", Kind::Step) => match &units.time {
            Some((label, f)) => format!("{} {label}", pretty(&sig(at_most(value * f, d), d))),
            None => pretty(&crate::number::time_at_most(value, d)),
        },
        ("s", _) => match &units.time {
            Some(u) => scaled(u),
            None => {
                let (label, f) = time_unit(value);
                scaled(&(label.to_string(), f))
            }
        },
        ("rad/s", _) => scaled(&units.omega),
        ("kg", _) => scaled(&units.mass),
        _ => with_unit(pretty(&sig_round(value, d, round)), unit),
    }
}

fn with_unit(n: String, unit: &str) -> String {
    if unit.is_empty() {
        n
    } else {
        format!("{n} {}", crate::notation::unit_text(unit))
    }
}

fn value(i: &Option<Item>, kind: Kind, units: &Units, d: usize) -> String {
    match i {
        None => "—".into(),
        Some(Item::Text(s)) => s.clone(),
        Some(Item::Number { value, unit }) => number(*value, unit, kind, units, d),
    }
}

/// What happened, as the last column prints it.
fn change_word(c: &Change) -> String {
    match (c.status, c.relative_change) {
        (Status::Changed, Some(r)) => {
            let s = pretty(&sig(100.0 * r, 3));
            if r > 0.0 {
                format!("+{s} %")
            } else {
                format!("{s} %")
            }
        }
        (s, _) => s.word().into(),
    }
}

/// Each change as printed, numbers with `digits` significant figures in
/// the sheet's `units`: what `meff diff` prints and every format's
/// "Changes since the previous revision" lists.
pub fn rows(d: &Diff, digits: usize, units: &Units) -> Vec<Row> {
    d.changes
        .iter()
        .map(|c| Row {
            label: c.label.clone(),
            quantity: c.quantity.clone(),
            old: value(&c.old, c.kind, units, digits),
            new: value(&c.new, c.kind, units, digits),
            change: change_word(c),
            verdict: c.verdict,
        })
        .collect()
}

/// How many quantities changed and what happened to the verdicts:
/// “29 of 51 quantities changed; 1 verdict flipped, 2 added, 1 removed”.
pub fn summary(d: &Diff) -> String {
    let n = d.changes.len();
    let mut s = format!("{n} of {} quantities changed", n + d.unchanged);
    let mut verdicts = Vec::new();
    if d.flipped > 0 {
        let plural = if d.flipped == 1 { "" } else { "s" };
        verdicts.push(format!("{} verdict{plural} flipped", d.flipped));
    }
    for (k, word) in [(d.verdicts_added, "added"), (d.verdicts_removed, "removed")] {
        if k > 0 {
            let plural = if k == 1 { "" } else { "s" };
            verdicts.push(format!("{k} verdict{plural} {word}"));
        }
    }
    if verdicts.is_empty() {
        s.push_str(", no verdict flipped");
    } else {
        s.push_str("; ");
        s.push_str(&verdicts.join(", "));
    }
    s
}

/// The table a person reads: the summary, then one line per change.
pub fn text(d: &Diff, digits: usize, units: &Units) -> String {
    let rows = rows(d, digits, units);
    let mut out = format!("{} → {}\n", d.titles[0], d.titles[1]);
    if rows.is_empty() {
        out.push_str(&format!(
            "no change: {} quantities compared (relative tolerance {})\n",
            d.unchanged,
            crate::number::sci(d.tolerance, 1)
        ));
        return out;
    }
    let head = ["quantity", "identifier", "old", "new", "change"].map(String::from);
    let cells: Vec<[String; 5]> = rows
        .into_iter()
        .map(|r| [r.label, r.quantity, r.old, r.new, r.change])
        .collect();
    let width = |k: usize| {
        cells
            .iter()
            .chain(std::iter::once(&head))
            .map(|r| r[k].chars().count())
            .max()
            .unwrap_or(0)
    };
    let w = [width(0), width(1), width(2), width(3)];
    let line = |r: &[String; 5]| {
        let pad = |s: &str, n: usize| format!("{s}{}", " ".repeat(n - s.chars().count()));
        format!(
            "{}  {}  {}  {}  {}\n",
            pad(&r[0], w[0]),
            pad(&r[1], w[1]),
            pad(&r[2], w[2]),
            pad(&r[3], w[3]),
            r[4]
        )
    };
    out.push_str(&format!(
        "{} (relative tolerance {})\n\n",
        summary(d),
        crate::number::sci(d.tolerance, 1)
    ));
    out.push_str(&line(&head));
    for r in &cells {
        out.push_str(&line(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_prints_as_the_sheet_does() {
        let si = Units::default();
        // A step rounded down (5.2737 ms → 5.273 ms), in the sheet's unit.
        assert_eq!(number(0.0052737, "s", Kind::Step, &si, 4), "5.273 ms");
        let ms = Units {
            time: Some(("ms".into(), 1e3)),
            ..Units::default()
        };
        assert_eq!(number(0.00052737, "s", Kind::Step, &ms, 4), "0.5273 ms");
        // An upper bound up, a limit down, a result to the nearest.
        assert_eq!(number(374.91, "N", Kind::UpperBound, &si, 4), "375.0 N");
        assert_eq!(number(374.91, "N", Kind::Value, &si, 4), "374.9 N");
        assert_eq!(number(0.834799, "m/s", Kind::Limit, &si, 4), "0.8347 m/s");
        assert_eq!(
            number(0.834799, "m/s", Kind::LowerBound, &si, 4),
            "0.8347 m/s"
        );
        // ω in the sheet's unit.
        let hz = Units {
            omega: ("Hz".into(), 1.0 / std::f64::consts::TAU),
            ..Units::default()
        };
        assert_eq!(number(316.2278, "rad/s", Kind::Value, &hz, 4), "50.33 Hz");
        assert_eq!(number(2.0, "kg m^2", Kind::Input, &si, 4), "2.000 kg·m²");
        assert_eq!(Kind::Step.round(), crate::number::Round::Down);
    }
}
