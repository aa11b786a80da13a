//! What changed between two revisions of a calculation: the one
//! comparison `meff diff` prints and a report's "Changes since revision"
//! section (`[revision] previous`) lists.
//!
//! Both revisions are meff's JSON documents (docs/json.md) — written by
//! `meff report`/`meff eval --json`, or computed from case files by the
//! caller. Each document is read into named quantities whose names do not
//! depend on the order of anything in the case: inputs by parameter name,
//! contact results by contact name (`m_eff(corner)`, the names books and
//! claims use), couplings by the pair of contact names, modes by rank
//! (fastest first), impacts by impact and contact, engines by engine and
//! contact, claims by their text, model-check warnings by rule and input.
//! Reordering contacts, bodies or parameters therefore changes nothing;
//! a number counts as changed when it moves by more than a relative
//! tolerance (default [`DEFAULT_TOLERANCE`]: sums taken in another order
//! differ in their last bits).
//!
//! Verdicts (a claim passed or failed, the verification agreed, an engine's
//! step stable, a person contact within its force limit, what sets the
//! step to use, a model-check warning) are listed first; one flips when
//! both revisions have it with different values (a verdict only one has
//! is added or removed). Every quantity carries a label in the sheet's
//! words beside its identifier, and is printed as the sheet prints it
//! ([`Kind`]: a step rounded down in the sheet's time unit, an upper bound
//! up, …; `print.rs`).

use serde::Serialize;
use serde_json::Value;

mod items;
mod print;

pub use items::arg;
pub use print::{Row, Units, rows, summary, text};

/// Relative change below which two numbers are the same (round-off of a
/// different summation order is ~10⁻¹⁵; printed results carry 4 digits).
pub const DEFAULT_TOLERANCE: f64 = 1e-9;

/// One named item of a document.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Item {
    /// A number in SI units, with its unit (empty when dimensionless).
    Number {
        /// SI value.
        value: f64,
        /// SI unit.
        unit: &'static str,
    },
    /// A value as typed (an input), or a label.
    Text(String),
}

/// What a quantity is, for how the change list prints it: the same rule,
/// unit and rounding direction as the sheet prints that quantity with (a
/// closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Text: a verdict, an input as typed.
    Text,
    /// An input's SI value: to the nearest, in SI.
    Input,
    /// A result: to the nearest, in the sheet's display unit (ω, masses).
    Value,
    /// A duration: to the nearest, in the sheet's time unit.
    Time,
    /// A step limit: rounded down, in the sheet's time unit.
    Step,
    /// A permitted quantity (a speed limit): rounded down.
    Limit,
    /// An upper bound (of a force, a frequency, …): rounded up.
    UpperBound,
    /// A lower bound of a result that is not a limit: rounded down.
    LowerBound,
}

impl Kind {
    /// The rounding direction of its printed digits.
    pub fn round(self) -> crate::number::Round {
        use crate::number::Round;
        match self {
            Kind::Step | Kind::Limit | Kind::LowerBound => Round::Down,
            Kind::UpperBound => Round::Up,
            Kind::Text | Kind::Input | Kind::Value | Kind::Time => Round::Nearest,
        }
    }
}

/// What happened to an item between the two revisions (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// In both, with another value (a number or an input's text).
    Changed,
    /// A verdict in both, with another value.
    Flipped,
    /// Only in the new revision.
    Added,
    /// Only in the old revision.
    Removed,
}

impl Status {
    /// As the change list prints it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Changed => "changed",
            Status::Flipped => "FLIPPED",
            Status::Added => "added",
            Status::Removed => "removed",
        }
    }
}

/// One item that differs.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// Stable identifier (`m_eff(corner)`, `stable_dt.guaranteed`,
    /// `claim m_eff(corner) = 1.461 kg`): what a diff matches on.
    pub quantity: String,
    /// In the sheet's words (`guaranteed step (from the upper bound on
    /// ω_max)`).
    pub label: String,
    /// How it is printed.
    pub kind: Kind,
    /// Whether it is a verdict (listed first).
    pub verdict: bool,
    /// Changed, flipped (a verdict in both revisions), added or removed.
    pub status: Status,
    /// The old value (`null` when added).
    pub old: Option<Item>,
    /// The new value (`null` when removed).
    pub new: Option<Item>,
    /// (new − old)/|old| for numbers.
    pub relative_change: Option<f64>,
}

/// Everything that differs between two documents.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// Title of the old and the new document.
    pub titles: [String; 2],
    /// The relative tolerance used.
    pub tolerance: f64,
    /// Verdicts first, then inputs, then results; each group by name.
    pub changes: Vec<Change>,
    /// How many items were compared and found equal.
    pub unchanged: usize,
    /// Verdicts in both revisions with another value.
    pub flipped: usize,
    /// Verdicts only the new revision has (a claim or check added).
    pub verdicts_added: usize,
    /// Verdicts only the old revision has.
    pub verdicts_removed: usize,
}

impl Diff {
    /// Verdicts that changed: present in both revisions with another
    /// value (a verdict one revision has and the other lacks is added or
    /// removed, not flipped).
    pub fn flips(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.status == Status::Flipped)
    }
}

