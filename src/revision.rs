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
//! step to use, a model-check warning) are listed first, as flips.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

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

/// One item that differs.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// Stable name (`m_eff(corner)`, `claim m_eff(corner) = 1.461 kg`).
    pub quantity: String,
    /// Whether it is a verdict (listed first: a flip).
    pub verdict: bool,
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
}

impl Diff {
    /// Verdicts that changed: present in both revisions with another
    /// value (a verdict one revision has and the other lacks is added or
    /// removed, not flipped).
    pub fn flips(&self) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(|c| c.verdict && c.old.is_some() && c.new.is_some())
    }
}

/// The named items of one document: (verdict?, name) → item.
type Items = BTreeMap<(u8, String), Item>;

/// Group keys: verdicts, inputs, results (the order they are listed in).
const VERDICT: u8 = 0;
const INPUT: u8 = 1;
const RESULT: u8 = 2;

/// Compares two meff JSON documents.
pub fn diff(old: &Value, new: &Value, tolerance: f64) -> Result<Diff, String> {
    let (a, b) = (items(old, "old")?, items(new, "new")?);
    let mut changes = Vec::new();
    let mut unchanged = 0;
    let keys: std::collections::BTreeSet<&(u8, String)> = a.keys().chain(b.keys()).collect();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        let relative_change = match (x, y) {
            (Some(Item::Number { value: p, .. }), Some(Item::Number { value: q, .. })) => {
                Some(relative(*p, *q))
            }
            _ => None,
        };
        let same = match relative_change {
            Some(r) => r.abs() <= tolerance || r == 0.0,
            None => x == y,
        };
        if same {
            unchanged += 1;
            continue;
        }
        changes.push(Change {
            quantity: key.1.clone(),
            verdict: key.0 == VERDICT,
            old: x.cloned(),
            new: y.cloned(),
            relative_change: relative_change.filter(|r| r.is_finite()),
        });
    }
    let title = |v: &Value| v["title"].as_str().unwrap_or("").to_string();
    Ok(Diff {
        titles: [title(old), title(new)],
        tolerance,
        changes,
        unchanged,
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

/// A name as the quantity syntax writes it: quoted when it holds a space,
/// comma, parenthesis or quote (`peak_force("on an edge", corner)`).
fn arg(name: &str) -> String {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\\'))
    {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        name.to_string()
    }
}

/// The named items of one document.
fn items(doc: &Value, which: &str) -> Result<Items, String> {
    if !doc.is_object() || doc.get("contacts").is_none() || doc.get("stable_dt").is_none() {
        return Err(format!(
            "the {which} document is not meff's JSON (no `contacts` and `stable_dt`)"
        ));
    }
    let mut out = Items::new();
    let mut put = |group: u8, name: String, item: Item| {
        out.insert((group, name), item);
    };
    let num = |v: &Value, unit: &'static str| v.as_f64().map(|value| Item::Number { value, unit });
    inputs(doc, &mut put);
    for c in array(&doc["contacts"]) {
        let n = arg(str_of(&c["name"]));
        for (key, label, unit) in [
            ("m_eff", "m_eff", "kg"),
            ("a", "a", "1/kg"),
            ("omega", "omega", "rad/s"),
            ("stiffness", "k", "N/m"),
            ("damping", "c", "N s/m"),
            ("naive_mass", "naive_mass", "kg"),
        ] {
            if let Some(i) = num(&c[key], unit) {
                put(RESULT, format!("{label}({n})"), i);
            }
        }
    }
    let names: Vec<String> = array(&doc["delassus"]["contacts"])
        .map(|v| str_of(v).to_string())
        .collect();
    for (i, row) in array(&doc["delassus"]["matrix"]).enumerate() {
        for (j, v) in array(row).enumerate() {
            let (Some(p), Some(q)) = (names.get(i), names.get(j)) else {
                continue;
            };
            // One entry per unordered pair, named in sorted order.
            if p <= q
                && let Some(x) = num(v, "1/kg")
            {
                put(RESULT, format!("A({}, {})", arg(p), arg(q)), x);
            }
        }
    }
    for (key, name, unit) in [
        ("coupled_omega_max", "omega_max", "rad/s"),
        ("independent_omega_max", "independent_omega_max", "rad/s"),
        (
            "coupled_omega_upper_bound",
            "omega_max_upper_bound",
            "rad/s",
        ),
    ] {
        if let Some(i) = num(&doc[key], unit) {
            put(RESULT, name.into(), i);
        }
    }
    // A Hertz sheet's governing fastest mode (its step is `stable_dt`).
    if let Some(x) = num(&doc["hertz_states"]["at_peak"]["omega_max"], "rad/s") {
        put(RESULT, "omega_max at the Hertz impact's peak".into(), x);
    }
    if let Some(dt) = doc["stable_dt"].as_object() {
        for (key, v) in dt {
            match (key.as_str(), v) {
                ("governing", v) => {
                    if let Some(i) = num(v, "s") {
                        put(RESULT, "stable_dt".into(), i);
                    }
                }
                ("governing_by", Value::String(s)) => {
                    put(
                        VERDICT,
                        "what sets the step to use".into(),
                        Item::Text(s.clone()),
                    );
                }
                (k, v) if k != "independent_over_coupled" && k != "governing_corners" => {
                    if let Some(i) = num(v, "s") {
                        put(RESULT, format!("stable_dt.{k}"), i);
                    }
                }
                _ => {}
            }
        }
    }
    for (i, m) in array(&doc["modes"]).enumerate() {
        if let Some(x) = num(&m["omega"], "rad/s") {
            put(RESULT, format!("mode_omega({})", i + 1), x);
        }
    }
    for (i, m) in array(&doc["damped_modes"]).enumerate() {
        if let Some(x) = num(&m["zeta"], "") {
            put(RESULT, format!("mode_zeta({})", i + 1), x);
        }
    }
    // Results bounded over tolerances: each end by the result's id.
    for b in array(&doc["tolerances"]["results"]) {
        let id = str_of(&b["id"]);
        let unit = unit_of(str_of(&b["unit"]));
        for (key, end) in [("lo", "lowest"), ("hi", "highest")] {
            if let Some(x) = num(&b[key], unit) {
                put(RESULT, format!("{id} {end} over the tolerances"), x);
            }
        }
    }
    impacts(doc, &mut put);
    verdicts(doc, &mut put);
    engines_and_persons(doc, &mut put);
    Ok(out)
}

fn array(v: &Value) -> impl Iterator<Item = &Value> {
    v.as_array().into_iter().flatten()
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn inputs(doc: &Value, put: &mut impl FnMut(u8, String, Item)) {
    for p in array(&doc["inputs"]) {
        let name = str_of(&p["name"]).to_string();
        // The value as typed tells a changed expression; the SI value, a
        // changed number behind the same text (a parameter it uses).
        put(
            INPUT,
            name.clone(),
            Item::Text(str_of(&p["value"]).to_string()),
        );
        if let Some(value) = p["si"].as_f64() {
            put(
                INPUT,
                format!("{name} (SI)"),
                Item::Number {
                    value,
                    unit: unit_of(str_of(&p["si_unit"])),
                },
            );
        }
    }
}

/// The SI units meff writes, as static strings (unknown ones print as
/// "SI").
fn unit_of(s: &str) -> &'static str {
    const KNOWN: [&str; 16] = [
        "", "kg", "m", "s", "N", "N/m", "N s/m", "kg m^2", "rad", "rad/s", "1/s", "Hz", "m/s",
        "m/s^2", "J", "1/kg",
    ];
    KNOWN.iter().find(|k| **k == s).copied().unwrap_or("SI")
}

fn impacts(doc: &Value, put: &mut impl FnMut(u8, String, Item)) {
    for imp in array(&doc["impacts"]) {
        let i = arg(str_of(&imp["name"]));
        for c in array(&imp["contacts"]) {
            if str_of(&c["role"]) != "struck" {
                continue;
            }
            let n = arg(str_of(&c["contact"]));
            for (key, unit) in [
                ("peak_force", "N"),
                ("duration", "s"),
                ("compression", "m"),
                ("restitution", ""),
            ] {
                if let Some(value) = c[key].as_f64() {
                    put(
                        RESULT,
                        format!("{key}({i}, {n})"),
                        Item::Number { value, unit },
                    );
                }
            }
        }
    }
}

fn verdicts(doc: &Value, put: &mut impl FnMut(u8, String, Item)) {
    for c in array(&doc["claims"]) {
        let text = format!("claim {} = {}", str_of(&c["of"]), str_of(&c["equals"]));
        put(VERDICT, text, Item::Text(str_of(&c["verdict"]).to_string()));
    }
    if let Some(agrees) = doc["verification"]["verdict"]["agrees"].as_bool() {
        let v = if agrees { "agrees" } else { "disagrees" };
        put(VERDICT, "verification".into(), Item::Text(v.into()));
    }
    for w in array(&doc["model_checks"]) {
        put(
            VERDICT,
            format!(
                "model check {} ({})",
                str_of(&w["rule"]),
                str_of(&w["input"])
            ),
            Item::Text("warns".into()),
        );
    }
}

fn engines_and_persons(doc: &Value, put: &mut impl FnMut(u8, String, Item)) {
    for e in array(&doc["engines"]) {
        let name = str_of(&e["name"]).to_string();
        if let Some(stable) = e["stable"].as_bool() {
            let v = if stable { "stable" } else { "unstable" };
            put(VERDICT, format!("{name} step"), Item::Text(v.into()));
        }
        for c in array(&e["contacts"]) {
            let n = arg(str_of(&c["name"]));
            for (key, unit) in [("k", "N/m"), ("c", "N s/m"), ("m_engine", "kg")] {
                if let Some(value) = c[key].as_f64() {
                    put(
                        RESULT,
                        format!("{name} {key}({n})"),
                        Item::Number { value, unit },
                    );
                }
            }
        }
    }
    for p in array(&doc["persons"]) {
        let at = format!("{} at {}", str_of(&p["region"]), str_of(&p["contact"]));
        let limit = p["force_limit"].as_f64();
        for side in ["exact", "rule_of_thumb"] {
            let r = &p[side];
            for (key, unit) in [
                ("robot_mass", "kg"),
                ("peak_force", "N"),
                ("max_speed", "m/s"),
            ] {
                if let Some(value) = r[key].as_f64() {
                    put(
                        RESULT,
                        format!("person {at}: {side} {key}"),
                        Item::Number { value, unit },
                    );
                }
            }
            if side == "exact"
                && let (Some(f), Some(limit)) = (r["peak_force"].as_f64(), limit)
            {
                let v = if f <= limit {
                    "within its force limit"
                } else {
                    "over its force limit"
                };
                put(VERDICT, format!("person {at}"), Item::Text(v.into()));
            }
        }
    }
}

/// The table a person reads: flips, then changes, added and removed items,
/// numbers with `digits` significant figures.
pub fn text(d: &Diff, digits: usize) -> String {
    let rows = rows(d, digits);
    text_of(d, rows)
}

/// Each change as (quantity, old, new, change), numbers with `digits`
/// significant figures: what `meff diff` prints and `meff eval`'s
/// "Changes since the previous revision" lists.
pub fn rows(d: &Diff, digits: usize) -> Vec<[String; 4]> {
    let show = |i: &Option<Item>, step: bool| match i {
        None => "—".to_string(),
        Some(Item::Text(s)) => s.clone(),
        // A step limit rounded down, any time in s/ms/µs, as the sheets
        // print them.
        Some(Item::Number { value, unit: "s" }) if step => {
            crate::number::time_at_most(*value, digits)
        }
        Some(Item::Number { value, unit: "s" }) => crate::number::time(*value, digits),
        Some(Item::Number { value, unit }) => {
            let n = crate::number::sig(*value, digits);
            if unit.is_empty() {
                n
            } else {
                format!("{n} {unit}")
            }
        }
    };
    let mut rows: Vec<[String; 4]> = Vec::new();
    for c in &d.changes {
        let change = match (c.relative_change, &c.old, &c.new) {
            (Some(r), _, _) => format!("{:+.3} %", 100.0 * r),
            (None, None, _) => "added".into(),
            (None, _, None) => "removed".into(),
            _ if c.verdict => "FLIPPED".into(),
            _ => "changed".into(),
        };
        let step = is_step(&c.quantity);
        rows.push([
            c.quantity.clone(),
            show(&c.old, step),
            show(&c.new, step),
            change,
        ]);
    }
    rows
}

/// A step limit's stable identifier (`stable_dt…`, `dt_to_use…`,
/// `dt_guaranteed…`): printed rounded down.
fn is_step(quantity: &str) -> bool {
    quantity.starts_with("stable_dt") || quantity.starts_with("dt_")
}

fn text_of(d: &Diff, rows: Vec<[String; 4]>) -> String {
    let mut out = format!("{} → {}\n", d.titles[0], d.titles[1]);
    if rows.is_empty() {
        out.push_str(&format!(
            "no change: {} quantities compared (relative tolerance {})\n",
            d.unchanged,
            crate::number::sci(d.tolerance, 1)
        ));
        return out;
    }
    let head = ["quantity", "old", "new", "change"].map(String::from);
    let width = |k: usize| {
        rows.iter()
            .chain(std::iter::once(&head))
            .map(|r| r[k].chars().count())
            .max()
            .unwrap_or(0)
    };
    let w = [width(0), width(1), width(2)];
    let line = |r: &[String; 4]| {
        let pad = |s: &str, n: usize| format!("{s}{}", " ".repeat(n - s.chars().count()));
        format!(
            "{}  {}  {}  {}\n",
            pad(&r[0], w[0]),
            pad(&r[1], w[1]),
            pad(&r[2], w[2]),
            r[3]
        )
    };
    let flips = d.flips().count();
    out.push_str(&format!(
        "{} changed ({flips} verdict{} flipped), {} unchanged (relative tolerance {})\n\n",
        rows.len(),
        if flips == 1 { "" } else { "s" },
        d.unchanged,
        crate::number::sci(d.tolerance, 1)
    ));
    out.push_str(&line(&head));
    for r in &rows {
        out.push_str(&line(r));
    }
    out
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
        assert!(text(&d, 4).contains("FLIPPED"));
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