/// Compares two meff JSON documents.
pub fn diff(old: &Value, new: &Value, tolerance: f64) -> Result<Diff, String> {
    let (a, b) = (items::items(old, "old")?, items::items(new, "new")?);
    let mut changes = Vec::new();
    let mut unchanged = 0;
    let keys: std::collections::BTreeSet<&(u8, String)> = a.keys().chain(b.keys()).collect();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        let relative_change = match (x.map(|e| &e.item), y.map(|e| &e.item)) {
            (Some(Item::Number { value: p, .. }), Some(Item::Number { value: q, .. })) => {
                Some(relative(*p, *q))
            }
            _ => None,
        };
        let same = match relative_change {
            Some(r) => r.abs() <= tolerance || r == 0.0,
            None => x.map(|e| &e.item) == y.map(|e| &e.item),
        };
        if same {
            unchanged += 1;
            continue;
        }
        let verdict = key.0 == items::VERDICT;
        let status = match (x, y) {
            (None, _) => Status::Added,
            (_, None) => Status::Removed,
            _ if verdict => Status::Flipped,
            _ => Status::Changed,
        };
        // The new revision's words and rule (the old one's for an item
        // it lacks).
        let meta = y.or(x).expect("a key of one of the two");
        changes.push(Change {
            quantity: key.1.clone(),
            label: meta.label.clone(),
            kind: meta.kind,
            verdict,
            status,
            old: x.map(|e| e.item.clone()),
            new: y.map(|e| e.item.clone()),
            relative_change: relative_change.filter(|r| r.is_finite()),
        });
    }
    let count = |s: Status| {
        changes
            .iter()
            .filter(|c| c.verdict && c.status == s)
            .count()
    };
    let (flipped, verdicts_added, verdicts_removed) = (
        count(Status::Flipped),
        count(Status::Added),
        count(Status::Removed),
    );
    let title = |v: &Value| v["title"].as_str().unwrap_or("").to_string();
    Ok(Diff {
        titles: [title(old), title(new)],
        tolerance,
        changes,
        unchanged,
        flipped,
        verdicts_added,
        verdicts_removed,
    })
}

/// (q − p)/|p|; ±∞ from zero to nonzero, 0 for equal values (NaN-free:
/// non-finite numbers never reach here, JSON has none).
fn relative(p: f64, q: f64) -> f64 {
    if p == q {
        0.0
    } else if p == 0.0 {
        f64::INFINITY.copysign(q)
    } else {
        (q - p) / p.abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(m: f64, order: &[&str]) -> Value {
        let contacts: Vec<Value> = order
            .iter()
            .map(|n| json!({"name": n, "m_eff": if *n == "a" { m } else { 2.0 }, "omega": 10.0}))
            .collect();
        let entry = |p: &str, q: &str| match (p, q) {
            ("a", "a") => 1.0,
            ("b", "b") => 2.0,
            _ => 0.5,
        };
        let matrix: Vec<Vec<f64>> = order
            .iter()
            .map(|p| order.iter().map(|q| entry(p, q)).collect())
            .collect();
        json!({"title": "t", "contacts": contacts, "stable_dt": {"governing": 0.01, "governing_by": "coupled_mode"},
               "delassus": {"contacts": order, "matrix": matrix},
               "claims": [{"of": "m_eff(a)", "equals": "1 kg", "verdict": if (m - 1.0).abs() < 0.05 {"passed"} else {"failed"}}]})
    }

    #[test]
    fn reordering_changes_nothing_and_a_change_is_named() {
        let d = diff(
            &doc(1.0, &["a", "b"]),
            &doc(1.0, &["b", "a"]),
            DEFAULT_TOLERANCE,
        )
        .unwrap();
        assert!(d.changes.is_empty(), "{:?}", d.changes);
        assert_eq!(d.unchanged, 10);
        let d = diff(
            &doc(1.0, &["a", "b"]),
            &doc(1.1, &["a", "b"]),
            DEFAULT_TOLERANCE,
        )
        .unwrap();
        let names: Vec<&str> = d.changes.iter().map(|c| c.quantity.as_str()).collect();
        assert_eq!(names, ["claim m_eff(a) = 1 kg", "m_eff(a)"]);
        assert_eq!(d.flips().count(), 1);
        assert!((d.changes[1].relative_change.unwrap() - 0.1).abs() < 1e-12);
        assert!(text(&d, 4, &Units::default()).contains("FLIPPED"));
    }

    #[test]
    fn round_off_is_not_a_change_and_names_are_quoted() {
        let d = diff(
            &doc(1.0, &["a", "b"]),
            &doc(1.0 + 1e-14, &["a", "b"]),
            DEFAULT_TOLERANCE,
        )
        .unwrap();
        assert!(d.changes.is_empty());
        assert_eq!(arg("on an edge"), "\"on an edge\"");
        assert_eq!(arg("x\"y"), "\"x\\\"y\"");
        assert!(diff(&json!([]), &doc(1.0, &["a"]), 1e-9).is_err());
    }
}
